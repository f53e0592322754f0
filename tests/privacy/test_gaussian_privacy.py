"""Tests of the certified Gaussian calibration, the Mahalanobis sensitivities and the paper-formula checks.

Reference values are computed independently here with mpmath at 50 digits (the Balle–Wang profile written
out from its definition) or by brute force over neighbouring pairs; no number is copied from the code.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import pytest
from flint import arb, ctx
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_verification.cip.checks import gaussian as gaussian_checks

from reference.cip.exact import matrix as cip_matrix
from reference.cip.privacy import sigma_theorem_3_8, sigma_theorem_3_9
from reference.cip.sensitivity import cascade_sensitivity_squared, mahalanobis_sensitivity_squared
from reference.core import linalg
from reference.core.certified import CertifiedReal, format_significant
from reference.privacy import formula_search
from reference.privacy.gaussian import (
    check_gaussian,
    gaussian_delta,
    gaussian_epsilon,
    sigma_classical,
    sigma_exact,
)

MP = mpmath.mp.clone()
MP.dps = 50


def mp_delta(epsilon: Fraction, sigma: Fraction, sensitivity_squared: Fraction) -> mpmath.mpf:
    """Balle & Wang (2018) Theorem 8, evaluated independently with mpmath at 50 digits."""
    eps = MP.mpf(epsilon.numerator) / epsilon.denominator
    sig = MP.mpf(sigma.numerator) / sigma.denominator
    big_delta = MP.sqrt(MP.mpf(sensitivity_squared.numerator) / sensitivity_squared.denominator)
    first = MP.ncdf(big_delta / (2 * sig) - eps * sig / big_delta)
    second = MP.exp(eps) * MP.ncdf(-big_delta / (2 * sig) - eps * sig / big_delta)
    return first - second


def mp_of(value: Fraction) -> mpmath.mpf:
    return MP.mpf(value.numerator) / value.denominator


def encloses(enclosure: CertifiedReal, value: mpmath.mpf, relative_slack: str = "1e-40") -> bool:
    """Whether an mpmath value lies in the enclosure, up to mpmath's own rounding (relative_slack)."""
    slack = abs(value) * MP.mpf(relative_slack)
    return bool(mp_of(enclosure.lower) - slack <= value <= mp_of(enclosure.upper) + slack)


# --------------------------------------------------------------------------------------- CertifiedReal


def test_certified_real_from_arb_contains_value() -> None:
    enclosure = CertifiedReal.from_arb(arb(1) / 3)
    assert enclosure.contains(Fraction(1, 3))
    assert enclosure.contains("1/3")
    assert not enclosure.contains(Fraction(1, 3) + Fraction(1, 10**12))
    # the ball holds 1/3 strictly inside: rounded down it prints 1/3's truncation, rounded up one unit more
    assert enclosure.decimal(15, rounded="down") == "0.333333333333333"
    assert enclosure.decimal(15, rounded="up") == "0.333333333333334"
    # a 53-bit ball does not back 20 digits, so they are refused rather than printed wrong
    with pytest.raises(ArithmeticError, match="20 significant digits"):
        enclosure.decimal(20, rounded="up")
    with pytest.raises(ValueError, match="'up' or 'down'"):
        enclosure.decimal(15, rounded="nearest")  # type: ignore[arg-type]


def test_certified_real_rejects_bad_interval() -> None:
    with pytest.raises(ValueError, match="lower <= upper"):
        CertifiedReal(Fraction(2), Fraction(1))
    with pytest.raises(TypeError, match="Fraction"):
        CertifiedReal(1.0, Fraction(1))  # type: ignore[arg-type]
    with pytest.raises(ArithmeticError):
        CertifiedReal.from_arb(arb("inf"))


@pytest.mark.parametrize(
    ("value", "digits", "expected"),
    [
        (Fraction(1, 3), 15, "0.333333333333333"),
        (Fraction(2, 3), 15, "0.666666666666667"),
        (Fraction(123456), 15, "123456.000000000"),
        (Fraction(-1, 8), 15, "-0.125000000000000"),
        (Fraction(1, 10**13), 15, "1.00000000000000e-13"),
        (Fraction(10**15 - 1, 10**15), 3, "1.00"),
        (Fraction(5, 10**7), 15, "5.00000000000000e-7"),
        (Fraction(0), 15, "0.00000000000000"),
    ],
)
def test_format_significant(value: Fraction, digits: int, expected: str) -> None:
    assert format_significant(value, digits) == expected


