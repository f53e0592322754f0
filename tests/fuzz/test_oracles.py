"""Certified routines against the mpmath oracle (>= 600 digits) at the corners of the accepted inputs.

Each case must come back ``ok`` (the enclosure contains the oracle's value and is narrow) or ``refused`` (one
line); never ``unsafe``, ``wide`` or a traceback. The grid spans the input reader's exponents (±10,000).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from reference.core.certified import CertifiedReal
from tests.fuzz.oracles import OracleCase, _check_threshold, _check_value, power, run_oracle_case, zcdp_epsilon_tight

RHO = [power(1, -10000), power(3, -255), power(1, -30), Fraction(1, 2), power(1, 30), power(1, 10000)]
DELTA = [power(1, -10000), power(1, -196), power(1, -5), Fraction(1, 2), 1 - power(1, -300)]
EPSILON = [power(1, -10000), power(1, -12), Fraction(1, 10), Fraction(5), power(1, 30), power(1, 5000)]


def _cases() -> list[OracleCase]:
    cases = [OracleCase("epsilon_from_rho_tight", (("rho", rho), ("delta", delta))) for rho in RHO for delta in DELTA]
    cases += [OracleCase("epsilon_from_rho_simple", (("rho", rho), ("delta", delta))) for rho in RHO[1:5]
              for delta in DELTA[1:4]]
    cases += [OracleCase(name, (("rho", rho), ("epsilon", eps))) for name in ("delta_from_rho", "log_delta_from_rho")
              for rho in RHO[1:5] for eps in EPSILON[1:5]]
    cases += [OracleCase("rho_from_epsilon_delta", (("epsilon", eps), ("delta", delta))) for eps in EPSILON
              for delta in DELTA[1:4]]
    cases += [OracleCase("gaussian_delta", (("epsilon", eps), ("sigma", sigma), ("sensitivity_squared", Fraction(1))))
              for eps in (Fraction(1), Fraction(50)) for sigma in (power(1, -3), Fraction(1), power(1, 10), power(1, 1000))]
    cases += [OracleCase("gaussian_delta", (("epsilon", Fraction(50)), ("sigma", Fraction(12300)),
                                            ("sensitivity_squared", power(1, -10000))))]
    cases += [OracleCase("discrete_gaussian_delta", (("epsilon", eps), ("sigma_squared", scale), ("sensitivity", shift)))
              for eps in (Fraction(0), Fraction(1, 100), Fraction(3)) for scale in (1 + power(1, -7), Fraction(50, 7))
              for shift in (1, 5)]
    cases += [OracleCase("discrete_gaussian_delta", (("epsilon", Fraction(1, 100)), ("sigma_squared", Fraction(50, 7)),
                                                     ("sensitivity", 2**64)))]
    cases += [OracleCase("laplace_delta", (("epsilon", eps), ("scale", Fraction(2)), ("sensitivities", ["1"])))
              for eps in (power(1, -300), Fraction(1, 4))]
    return cases


@pytest.mark.parametrize("case", _cases(), ids=lambda case: case.describe()[:90])
def test_certified_value_contains_the_oracle_value_and_is_narrow(case: OracleCase) -> None:
    kind, detail = run_oracle_case(case)
    assert kind in ("ok", "refused"), f"{kind}: {detail}"


def test_the_corner_of_the_issue_is_narrow_now() -> None:
    """ρ = 3e-255, δ = 1e-196 gave [0, 1.36e-126]: its lower end must be certified, not collapsed to 0."""
    kind, detail = run_oracle_case(OracleCase("epsilon_from_rho_tight", (("rho", power(3, -255)),
                                                                         ("delta", power(1, -196)))))
    assert (kind, detail) == ("ok", "")


def test_the_oracle_sees_a_wrong_or_useless_enclosure() -> None:
    """Not blind: a true enclosure shifted by 2**-60 is unsafe, one widened to [0, upper] is wide, and a
    threshold bracket whose upper end is too small is unsafe."""
    from mpmath import mp

    from reference.privacy.zcdp import epsilon_from_rho_tight

    rho, delta = Fraction(1, 2), power(1, -6)
    found = epsilon_from_rho_tight(rho=rho, delta=delta)

    def truth() -> Any:
        return zcdp_epsilon_tight(rho, delta)

    assert _check_value(found, truth)[0] == "ok"
    shift = found.upper * Fraction(1, 2**60)
    assert _check_value(CertifiedReal(found.lower + shift + found.width, found.upper + shift + found.width),
                        truth)[0] == "unsafe"
    assert _check_value(CertifiedReal(Fraction(0), found.upper), truth)[0] == "wide"
    with mp.workdps(50):
        from tests.fuzz.oracles import laplace_delta_1d

        bracket = CertifiedReal(Fraction(1, 4), Fraction(1, 3))  # true smallest ε at δ = 0.1, b = 2, s = 1: 0.29
        assert _check_threshold(bracket, lambda eps: laplace_delta_1d(eps, Fraction(2), Fraction(1)),
                                Fraction(1, 10))[0] == "wide"
        too_small = CertifiedReal(Fraction(1, 5), Fraction(1, 4))
        assert _check_threshold(too_small, lambda eps: laplace_delta_1d(eps, Fraction(2), Fraction(1)),
                                Fraction(1, 10))[0] == "unsafe"
