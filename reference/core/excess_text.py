"""Numbers in assertion messages: relative excesses in scientific notation, rounded to the safe side.

A message that says ``sigma / smallest safe sigma <= 1.000`` hides an excess of 1e-14; these helpers print
``σ/σ* − 1 <= -1.00e-14`` instead, so a reader sees how far a point is from the boundary, and which way.
"""

from __future__ import annotations

from fractions import Fraction

from reference.core.validate import floor_log10


def scientific(value: Fraction, *, upward: bool, digits: int = 3) -> str:
    """``value`` in scientific notation with ``digits`` significant digits, rounded toward +∞ (``upward``) or
    −∞, so that a printed upper (lower) bound is still one.

    Args:
        value: the exact rational to print.
        upward: True: round toward +∞ (an upper bound stays one); False: toward −∞.
        digits: the number of significant digits printed, an integer >= 1 (default 3).
    """
    if value == 0:
        return "0"
    exponent = floor_log10(abs(value))
    scaled = value * Fraction(10) ** (digits - 1 - exponent)
    mantissa = -((-scaled.numerator) // scaled.denominator) if upward else scaled.numerator // scaled.denominator
    if abs(mantissa) == 10**digits:  # rounding carried into a new digit
        mantissa //= 10
        exponent += 1
    sign = "-" if mantissa < 0 else ""
    text = str(abs(mantissa))
    return f"{sign}{text[0]}.{text[1:]}e{exponent:+03d}"


def excess_text(name: str, lower: Fraction, upper: Fraction) -> str:
    """``name − 1`` for a ratio enclosed in [lower, upper]: one number when the ends print alike, else both.

    Args:
        name: how the ratio is written in the message, such as ``"sigma / sigma*"``.
        lower: an exact lower end of the ratio's enclosure.
        upper: an exact upper end of the ratio's enclosure (>= ``lower``).
    """
    low, high = scientific(lower - 1, upward=False), scientific(upper - 1, upward=True)
    return f"{name} - 1 = {low}" if low == high else f"{name} - 1 in [{low}, {high}]"