def test_decimal_needs_fifteen_digits() -> None:
    with pytest.raises(ValueError, match="digits"):
        CertifiedReal.exact(Fraction(1, 3)).decimal(10, rounded="up")


# --------------------------------------------------------------------------------------- δ(ε)


@pytest.mark.parametrize(
    ("epsilon", "sigma", "sensitivity_squared"),
    [
        ("1", "5", "1"),
        ("1/2", "3", "13/3"),
        ("1e-3", "1000", "1"),  # large σ/Δ at small ε
        ("1", "200", "1"),  # large σ/Δ: the two Φ terms cancel to ~5 digits; δ(ε) ~ 1e-8700
        ("50", "1/10", "2"),  # large ε, small σ: e^ε times a deep tail
        ("3", "1/100", "1"),  # σ ≪ Δ: δ(ε) close to 1
        ("1/10", "40", "7"),  # δ(ε) ~ 1e-9
    ],
)
def test_gaussian_delta_matches_mpmath(epsilon: str, sigma: str, sensitivity_squared: str) -> None:
    enclosure = gaussian_delta(epsilon=epsilon, sigma=sigma, sensitivity_squared=sensitivity_squared)
    reference = mp_delta(Fraction(epsilon), Fraction(sigma), Fraction(sensitivity_squared))
    assert encloses(enclosure, reference)
    assert enclosure.relative_width() < Fraction(1, 10**20)


def test_gaussian_delta_decreases_in_sigma() -> None:
    sigmas = [Fraction(1, 4), Fraction(1, 2), Fraction(1), Fraction(2), Fraction(5), Fraction(20)]
    enclosures = [gaussian_delta(epsilon="1/2", sigma=s, sensitivity_squared="5/3") for s in sigmas]
    for smaller, larger in itertools.pairwise(enclosures):
        assert larger.upper < smaller.lower


def test_flint_precision_is_restored() -> None:
    saved = ctx.prec
    gaussian_delta(epsilon="1", sigma="1000", sensitivity_squared="1")
    sigma_exact(epsilon="1", delta="1e-6", sensitivity_squared="1")
    with pytest.raises(ValueError):
        sigma_theorem_3_8(epsilon="2", delta="1e-6", max_precision_diagonal="1")
    assert ctx.prec == saved


# --------------------------------------------------------------------------------------- σ exact


def check_exact_certificate(epsilon: Fraction, delta: Fraction, sensitivity_squared: Fraction) -> None:
    result = sigma_exact(epsilon=epsilon, delta=delta, sensitivity_squared=sensitivity_squared)
    assert result.delta_at_sigma.upper <= delta
    assert result.delta_at_sigma_below.lower > delta
    assert result.sigma_below == result.sigma * (1 - result.tolerance)
    # independent confirmation at 50 digits
    assert mp_delta(epsilon, result.sigma, sensitivity_squared) <= mp_of(delta)
    assert mp_delta(epsilon, result.sigma_below, sensitivity_squared) > mp_of(delta)


@pytest.mark.parametrize(
    ("epsilon", "delta", "sensitivity_squared"),
    [("1", "1e-6", "1"), ("1/10", "1e-12", "13/3"), ("5", "1/2", "2"), ("100", "1e-9", "1"), ("1/1000", "9/10", "1")],
)
def test_sigma_exact_certificate(epsilon: str, delta: str, sensitivity_squared: str) -> None:
    check_exact_certificate(Fraction(epsilon), Fraction(delta), Fraction(sensitivity_squared))


