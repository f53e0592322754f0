"""The one certified bisection (reference.core.bisection), checked against brackets derived by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest

from reference.core.bisection import bisect, bracket_around, bracket_downward, bracket_upward
from reference.core.certified import UndecidedComparisonError


def at_least_root_two(x: Fraction) -> bool:
    return x * x >= 2


def test_bisection_brackets_root_two_to_the_tolerance() -> None:
    # [1, 2] halves to [1, 3/2], [11/8 ... ]: after k steps the width is 2**-k; stop once width <= high/1000
    low, high = bisect(at_least_root_two, Fraction(1), Fraction(2), tolerance=Fraction(1, 1000))
    assert low * low < 2 <= high * high
    assert high - low <= high / 1000
    # ten halvings of a unit interval give width 1/1024 <= high/1000 for high ~ 1.414; nine give 1/512 > it
    assert high - low == Fraction(1, 1024)
    assert (low, high) == (Fraction(1448, 1024), Fraction(1449, 1024))  # 1448² < 2·1024² <= 1449²


def test_brackets_grow_and_shrink_by_powers_of_two() -> None:
    assert bracket_upward(lambda x: x >= 5, Fraction(0), Fraction(1)) == (Fraction(4), Fraction(8))
    assert bracket_downward(lambda x: x >= Fraction(1, 5), Fraction(1, 2), Fraction(1)) == (Fraction(1, 8), Fraction(1, 4))
    assert bracket_around(lambda x: x >= 5, Fraction(1)) == (Fraction(4), Fraction(8))
    assert bracket_around(lambda x: x >= Fraction(1, 5), Fraction(1)) == (Fraction(1, 8), Fraction(1, 4))


def test_decreasing_orientation_keeps_the_holding_end_low() -> None:
    # "x² <= 2 still holds" is true below √2: the low end holds, the high end fails
    def holds(x: Fraction) -> bool:
        return x * x <= 2

    low, high = bracket_upward(holds, Fraction(1), Fraction(1), increasing=False)
    assert (low, high) == (Fraction(1), Fraction(2))
    low, high = bisect(holds, low, high, tolerance=Fraction(1, 1000), increasing=False)
    assert (low, high) == (Fraction(1448, 1024), Fraction(1449, 1024))


def test_an_undecided_midpoint_stops_with_a_valid_bracket() -> None:
    def decide(x: Fraction) -> bool | None:
        return None if x == Fraction(3, 2) else x * x >= 2

    assert bisect(decide, Fraction(1), Fraction(2), tolerance=Fraction(1, 1000)) == (Fraction(1), Fraction(2))
    # an undecided point never becomes an end while bracketing either
    assert bracket_upward(lambda x: None if x < 4 else True, Fraction(0), Fraction(1)) == (Fraction(0), Fraction(4))


def test_custom_stopping_rule_and_limit() -> None:
    low, high = bisect(at_least_root_two, Fraction(1), Fraction(2), done=lambda lo, hi: hi - lo <= Fraction(1, 4))
    # [1, 2] -> 3/2 suffices (9/4 >= 2) -> [1, 3/2] -> 5/4 does not (25/16 < 2) -> [5/4, 3/2], width 1/4: stop
    assert (low, high) == (Fraction(5, 4), Fraction(3, 2))
    with pytest.raises(UndecidedComparisonError, match="no bracket"):
        bracket_upward(lambda x: False, Fraction(0), Fraction(1), limit=Fraction(1000))


def test_bad_arguments_name_the_parameter() -> None:
    with pytest.raises(ValueError, match="tolerance"):
        bisect(at_least_root_two, Fraction(1), Fraction(2), tolerance=Fraction(3, 2))
    with pytest.raises(ValueError, match="exactly one of tolerance and done"):
        bisect(at_least_root_two, Fraction(1), Fraction(2))
    with pytest.raises(ValueError, match="low must not exceed high"):
        bisect(at_least_root_two, Fraction(2), Fraction(1), tolerance=Fraction(1, 2))
