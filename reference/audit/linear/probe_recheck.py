"""The exact checks of a float probe, computed on numpy arrays: linear in the map's non-zeros, with Python numbers
only where the arrays cannot decide.

A probe recovers a map B from float outputs, then checks two things exactly (see
:mod:`reference.audit.linear.probe_linear`): the function's own deviation from linearity,
max |f(x + y) − f(x) − f(y)|, and, at a seeded point x of small integers, |f(x) − B x| against the allowed
rounding. Both used to be a ``Fraction`` per output and per non-zero. Here:

* the deviation is exact by error-free transformations (Knuth's TwoSum: ``a + b = s + e`` exactly for doubles),
  so c − a − b = t + e₁ + e₂ with three doubles; only the outputs whose float estimate can reach the maximum
  (within a rigorous bound on the estimate's error) are summed as Fractions;
* B x is exact in int64: the recognised entries over their common denominator L are integers, and when
  max |numerator| · max |x| · (non-zeros of the fullest row) stays below 2⁶² no sum can overflow. Each output
  is then screened in float64 with rigorous error bounds (every rounding accounted for, with a margin); an output
  the screen cannot clear is decided exactly with Fractions. When L or the numerators are too large for int64,
  the caller falls back to Fractions throughout.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

#: The unit roundoff of float64, as a float (the arithmetic of the screens below).
_UNIT = 2.0 ** -53
#: An absolute margin for results that may fall in the subnormal range (where rounding is absolute, not relative).
_TINY = 2.0 ** -1060
#: Exact int64 sums stay below this.
_INT64_SAFE = 1 << 62


def two_sum(first: np.ndarray, second: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(s, e)`` with ``first + second = s + e`` exactly, elementwise (Knuth's TwoSum; finite inputs whose sum does
    not overflow).

    Args:
        first: float64 values.
        second: float64 values of the same shape.
    """
    total = first + second
    back = total - first
    error = (first - (total - back)) + (second - back)
    return total, error


def exact_deviation(first: np.ndarray, second: np.ndarray, joint: np.ndarray) -> Fraction:
    """max over outputs of |joint − first − second|, exactly (module docstring).

    Args:
        first: f(x), float64, one entry per output.
        second: f(y), float64, the same shape.
        joint: f(x + y), float64, the same shape.
    """
    with np.errstate(over="ignore", invalid="ignore"):  # an overflow here sends the values the exact way below
        partial, low = two_sum(joint, -first)
        rest, lower = two_sum(partial, -second)
        finite = bool(np.isfinite(rest + (low + lower)).all())
    # one screen for the three: a nan or an infinity in any makes their sum non-finite (a finite sum overflowing
    # only sends finite values the exact way)
    if not finite:
        return max((abs(Fraction(c) - Fraction(a) - Fraction(b)) for a, b, c in
                    zip(first.tolist(), second.tolist(), joint.tolist())), default=Fraction(0))
    if not (rest.any() or low.any() or lower.any()):  # exactly linear at every pair (integer-valued maps)
        return Fraction(0)
    nonzero = np.flatnonzero((rest != 0) | (low != 0) | (lower != 0))
    rest, low, lower = rest[nonzero], low[nonzero], lower[nonzero]
    estimate = np.abs(rest + (low + lower))
    # |estimate − exact| <= 2.1 u (|rest| + |low| + |lower|) (two roundings), plus the subnormal margin
    slack = 4 * _UNIT * (np.abs(rest) + np.abs(low) + np.abs(lower)) + _TINY
    candidates = np.flatnonzero(estimate + slack >= np.max(estimate - slack))
    return max(abs(Fraction(rest[i]) + Fraction(low[i]) + Fraction(lower[i])) for i in candidates.tolist())


def common_denominator(values: Sequence[Fraction | int]) -> int | None:
    """The least common denominator of ``values`` when it is below 2⁶², else None.

    Args:
        values: exact values (ints or Fractions).
    """
    common = 1
    for value in values:
        common = math.lcm(common, Fraction(value).denominator)
        if common >= _INT64_SAFE:
            return None
    return common