def test_sigma_exact_scales_with_sensitivity() -> None:
    # σ_opt is proportional to Δ: with Δ² = 4 the optimum doubles, so the enclosures must overlap
    one = sigma_exact(epsilon="1/2", delta="1e-5", sensitivity_squared="1").enclosure
    four = sigma_exact(epsilon="1/2", delta="1e-5", sensitivity_squared="4").enclosure
    assert four.lower <= 2 * one.upper and 2 * one.lower <= four.upper


@settings(max_examples=8, deadline=None)
@given(
    epsilon=st.fractions(min_value=Fraction(1, 100), max_value=10, max_denominator=1000),
    delta_exponent=st.integers(min_value=1, max_value=10),
    delta_mantissa=st.integers(min_value=1, max_value=9),
    sensitivity_squared=st.fractions(min_value=Fraction(1, 10), max_value=100, max_denominator=100),
)
def test_sigma_exact_certificate_random(
    epsilon: Fraction, delta_exponent: int, delta_mantissa: int, sensitivity_squared: Fraction
) -> None:
    delta = Fraction(delta_mantissa, 10**delta_exponent)
    check_exact_certificate(epsilon, delta, sensitivity_squared)


def test_sigma_exact_below_theorem_3_8_in_range() -> None:
    for epsilon in ("1/1000", "1/10", "1/2", "1"):
        for delta in ("1e-12", "1e-6", "1/10", "1/2"):
            for diagonal in ("1", "13/3"):
                paper = sigma_theorem_3_8(epsilon=epsilon, delta=delta, max_precision_diagonal=diagonal)
                assert sigma_exact(epsilon=epsilon, delta=delta, sensitivity_squared=diagonal).sigma <= paper.lower


# --------------------------------------------------------------------------------------- ε for a δ


def test_gaussian_epsilon_brackets_the_optimum() -> None:
    for delta, sigma, d2 in (("1e-6", "5", "1"), ("1/3", "1/2", "2"), ("1e-10", "1/10", "1")):
        enclosure = gaussian_epsilon(delta=delta, sigma=sigma, sensitivity_squared=d2)
        assert enclosure.lower > 0
        assert mp_delta(enclosure.upper, Fraction(sigma), Fraction(d2)) <= mp_of(Fraction(delta))
        assert mp_delta(enclosure.lower, Fraction(sigma), Fraction(d2)) > mp_of(Fraction(delta))


def test_gaussian_epsilon_zero_when_delta_covers_epsilon_zero() -> None:
    # δ(0) = erf(Δ/(2√2 σ)): with σ = 10, Δ = 1 it is about 0.04, so δ = 1/2 needs no ε at all
    assert MP.erf(1 / (2 * MP.sqrt(2) * 10)) < MP.mpf(1) / 2
    assert gaussian_epsilon(delta="1/2", sigma="10", sensitivity_squared="1") == CertifiedReal(Fraction(0), Fraction(0))


def test_gaussian_epsilon_round_trip() -> None:
    exact = sigma_exact(epsilon="3/4", delta="1e-7", sensitivity_squared="5/3")
    achieved = gaussian_epsilon(delta="1e-7", sigma=exact.sigma, sensitivity_squared="5/3")
    assert achieved.upper <= Fraction(3, 4)
    assert achieved.upper > Fraction(3, 4) * (1 - Fraction(1, 10**6))


# --------------------------------------------------------------------------------------- paper formulas


@pytest.mark.parametrize("depth", [0, 1, 2, 7, 10, 20, 30])
def test_theorem_3_9_is_theorem_3_8_with_diagonal(depth: int) -> None:
    diagonal = 1 + Fraction(depth, 3)  # Corollary B.3, written out independently of cip_matrix
    for epsilon, delta in (("1", "1/2"), ("1/3", "1e-9")):
        a = sigma_theorem_3_9(depth, epsilon=epsilon, delta=delta)
        b = sigma_theorem_3_8(epsilon=epsilon, delta=delta, max_precision_diagonal=diagonal)
        assert a.lower <= b.upper and b.lower <= a.upper


def test_theorem_3_8_matches_mpmath() -> None:
    enclosure = sigma_theorem_3_8(epsilon="1/2", delta="1e-6", max_precision_diagonal="13/3")
    reference = MP.sqrt(2 * mp_of(Fraction(13, 3)) * MP.log(2 / MP.mpf("1e-6"))) / MP.mpf("0.5")
    assert encloses(enclosure, reference)


