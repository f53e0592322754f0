"""Input validation shared by every public function.

Every check raises ``ValueError`` (wrong value) or ``TypeError`` (wrong kind) with a message that names the
parameter and says what it accepts, so that the command line can print it as a one-line error.
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction
from typing import Literal, TypeAlias

#: Anything that converts to an exact rational without rounding. Python floats are refused on purpose:
#: ``0.1`` is not 1/10, and an exact layer must not silently inherit binary rounding.
RationalLike: TypeAlias = "int | Fraction | str"

Neighbours = Literal["add_remove", "substitution"]
NEIGHBOURS: tuple[Neighbours, ...] = ("add_remove", "substitution")

#: Largest depth the exact layer accepts; 2**30 leaves is far beyond anything an exact computation can hold.
MAX_EXACT_DEPTH = 30


def to_fraction(value: object, name: str) -> Fraction:
    """Convert ``value`` to an exact ``Fraction``.

    Accepts ``int``, ``Fraction`` and strings such as ``"1/3"``, ``"0.25"``, ``"1e-6"`` (decimal strings are
    read exactly). Refuses ``float`` and ``bool`` with a ``TypeError`` naming ``name``.
    """
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an exact rational (int, Fraction or a string like '1/3'), not bool")
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, numbers.Integral):
        return Fraction(int(value))
    if isinstance(value, str):
        text = value.strip()
        try:
            result = Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise ValueError(
                f"{name} must be an exact rational such as '1/3', '0.25' or '1e-6'; got {value!r}"
            ) from None
        return result
    if isinstance(value, float):
        raise TypeError(
            f"{name} must be an exact rational, not the float {value!r}: pass a string such as "
            f"'{value!r}' or a Fraction so that no binary rounding enters an exact result"
        )
    raise TypeError(f"{name} must be an exact rational (int, Fraction or str), got {type(value).__name__}")


def to_real(value: object, name: str) -> float:
    """Convert ``value`` to a finite float for the numeric layer (ints, Fractions, strings and floats)."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be a real number, not bool")
    if isinstance(value, str):
        try:
            result = float(Fraction(value.strip()))
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"{name} must be a real number; got {value!r}") from None
    elif isinstance(value, numbers.Real):
        result = float(value)
    else:
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    if not math.isfinite(result):
        raise ValueError(f"{name} must be finite; got {value!r}")
    return result


def check_depth(depth: object, name: str = "depth", *, minimum: int = 0, maximum: int = MAX_EXACT_DEPTH) -> int:
    """Return ``depth`` as an int after checking it is an integer in ``[minimum, maximum]``."""
    if isinstance(depth, bool) or not isinstance(depth, numbers.Integral):
        raise TypeError(f"{name} must be an integer in [{minimum}, {maximum}], got {depth!r}")
    value = int(depth)
    if not minimum <= value <= maximum:
        raise ValueError(f"{name} must be an integer in [{minimum}, {maximum}], got {value}")
    return value


def check_positive_int(value: object, name: str, *, minimum: int = 1) -> int:
    """Return ``value`` as an int after checking it is an integer at least ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer >= {minimum}, got {value!r}")
    result = int(value)
    if result < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {result}")
    return result


def positive_fraction(value: object, name: str) -> Fraction:
    """An exact rational strictly greater than zero."""
    result = to_fraction(value, name)
    if result <= 0:
        raise ValueError(f"{name} must be > 0, got {result}")
    return result


def open_unit_fraction(value: object, name: str) -> Fraction:
    """An exact rational in the open interval (0, 1), as a privacy ``delta`` must be."""
    result = to_fraction(value, name)
    if not 0 < result < 1:
        raise ValueError(f"{name} must be in the open interval (0, 1), got {result}")
    return result


def positive_real(value: object, name: str) -> float:
    """A finite float strictly greater than zero (numeric layer)."""
    result = to_real(value, name)
    if result <= 0:
        raise ValueError(f"{name} must be > 0, got {value!r}")
    return result


def check_neighbours(value: object, name: str = "neighbours") -> Neighbours:
    """One of the two neighbouring relations: ``add_remove`` (one count changes by one) or ``substitution``."""
    if value == "add_remove":
        return "add_remove"
    if value == "substitution":
        return "substitution"
    raise ValueError(f"{name} must be one of {', '.join(NEIGHBOURS)}; got {value!r}")


def fraction_text(value: Fraction) -> str:
    """The JSON form of an exact rational: ``"p/q"``, or ``"p"`` for an integer."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator}"


def nonnegative_fraction(value: object, name: str) -> Fraction:
    """An exact rational >= 0 (for example ε = 0, where δ(0) is the total variation distance)."""
    result = to_fraction(value, name)
    if result < 0:
        raise ValueError(f"{name} must be >= 0, got {fraction_text(result)}")
    return result