def integer_recheck(
    actual: np.ndarray, rows: np.ndarray, cols: np.ndarray, numerators: np.ndarray, denominator: int,
    point: np.ndarray, roundoff: Fraction, own: Fraction,
) -> list[tuple[int, Fraction, Fraction]] | None:
    """The outputs the exact re-check must examine, with their exact B x and allowed rounding; None when int64
    cannot hold B x exactly (the caller uses Fractions).

    Output i is cleared when |f(x)_i − (B x)_i| <= max(γ_{k+2} Σ_j |B_ij x_j|, own) certainly holds by a float64
    screen with every rounding bounded (γ_n = n·u/(1 − n·u), k the terms of row i at x, u ``roundoff``); the others
    are returned for an exact comparison.

    Args:
        actual: f(x), one entry per output (float or integer dtype).
        rows: the row of each non-zero of B.
        cols: the column of each non-zero.
        numerators: each non-zero times ``denominator``, int64 (exact integers).
        denominator: the common denominator L of the non-zeros, a positive integer below 2⁶².
        point: x, int64 small integers, one per draw.
        roundoff: the unit roundoff of the dtype the function computes in (0 for integer outputs).
        own: the allowed deviation the function's own measured rounding gives (0 if none).

    Returns:
        (output, exact (B x)_i, exact allowed rounding) for each output the screen did not clear, or None.
    """
    outputs = actual.shape[0]
    row_sizes = np.bincount(rows, minlength=outputs)
    widest = int(row_sizes.max()) if row_sizes.size else 0
    largest = int(np.max(np.abs(numerators))) if numerators.size else 0
    if largest * int(np.max(np.abs(point), initial=0)) * widest >= _INT64_SAFE:
        return None
    terms = numerators * point[cols]
    expected = np.zeros(outputs, dtype=np.int64)
    np.add.at(expected, rows, terms)
    if denominator == 1 and actual.dtype.kind in "if" and _equal_everywhere(actual, expected):
        return []  # every output is B x exactly (within 2⁵³ for floats: represented exactly), whatever is allowed
    magnitude = np.zeros(outputs, dtype=np.int64)
    np.add.at(magnitude, rows, np.abs(terms))
    counts = np.bincount(rows[terms != 0], minlength=outputs)
    if actual.dtype.kind != "f":  # integer outputs: no rounding allowed; unsigned ones (which could wrap when
        # cast) and a fractional B x are compared exactly
        signed = actual.dtype.kind == "i" and denominator == 1
        flagged = np.flatnonzero(actual.astype(np.int64) != expected) if signed else np.arange(outputs)
    else:
        flagged = _float_screen(actual.astype(np.float64), expected, magnitude, counts, denominator, roundoff, own)
    found = []
    for i in flagged.tolist():
        steps = int(counts[i]) + 2
        gamma = steps * roundoff / (1 - steps * roundoff) if roundoff else Fraction(0)
        allowed = max(gamma * Fraction(int(magnitude[i]), denominator), own) if roundoff else Fraction(0)
        found.append((i, Fraction(int(expected[i]), denominator), allowed))
    return found


def _equal_everywhere(actual: np.ndarray, expected: np.ndarray) -> bool:
    """Every f(x)_i equal to the integer (B x)_i (int64): compared as int64 for signed integer outputs, as float64
    where every |(B x)_i| <= 2⁵³ (each is then a float64 exactly, so float equality is exact equality)."""
    if actual.dtype.kind == "i":
        return bool(np.array_equal(actual.astype(np.int64), expected))
    if not bool((np.abs(expected) <= 1 << 53).all()):
        return False
    return bool(np.array_equal(actual.astype(np.float64, copy=False), expected.astype(np.float64)))


def _float_screen(actual: np.ndarray, expected: np.ndarray, magnitude: np.ndarray, counts: np.ndarray,
                  denominator: int, roundoff: Fraction, own: Fraction) -> np.ndarray:
    """The outputs a float64 screen cannot clear (the others certainly pass; see :func:`integer_recheck`)."""
    scale = float(denominator)
    estimate = expected.astype(np.float64) / scale
    # B x as a float is exact when L is a power of two and the numerator has at most 53 bits; else within 3u
    dyadic = denominator & (denominator - 1) == 0
    exact_estimate = dyadic & (np.abs(expected) <= (1 << 53)) if dyadic else np.zeros(expected.shape, dtype=bool)
    estimate_error = np.where(exact_estimate, 0.0, 4 * _UNIT * np.abs(estimate) + _TINY)
    difference = np.abs(actual - estimate)
    # an upper bound on |f(x) − B x| and a lower bound on the allowed rounding, each through a few roundings
    worst = (difference + estimate_error) * (1 + 8 * _UNIT)  # (1 + u) itself would round to 1
    unit = float(roundoff)  # a power of two: exact
    steps = (counts + 2).astype(np.float64)
    gamma = steps * unit / (1 - steps * unit)
    allowed = np.maximum(gamma * (magnitude.astype(np.float64) / scale), float(own) * (1 - 2 * _UNIT))
    floor = allowed * (1 - 16 * _UNIT) - _TINY
    # an output equal to an exactly represented B x passes whatever is allowed (a zero allowance included)
    return np.flatnonzero(~((worst <= floor) | (exact_estimate & (actual == estimate))))