def test_classical_matches_mpmath_and_suffices() -> None:
    for epsilon, delta, d2 in (("1/2", "1e-6", "1"), ("99/100", "1e-3", "3")):
        enclosure = sigma_classical(epsilon=epsilon, delta=delta, sensitivity_squared=d2)
        reference = MP.sqrt(2 * mp_of(Fraction(d2)) * MP.log(MP.mpf("1.25") / mp_of(Fraction(delta))))
        assert encloses(enclosure, reference / mp_of(Fraction(epsilon)))
        assert mp_delta(Fraction(epsilon), enclosure.lower, Fraction(d2)) <= mp_of(Fraction(delta))


@pytest.mark.parametrize(
    ("call", "parameter", "text"),
    [
        (lambda: sigma_theorem_3_8(epsilon="2", delta="1e-6", max_precision_diagonal="1"), "epsilon", "(0, 1]"),
        (lambda: sigma_theorem_3_8(epsilon="1/2", delta="3/4", max_precision_diagonal="1"), "delta", "(0, 1/2]"),
        (lambda: sigma_theorem_3_9(4, epsilon="101/100", delta="1e-6"), "epsilon", "(0, 1]"),
        (lambda: sigma_theorem_3_9(4, epsilon="1", delta="51/100"), "delta", "(0, 1/2]"),
        (lambda: sigma_classical(epsilon="1", delta="1e-6", sensitivity_squared="1"), "epsilon", "(0, 1)"),
    ],
)
def test_paper_formulas_refuse_outside_their_range(call: object, parameter: str, text: str) -> None:
    assert callable(call)
    with pytest.raises(ValueError) as caught:
        call()
    message = str(caught.value)
    assert message.startswith(parameter) and text in message and "sigma_exact" in message


def test_classical_refusal_points_to_gaussian_command() -> None:
    with pytest.raises(ValueError, match="calibrate gaussian"):
        sigma_classical(epsilon="2", delta="1e-6", sensitivity_squared="1")
    with pytest.raises(ValueError, match="calibrate cascade"):
        sigma_theorem_3_9(3, epsilon="2", delta="1e-6")


@pytest.mark.parametrize(
    ("call", "error", "parameter"),
    [
        (lambda: gaussian_delta(epsilon="0", sigma="1", sensitivity_squared="1"), ValueError, "epsilon"),
        (lambda: gaussian_delta(epsilon="-1", sigma="1", sensitivity_squared="1"), ValueError, "epsilon"),
        (lambda: gaussian_delta(epsilon="1", sigma="0", sensitivity_squared="1"), ValueError, "sigma"),
        (lambda: gaussian_delta(epsilon="1", sigma="1", sensitivity_squared="0"), ValueError, "sensitivity_squared"),
        (lambda: gaussian_delta(epsilon="1", sigma="1", sensitivity_squared="-2"), ValueError, "sensitivity_squared"),
        (lambda: gaussian_delta(epsilon=1.0, sigma="1", sensitivity_squared="1"), TypeError, "epsilon"),
        (lambda: sigma_exact(epsilon="1", delta="0", sensitivity_squared="1"), ValueError, "delta"),
        (lambda: sigma_exact(epsilon="1", delta="1", sensitivity_squared="1"), ValueError, "delta"),
        (lambda: sigma_exact(epsilon="1", delta=0.5, sensitivity_squared="1"), TypeError, "delta"),
        (
            lambda: sigma_exact(epsilon="1", delta="1/2", sensitivity_squared="1", tolerance="0"),
            ValueError,
            "tolerance",
        ),
        (lambda: gaussian_epsilon(delta="1/2", sigma="-1", sensitivity_squared="1"), ValueError, "sigma"),
        (
            lambda: check_gaussian(sigma="1", epsilon="1", delta="1e-6", sensitivity_squared=2.0),
            TypeError,
            "sensitivity_squared",
        ),
        (lambda: sigma_theorem_3_9(-1, epsilon="1", delta="1e-6"), ValueError, "depth"),
        (
            lambda: sigma_theorem_3_8(epsilon="1", delta="1e-6", max_precision_diagonal="0"),
            ValueError,
            "max_precision_diagonal",
        ),
    ],
)
def test_bad_inputs(call: object, error: type[Exception], parameter: str) -> None:
    assert callable(call)
    with pytest.raises(error, match=parameter):
        call()


