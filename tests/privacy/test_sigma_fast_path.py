"""The float-guided route of ``sigma_exact``: same certificates as the bisection, whatever the float says.

The estimate only places the bracket; these tests feed it wrong, slightly wrong and missing estimates and
check that the answer keeps every guarantee (σ certified sufficient, the lower end certified insufficient,
width exactly ``tolerance * σ``), confirmed independently with mpmath at 50 digits, and that the fast answer
and the pure bisection's answer enclose a common optimum.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest

import reference.privacy.gaussian_sigma as gaussian
from reference.privacy.gaussian import DEFAULT_TOLERANCE, FINE_TOLERANCE, ExactSigma, sigma_exact
from reference.privacy.gaussian_enclosure import delta_and_slope
from reference.privacy.gaussian_estimate import _log_delta, sigma_estimate

MP = mpmath.mp.clone()
MP.dps = 50

#: A corner of each kind of the comparison grid (ε 0.01–20, δ 1e-3–1e-15) and a non-unit sensitivity.
POINTS = [
    (Fraction(1, 100), Fraction(1, 10**3), Fraction(1)),
    (Fraction(1, 100), Fraction(1, 10**15), Fraction(1)),
    (Fraction(20), Fraction(1, 10**3), Fraction(1)),
    (Fraction(20), Fraction(1, 10**15), Fraction(1)),
    (Fraction(77, 100), Fraction(1, 10**9), Fraction(13, 3)),
]


def mp_delta(epsilon: Fraction, sigma: Fraction, sensitivity_squared: Fraction) -> mpmath.mpf:
    """Balle & Wang (2018) Theorem 8 written out in mpmath at 50 digits (independent of the code)."""
    def number(value: Fraction) -> mpmath.mpf:
        return MP.mpf(value.numerator) / value.denominator

    eps, sig, big_delta = number(epsilon), number(sigma), MP.sqrt(number(sensitivity_squared))
    head = MP.ncdf(big_delta / (2 * sig) - eps * sig / big_delta)
    return head - MP.exp(eps) * MP.ncdf(-big_delta / (2 * sig) - eps * sig / big_delta)


def assert_certified(result: ExactSigma, epsilon: Fraction, delta: Fraction, sensitivity_squared: Fraction) -> None:
    assert result.sigma_below == result.sigma * (1 - result.tolerance)
    assert result.delta_at_sigma is not None and result.delta_at_sigma.upper <= delta
    assert result.delta_at_sigma_below is not None and result.delta_at_sigma_below.lower > delta
    target = MP.mpf(delta.numerator) / delta.denominator
    assert mp_delta(epsilon, result.sigma, sensitivity_squared) <= target
    assert mp_delta(epsilon, result.sigma_below, sensitivity_squared) > target


@pytest.mark.parametrize(("epsilon", "delta", "sensitivity_squared"), POINTS)
@pytest.mark.parametrize("tolerance", [DEFAULT_TOLERANCE, FINE_TOLERANCE, Fraction(1, 1000)])
def test_fast_answer_matches_bisection(
    epsilon: Fraction, delta: Fraction, sensitivity_squared: Fraction, tolerance: Fraction
) -> None:
    fast = sigma_exact(epsilon=epsilon, delta=delta, sensitivity_squared=sensitivity_squared, tolerance=tolerance)
    slow = gaussian._sigma_by_bisection(epsilon, delta, sensitivity_squared, tolerance, None, None)
    for result in (fast, slow):
        assert_certified(result, epsilon, delta, sensitivity_squared)
    # both contain the optimum in (sigma_below, sigma]: the intervals overlap
    assert fast.sigma_below < slow.sigma and slow.sigma_below < fast.sigma


@pytest.mark.parametrize("distortion", [None, 0.5, 1.5, 1 + 1e-9, 1 - 1e-11, 1e6])
def test_wrong_estimates_cost_time_not_guarantees(monkeypatch: pytest.MonkeyPatch, distortion: float | None) -> None:
    epsilon, delta, sensitivity_squared = Fraction(1, 2), Fraction(1, 10**6), Fraction(5, 3)
    true_estimate = sigma_estimate(epsilon=epsilon, delta=delta, sensitivity_squared=sensitivity_squared)
    assert true_estimate is not None

    def wrong(*_: object, **__: object) -> float | None:
        return None if distortion is None else true_estimate * distortion

    monkeypatch.setattr(gaussian, "sigma_estimate", wrong)
    result = sigma_exact(epsilon=epsilon, delta=delta, sensitivity_squared=sensitivity_squared)
    assert_certified(result, epsilon, delta, sensitivity_squared)


def test_estimate_is_close_where_floats_reach() -> None:
    # the estimate is a starting point; on the comparison grid it is within 1e-9 of the certified optimum
    for epsilon, delta, sensitivity_squared in POINTS:
        estimate = sigma_estimate(epsilon=epsilon, delta=delta, sensitivity_squared=sensitivity_squared)
        result = sigma_exact(epsilon=epsilon, delta=delta, sensitivity_squared=sensitivity_squared)
        assert estimate is not None
        assert abs(Fraction(estimate) / result.sigma - 1) < Fraction(1, 10**9)


def test_estimate_declines_outside_the_float_range() -> None:
    assert (
        sigma_estimate(epsilon=Fraction(1), delta=Fraction(1, 10**400), sensitivity_squared=Fraction(1)) is None
    )  # log δ below floats
    assert (
        sigma_estimate(epsilon=Fraction(1000), delta=Fraction(1, 10**3), sensitivity_squared=Fraction(1)) is None
    )  # e^ε overflows
    assert (
        sigma_estimate(epsilon=Fraction(1), delta=Fraction(1, 10**6), sensitivity_squared=Fraction(10**400)) is None
    )  # Δ beyond floats


def test_estimate_slope_matches_the_profile() -> None:
    # d log δ / d log s = -2a φ(a - b) / δ, against a central difference of the float profile
    for epsilon, s in ((0.5, 3.0), (5.0, 0.4), (0.01, 300.0)):
        value, slope = _log_delta(epsilon, s)
        step = 1e-6
        up, _ = _log_delta(epsilon, s * math.exp(step))
        down, _ = _log_delta(epsilon, s * math.exp(-step))
        assert math.isclose(slope, (up - down) / (2 * step), rel_tol=1e-5)
        assert math.isfinite(value)


def test_grid_corners_certify_without_bisection(monkeypatch: pytest.MonkeyPatch) -> None:
    # the float route certifies its first bracket on the comparison grid (a behaviour check, not a timing)
    def refuse(*_: object) -> ExactSigma:
        raise AssertionError("the certified bisection was needed")

    monkeypatch.setattr(gaussian, "_sigma_by_bisection", refuse)
    for epsilon, delta, sensitivity_squared in POINTS:
        assert_certified(
            sigma_exact(epsilon=epsilon, delta=delta, sensitivity_squared=sensitivity_squared),
            epsilon,
            delta,
            sensitivity_squared,
        )


FINE = mpmath.mp.clone()
FINE.dps = 140


def fine(value: Fraction) -> mpmath.mpf:
    return FINE.mpf(value.numerator) / value.denominator


def fine_delta(epsilon: Fraction, sigma: Fraction, sensitivity_squared: Fraction) -> mpmath.mpf:
    """:func:`mp_delta` at 140 digits, enough to tell the ends of a bracket of relative width 1e-100 apart."""
    eps, sig, big_delta = fine(epsilon), fine(sigma), FINE.sqrt(fine(sensitivity_squared))
    head = FINE.ncdf(big_delta / (2 * sig) - eps * sig / big_delta)
    return head - FINE.exp(eps) * FINE.ncdf(-big_delta / (2 * sig) - eps * sig / big_delta)


@pytest.mark.parametrize("digits", [40, 100])
def test_fine_tolerances_are_refined_not_bisected(monkeypatch: pytest.MonkeyPatch, digits: int) -> None:
    # past the 80-bit bracket the answer comes from the refinement at higher precision (no bisection), with the
    # same certificates, confirmed by the Balle–Wang profile in mpmath at 140 digits
    def refuse(*_: object) -> ExactSigma:
        raise AssertionError("the certified bisection was needed")

    monkeypatch.setattr(gaussian, "_sigma_by_bisection", refuse)
    tolerance = Fraction(1, 10**digits)
    for epsilon, delta, sensitivity_squared in POINTS:
        result = sigma_exact(epsilon=epsilon, delta=delta, sensitivity_squared=sensitivity_squared, tolerance=tolerance)
        assert result.sigma_below == result.sigma * (1 - tolerance)
        assert result.delta_at_sigma is not None and result.delta_at_sigma.upper <= delta
        assert result.delta_at_sigma_below is not None and result.delta_at_sigma_below.lower > delta

        assert fine_delta(epsilon, result.sigma, sensitivity_squared) <= fine(delta)
        assert fine_delta(epsilon, result.sigma_below, sensitivity_squared) > fine(delta)


def test_closed_form_slope_matches_a_difference_of_the_profile() -> None:
    # dδ/dσ = −(Δ/σ²) φ(a − b) against a central difference of mpmath's profile at 50 digits
    from reference.core.certified import ball

    for epsilon, sigma, sensitivity_squared in ((Fraction(1, 100), Fraction(50), Fraction(1)),
                                                (Fraction(1), Fraction(4), Fraction(1)),
                                                (Fraction(3), Fraction(7, 5), Fraction(2)),
                                                (Fraction(20), Fraction(1, 3), Fraction(1))):
        value, slope = delta_and_slope(epsilon=ball(epsilon), sigma=ball(sigma), sensitivity_squared=ball(sensitivity_squared))
        step = Fraction(1, 10**20)
        difference = (mp_delta(epsilon, sigma + step, sensitivity_squared)
                      - mp_delta(epsilon, sigma - step, sensitivity_squared)) / (2 * MP.mpf(step.numerator) / step.denominator)
        assert abs(float(slope.mid()) / float(difference) - 1) < 1e-9
        assert abs(float(value.mid()) / float(mp_delta(epsilon, sigma, sensitivity_squared)) - 1) < 1e-9
