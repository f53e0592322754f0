"""Two user-written height functions for ``reference audit height`` (KARY Algorithm 2, offset digits, arity 5):
one in floating point (wrong at exact powers: ``log(125, 5) == 3.0000000000000004``), one in integers."""

from __future__ import annotations

import math


def float_offset_height(horizon: int) -> int:
    """FAULT: ``ceil(log_5(2T + 1))`` in floats; at T = 62 it gives 4 instead of 3."""
    return math.ceil(math.log(2 * horizon + 1, 5))


def exact_offset_height(horizon: int) -> int:
    """The smallest h with (5^h − 1)/2 >= T, in integers."""
    height = 1
    while (5**height - 1) // 2 < horizon:
        height += 1
    return height


def float_leaf_layers(leaves: int) -> int:
    """FAULT (conservative): the layers of a 5-ary tree holding ``leaves`` leaves, ``ceil(log_5 n)`` in floats;
    at n = 125 = 5³ it gives 4 instead of 3."""
    return math.ceil(math.log(leaves, 5))


def exact_leaf_layers(leaves: int) -> int:
    """The smallest h with 5^h >= leaves, in integers."""
    height, capacity = 0, 1
    while capacity < leaves:
        height, capacity = height + 1, capacity * 5
    return height
