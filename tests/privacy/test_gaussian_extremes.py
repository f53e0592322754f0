"""The Gaussian profile at extreme but valid parameters: answered (and right) at a bounded precision.

Reference values are derived here independently of the package's evaluation: a first-order expansion of δ(ε)
in the gap Δ/σ, closed-form brackets of the optimal σ at huge ε, and mpmath at 60 digits where its direct
formula does not cancel.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from flint import arb

from reference.audit.calibration import audit_gaussian
from reference.core.certified import START_PRECISION, working_precision
from reference.core.certified import ball as arb_ball
from reference.privacy.gaussian import FINE_TOLERANCE, check_gaussian, gaussian_delta, gaussian_epsilon, sigma_exact
from reference.privacy.gaussian_enclosure import ball_decided
from reference.privacy.gaussian_profile import LARGE_EPSILON, profile_ball

MP = mpmath.mp.clone()
MP.dps = 60


def mp_of(value: Fraction | mpmath.mpf) -> mpmath.mpf:
    return MP.mpf(value.numerator) / value.denominator if isinstance(value, Fraction) else value


def mp_delta(epsilon: Fraction, ratio: Fraction | mpmath.mpf) -> mpmath.mpf:
    """Balle & Wang's δ(ε) at σ/Δ = ratio, directly, at 60 digits (only where the two tails do not cancel)."""
    eps, s = mp_of(epsilon), mp_of(ratio)
    return MP.ncdf(1 / (2 * s) - eps * s) - MP.exp(eps) * MP.ncdf(-1 / (2 * s) - eps * s)


def test_the_smallest_epsilon_at_a_gap_of_1e_5000_matches_the_first_order_law() -> None:
    # δ(ε) = Φ(a - b) - e^{2ab} Φ(-a - b) with a = Δ/(2σ), b = εσ/Δ: δ(0) = 0 in a, and d/da at a = 0 gives
    # δ = 2a (φ(b) - b Φ(-b)) (1 + O(ab)). At a = 2.5e-5001 the correction is far below the enclosure's 1e-22.
    delta, sigma = Fraction(1, 10**10000), Fraction(2)
    root_d2 = Fraction(1, 10**5000)  # Δ, with Δ² = 1e-10000
    a = root_d2 / (2 * sigma)
    with MP.workprec(400):
        mp_a, log_target = mp_of(a), MP.log(mp_of(delta))

        def gap(b: mpmath.mpf) -> mpmath.mpf:
            return MP.log(2 * mp_a * (MP.npdf(b) - b * MP.ncdf(-b))) - log_target

        b = MP.findroot(gap, 150)
        expected = 2 * mp_a * b  # ε = 2ab
    enclosure = gaussian_epsilon(delta=delta, sigma=sigma, sensitivity_squared=root_d2**2)
    slack = MP.mpf(10) ** -40
    assert mp_of(enclosure.lower) * (1 - slack) <= expected <= mp_of(enclosure.upper) * (1 + slack)
    assert enclosure.relative_width() <= FINE_TOLERANCE


def test_a_decision_at_a_tiny_gap_needs_no_high_precision() -> None:
    # the direct form cancels to log2(b/a), about 16,600 bits here (0.3 s per evaluation at 32,768 bits); the
    # moment series decides at the starting precision
    epsilon = Fraction(758, 10**5001)
    for target in (Fraction(1, 10**10000), Fraction(3, 10**10000)):
        _, _, precision = ball_decided(epsilon=epsilon, sigma=Fraction(2), sensitivity_squared=Fraction(1, 10**10000), delta=target, start=START_PRECISION)
        assert precision <= 4 * START_PRECISION


