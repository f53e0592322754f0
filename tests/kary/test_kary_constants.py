"""Tests of the KARY leading constants, their proved minimisers, the HUU constants and Theorem 1.2.

Reference values are computed independently here with mpmath at 50 digits from the paper's formulas as
printed (with log read as log2, as the paper defines it); minimisers are cross-checked by brute force over a
long range with mpmath. No number is copied from the code's output.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_verification.core.proof import ProofFailure
from reference_verification.kary.checks import constants as checks
from reference_verification.kary.proofs import argmin as kary_argmin

from reference.core.certified import CertifiedReal
from reference.kary.constants import (
    FAMILIES,
    LeadingConstantFamily,
    certified_argmin,
    certify_tail,
    default_tail_start,
    huu_constant,
    huu_leading_constant,
    huu_mse_bound,
    leading_constant,
    leading_constant_corollary_4_9,
    leading_constant_corollary_c3,
    leading_constant_theorem_3_7,
    lemma_5_1_exponent,
    theorem_1_2_exponent,
)

MP = mpmath.mp.clone()
MP.dps = 50


def mp_log2(value: object) -> mpmath.mpf:
    return MP.log(MP.mpf(value)) / MP.log(2)


def mp_theorem_3_7(k: int) -> mpmath.mpf:
    return (k - 1) / mp_log2(k) ** 3


def mp_corollary_4_9(k: int) -> mpmath.mpf:
    return k * (1 - MP.mpf(1) / k**2) / (2 * mp_log2(k) ** 3)


def mp_corollary_c3(k: int) -> mpmath.mpf:
    return MP.mpf(k) / (2 * mp_log2(k) ** 3)


def mp_of(value: Fraction) -> mpmath.mpf:
    return MP.mpf(value.numerator) / value.denominator


def mp_fraction(text: str) -> mpmath.mpf:
    return mp_of(Fraction(text))


def mp_huu(epsilon: str, delta: str) -> mpmath.mpf:
    """C_{ε,δ} = (2/ε) sqrt(4/9 + ln((1/δ) sqrt(2/π))), as printed in §1."""
    eps, dlt = mp_fraction(epsilon), mp_fraction(delta)
    return 2 / eps * MP.sqrt(MP.mpf(4) / 9 + MP.log(MP.sqrt(2 / MP.pi) / dlt))


def agrees(enclosure: CertifiedReal, value: mpmath.mpf, digits: int = 30) -> bool:
    """The mpmath value lies in the enclosure (up to mpmath's own 50-digit rounding), which is narrower than a
    relative 10^-digits."""
    rounding = abs(value) * MP.mpf(10) ** -45
    inside = mp_of(enclosure.lower) - rounding <= value <= mp_of(enclosure.upper) + rounding
    return bool(inside and mp_of(enclosure.width) <= abs(value) * MP.mpf(10) ** -digits)


REFERENCE = {
    "theorem_3_7": mp_theorem_3_7,
    "corollary_4_9": mp_corollary_4_9,
    "corollary_c3": mp_corollary_c3,
}


# ------------------------------------------------------------------------------------------ values


@pytest.mark.parametrize("arity", [3, 5, 17, 19, 21, 99, 1001])
def test_odd_arity_values_match_mpmath(arity: int) -> None:
    assert agrees(leading_constant_theorem_3_7(arity), mp_theorem_3_7(arity))
    assert agrees(leading_constant_corollary_4_9(arity), mp_corollary_4_9(arity))


@pytest.mark.parametrize("arity", [6, 10, 18, 20, 22, 100, 1000])
def test_even_arity_values_match_mpmath(arity: int) -> None:
    assert agrees(leading_constant_theorem_3_7(arity), mp_theorem_3_7(arity))
    assert agrees(leading_constant_corollary_c3(arity), mp_corollary_c3(arity))


@pytest.mark.parametrize("exponent", [1, 2, 3, 4, 5, 10])
def test_powers_of_two_are_exact(exponent: int) -> None:
    arity = 2**exponent
    # log2(2^m) = m, so the constants are the rationals p(k)/m³
    assert leading_constant_theorem_3_7(arity) == CertifiedReal.exact(Fraction(arity - 1, exponent**3))
    assert leading_constant_corollary_c3(arity) == CertifiedReal.exact(Fraction(arity, 2 * exponent**3))


def test_binary_tree_constant_is_one() -> None:
    # Theorem 3.7 at k = 2 is the standard binary tree mechanism: log2(T)³/ε²
    assert leading_constant_theorem_3_7(2) == CertifiedReal.exact(1)


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=1, max_value=5000))
def test_subtraction_beats_plain_tree_for_odd_arity(half: int) -> None:
    arity = 2 * half + 1
    # (k²−1)/(2k) < k − 1  <=>  (k − 1)² > 0: the offset-digit constant is strictly smaller
    assert leading_constant_corollary_4_9(arity).upper < leading_constant_theorem_3_7(arity).lower


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=2, max_value=5000))
def test_even_variant_beats_plain_tree_from_arity_4(half: int) -> None:
    arity = 2 * half
    assert leading_constant_corollary_c3(arity).upper < leading_constant_theorem_3_7(arity).lower


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted(FAMILIES)), st.integers(min_value=2, max_value=10**6))
def test_enclosures_are_narrow_and_match_mpmath(key: str, arity: int) -> None:
    family = FAMILIES[key]
    if not family.admissible(arity):
        arity += 1
    value = leading_constant(key, arity)
    assert value.width == 0 or value.relative_width() < Fraction(1, 10**30)
    assert agrees(value, REFERENCE[key](arity), digits=30)


# ------------------------------------------------------------------------------------------ argmins


def brute_force_argmin(key: str, top: int = 3000) -> tuple[int, int]:
    """Minimiser and runner-up by mpmath over admissible arities up to ``top`` (independent of the code)."""
    family = FAMILIES[key]
    values = sorted((REFERENCE[key](k), k) for k in range(2, top + 1) if family.admissible(k))
    return values[0][1], values[1][1]


@pytest.mark.parametrize(("key", "paper_argmin"), [("theorem_3_7", 17), ("corollary_4_9", 19), ("corollary_c3", 20)])
def test_certified_argmin_matches_brute_force_and_paper(key: str, paper_argmin: int) -> None:
    certificate = certified_argmin(key)
    assert (certificate.argmin, certificate.runner_up) == brute_force_argmin(key)
    assert certificate.argmin == paper_argmin
    assert certificate.gap.lower > 0
    assert agrees(certificate.value, REFERENCE[key](certificate.argmin))
    assert certificate.tail.holds
    # the finite range reaches past the tail start by two admissible arities
    assert sum(arity >= certificate.tail.tail_start for arity in certificate.finite_range) == 2


def test_tail_start_is_first_integer_above_e_cubed() -> None:
    start = default_tail_start()
    assert MP.log(start) > 3 > MP.log(start - 1)


def test_corollary_c3_argmin_also_over_claim_1_range() -> None:
    # Appendix C's Claim 1 is stated for even k >= 4; the minimiser does not change
    assert certified_argmin("corollary_c3", minimum_arity=4).argmin == 20


def test_corollary_4_9_formula_over_all_integers_would_pick_20() -> None:
    # the restriction to odd arity matters: 20 is below 19 for the same formula (independent mpmath)
    assert mp_corollary_4_9(20) < mp_corollary_4_9(19) < mp_corollary_4_9(21)


def test_tail_fails_below_e_cubed() -> None:
    certificate = certify_tail("corollary_c3", tail_start=20)  # log 20 < 3
    assert not certificate.holds
    with pytest.raises(ArithmeticError, match="tail argument"):
        certified_argmin("corollary_c3", tail_start=20)


def test_tail_fails_for_decreasing_function() -> None:
    # f = 1/log2(x)³ is decreasing: p' = 0 is not > 0, so no monotonicity certificate
    decreasing = LeadingConstantFamily("theorem_3_7", "constant numerator", "1/log2(k)³", 2, "any", lambda k: k - k + 1)
    assert not certify_tail(decreasing).holds
    with pytest.raises(ArithmeticError):
        certified_argmin(decreasing)


# ------------------------------------------------------------------------------------------ HUU


@pytest.mark.parametrize(("epsilon", "delta"), [("1/2", "1e-6"), ("1/10", "1e-12"), ("99/100", "1/2"), ("1/3", "1e-300")])
def test_huu_constant_matches_mpmath(epsilon: str, delta: str) -> None:
    assert agrees(huu_constant(epsilon=epsilon, delta=delta), mp_huu(epsilon, delta))


@pytest.mark.parametrize("horizon", [1, 2, 1000, 10**12])
def test_huu_mse_bound_matches_mpmath(horizon: int) -> None:
    expected = mp_huu("1/2", "1e-8") ** 2 * (1 + MP.log(MP.mpf(4 * horizon) / 5) / MP.pi) ** 2
    assert agrees(huu_mse_bound(epsilon="1/2", delta="1e-8", horizon=horizon), expected)


def test_huu_leading_constant_is_the_papers_expression() -> None:
    # the paper's literal 4/(π² log2(e)³) with log2(e) computed as ln(e)/ln(2)
    assert agrees(huu_leading_constant(), 4 / (MP.pi**2 * mp_log2(MP.e) ** 3))


def test_huu_bound_approaches_its_leading_term() -> None:
    # (bound ε²)/(log2(T)² log2(1/δ)) -> B_ε,δ; at T = 10^200, δ = 10^-300 within 2 % (from above)
    horizon, delta = 10**200, "1e-300"
    bound = huu_mse_bound(epsilon="1/2", delta=delta, horizon=horizon)
    normalised = mp_of(bound.midpoint) * MP.mpf(1) / 4 / (mp_log2(horizon) ** 2 * mp_log2(MP.mpf(10) ** 300))
    leading = mp_of(huu_leading_constant().midpoint)
    assert leading < normalised < leading * MP.mpf("1.02")


def test_lemma_5_1_exponent_exact_and_certified() -> None:
    assert lemma_5_1_exponent(Fraction(1, 2), "1/4") == CertifiedReal.exact(2)
    enclosure = lemma_5_1_exponent(CertifiedReal(Fraction(1), Fraction(2)), CertifiedReal(Fraction(4), Fraction(5)))
    assert enclosure == CertifiedReal(Fraction(1, 5), Fraction(1, 2))


def test_theorem_1_2_exponent_matches_mpmath_and_is_below_092() -> None:
    exponent = theorem_1_2_exponent(19)
    expected = mp_corollary_4_9(19) / (4 / (MP.pi**2 * mp_log2(MP.e) ** 3))
    assert agrees(exponent, expected, digits=30)
    assert exponent.certainly_lt(Fraction(92, 100))
    assert not exponent.certainly_lt(Fraction(91, 100))


# ------------------------------------------------------------------------------------------ bad inputs


@pytest.mark.parametrize("arity", [4, 20, 2])
def test_corollary_4_9_refuses_even_or_small_arity(arity: int) -> None:
    with pytest.raises(ValueError, match="arity"):
        leading_constant_corollary_4_9(arity)


@pytest.mark.parametrize("arity", [3, 19, 0])
def test_corollary_c3_refuses_odd_or_small_arity(arity: int) -> None:
    with pytest.raises(ValueError, match="arity"):
        leading_constant_corollary_c3(arity)


@pytest.mark.parametrize("arity", [1, 0, -5])
def test_theorem_3_7_refuses_arity_below_2(arity: int) -> None:
    with pytest.raises(ValueError, match="arity"):
        leading_constant_theorem_3_7(arity)


@pytest.mark.parametrize("arity", [17.0, True, "17"])
def test_arity_must_be_an_integer(arity: object) -> None:
    with pytest.raises(TypeError, match="arity"):
        leading_constant_theorem_3_7(arity)


def test_unknown_family_and_low_precision_refused() -> None:
    with pytest.raises(ValueError, match="family"):
        leading_constant("theorem_9_9", 5)
    with pytest.raises(ValueError, match="bits"):
        leading_constant_theorem_3_7(5, bits=10)
    with pytest.raises(ValueError, match="minimum_arity"):
        certified_argmin("corollary_4_9", minimum_arity=2)


def test_huu_refuses_floats_and_out_of_range() -> None:
    with pytest.raises(TypeError, match="epsilon"):
        huu_constant(epsilon=0.5, delta="1e-6")
    with pytest.raises(TypeError, match="delta"):
        huu_constant(epsilon="1/2", delta=1e-6)
    for epsilon in ("0", "1", "2"):
        with pytest.raises(ValueError, match="epsilon"):
            huu_constant(epsilon=epsilon, delta="1e-6")
    for delta in ("0", "1"):
        with pytest.raises(ValueError, match="delta"):
            huu_constant(epsilon="1/2", delta=delta)
    with pytest.raises(ValueError, match="horizon"):
        huu_mse_bound(epsilon="1/2", delta="1e-6", horizon=0)
    with pytest.raises(TypeError, match="horizon"):
        huu_mse_bound(epsilon="1/2", delta="1e-6", horizon=10.0)


def test_lemma_5_1_exponent_refuses_nonpositive() -> None:
    with pytest.raises(ValueError, match="b_pure"):
        lemma_5_1_exponent(0, 1)
    with pytest.raises(ValueError, match="b_approx"):
        lemma_5_1_exponent(1, CertifiedReal(Fraction(-1), Fraction(1)))
    with pytest.raises(TypeError, match="b_pure"):
        lemma_5_1_exponent(0.5, 1)


# ------------------------------------------------------------------------------------------ proofs


@pytest.mark.parametrize("name", sorted(kary_argmin.PROGRAMS))
def test_proof_programs_establish_their_statements(name: str) -> None:
    record = kary_argmin.PROGRAMS[name]()
    assert record.paper == "KARY"
    assert len(record.steps) >= 4


@pytest.mark.parametrize(
    ("program", "wrong"),
    [
        (kary_argmin.prove_theorem_3_7, 16),
        (kary_argmin.prove_theorem_3_7, 18),
        (kary_argmin.prove_corollary_4_9, 17),
        (kary_argmin.prove_corollary_4_9, 21),
        (kary_argmin.prove_corollary_c3, 18),
        (kary_argmin.prove_corollary_c3, 22),
    ],
)
def test_argmin_proofs_fail_on_a_wrong_minimiser(program: object, wrong: int) -> None:
    assert callable(program)
    with pytest.raises(ProofFailure, match="claimed minimiser"):
        program(wrong)


def test_argmin_proof_judges_a_decimal_as_rounding_or_truncation() -> None:
    # the value is 0.12387...: 0.1239 is its rounding, 0.1238 its truncation (both accepted), 0.1237 neither
    assert "truncation" in " ".join(kary_argmin.prove_argmin("corollary_c3", 20, claimed_value="0.1238").steps)
    assert "correct rounding" in " ".join(kary_argmin.prove_argmin("corollary_c3", 20, claimed_value="0.1239").steps)
    with pytest.raises(ProofFailure, match="neither"):
        kary_argmin.prove_argmin("corollary_c3", 20, claimed_value="0.1237")


def test_argmin_proof_fails_with_a_tail_start_below_e_cubed() -> None:
    with pytest.raises(ProofFailure, match="log x"):
        kary_argmin.prove_argmin("theorem_3_7", 17, tail_start=20)


@pytest.mark.parametrize(
    "kwargs",
    [{"pure_bound": "0.1235"}, {"approx_bound": "0.135"}, {"ratio_bound": "0.91"}, {"arity": 21, "pure_bound": "0.1236"}],
)
def test_proof_5_3_fails_on_wrong_bounds(kwargs: dict[str, object]) -> None:
    with pytest.raises(ProofFailure):
        kary_argmin.prove_proof_5_3(**kwargs)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------ checks


def test_quoted_decimal_classification() -> None:
    exact = CertifiedReal.exact(Fraction(12345, 100000))  # 0.12345: rounds half up to 0.1235
    assert checks.check_quoted_decimal("x", "0.1235", "approx", exact).is_rounding
    truncated = checks.check_quoted_decimal("x", "0.1234", "approx", exact)
    assert truncated.is_truncation and truncated.holds  # the rule: a rounding or a truncation
    assert not checks.check_quoted_decimal("x", "0.1233", "approx", exact).holds
    assert not checks.check_quoted_decimal("x", "0.1236", "approx", exact).holds
    assert checks.check_quoted_decimal("x", "0.124", "upper", exact).holds
    assert not checks.check_quoted_decimal("x", "0.1234", "upper", exact).holds
    assert checks.check_quoted_decimal("x", "0.1234", "lower", exact).holds
    with pytest.raises(ValueError, match="relation"):
        checks.check_quoted_decimal("x", "0.1", "about", exact)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="printed"):
        checks.check_quoted_decimal("x", "abc", "approx", exact)


def test_quoted_decimals_of_the_paper() -> None:
    # independent roundings with mpmath: 0.23429 -> 0.234, 0.12359 -> 0.1236, 0.12387 -> 0.1239 (not 0.1238)
    assert MP.nint(mp_theorem_3_7(17) * 1000) == 234
    assert MP.nint(mp_corollary_4_9(19) * 10**4) == 1236
    assert MP.nint(mp_corollary_c3(20) * 10**4) == 1239
    assert checks.check_theorem_3_7_value().holds
    assert checks.check_corollary_4_9_value().holds
    c3 = checks.check_corollary_c3_value()
    assert c3.holds and c3.is_truncation and not c3.is_rounding and c3.rounded == Fraction(1239, 10**4)
    assert checks.check_proof_5_3_pure_bound().holds
    approx = checks.check_proof_5_3_approx_bound()
    assert approx.holds and approx.is_truncation
    assert checks.check_theorem_1_2().holds


def test_argmin_and_factor_checks() -> None:
    for check in (checks.check_theorem_3_7_argmin, checks.check_corollary_4_9_argmin, checks.check_corollary_c3_argmin):
        result = check()
        assert result.holds and "tail" in result.summary()
    assert not checks.check_argmin("theorem_3_7", 18).holds
    honaker = checks.check_honaker_factor_4()
    assert honaker.holds
    assert agrees(honaker.ratio, MP.mpf(1) / 2 / mp_corollary_4_9(19))
    assert checks.check_andersson_pagh_factor_2().holds


def test_huu_calibration_slack_quick() -> None:
    slack = checks.check_huu_calibration_slack(delta_exponents=(6,))
    assert slack.holds
    assert slack.points[0].ratio.certainly_gt(Fraction(2))
    expected = 2 * mp_corollary_4_9(19) / (4 / (MP.pi**2 * mp_log2(MP.e) ** 3))
    assert agrees(slack.optimal_exponent, expected, digits=30)


def test_table() -> None:
    table = checks.leading_constant_table(max_arity=30)
    assert table.holds
    assert [row.arity for row in table.rows] == list(range(2, 31))
    assert all((row.corollary_4_9 is None) == (row.arity % 2 == 0) for row in table.rows)
    assert len(table.lines()) == 2 + 29
    with pytest.raises(ValueError, match="max_arity"):
        checks.leading_constant_table(max_arity=10)


def test_even_odd_factor() -> None:
    # even/odd = (k/2) / (k(1 − 1/k²)/2) = k²/(k² − 1) > 1: the printed factor 1 − 1/k², in the sentence's
    # direction (even/odd), is wrong; only its reciprocal holds, and the rule judges a factor as printed
    result = checks.check_even_odd_factor()
    assert not result.holds and not result.literal_reading_holds and result.intended_reading_holds
    assert agrees(result.at_optima, mp_corollary_c3(20) / mp_corollary_4_9(19))
