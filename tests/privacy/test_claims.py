"""The one claim type and its rule: a tight float accountant holds with a relative tolerance, a real undercount
fails with it, and the failure line tells the two apart (claim, certified value, relative excess, tolerance)."""

from __future__ import annotations

from fractions import Fraction

import numpy
import pytest

from reference.audit.linear.renyi import DEFAULT_ORDERS, audit_gaussian_renyi
from reference.privacy.claims import claim, decide_value, number_text, rtol_fraction

SIGMA = 1.3  # a float σ: the accountant's and the audit's σ are the same binary number


def float_accountant(alpha: float) -> float:
    """The Gaussian's RDP α/(2σ²), evaluated in float64 as an accountant does (tight, but rounded)."""
    return alpha / (2 * SIGMA**2)


def test_the_float_curve_is_below_the_exact_one() -> None:
    # the premise, derived independently: at most listed orders the float value is below α/(2σ²) exactly
    exact_sigma = Fraction(SIGMA)
    below = [alpha for alpha in DEFAULT_ORDERS if Fraction(float_accountant(float(alpha))) < alpha / (2 * exact_sigma**2)]
    assert len(below) >= 10


def test_float_accountant_holds_with_rtol_and_an_undercount_still_fails() -> None:
    strict = audit_gaussian_renyi(sigma=SIGMA, sensitivity_squared=1, rdp=float_accountant)
    assert strict.verdict == "fails"  # by rounding only: the excess is about one ulp
    # the first listed order, α = 5/4: exact 5/(8 σ²) against the float value, excess 7.8e-17 (derived here)
    alpha = DEFAULT_ORDERS[0]
    excess = (alpha / (2 * Fraction(SIGMA) ** 2)) / Fraction(float_accountant(float(alpha))) - 1
    assert Fraction(78, 10**18) < excess < Fraction(79, 10**18)
    assert strict.order == alpha and "relative excess 7.82e-17, rtol = 0" in strict.reason
    tolerant = audit_gaussian_renyi(sigma=SIGMA, sensitivity_squared=1, rdp=float_accountant, rtol=1e-12)
    assert tolerant.verdict == "holds"
    undercount = audit_gaussian_renyi(sigma=SIGMA, sensitivity_squared=1, rdp=lambda alpha: 0.98 * float_accountant(alpha),
                                      rtol=1e-12)
    assert undercount.verdict == "fails"
    # 1/0.98 - 1 = 2.04e-02 (plus rounding), and the tolerance is printed beside it
    assert "relative excess 2.04e-02, rtol = 1.00e-12" in undercount.reason
    # ρ claims read the same way: ρ = 1/(2σ²) computed in floats
    rho = 1 / (2 * SIGMA**2)
    assert Fraction(rho) < 1 / (2 * Fraction(SIGMA) ** 2)
    assert audit_gaussian_renyi(sigma=SIGMA, sensitivity_squared=1, rho=rho).verdict == "fails"
    assert audit_gaussian_renyi(sigma=SIGMA, sensitivity_squared=1, rho=rho, rtol=1e-12).verdict == "holds"
    assert audit_gaussian_renyi(sigma_squared=Fraction(SIGMA) ** 2, sensitivity_squared=1, rho=rho,
                                rtol=1e-12).verdict == "holds"


def test_the_rule_three_ways() -> None:
    half = Fraction(1, 2)
    stated = claim(rho=half, rtol=Fraction(1, 100))
    allowed = half * Fraction(101, 100)
    assert decide_value(stated, quantity="rho", claimed=half, lower=allowed, upper=allowed).verdict == "holds"
    assert decide_value(stated, quantity="rho", claimed=half, lower=allowed + Fraction(1, 10**30),
                        upper=allowed + Fraction(1, 10**30)).verdict == "fails"
    # an enclosure straddling the allowance, or an upper bound alone above it: undecided
    assert decide_value(stated, quantity="rho", claimed=half, lower=allowed - 1 / Fraction(10**9),
                        upper=allowed + 1 / Fraction(10**9)).verdict == "inconclusive"
    assert decide_value(stated, quantity="rho", claimed=half, lower=None, upper=Fraction(1)).verdict == "inconclusive"


def test_claim_forms_and_refusals() -> None:
    assert claim(epsilon=1).text() == "1-DP" and claim(epsilon=1, delta="1e-5").text() == "(1, 1/100000)-DP"
    assert claim(rho="1/8").kind == "zcdp" and claim(rdp=[(2, 1)]).text() == "RDP curve at 1 order"
    with pytest.raises(ValueError, match="exactly one claim"):
        claim(epsilon=1, rho=1)
    with pytest.raises(ValueError, match=r"rtol must be in \[0, 1\)"):
        rtol_fraction(-1e-12)
    assert rtol_fraction(1e-12) == Fraction(1e-12)
    assert rtol_fraction(numpy.float64(1e-12)) == Fraction(1e-12)  # a NumPy scalar is its binary number
    with pytest.raises(TypeError, match=r"rtol must be an exact rational.*ndarray"):
        rtol_fraction(numpy.array([1e-12]))  # an array is not a number, even with one entry


def test_fractions_carry_a_decimal() -> None:
    assert number_text(Fraction(1, 3)) == "1/3 (~ 0.33333333333333333)"
    assert number_text(Fraction(5, 32)) == "5/32 (= 0.15625)"


def test_huge_numbers_print_as_decimals() -> None:
    assert number_text(Fraction(10**300)) == "1.0000000000000000e+300"
    assert claim(rho=10**300).text() == "1.0000000000000000e+300-zCDP"
    assert claim(rho=0.05).text() == "0.05f-zCDP"  # a float, read exactly, shown as the user wrote it
