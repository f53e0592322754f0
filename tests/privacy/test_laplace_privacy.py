"""KARY Laplace calibrations (reference.kary.privacy), the optimal pure-DP composition
(reference.privacy.pure_composition) and the proof programs kary_lemma_5_5 / kary_corollary_5_7.

References are independent: the printed formulas evaluated literally with mpmath at 50 digits (the module
uses cancellation-free rewritings), brute force over all 2^k subsets for the composition, and the exact
Laplace profile for the ε-DP sanity checks. No Monte Carlo here (no false alarms).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath as mp
import pytest
from reference_verification.core.proof import ProofFailure
from reference_verification.kary.proofs import corollary_5_7 as kary_corollary_5_7
from reference_verification.kary.proofs import lemma_5_5 as kary_lemma_5_5

from reference.core.certified import CertifiedReal
from reference.kary.privacy import (
    corollary_5_7_factor,
    corollary_5_7_variance_ratio,
    heterogeneous_composition_epsilon,
    l2_laplace_a,
    l2_laplace_epsilon,
    l2_laplace_scale,
    l2_laplace_sufficient_scale,
    laplace_epsilon_theorem_1_3,
    laplace_scale,
)
from reference.privacy.gaussian import sigma_classical
from reference.privacy.laplace_profile import laplace_delta, laplace_epsilon
from reference.privacy.pure_composition import optimal_composition_delta, optimal_composition_epsilon

Exact = int | str | Fraction


def _mp(value: Exact) -> mp.mpf:
    fraction = Fraction(value)
    return mp.mpf(fraction.numerator) / fraction.denominator


def _encloses(enclosure: CertifiedReal, value: mp.mpf) -> bool:
    slack = mp.mpf(10) ** -40 * max(abs(value), mp.mpf(1))
    return bool(_mp(enclosure.lower) - slack <= value <= _mp(enclosure.upper) + slack)


# ---------------------------------------------------------------------------------------------- Lemma A.2


def test_lemma_a2_scale_is_exact_and_pure_dp() -> None:
    assert laplace_scale(epsilon="1/2", l1_sensitivity=3) == 6
    assert laplace_scale(epsilon="1e-3", l1_sensitivity="7/3") == Fraction(7000, 3)
    # at b = Δ1/ε every vector with ‖v‖_1 <= Δ1 has δ(ε) = 0 exactly
    assert (
        laplace_delta(
            epsilon="1/2", scale=laplace_scale(epsilon="1/2", l1_sensitivity=3), sensitivities=[1, 1, 1]
        ).upper
        == 0
    )
    assert (
        laplace_delta(
            epsilon="1/2", scale=laplace_scale(epsilon="1/2", l1_sensitivity=3), sensitivities=[2, "1/2"]
        ).upper
        == 0
    )
    with pytest.raises(ValueError, match="epsilon"):
        laplace_scale(epsilon=0, l1_sensitivity=1)
    with pytest.raises(TypeError, match="l1_sensitivity"):
        laplace_scale(epsilon=1, l1_sensitivity=1.5)


# ---------------------------------------------------------------------------------------------- Theorem 1.3


def _theorem_1_3(scale: Exact, l1: Exact, l2_squared: Exact, delta: Exact) -> mp.mpf:
    lam, d1, d2, dl = _mp(scale), _mp(l1), mp.sqrt(_mp(l2_squared)), _mp(delta)
    return min(d1 / lam, (d2 / lam) * (d2 / (2 * lam) + mp.sqrt(2 * mp.log(1 / dl))))


@pytest.mark.parametrize(
    ("scale", "l1", "l2_squared", "delta"),
    [(40, 30, 30, "1e-6"), (11, 10, 10, "1e-3"), (2, 1, 1, "1/2"), ("1001/10", 100, 4, "1e-12"), (3, 2, "5/2", "0.9")],
)
def test_theorem_1_3_matches_the_printed_formula(scale: Exact, l1: Exact, l2_squared: Exact, delta: str) -> None:
    with mp.workdps(50):
        expected = _theorem_1_3(scale, l1, l2_squared, delta)
        result = laplace_epsilon_theorem_1_3(
            scale=scale, l1_sensitivity=l1, l2_sensitivity=None, delta=delta, l2_sensitivity_squared=l2_squared
        )
        assert _encloses(result, expected)
        assert result.relative_width() < Fraction(1, 2**79)


def test_theorem_1_3_with_rational_l2_and_refusals() -> None:
    assert laplace_epsilon_theorem_1_3(
        scale=5, l1_sensitivity=4, l2_sensitivity=2, delta="1e-3"
    ) == laplace_epsilon_theorem_1_3(
        scale=5, l1_sensitivity=4, l2_sensitivity=None, delta="1e-3", l2_sensitivity_squared=4
    )
    with pytest.raises(ValueError, match="laplace_profile"):
        laplace_epsilon_theorem_1_3(
            scale=4, l1_sensitivity=4, l2_sensitivity=2, delta="1e-3"
        )  # λ = Δ1: outside the theorem
    with pytest.raises(ValueError, match="l2 sensitivity cannot exceed"):
        laplace_epsilon_theorem_1_3(scale=10, l1_sensitivity=2, l2_sensitivity=3, delta="1e-3")
    with pytest.raises(TypeError, match="exactly one"):
        laplace_epsilon_theorem_1_3(
            scale=10, l1_sensitivity=4, l2_sensitivity=2, delta="1e-3", l2_sensitivity_squared=4
        )
    with pytest.raises(TypeError, match="exactly one"):
        laplace_epsilon_theorem_1_3(scale=10, l1_sensitivity=4, l2_sensitivity=None, delta="1e-3")
    with pytest.raises(ValueError, match="delta"):
        laplace_epsilon_theorem_1_3(scale=10, l1_sensitivity=4, l2_sensitivity=2, delta=1)
    with pytest.raises(TypeError, match="scale"):
        laplace_epsilon_theorem_1_3(scale=10.5, l1_sensitivity=4, l2_sensitivity=2, delta="1e-3")


@pytest.mark.parametrize(("height", "factor", "delta"), [(1, "2", "1e-3"), (8, "3/2", "1e-6"), (25, 4, "1e-9")])
def test_theorem_1_3_is_an_upper_bound_of_the_exact_epsilon(height: int, factor: Exact, delta: str) -> None:
    scale = Fraction(factor) * height
    paper = laplace_epsilon_theorem_1_3(
        scale=scale, l1_sensitivity=height, l2_sensitivity=None, delta=delta, l2_sensitivity_squared=height
    )
    assert laplace_delta(epsilon=paper.lower, scale=scale, sensitivities=[1] * height).upper <= Fraction(delta)
    exact = laplace_epsilon(delta=delta, scale=scale, sensitivities=[1] * height, tolerance=Fraction(1, 10**6))
    assert exact.upper <= paper.upper


def test_proof_5_9_epsilon_without_the_scale_condition() -> None:
    # λ <= Δ1 is outside Theorem 1.3, but Proof 5.9's ε' remains an upper bound of the exact ε
    for scale in (4, 8, 16):
        paper = l2_laplace_epsilon(scale=scale, l2_sensitivity=None, delta="1e-6", l2_sensitivity_squared=16)
        assert laplace_delta(epsilon=paper.lower, scale=scale, sensitivities=[1] * 16).upper <= Fraction(1, 10**6)
    with mp.workdps(50):
        assert _encloses(
            l2_laplace_epsilon(scale=3, l2_sensitivity=2, delta="1e-4"),
            (_mp(2) / 3) * (_mp(1) / 3 + mp.sqrt(2 * mp.log(10**4))),
        )


# ---------------------------------------------------------------------------------------------- Lemma 5.5


@pytest.mark.parametrize(("epsilon", "delta"), [("1/2", "1e-6"), ("1e-4", "1e-3"), ("0.99", "0.99"), ("1/3", "1e-15")])
def test_lemma_5_5_a_matches_the_printed_formula_and_its_equation(epsilon: str, delta: str) -> None:
    result = l2_laplace_a(epsilon=epsilon, delta=delta)
    with mp.workdps(60):
        big_l = mp.log(1 / _mp(delta))
        printed = mp.sqrt(2 * big_l) * (mp.sqrt(1 + _mp(epsilon) / big_l) - 1)
        assert _encloses(result, printed)
        a = _mp(result.midpoint)
        assert abs(a * (a / 2 + mp.sqrt(2 * big_l)) - _mp(epsilon)) < mp.mpf(10) ** -22 * _mp(epsilon)


def test_lemma_5_5_scale_and_sufficiency() -> None:
    scale = l2_laplace_scale(epsilon="1/2", delta="1e-6", l2_sensitivity=None, l2_sensitivity_squared=10)
    with mp.workdps(50):
        big_l = mp.log(10**6)
        expected = mp.sqrt(10) / (mp.sqrt(2 * big_l) * (mp.sqrt(1 + mp.mpf(1) / 2 / big_l) - 1))
        assert _encloses(scale, expected)
    sufficient = l2_laplace_sufficient_scale(
        epsilon="1/2", delta="1e-6", l2_sensitivity=None, l2_sensitivity_squared=10
    )
    assert sufficient == scale.upper
    # the all-ones vector of length 10 has Δ2² = 10: the lemma's scale is enough for it
    assert laplace_delta(epsilon="1/2", scale=scale.lower, sensitivities=[1] * 10).upper <= Fraction(1, 10**6)
    assert l2_laplace_scale(epsilon="1/2", delta="1e-6", l2_sensitivity=3) == l2_laplace_scale(
        epsilon="1/2", delta="1e-6", l2_sensitivity=None, l2_sensitivity_squared=9
    )
    with pytest.raises(ValueError, match="laplace_scale_exact"):
        l2_laplace_a(epsilon=1, delta="1e-6")
    with pytest.raises(ValueError, match="delta"):
        l2_laplace_scale(epsilon="1/2", delta=0, l2_sensitivity=1)


# ---------------------------------------------------------------------------------------------- Lemma 5.4


def _lemma_5_4(epsilons: list[str], delta: str) -> mp.mpf:
    values = [_mp(e) for e in epsilons]
    second = sum((mp.exp(e) - 1) * e / (mp.exp(e) + 1) for e in values) + mp.sqrt(
        2 * mp.log(1 / _mp(delta)) * sum(e**2 for e in values)
    )
    return min(sum(values), second)


@pytest.mark.parametrize(
    ("epsilons", "delta"),
    [(["0.1"] * 50, "1e-6"), (["1"] * 3, "1e-3"), (["1/10", "1/5", "1/2", "1/3"], "0.5"), (["0.01"] * 200, "1e-10")],
)
def test_lemma_5_4_matches_the_printed_formula(epsilons: list[str], delta: str) -> None:
    with mp.workdps(50):
        assert _encloses(heterogeneous_composition_epsilon(epsilons=epsilons, delta=delta), _lemma_5_4(epsilons, delta))


def test_lemma_5_4_is_sufficient_for_the_optimal_composition() -> None:
    for epsilons, delta in ((["0.1"] * 50, "1e-6"), (["1/10", "1/5", "1/2", "1/3"] * 3, "1e-3")):
        paper = heterogeneous_composition_epsilon(epsilons=epsilons, delta=delta)
        assert optimal_composition_delta(epsilon=paper.lower, epsilons=epsilons).upper <= Fraction(delta)
    with pytest.raises(ValueError, match=r"epsilons\[1\]"):
        heterogeneous_composition_epsilon(epsilons=["1", "0"], delta="1e-3")
    with pytest.raises(ValueError, match="epsilons"):
        heterogeneous_composition_epsilon(epsilons=[], delta="1e-3")


# ---------------------------------------------------------------------------------------------- composition


def _brute_force(epsilon: str, epsilons: list[str]) -> mp.mpf:
    """Σ over all 2^k subsets of the randomized-response product (Murtagh–Vadhan), no grouping."""
    values = [_mp(e) for e in epsilons]
    total = mp.mpf(0)
    for signs in itertools.product((1, -1), repeat=len(values)):
        probability = mp.mpf(1)
        for sign, e in zip(signs, values):
            probability *= (mp.exp(e) if sign > 0 else 1) / (1 + mp.exp(e))
        loss = sum(sign * e for sign, e in zip(signs, values))
        total += probability * max(mp.mpf(0), 1 - mp.exp(_mp(epsilon) - loss))
    return total


@pytest.mark.parametrize(
    ("epsilon", "epsilons"),
    [("0", ["1"]), ("1/2", ["1"]), ("1/3", ["1/2", "1/2", "1/4", "1"]), ("0.9", ["0.3"] * 8), ("1", ["1/5", "2/3", "1/5"])],
)
def test_optimal_composition_matches_brute_force(epsilon: str, epsilons: list[str]) -> None:
    with mp.workdps(50):
        assert _encloses(optimal_composition_delta(epsilon=epsilon, epsilons=epsilons), _brute_force(epsilon, epsilons))


def test_optimal_composition_epsilon_and_laplace_comparison() -> None:
    epsilons = ["1/10"] * 30
    optimal = optimal_composition_epsilon(delta="1e-6", epsilons=epsilons, tolerance=Fraction(1, 10**8))
    assert optimal_composition_delta(epsilon=optimal.upper, epsilons=epsilons).upper <= Fraction(1, 10**6)
    assert optimal_composition_delta(epsilon=optimal.lower, epsilons=epsilons).lower > Fraction(1, 10**6)
    # Laplace noise with ε_j per coordinate is one ε_j-DP composition: it can need no more than the optimum
    laplace = laplace_epsilon(delta="1e-6", scale=1, sensitivities=epsilons, tolerance=Fraction(1, 10**8))
    assert laplace.lower <= optimal.upper
    assert optimal_composition_delta(epsilon=3, epsilons=epsilons).upper == 0  # ε = Σ ε_j
    with pytest.raises(ValueError, match="MAX_COMBINATIONS"):
        optimal_composition_delta(epsilon=1, epsilons=[Fraction(1, n) for n in range(2, 22)])
    with pytest.raises(TypeError, match="epsilons"):
        optimal_composition_delta(epsilon=1, epsilons="0.1")


# ---------------------------------------------------------------------------------------------- Corollary 5.7


@pytest.mark.parametrize(("epsilon", "delta"), [("1/2", "1e-6"), ("1e-6", "1e-3"), ("6.9", "1e-3"), ("0.99", "0.3")])
def test_corollary_5_7_factor_matches_the_printed_formula(epsilon: str, delta: str) -> None:
    result = corollary_5_7_factor(epsilon=epsilon, delta=delta)
    with mp.workdps(80):
        w = _mp(epsilon) / mp.log(1 / _mp(delta))
        printed = w**2 / (2 * (mp.sqrt(1 + w) - 1) ** 2)
        assert _encloses(result, printed)
        assert 2 < printed <= (3 + 2 * mp.sqrt(2)) / 2


def test_corollary_5_7_limit_range_and_ratio() -> None:
    assert abs(corollary_5_7_factor(epsilon="1e-30", delta="1e-6").midpoint - 2) < Fraction(1, 10**29)
    with pytest.raises(ValueError, match="ln\\(1/delta\\)"):
        corollary_5_7_factor(epsilon=7, delta="1e-3")  # ln(1000) = 6.907...
    # the ratio of the two mechanisms' variances, computed literally from Lemma 5.5 and Lemma A.3
    for epsilon, delta in (("1/2", "1e-6"), ("0.9", "1e-3"), ("1e-3", "1e-9")):
        laplace = l2_laplace_scale(epsilon=epsilon, delta=delta, l2_sensitivity=1)
        gauss = sigma_classical(epsilon=epsilon, delta=delta, sensitivity_squared=1)
        literal = CertifiedReal(2 * laplace.lower**2 / gauss.upper**2, 2 * laplace.upper**2 / gauss.lower**2)
        ratio = corollary_5_7_variance_ratio(epsilon=epsilon, delta=delta)
        assert ratio.lower <= literal.upper and literal.lower <= ratio.upper
        assert ratio.upper < corollary_5_7_factor(epsilon=epsilon, delta=delta).lower
    with pytest.raises(ValueError, match="epsilon"):
        corollary_5_7_variance_ratio(epsilon=1, delta="1e-9")


# ---------------------------------------------------------------------------------------------- proofs


def test_proof_programs_establish_their_statements() -> None:
    for record in (kary_lemma_5_5.prove(), kary_corollary_5_7.prove()):
        assert record.paper == "KARY"
        assert len(record.steps) >= 8


@pytest.mark.parametrize(
    ("program", "mutation"),
    [
        (kary_lemma_5_5.prove, {"scale_constant": 3}),
        (kary_lemma_5_5.prove, {"scale_constant": 1}),
        (kary_lemma_5_5.prove, {"tanh_divisor": 3}),
        (kary_lemma_5_5.prove, {"tanh_divisor": 1}),
        (kary_corollary_5_7.prove, {"claimed_limit": 4}),
        (kary_corollary_5_7.prove, {"claimed_limit": 1}),
        (kary_corollary_5_7.prove, {"taylor_coefficient": Fraction(1, 16)}),
    ],
)
def test_proof_programs_fail_on_a_wrong_constant(program: object, mutation: dict[str, object]) -> None:
    with pytest.raises(ProofFailure):
        program(sanity=False, **mutation)  # type: ignore[operator]


# ---------------------------------------------------------------------------------------------- verification


def test_lemma_a3_gaussian_is_not_private_inside_corollary_5_7_range() -> None:
    # Balle & Wang's exact Gaussian profile at σ = sqrt(2 ln(1.25/δ))/ε (Δ = 1), evaluated with mpmath:
    # at ε = 10 <= ln(1e6) = 13.8 it exceeds δ = 1e-6, so Lemma A.3's Gaussian is not (ε, δ)-DP there
    with mp.workdps(50):
        epsilon, delta = mp.mpf(10), mp.mpf(10) ** -6
        sigma = mp.sqrt(2 * mp.log(mp.mpf(5) / 4 / delta)) / epsilon
        profile = mp.ncdf(1 / (2 * sigma) - epsilon * sigma) - mp.exp(epsilon) * mp.ncdf(-1 / (2 * sigma) - epsilon * sigma)
        assert profile > delta
        assert epsilon <= mp.log(1 / delta)
    from reference_verification.kary.checks.laplace import corollary_5_7_gaussian_range

    found = corollary_5_7_gaussian_range(deltas=(Fraction(1, 10**6),), step=Fraction(2), refine_to=Fraction(1, 100))
    assert not found.holds
    assert any(point.epsilon == 9 for point in found.failures)  # grid 1, 3, ..., 13
    (delta_row, holds_at, fails_at) = found.thresholds[0]
    assert delta_row == Fraction(1, 10**6) and holds_at < fails_at <= 9
    assert "NOT private" in found.summary()


def test_verification_checks_on_small_grids() -> None:
    from reference_verification.kary.checks import laplace as checks

    small = (Fraction(1, 10**3),)
    for result in (
        checks.theorem_1_3_vs_exact(max_height=4, deltas=small, scale_factors=(Fraction(2),)),
        checks.proof_5_9_below_l1(heights=(4,), deltas=small, scale_factors=(Fraction(1, 2),)),
        checks.lemma_5_5_vs_exact(heights=(1, 4), epsilons=(Fraction(1, 2),), deltas=small),
        checks.lemma_5_4_vs_optimal(lists=((Fraction(1, 10),) * 10,), deltas=small),
        checks.corollary_5_7_vs_exact(epsilons=(Fraction(1, 2),), deltas=small, heights=(1, 4)),
    ):
        assert result.holds
        assert result.summary()
