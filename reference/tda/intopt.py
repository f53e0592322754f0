"""IntOpt (TDA, Boninsegna's InfTDA): the integer Chebyshev projection InfTDA applies at every level.

Given integers ``x`` (noisy counts, possibly negative) and an integer total ``c >= 0``, IntOpt returns a vector
``y`` of non-negative integers with ``sum(y) == c`` that minimises ``max_i |x_i - y_i|`` (problem (1) of the
paper). The printed procedure is, with ``D = c - sum(x)`` and ``d = dim(x)``::

    2: z <- max(ceil(D / d), -x)            (elementwise)
    3: t <- ||z||_inf
    4: I <- indices of x sorted ascending
    5: j <- 0
    6: while sum(z) > D:
    7:     Delta <- sum(z) - D
    8:     z[I[j]] <- max(z[I[j]] - Delta, -x[I[j]], -t)
    9:     j <- (j + 1) mod |I|
   10:     if j == 0: t <- t + 1
   12: return x + z

**Ties.** Line 4 does not say how equal values are ordered, and the order changes the output: for
``x = (0, 0)``, ``c = 1`` the loop reduces whichever index comes first, giving ``(0, 1)`` with the order
``(0, 1)`` and ``(1, 0)`` with the order ``(1, 0)``. This module fixes the order as ``(value, index)``
ascending (a stable sort), so among equal values the lower category index is reduced first.

**Termination.** Every ``z_i`` stays ``>= -x_i``, so ``sum(x + z) >= 0``; for ``c < 0`` the loop condition never
becomes false and the printed loop runs forever. ``total < 0`` is therefore refused with a ``ValueError``.
For ``c >= 0`` the loop ends, and it ends with ``sum(z) == D`` exactly (each step lowers the sum by at most the
current excess).

:func:`intopt_literal_with_count` runs the printed loop step by step (keeping ``sum(z)`` as a running total
instead of re-adding the vector at every step; the values are the same) and also returns the number of times
the loop body ran. :func:`intopt` computes the same output in ``O(d log d)`` arithmetic operations: a non-final
pass of the loop lowers every coordinate to its floor ``max(-x_i, -t)``, so the pass in which the loop stops is
the first ``p >= 0`` with ``sum_i max(-x_i, -(t0 + p)) <= D``, found by binary search; within that pass the
coordinates are lowered in the order ``I`` until the excess is used up.
"""

from __future__ import annotations

import numbers
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from reference.core.exact_text import message_value
from reference.core.validate import check_positive_int

__all__ = [
    "IntOptTrace",
    "chebyshev_distance",
    "intopt",
    "intopt_literal",
    "intopt_literal_with_count",
    "intopt_with_count",
    "tie_order",
]


@dataclass(frozen=True)
class IntOptTrace:
    """The output of IntOpt with the number of iterations of the printed ``while`` loop.

    ``t_initial`` is the value of ``t`` set on line 3, ``t_final`` the value of ``t`` used by the last iteration
    (``t_initial`` if the loop did not run), and ``passes = t_final - t_initial`` the number of complete passes
    over ``I`` made before the pass in which the loop stopped.
    """

    output: tuple[int, ...]
    iterations: int
    passes: int
    t_initial: int
    t_final: int


def check_values(values: object, name: str = "values") -> tuple[int, ...]:
    """Return ``values`` as a tuple of Python ints; refuse non-sequences, empty input, bools and floats.

    Args:
        values: anything: accepted when it is a non-empty sequence of integers (no bool or float).
        name: the parameter name the error uses (default ``"values"``).
    """
    if isinstance(values, (str, bytes, dict, numbers.Number)):
        raise TypeError(f"{name} must be a sequence of integers, got {type(values).__name__}")
    try:
        items = list(values)  # type: ignore[call-overload]
    except TypeError:
        raise TypeError(f"{name} must be a sequence of integers, got {type(values).__name__}") from None
    if not items:
        raise ValueError(f"{name} must contain at least one entry")
    if all(type(item) is int for item in items):  # the common case, without the slow numbers.Integral ABC check
        return tuple(items)
    result: list[int] = []
    for position, item in enumerate(items):
        if isinstance(item, bool) or not isinstance(item, numbers.Integral):
            raise TypeError(f"{name}[{position}] must be an integer (not bool or float), got {item!r}")
        result.append(int(item))
    return tuple(result)


def check_total(total: object) -> int:
    """``total`` must be an integer >= 0: for a negative total the printed loop never ends.

    Args:
        total: anything: accepted when it is an integer >= 0.
    """
    if type(total) is int and total >= 0:  # the common case, without the slow numbers.Integral ABC check
        return total
    if isinstance(total, bool) or not isinstance(total, numbers.Integral):
        raise TypeError(f"total must be an integer >= 0, got {total!r}")
    value = int(total)
    if value < 0:
        raise ValueError(
            f"total must be an integer >= 0 (for a negative total IntOpt's loop never terminates), got {message_value(value)}"
        )
    return check_positive_int(value, "total", minimum=0)


def tie_order(values: Sequence[int]) -> list[int]:
    """Line 4 of IntOpt with this module's tie rule: indices sorted by ``(value, index)`` ascending.

    Args:
        values: the values to order, a sequence of integers.
    """
    x = check_values(values)
    return sorted(range(len(x)), key=lambda i: (x[i], i))


