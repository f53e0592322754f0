"""The one text of an exact value for humans (summaries, explanations, reprs, messages built from results).

An exact rational is printed as itself (``p/q``, or ``p``) while it is short: at most :data:`MAX_EXACT_DIGITS`
digits in numerator and denominator together. A longer one — a claim of ``1e-10000`` is the fraction
``1/10**10000``, 10,001 digits — is printed as a decimal approximation with the sizes of its numerator and
denominator: ``≈ 1.00000e-10000 (exact: 1/10001 digits, in as_json)`` (the digits of numerator and denominator). The exact value is
never lost: every ``as_json()`` keeps each exact number under its own key as ``"p/q"``
(:func:`reference.core.validate.fraction_text`, which converts past Python's 4,300-digit ``int``/``str`` guard
through FLINT), so only the human texts shrink. Digit counts come from exact integer comparisons
(:func:`reference.core.validate.floor_log10`), never from ``str(int)``.

The decimal forms live here too: :func:`format_significant` (nearest) and :func:`format_directed` (rounded
toward a side, for the ends of an enclosure), in integer arithmetic at any size (``reference.core.certified``
re-exports them).
"""

from __future__ import annotations

from fractions import Fraction

from reference.core.validate import check_positive_int, floor_log10, fraction_text

#: Most digits (numerator and denominator together) of an exact value printed in full for humans.
MAX_EXACT_DIGITS = 60
#: Significant digits of the approximation printed instead.
APPROXIMATION_DIGITS = 6


def digit_count(value: int) -> int:
    """The number of decimal digits of ``|value|`` (1 for 0), without converting it to text.

    Args:
        value: an integer of any size.
    """
    return 1 if value == 0 else floor_log10(Fraction(abs(value))) + 1


def exact_text(value: Fraction | int) -> str:
    """``value`` for a human: exact when short, else its decimal approximation and its digit counts (module
    docstring).

    Args:
        value: an exact rational or integer of any size.
    """
    long = _long_form(Fraction(value))
    return fraction_text(Fraction(value)) if long is None else f"≈ {long[0]} (exact: {long[1]}, in as_json)"


def _long_form(value: Fraction) -> tuple[str, str] | None:
    """The approximation and the digit counts of a value too long to print exactly, or ``None``."""
    numerator, denominator = value.numerator, value.denominator
    # 190 bits are at most 58 digits: only values near the limit are measured exactly
    if numerator.bit_length() + denominator.bit_length() <= 190:
        return None
    top, bottom = digit_count(numerator), digit_count(denominator)
    if top + (0 if denominator == 1 else bottom) <= MAX_EXACT_DIGITS:
        return None
    approximation = format_significant(value, APPROXIMATION_DIGITS)
    return approximation, f"{top} digits" if denominator == 1 else f"{top}/{bottom} digits"


def format_significant(value: Fraction, digits: int) -> str:
    """``value`` rounded (half to even) to ``digits`` significant digits, as a decimal string.

    Trailing zeros are kept so that the string shows ``digits`` significant digits. Positional notation is
    used for decimal exponents in [-6, 20], scientific (``1.25e-13``) outside; both parse with ``float`` and
    ``Fraction``. Zero is rendered as ``"0."`` followed by ``digits - 1`` zeros.

    Args:
        value: the exact rational to print.
        digits: the number of significant digits, an integer >= 1 (a ValueError otherwise).
    """
    return _format(value, digits, "nearest")


def format_directed(value: Fraction, digits: int, *, upward: bool) -> str:
    """``value`` rounded toward +∞ (``upward``) or −∞ to ``digits`` significant digits: the printed number is
    >= (or <=) ``value``, so an upper (lower) end of an enclosure stays one when printed.

    Args:
        value: the exact rational to print.
        digits: the number of significant digits, an integer >= 1.
        upward: True: round toward +∞ (the string is >= ``value``); False: toward −∞ (the string is <= ``value``).
    """
    return _format(value, digits, "up" if upward else "down")


def _format(value: Fraction, digits: int, mode: str) -> str:
    digits = check_positive_int(digits, "digits")
    if value == 0:
        return "0." + "0" * (digits - 1)
    sign = "-" if value < 0 else ""
    magnitude = abs(value)
    exponent = floor_log10(magnitude)
    # magnitude * 10**shift as numerator / denominator, in integers: no Fraction product, whose gcd of
    # million-bit integers took seconds for a δ near 2**-(2**20)
    shift = digits - 1 - exponent
    numerator = magnitude.numerator * 10**shift if shift >= 0 else magnitude.numerator
    denominator = magnitude.denominator if shift >= 0 else magnitude.denominator * 10**-shift
    quotient, remainder = divmod(numerator, denominator)
    if mode == "nearest":  # half to even, as round() on a Fraction
        twice = 2 * remainder
        scaled = quotient + (1 if twice > denominator or (twice == denominator and quotient % 2) else 0)
    else:
        # toward +∞ is away from zero for a positive value and toward zero for a negative one
        away = (mode == "up") == (value > 0)
        scaled = quotient + (1 if away and remainder else 0)
    if scaled == 10**digits:  # rounding carried into a new digit (9.99.. -> 10.0..)
        scaled //= 10
        exponent += 1
    mantissa = str(scaled)
    if -6 <= exponent <= 20:
        if exponent >= digits - 1:
            return sign + mantissa + "0" * (exponent - digits + 1) + "."
        if exponent >= 0:
            return sign + mantissa[: exponent + 1] + "." + mantissa[exponent + 1 :]
        return sign + "0." + "0" * (-exponent - 1) + mantissa
    return f"{sign}{mantissa[0]}.{mantissa[1:]}e{exponent:+d}"


def message_value(value: int | float | Fraction | str) -> str:
    """A value quoted in a refusal: an int or Fraction through :func:`exact_text` (a count of ``10**4000`` printed
    4,001 digits, and ``str`` of a longer one raises Python's own ``ValueError``), anything else as ``str``, cut
    at 80 characters.

    Args:
        value: the value the refusal quotes.
    """
    if isinstance(value, (int, Fraction)) and not isinstance(value, bool):
        long = _long_form(Fraction(value))
        return fraction_text(Fraction(value)) if long is None else f"≈ {long[0]} ({long[1]})"
    text = str(value)
    return text if len(text) <= 80 else text[:79] + "…"
