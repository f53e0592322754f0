"""The one text of an exact value for humans (summaries, explanations, reprs, messages built from results).

An exact rational is printed as itself (``p/q``, or ``p``) while it is short: at most :data:`MAX_EXACT_DIGITS`
digits in numerator and denominator together. A longer one — a claim of ``1e-10000`` is the fraction
``1/10**10000``, 10,001 digits — is printed as a decimal approximation with the sizes of its numerator and
denominator: ``≈ 1.00000e-10000 (exact: a 1-digit / 10001-digit fraction, in as_json)``. The exact value is
never lost: every ``as_json()`` keeps each exact number under its own key as ``"p/q"``
(:func:`reference.core.validate.fraction_text`, which converts past Python's 4,300-digit ``int``/``str`` guard
through FLINT), so only the human texts shrink. Digit counts come from exact integer comparisons
(:func:`reference.core.validate.floor_log10`), never from ``str(int)``.
"""

from __future__ import annotations

from fractions import Fraction

from reference.core.validate import floor_log10, fraction_text

#: Most digits (numerator and denominator together) of an exact value printed in full for humans.
MAX_EXACT_DIGITS = 60
#: Significant digits of the approximation printed instead.
APPROXIMATION_DIGITS = 6


def digit_count(value: int) -> int:
    """The number of decimal digits of ``|value|`` (1 for 0), without converting it to text."""
    return 1 if value == 0 else floor_log10(Fraction(abs(value))) + 1


def exact_text(value: Fraction | int) -> str:
    """``value`` for a human: exact when short, else its decimal approximation and its digit counts (module
    docstring)."""
    value = Fraction(value)
    numerator, denominator = value.numerator, value.denominator
    # 200 bits are at most 61 digits: only values near the limit are measured exactly
    if numerator.bit_length() + denominator.bit_length() <= 190:
        return fraction_text(value)
    top, bottom = digit_count(numerator), digit_count(denominator)
    if top + (0 if denominator == 1 else bottom) <= MAX_EXACT_DIGITS:
        return fraction_text(value)
    from reference.core.certified import format_significant

    approximation = format_significant(value, APPROXIMATION_DIGITS)
    size = f"a {top}-digit integer" if denominator == 1 else f"a {top}-digit / {bottom}-digit fraction"
    return f"≈ {approximation} (exact: {size}, in as_json)"