@pytest.mark.parametrize(("epsilon", "ratio"), [
    (Fraction(3, 10**6), Fraction(10**6)),  # a = 5e-7, b = 3: series (h|u| about 3e-6)
    (Fraction(1, 10**9), Fraction(10**8)),  # b = 0.1
    (Fraction(0), Fraction(10**8)),  # ε = 0: δ(0) = erf(a/√2), u = -a < 0 (the recurrence branch)
    (Fraction(1, 2), Fraction(3)),  # direct form
])
def test_the_profile_encloses_the_direct_formula(epsilon: Fraction, ratio: Fraction) -> None:
    with working_precision(200):
        enclosure = profile_ball(arb_ball(epsilon), arb_ball(ratio))
    reference = mp_delta(epsilon, ratio)
    lower, upper = enclosure.lower(), enclosure.upper()
    assert MP.mpf(lower.mid().str(70, radius=False)) <= reference * (1 + MP.mpf(10) ** -50)
    assert reference <= MP.mpf(upper.mid().str(70, radius=False)) * (1 + MP.mpf(10) ** -50)
    assert enclosure.rel_accuracy_bits() >= 100


def test_the_series_and_the_direct_form_overlap_where_both_resolve() -> None:
    # σ/Δ = 2**30: the direct form loses about 30 + log2(b) bits, affordable at 400 bits
    for epsilon in (Fraction(1, 2**28), Fraction(3, 2**30), Fraction(1, 2**33)):
        with working_precision(400):
            ratio = arb(2) ** 30
            series = profile_ball(arb_ball(epsilon), ratio)
            shift, half_gap = arb_ball(epsilon) * ratio, 1 / (2 * ratio)
            root_two = arb(2).sqrt()
            direct = ((shift - half_gap) / root_two).erfc() / 2 - arb_ball(epsilon).exp() * (
                (shift + half_gap) / root_two).erfc() / 2
        assert series.overlaps(direct)
        assert series.rel_accuracy_bits() >= direct.rel_accuracy_bits()


@pytest.mark.parametrize("epsilon", [2**19, 2**21])
def test_the_second_term_without_e_to_the_epsilon_agrees(epsilon: int) -> None:
    # on both sides of the switch to φ(u) R(v): Δ² = 2ε + 20 sqrt(ε) puts u near 0 (δ neither 0 nor 1)
    assert (epsilon < LARGE_EPSILON) != (epsilon > 2**20)
    d2 = 2 * epsilon + 20 * int(epsilon**0.5)
    enclosure = gaussian_delta(epsilon=epsilon, sigma=1, sensitivity_squared=d2)
    with MP.workprec(400):
        reference = mp_delta(Fraction(epsilon), 1 / MP.sqrt(d2))
    assert mp_of(enclosure.lower) <= reference <= mp_of(enclosure.upper)


def test_sigma_at_epsilon_1e10000_lies_in_its_closed_form_bracket() -> None:
    # σ/Δ = 1/sqrt(2ε) makes u = 0: δ = 1/2 - e^{2a²}Φ(-2a) > 1e-6, insufficient. σ/Δ = (z + sqrt(z² + 2ε))/(2ε)
    # makes u = z: δ <= Φ(-z), sufficient for z = 5 (Φ(-5) < 3e-7). Compared in integers (squares).
    epsilon = Fraction(10**10000)
    found = sigma_exact(epsilon="1e10000", delta="1e-6", sensitivity_squared=1)
    assert found.sigma**2 * 2 * epsilon > 1
    assert MP.ncdf(-5) < MP.mpf("1e-6")
    z = 5
    assert (2 * epsilon * found.sigma_below - z) ** 2 <= z * z + 2 * epsilon


def test_check_gaussian_at_epsilon_1e300_holds_and_reports_bounds() -> None:
    epsilon, delta = Fraction(10**300), Fraction(1, 10**300)
    verdict = check_gaussian(epsilon=epsilon, delta=delta, sigma=1, sensitivity_squared=1)
    assert verdict.holds
    assert verdict.exact is not None
    # the same bracket as above with z = 38 (Φ(-38) < 1e-300)
    z = 38
    assert MP.ncdf(-z) < mp_of(delta)
    assert verdict.exact.sigma**2 * 2 * epsilon > 1
    assert (2 * epsilon * verdict.exact.sigma_below - z) ** 2 <= z * z + 2 * epsilon
    summary = verdict.summary()
    assert "\n" not in summary and "delta(epsilon)=<= " in summary


