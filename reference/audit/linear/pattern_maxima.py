"""Maxima of a sensitivity over a participation scheme's patterns (:mod:`~reference.audit.linear.participation`).

The sensitivities are maxima over the patterns of a quadratic ``1_Sᵀ Q 1_S`` (Gaussian kinds: Q = Wᵀ(B D Bᵀ)⁺W,
or UᵀU for unique integer shifts U) or an ℓ1 norm ``‖M 1_S‖₁`` (Laplace kinds: M the strategy or the integer
shifts). Both are computed in exact integers (Q and M scaled by a common denominator):

* **enumeration** of every pattern, depth first with incremental sums, when the pattern count (counted by
  dynamic programming before any work) times the work per pattern is at most ``enumeration_work`` (a
  :class:`~reference.audit.linear.size_limits.SizeLimits` field, ``--max-enumeration-work``);
* otherwise **certified bounds**: the upper bound replaces each row's share ``Σ_{j∈S} Q_ij`` by its maximum over
  all allowed patterns containing i (a dynamic programme per row), then maximises ``Σ_{i∈S} r_i`` over the
  patterns (one more); the lower bound is the exact value at that maximiser, improved by single swaps. For ℓ1,
  ``‖M 1_S‖₁ <= Σ_{j∈S} ‖M_j‖₁`` (one dynamic programme), with equality when every row of M has one sign. The
  result names the method and says whether the bounds meet (and, when they need not, the enumeration's estimate
  and the flag that would raise its limit).

Every cost limit is a field of :class:`~reference.audit.linear.size_limits.SizeLimits` (``limits=``): the
enumeration (``enumeration_work``), the exact row bounds (``bound_work``, refused beyond), the vectorised float
row bounds (``vector_bound_work``) and the swaps that raise the lower bound (``improve_work``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction

from reference.audit.linear.participation import Participation, min_separation
from reference.audit.linear.pattern_walk import PatternMaximum, best_pattern, quadratic_extend
from reference.audit.linear.size_limits import DEFAULT_LIMITS, SizeLimits

# ----------------------------------------------------------------------------------- linear maxima by DP


def best_linear(scheme: Participation, weights: Sequence[int], forbidden: tuple[int, int] | None = None,
                 ) -> tuple[int, tuple[int, ...]]:
    """max over patterns (possibly empty) of Σ_{j∈S} weights[j], and a maximiser; ``forbidden`` = (lo, hi)
    excludes steps lo..hi−1 (used to leave room around a fixed element).

    Args:
        scheme: the participation scheme.
        weights: the integer weight of each input (one per input; negative weights are never chosen).
        forbidden: (lo, hi): steps lo..hi−1 may not be chosen; None (default): every step may.

    Returns:
        (the maximum, a maximising pattern as increasing 0-based indices).
    """
    inputs = len(weights)

    def usable(j: int) -> bool:
        return forbidden is None or not forbidden[0] <= j < forbidden[1]

    if scheme.kind == "any":
        chosen = sorted((j for j in range(inputs) if weights[j] > 0 and usable(j)), key=lambda j: -weights[j])
        chosen = chosen[: scheme.records]
        return sum(weights[j] for j in chosen), tuple(sorted(chosen))
    if scheme.kind == "once-per-block":
        total, chosen_list = 0, []
        for start in range(0, inputs, scheme.spacing):
            candidates = [j for j in range(start, min(start + scheme.spacing, inputs)) if usable(j)]
            if candidates:
                j = max(candidates, key=lambda index: weights[index])
                if weights[j] > 0:
                    total += weights[j]
                    chosen_list.append(j)
        return total, tuple(chosen_list)
    if scheme.kind == "fixed-epoch":
        return _best_window(scheme, weights, usable)
    most = scheme.most_inputs(inputs)
    gap = scheme.table_gap(inputs)
    # best[t][c]: max over patterns inside steps >= t with at most c elements
    best = [[0] * (most + 1) for _ in range(inputs + gap + 1)]
    take = [[False] * (most + 1) for _ in range(inputs + 1)]
    for t in range(inputs - 1, -1, -1):
        for c in range(1, most + 1):
            skip = best[t + 1][c]
            use = weights[t] + best[t + gap][c - 1] if usable(t) else None
            if use is not None and use > skip:
                best[t][c], take[t][c] = use, True
            else:
                best[t][c] = skip
    pattern, t, c = [], 0, most
    while t < inputs and c > 0:
        if take[t][c]:
            pattern.append(t)
            t, c = t + gap, c - 1
        else:
            t += 1
    return best[0][most], tuple(pattern)


def _best_window(scheme: Participation, weights: Sequence[int], usable: Callable[[int], bool],
                 containing: int | None = None) -> tuple[int, tuple[int, ...]]:
    """Fixed epochs: the best pattern is the positive weights of one window of ``times`` consecutive steps of a
    residue class modulo ``separation`` (of the class and windows holding ``containing`` when given)."""
    inputs, spacing, times = len(weights), scheme.spacing, scheme.records
    best_value = 0
    best_pattern: tuple[int, ...] = ()
    residues = range(min(spacing, inputs)) if containing is None else [containing % spacing]
    for residue in residues:
        line = list(range(residue, inputs, spacing))
        for first in range(max(1, len(line) - times + 1)):
            window = line[first:first + times]
            if containing is not None and containing not in window:
                continue
            chosen = tuple(j for j in window if usable(j) and weights[j] > 0)
            value = sum(weights[j] for j in chosen)
            if value > best_value:
                best_value, best_pattern = value, chosen
    return best_value, best_pattern


def _best_containing(scheme: Participation, weights: Sequence[int], i: int) -> int:
    """max over patterns containing i of Σ_{j∈S} weights[j]."""
    if scheme.kind == "any":
        others = sorted((weights[j] for j in range(len(weights)) if j != i and weights[j] > 0), reverse=True)
        return weights[i] + sum(others[: scheme.records - 1])
    if scheme.kind == "once-per-block":
        start = i - i % scheme.spacing
        value, _ = best_linear(scheme, weights, (start, start + scheme.spacing))
        return weights[i] + value
    if scheme.records == 1:
        return weights[i]
    if scheme.kind == "fixed-epoch":
        value, _ = _best_window(scheme, weights, lambda j: j != i, containing=i)
        return weights[i] + value
    reduced = min_separation(separation=scheme.spacing, times=scheme.records - 1)
    value, _ = best_linear(reduced, weights, (i - scheme.spacing + 1, i + scheme.spacing))
    return weights[i] + value


# ----------------------------------------------------------------------------------- the two maxima


def _work_per_pattern(most: int) -> int:
    return max(1, most)


def max_quadratic(scheme: Participation, quadratic: Sequence[Sequence[int]], denominator: int, *,
                  limits: SizeLimits = DEFAULT_LIMITS) -> PatternMaximum:
    """max over patterns of 1_Sᵀ Q 1_S, Q = ``quadratic`` / ``denominator`` (integers, symmetric).

    Args:
        scheme: the participation scheme.
        quadratic: the numerators of Q (inputs × inputs), integer rows, symmetric.
        denominator: Q's common denominator, a positive integer.
        limits: the cost limits (``enumeration_work``, ``bound_work``, ``vector_bound_work``, ``improve_work``);
            default :data:`~reference.audit.linear.size_limits.DEFAULT_LIMITS`.

    Raises:
        ValueError: the certified bounds would take more than ``limits.bound_work`` steps (the message gives the
            estimate and the flag that raises it).
    """
    inputs = len(quadratic)
    patterns = scheme.count(inputs)
    most = scheme.most_inputs(inputs)
    work = patterns * _work_per_pattern(most)
    if work <= limits.enumeration_work:
        value, pattern, _ = best_pattern(scheme, inputs, 0, quadratic_extend(quadratic))
        exact = Fraction(value, denominator)
        return PatternMaximum(exact, exact, pattern, f"enumeration of all {patterns} patterns", patterns)
    bound_work = inputs * inputs * most
    vectorised = (scheme.kind == "min-separation" and all(min(row) >= 0 for row in quadratic)
                  and bound_work <= limits.vector_bound_work)
    if bound_work > limits.bound_work and not vectorised:
        floats = (f" (the float64 row bounds, for min-separation with a non-negative Gram matrix: "
                  f"{limits.over('vector_bound_work', bound_work, 'steps')})"
                  if scheme.kind == "min-separation" and all(min(row) >= 0 for row in quadratic) else "")
        raise ValueError(f"participation: {patterns:,} patterns over {inputs} inputs, too many to enumerate; the "
                         f"row bounds need {limits.over('bound_work', bound_work, 'steps')}{floats}")
    if vectorised:
        bounds: Sequence[Fraction] | list[int] = _certified_row_bounds(scheme, quadratic)
    else:
        bounds = [_best_containing(scheme, quadratic[i], i) for i in range(inputs)]
    upper, pattern = best_linear(scheme, bounds)  # type: ignore[arg-type]
    value = _pattern_quadratic(quadratic, pattern)
    pattern, value, skipped = _improve(scheme, inputs, pattern, value, lambda s: _pattern_quadratic(quadratic, s),
                                       limits)
    method = (f"row-wise dynamic-programming bound over {patterns} patterns"
              f"{' (vectorised in float64 with a certified rounding margin)' if vectorised else ''}; lower bound at its "
              f"maximiser{skipped if upper > value else ''}{enumeration_note(limits, work, upper <= value)}")
    return PatternMaximum(Fraction(value, denominator), Fraction(max(upper, value), denominator), pattern, method,
                          patterns)


def enumeration_note(limits: SizeLimits, work: int, exact: bool) -> str:
    """The clause a bounded (not enumerated) maximum's method ends with when its bounds do not meet: the exact
    enumeration's estimate, its limit and the flag that raises it (empty when the bounds meet).

    Args:
        limits: the limits applied (``enumeration_work``).
        work: the exact enumeration's estimated steps.
        exact: whether the bounds met (then nothing needs saying).
    """
    if exact:
        return ""
    return f" (an exact enumeration: {limits.over('enumeration_work', work, 'steps')})"


def _certified_row_bounds(scheme: Participation, quadratic: Sequence[Sequence[int]]) -> list[Fraction]:
    """Min-separation, non-negative Q: for every row i at once, an upper bound on max over patterns containing i
    of Σ_{j∈S} Q_ij, by the dynamic programme over the steps in float64 (vectorised over the rows).

    Certified: each Q_ij is rounded to the nearest float (relative error <= u) and each row bound is a sum of at
    most ``times`` non-negative terms, each addition adding relative error <= u, and a maximum of such sums; so
    the float result times (1 + 2(times + 2)u), read as an exact rational, bounds the exact one from above."""
    import numpy as np

    inputs, times = len(quadratic), scheme.records
    gap = scheme.table_gap(inputs)
    weights = np.array(quadratic, dtype=np.float64)
    steps = np.arange(inputs)
    # best[c, i]: the best sum of at most c partners of row i among the steps >= t (a ring over gap + 1 steps)
    ring = np.zeros((gap + 1, times, inputs))
    for t in range(inputs - 1, -1, -1):
        column = np.where(np.abs(steps - t) >= scheme.spacing, weights[:, t], 0.0)  # partners far from i only
        following = ring[(t + 1) % (gap + 1)]
        after_gap = ring[(t + gap) % (gap + 1)] if t + gap < inputs else np.zeros((times, inputs))
        current = following.copy()
        current[1:] = np.maximum(following[1:], column + after_gap[:-1])
        ring[t % (gap + 1)] = current
    partners = ring[0][times - 1]
    total = np.diagonal(weights) + partners
    margin = 1 + Fraction(2 * (times + 2), 2**53)
    return [Fraction(float(value)) * margin for value in total.tolist()]


def _pattern_quadratic(quadratic: Sequence[Sequence[int]], pattern: Sequence[int]) -> int:
    return sum(quadratic[i][j] for i in pattern for j in pattern)


def max_l1(scheme: Participation, columns: Sequence[Sequence[int]], denominator: int, *,
           limits: SizeLimits = DEFAULT_LIMITS) -> PatternMaximum:
    """max over patterns of ‖M 1_S‖₁, M given by its integer ``columns`` (each of one length) / ``denominator``.

    Args:
        scheme: the participation scheme.
        columns: the numerators of M's columns, one per input, integer and all of one length (the rows of M).
        denominator: M's common denominator, a positive integer.
        limits: the cost limits (``enumeration_work``, ``improve_work``); default
            :data:`~reference.audit.linear.size_limits.DEFAULT_LIMITS`.
    """
    inputs = len(columns)
    rows = len(columns[0]) if columns else 0
    patterns = scheme.count(inputs)
    norms = [sum(abs(entry) for entry in column) for column in columns]
    one_sign = all(
        all(column[r] >= 0 for column in columns) or all(column[r] <= 0 for column in columns) for r in range(rows)
    )
    if one_sign:
        value, pattern = best_linear(scheme, norms)
        exact = Fraction(value, denominator)
        return PatternMaximum(exact, exact, pattern, "dynamic programming (every row of the map has one sign, so "
                              "the l1 norm is additive over the pattern)", patterns)
    most = scheme.most_inputs(inputs)
    work = patterns * rows * _work_per_pattern(most) // max(1, most)
    if work <= limits.enumeration_work:
        def extend(state: list[int], pattern: tuple[int, ...], j: int) -> tuple[tuple[list[int], int]]:
            summed = [a + b for a, b in zip(state, columns[j])]
            return ((summed, sum(map(abs, summed))),)

        value, pattern, _ = best_pattern(scheme, inputs, [0] * rows, extend)
        exact = Fraction(value, denominator)
        return PatternMaximum(exact, exact, pattern, f"enumeration of all {patterns} patterns", patterns)
    upper, pattern = best_linear(scheme, norms)

    def evaluate(chosen: Sequence[int]) -> int:
        return sum(abs(sum(columns[j][r] for j in chosen)) for r in range(rows))

    found, value, skipped = _improve(scheme, inputs, pattern, evaluate(pattern), evaluate, limits)
    return PatternMaximum(Fraction(value, denominator), Fraction(upper, denominator), found,
                          f"triangle-inequality dynamic-programming bound over {patterns} patterns; lower bound at "
                          f"its maximiser{skipped if upper > value else ''}{enumeration_note(limits, work, upper <= value)}", patterns)


def _allowed(scheme: Participation, pattern: Sequence[int]) -> bool:
    return all(scheme.allows(pattern[:position], pattern[position]) for position in range(1, len(pattern)))


def _improve(scheme: Participation, inputs: int, pattern: tuple[int, ...], value: int,
             evaluate: Callable[[Sequence[int]], int], limits: SizeLimits,
             rounds: int = 2) -> tuple[tuple[int, ...], int, str]:
    """Single-element moves (replace one element by another step, or add one) that raise the value; skipped
    when one round would cost more than ``limits.improve_work`` steps (the bound stays valid, only less tight:
    the third value is then the clause saying so, else empty)."""
    work = (len(pattern) + 1) * inputs * max(1, len(pattern)) ** 2
    if work > limits.improve_work:
        return pattern, value, f" (single swaps skipped: {limits.over('improve_work', work, 'steps per round')})"
    for _ in range(rounds):
        improved = False
        for position in range(len(pattern) + 1):
            for candidate in range(inputs):
                if candidate in pattern:
                    continue
                trial_list = list(pattern)
                if position < len(pattern):
                    trial_list[position] = candidate
                else:
                    trial_list.append(candidate)
                trial = tuple(sorted(trial_list))
                if not _allowed(scheme, trial):
                    continue
                trial_value = evaluate(trial)
                if trial_value > value:
                    pattern, value, improved = trial, trial_value, True
                    break
        if not improved:
            break
    return pattern, value, ""


def integer_rows(entries: Sequence[Sequence[Fraction]]) -> tuple[list[list[int]], int]:
    """A rational matrix as integer rows over one common denominator.

    Args:
        entries: the matrix as rows of Fractions (may be empty).

    Returns:
        (the integer rows, the least common denominator).
    """
    denominator = math.lcm(*(entry.denominator for row in entries for entry in row)) if entries else 1
    return [[int(entry * denominator) for entry in row] for row in entries], denominator
