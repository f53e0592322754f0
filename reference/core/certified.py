"""Certified real numbers: an exact rational enclosure ``lower <= x <= upper`` of an irrational value.

Every irrational result of the privacy layer (a σ that involves a logarithm, a δ that involves the normal
CDF) is reported as a :class:`CertifiedReal`, never as a bare float. The enclosures come from python-flint's
Arb ball arithmetic (rigorous error bounds: the true value is guaranteed to lie in the ball), converted
*exactly* to ``Fraction`` endpoints — an Arb ball is a dyadic midpoint with a dyadic radius, so nothing is
rounded in the conversion.

Comparisons with an exact threshold are decided on the exact endpoints (:meth:`CertifiedReal.certainly_le`
and friends), so a comparison is never decided from a ball that contains the threshold.

:func:`working_precision` sets flint's global ``ctx.prec`` for a block and restores it afterwards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction

from flint import arb, ctx, fmpq

from reference.core.certified_errors import EnclosureRangeError as EnclosureRangeError
from reference.core.certified_errors import UndecidedComparisonError as UndecidedComparisonError
from reference.core.exact_text import exact_text
from reference.core.exact_text import format_directed as format_directed
from reference.core.exact_text import format_significant as format_significant
from reference.core.options import Rounding as Rounding
from reference.core.validate import RationalLike, check_positive_int, fraction_text, to_fraction

#: Significant digits a decimal rendering must carry at least (a real in JSON output carries >= 15).
MIN_DECIMAL_DIGITS = 15


@contextmanager
def working_precision(bits: int) -> Iterator[None]:
    """Run a block with flint's (global) ``ctx.prec`` set to ``bits``, restoring the old value after.

    Args:
        bits: the working precision of flint's Arb arithmetic inside the block, in bits (an integer >= 2).
    """
    saved = ctx.prec
    ctx.prec = bits
    try:
        yield
    finally:
        ctx.prec = saved


#: Binary exponent range kept exactly: a ball endpoint of magnitude below 2**-EXPONENT_LIMIT is widened
#: outward to ±2**-EXPONENT_LIMIT (exact Fractions of values like exp(-10**10) would need gigabytes); one
#: above 2**EXPONENT_LIMIT is refused. 2**-(2**20) is about 1e-315653.
EXPONENT_LIMIT = 1 << 20
_TINY = Fraction(1, 1 << EXPONENT_LIMIT)  # built once: 2**-EXPONENT_LIMIT


def _exact_parts(value: arb) -> tuple[int, int]:
    """(mantissa, exponent) of an exact Arb number (a midpoint or a radius): value = mantissa * 2**exponent."""
    mantissa, exponent = value.man_exp()
    return int(mantissa), int(exponent)


def _as_fraction(mantissa: int, exponent: int) -> Fraction:
    return Fraction(mantissa << exponent) if exponent >= 0 else Fraction(mantissa, 1 << -exponent)


def _is_tiny(mantissa: int, exponent: int) -> bool:
    """|mantissa * 2**exponent| < 2**-EXPONENT_LIMIT (or zero): too small to keep exactly."""
    return mantissa == 0 or exponent + abs(mantissa).bit_length() <= -EXPONENT_LIMIT


def _check_not_huge(mantissa: int, exponent: int) -> None:
    if exponent + abs(mantissa).bit_length() > EXPONENT_LIMIT:
        raise EnclosureRangeError(
            f"an intermediate value exceeds 2**{EXPONENT_LIMIT}, beyond the exact range: the parameters are too "
            "extreme for this computation"
        )


#: The direction a single printed decimal of a certified value is rounded in: "up" (toward +∞) for a value a
#: mechanism achieves or a sufficient one (ε, δ, σ, an error bound), "down" for one that must not be exceeded.


def check_rounding(rounded: object) -> Rounding:
    """``rounded`` as a :data:`Rounding`, else ``ValueError`` naming the accepted values.

    Args:
        rounded: anything the caller passed: accepted when it is ``"up"`` (a bound that must not be undercut) or
            ``"down"`` (one that must not be exceeded).
    """
    if rounded == "up":
        return "up"
    if rounded == "down":
        return "down"
    raise ValueError(f"rounded must be 'up' or 'down', got {rounded!r}")


@dataclass(frozen=True)
class CertifiedReal:
    """A real number known to lie in the closed interval ``[lower, upper]`` (exact rational endpoints).

    A degenerate interval (``lower == upper``) is an exactly known value.
    """

    lower: Fraction
    upper: Fraction

    def __post_init__(self) -> None:
        lower, upper = self.lower, self.upper
        for name, value in (("lower", lower), ("upper", upper)):
            if not isinstance(value, Fraction):
                raise TypeError(f"CertifiedReal.{name} must be a Fraction, got {type(value).__name__}")
        # lower > upper on the integers (denominators are positive): a Fraction comparison costs several times more
        if lower.numerator * upper.denominator > upper.numerator * lower.denominator:
            raise ValueError(f"CertifiedReal needs lower <= upper, got [{self.lower}, {self.upper}]")

    @classmethod
    def from_arb(cls, ball: arb) -> CertifiedReal:
        """The exact enclosure ``[mid - rad, mid + rad]`` of an Arb ball (which must be finite).

        Exact, except that a midpoint or radius below 2**-EXPONENT_LIMIT in magnitude is widened outward
        (the result is then still an enclosure, but too wide for :meth:`decimal`).

        Args:
            ball: a finite ``flint.arb`` ball.
        """
        if not isinstance(ball, arb):
            raise TypeError(f"ball must be a flint.arb, got {type(ball).__name__}")
        if not ball.is_finite():
            raise ArithmeticError(f"the Arb ball {ball} is not finite: no enclosure to certify")
        middle_parts, radius_parts = _exact_parts(ball.mid()), _exact_parts(ball.rad())
        _check_not_huge(*middle_parts)
        _check_not_huge(*radius_parts)
        # values below 2**-EXPONENT_LIMIT are replaced by 0 with that much extra radius (outward, so still
        # an enclosure), instead of Fractions with astronomically large denominators
        middle = Fraction(0) if _is_tiny(*middle_parts) else _as_fraction(*middle_parts)
        radius = _TINY if _is_tiny(*radius_parts) else _as_fraction(*radius_parts)
        if radius_parts[0] == 0:
            radius = Fraction(0)
        if middle_parts[0] != 0 and _is_tiny(*middle_parts):
            radius += _TINY
        return cls(middle - radius, middle + radius)

    @classmethod
    def exact(cls, value: RationalLike, name: str = "value") -> CertifiedReal:
        """A degenerate enclosure of an exactly known rational.

        Args:
            value: the rational, exact (int, Fraction or str such as ``"1/3"``; not float).
            name: the parameter name an error message uses (default ``value``).
        """
        number = to_fraction(value, name)
        return cls(number, number)

    @property
    def midpoint(self) -> Fraction:
        """The centre of the enclosure."""
        return (self.lower + self.upper) / 2

    @property
    def width(self) -> Fraction:
        """``upper - lower``."""
        return self.upper - self.lower

    def relative_width(self) -> Fraction:
        """``width / min |endpoint|``: how many digits the enclosure certifies (inf-like if it contains 0)."""
        if self.lower <= 0 <= self.upper:
            if self.width == 0:
                return Fraction(0)
            raise ArithmeticError("the enclosure contains 0: its relative width is unbounded")
        return self.width / min(abs(self.lower), abs(self.upper))

    def contains(self, value: RationalLike) -> bool:
        """Whether the exact rational ``value`` lies in ``[lower, upper]``.

        Args:
            value: the rational to test, exact (int, Fraction or str such as ``"1/3"``; not float).
        """
        number = to_fraction(value, "value")
        return self.lower <= number <= self.upper

    def certainly_le(self, threshold: Fraction) -> bool:
        """True when every point of the enclosure is ``<= threshold`` (so the real value is).

        Args:
            threshold: the exact rational to compare with, a ``Fraction``.
        """
        return self.upper <= threshold

    def certainly_lt(self, threshold: Fraction) -> bool:
        """True when every point of the enclosure is ``< threshold``.

        Args:
            threshold: the exact rational to compare with, a ``Fraction``.
        """
        return self.upper < threshold

    def certainly_gt(self, threshold: Fraction) -> bool:
        """True when every point of the enclosure is ``> threshold``.

        Args:
            threshold: the exact rational to compare with, a ``Fraction``.
        """
        return self.lower > threshold

    def certainly_ge(self, threshold: Fraction) -> bool:
        """True when every point of the enclosure is ``>= threshold``.

        Args:
            threshold: the exact rational to compare with, a ``Fraction``.
        """
        return self.lower >= threshold

    def _decide(self, other: RationalLike, holds_everywhere: bool, fails_everywhere: bool, symbol: str) -> bool:
        if holds_everywhere:
            return True
        if fails_everywhere:
            return False
        raise UndecidedComparisonError(
            f"x {symbol} {exact_text(to_fraction(other, 'threshold'))} is undecided: the enclosure {self.bounds()} "
            "contains points on both sides (compute the value at a higher precision)"
        )

    def __lt__(self, other: RationalLike) -> bool:
        """``x < other`` for the enclosed x: decided from the exact endpoints, raising
        :class:`UndecidedComparisonError` only when ``other`` lies inside the enclosure."""
        t = to_fraction(other, "threshold")
        return self._decide(t, self.upper < t, self.lower >= t, "<")

    def __le__(self, other: RationalLike) -> bool:
        """``x <= other``, decided as :meth:`__lt__`."""
        t = to_fraction(other, "threshold")
        return self._decide(t, self.upper <= t, self.lower > t, "<=")

    def __gt__(self, other: RationalLike) -> bool:
        """``x > other``, decided as :meth:`__lt__`."""
        t = to_fraction(other, "threshold")
        return self._decide(t, self.lower > t, self.upper <= t, ">")

    def __ge__(self, other: RationalLike) -> bool:
        """``x >= other``, decided as :meth:`__lt__`."""
        t = to_fraction(other, "threshold")
        return self._decide(t, self.lower >= t, self.upper < t, ">=")

    def decimal(self, digits: int = 20, *, rounded: Rounding) -> str:
        """The enclosed value to ``digits`` (>= 15) significant digits, rounded in the direction its use needs.

        ``rounded="up"`` prints the upper endpoint rounded toward +∞, so the decimal is >= the true value (an ε
        or δ a mechanism achieves, a sufficient σ, an error bound); ``"down"`` the lower endpoint toward −∞
        (a value that must not be exceeded: a largest admissible ρ, a lower bound). Only digits the enclosure
        backs are printed: the relative width must be at most ``10**-digits`` (so the string is within two
        units in its last place of every point of the enclosure), else ``ArithmeticError``. The enclosures
        this package produces are about 2**-80 wide (24 digits), so the default 20 digits are available.

        Args:
            digits: significant digits, an integer >= 15 (default 20).
            rounded: ``"up"`` (the printed value is >= every point of the enclosure) or ``"down"`` (<= every point).
        """
        digits = check_positive_int(digits, "digits", minimum=MIN_DECIMAL_DIGITS)
        if not self.certifies(digits):
            # undecided, not a defect: the CLI and the harness answer it with a one-line refusal
            raise UndecidedComparisonError(
                f"the enclosure {self.bounds()} does not certify {digits} significant digits; compute it at a "
                "higher precision"
            )
        upward = check_rounding(rounded) == "up"
        return format_directed(self.upper if upward else self.lower, digits, upward=upward)

    def certifies(self, digits: int = 20) -> bool:
        """Whether the enclosure is narrow enough for :meth:`decimal` to print ``digits`` digits.

        Args:
            digits: significant digits, a positive integer (default 20).
        """
        return self.width == 0 or (0 not in (self.lower, self.upper) and self.lower * self.upper > 0
                                   and self.relative_width() <= Fraction(1, 10**digits))

    def text(self, digits: int = 15, *, rounded: Rounding) -> str:
        """:meth:`decimal` when the enclosure certifies ``digits`` digits, else the one-sided bound the use needs
        (``"<= 1.0e-315652"`` for ``rounded="up"``, ``">= ..."`` for ``"down"``): a value far below the exact
        range (δ of a heavily over-noised mechanism) is still reported, as a certified bound.

        Args:
            digits: significant digits, a positive integer (default 15); below 15 only the bound is printed.
            rounded: ``"up"`` (the printed value is >= every point of the enclosure) or ``"down"`` (<= every point).
        """
        if self.certifies(digits):
            return self.decimal(digits, rounded=rounded)
        if check_rounding(rounded) == "up":
            return "<= " + format_directed(self.upper, digits, upward=True)
        return ">= " + format_directed(self.lower, digits, upward=False)

    def __repr__(self) -> str:
        """``CertifiedReal([lower, upper])`` rounded outward to 17 digits (the exact ends are the fields)."""
        return f"{type(self).__name__}({self.bounds(17)})"

    def bounds(self, digits: int = 6) -> str:
        """``[lower, upper]`` printed with ``digits`` significant digits, rounded outward (still an enclosure).

        Args:
            digits: significant digits of each endpoint, a positive integer (default 6).
        """
        return (
            f"[{format_directed(self.lower, digits, upward=False)}, "
            f"{format_directed(self.upper, digits, upward=True)}]"
        )

    def as_json(self, rounded: Rounding) -> dict[str, str | None]:
        """JSON form: exact endpoints as ``"p/q"`` strings, a 20-digit decimal rounded in the safe direction
        ``rounded`` (see :meth:`decimal`; ``null`` when the enclosure does not certify 20 digits), that direction
        (``"rounded"``), and the endpoints rounded outward to 15 digits (``"bounds"``).

        Args:
            rounded: ``"up"`` (the printed value is >= every point of the enclosure) or ``"down"`` (<= every point), for
                the ``decimal`` field.
        """
        return {
            "lower": fraction_text(self.lower),
            "upper": fraction_text(self.upper),
            "decimal": self.decimal(rounded=rounded) if self.certifies() else None,
            "rounded": check_rounding(rounded),
            "bounds": self.bounds(15),
        }

    def __float__(self) -> float:
        """The float nearest the midpoint (correctly rounded): for plotting and numeric code, not for claims."""
        return float(self.midpoint)

    def __str__(self) -> str:
        """The enclosure rounded outward (a single decimal needs a direction: :meth:`decimal`)."""
        return self.bounds()


def ball(value: Fraction) -> arb:
    """An Arb ball containing the exact rational ``value`` (at the current working precision).

    Args:
        value: the exact rational to enclose (its numerator and denominator are read exactly; the ball is rounded only
            at the working precision).
    """
    return arb(fmpq(value.numerator, value.denominator))


#: Relative accuracy (bits) of every reported enclosure, the one precision policy of the package: 2**-80 is about
#: 24 significant digits. Modules choose their own working budgets (start and cap) to reach it.
TARGET_ACCURACY_BITS = 80
#: Extra working bits the standard enclosure starts with, and the cap past which it is declared undecidable.
START_PRECISION = 64
MAX_PRECISION = 1 << 15


def certify(compute: Callable[[], arb], *, label: str) -> CertifiedReal:
    """:func:`enclose` with the standard budget: TARGET_ACCURACY_BITS, starting at START_PRECISION extra bits.

    Args:
        compute: the zero-argument Arb expression, evaluated again at each working precision (it reads flint's
            ``ctx.prec``).
        label: what ``compute`` computes, named in the UndecidedComparisonError if it cannot be enclosed.
    """
    return enclose(
        compute,
        label,
        start_bits=START_PRECISION + TARGET_ACCURACY_BITS,
        target_bits=TARGET_ACCURACY_BITS,
        max_bits=MAX_PRECISION,
    )


def next_precision(precision: int, ceiling: int = MAX_PRECISION) -> int:
    """The next rung of a precision ladder: doubled, except that the ceiling itself is the last rung (from 144
    bits, doubling goes from 18,432 straight past 32,768, so a ladder bounded by it would stop a rung short).

    Args:
        precision: the current rung of the ladder, in bits (an integer >= 1).
        ceiling: the last rung, in bits (default MAX_PRECISION = 32,768 bits): returned itself when doubling would step
            over it.
    """
    return ceiling if precision < ceiling < 2 * precision else 2 * precision


def enclose(
    compute: Callable[[], arb], label: str, *, start_bits: int, target_bits: int, max_bits: int
) -> CertifiedReal:
    """Evaluate the zero-argument Arb expression ``compute`` at doubling precision, from ``start_bits`` up to
    ``max_bits``, until its relative accuracy reaches ``target_bits``; raise :class:`UndecidedComparisonError`
    naming ``label`` otherwise.

    Args:
        compute: the zero-argument Arb expression, evaluated again at each working precision (it reads flint's
            ``ctx.prec``).
        label: what ``compute`` computes, named in the UndecidedComparisonError if it cannot be enclosed.
        start_bits: the first working precision, in bits.
        target_bits: the relative accuracy the enclosure must reach, in bits (Arb's ``rel_accuracy_bits``).
        max_bits: the largest working precision tried, in bits; past it the enclosure is declared undecidable.
    """
    precision = start_bits
    while precision <= max_bits:
        with working_precision(precision):
            result = compute()
        if isinstance(result, arb) and result.is_finite() and result.rel_accuracy_bits() >= target_bits:
            return CertifiedReal.from_arb(result)
        precision = next_precision(precision, max_bits)
    raise UndecidedComparisonError(f"could not enclose {label} to {target_bits} bits")
