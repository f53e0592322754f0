"""Input validation shared by every public function.

Every check raises ``ValueError`` (wrong value) or ``TypeError`` (wrong kind) with a message that names the
parameter and says what it accepts, so that the command line can print it as a one-line error.
"""

from __future__ import annotations

import math
import numbers
import re
from fractions import Fraction
from typing import TypeAlias

from reference.core.options import Neighbours as Neighbours
from reference.core.options import check_choice

#: Anything that converts to an exact rational without rounding. Python floats are refused on purpose:
#: ``0.1`` is not 1/10, and an exact layer must not silently inherit binary rounding.
RationalLike: TypeAlias = "int | Fraction | str"
#: A real parameter of the numeric layer (a float is fine there; it is checked finite).
RealLike: TypeAlias = "float | int | Fraction | str"

NEIGHBOURS: tuple[Neighbours, ...] = ("add_remove", "substitution")

#: Largest depth the exact layer accepts; 2**30 leaves is far beyond anything an exact computation can hold.
MAX_EXACT_DEPTH = 30

#: Bounds on a number written as text (command line, files, strings given to the API). They keep the exact
#: rational small enough to build at once: 10**10000 is a 33,000-bit integer; 10**(10**9) would take minutes.
MAX_NUMBER_DIGITS = 5_000
MAX_DECIMAL_EXPONENT = 10_000
#: Largest numerator or denominator, in bits, of an int or Fraction given to the exact API: twice the bits of
#: 10**15000 (the largest a text number can make), so squares of accepted values (Δ² from Δ) still pass, while
#: a 2**100000 denominator (a computation without end at its precision) is refused.
MAX_EXACT_BITS = 2 * (10**15000).bit_length()
#: Integers written as text (counts such as a depth, an arity, a horizon or a seed) have at most this many digits.
MAX_INTEGER_DIGITS = 30

_DECIMAL = re.compile(r"[+-]?(?P<int>[0-9]*)(?:\.(?P<frac>[0-9]*))?(?:[eE](?P<exp>[+-]?[0-9]+))?")
_RATIO = re.compile(r"[+-]?(?P<num>[0-9]+)/(?P<den>[0-9]+)")
_INTEGER = re.compile(r"[+-]?[0-9]+")
NUMBER_FORMS = "an ASCII decimal such as 0.25, a ratio p/q such as 1/3, or scientific notation such as 1e-6"


def parse_rational_text(text: str, name: str) -> Fraction:
    """Read an exact rational from text: ASCII decimal, ``p/q`` or scientific notation, nothing else.

    Refused with a ``ValueError`` naming ``name``: other scripts' digits (``٣``, ``１２``), underscores
    (``1_000``), ``nan``/``inf``, a zero denominator, more than ``MAX_NUMBER_DIGITS`` digits or an exponent
    beyond ±``MAX_DECIMAL_EXPONENT`` — checked before any big number is built.

    Args:
        text: the number as written: ASCII decimal (``0.25``), ratio ``p/q`` (``1/3``) or scientific notation
            (``1e-6``), with an optional sign; surrounding whitespace is ignored.
        name: the parameter's name, as the refusal names it.
    """
    stripped = text.strip()
    decimal = _DECIMAL.fullmatch(stripped)
    ratio = None if decimal else _RATIO.fullmatch(stripped)
    if decimal is not None and (decimal["int"] or decimal["frac"]):
        digits = len(decimal["int"] or "") + len(decimal["frac"] or "")
        exponent_text = (decimal["exp"] or "0").lstrip("+-").lstrip("0") or "0"
        if digits > MAX_NUMBER_DIGITS:
            raise ValueError(f"{name} has {digits} digits; at most {MAX_NUMBER_DIGITS} are accepted")
        if len(exponent_text) > 6 or int(exponent_text) > MAX_DECIMAL_EXPONENT:
            raise ValueError(
                f"{name} has the exponent {decimal['exp']}; exponents from -{MAX_DECIMAL_EXPONENT} to "
                f"{MAX_DECIMAL_EXPONENT} are accepted"
            )
        mantissa = _integer_from_digits((decimal["int"] or "") + (decimal["frac"] or ""))
        power = int(decimal["exp"] or "0") - len(decimal["frac"] or "")
        value = Fraction(mantissa * 10**power) if power >= 0 else Fraction(mantissa, 10**-power)
        return -value if stripped.startswith("-") else value
    if ratio is not None:
        if len(ratio["num"]) + len(ratio["den"]) > MAX_NUMBER_DIGITS:
            raise ValueError(f"{name} has more than {MAX_NUMBER_DIGITS} digits")
        denominator = _integer_from_digits(ratio["den"])
        if denominator == 0:
            raise ValueError(f"{name} has a zero denominator: {text!r}")
        value = Fraction(_integer_from_digits(ratio["num"]), denominator)
        return -value if stripped.startswith("-") else value
    raise ValueError(f"{name} must be {NUMBER_FORMS}; got {text!r}")


