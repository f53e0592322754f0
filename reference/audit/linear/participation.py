"""Participation schemes: which inputs (time steps, records) one user may touch, and the exact sensitivity under
each.

A user's records are added or removed together, so a neighbouring difference is ``v = ±1_S`` for a *pattern*
``S`` of inputs the scheme allows:

* :func:`any_records` — any ``records`` distinct inputs (``|S| <= m``);
* :func:`once_per_block` — at most one input in each block of ``block`` consecutive steps (restarted trees,
  epochs: "once per tree");
* :func:`min_separation` — at most ``times`` inputs, any two at least ``separation`` steps apart (multi-epoch
  DP-FTRL's min-separation);
* :func:`fixed_epoch` — inputs exactly ``separation`` steps apart, at most ``times`` of them (DP-FTRL with a
  fixed data order: one participation per epoch of ``separation`` steps). As a family it holds every subset of
  the chains ``t0, t0 + b, ..., t0 + (k - 1) b``: all elements congruent modulo b, spanning at most (k - 1) b.

Every family is closed under subsets, so a participation contributing 0 is covered. What one participation
contributes is the scheme's *contribution model* (:data:`Contribution`, :mod:`reference.audit.linear.contribution`):
``counts`` (a value in [0, 1]: counting, histograms; the difference is 1_S), ``signed`` (a value in [-1, 1]) or
``vector`` (a vector of l2 norm at most 1: DP-FTRL's clipped gradients).

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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal, TypeVar

from reference.audit.linear.size_limits import DEFAULT_LIMITS, SizeLimits
from reference.core.options import check_choice
from reference.core.validate import check_positive_int, fraction_text

SchemeKind = Literal["any", "once-per-block", "min-separation", "fixed-epoch"]
#: What one participation contributes: a value in [0, 1], a value in [-1, 1], or a vector of l2 norm at most 1.
Contribution = Literal["counts", "signed", "vector"]
CONTRIBUTIONS: tuple[Contribution, ...] = ("counts", "signed", "vector")


@dataclass(frozen=True)
class Participation:
    """A participation scheme (build it with :func:`any_records`, :func:`once_per_block`, :func:`min_separation`
    or :func:`fixed_epoch`); ``contribution`` is the contribution model, None when not named (the audit then
    refuses a workload on which the models differ)."""

    kind: SchemeKind
    records: int  # any: m; min-separation, fixed-epoch: the most participations k; once-per-block: unused (0)
    spacing: int  # once-per-block: the block length b; min-separation, fixed-epoch: the separation b; any: 1
    contribution: Contribution | None = None

    def describe(self) -> str:
        if self.kind == "any":
            text = f"any {self.records} distinct inputs"
        elif self.kind == "once-per-block":
            text = f"at most once per block of {self.spacing} steps"
        elif self.kind == "fixed-epoch":
            text = f"at most {self.records} times, exactly {self.spacing} steps apart (fixed epochs)"
        else:
            text = f"at most {self.records} times, at least {self.spacing} steps apart"
        return text if self.contribution is None else f"{text}, {self.contribution} contributions"

    def most_inputs(self, inputs: int) -> int:
        """The largest pattern size over ``inputs`` steps.

        Args:
            inputs: the number of inputs (steps) n, a non-negative integer.
        """
        if self.kind == "any":
            return min(self.records, inputs)
        if self.kind == "once-per-block":
            return -(-inputs // self.spacing)
        return min(self.records, -(-inputs // self.spacing))

    def count(self, inputs: int) -> int:
        """The number of non-empty patterns over ``inputs`` steps (exact, by counting).

        Args:
            inputs: the number of inputs (steps) n, a non-negative integer.
        """
        return sum(self.sizes(inputs)[1:])

    def sizes(self, inputs: int) -> list[int]:
        """``sizes[c]``: the number of patterns of ``c`` inputs over ``inputs`` steps (exact, by counting).

        Args:
            inputs: the number of inputs (steps) n, a non-negative integer.

        Returns:
            The counts for c = 0, 1, ..., :meth:`most_inputs` (``sizes[0]`` = 1, the empty pattern).
        """
        most = self.most_inputs(inputs)
        if self.kind == "any":
            return [math.comb(inputs, size) for size in range(most + 1)]
        if self.kind == "once-per-block":
            full, rest = divmod(inputs, self.spacing)
            # the coefficients of (1 + b x)^full (1 + rest x): one input or none from each block
            return [math.comb(full, c) * self.spacing ** c + (rest * math.comb(full, c - 1) * self.spacing ** (c - 1)
                                                              if c >= 1 else 0) for c in range(most + 1)]
        if self.kind == "fixed-epoch":
            # per residue class: the subsets of a line of points whose index span is at most k - 1
            counts = [0] * (most + 1)
            counts[0] = 1
            for residue in range(min(self.spacing, inputs)):
                points = len(range(residue, inputs, self.spacing))
                for first in range(points):
                    room = min(self.records - 1, points - 1 - first)
                    for size in range(1, room + 2):
                        counts[size] += math.comb(room, size - 1)
            return counts
        # ways[t][c]: patterns over steps >= t using exactly c more inputs, the last chosen far enough before t
        gap = _effective_gap(self.spacing, inputs)
        ways = [[0] * (most + 1) for _ in range(inputs + gap + 1)]
        for t in range(inputs + gap, -1, -1):
            ways[t][0] = 1
            if t >= inputs:
                continue
            for c in range(1, most + 1):
                ways[t][c] = ways[t + 1][c] + ways[t + gap][c - 1]
        return ways[0]

    def allows(self, pattern: Sequence[int], step: int) -> bool:
        """May ``step`` extend the increasing ``pattern`` (``step`` after its last element)?

        Args:
            pattern: an allowed pattern, its 0-based input indices in increasing order (may be empty).
            step: the 0-based input index to add, larger than every element of ``pattern``.
        """
        if not pattern:
            return True
        if self.kind == "any":
            return len(pattern) < self.records
        if self.kind == "once-per-block":
            return step // self.spacing > pattern[-1] // self.spacing
        if self.kind == "fixed-epoch":
            offset = step - pattern[0]
            return offset % self.spacing == 0 and offset <= (self.records - 1) * self.spacing
        return len(pattern) < self.records and step - pattern[-1] >= self.spacing

    def may_share(self, first: int, second: int) -> bool:
        """May two distinct inputs lie in one pattern?

        Args:
            first: a 0-based input index.
            second: another 0-based input index (equal indices give False).
        """
        low, high = min(first, second), max(first, second)
        return low != high and self.records != 1 and self.allows((low,), high)

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "records": self.records, "spacing": self.spacing,
                "contribution": self.contribution, "describe": self.describe()}


def check_contribution(contribution: object) -> Contribution | None:
    """None or one of :data:`CONTRIBUTIONS`.

    Args:
        contribution: the contribution model a caller gave: None (not named) or one of ``"counts"``, ``"signed"``,
            ``"vector"``.

    Raises:
        ValueError: any other value.
    """
    return None if contribution is None else check_choice(contribution, "contribution", CONTRIBUTIONS)


def any_records(*, records: int, contribution: Contribution | None = None) -> Participation:
    """Any ``records`` distinct inputs.

    Args:
        records: the most inputs m one user touches, a positive integer.
        contribution: the contribution model, ``"counts"``, ``"signed"`` or ``"vector"``; None (default): not named.

    Raises:
        ValueError: ``records`` not a positive integer, or an unknown ``contribution``.
    """
    return Participation("any", check_positive_int(records, "records"), 1, check_contribution(contribution))


def once_per_block(*, block: int, contribution: Contribution | None = None) -> Participation:
    """At most one input in each block of ``block`` consecutive steps (blocks start at step 0).

    Args:
        block: the block length b in steps, a positive integer.
        contribution: the contribution model, ``"counts"``, ``"signed"`` or ``"vector"``; None (default): not named.

    Raises:
        ValueError: ``block`` not a positive integer, or an unknown ``contribution``.
    """
    return Participation("once-per-block", 0, check_positive_int(block, "block"), check_contribution(contribution))


def min_separation(*, separation: int, times: int, contribution: Contribution | None = None) -> Participation:
    """At most ``times`` inputs, any two at least ``separation`` steps apart.

    Args:
        separation: the least distance b in steps between two of a user's inputs, a positive integer.
        times: the most participations k, a positive integer.
        contribution: the contribution model, ``"counts"``, ``"signed"`` or ``"vector"``; None (default): not named.

    Raises:
        ValueError: a count not a positive integer, or an unknown ``contribution``.
    """
    return Participation("min-separation", check_positive_int(times, "times"),
                         check_positive_int(separation, "separation"), check_contribution(contribution))


def fixed_epoch(*, separation: int, times: int, contribution: Contribution | None = None) -> Participation:
    """At most ``times`` inputs, exactly ``separation`` steps apart: the steps t0, t0 + b, ..., t0 + (k - 1) b
    (b = ``separation``, k = ``times``) and their subsets, any start t0 (a fixed data order of epochs of b steps).

    Args:
        separation: the epoch length b in steps (a user's inputs are exactly multiples of b apart), a positive
            integer.
        times: the most participations k, a positive integer.
        contribution: the contribution model, ``"counts"``, ``"signed"`` or ``"vector"``; None (default): not named.

    Raises:
        ValueError: a count not a positive integer, or an unknown ``contribution``.
    """
    return Participation("fixed-epoch", check_positive_int(times, "times"),
                         check_positive_int(separation, "separation"), check_contribution(contribution))


def parse_participation(text: str, contribution: str | None = None) -> Participation:
    """The command-line form: ``any:M``, ``once-per-block:B``, ``min-separation:B,K`` or ``fixed-epoch:B,K``;
    ``contribution`` (``--contribution``) names the contribution model.

    Args:
        text: the scheme as the command line gives it, without spaces, e.g. ``"min-separation:3,2"``.
        contribution: the contribution model's name (``"counts"``, ``"signed"``, ``"vector"``), or None (default):
            not named.

    Raises:
        ValueError: text in none of the four forms, or an unknown ``contribution``.
    """
    from reference.core.validate import parse_integer_text

    if not isinstance(text, str) or any(character.isspace() for character in text):  # 'any: 2' is a typo
        raise ValueError("participation must be any:M, once-per-block:B, min-separation:B,K or fixed-epoch:B,K "
                         f"with no spaces, got {text!r}")
    model = check_contribution(contribution)

    kind, _, rest = text.partition(":")
    try:
        numbers = [parse_integer_text(part, "participation") for part in rest.split(",")] if rest else []
    except ValueError:
        numbers = []
    if kind == "any" and len(numbers) == 1:
        return any_records(records=numbers[0], contribution=model)
    if kind == "once-per-block" and len(numbers) == 1:
        return once_per_block(block=numbers[0], contribution=model)
    if kind == "min-separation" and len(numbers) == 2:
        return min_separation(separation=numbers[0], times=numbers[1], contribution=model)
    if kind == "fixed-epoch" and len(numbers) == 2:
        return fixed_epoch(separation=numbers[0], times=numbers[1], contribution=model)
    raise ValueError("participation must be any:M, once-per-block:B, min-separation:B,K or fixed-epoch:B,K, "
                     f"got {text!r}")


@dataclass(frozen=True)
class PatternMaximum:
    """The maximum of a sensitivity over the patterns: exact when ``lower == upper``."""

    lower: Fraction
    upper: Fraction
    pattern: tuple[int, ...]  # a pattern attaining ``lower``
    method: str
    patterns: int  # how many patterns the scheme allows
    #: signed contributions: the signs on ``pattern`` attaining ``lower`` (empty for counts and vectors)
    signs: tuple[int, ...] = ()

    @property
    def exact(self) -> bool:
        return self.lower == self.upper

    def as_json(self) -> dict[str, Any]:
        return {"lower": fraction_text(self.lower), "upper": fraction_text(self.upper), "exact": self.exact,
                "pattern": list(self.pattern), "signs": list(self.signs) or None, "method": self.method,
                "patterns": self.patterns}


# ----------------------------------------------------------------------------------- exact enumeration


State = TypeVar("State")
#: ``extend(state, pattern, step)``: the states (each with its value) of the pattern extended by ``step``; one for
#: a plain pattern, one per sign when the contributions carry signs.
Extend = Callable[[State, tuple[int, ...], int], Iterable[tuple[State, int]]]


def walk_patterns(scheme: Participation, inputs: int, start: State, extend: Extend[State],
                  visit: Callable[[tuple[int, ...], State, int], None]) -> None:
    """Call ``visit(pattern, state, value)`` on every non-empty pattern over ``inputs`` steps, depth first (steps
    ascending, each pattern before its extensions); the state is carried from a pattern to its extensions, so
    each value costs one incremental step, not a sum over the pattern.

    Args:
        scheme: the participation scheme whose patterns are walked.
        inputs: the number of inputs (steps) n.
        start: the state of the empty pattern.
        extend: ``extend(state, pattern, step)``: the (state, value) pairs of ``pattern`` extended by ``step``, from
            ``pattern``'s state (one pair, or one per sign for signed contributions).
        visit: called as ``visit(pattern, state, value)`` on each non-empty pattern (and each of its states).
    """
    most = scheme.most_inputs(inputs)
    allows = scheme.allows

    def descend(pattern: tuple[int, ...], state: State) -> None:
        if len(pattern) == most:
            return
        for step in range(pattern[-1] + 1 if pattern else 0, inputs):
            if allows(pattern, step):
                extended = (*pattern, step)
                for new_state, value in extend(state, pattern, step):
                    visit(extended, new_state, value)
                    descend(extended, new_state)

    descend((), start)


def best_pattern(scheme: Participation, inputs: int, start: State,
                 extend: Extend[State]) -> tuple[int, tuple[int, ...], State]:
    """The largest value over the patterns (:func:`walk_patterns`), the first pattern attaining it, and its state
    (the empty pattern, value 0, when ``inputs`` allows none).

    Args:
        scheme: the participation scheme whose patterns are walked.
        inputs: the number of inputs (steps) n.
        start: the state of the empty pattern.
        extend: the incremental step, as in :func:`walk_patterns`.
    """
    best_value: int | None = None
    best_found: tuple[int, ...] = ()
    best_state = start

    def visit(pattern: tuple[int, ...], state: State, value: int) -> None:
        nonlocal best_value, best_found, best_state
        if best_value is None or value > best_value:
            best_value, best_found, best_state = value, pattern, state

    walk_patterns(scheme, inputs, start, extend, visit)
    return (0 if best_value is None else best_value), best_found, best_state


# ----------------------------------------------------------------------------------- linear maxima by DP


def _effective_gap(spacing: int, inputs: int) -> int:
    """The separation the tables use: any separation of ``inputs`` or more allows one input per pattern, the
    same as ``inputs`` does, so the tables stay ``inputs`` long (min-separation:99999999,2 on two inputs built
    a table of 10**8 rows)."""
    return min(spacing, max(inputs, 1))


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


def quadratic_extend(quadratic: Sequence[Sequence[int]]) -> Extend[int]:
    """The step of :func:`walk_patterns` for ``1_Sᵀ Q 1_S``, Q symmetric: the state is the value, and adding j
    adds ``Q_jj + 2 Σ_{i∈S} Q_ij``.

    Args:
        quadratic: the symmetric integer matrix Q (inputs × inputs), as rows.
    """
    def extend(total: int, pattern: tuple[int, ...], j: int) -> tuple[tuple[int, int]]:
        value = total + quadratic[j][j] + 2 * sum([quadratic[i][j] for i in pattern])
        return ((value, value),)

    return extend


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
    gap = _effective_gap(scheme.spacing, inputs)
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
