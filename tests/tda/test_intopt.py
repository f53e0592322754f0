"""TDA's IntOpt: brute-force optimality, literal == fast, properties, tie rule, bad inputs.

No statistical tests here: every assertion is deterministic (hypothesis draws inputs, not verdicts).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_verification.tda.checks import intopt as intopt_checks

from reference.tda.intopt import (
    chebyshev_distance,
    intopt,
    intopt_literal,
    intopt_literal_with_count,
    intopt_with_count,
    tie_order,
)


def all_feasible(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every non-negative integer vector of length ``parts`` summing to ``total`` (written independently)."""
    for cuts in itertools.combinations_with_replacement(range(total + 1), parts - 1):
        bounds = (0, *cuts, total)
        yield tuple(bounds[i + 1] - bounds[i] for i in range(parts))


def brute_min(values: tuple[int, ...], total: int) -> int:
    return min(max(abs(v - y) for v, y in zip(values, ys)) for ys in all_feasible(total, len(values)))


SMALL = [v for d in range(1, 4) for v in itertools.product(range(-2, 4), repeat=d)]


@pytest.mark.parametrize("total", range(6))
def test_optimal_against_brute_force(total: int) -> None:
    for values in SMALL:
        out = intopt(values, total)
        assert sum(out) == total and min(out) >= 0
        assert chebyshev_distance(values, out) == brute_min(values, total)


@pytest.mark.parametrize("total", range(7))
def test_literal_equals_fast_on_grid(total: int) -> None:
    for values in SMALL:
        assert intopt_literal_with_count(values, total) == intopt_with_count(values, total)


def test_hand_computed_trace() -> None:
    # x = (5, 0), c = 0: D = -5, z = max(ceil(-5/2), -x) = (-2, 0), t = 2, I = (1, 0).
    # Pass t=2: z1 stays 0 (floor max(0, -2) = 0); z0 -> max(-2-3, -5, -2) = -2.  Pass t=3: z0 -> -3.
    # Pass t=4: z0 -> -4.  Pass t=5: z1 stays 0, z0 -> -5, sum = -5 = D.  4 passes of 2 steps = 8.
    trace = intopt_literal_with_count((5, 0), 0)
    assert trace.output == (0, 0)
    assert trace.iterations == 8
    assert trace.t_initial == 2 and trace.t_final == 5


def test_tie_rule_changes_output() -> None:
    # Equal values: the lower index is reduced first, so (0, 0) with c = 1 gives (0, 1); the opposite tie
    # order would give (1, 0), which is equally optimal.
    assert intopt_literal((0, 0), 1) == (0, 1)
    assert intopt((0, 0), 1) == (0, 1)
    assert tie_order((3, 1, 3, 1)) == [1, 3, 0, 2]
    assert brute_min((0, 0), 1) == chebyshev_distance((0, 0), (1, 0)) == 1


def test_zero_iterations_when_initial_point_is_feasible() -> None:
    # D = 6 - 0 = 6, d = 3: z = (2, 2, 2) already sums to D.
    trace = intopt_literal_with_count((0, 0, 0), 6)
    assert trace.output == (2, 2, 2) and trace.iterations == 0


def test_iterations_grow_without_c() -> None:
    # The O(c) claim fails: c = 0, x = (M, 0) needs about M iterations.
    # By hand, for even M: D = -M, z = (-M/2, 0), t0 = M/2, I = (1, 0); each pass leaves z1 = 0 and sets
    # z0 = -t, so the loop stops in the pass with t = M: M/2 + 1 passes of 2 steps = M + 2 iterations.
    for m in (10, 100, 1000):
        assert intopt_literal_with_count((m, 0), 0).iterations == m + 2
        assert intopt_with_count((m, 0), 0).iterations == m + 2


values_strategy = st.lists(st.integers(-60, 120), min_size=1, max_size=25)


@settings(max_examples=300, deadline=None)
@given(values_strategy, st.integers(0, 800))
def test_output_feasible_and_equal_to_literal(values: list[int], total: int) -> None:
    out = intopt(values, total)
    assert all(isinstance(v, int) and v >= 0 for v in out)
    assert sum(out) == total and len(out) == len(values)
    assert out == intopt_literal(values, total)


