"""Walking a participation scheme's patterns: every allowed pattern, depth first with incremental sums, and the
result type of a maximum over them (:class:`PatternMaximum`).

The walk is the exact **enumeration** behind :mod:`~reference.audit.linear.pattern_maxima`; it carries a state
from a pattern to its extensions, so each value costs one incremental step.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

from reference.audit.linear.participation import Participation
from reference.core.validate import fraction_text


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
