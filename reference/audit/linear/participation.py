"""Participation schemes: which inputs (time steps, records) one user may touch, and the exact sensitivity under
each.

A user's records are added or removed together, so a neighbouring difference is ``v = ±1_S`` for a *pattern*
``S`` of inputs the scheme allows:

* :func:`any_records` — any ``records`` distinct inputs (``|S| <= m``);
* :func:`once_per_block` — at most one input in each block of ``block`` consecutive steps (restarted trees,
  epochs: "once per tree");
* :func:`min_separation` — at most ``times`` inputs, any two at least ``separation`` steps apart (multi-epoch
  DP-FTRL's min-separation).

The sensitivities are maxima over the patterns of a quadratic ``1_Sᵀ Q 1_S`` (Gaussian kinds: Q = Wᵀ(B D Bᵀ)⁺W,
or UᵀU for unique integer shifts U) or an ℓ1 norm ``‖M 1_S‖₁`` (Laplace kinds: M the strategy or the integer
shifts). Both are computed in exact integers (Q and M scaled by a common denominator):

* **enumeration** of every pattern, depth first with incremental sums, when the pattern count (counted by
  dynamic programming before any work) times the work per pattern is at most :data:`MAX_ENUMERATION_WORK`;
* otherwise **certified bounds**: the upper bound replaces each row's share ``Σ_{j∈S} Q_ij`` by its maximum over
  all allowed patterns containing i (a dynamic programme per row), then maximises ``Σ_{i∈S} r_i`` over the
  patterns (one more); the lower bound is the exact value at that maximiser, improved by single swaps. For ℓ1,
  ``‖M 1_S‖₁ <= Σ_{j∈S} ‖M_j‖₁`` (one dynamic programme), with equality when every row of M has one sign. The
  result names the method and says whether the bounds meet.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise
from typing import Any, Literal

from reference.core.validate import check_positive_int, fraction_text

SchemeKind = Literal["any", "once-per-block", "min-separation"]
#: Most elementary steps (patterns × work per pattern) an exact enumeration may take.
MAX_ENUMERATION_WORK = 4_000_000
#: Most elementary steps the certified row bounds may take (inputs² × pattern size; about a microsecond each).
MAX_BOUND_WORK = 20_000_000
#: Most elementary steps the local improvement of the lower bound may take (it is skipped beyond).
MAX_IMPROVE_WORK = 2_000_000


@dataclass(frozen=True)
class Participation:
    """A participation scheme (build it with :func:`any_records`, :func:`once_per_block` or
    :func:`min_separation`)."""

    kind: SchemeKind
    records: int  # any: m; min-separation: the most participations k; once-per-block: unused (0)
    spacing: int  # once-per-block: the block length b; min-separation: the separation b; any: unused (1)

    def describe(self) -> str:
        if self.kind == "any":
            return f"any {self.records} distinct inputs"
        if self.kind == "once-per-block":
            return f"at most once per block of {self.spacing} steps"
        return f"at most {self.records} times, at least {self.spacing} steps apart"

    def most_inputs(self, inputs: int) -> int:
        """The largest pattern size over ``inputs`` steps."""
        if self.kind == "any":
            return min(self.records, inputs)
        if self.kind == "once-per-block":
            return -(-inputs // self.spacing)
        return min(self.records, -(-inputs // self.spacing))

    def count(self, inputs: int) -> int:
        """The number of non-empty patterns over ``inputs`` steps (exact, by counting)."""
        if self.kind == "any":
            return sum(math.comb(inputs, size) for size in range(1, self.most_inputs(inputs) + 1))
        if self.kind == "once-per-block":
            full, rest = divmod(inputs, self.spacing)
            return int((self.spacing + 1) ** full * (rest + 1) - 1)
        # ways[t][c]: patterns over steps >= t using c more inputs, last chosen before t far enough
        most = self.most_inputs(inputs)
        gap = _effective_gap(self.spacing, inputs)
        ways = [[0] * (most + 1) for _ in range(inputs + gap + 1)]
        for t in range(inputs + gap, -1, -1):
            ways[t][0] = 1
            if t >= inputs:
                continue
            for c in range(1, most + 1):
                ways[t][c] = ways[t + 1][c] + ways[t + gap][c - 1]
        return sum(ways[0][1:])

    def allowed_after(self, last: int | None, step: int) -> bool:
        """May ``step`` follow the previous pattern element ``last`` (patterns are increasing)?"""
        if last is None:
            return True
        if self.kind == "any":
            return True
        if self.kind == "once-per-block":
            return step // self.spacing > last // self.spacing
        return step - last >= self.spacing

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "records": self.records, "spacing": self.spacing, "describe": self.describe()}


def any_records(*, records: int) -> Participation:
    """Any ``records`` distinct inputs."""
    return Participation("any", check_positive_int(records, "records"), 1)


def once_per_block(*, block: int) -> Participation:
    """At most one input in each block of ``block`` consecutive steps (blocks start at step 0)."""
    return Participation("once-per-block", 0, check_positive_int(block, "block"))


def min_separation(*, separation: int, times: int) -> Participation:
    """At most ``times`` inputs, any two at least ``separation`` steps apart."""
    return Participation("min-separation", check_positive_int(times, "times"),
                         check_positive_int(separation, "separation"))


def parse_participation(text: str) -> Participation:
    """The command-line form: ``any:M``, ``once-per-block:B`` or ``min-separation:B,K``."""
    from reference.core.validate import parse_integer_text

    kind, _, rest = text.partition(":")
    try:
        numbers = [parse_integer_text(part, "participation") for part in rest.split(",")] if rest else []
    except ValueError:
        numbers = []
    if kind == "any" and len(numbers) == 1:
        return any_records(records=numbers[0])
    if kind == "once-per-block" and len(numbers) == 1:
        return once_per_block(block=numbers[0])
    if kind == "min-separation" and len(numbers) == 2:
        return min_separation(separation=numbers[0], times=numbers[1])
    raise ValueError(f"participation must be any:M, once-per-block:B or min-separation:B,K, got {text!r}")


@dataclass(frozen=True)
class PatternMaximum:
    """The maximum of a sensitivity over the patterns: exact when ``lower == upper``."""

    lower: Fraction
    upper: Fraction
    pattern: tuple[int, ...]  # a pattern attaining ``lower``
    method: str
    patterns: int  # how many patterns the scheme allows

    @property
    def exact(self) -> bool:
        return self.lower == self.upper

    def as_json(self) -> dict[str, Any]:
        return {"lower": fraction_text(self.lower), "upper": fraction_text(self.upper), "exact": self.exact,
                "pattern": list(self.pattern), "method": self.method, "patterns": self.patterns}


# ----------------------------------------------------------------------------------- exact enumeration


def _enumerate(scheme: Participation, inputs: int, start: Callable[[], Any],
               extend: Callable[[Any, tuple[int, ...], int], tuple[Any, int]]) -> tuple[int, tuple[int, ...]]:
    """Depth-first over every pattern: ``extend(state, pattern, j)`` gives the new state and its value."""
    most = scheme.most_inputs(inputs)
    best: list[Any] = [None, ()]

    def visit(state: Any, pattern: tuple[int, ...]) -> None:
        if len(pattern) == most:
            return
        last = pattern[-1] if pattern else None
        first = 0 if last is None else last + 1
        for j in range(first, inputs):
            if not scheme.allowed_after(last, j):
                continue
            new_state, value = extend(state, pattern, j)
            extended = (*pattern, j)
            if best[0] is None or value > best[0]:
                best[0], best[1] = value, extended
            visit(new_state, extended)

    visit(start(), ())
    return int(best[0]), best[1]


# ----------------------------------------------------------------------------------- linear maxima by DP


def _effective_gap(spacing: int, inputs: int) -> int:
    """The separation the tables use: any separation of ``inputs`` or more allows one input per pattern, the
    same as ``inputs`` does, so the tables stay ``inputs`` long (min-separation:99999999,2 on two inputs built
    a table of 10**8 rows)."""
    return min(spacing, max(inputs, 1))


def _best_linear(scheme: Participation, weights: Sequence[int], forbidden: tuple[int, int] | None = None,
                 ) -> tuple[int, tuple[int, ...]]:
    """max over patterns (possibly empty) of Σ_{j∈S} weights[j], and a maximiser; ``forbidden`` = (lo, hi)
    excludes steps lo..hi−1 (used to leave room around a fixed element)."""
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
    most = scheme.most_inputs(inputs)
    gap = _effective_gap(scheme.spacing, inputs)
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


def _best_containing(scheme: Participation, weights: Sequence[int], i: int) -> int:
    """max over patterns containing i of Σ_{j∈S} weights[j]."""
    if scheme.kind == "any":
        others = sorted((weights[j] for j in range(len(weights)) if j != i and weights[j] > 0), reverse=True)
        return weights[i] + sum(others[: scheme.records - 1])
    if scheme.kind == "once-per-block":
        start = i - i % scheme.spacing
        value, _ = _best_linear(scheme, weights, (start, start + scheme.spacing))
        return weights[i] + value
    if scheme.records == 1:
        return weights[i]
    reduced = min_separation(separation=scheme.spacing, times=scheme.records - 1)
    value, _ = _best_linear(reduced, weights, (i - scheme.spacing + 1, i + scheme.spacing))
    return weights[i] + value


# ----------------------------------------------------------------------------------- the two maxima


def _work_per_pattern(most: int) -> int:
    return max(1, most)


def max_quadratic(scheme: Participation, quadratic: Sequence[Sequence[int]], denominator: int) -> PatternMaximum:
    """max over patterns of 1_Sᵀ Q 1_S, Q = ``quadratic`` / ``denominator`` (integers, symmetric)."""
    inputs = len(quadratic)
    patterns = scheme.count(inputs)
    most = scheme.most_inputs(inputs)
    if patterns * _work_per_pattern(most) <= MAX_ENUMERATION_WORK:
        def extend(state: Any, pattern: tuple[int, ...], j: int) -> tuple[Any, int]:
            value = state + quadratic[j][j] + 2 * sum(quadratic[i][j] for i in pattern)
            return value, value

        value, pattern = _enumerate(scheme, inputs, lambda: 0, extend)
        exact = Fraction(value, denominator)
        return PatternMaximum(exact, exact, pattern, f"enumeration of all {patterns} patterns", patterns)
    if inputs * inputs * most > MAX_BOUND_WORK:
        raise ValueError(f"participation: {patterns} patterns over {inputs} inputs; the row bounds need about "
                         f"{inputs * inputs * most:,} steps, more than {MAX_BOUND_WORK:,}")
    rows = [_best_containing(scheme, quadratic[i], i) for i in range(inputs)]
    upper, pattern = _best_linear(scheme, rows)
    value = _pattern_quadratic(quadratic, pattern)
    pattern, value = _improve(scheme, inputs, pattern, value, lambda s: _pattern_quadratic(quadratic, s))
    method = f"row-wise dynamic-programming bound over {patterns} patterns; lower bound at its maximiser"
    return PatternMaximum(Fraction(value, denominator), Fraction(max(upper, value), denominator), pattern, method,
                          patterns)


def _pattern_quadratic(quadratic: Sequence[Sequence[int]], pattern: Sequence[int]) -> int:
    return sum(quadratic[i][j] for i in pattern for j in pattern)


def max_l1(scheme: Participation, columns: Sequence[Sequence[int]], denominator: int) -> PatternMaximum:
    """max over patterns of ‖M 1_S‖₁, M given by its integer ``columns`` (each of one length) / ``denominator``."""
    inputs = len(columns)
    rows = len(columns[0]) if columns else 0
    patterns = scheme.count(inputs)
    norms = [sum(abs(entry) for entry in column) for column in columns]
    one_sign = all(
        all(column[r] >= 0 for column in columns) or all(column[r] <= 0 for column in columns) for r in range(rows)
    )
    if one_sign:
        value, pattern = _best_linear(scheme, norms)
        exact = Fraction(value, denominator)
        return PatternMaximum(exact, exact, pattern, "dynamic programming (every row of the map has one sign, so "
                              "the l1 norm is additive over the pattern)", patterns)
    most = scheme.most_inputs(inputs)
    if patterns * rows * _work_per_pattern(most) // max(1, most) <= MAX_ENUMERATION_WORK:
        def extend(state: Any, pattern: tuple[int, ...], j: int) -> tuple[Any, int]:
            summed = [a + b for a, b in zip(state, columns[j])]
            return summed, sum(abs(entry) for entry in summed)

        value, pattern = _enumerate(scheme, inputs, lambda: [0] * rows, extend)
        exact = Fraction(value, denominator)
        return PatternMaximum(exact, exact, pattern, f"enumeration of all {patterns} patterns", patterns)
    upper, pattern = _best_linear(scheme, norms)

    def evaluate(chosen: Sequence[int]) -> int:
        return sum(abs(sum(columns[j][r] for j in chosen)) for r in range(rows))

    found, value = _improve(scheme, inputs, pattern, evaluate(pattern), evaluate)
    return PatternMaximum(Fraction(value, denominator), Fraction(upper, denominator), found,
                          f"triangle-inequality dynamic-programming bound over {patterns} patterns; lower bound at "
                          "its maximiser", patterns)


def _allowed(scheme: Participation, pattern: Sequence[int]) -> bool:
    if scheme.kind in ("any", "min-separation") and len(pattern) > scheme.most_inputs(10**18):
        return False
    return all(scheme.allowed_after(a, b) for a, b in pairwise(pattern))


def _improve(scheme: Participation, inputs: int, pattern: tuple[int, ...], value: int,
             evaluate: Callable[[Sequence[int]], int], rounds: int = 2) -> tuple[tuple[int, ...], int]:
    """Single-element moves (replace one element by another step, or add one) that raise the value; skipped
    when one round would cost more than :data:`MAX_IMPROVE_WORK` (the bound stays valid, only less tight)."""
    if (len(pattern) + 1) * inputs * max(1, len(pattern)) ** 2 > MAX_IMPROVE_WORK:
        return pattern, value
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
    return pattern, value


def integer_rows(entries: Sequence[Sequence[Fraction]]) -> tuple[list[list[int]], int]:
    """A rational matrix as integer rows over one common denominator."""
    denominator = math.lcm(*(entry.denominator for row in entries for entry in row)) if entries else 1
    return [[int(entry * denominator) for entry in row] for row in entries], denominator
