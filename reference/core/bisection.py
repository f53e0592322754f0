"""The one certified bisection of the package: exact rational brackets around a monotone threshold.

Every calibration that searches for a smallest σ, scale or ε (or a largest ρ) does the same two things: find a
bracket ``[low, high]`` around the threshold, then halve it on exact rationals until it is narrow enough. The
comparisons are certified (Arb enclosures decided on one side of a target, see :mod:`reference.core.certified`),
so the search never rounds: what it returns is certified by the same predicate at both ends.

A *decision* ``decide(x)`` answers ``True``, ``False`` or ``None`` (undecided at the precision allowed). With
``increasing=True`` the threshold property holds above it: ``True`` means ``x`` is on the high side (e.g. "σ is
sufficient"); with ``increasing=False`` it holds below it (``True`` means ``x`` is on the low side, e.g. "ρ is
still sufficient"). The invariant of every function here: ``low`` is certified on the low side and ``high`` on
the high side (for ``increasing=True``: ``decide(low)`` is not ``True`` and ``decide(high)`` is ``True``), and
an undecided midpoint never moves an end, so the bracket returned is always valid. Midpoints are exact:
``(low + high) / 2``.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from reference.core.certified import UndecidedComparisonError
from reference.core.validate import describe

#: A certified comparison: True, False, or None when it cannot be decided.
Decision = Callable[[Fraction], bool | None]


def _high_side(decision: bool | None, increasing: bool) -> bool | None:
    """Whether ``decision`` places a point on the high side of the threshold (None: undecided)."""
    if decision is None:
        return None
    return decision if increasing else not decision


def bracket_upward(
    decide: Decision,
    low: Fraction,
    high: Fraction,
    *,
    increasing: bool = True,
    limit: Fraction | None = None,
) -> tuple[Fraction, Fraction]:
    """Double ``high`` until it is certified on the high side; each certified low-side ``high`` becomes ``low``.

    Ends when the property is monotone and holds eventually (the callers state why). ``limit``: raise
    :class:`UndecidedComparisonError` once ``high`` exceeds it instead of doubling for ever.

    Args:
        decide: the certified comparison x -> True, False or None (undecided at the precision allowed), read with
            ``increasing``.
        low: an exact rational certified on the low side (or a lower bound of the search); replaced by each certified
            low-side ``high``.
        high: the first exact rational tried, doubled until it is certified on the high side.
        increasing: True: the property holds above the threshold (``decide`` True means high side, e.g. "σ is
            sufficient"); False: it holds below it (True means low side, e.g. "ρ is still sufficient").
        limit: an exact bound on ``high``: past it the search raises UndecidedComparisonError (None: no bound, double
            until the bracket is found).
    """
    while (side := _high_side(decide(high), increasing)) is not True:
        if side is False:
            low = high
        high = 2 * high
        if limit is not None and high > limit:
            raise UndecidedComparisonError(f"no bracket below {describe(limit)}: the threshold was not found")
    return low, high


def bracket_downward(
    decide: Decision, low: Fraction, high: Fraction, *, increasing: bool = True
) -> tuple[Fraction, Fraction]:
    """Halve ``low`` until it is certified on the low side; each certified high-side ``low`` becomes ``high``.

    Args:
        decide: the certified comparison x -> True, False or None (undecided at the precision allowed), read with
            ``increasing``.
        low: the first exact rational tried, halved until it is certified on the low side.
        high: an exact rational certified on the high side; replaced by each certified high-side ``low``.
        increasing: True: the property holds above the threshold (``decide`` True means high side, e.g. "σ is
            sufficient"); False: it holds below it (True means low side, e.g. "ρ is still sufficient").
    """
    while (side := _high_side(decide(low), increasing)) is not False:
        if side is True:
            high = low
        low = low / 2
    return low, high


def bracket_around(decide: Decision, start: Fraction, *, increasing: bool = True) -> tuple[Fraction, Fraction]:
    """A bracket from one starting guess: halve down from it if it is on the high side, else double up.

    Args:
        decide: the certified comparison x -> True, False or None (undecided at the precision allowed), read with
            ``increasing``.
        start: the starting guess, an exact rational > 0: on the high side it becomes the bracket's high end (halving
            finds the low one), else its low end (doubling finds the high one).
        increasing: True: the property holds above the threshold (``decide`` True means high side, e.g. "σ is
            sufficient"); False: it holds below it (True means low side, e.g. "ρ is still sufficient").
    """
    if _high_side(decide(start), increasing) is True:
        return bracket_downward(decide, start / 2, start, increasing=increasing)
    return bracket_upward(decide, start, 2 * start, increasing=increasing)


def bisect(
    decide: Decision,
    low: Fraction,
    high: Fraction,
    *,
    tolerance: Fraction | None = None,
    done: Callable[[Fraction, Fraction], bool] | None = None,
    increasing: bool = True,
) -> tuple[Fraction, Fraction]:
    """Halve the valid bracket ``[low, high]`` until ``high - low <= tolerance * high`` (or ``done(low, high)``).

    Give exactly one of ``tolerance`` (relative width, a rational in (0, 1)) and ``done``. An undecided midpoint
    stops the search with the bracket it has (still valid, only wider).

    Args:
        decide: the certified comparison x -> True, False or None (undecided at the precision allowed), read with
            ``increasing``.
        low: the low end of a valid bracket, an exact rational certified on the low side.
        high: the high end, an exact rational >= ``low`` certified on the high side.
        tolerance: the relative width at which to stop, an exact rational in (0, 1): the search stops once
            ``high - low <= tolerance * high`` (give this or ``done``).
        done: a stopping rule done(low, high) -> bool, instead of ``tolerance`` (give exactly one of the two).
        increasing: True: the property holds above the threshold (``decide`` True means high side, e.g. "σ is
            sufficient"); False: it holds below it (True means low side, e.g. "ρ is still sufficient").
    """
    if (tolerance is None) == (done is None):
        raise ValueError("bisect: give exactly one of tolerance and done")
    finished: Callable[[Fraction, Fraction], bool]
    if tolerance is not None:
        if not 0 < tolerance < 1:
            raise ValueError(f"tolerance must be a rational in (0, 1), got {tolerance}")
        relative = tolerance

        def narrow_enough(low: Fraction, high: Fraction) -> bool:
            return high - low <= relative * high

        finished = narrow_enough
    else:
        assert done is not None
        finished = done
    if low > high:
        raise ValueError(f"bisect: low must not exceed high, got [{low}, {high}]")
    while not finished(low, high):
        middle = (low + high) / 2
        side = _high_side(decide(middle), increasing)
        if side is None:
            break
        if side:
            high = middle
        else:
            low = middle
    return low, high