def _integer_from_digits(digits: str) -> int:
    """The integer of an ASCII digit string; FLINT reads one past Python's 4,300-digit ``int(str)`` guard (the
    digit counts here are bounded by MAX_NUMBER_DIGITS, so the conversion is quick)."""
    if len(digits) < 4_000:
        return int(digits)
    from flint import fmpz

    return int(fmpz(digits))


def parse_integer_text(text: str, name: str) -> int:
    """Read an integer from text: ASCII digits with an optional sign, at most ``MAX_INTEGER_DIGITS`` digits.

    Args:
        text: the integer as written: ASCII digits with an optional sign, at most ``MAX_INTEGER_DIGITS`` = 30 digits;
            surrounding whitespace is ignored.
        name: the parameter's name, as the refusal names it.
    """
    stripped = text.strip()
    if not _INTEGER.fullmatch(stripped):
        raise ValueError(f"{name} must be an integer written in ASCII digits (such as 12); got {text!r}")
    if len(stripped.lstrip("+-")) > MAX_INTEGER_DIGITS:
        raise ValueError(f"{name} has more than {MAX_INTEGER_DIGITS} digits; got {text[:40]!r}...")
    return int(stripped)


def to_fraction(value: object, name: str) -> Fraction:
    """Convert ``value`` to an exact ``Fraction``.

    Accepts ``int``, ``Fraction`` and strings such as ``"1/3"``, ``"0.25"``, ``"1e-6"`` (decimal strings are
    read exactly). Refuses ``float`` and ``bool`` with a ``TypeError`` naming ``name``.

    Args:
        value: anything the caller was given: accepted when it is an ``int`` (not a bool) or a ``Fraction`` whose
            numerator and denominator have at most ``MAX_EXACT_BITS`` bits, or a string :func:`parse_rational_text`
            reads; a float is refused (it is not the decimal it prints as).
        name: the parameter's name, as the refusal names it.
    """
    if type(value) is Fraction:  # the common cases first (a subclass takes the general route below)
        return _bounded(value, name)
    if type(value) is int:
        return _bounded(Fraction(value), name)
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an exact rational (int, Fraction or a string like '1/3'), not bool")
    if isinstance(value, (Fraction, int, numbers.Integral)):
        return _bounded(value if isinstance(value, Fraction) else Fraction(int(value)), name)
    if isinstance(value, str):
        return parse_rational_text(value, name)
    if isinstance(value, float):
        raise TypeError(
            f"{name} must be an exact rational, not the float {value!r}: pass a string such as "
            f"'{value!r}' or a Fraction so that no binary rounding enters an exact result"
        )
    raise TypeError(f"{name} must be an exact rational (int, Fraction or str), got {type(value).__name__}")


def _bounded(value: Fraction, name: str) -> Fraction:
    """``value`` if its numerator and denominator have at most :data:`MAX_EXACT_BITS` bits, else a refusal."""
    bits = max(value.numerator.bit_length(), value.denominator.bit_length())
    if bits > MAX_EXACT_BITS:
        raise ValueError(
            f"{name} has a {bits}-bit numerator or denominator; at most {MAX_EXACT_BITS} bits are accepted "
            "(the squares of the numbers the text reader takes: 5,000 digits, exponents within ±10,000)"
        )
    return value