# --------------------------------------------------------------------------------------- verdict


def test_check_gaussian_verdicts() -> None:
    paper = sigma_theorem_3_9(6, epsilon="1/2", delta="1e-6")
    verdict = check_gaussian(sigma=paper.upper, epsilon="1/2", delta="1e-6", sensitivity_squared=3)  # Δ² = 1 + 6/3
    assert verdict.holds and verdict.delta_at_sigma.upper <= Fraction(1, 10**6)
    assert verdict.sigma_ratio.lower > 1
    assert verdict.epsilon_at_sigma.upper < Fraction(1, 2)
    below = verdict.exact.sigma_below
    failing = check_gaussian(sigma=below, epsilon="1/2", delta="1e-6", sensitivity_squared=3)
    assert not failing.holds and failing.delta_at_sigma.lower > Fraction(1, 10**6)
    assert failing.sigma_ratio.upper < 1 + Fraction(1, 10**9)


# --------------------------------------------------------------------------------------- sensitivity


def brute_force_sensitivity(precision: linalg.Matrix, neighbours: str) -> Fraction:
    """max vᵀ P v over the neighbouring differences, enumerated and evaluated with a quadratic form."""
    size = len(precision)
    unit = [[Fraction(int(i == j)) for j in range(size)] for i in range(size)]
    if neighbours == "add_remove":
        vectors = [unit[i] for i in range(size)] + [[-x for x in unit[i]] for i in range(size)]
    else:
        vectors = [[a - b for a, b in zip(unit[i], unit[j])] for i in range(size) for j in range(size) if i != j]
    return max(linalg.quadratic_form(precision, v) for v in vectors)


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
@pytest.mark.parametrize("neighbours", ["add_remove", "substitution"])
def test_cascade_sensitivity_matches_dense(depth: int, neighbours: str) -> None:
    precision = cip_matrix.inverse_by_elimination(depth)
    expected = brute_force_sensitivity(precision, neighbours)
    assert mahalanobis_sensitivity_squared(precision, neighbours) == expected
    assert cascade_sensitivity_squared(depth, neighbours) == expected


@pytest.mark.parametrize("depth", [1, 5, 12, 30])
def test_cascade_sensitivity_closed_forms(depth: int) -> None:
    assert cascade_sensitivity_squared(depth, "add_remove") == Fraction(depth + 3, 3)
    assert cascade_sensitivity_squared(depth, "substitution") == Fraction(2 * (depth + 1), 3)


def test_depth_one_by_hand() -> None:
    # C_1 = [[1, -1/2], [-1/2, 1]] has inverse (4/3) [[1, 1/2], [1/2, 1]]; e_0 - e_1 gives 4/3 + 4/3 - 4/3
    precision = ((Fraction(4, 3), Fraction(2, 3)), (Fraction(2, 3), Fraction(4, 3)))
    assert mahalanobis_sensitivity_squared(precision, "substitution") == Fraction(4, 3)
    assert mahalanobis_sensitivity_squared(precision, "add_remove") == Fraction(4, 3)


def test_sensitivity_bad_inputs() -> None:
    with pytest.raises(ValueError, match="depth"):
        cascade_sensitivity_squared(0, "substitution")
    assert cascade_sensitivity_squared(0, "add_remove") == 1
    with pytest.raises(ValueError, match="neighbours"):
        cascade_sensitivity_squared(3, "swap")
    with pytest.raises(ValueError, match="2 cells"):
        mahalanobis_sensitivity_squared(((Fraction(2),),), "substitution")
    with pytest.raises(ValueError, match="symmetric"):
        mahalanobis_sensitivity_squared(((Fraction(2), Fraction(1)), (Fraction(0), Fraction(2))), "add_remove")
    with pytest.raises(ValueError, match="positive definite"):
        mahalanobis_sensitivity_squared(((Fraction(1), Fraction(2)), (Fraction(2), Fraction(1))), "add_remove")
    with pytest.raises(ValueError, match="square"):
        mahalanobis_sensitivity_squared(((Fraction(1), Fraction(2)),), "add_remove")
    with pytest.raises(TypeError, match="precision"):
        mahalanobis_sensitivity_squared(((1.0,),), "add_remove")  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------- verification


