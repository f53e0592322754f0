"""Exact discrete Gaussian draws by inversion of a certified CDF table, vectorised with numpy.

``N_Z(0, σ²)`` with ``P[x] = exp(-x²/(2σ²)) / Z(σ²)`` is drawn as ``X = ±|X|``: ``|X|`` by inversion of the
folded CDF ``F(m) = P[|X| <= m] = (1 + 2 Σ_{y=1..m} exp(-y²/(2σ²))) / Z``, the sign by a fair bit.

**The draw.** One ``w``-bit word per value (``w`` = ``word_bits``, 64 by default): its top ``w - 1`` bits are
the integer ``u``, the first binary digits of a uniform ``V`` in [0, 1), ``V ∈ [u/2^(w-1), (u+1)/2^(w-1))``,
whose later digits are not drawn yet; its low bit is the sign. ``|X| = min{m : V < F(m)}``.

**The table.** For ``m = 0..M``, integers ``lower[m] <= 2^(w-1) F(m) <= upper[m]``: floor and ceiling of the
ends of an Arb ball of ``2^(w-1) F(m)`` at ``w + 64`` bits (rigorous), made non-decreasing (a running maximum of
``lower`` from the left and minimum of ``upper`` from the right stay bounds, since ``F`` increases). ``M`` is the
first index whose certified tail ``2^(w-1) (1 - F(M))`` is below 1, or the table is not built (σ too large; the
caller then uses the rejection sampler).

**Deciding in the table.** ``k = #{m : upper[m] <= u}``; each such ``m`` has ``F(m) <= u/2^(w-1) <= V``, so
``|X| >= k``. If ``k <= M`` and ``u + 1 <= lower[k]`` then ``V < (u+1)/2^(w-1) <= F(k)``, so ``|X| = k``:
decided from bounds alone, never from a rounded value. Otherwise (``u`` within a rounding unit of a table
entry, or beyond the table: probability below ``3(M + 2)/2^(w-1)``, below 2**-48 for σ = 1000) the value is
*resolved exactly*: from ``m = k`` (where ``V >= F(m - 1)`` is established), compare the interval of ``V``
with an Arb enclosure of ``F(m)`` at ``length + 64`` bits: ``V`` certainly below gives ``|X| = m``, certainly
above moves to ``m + 1``, and an overlap draws one more digit of ``V`` (and raises the precision when needed).
Every step is decided from certified bounds. The loop ends with probability 1: ``V = F(m)`` has probability 0,
and otherwise, once ``2^-length`` and the enclosure's width (the precision grows with ``length``) are below
``|V - F(m)|``, the comparison is decided; the expected number of extra digits is O(1) per index visited.

**Exactness.** Given independent uniform bits, ``V`` is uniform on [0, 1) and independent of the sign bit, and
the value returned is always ``min{m : V < F(m)}`` — the table only decides cases where the bounds prove it —
so ``P[|X| = m] = F(m) - F(m-1)`` exactly, and with the sign ``P[X = ±m] = exp(-m²/(2σ²)) / Z`` (0 takes no
sign). No float enters: the table is built in Arb, the comparisons are on integers and rationals.

**Draw order** (``count`` values): one request of ``w · count`` bits; value ``i`` uses bits ``w·i .. w·i + w - 1``
of that integer counted from the least significant end (its most significant bit first as ``V``'s first
digit, its lowest bit the sign); then the undecided values, in index order, draw their further digits of
``V`` one bit at a time.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np
from flint import arb

from reference.core.certified import CertifiedReal, working_precision
from reference.core.certified import ball as _ball
from reference.core.randomness import RandomBits
from reference.samplers.pmf import discrete_gaussian_normaliser_ball

#: Largest table (entries ``0..M``): ``M`` ≈ 9.1σ at 64-bit words, so σ up to about 6 850 (σ² up to about
#: 4.7e7; decided by :func:`table_entries_needed`, which estimates 9.6σ); beyond, rejection.
MAX_TABLE_ENTRIES = 1 << 16
#: Smallest σ² given a table: below, exp(-1/(2σ²)) is beyond what a fixed-precision Arb series handles well
#: (and N_Z(0, σ²) is 0 but for a mass below exp(-2**19)); the rejection sampler serves it.
MIN_TABLE_SIGMA_SQUARED = Fraction(1, 1 << 20)
#: Word size of the production sampler: 63 bits of ``V`` and a sign bit, one numpy ``uint64`` per value.
WORD_BITS = 64
#: Guard bits of the Arb evaluations above the resolution they must decide.
_GUARD_BITS = 64


@dataclass(frozen=True)
class InversionTable:
    """Certified integer bounds ``lower[m] <= 2**(word_bits - 1) F(m) <= upper[m]`` of the folded CDF, m = 0..M."""

    sigma_squared: Fraction
    word_bits: int
    lower: np.ndarray
    upper: np.ndarray

    @property
    def last(self) -> int:
        """``M``, the last index of the table."""
        return int(self.lower.size) - 1


def table_entries_needed(sigma_squared: Fraction, word_bits: int = WORD_BITS) -> int:
    """A generous estimate of ``M + 1`` (from ``exp(-M²/(2σ²)) <= 2**-(word_bits + 1)``); decides only whether
    the table is built, never a value.

    Args:
        sigma_squared: the variance σ² > 0 of ``N_Z(0, σ²)`` (not σ), an exact ``Fraction`` (read as a float
            only for this estimate).
        word_bits: the bits w per value, an integer >= 2 (default 64: one sign bit and 63 digits of V); the tail
            must fall below 2**-(w + 1).
    """
    if sigma_squared > MAX_TABLE_ENTRIES**2:  # far beyond any table (and perhaps beyond floats)
        return MAX_TABLE_ENTRIES + 1
    sigma = math.sqrt(float(sigma_squared))
    return math.ceil(sigma * math.sqrt(2 * (word_bits + 2) * math.log(2))) + 3


def _folded_cdf_ball(m: int, sigma_squared: Fraction) -> arb:
    """A ball containing ``F(m) = P[|X| <= m]`` at the current precision (m >= 0)."""
    c = 1 / (2 * _ball(sigma_squared))
    total, gauss, step = arb(1), arb(1), (-c).exp()  # exp(-c y²), exp(-c(2y+1)) at y = 0
    decay = (-2 * c).exp()
    for _ in range(m):
        gauss *= step
        step *= decay
        total += 2 * gauss
    return total / discrete_gaussian_normaliser_ball(sigma_squared)


def _integer(value: arb) -> int:
    """The integer an exact Arb integer (a floor or ceiling of an exact endpoint) holds."""
    unique = value.unique_fmpz()
    if unique is None:
        raise ArithmeticError(f"expected an exact integer, got the ball {value}")
    return int(unique)


@lru_cache(maxsize=32)
def inversion_table(sigma_squared: Fraction, word_bits: int = WORD_BITS) -> InversionTable | None:
    """The certified table for σ² (cached), or None when it would exceed :data:`MAX_TABLE_ENTRIES` or σ² is
    below :data:`MIN_TABLE_SIGMA_SQUARED`."""
    if sigma_squared < MIN_TABLE_SIGMA_SQUARED or table_entries_needed(sigma_squared, word_bits) > MAX_TABLE_ENTRIES:
        return None
    resolution = word_bits - 1
    lower: list[int] = []
    upper: list[int] = []
    with working_precision(word_bits + _GUARD_BITS):
        c = 1 / (2 * _ball(sigma_squared))
        scale = arb(2) ** resolution / discrete_gaussian_normaliser_ball(sigma_squared)
        full = arb(2) ** resolution
        total, gauss, step = arb(1), arb(1), (-c).exp()
        decay = (-2 * c).exp()
        while True:
            scaled = total * scale
            lower.append(max(_integer(scaled.lower().floor()), 0))
            upper.append(min(_integer(scaled.upper().ceil()), 1 << resolution))
            if (full - scaled).upper() < 1 or len(lower) >= MAX_TABLE_ENTRIES:
                break
            gauss *= step
            step *= decay
            total += 2 * gauss
    # F increases, so a running maximum of lower bounds (minimum of upper bounds from the right) stays a bound
    low = np.maximum.accumulate(np.array(lower, dtype=np.uint64))
    high = np.minimum.accumulate(np.array(upper, dtype=np.uint64)[::-1])[::-1].copy()
    low.flags.writeable = False
    high.flags.writeable = False
    return InversionTable(sigma_squared, word_bits, low, high)


def _words(source: RandomBits, count: int, word_bits: int) -> np.ndarray:
    """``count`` words of ``word_bits`` bits from one request (word i = bits ``w·i ..`` from the low end)."""
    raw = source.randbits(word_bits * count)
    if word_bits == 64:
        return np.frombuffer(raw.to_bytes(8 * count, "little"), dtype="<u8").astype(np.uint64)
    mask = (1 << word_bits) - 1
    return np.array([(raw >> (word_bits * i)) & mask for i in range(count)], dtype=np.uint64)


def _resolve(prefix: int, length: int, start: int, sigma_squared: Fraction, source: RandomBits) -> int:
    """``min{m >= start : V < F(m)}`` for ``V`` with known first digits ``prefix`` (``length`` bits), given
    ``V >= F(start - 1)``: certified comparisons, one more digit of ``V`` whenever one is undecided."""
    m = start
    enclosure: CertifiedReal | None = None
    precision = 0
    while True:
        needed = length + _GUARD_BITS
        if enclosure is None or precision < needed:
            # a new index keeps the precision reached; a refinement doubles it (O(log) recomputations)
            precision = max(precision if enclosure is None else 2 * precision, needed)
            with working_precision(precision):
                enclosure = CertifiedReal.from_arb(_folded_cdf_ball(m, sigma_squared))
        if Fraction(prefix + 1, 1 << length) <= enclosure.lower:
            return m  # V < (prefix + 1)/2^length <= F(m)
        if Fraction(prefix, 1 << length) >= enclosure.upper:
            m += 1  # F(m) <= V: move on (the enclosure of the next F is computed afresh)
            enclosure = None
            continue
        prefix = 2 * prefix + source.randbits(1)
        length += 1


def inversion_draws(table: InversionTable, count: int, source: RandomBits) -> list[int]:
    """``count`` exact ``N_Z(0, σ²)`` draws with the table (draw order in the module docstring).

    Args:
        table: the certified table of σ², an :class:`InversionTable` from :func:`inversion_table` (it fixes σ²
            and the word size).
        count: the number of draws, an integer >= 0.
        source: the random bits, any :class:`reference.core.randomness.RandomBits` (``randbits``); the bits it
            gives decide the draws in the order of the module docstring.
    """
    return inversion_array(table, count, source).tolist()  # type: ignore[no-any-return]


def inversion_array(table: InversionTable, count: int, source: RandomBits) -> np.ndarray:
    """:func:`inversion_draws` as an int64 array (the same draws from the same bits), for vectorised callers.

    Args:
        table: the certified table of σ², an :class:`InversionTable` from :func:`inversion_table` (it fixes σ²
            and the word size).
        count: the number of draws, an integer >= 0 (0 gives an empty array and draws no bits).
        source: the random bits, any :class:`reference.core.randomness.RandomBits` (``randbits``); the bits it
            gives decide the draws in the order of the module docstring.
    """
    if count == 0:
        return np.zeros(0, dtype=np.int64)
    words = _words(source, count, table.word_bits)
    digits = words >> np.uint64(1)
    negative = (words & np.uint64(1)).astype(bool)
    found = np.searchsorted(table.upper, digits, side="right")
    within = np.minimum(found, table.last)
    decided = (found <= table.last) & (digits + np.uint64(1) <= table.lower[within])
    magnitude = found.astype(np.int64)
    values = np.where(negative, -magnitude, magnitude)
    for index in np.flatnonzero(~decided).tolist():
        size = _resolve(int(digits[index]), table.word_bits - 1, int(found[index]), table.sigma_squared, source)
        values[index] = -size if negative[index] else size
    return values


__all__ = ["MAX_TABLE_ENTRIES", "MIN_TABLE_SIGMA_SQUARED", "WORD_BITS", "InversionTable", "inversion_array", "inversion_draws",
           "inversion_table"]
