"""Lemmas 3.5 and 4.7 at every horizon: the ratio exact MSE / closed form, against a brute force written here."""

from __future__ import annotations

from fractions import Fraction

import pytest
from reference_verification.kary.checks.horizons import horizon_ratio_check


def weight(value: int, arity: int, offset: bool) -> int:
    total = 0
    while value:
        digit = value % arity
        if offset and digit > arity // 2:
            digit -= arity
        total += abs(digit)
        value = (value - digit) // arity
    return total


def brute_ratios(arity: int, offset: bool, heights: int) -> dict[int, Fraction]:
    """ratio(T) = [2h²S(T)/T] / [2h²S(T_h)/T_h] for every T of heights 1..``heights`` (h = T's height)."""
    capacities = [((arity**h - 1) // 2 if offset else arity**h - 1) for h in range(1, heights + 1)]
    running, sums = 0, {0: 0}
    for time in range(1, capacities[-1] + 1):
        running += weight(time, arity, offset)
        sums[time] = running
    ratios = {}
    for time in range(1, capacities[-1] + 1):
        cap = next(c for c in capacities if c >= time)
        ratios[time] = Fraction(sums[time] * cap, time * sums[cap])
    return ratios


@pytest.mark.parametrize(("algorithm", "arity", "heights"), [("algorithm_1", 2, 9), ("algorithm_1", 3, 6),
                                                           ("algorithm_1", 10, 3), ("algorithm_2", 3, 7),
                                                           ("algorithm_2", 5, 4), ("algorithm_2", 7, 3)])
def test_ratio_ranges_match_brute_force(algorithm: str, arity: int, heights: int) -> None:
    offset = algorithm == "algorithm_2"
    expected = brute_ratios(arity, offset, heights)
    bound = max(expected)
    result = horizon_ratio_check(algorithm, arity, bound)  # type: ignore[arg-type]
    assert result.horizons == bound
    low = min(expected.values())
    assert result.smallest.smallest == low
    assert result.smallest.smallest_at == min(t for t, r in expected.items() if r == low)
    assert result.holds == (max(expected.values()) <= 1)
    ones = tuple(t for t, r in expected.items() if r == 1)
    assert tuple(t for part in result.heights for t in part.largest_at) == ones


def test_hand_values() -> None:
    # Algorithm 2, k = 3: S(2) = |1| + |−1| + |1| = 3 and S(4) = 6, so ratio(2) = 3·4/(2·6) = 1 (exact below the
    # capacity); at T = 1 with k = 19 the MSE is 2 against the closed form 19(1 − 1/361)/(2(1 − 1/19)) = 10
    three = horizon_ratio_check("algorithm_2", 3, 1000)
    assert three.other_equalities == (2,)
    nineteen = horizon_ratio_check("algorithm_2", 19, 10**5)
    assert nineteen.smallest.smallest == Fraction(1, 5) and nineteen.smallest.smallest_at == 1


def test_bad_inputs() -> None:
    with pytest.raises(ValueError, match="algorithm"):
        horizon_ratio_check("algorithm_3", 3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="arity"):
        horizon_ratio_check("algorithm_2", 4)
    with pytest.raises(ValueError, match="max_horizon"):
        horizon_ratio_check("algorithm_1", 10, 5)