def test_paper_sigma_sufficiency_small_grid() -> None:
    result = gaussian_checks.paper_sigma_sufficiency(grid_size=2, max_depth=2)
    assert result.all_hold and result.all_theorem_3_8_agree and not result.failures
    assert Fraction(1) in result.epsilons and Fraction(1, 2) in result.deltas
    assert Fraction(1, 10**12) in result.deltas
    assert result.smallest_ratio.ratio.lower > 1


def test_outside_range_counterexamples_are_real() -> None:
    for search in (
        gaussian_checks.theorem_3_8_outside_range(grid_size=2),
        formula_search.classical_outside_range(grid_size=2),
    ):
        point = search.smallest_counterexample
        assert point is not None and point.epsilon > 1
        # independent: at the upper end of the formula's σ, δ(ε) already exceeds δ
        assert mp_delta(point.epsilon, point.sigma.upper, search.sensitivity_squared) > mp_of(point.delta)
        assert search.safe_epsilon is not None and search.safe_epsilon >= 1


def test_theorem_3_8_formula_fails_for_large_epsilon() -> None:
    # independent mpmath check: at ε = 8, δ = 1/2, σ = sqrt(2 log 4)/8 gives δ(ε) > 1/2
    sigma = MP.sqrt(2 * MP.log(4)) / 8
    a, b = 1 / (2 * sigma), 8 * sigma
    assert MP.ncdf(a - b) - MP.exp(8) * MP.ncdf(-a - b) > MP.mpf(1) / 2


def test_proof_audit_flags() -> None:
    audit = gaussian_checks.theorem_3_8_proof_audit(grid_size=2)
    assert not audit.printed_chain_ever_within_delta
    assert not audit.two_sided_ever_within_delta
    assert audit.one_sided_always_within_delta and audit.exact_tail_always_within_delta


def test_json_forms_print_certified_digits() -> None:
    verdict = check_gaussian(sigma="20", epsilon="1/2", delta="1e-6", sensitivity_squared="5/3")
    as_json = verdict.as_json()
    assert as_json["verdict"] == "holds"
    for value in (verdict.delta_at_sigma, verdict.epsilon_at_sigma, verdict.sigma_ratio):
        up, down = Fraction(value.decimal(rounded="up")), Fraction(value.decimal(rounded="down"))
        assert down <= value.lower <= value.upper <= up  # each on its side of the enclosure
        assert up - down <= value.midpoint * 3 / 10**19  # and within the printed digits of it
    exact = sigma_exact(epsilon="1/2", delta="1e-6", sensitivity_squared="5/3")
    assert Fraction(str(exact.as_json()["sigma_rational"])) == exact.sigma
    # the printed σ is rounded up from the certified-sufficient σ, so it is sufficient too
    assert exact.sigma <= Fraction(exact.decimal()) <= exact.sigma * (1 + Fraction(1, 10**19))


def test_astronomically_small_delta_is_enclosed_not_expanded() -> None:
    # σ/Δ = 4e5 at ε = 1: δ(ε) is about exp(-8e10), far below 2**-(2**20); the enclosure is widened to
    # [0, tiny] instead of building a Fraction with a 1e11-bit denominator, and it still decides δ = 1e-300
    enclosure = gaussian_delta(epsilon="1", sigma="400000", sensitivity_squared="1")
    assert enclosure.lower == 0 and 0 < enclosure.upper < Fraction(1, 10**300)
    with pytest.raises(ArithmeticError):
        enclosure.decimal(rounded="up")
    assert check_gaussian(sigma="400000", epsilon="1", delta="1e-300", sensitivity_squared="1").holds
