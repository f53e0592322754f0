"""The mean value route of ``sigma_exact`` (one Arb enclosure of δ(ε) and a slope bound over a hull) never returns
an unsafe σ: every answer is checked against the Balle–Wang profile written out independently in mpmath at
60 digits (140+ for fine tolerances), including extreme (ε, δ), and the two enclosures the route reports are
checked to contain mpmath's δ at both ends (a dropped or mis-signed slope term, or a hull that misses the
segment, moves them off by about tolerance·δ, far more than their width).
"""

from __future__ import annotations

import pickle
from fractions import Fraction

import mpmath
import pytest
from flint import arb

import reference.privacy.gaussian_mean_value as mean_value
import reference.privacy.gaussian_sigma as gaussian
from reference.privacy.gaussian import ExactSigma, sigma_exact
from reference.privacy.gaussian_estimate import sigma_estimate


def mp_delta(context: mpmath.ctx_mp.MPContext, epsilon: Fraction, sigma: Fraction, sensitivity_squared: Fraction) -> mpmath.mpf:
    """Balle & Wang (2018) Theorem 8, δ(ε) = Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ), in the given mpmath context."""
    def number(value: Fraction) -> mpmath.mpf:
        return context.mpf(value.numerator) / value.denominator

    eps, sig, big_delta = number(epsilon), number(sigma), context.sqrt(number(sensitivity_squared))
    head = context.ncdf(big_delta / (2 * sig) - eps * sig / big_delta)
    return head - context.exp(eps) * context.ncdf(-big_delta / (2 * sig) - eps * sig / big_delta)


def mp_context(digits: int) -> mpmath.ctx_mp.MPContext:
    context = mpmath.mp.clone()
    context.dps = digits
    return context


#: Grid corners and extreme points: tiny and huge ε, δ near 1/2 and far in the tail (past the float range too),
#: non-square sensitivities. The last three have no float estimate (ε > 700, δ below 1e-308).
POINTS = [
    (Fraction(1, 100), Fraction(1, 10**3), Fraction(1)),
    (Fraction(20), Fraction(1, 10**15), Fraction(1)),
    (Fraction(1, 1000), Fraction(1, 10), Fraction(1)),
    (Fraction(1, 1000), Fraction(1, 10**30), Fraction(1)),
    (Fraction(1, 10**6), Fraction(1, 10**6), Fraction(2)),
    (Fraction(50), Fraction(1, 10**50), Fraction(1)),
    (Fraction(3), Fraction(1, 2), Fraction(7, 5)),
    (Fraction(1, 2), Fraction(1, 10**300), Fraction(13, 3)),
    (Fraction(800), Fraction(1, 10**6), Fraction(1)),
    (Fraction(1, 2), Fraction(1, 10**1000), Fraction(1)),
    (Fraction(2), Fraction(1, 10**400), Fraction(5, 3)),
]


def assert_safe(result: ExactSigma, epsilon: Fraction, delta: Fraction, sensitivity_squared: Fraction, digits: int) -> None:
    """σ sufficient and σ·(1 − tolerance) insufficient by mpmath at ``digits`` digits, and the reported enclosures
    on the right side of δ, each containing mpmath's value."""
    context = mp_context(digits)
    target = context.mpf(delta.numerator) / delta.denominator
    at_sigma = mp_delta(context, epsilon, result.sigma, sensitivity_squared)
    at_below = mp_delta(context, epsilon, result.sigma_below, sensitivity_squared)
    assert at_sigma <= target, "unsafe: delta(epsilon) at the returned sigma exceeds delta"
    assert at_below > target, "sigma_below is sufficient: the bracket does not contain the optimum"
    assert result.sigma_below == result.sigma * (1 - result.tolerance)
    assert isinstance(result.sigma, Fraction) and isinstance(result.sigma_below, Fraction)
    enclosure, below = result.delta_at_sigma, result.delta_at_sigma_below
    assert enclosure is not None and below is not None
    assert enclosure.upper <= delta < below.lower
    for ball, value in ((enclosure, at_sigma), (below, at_below)):
        assert context.mpf(ball.lower.numerator) / ball.lower.denominator <= value
        assert value <= context.mpf(ball.upper.numerator) / ball.upper.denominator


@pytest.mark.parametrize(("epsilon", "delta", "sensitivity_squared"), POINTS)
def test_sigma_is_never_unsafe_at_60_digits(epsilon: Fraction, delta: Fraction, sensitivity_squared: Fraction) -> None:
    result = sigma_exact(epsilon=epsilon, delta=delta, sensitivity_squared=sensitivity_squared)
    assert_safe(result, epsilon, delta, sensitivity_squared, 60)