def to_real(value: object, name: str) -> float:
    """Convert ``value`` to a finite float for the numeric layer (ints, Fractions, strings and floats).

    Args:
        value: anything the caller was given: accepted when it is a finite real number (float, int, Fraction, a numpy
            real scalar; not a bool) or a string :func:`parse_rational_text` reads, within float range.
        name: the parameter's name, as the refusal names it.
    """
    if isinstance(value, bool):
        raise TypeError(f"{name} must be a real number, not bool")
    if isinstance(value, str):
        exact = parse_rational_text(value, name)
        try:
            result = float(exact)
        except OverflowError:
            raise ValueError(f"{name} is too large for a float; got {value[:40]!r}") from None
    elif isinstance(value, numbers.Real):
        if isinstance(value, (Fraction, int)):
            _bounded(Fraction(value), name)
        try:
            result = float(value)
        except OverflowError:
            raise ValueError(f"{name} is too large for a float") from None
    else:
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    if not math.isfinite(result):
        raise ValueError(f"{name} must be finite; got {value!r}")
    return result


def check_depth(depth: object, name: str = "depth", *, minimum: int = 0, maximum: int = MAX_EXACT_DEPTH) -> int:
    """Return ``depth`` as an int after checking it is an integer in ``[minimum, maximum]``.

    Args:
        depth: anything the caller passed as the depth: accepted when it is an integer (not a bool) in [``minimum``,
            ``maximum``].
        name: the parameter's name, as the refusal names it (default ``"depth"``).
        minimum: the smallest depth accepted (default 0).
        maximum: the largest depth accepted (default ``MAX_EXACT_DEPTH`` = 30).
    """
    if isinstance(depth, bool) or not isinstance(depth, numbers.Integral):
        raise TypeError(f"{name} must be an integer in [{minimum}, {maximum}], got {depth!r}")
    value = int(depth)
    if not minimum <= value <= maximum:
        raise ValueError(f"{name} must be an integer in [{minimum}, {maximum}], got {count_text(value)}")
    return value


def check_positive_int(value: object, name: str, *, minimum: int = 1) -> int:
    """Return ``value`` as an int after checking it is an integer at least ``minimum``.

    Args:
        value: anything the caller passed: accepted when it is an integer (not a bool) >= ``minimum``.
        name: the parameter's name, as the refusal names it.
        minimum: the smallest value accepted (default 1).
    """
    if type(value) is int and value >= minimum:  # the common case, without the slow numbers.Integral ABC check
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer >= {minimum}, got {value!r}")
    result = int(value)
    if result < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {count_text(result)}")
    return result


def positive_fraction(value: object, name: str) -> Fraction:
    """An exact rational strictly greater than zero.

    Args:
        value: anything the caller was given: accepted as by :func:`to_fraction` (int, Fraction or exact text; no float)
            when it is > 0.
        name: the parameter's name, as the refusal names it.
    """
    result = to_fraction(value, name)
    if result.numerator <= 0:  # the denominator is positive
        raise ValueError(f"{name} must be > 0, got {describe(result)}")
    return result


def open_unit_fraction(value: object, name: str) -> Fraction:
    """An exact rational in the open interval (0, 1), as a privacy ``delta`` must be.

    Args:
        value: anything the caller was given: accepted as by :func:`to_fraction` (int, Fraction or exact text; no float)
            when it is strictly between 0 and 1.
        name: the parameter's name, as the refusal names it.
    """
    result = to_fraction(value, name)
    if not 0 < result.numerator < result.denominator:  # 0 < result < 1, the denominator being positive
        raise ValueError(f"{name} must be in the open interval (0, 1), got {describe(result)}")
    return result


#: Smallest relative tolerance of a certified bisection: each halving costs a certified evaluation, and past
#: 1e-100 the rationals grow for nothing any decimal output can show (1e-5000 never ended).
MIN_TOLERANCE = Fraction(1, 10**100)


