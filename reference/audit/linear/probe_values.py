"""Reading a probed float as the exact rational it stands for: the dtype's unit roundoff, the denominator bound
that makes the reading unique, and the simplest rational within the function's own measured rounding.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

_ZERO = Fraction(0)

#: Multiple of the unit roundoff a probed value may differ from its rational.
ROUNDOFF_MULTIPLE = 16



def unit_roundoff(dtype: npt.DTypeLike) -> Fraction:
    """The unit roundoff of a float dtype, exactly.

    Args:
        dtype: a numpy float dtype or its name: float32 (u = 2⁻²⁴) or float64 (u = 2⁻⁵³).

    Raises:
        ValueError: any other dtype.
    """
    if np.dtype(dtype) == np.float32:
        return Fraction(1, 1 << 24)
    if np.dtype(dtype) == np.float64:
        return Fraction(1, 1 << 53)
    raise ValueError(f"dtype must be float32 or float64, got {dtype!r}")


def default_denominator_bound(dtype: npt.DTypeLike) -> int:
    """The largest D with 1/D² > 4·16·u: two rationals of denominator <= D differ by more than twice the
    tolerance at magnitude 1, so at most one fits a value.

    Args:
        dtype: a numpy float dtype or its name: float32 or float64.

    Raises:
        ValueError: any other dtype.
    """
    return _denominator_bound(unit_roundoff(dtype))


@functools.lru_cache(maxsize=4)  # a pure function of the unit roundoff, asked for by every float probe
def _denominator_bound(roundoff: Fraction) -> int:
    tolerance = ROUNDOFF_MULTIPLE * roundoff
    bound = math.isqrt(int(1 / (4 * tolerance)))
    while Fraction(1, bound * bound) <= 4 * tolerance:
        bound -= 1
    return bound


def recognise_values(values: np.ndarray, dtype: Any, denominator: int, rows: np.ndarray, cols: np.ndarray,
               own: Fraction = _ZERO) -> tuple[list[Fraction], np.ndarray]:
    """Exact entries, each distinct value once: integers directly; other floats as the closest rational within the
    dtype's tolerance, or failing that the simplest one within the function's own measured rounding ``own``.
    Returns the distinct exact values and, per non-zero, the index of its value.

    Args:
        values: the probed non-zeros (integers or floats), one per entry.
        dtype: the float dtype the function computes in (float32 or float64).
        denominator: the largest denominator a value may have (0: integer values only).
        rows: each non-zero's output index (named in a refusal).
        cols: each non-zero's draw index (named in a refusal).
        own: the function's own measured rounding, exact (default 0: none).
    """
    if values.size and bool((values == values[0]).all()):  # one value (a 0/1 map): np.unique's sort skipped
        distinct, first_index, inverse = values[:1], np.zeros(1, dtype=np.intp), np.zeros(values.size, dtype=np.intp)
    else:
        distinct, first_index, inverse = np.unique(values, return_index=True, return_inverse=True)
        inverse = inverse.reshape(-1)
    if values.dtype.kind in "iu":
        return [Fraction(int(value)) for value in distinct.tolist()], inverse
    if denominator == 0:
        raise ValueError("inputs='integer': the function returned floats; probe it with inputs='integer-float64' "
                         "(integer draws in, floats out) or 'float64'")
    tolerance = ROUNDOFF_MULTIPLE * unit_roundoff(dtype)
    exact = []
    for index, value in enumerate(distinct.tolist()):
        if value == int(value):
            exact.append(Fraction(int(value)))
            continue
        where = int(first_index[index])
        exact.append(_rational(value, tolerance, denominator, int(rows[where]), int(cols[where]), own))
    return exact, inverse


def _rational(value: float, tolerance: Fraction, denominator: int, row: int, column: int,
              own: Fraction = _ZERO) -> Fraction:
    exact = Fraction(value)
    candidate = exact.limit_denominator(denominator)
    if abs(candidate - exact) <= tolerance * max(Fraction(1), abs(exact)):
        return candidate
    if own:  # the function's own rounding is wider than the dtype's: the simplest rational within it
        simplest = simplest_between(exact - own, exact + own)
        if simplest.denominator <= denominator:
            return simplest
    if _looks_float32(value, tolerance):
        raise ValueError(
            f"entry ({row}, {column}) = {value!r} is a float32 value (it is exactly representable in float32 and "
            "within float32 rounding of a simple rational, not within float64 rounding): the function computes "
            "in float32, probe it with inputs='float32'"
        )
    raise ValueError(
        f"entry ({row}, {column}) = {value!r} is not within {float(tolerance):.3g} (relative) or the function's "
        f"measured rounding {float(own):.3g} of a rational with denominator <= {denominator}: raise "
        "max_denominator, or the map is not rational"
    )


def _looks_float32(value: float, tolerance: Fraction) -> bool:
    """A value probed at float64 tolerance that is really a float32 result: representable in float32 and within
    float32 rounding of a rational of float32's denominator bound."""
    single = unit_roundoff(np.float32)
    if tolerance <= ROUNDOFF_MULTIPLE * single and float(np.float32(value)) == value:
        exact = Fraction(value)
        candidate = exact.limit_denominator(default_denominator_bound(np.float32))
        # a residue near 0 is cancellation (a solve, a non-linearity), not a float32 rounding of a non-zero entry
        return candidate != 0 and abs(candidate - exact) <= ROUNDOFF_MULTIPLE * single * max(Fraction(1), abs(exact))
    return False


def simplest_between(low: Fraction, high: Fraction) -> Fraction:
    """The rational of smallest denominator (then smallest magnitude) in [low, high], by continued fractions.

    Args:
        low: the lower end, exact.
        high: the upper end, exact, at least ``low``.

    Raises:
        ValueError: ``low > high``.
    """
    if low > high:
        raise ValueError("simplest_between needs low <= high")
    if low <= 0 <= high:
        return Fraction(0)
    if high < 0:
        return -simplest_between(-high, -low)
    whole = math.ceil(low)
    if whole <= high:
        return Fraction(whole)
    floor = math.floor(low)  # low and high lie in (floor, floor + 1)
    return floor + 1 / simplest_between(1 / (high - floor), 1 / (low - floor))
