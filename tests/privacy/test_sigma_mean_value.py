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
from flint import arb, fmpq

import reference.privacy.gaussian_mean_value as mean_value
import reference.privacy.gaussian_sigma as gaussian
from reference.core.certified import working_precision
from reference.privacy.gaussian import ExactSigma, sigma_exact
from reference.privacy.gaussian_estimate import sigma_estimate
from reference.privacy.gaussian_profile import profile_with_density
from reference.privacy.mills_ratio import mills_ratio_ball


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
    monkeypatch.setattr(mean_value, "_slope_near", lambda eps_term, square, steepness, reach: steepness * 0 - arb(2) ** -2000)
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


#: A grid for the planted variants: ε 0.01–20, δ 1e-3–1e-15 at Δ = 1.
PLANT_GRID = [(Fraction(epsilon), Fraction(1, 10**power)) for epsilon in ("1/100", "1/2", "2", "20") for power in (3, 9, 15)]


def _unsafe_points(centre_factor: float, tolerance: Fraction) -> tuple[int, int]:
    """(brackets whose σ mpmath finds unsafe, brackets refused) over PLANT_GRID, from centres off by ``centre_factor``."""
    context = mp_context(40)
    unsafe = refused = 0
    for epsilon, delta in PLANT_GRID:
        estimate = sigma_estimate(epsilon=epsilon, delta=delta, sensitivity_squared=Fraction(1))
        assert estimate is not None
        bracket = mean_value.certify_bracket(
            estimate * centre_factor, epsilon=epsilon, delta=delta, sensitivity_squared=Fraction(1), tolerance=tolerance,
            bits=64,
        )
        if bracket is None:
            refused += 1
        elif mp_delta(context, epsilon, bracket.sigma, Fraction(1)) > context.mpf(delta.numerator) / delta.denominator:
            unsafe += 1
    return unsafe, refused


def test_a_slope_bound_at_the_centre_only_returns_unsafe_sigmas_and_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # a planted wrong variant: δ' taken at the centre only (the tangent, no bound over the segment to the ends).
    # From a centre 3% low the tangent at c underestimates the convex δ at the bracket's top, and the mpmath
    # check finds unsafe σ; the genuine route, from the same centres, refuses every one
    assert _unsafe_points(0.97, Fraction(1, 1000)) == (0, len(PLANT_GRID))
    monkeypatch.setattr(mean_value, "_slope_near", lambda eps_term, square, steepness, reach: -steepness)
    unsafe, _ = _unsafe_points(0.97, Fraction(1, 1000))
    assert unsafe > 0


def test_dropping_the_second_tail_is_caught_at_the_lower_end(monkeypatch: pytest.MonkeyPatch) -> None:
    # a planted wrong variant of the fast profile: φ(u) R(u) without the e^ε Φ(-v) term (R(v) taken as 0), so δ is
    # overstated as Φ(-u). Centred on that variant's own root (u = z with Φ(-z) = δ, so σ = (z + √(z² + 2ε))/(2ε)),
    # the bracket it certifies has a sufficient σ but a lower end that is sufficient too, not insufficient as
    # certified: the mpmath check of the lower end catches it at every grid point
    import reference.privacy.gaussian_profile as profile

    genuine = mills_ratio_ball
    calls: list[int] = []

    def head_only(value: arb) -> arb | None:
        calls.append(1)
        found = genuine(value, eager=True)
        return found if found is None or len(calls) % 2 else found * 0  # every second call is R(v)

    monkeypatch.setattr(profile, "mills_ratio_ball", head_only)
    context = mp_context(40)
    wrong_lower_ends = 0
    for epsilon, delta in PLANT_GRID:
        target = context.mpf(delta.numerator) / delta.denominator
        tail_point = context.sqrt(2) * context.erfinv(1 - 2 * target)
        eps = context.mpf(epsilon.numerator) / epsilon.denominator
        centre = float((tail_point + context.sqrt(tail_point**2 + 2 * eps)) / (2 * eps))
        calls.clear()
        bracket = mean_value.certify_bracket(
            centre, epsilon=epsilon, delta=delta, sensitivity_squared=Fraction(1), tolerance=Fraction(1, 10**12), bits=64,
        )
        assert bracket is not None
        assert mp_delta(context, epsilon, bracket.sigma, Fraction(1)) <= target  # still safe: δ was overstated
        if mp_delta(context, epsilon, bracket.sigma_below, Fraction(1)) <= target:
            wrong_lower_ends += 1
    assert wrong_lower_ends == len(PLANT_GRID)


@pytest.mark.parametrize(("epsilon", "ratio"), [("1/100", "300"), ("1/2", "10"), ("20", "3/10"), ("2", "2")])
def test_the_slope_bound_contains_mpmaths_slope_along_the_segment(epsilon: str, ratio: str) -> None:
    # the Lipschitz bound of log|δ'| (d/d log σ = a² − b² − 2, K = 1/s² + 4ε²s² + 2) checked against mpmath's
    # δ'(ξ) = −φ(εξ − 1/(2ξ))/ξ² at points of the segment from c to ends 0.1% away (Δ = 1, so ξ = σ = s)
    eps, centre = Fraction(epsilon), Fraction(ratio)
    context = mp_context(40)
    with working_precision(64):
        eps_ball, centre_ball = arb(fmpq(eps.numerator, eps.denominator)), arb(fmpq(centre.numerator, centre.denominator))
        _, density = profile_with_density(eps_ball, centre_ball)
        steepness = density / (centre_ball * centre_ball)
        high, below = centre_ball * arb("1.001"), centre_ball * arb("0.999")
        reach = (high - centre_ball).union(below - centre_ball).abs_upper() / centre_ball
        slope = mean_value._slope_near(16 * eps_ball * eps_ball, centre_ball * centre_ball, steepness, reach)
    assert slope is not None
    lower, upper = (context.mpf(int(m)) * context.mpf(2) ** int(x) for m, x in (slope.mid().man_exp(), slope.rad().man_exp()))
    for step in range(-10, 11):
        point = context.mpf(centre.numerator) / centre.denominator * (1 + context.mpf(step) / 10000)
        exact_slope = -context.npdf(context.mpf(eps.numerator) / eps.denominator * point - 1 / (2 * point)) / point**2
        assert lower - upper <= exact_slope <= lower + upper


def test_the_answer_built_from_a_bracket_equals_the_validated_constructors() -> None:
    # the mean value route sets the fields of ExactSigma directly (skipping CertifiedReal's checks, which hold by
    # construction): every dataclass field must be set, and the object equal to the one the constructor builds
    import dataclasses

    result = sigma_exact(epsilon=Fraction(1, 2), delta=Fraction(1, 10**9), sensitivity_squared=Fraction(1))
    names = [item.name for item in dataclasses.fields(ExactSigma)]
    assert all(name in vars(result) for name in names)
    rebuilt = ExactSigma(**{name: getattr(result, name) for name in names})
    assert rebuilt == result and rebuilt.sigma_below < rebuilt.sigma
    assert result.sigma_below == result.sigma * (1 - result.tolerance)