def tolerance_fraction(value: object, name: str = "tolerance") -> Fraction:
    """A bisection's relative tolerance: an exact rational in [1e-100, 1).

    Args:
        value: anything the caller was given: accepted as by :func:`to_fraction` (int, Fraction or exact text; no float)
            when it is in [1e-100, 1).
        name: the parameter's name, as the refusal names it (default ``"tolerance"``).
    """
    result = open_unit_fraction(value, name)
    if result.numerator * MIN_TOLERANCE.denominator < MIN_TOLERANCE.numerator * result.denominator:
        raise ValueError(f"{name} must be at least 1e-100, got {describe(result)}")
    return result


#: Default memory limit of a numeric sampler call; a keyword ``max_gib`` raises it where the machine has room.
DEFAULT_MAX_GIB = 2.0


def check_float_memory(values: int, max_gib: object, what: str) -> None:
    """Cost before work for the numeric samplers: ``values`` float64 values must fit in ``max_gib`` GiB.

    Args:
        values: how many float64 values the computation would hold at once, an integer >= 0 (of any size: the comparison
            is exact).
        max_gib: anything the caller passed as ``max_gib``: accepted when it is a finite real number > 0
            (:func:`positive_real`), the memory limit in GiB (the samplers' default is DEFAULT_MAX_GIB = 2).
        what: the computation, as the refusal names it (``"depth 12"``, ``"3 sample(s) of 64 leaves"``).
    """
    limit = positive_real(max_gib, "max_gib")
    # Fraction, not float: a size of 10**4000 values has no float quotient ("too large for a float")
    needed = Fraction(8 * values, 2**30)
    if needed > Fraction(limit):
        shown = f"about {float(needed):.3g}" if needed < 10**300 else describe(needed)
        raise ValueError(
            f"{what} needs {shown} GiB of float64 values, over max_gib = {limit:g}: pass a larger "
            "max_gib if the machine has the memory"
        )


def positive_real(value: object, name: str) -> float:
    """A finite float strictly greater than zero (numeric layer).

    Args:
        value: anything the caller was given: accepted as by :func:`to_real` (float, int, Fraction or text) when it
            is > 0.
        name: the parameter's name, as the refusal names it.
    """
    result = to_real(value, name)
    if result <= 0:  # the float, not the input's repr (a Fraction of 66,000 bits has none within int limits)
        raise ValueError(f"{name} must be > 0, got {result!r}")
    return result


def check_neighbours(value: object, name: str = "neighbours") -> Neighbours:
    """One of the two neighbouring relations: ``add_remove`` (one count changes by one) or ``substitution``.

    Args:
        value: anything the caller passed: accepted when it is the string ``"add_remove"`` or ``"substitution"``.
        name: the parameter's name, as the refusal names it (default ``"neighbours"``).
    """
    return check_choice(value, name, NEIGHBOURS)


def _integer_text(value: int) -> str:
    # Python refuses str() of integers over 4300 digits (a guard against quadratic conversion); inputs here are
    # bounded (MAX_NUMBER_DIGITS, MAX_DECIMAL_EXPONENT), so exact outputs stay within tens of thousands of digits,
    # which FLINT converts quickly and without that limit.
    if value.bit_length() < 14_000:
        return str(value)
    from flint import fmpz

    return str(fmpz(value))


def fraction_text(value: Fraction) -> str:
    """The JSON form of an exact rational: ``"p/q"``, or ``"p"`` for an integer.

    Args:
        value: the exact rational to write (of any size; integers over 4,300 digits are written through FLINT).
    """
    if value.denominator == 1:
        return _integer_text(value.numerator)
    return f"{_integer_text(value.numerator)}/{_integer_text(value.denominator)}"


def floor_log10(magnitude: Fraction) -> int:
    """floor(log10(magnitude)) for a positive rational, exactly.

    A bit-length estimate (off by at most a few units; the float only chooses where to start) is corrected
    with exact integer comparisons, so values such as 1e-200000 (δ(ε) at huge σ/Δ) are handled without
    converting huge integers to strings.

    Args:
        magnitude: a rational > 0 (exact; of any size).
    """
    numerator, denominator = magnitude.numerator, magnitude.denominator
    exponent = int((numerator.bit_length() - denominator.bit_length()) * 0.30102999566398120)
    # magnitude / 10**exponent = left / right, with the power built once: each correction is a product by 10 (a
    # fresh 10**e per step cost 1.5 s at δ near 2**-(2**20), whose power has 315,653 digits)
    left, right = (numerator, denominator * 10**exponent) if exponent >= 0 else (numerator * 10**-exponent, denominator)
    while left < right:  # magnitude < 10**exponent
        exponent -= 1
        left *= 10
    while left >= 10 * right:  # magnitude >= 10**(exponent + 1)
        exponent += 1
        right *= 10
    return exponent