def ceil_div(numerator: int, denominator: int) -> int:
    """``⌈numerator / denominator⌉`` in exact integers.

    Args:
        numerator: an integer.
        denominator: a positive integer.
    """
    return -((-numerator) // denominator)


def initial_state(x: tuple[int, ...], total: int) -> tuple[int, list[int], int]:
    """Lines 2-3: the excess target ``D``, the initial ``z`` and ``t``.

    Args:
        x: the validated values, a tuple of integers.
        total: the validated total, an integer >= 0.
    """
    deficit = total - sum(x)
    base = ceil_div(deficit, len(x))
    z = [max(base, -xi) for xi in x]
    t = max(abs(zi) for zi in z)
    return deficit, z, t


def intopt_literal_with_count(values: Sequence[int], total: int) -> IntOptTrace:
    """Run the printed IntOpt loop in exact integers and count its iterations.

    ``values`` is a non-empty sequence of integers (bool and float refused), ``total`` an integer ``>= 0``.
    Ties in line 4 are broken by ``(value, index)`` ascending. Returns an :class:`IntOptTrace`.

    Args:
        values: the noisy counts, a non-empty sequence of integers (bool and float refused).
        total: the total to project onto, an integer >= 0.
    """
    x = check_values(values)
    c = check_total(total)
    d = len(x)
    deficit, z, t = initial_state(x, c)
    t_initial = t
    order = sorted(range(d), key=lambda i: (x[i], i))
    j = 0
    current = sum(z)
    iterations = 0
    t_used = t
    while current > deficit:
        delta = current - deficit
        k = order[j]
        new = max(z[k] - delta, -x[k], -t)
        current += new - z[k]
        z[k] = new
        t_used = t
        iterations += 1
        j = (j + 1) % d
        if j == 0:
            t += 1
    passes = t_used - t_initial
    return IntOptTrace(tuple(xi + zi for xi, zi in zip(x, z)), iterations, passes, t_initial, t_used)


def intopt_literal(values: Sequence[int], total: int) -> tuple[int, ...]:
    """The printed IntOpt algorithm (see the module docstring); ties broken by ``(value, index)`` ascending.

    Args:
        values: the noisy counts, a non-empty sequence of integers.
        total: the total the projection must sum to, an integer >= 0.
    """
    return intopt_literal_with_count(values, total).output


def intopt_with_count(values: Sequence[int], total: int) -> IntOptTrace:
    """The same :class:`IntOptTrace` as :func:`intopt_literal_with_count`, computed in ``O(d log d)`` steps.

    Let ``t0`` be line 3's ``t``, ``f_i(t) = max(-x_i, -t)`` the floor of line 8 and ``g(t) = sum_i f_i(t)``.
    If the loop has not stopped by the end of pass ``p`` then every coordinate was lowered to its floor (a step
    that does not reach the floor uses up the whole excess and ends the loop), so ``z = f(t0 + p)``. Hence the
    loop stops in the first pass ``P`` with ``g(t0 + P) <= D``; ``g`` is non-increasing and equals
    ``-sum(x) <= D`` once ``t >= max(x)``, so ``P`` is found by binary search. In pass ``P`` the coordinates are
    lowered, in the order of line 4, from their start values (``z0`` if ``P == 0``, else ``f(t0 + P - 1)``) to
    ``f(t0 + P)`` until the excess is used up; the iteration count is ``P * d`` plus the position reached + 1.

    Args:
        values: the noisy counts, a non-empty sequence of integers.
        total: the total to project onto, an integer >= 0.
    """
    x = check_values(values)
    c = check_total(total)
    d = len(x)
    deficit, z0, t0 = initial_state(x, c)
    if sum(z0) <= deficit:
        return IntOptTrace(tuple(xi + zi for xi, zi in zip(x, z0)), 0, 0, t0, t0)
    order = sorted(range(d), key=lambda i: (x[i], i))
    sorted_x = [x[i] for i in order]
    prefix = [0]
    for value in sorted_x:
        prefix.append(prefix[-1] + value)

    def floor_sum(t: int) -> int:
        # g(t) = -sum_{x_i <= t} x_i - t * #{x_i > t}
        below = bisect_right(sorted_x, t)
        return -prefix[below] - t * (d - below)

    low, high = t0, max(t0, sorted_x[-1])
    while low < high:  # smallest t in [t0, high] with floor_sum(t) <= deficit
        middle = (low + high) // 2
        if floor_sum(middle) <= deficit:
            high = middle
        else:
            low = middle + 1
    t_stop = low
    passes = t_stop - t0
    start = list(z0) if passes == 0 else [max(-xi, -(t_stop - 1)) for xi in x]
    excess = sum(start) - deficit
    z = start
    position = -1
    for k in order:
        position += 1
        gap = z[k] - max(-x[k], -t_stop)
        if gap >= excess:
            z[k] -= excess
            break
        z[k] -= gap
        excess -= gap
    iterations = passes * d + position + 1
    return IntOptTrace(tuple(xi + zi for xi, zi in zip(x, z)), iterations, passes, t0, t_stop)


def intopt(values: Sequence[int], total: int) -> tuple[int, ...]:
    """IntOpt in ``O(d log d)``: output identical to :func:`intopt_literal` (same tie rule).

    Args:
        values: the noisy counts, a non-empty sequence of integers.
        total: the total to project onto, an integer >= 0.
    """
    return intopt_with_count(values, total).output


def chebyshev_distance(a: Sequence[int], b: Sequence[int]) -> int:
    """``max_i |a_i - b_i|`` for two non-empty integer sequences of equal length.

    Args:
        a: a non-empty sequence of integers.
        b: a sequence of integers of the same length.
    """
    left = check_values(a, "a")
    right = check_values(b, "b")
    if len(left) != len(right):
        raise ValueError(f"a and b must have the same length, got {len(left)} and {len(right)}")
    return max(abs(p - q) for p, q in zip(left, right))
