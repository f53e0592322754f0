"""IntOpt in a number of steps bounded by the dimension alone (TDA Section 1: "at most O(max_i |X_i|²) steps").

TDA credits that bound to a version of IntOpt presented in another paper (the one it prints, Algorithm 1, runs
in O(c) steps: its pass count grows with the noisy counts). This module gives one such version, with the same
output as the printed loop (:func:`reference.tda.intopt.intopt_literal`, same tie rule), and counts its
elementary steps so that the bound can be checked: at most ``3·d·(d + 1)`` for ``d = dim(x)``, whatever the
magnitudes of ``x`` and ``c``.

Why it works. With ``t0`` line 3's ``t`` and ``g(t) = Σ_i max(−x_i, −t)`` (the sum of the floors of line 8), the
printed loop stops in the first pass ``P >= 0`` with ``g(t0 + P) <= D`` (see :func:`reference.tda.intopt.
intopt_with_count`). ``g`` is piecewise linear in ``t`` with breakpoints at the values ``x_i``: on a piece where
``a`` of the ``x_i`` exceed ``t`` it is ``−S − a·t`` (``S`` the sum of the others). So instead of a binary search
over ``t`` (whose length grows with ``log max x``) the pieces are visited in order — at most ``d + 1`` of them,
each evaluated in ``d`` steps — and on the piece that contains the stopping ``t`` the smallest ``t`` with
``−S − a·t <= D`` is one ceiling division. The last pass lowers the coordinates in line 4's order (``d`` steps).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cmp_to_key

from reference.tda.intopt import ceil_div, check_total, check_values, initial_state

__all__ = ["BreakpointTrace", "intopt_by_breakpoints", "step_bound"]


@dataclass(frozen=True)
class BreakpointTrace:
    """The output of IntOpt and the number of elementary steps this version took (comparisons of the sort,
    floor evaluations, the lowering pass)."""

    output: tuple[int, ...]
    steps: int


def step_bound(dimension: int) -> int:
    """The bound this version meets: ``3·d·(d + 1)`` steps for ``d = dim(x)``.

    Args:
        dimension: d, the length of the vector, an integer >= 1.
    """
    return 3 * dimension * (dimension + 1)


def intopt_by_breakpoints(*, values: Sequence[int], total: int) -> BreakpointTrace:
    """IntOpt's output (identical to the printed loop's, ties by ``(value, index)``) and its step count.

    ``values``: a non-empty sequence of integers; ``total``: an integer ``>= 0``.

    Args:
        values: the noisy integer vector (length d >= 1).
        total: c, the integer total the result sums to (>= 0).
    """
    x = check_values(values)
    c = check_total(total)
    d = len(x)
    deficit, z0, t0 = initial_state(x, c)
    steps = d  # lines 2-3
    if sum(z0) <= deficit:
        return BreakpointTrace(tuple(xi + zi for xi, zi in zip(x, z0)), steps)
    comparisons = 0

    def compare(left: int, right: int) -> int:
        nonlocal comparisons
        comparisons += 1
        return -1 if (x[left], left) < (x[right], right) else 1

    order = sorted(range(d), key=cmp_to_key(compare))  # line 4
    steps += comparisons

    def floor_sum(t: int) -> int:
        nonlocal steps
        steps += d
        return sum(max(-xi, -t) for xi in x)

    # the pieces of g: [t0, b_1], [b_1, b_2], … with b_i the distinct x values above t0, then t >= max x
    breaks = sorted({x[i] for i in order if x[i] > t0})
    start = t0
    stop = None
    for end in breaks:
        if floor_sum(end) <= deficit:  # the stopping t lies in [start, end]: g is −S − a·t there
            above = sum(1 for xi in x if xi > start)
            rest = sum(xi for xi in x if xi <= start)
            steps += d
            stop = max(start, ceil_div(-rest - deficit, above))
            break
        start = end
    if stop is None:
        stop = start  # t >= max x: g = −Σx <= D (c >= 0), so the loop has stopped by this t
    passes = stop - t0
    z = list(z0) if passes == 0 else [max(-xi, -(stop - 1)) for xi in x]
    excess = sum(z) - deficit
    for k in order:  # the last pass, in line 4's order, until the excess is used up
        steps += 1
        gap = z[k] - max(-x[k], -stop)
        if gap >= excess:
            z[k] -= excess
            break
        z[k] -= gap
        excess -= gap
    return BreakpointTrace(tuple(xi + zi for xi, zi in zip(x, z)), steps)
