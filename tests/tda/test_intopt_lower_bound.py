"""The stated lower bound on IntOpt's optimum is valid but not tight; the smallest input where it is not attained."""

from __future__ import annotations

import itertools

from reference_verification.tda.checks.intopt import check_initialisation_claims


def optimum(values: tuple[int, ...], total: int) -> int:
    """Brute force written here: every non-negative integer vector summing to ``total``."""
    best = None
    for y in itertools.product(range(total + 1), repeat=len(values)):
        if sum(y) == total:
            distance = max(abs(a - b) for a, b in zip(values, y))
            best = distance if best is None else min(best, distance)
    assert best is not None
    return best


def bound(values: tuple[int, ...], total: int) -> int:
    deficit = abs(total - sum(values))
    return max(-(-deficit // len(values)), -min(values), 0)


def test_smallest_input_where_the_bound_is_not_attained() -> None:
    # x = (0, 2), c = 0: only y = (0, 0) is feasible, at distance 2, while the bound is ceil(2/2) = 1
    assert optimum((0, 2), 0) == 2 and bound((0, 2), 0) == 1
    # every smaller input (one cell, or two cells with |x_1| + |x_2| <= 1, any c <= 3) attains it
    smaller = [((a,), c) for a in range(-3, 4) for c in range(4)]
    smaller += [(x, c) for x in itertools.product(range(-1, 2), repeat=2) if sum(map(abs, x)) <= 1 for c in range(4)]
    smaller += [((2, 0), c) for c in (1, 2, 3)] + [((0, 2), c) for c in (1, 2, 3)]
    assert all(optimum(x, c) == bound(x, c) for x, c in smaller)
    result = check_initialisation_claims(max_dim=2, low=-2, high=3, max_total=3)
    assert result.holds and "x = (0, 2), c = 0: bound 1, optimum 2" in result.detail