def test_sigma_for_delta_near_one_is_found() -> None:
    # 1 - δ(ε) = Φ(b - a) + e^ε Φ(-a - b) has no cancellation: checked at both ends directly
    delta = 1 - Fraction(1, 10**100)
    found = sigma_exact(epsilon="1/2", delta=delta, sensitivity_squared=1)

    def complement(ratio: Fraction) -> mpmath.mpf:
        a, b = 1 / (2 * mp_of(ratio)), mp_of(ratio) / 2
        return MP.ncdf(b - a) + MP.exp(MP.mpf(1) / 2) * MP.ncdf(-a - b)

    assert complement(found.sigma) >= MP.mpf(10) ** -100
    assert complement(found.sigma_below) < MP.mpf(10) ** -100


def test_audit_at_a_sensitivity_of_1e_minus_7500_answers() -> None:
    # σ/Δ = 1e7500 at ε = 1/2: b = 5e7499, δ(ε) <= Φ(-(b - a)), far below 1e-10000
    verdict = audit_gaussian(epsilon=Fraction(1, 2), delta="1e-10000", sigma=1, sensitivity_squared=Fraction(1, 10**15000))
    assert verdict.verdict == "holds"


@pytest.mark.parametrize("delta", [Fraction(1, 10**10000), Fraction(3, 10**10000)])
def test_sigma_at_epsilon_1e_minus_10000_matches_the_first_order_law(delta: Fraction) -> None:
    # a = Δ/(2σ) is about δ here (1e-10000), so δ = 2a (φ(b) - b Φ(-b)) to relative O(a); with 2ab = ε this is
    # (ε/b)(φ(b) - b Φ(-b)) = δ, solved for b, and σ/Δ = b/ε. The certified bracket must contain that σ.
    epsilon = Fraction(1, 10**10000)
    found = sigma_exact(epsilon=epsilon, delta=delta, sensitivity_squared=1)
    with MP.workprec(400):
        eps, target = mp_of(epsilon), mp_of(delta)
        b = MP.findroot(lambda b: MP.log((eps / b) * (MP.npdf(b) - b * MP.ncdf(-b))) - MP.log(target),
                        (MP.mpf("0.01"), MP.mpf(2)), solver="illinois")
        expected = b / eps
        assert mp_of(found.sigma_below) <= expected <= mp_of(found.sigma)


@pytest.mark.parametrize(("epsilon", "delta"), [
    (Fraction(1, 10**10000), Fraction(1, 10**6)),
    (Fraction(1, 10**10000), Fraction(1, 10**9000)),  # the corner a 1,200-digit direct evaluation could not resolve
    (Fraction(1, 10**100), Fraction(1, 10**12)),
    (Fraction(1, 10**10000), 1 - Fraction(1, 10**100)),  # δ a hair below 1: σ near Δ/42, not near Δ z/ε
])
def test_sigma_at_a_vanishing_epsilon_is_that_of_epsilon_zero(epsilon: Fraction, delta: Fraction) -> None:
    # δ(0) = erf(a/√2) with a = Δ/(2σ), and |dδ/dε| <= 1, so δ(ε) = erf(a/√2) to within ε (relative ε/δ <= 1e-88,
    # far below the tolerance): σ/Δ = 1/(2a) with a = √2 erfinv(δ)
    found = sigma_exact(epsilon=epsilon, delta=delta, sensitivity_squared=1)
    with MP.workprec(400):
        expected = 1 / (2 * MP.sqrt(2) * MP.erfinv(mp_of(delta)))  # erfinv(1 - 1e-100) is fine at 400 bits
        assert mp_of(found.sigma_below) <= expected <= mp_of(found.sigma)
