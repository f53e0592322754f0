"""TDA Theorem 1 by the exact law: certified failure probabilities against an independent enumeration.

Independent routes: the binary64 leaf law of reference_verification.tda.checks.mechanism.exact_leaf_law (a separate
implementation of InfTDA's law, built from PrefixTree), and the discrete Gaussian pmf summed here with mpmath.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
from reference_verification.tda.checks.mechanism import exact_leaf_law
from reference_verification.tda.checks.utility import failure_probability, failure_threshold, per_level_step

from reference.tda.data import Hierarchy, prefix_counts


def mp_pmf_zero(sigma_squared: float) -> mpmath.mpf:
    normaliser = mpmath.nsum(lambda y: mpmath.exp(-(y**2) / (2 * sigma_squared)), [-mpmath.inf, mpmath.inf])
    return 1 / normaliser


def test_per_level_step_counterexample() -> None:
    # two cells, σ² = 1/4, β = 0.3: t = sqrt(0.5 log(20/3)) ≈ 0.974 < 1, so the step asks P[Z_1 = Z_2 = 0] >= 0.7
    assert math.sqrt(0.5 * math.log(2 / 0.3)) < 1
    expected = mp_pmf_zero(0.25) ** 2  # ≈ 0.6187
    point = per_level_step(2, Fraction(1, 4), Fraction(3, 10))
    assert point.radius == 0 and point.fails
    assert float(point.inside.lower) <= float(expected) <= float(point.inside.upper)
    assert float(expected) < 0.7
    # the two-sided radius sqrt(2σ² log(4/β)) ≈ 1.26 >= 1 repairs it
    assert not per_level_step(2, Fraction(1, 4), Fraction(3, 10), two_sided=True).fails


def test_failure_threshold_is_the_floor_plus_one() -> None:
    # B_1 = sqrt(8σ² log(|X_1|/β)); σ² = 1/4, |X_1| = 2, β = 0.3: sqrt(2 log(20/3)) ≈ 1.948, so errors >= 2 fail
    assert failure_threshold((2,), 1, Fraction(1, 4), Fraction(3, 10)) == 2
    # two levels, sizes (2, 2), σ² = 2, β = 0.05: B_2 = sqrt(16 log(80)) + sqrt(16 log(160)) ≈ 8.37 + 9.0
    bound = math.sqrt(16 * math.log(2 * 2 / 0.05)) + math.sqrt(16 * math.log(2 * 4 / 0.05))
    assert failure_threshold((2, 2), 2, Fraction(2), Fraction(1, 20)) == math.floor(bound) + 1


def _leaf_law_failure(level: int, threshold: int, sigma_squared: Fraction) -> float:
    """Failure probability from exact_leaf_law on the 2×2 instance with records (0,0), (0,1), (0,1)."""
    hierarchy = Hierarchy.build(["a", "b"], [["x", "y"], ["p", "q"]])
    tree = prefix_counts([(0, 0), (0, 1), (0, 1)], hierarchy)
    law = exact_leaf_law(tree, Fraction(2) / sigma_squared, cutoff=14)  # σ² = d/ρ with d = 2
    truth = {(0, 0): 1, (0, 1): 2, (1, 0): 0, (1, 1): 0}
    failing = 0.0
    for state, probability in law.items():
        leaves = dict(state)
        if level == 2:
            error = max(abs(leaves.get(leaf, 0) - count) for leaf, count in truth.items())
        else:
            error = max(abs(leaves.get((a, 0), 0) + leaves.get((a, 1), 0) - (3 if a == 0 else 0)) for a in (0, 1))
        if error >= threshold:
            failing += probability
    return failing


@pytest.mark.parametrize("sigma_squared", [Fraction(1, 4), Fraction(1), Fraction(2)])
@pytest.mark.parametrize("level", [1, 2])
def test_two_level_law_matches_the_leaf_law(sigma_squared: Fraction, level: int) -> None:
    children = ((1, 2), (0, 0))
    beta = Fraction(3, 10)
    point = failure_probability(children, sigma_squared, beta, level)
    # compare at thresholds near the noise scale too, where the probability is not negligible
    for threshold in (point.threshold, 1, 2, 3):
        exact = _replace_threshold(children, sigma_squared, beta, level, threshold)
        reference = _leaf_law_failure(level, threshold, sigma_squared)
        assert float(exact.lower) - 1e-9 <= reference <= float(exact.upper) + 1e-9, (threshold, exact, reference)


def _replace_threshold(children: tuple[tuple[int, ...], ...], s2: Fraction, beta: Fraction, level: int, threshold: int) -> object:
    from unittest import mock

    with mock.patch("reference_verification.tda.checks.utility.failure_threshold", return_value=threshold):
        return failure_probability(children, s2, beta, level).failure


def test_theorem_holds_at_the_step_counterexample() -> None:
    point = failure_probability(((2, 1),), Fraction(1, 4), Fraction(3, 10), 1)
    assert point.threshold == 2 and point.holds and point.failure.upper < Fraction(1, 1000)


def test_bad_inputs() -> None:
    with pytest.raises(ValueError, match="beta"):
        failure_probability(((1, 1),), Fraction(1), Fraction(3, 2), 1)
    with pytest.raises(ValueError, match="level"):
        failure_probability(((1, 1),), Fraction(1), Fraction(1, 10), 2)
    with pytest.raises(ValueError, match="sigma_squared"):
        failure_probability(((1, 1),), 0, Fraction(1, 10), 1)
