"""One line naming a units error: a noise parameter given in the wrong units (a variance where a standard
deviation was meant, a standard deviation where a variance was, a Laplace rate 1/b where the scale b was).

Each test compares two exact positive rationals, the value found (given, or measured from an oracle) against the
value expected, in the units they are stated in, and names the error when the found value is, within
:data:`UNITS_CLOSENESS` relatively, what the expected one becomes in the other units: v² for a variance v used as
a standard deviation, √v for a standard deviation used as a variance, 1/b for a rate used as a scale. The test is
skipped when the expected value is too close to 1 for the two units to differ (within ``2 · UNITS_CLOSENESS`` on a
log scale), so a right-units value is never called a units error. The line is a hint beside a verdict; it never
changes one.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Literal

from reference.core.certified import format_significant

#: Relative closeness at which a value is said to match the other units' value.
UNITS_CLOSENESS = Fraction(1, 10)

#: Significant digits of the numbers in a hint (a hint names the error; the exact values sit beside it).
HINT_DIGITS = 6

UnitsError = Literal["variance as standard deviation", "standard deviation as variance", "rate as scale"]


def _close(found: Fraction, wanted: Fraction) -> bool:
    return abs(found / wanted - 1) <= UNITS_CLOSENESS


def _distinguishable(expected: Fraction) -> bool:
    """Do ``expected`` and its other-units values differ by more than the closeness (|log expected| large)?"""
    return abs(math.log(expected.numerator) - math.log(expected.denominator)) >= 2 * float(UNITS_CLOSENESS)


def variance_units_error(found: Fraction, expected: Fraction) -> UnitsError | None:
    """Which units error makes a variance ``found`` out of the expected variance ``expected``: ``found ≈
    expected²`` (the variance was used as the standard deviation, so the variance that results is its square),
    ``found ≈ √expected`` (a standard deviation was used as the variance); None when neither matches.

    Args:
        found: the variance given or measured, an exact rational (<= 0: no error named).
        expected: the variance the stated parameters give, an exact rational (<= 0, or too close to 1 for the
            units to differ: no error named).
    """
    if found <= 0 or expected <= 0 or not _distinguishable(expected):
        return None
    if _close(found, expected * expected):
        return "variance as standard deviation"
    if _close(found * found, expected):  # found ≈ √expected, compared squared to stay exact
        return "standard deviation as variance"
    return None


def scale_units_error(found: Fraction, expected: Fraction) -> UnitsError | None:
    """A Laplace scale ``found`` against the expected scale ``expected``: ``found ≈ 1/expected`` (a rate, ε/Δ,
    used as the scale b = Δ/ε); None otherwise.

    Args:
        found: the Laplace scale b given or measured, an exact rational (<= 0: no error named).
        expected: the scale b = Δ/ε the stated parameters give, an exact rational (<= 0, or too close to 1 for a
            rate and a scale to differ: no error named).
    """
    if found <= 0 or expected <= 0 or not _distinguishable(expected):
        return None
    return "rate as scale" if _close(found * expected, Fraction(1)) else None


def number(value: Fraction) -> str:
    """A hint's number: :data:`HINT_DIGITS` significant digits, trailing zeros dropped (``0.5``, ``2.23607``).

    Args:
        value: the exact rational to print.
    """
    mantissa, _, exponent = format_significant(value, HINT_DIGITS).partition("e")
    if "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    return mantissa + (f"e{exponent}" if exponent else "")


QUESTION: dict[UnitsError, str] = {
    "variance as standard deviation": "a variance passed as a standard deviation?",
    "standard deviation as variance": "a standard deviation passed as a variance?",
    "rate as scale": "a rate 1/b (epsilon/sensitivity) passed as the scale b?",
}


def covariance_units_line(ratio: Fraction, noise: str, scale: Fraction, *, whose: str) -> str | None:
    """The units error that makes a covariance (an oracle's, or samples' second moments) ``ratio`` times the one
    of ``noise`` noise at ``scale``, named in one line; None when none does.

    Gaussian (``scale`` σ, variance σ²): ``ratio ≈ σ²`` (the variance is σ⁴: a variance used as the standard
    deviation) or ``ratio ≈ 1/σ`` (the variance is σ: a standard deviation used as the variance). Laplace
    (``scale`` b, variance 2b²): ``ratio ≈ 1/b⁴`` (the scale is 1/b: a rate used as the scale). ``whose`` names
    the covariance compared, e.g. ``"the oracle's covariance"``.

    Args:
        ratio: the compared covariance divided by the covariance of ``noise`` noise at ``scale`` (one exact
            positive rational: the two are proportional).
        noise: the noise kind stated, ``"gaussian"`` or ``"laplace"`` (any other kind: None).
        scale: the stated scale, exact: σ for Gaussian noise, b for Laplace noise.
        whose: the subject of the line, naming the covariance compared.
    """
    lead = f"{whose} is {number(ratio)} times that of {noise} noise at scale {number(scale)}"
    if noise == "gaussian":
        variance = scale * scale
        error = variance_units_error(ratio * variance, variance)
        if error == "variance as standard deviation":
            return f"{lead}, about sigma^2 = {number(variance)}: its noise variance is about sigma^4 - {QUESTION[error]}"
        if error == "standard deviation as variance":
            return f"{lead}, about 1/sigma: its noise variance is about sigma, not sigma^2 - {QUESTION[error]}"
        return None
    if noise == "laplace" and scale_units_error(ratio * scale * scale, scale * scale) == "rate as scale":
        # variance 2b² per draw: the scale b_o behind it has b_o² = ratio·b², and b_o ≈ 1/b is a rate
        return f"{lead}, about 1/b^4: its scale is about 1/b = {number(1 / scale)} - {QUESTION['rate as scale']}"
    return None