@pytest.mark.parametrize("digits", [8, 20, 30, 60, 100])
@pytest.mark.parametrize(("epsilon", "delta", "sensitivity_squared"), [POINTS[0], POINTS[1], POINTS[7]])
def test_every_tolerance_to_1e_minus_100_is_safe(
    epsilon: Fraction, delta: Fraction, sensitivity_squared: Fraction, digits: int
) -> None:
    tolerance = Fraction(1, 10**digits)
    result = sigma_exact(epsilon=epsilon, delta=delta, sensitivity_squared=sensitivity_squared, tolerance=tolerance)
    assert result.tolerance == tolerance
    # the enclosures at fine tolerances are far narrower than the tolerance (1e-66 at 1e-30): mpmath needs about
    # three times the digits to check that they contain its value, not only the two sides of δ
    assert_safe(result, epsilon, delta, sensitivity_squared, 3 * digits + 60)


def test_the_grid_is_answered_by_the_mean_value_route(monkeypatch: pytest.MonkeyPatch) -> None:
    # a behaviour check (not a timing): the older routes are not needed on grid points, at 1e-12 or 1e-100
    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("an older route was needed")

    for name in ("_certify_near", "_certify_refined", "_sigma_by_bisection"):
        monkeypatch.setattr(gaussian, name, refuse)
    for epsilon, delta, sensitivity_squared in POINTS[:3]:
        for tolerance in (Fraction(1, 10**12), Fraction(1, 10**100)):
            sigma_exact(epsilon=epsilon, delta=delta, sensitivity_squared=sensitivity_squared, tolerance=tolerance)


@pytest.mark.parametrize("distortion", [0.5, 0.999, 1 + 1e-6, 1 + 1e-9, 3.0])
def test_a_far_centre_is_refused_or_still_certified(distortion: float) -> None:
    # the mean value form from a centre that is off: either no bracket (the caller falls back) or a correct one
    epsilon, delta, sensitivity_squared = Fraction(1, 2), Fraction(1, 10**9), Fraction(1)
    estimate = sigma_estimate(epsilon=epsilon, delta=delta, sensitivity_squared=sensitivity_squared)
    assert estimate is not None
    tolerance = Fraction(1, 10**12)
    bracket = mean_value.certify_bracket(
        estimate * distortion, epsilon=epsilon, delta=delta, sensitivity_squared=sensitivity_squared,
        tolerance=tolerance, bits=64,
    )
    if bracket is None:
        return
    context = mp_context(60)
    target = context.mpf(delta.numerator) / delta.denominator
    assert mp_delta(context, epsilon, bracket.sigma, sensitivity_squared) <= target
    assert mp_delta(context, epsilon, bracket.sigma_below, sensitivity_squared) > target


def test_a_vanishing_slope_term_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # a mutation: a slope term that vanishes (δ(σ) taken as δ(c)) leaves both ends with one ball, so the
    # route must refuse; it must never certify σ and σ·(1 − tol) on the same ball
    monkeypatch.setattr(mean_value, "_slope", lambda epsilon, root, sigma: sigma * 0 - arb(2) ** -2000)
    epsilon, delta, sensitivity_squared = Fraction(1, 2), Fraction(1, 10**6), Fraction(1)
    estimate = sigma_estimate(epsilon=epsilon, delta=delta, sensitivity_squared=sensitivity_squared)
    assert estimate is not None
    assert mean_value.certify_bracket(
        estimate, epsilon=epsilon, delta=delta, sensitivity_squared=sensitivity_squared,
        tolerance=Fraction(1, 10**12), bits=64,
    ) is None


def test_enclosures_kept_as_balls_read_and_pickle_as_exact_rationals() -> None:
    result = sigma_exact(epsilon=Fraction(1), delta=Fraction(1, 10**6), sensitivity_squared=Fraction(1))
    first = result.delta_at_sigma
    assert first is not None and isinstance(first.lower, Fraction) and isinstance(first.upper, Fraction)
    assert result.delta_at_sigma is first  # converted once
    copy = pickle.loads(pickle.dumps(result))
    assert copy == result and copy.delta_at_sigma == first and copy.delta_at_sigma_below == result.delta_at_sigma_below
    assert result.as_json()["delta_at_sigma"] == copy.as_json()["delta_at_sigma"]