def count_text(count: int) -> str:
    """An integer for a message: its digits up to 10**15, else its magnitude (a count of 10**4000 would
    print 4,000 digits).

    Args:
        count: the integer to write (of any size and sign).
    """
    return str(count) if abs(count) < 10**15 else describe(Fraction(count))


def describe(value: Fraction) -> str:
    """A rational for an error message: exact when short, else about 6 significant digits (``≈ 1.0e+308``).

    Args:
        value: the exact rational to write (of any size and sign).
    """
    text = fraction_text(value)
    if len(text) <= 40:
        return text
    if value == 0:
        return "0"
    magnitude = abs(value)
    exponent = floor_log10(magnitude)
    mantissa = magnitude / Fraction(10) ** exponent
    sign = "-" if value < 0 else ""
    return f"≈ {sign}{float(mantissa):.6g}e{exponent:+d}"


def nonnegative_fraction(value: object, name: str) -> Fraction:
    """An exact rational >= 0 (for example ε = 0, where δ(0) is the total variation distance).

    Args:
        value: anything the caller was given: accepted as by :func:`to_fraction` (int, Fraction or exact text; no float)
            when it is >= 0.
        name: the parameter's name, as the refusal names it.
    """
    result = to_fraction(value, name)
    if result < 0:
        raise ValueError(f"{name} must be >= 0, got {describe(result)}")
    return result


def sequence_of(value: object, name: str, what: str) -> list[object]:
    """``value`` as a non-empty list, or one line naming ``name`` and ``what`` it must be. A NumPy array is read
    through ``tolist()`` (so its entries are Python numbers, and a float entry is refused by the exact reader);
    a string, a mapping, a set or a scalar is not a sequence here (``'12'`` would otherwise read as two entries).

    Args:
        value: anything the caller was given: accepted when it is a non-empty list, tuple or range, or an object with
            ``tolist()`` (a NumPy array) that gives one; a string, bytes, a mapping, a set or a scalar is refused.
        name: the parameter's name, as the refusal names it.
        what: what the sequence must be, as the refusal says it (``"a sequence of vectors"``).
    """
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        value = value.tolist()
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple, range)):
        raise TypeError(f"{name} must be {what}, got {type(value).__name__}")
    if len(value) == 0:
        raise ValueError(f"{name} must be {what} with at least one entry, got an empty sequence")
    return list(value)


def exact_vectors(value: object, name: str) -> list[list[Fraction]]:
    """A non-empty sequence of non-empty vectors of exact rationals (difference vectors ``q(x) - q(x')``); each
    refusal names the entry (``sensitivity_vectors[1][0]``).

    Args:
        value: anything the caller was given: accepted when it is a non-empty sequence (:func:`sequence_of`) of
            non-empty sequences of exact rationals (:func:`to_fraction`); rows may differ in length.
        name: the parameter's name, as the refusal names it (its entries are named ``name[row][column]``).
    """
    vectors = sequence_of(value, name, "a sequence of vectors (lists of exact rationals)")
    result = [
        [to_fraction(entry, f"{name}[{row}][{column}]")
         for column, entry in enumerate(sequence_of(vector, f"{name}[{row}]", "a list of exact rationals"))]
        for row, vector in enumerate(vectors)
    ]
    # each vector is a difference of two outputs of one query: one length (a ragged list is a wrong shape)
    lengths = sorted({len(vector) for vector in result})
    if len(lengths) > 1:
        raise ValueError(f"{name}: every vector must have the same length (the query's output dimension), got "
                         f"lengths {', '.join(str(length) for length in lengths[:5])}")
    return result