@settings(max_examples=300, deadline=None)
@given(values_strategy, st.integers(0, 800))
def test_order_preserved(values: list[int], total: int) -> None:
    out = intopt(values, total)
    for i, j in itertools.permutations(range(len(values)), 2):
        if (values[i], i) < (values[j], j):
            assert out[i] <= out[j]


def test_plain_order_statement_fails_on_ties() -> None:
    # "v_i <= v_j implies out_i <= out_j" cannot hold for equal values with an odd remainder.
    out = intopt((0, 0), 1)
    assert out[1] > out[0]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 50), min_size=1, max_size=20))
def test_feasible_input_returned_unchanged(values: list[int]) -> None:
    assert intopt(values, sum(values)) == tuple(values)
    assert intopt_literal(values, sum(values)) == tuple(values)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-30, 60), min_size=1, max_size=6), st.integers(0, 12))
def test_distance_meets_lower_bound_and_witness(values: list[int], total: int) -> None:
    # Independent characterisation: alpha is feasible iff max(-x) <= alpha and
    # sum max(0, x_i - alpha) <= c <= sum max(0, x_i + alpha) (clip to [x - alpha, x + alpha] and to >= 0).
    def feasible(alpha: int) -> bool:
        low = sum(max(0, v - alpha) for v in values)
        high = sum(max(0, v + alpha) for v in values)
        return high >= 0 and low <= total <= high and all(v + alpha >= 0 for v in values)

    alpha = 0
    while not feasible(alpha):
        alpha += 1
    assert chebyshev_distance(values, intopt(values, total)) == alpha


def test_bad_inputs() -> None:
    with pytest.raises(ValueError, match="total"):
        intopt([1, 2], -1)
    with pytest.raises(ValueError, match="total"):
        intopt_literal([1, 2], -1)
    with pytest.raises(TypeError, match="total"):
        intopt([1, 2], 1.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="total"):
        intopt([1, 2], True)
    with pytest.raises(TypeError, match="values"):
        intopt([1.0, 2], 1)  # type: ignore[list-item]
    with pytest.raises(TypeError, match="values"):
        intopt([True, 2], 1)
    with pytest.raises(TypeError, match="values"):
        intopt("12", 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="values"):
        intopt(5, 1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="values"):
        intopt([], 1)
    with pytest.raises(ValueError, match="values"):
        intopt_literal([], 1)
    with pytest.raises(ValueError, match="length"):
        chebyshev_distance([1, 2], [1])


def test_verification_checks_pass_on_reduced_grids() -> None:
    checks = [
        intopt_checks.check_optimality(max_dim=3, low=-2, high=2, max_total=4),
        intopt_checks.check_literal_equals_fast(max_dim=3, low=-2, high=3, max_total=5, random_cases=20),
        intopt_checks.check_error_lemma(max_dim=2, true_high=2, noise=2, max_total=5),
        intopt_checks.check_complexity_claim(max_dim=3, low=-2, high=4, max_total=5),
        intopt_checks.check_initialisation_claims(max_dim=3, low=-2, high=4, max_total=5),
    ]
    for check in checks:
        assert check.holds, check.summary()
        assert check.cases > 0


def test_paper_lower_bound_not_tight() -> None:
    # Section 3's bound alpha >= max(|c - sum x| / d, -min x) is M/2 for x = (M, 0), c = 0; the optimum is M
    # (the only feasible vector is (0, 0)).
    for m in range(2, 9, 2):
        assert brute_min((m, 0), 0) == m
        assert max(abs(0 - m) / 2, -min(m, 0)) == m / 2
        assert intopt((m, 0), 0) == (0, 0)


@pytest.mark.parametrize("dim", [1, 2, 3])
def test_grid_distances_equal_the_one_at_a_time_brute_force(dim: int) -> None:
    """The whole-grid minimum (numpy) against the independently written enumeration, vector by vector."""
    for total in range(5):
        grid = intopt_checks.brute_force_distances(dim, -2, 3, total)
        for values in itertools.product(range(-2, 4), repeat=dim):
            expected = min(max(abs(v - y) for v, y in zip(values, point)) for point in all_feasible(total, dim))
            assert grid[values] == expected
