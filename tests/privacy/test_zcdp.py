"""zCDP accounting, the zCDP -> (ε, δ) conversions and the exact δ(ε) of the discrete Gaussian.

Every value is compared with an independent computation: mpmath at 50 digits (closed forms, a golden-section
minimisation over the Rényi order that does not use the package's derivative formulas), and the definitional
hockey-stick sum Σ_y max(0, p(y) - e^ε p(y - Δ)) of the discrete Gaussian summed by brute force — not the
two-tail form of CKS Theorem 7 that the package evaluates.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.core.certified import CertifiedReal
from reference.privacy import zcdp
from reference.privacy.discrete_gaussian_profile import normaliser_ball
from reference.privacy.gaussian import gaussian_epsilon


@pytest.fixture(autouse=True)
def _fifty_digits() -> Iterator[None]:
    """mpmath at 50 digits for every test here, restored afterwards (mpmath's precision is global)."""
    with mpmath.workdps(50):
        yield

RELATIVE = mpmath.mpf("1e-30")


def mp(value: Fraction | int) -> mpmath.mpf:
    value = Fraction(value)
    return mpmath.mpf(value.numerator) / value.denominator


def close_to(enclosure: CertifiedReal, value: mpmath.mpf, tolerance: mpmath.mpf = RELATIVE) -> bool:
    """The mpmath value lies in the enclosure, up to ``tolerance`` relative (mpmath's own rounding)."""
    slack = tolerance * abs(value)
    return bool(mp(enclosure.lower) - slack <= value <= mp(enclosure.upper) + slack)


def golden_minimum(objective, high: mpmath.mpf) -> mpmath.mpf:  # type: ignore[no-untyped-def]
    """Minimum of a unimodal function of t = α - 1 over (0, high], golden section on log t (independent)."""
    low_log, high_log = mpmath.log(mpmath.mpf("1e-30")), mpmath.log(high)
    ratio = (mpmath.sqrt(5) - 1) / 2
    for _ in range(400):
        a = high_log - ratio * (high_log - low_log)
        b = low_log + ratio * (high_log - low_log)
        if objective(mpmath.exp(a)) < objective(mpmath.exp(b)):
            high_log = b
        else:
            low_log = a
    return objective(mpmath.exp((low_log + high_log) / 2))


def tight_epsilon_mp(rho: Fraction, delta: Fraction) -> mpmath.mpf:
    r, log_inv = mp(rho), -mpmath.log(mp(delta))

    def f(t: mpmath.mpf) -> mpmath.mpf:
        alpha = 1 + t
        return alpha * r + (log_inv + (alpha - 1) * mpmath.log(1 - 1 / alpha) - mpmath.log(alpha)) / (alpha - 1)

    return golden_minimum(f, 10 + mpmath.sqrt(log_inv / r))


def tight_delta_mp(rho: Fraction, epsilon: Fraction) -> mpmath.mpf:
    r, e = mp(rho), mp(epsilon)

    def f(t: mpmath.mpf) -> mpmath.mpf:
        alpha = 1 + t
        return mpmath.exp((alpha - 1) * (alpha * r - e)) / (alpha - 1) * (1 - 1 / alpha) ** alpha

    return golden_minimum(f, 10 + (e + r) / r)


def hockey_stick_mp(epsilon: Fraction, sigma_squared: Fraction, shift: int) -> mpmath.mpf:
    """Σ_y max(0, p(y) - e^ε p(y - Δ)) for N_Z(0, σ²), summed over |y| <= 60σ + 60 (the rest is < 1e-700)."""
    s2, e_eps = mp(sigma_squared), mpmath.exp(mp(epsilon))
    reach = int(60 * mpmath.sqrt(s2)) + 60 + shift
    weight = {y: mpmath.exp(-mpmath.mpf(y * y) / (2 * s2)) for y in range(-reach - shift, reach + 1)}
    total = mpmath.fsum(weight[y] for y in range(-reach, reach + 1))
    return mpmath.fsum(max(mpmath.mpf(0), weight[y] - e_eps * weight[y - shift]) for y in range(-reach, reach + 1)) / total


# ------------------------------------------------------------------------------------------- ρ accounting


def test_rho_of_gaussian_and_discrete_gaussian() -> None:
    assert zcdp.rho_gaussian(sigma_squared=4, sensitivity_squared=2) == Fraction(1, 4)
    assert zcdp.rho_gaussian(sigma_squared="1/2", sensitivity_squared="3/7") == Fraction(3, 7)
    assert zcdp.rho_discrete_gaussian(sigma_squared=Fraction(5, 2), sensitivity_squared=2) == Fraction(2, 5)
    for scale, d2 in [(Fraction(7, 3), 5), (Fraction(1, 9), 1)]:
        assert zcdp.rho_discrete_gaussian(sigma_squared=scale, sensitivity_squared=d2) * 2 * scale == d2
        assert (
            zcdp.sigma_squared_for_rho(
                rho=zcdp.rho_discrete_gaussian(sigma_squared=scale, sensitivity_squared=d2), sensitivity_squared=d2
            )
            == scale
        )


def test_compose_rho_adds() -> None:
    assert zcdp.compose_rho(Fraction(1, 3), "1/6", 1) == Fraction(3, 2)
    assert zcdp.compose_rho(*([Fraction(1, 7)] * 7)) == 1


def test_rho_inputs_are_validated() -> None:
    with pytest.raises(ValueError, match="sensitivity_squared must be a positive integer"):
        zcdp.rho_discrete_gaussian(sigma_squared=1, sensitivity_squared=Fraction(1, 2))
    with pytest.raises(ValueError, match="sigma_squared"):
        zcdp.rho_gaussian(sigma_squared=0, sensitivity_squared=1)
    with pytest.raises(TypeError, match="sigma_squared"):
        zcdp.rho_gaussian(sigma_squared=0.5, sensitivity_squared=1)
    with pytest.raises(ValueError, match="at least one"):
        zcdp.compose_rho()
    with pytest.raises(ValueError, match=r"rhos\[1\]"):
        zcdp.compose_rho(1, 0)
    with pytest.raises(ValueError, match="rho"):
        zcdp.sigma_squared_for_rho(rho=-1, sensitivity_squared=1)


# ------------------------------------------------------------------------------------------- conversions


CONVERSION_CASES = [
    (Fraction(1, 2), Fraction(1, 10**6)),
    (Fraction(1, 100), Fraction(1, 10**9)),
    (Fraction(10), Fraction(1, 10)),
    (Fraction(1, 10**6), Fraction(1, 10**5)),
    (Fraction(3), Fraction(1, 2)),
]


@pytest.mark.parametrize(("rho", "delta"), CONVERSION_CASES)
def test_simple_epsilon_matches_mpmath(rho: Fraction, delta: Fraction) -> None:
    expected = mp(rho) + 2 * mpmath.sqrt(mp(rho) * -mpmath.log(mp(delta)))
    assert close_to(zcdp.epsilon_from_rho_simple(rho=rho, delta=delta), expected)


@pytest.mark.parametrize(("rho", "delta"), CONVERSION_CASES)
def test_tight_epsilon_encloses_the_infimum_over_alpha(rho: Fraction, delta: Fraction) -> None:
    tight = zcdp.epsilon_from_rho_tight(rho=rho, delta=delta)
    expected = tight_epsilon_mp(rho, delta)
    assert close_to(tight, max(expected, mpmath.mpf(0)))
    assert tight.relative_width() < Fraction(1, 10**20)
    assert tight.certainly_le(zcdp.epsilon_from_rho_simple(rho=rho, delta=delta).lower)


@pytest.mark.parametrize(("rho", "epsilon"), [(Fraction(1, 2), Fraction(3)), (Fraction(1, 100), Fraction(1)), (Fraction(2), Fraction(1)), (Fraction(1, 8), Fraction(1, 2))])
def test_tight_delta_encloses_the_infimum_over_alpha(rho: Fraction, epsilon: Fraction) -> None:
    tight = zcdp.delta_from_rho(rho=rho, epsilon=epsilon)
    assert close_to(tight, min(tight_delta_mp(rho, epsilon), mpmath.mpf(1)))
    simple = zcdp.delta_from_rho_simple(rho=rho, epsilon=epsilon)
    assert close_to(simple, mpmath.exp(-((mp(epsilon) - mp(rho)) ** 2) / (4 * mp(rho))) if epsilon >= rho else 1)
    assert tight.certainly_le(simple.lower)


def test_tight_epsilon_is_zero_when_the_total_variation_bound_suffices() -> None:
    # ρ = 1e-4: at α = 100 the objective is 0.01 + (log 100 - log 100)/99 + log(0.99) < 0, so ε = 0 is valid
    rho, delta = Fraction(1, 10**4), Fraction(1, 100)
    assert tight_epsilon_mp(rho, delta) < 0
    assert zcdp.epsilon_from_rho_tight(rho=rho, delta=delta) == CertifiedReal(Fraction(0), Fraction(0))


def test_tight_delta_in_log_space_reaches_below_exact_enclosures() -> None:
    # δ = exp(-(100 - 1e-4)²/(4e-4)) ~ exp(-2.5e7): only its logarithm can be enclosed
    rho, epsilon = Fraction(1, 10**4), Fraction(100)
    log_tight = zcdp.log_delta_from_rho(rho=rho, epsilon=epsilon)
    assert log_tight.certainly_le(zcdp.log_delta_from_rho_simple(rho=rho, epsilon=epsilon))
    assert zcdp.log_delta_from_rho_simple(rho=rho, epsilon=epsilon) == -((epsilon - rho) ** 2) / (4 * rho)
    assert close_to(log_tight, mpmath.log(tight_delta_mp(rho, epsilon)))


def test_tight_epsilon_is_an_upper_bound_of_the_exact_gaussian_epsilon() -> None:
    # N(0, σ²) with σ = 2, Δ = 1 is ρ = 1/8-zCDP; its exact ε (Balle–Wang) can only be smaller
    exact = gaussian_epsilon(delta=Fraction(1, 10**6), sigma=2, sensitivity_squared=1, tolerance=Fraction(1, 10**9))
    tight = zcdp.epsilon_from_rho_tight(rho=Fraction(1, 8), delta=Fraction(1, 10**6))
    assert exact.upper <= tight.lower


@settings(max_examples=25, deadline=None)
@given(
    st.fractions(min_value=Fraction(1, 10**5), max_value=50, max_denominator=10**5),
    st.fractions(min_value=Fraction(1, 10**12), max_value=Fraction(9, 10), max_denominator=10**12),
)
def test_tight_never_worse_than_simple(rho: Fraction, delta: Fraction) -> None:
    tight = zcdp.epsilon_from_rho_tight(rho=rho, delta=delta)
    assert tight.certainly_le(zcdp.epsilon_from_rho_simple(rho=rho, delta=delta).lower)


def test_conversions_are_monotone() -> None:
    rhos = [Fraction(1, 100), Fraction(1, 10), Fraction(1), Fraction(5)]
    values = [zcdp.epsilon_from_rho_tight(rho=r, delta=Fraction(1, 10**6)) for r in rhos]
    assert all(a.upper < b.lower for a, b in itertools.pairwise(values))
    deltas = [Fraction(1, 10**12), Fraction(1, 10**6), Fraction(1, 100)]
    values = [zcdp.epsilon_from_rho_tight(rho=1, delta=d) for d in deltas]
    assert all(a.lower > b.upper for a, b in itertools.pairwise(values))
    epsilons = [Fraction(1, 2), Fraction(1), Fraction(4)]
    deltas_out = [zcdp.delta_from_rho(rho=Fraction(1, 10), epsilon=e) for e in epsilons]
    assert all(a.lower > b.upper for a, b in itertools.pairwise(deltas_out))


@pytest.mark.parametrize(("epsilon", "delta"), [(Fraction(1), Fraction(1, 10**6)), (Fraction(1, 100), Fraction(1, 10**10)), (Fraction(50), Fraction(1, 2))])
def test_rho_from_epsilon_delta_closed_form(epsilon: Fraction, delta: Fraction) -> None:
    log_inv = -mpmath.log(mp(delta))
    expected = (mpmath.sqrt(mp(epsilon) + log_inv) - mpmath.sqrt(log_inv)) ** 2
    enclosure = zcdp.rho_from_epsilon_delta(epsilon=epsilon, delta=delta)
    assert close_to(enclosure, expected)
    # the lower end is sufficient for the simple conversion: ρ + 2 sqrt(ρ L) <= ε
    lower = mp(enclosure.lower)
    assert lower + 2 * mpmath.sqrt(lower * log_inv) <= mp(epsilon)


@pytest.mark.parametrize(("epsilon", "delta"), [(Fraction(1), Fraction(1, 10**6)), (Fraction(1, 10), Fraction(1, 10**8))])
def test_rho_from_epsilon_delta_tight_is_certified_both_ways(epsilon: Fraction, delta: Fraction) -> None:
    bracket = zcdp.rho_from_epsilon_delta_tight(epsilon=epsilon, delta=delta, tolerance=Fraction(1, 10**10))
    assert bracket.width <= bracket.upper / 10**10
    assert zcdp.epsilon_from_rho_tight(rho=bracket.lower, delta=delta).certainly_le(epsilon)  # sufficient
    assert tight_epsilon_mp(bracket.upper, delta) > mp(epsilon)  # insufficient, by the independent minimiser
    assert (
        bracket.lower > zcdp.rho_from_epsilon_delta(epsilon=epsilon, delta=delta).upper
    )  # better than the simple inverse


def test_conversion_inputs_are_validated() -> None:
    with pytest.raises(ValueError, match="rho"):
        zcdp.epsilon_from_rho_tight(rho=0, delta=Fraction(1, 10))
    with pytest.raises(ValueError, match="rho"):
        zcdp.epsilon_from_rho_simple(rho="-1", delta=Fraction(1, 10))
    for bad in (0, 1, Fraction(3, 2), "-1/2"):
        with pytest.raises(ValueError, match="delta"):
            zcdp.epsilon_from_rho_tight(rho=1, delta=bad)
        with pytest.raises(ValueError, match="delta"):
            zcdp.rho_from_epsilon_delta(epsilon=1, delta=bad)
    with pytest.raises(TypeError, match="delta"):
        zcdp.epsilon_from_rho_simple(rho=1, delta=1e-6)
    with pytest.raises(TypeError, match="rho"):
        zcdp.delta_from_rho(rho=0.5, epsilon=1)
    with pytest.raises(ValueError, match="epsilon"):
        zcdp.delta_from_rho(rho=1, epsilon=-1)
    with pytest.raises(ValueError, match="epsilon"):
        zcdp.rho_from_epsilon_delta(epsilon=0, delta=Fraction(1, 10))
    with pytest.raises(ValueError, match="tolerance"):
        zcdp.rho_from_epsilon_delta_tight(epsilon=1, delta=Fraction(1, 10), tolerance=2)


# ------------------------------------------------------------------------- discrete Gaussian δ(ε), exact

PROFILE_CASES = [
    (Fraction(1), Fraction(3, 2), 1),  # a = εσ²/Δ - Δ/2 = 1 is an integer: strictness matters here
    (Fraction(1, 2), Fraction(5), 1),
    (Fraction(0), Fraction(2), 1),  # δ(0): total variation distance
    (Fraction(2), Fraction(1, 3), 2),
    (Fraction(1, 10), Fraction(100), 3),
    (Fraction(3), Fraction(7, 2), 1),
    (Fraction(1, 4), Fraction(10**4), 1),
]


@pytest.mark.parametrize(("epsilon", "sigma_squared", "shift"), PROFILE_CASES)
def test_discrete_gaussian_delta_equals_the_hockey_stick_sum(epsilon: Fraction, sigma_squared: Fraction, shift: int) -> None:
    enclosure = zcdp.discrete_gaussian_delta(epsilon=epsilon, sigma_squared=sigma_squared, sensitivity=shift)
    assert close_to(enclosure, hockey_stick_mp(epsilon, sigma_squared, shift))
    assert enclosure.relative_width() < Fraction(1, 10**20)


def test_mixing_strict_and_non_strict_tails_is_wrong_on_the_lattice() -> None:
    # ε = 1, σ² = 3/2, Δ = 1: a = 1 is a lattice point with p(1) = e p(2)
    epsilon, scale = Fraction(1), Fraction(3, 2)
    s2, e_eps = mp(scale), mpmath.e
    weights = {x: mpmath.exp(-mpmath.mpf(x * x) / (2 * s2)) for x in range(-200, 201)}
    total = mpmath.fsum(weights.values())

    def tail(start: int) -> mpmath.mpf:  # P[X >= start]
        return mpmath.fsum(w for x, w in weights.items() if x >= start) / total

    exact = zcdp.discrete_gaussian_delta(epsilon=epsilon, sigma_squared=scale, sensitivity=1)
    strict = tail(2) - e_eps * tail(3)  # P[X > 1] - e P[X > 2]
    non_strict = tail(1) - e_eps * tail(2)  # P[X >= 1] - e P[X >= 2]
    mixed = tail(2) - e_eps * tail(2)  # P[X > 1] - e P[X >= 2]
    assert close_to(exact, strict) and close_to(exact, non_strict)
    assert not close_to(exact, mixed, mpmath.mpf("1e-6"))


def test_discrete_gaussian_delta_is_monotone() -> None:
    scale = Fraction(4)
    by_epsilon = [
        zcdp.discrete_gaussian_delta(epsilon=e, sigma_squared=scale, sensitivity=1) for e in (0, Fraction(1, 2), 1, 2)
    ]
    assert all(a.lower > b.upper for a, b in itertools.pairwise(by_epsilon))
    by_scale = [zcdp.discrete_gaussian_delta(epsilon=1, sigma_squared=s, sensitivity=1) for s in (Fraction(1, 2), 2, 8)]
    assert all(a.lower > b.upper for a, b in itertools.pairwise(by_scale))
    # monotone likelihood ratio: the worst shift with |q(x) - q(x')| <= Δ is Δ itself
    by_shift = [zcdp.discrete_gaussian_delta(epsilon=1, sigma_squared=scale, sensitivity=shift) for shift in (1, 2, 3)]
    assert all(a.upper < b.lower for a, b in itertools.pairwise(by_shift))


def test_discrete_gaussian_delta_below_its_zcdp_delta() -> None:
    for scale, shift in [(Fraction(2), 1), (Fraction(10), 2), (Fraction(1, 2), 1)]:
        rho = zcdp.rho_discrete_gaussian(sigma_squared=scale, sensitivity_squared=shift * shift)
        for epsilon in (Fraction(1, 2), Fraction(2)):
            assert zcdp.discrete_gaussian_delta(epsilon=epsilon, sigma_squared=scale, sensitivity=shift).certainly_le(
                zcdp.delta_from_rho(rho=rho, epsilon=epsilon).lower
            )


def test_normaliser_by_both_routes() -> None:
    from flint import arb, fmpq  # noqa: F401  (python-flint is what the package uses)

    from reference.core.certified import working_precision

    for scale in (Fraction(99, 100), Fraction(1), Fraction(1, 5), Fraction(37, 2)):
        s2 = mp(scale)
        expected = mpmath.fsum(mpmath.exp(-mpmath.mpf(x * x) / (2 * s2)) for x in range(-400, 401))
        with working_precision(200):
            ball = normaliser_ball(scale, 120)
        assert close_to(CertifiedReal.from_arb(ball), expected)


def test_discrete_gaussian_epsilon_is_certified_both_ways() -> None:
    delta, scale = Fraction(1, 10**5), Fraction(5)
    bracket = zcdp.discrete_gaussian_epsilon(
        delta=delta, sigma_squared=scale, sensitivity=1, tolerance=Fraction(1, 10**8)
    )
    assert zcdp.discrete_gaussian_delta(epsilon=bracket.upper, sigma_squared=scale, sensitivity=1).certainly_le(delta)
    assert zcdp.discrete_gaussian_delta(epsilon=bracket.lower, sigma_squared=scale, sensitivity=1).certainly_gt(delta)
    assert hockey_stick_mp(bracket.upper, scale, 1) <= mp(delta) < hockey_stick_mp(bracket.lower, scale, 1)
    # δ(0) = TV distance <= δ: ε = 0
    assert zcdp.discrete_gaussian_epsilon(delta=Fraction(1, 2), sigma_squared=100, sensitivity=1) == CertifiedReal(
        Fraction(0), Fraction(0)
    )


def test_discrete_gaussian_inputs_are_validated() -> None:
    with pytest.raises(ValueError, match="sensitivity"):
        zcdp.discrete_gaussian_delta(epsilon=1, sigma_squared=1, sensitivity=0)
    with pytest.raises(TypeError, match="sensitivity"):
        zcdp.discrete_gaussian_delta(epsilon=1, sigma_squared=1, sensitivity=Fraction(3, 2))
    with pytest.raises(TypeError, match="sensitivity"):
        zcdp.discrete_gaussian_delta(epsilon=1, sigma_squared=1, sensitivity=True)
    with pytest.raises(ValueError, match="epsilon"):
        zcdp.discrete_gaussian_delta(epsilon=-1, sigma_squared=1, sensitivity=1)
    with pytest.raises(ValueError, match="sigma_squared"):
        zcdp.discrete_gaussian_delta(epsilon=1, sigma_squared=0, sensitivity=1)
    with pytest.raises(TypeError, match="sigma_squared"):
        zcdp.discrete_gaussian_delta(epsilon=1, sigma_squared=2.5, sensitivity=1)
    with pytest.raises(ValueError, match="delta"):
        zcdp.discrete_gaussian_epsilon(delta=0, sigma_squared=1, sensitivity=1)
