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
caller then uses the rejection sampler). A *one-sided* table (``one_sided=True``, for the blocked sampler's block
index) tabulates ``G(m) = Σ_{y=0..m} exp(-y²/(2σ²)) / W`` with ``W = Σ_{y >= 0} exp(-y²/(2σ²)) = (Z + 1)/2``
instead: the law ``P[Y = y] ∝ exp(-y²/(2σ²))`` on y >= 0, every y once; everything below holds for it with G in
place of F (the sign bit is then returned beside the value, not applied to it).

**Deciding in the table.** ``k = #{m : upper[m] <= u}``; each such ``m`` has ``F(m) <= u/2^(w-1) <= V``, so
``|X| >= k``. If ``k <= M`` and ``u + 1 <= lower[k]`` then ``V < (u+1)/2^(w-1) <= F(k)``, so ``|X| = k``:
decided from bounds alone, never from a rounded value. (A guide over the leading digits of ``u`` —
:class:`InversionTable` — gives ``k`` and the decision for every ``u`` of a bucket at once where the bounds
prove them for the whole bucket; elsewhere the same test runs per value, so the guide changes no outcome.)
Otherwise (``u`` within a rounding unit of a table
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
import os
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

import numpy as np
from flint import arb

from reference.core.certified import CertifiedReal, working_precision
from reference.core.certified import ball as _ball
from reference.core.randomness import RandomBits, SystemRandomBits
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
#: Largest guide (:class:`InversionTable`): 2**18 buckets (2.3 MB with its flags), for tables of 16 384 entries on.
GUIDE_MAX_BITS = 18


@dataclass(frozen=True)
class InversionTable:
    """Certified integer bounds ``lower[m] <= 2**(word_bits - 1) F(m) <= upper[m]`` of the folded CDF (or, with
    ``one_sided``, of the one-sided CDF ``G``), m = 0..M, and a guide over the leading digits of ``u``.

    The guide splits ``[0, 2**(word_bits - 1))`` into ``2**guide_bits`` buckets of equal width; for bucket ``j``,
    ``guide_found[j] = #{m : upper[m] <= j·width}`` and ``guide_sure[j]`` says that every ``u`` of the bucket has
    the same count ``k = guide_found[j]`` (the count at the bucket's last ``u`` is the same: the count grows
    with ``u``) and is decided there (``k <= M`` and ``last u + 1 <= lower[k]``, so ``u + 1 <= lower[k]`` for
    every ``u`` of the bucket). A sure bucket therefore gives exactly what the per-value test gives; the other
    buckets use that test (``searchsorted``)."""

    sigma_squared: Fraction
    word_bits: int
    lower: np.ndarray
    upper: np.ndarray
    one_sided: bool = False
    guide_bits: int = 0
    guide_found: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))
    guide_sure: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=bool))

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


def _normaliser(sigma_squared: Fraction, one_sided: bool) -> arb:
    """``Z(σ²)`` (folded) or ``W = Σ_{y >= 0} exp(-y²/(2σ²)) = (Z + 1)/2`` (one-sided), as a ball."""
    whole = discrete_gaussian_normaliser_ball(sigma_squared)
    return (whole + 1) / 2 if one_sided else whole


def _folded_cdf_ball(m: int, sigma_squared: Fraction, one_sided: bool = False) -> arb:
    """A ball containing ``F(m) = P[|X| <= m]`` at the current precision (m >= 0), or with ``one_sided`` the
    one-sided ``G(m) = Σ_{y=0..m} exp(-y²/(2σ²)) / W`` (every y >= 0 counted once)."""
    c = 1 / (2 * _ball(sigma_squared))
    total, gauss, step = arb(1), arb(1), (-c).exp()  # exp(-c y²), exp(-c(2y+1)) at y = 0
    decay = (-2 * c).exp()
    weight = 1 if one_sided else 2
    for _ in range(m):
        gauss *= step
        step *= decay
        total += weight * gauss
    return total / _normaliser(sigma_squared, one_sided)


def _integer(value: arb) -> int:
    """The integer an exact Arb integer (a floor or ceiling of an exact endpoint) holds."""
    unique = value.unique_fmpz()
    if unique is None:
        raise ArithmeticError(f"expected an exact integer, got the ball {value}")
    return int(unique)


@lru_cache(maxsize=32)
def inversion_table(sigma_squared: Fraction, word_bits: int = WORD_BITS, one_sided: bool = False) -> InversionTable | None:
    """The certified table for σ² (cached), or None when it would exceed :data:`MAX_TABLE_ENTRIES` or σ² is
    below :data:`MIN_TABLE_SIGMA_SQUARED`. ``one_sided`` tabulates ``G`` (the law ``P[Y = y] ∝ exp(-y²/(2σ²))``
    on y >= 0, each y once) instead of the folded ``F``; the blocked sampler draws its block index from it."""
    if sigma_squared < MIN_TABLE_SIGMA_SQUARED or table_entries_needed(sigma_squared, word_bits) > MAX_TABLE_ENTRIES:
        return None
    resolution = word_bits - 1
    lower: list[int] = []
    upper: list[int] = []
    weight = 1 if one_sided else 2
    with working_precision(word_bits + _GUARD_BITS):
        c = 1 / (2 * _ball(sigma_squared))
        scale = arb(2) ** resolution / _normaliser(sigma_squared, one_sided)
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
            total += weight * gauss
    # F increases, so a running maximum of lower bounds (minimum of upper bounds from the right) stays a bound
    low = np.maximum.accumulate(np.array(lower, dtype=np.uint64))
    high = np.minimum.accumulate(np.array(upper, dtype=np.uint64)[::-1])[::-1].copy()
    guide_bits, guide_found, guide_sure = _guide(low, high, resolution)
    for array in (low, high, guide_found, guide_sure):
        array.flags.writeable = False
    return InversionTable(sigma_squared, word_bits, low, high, one_sided, guide_bits, guide_found, guide_sure)


def _guide(lower: np.ndarray, upper: np.ndarray, resolution: int) -> tuple[int, np.ndarray, np.ndarray]:
    """The guide of :class:`InversionTable`: about 16 buckets per table entry (at most 2**18, at most one
    bucket per value of ``u``), each with its count and whether it is sure (the class docstring)."""
    bits = min(max(int(lower.size).bit_length() + 4, 1), GUIDE_MAX_BITS, resolution)
    width = 1 << (resolution - bits)
    first = np.arange(1 << bits, dtype=np.uint64) * np.uint64(width)  # the bucket's smallest u
    last = first + np.uint64(width - 1)  # its largest u
    found = np.searchsorted(upper, first, side="right")
    same = found == np.searchsorted(upper, last, side="right")
    within = np.minimum(found, lower.size - 1)
    # last + 1 <= lower[k], compared as last < lower[k] (no overflow at u = 2^resolution - 1)
    sure = same & (found <= lower.size - 1) & (last < lower[within])
    return bits, found.astype(np.int64), sure


def random_words(source: RandomBits, count: int, word_bits: int = WORD_BITS) -> np.ndarray:
    """``count`` words of ``word_bits`` bits from one request (word i = bits ``w·i ..`` from the low end), as
    ``uint64``.

    For :class:`~reference.core.randomness.SystemRandomBits` and 64-bit words the bytes come from ``os.urandom``
    directly: the same operating-system entropy ``secrets.randbits`` reads, uniform and independent byte by
    byte, so the words have the same law (i.i.d. uniform on ``[0, 2**64)``) without the round trip through one
    large Python integer. Any other source is asked for ``randbits(word_bits · count)`` (so a seed's words do
    not depend on this shortcut).

    Args:
        source: the random bits, any :class:`reference.core.randomness.RandomBits`.
        count: the number of words, an integer >= 0.
        word_bits: the bits per word, an integer from 1 to 64.
    """
    if word_bits == 64 and type(source) is SystemRandomBits:
        return np.frombuffer(os.urandom(8 * count), dtype="<u8").astype(np.uint64)
    raw = source.randbits(word_bits * count)
    if word_bits == 64:
        return np.frombuffer(raw.to_bytes(8 * count, "little"), dtype="<u8").astype(np.uint64)
    mask = (1 << word_bits) - 1
    return np.array([(raw >> (word_bits * i)) & mask for i in range(count)], dtype=np.uint64)


def _resolve(prefix: int, length: int, start: int, sigma_squared: Fraction, source: RandomBits,
             one_sided: bool = False) -> int:
    """``min{m >= start : V < F(m)}`` for ``V`` with known first digits ``prefix`` (``length`` bits), given
    ``V >= F(start - 1)``: certified comparisons, one more digit of ``V`` whenever one is undecided (``G`` in
    place of ``F`` with ``one_sided``)."""
    m = start
    enclosure: CertifiedReal | None = None
    precision = 0
    while True:
        needed = length + _GUARD_BITS
        if enclosure is None or precision < needed:
            # a new index keeps the precision reached; a refinement doubles it (O(log) recomputations)
            precision = max(precision if enclosure is None else 2 * precision, needed)
            with working_precision(precision):
                enclosure = CertifiedReal.from_arb(_folded_cdf_ball(m, sigma_squared, one_sided))
        if Fraction(prefix + 1, 1 << length) <= enclosure.lower:
            return m  # V < (prefix + 1)/2^length <= F(m)
        if Fraction(prefix, 1 << length) >= enclosure.upper:
            m += 1  # F(m) <= V: move on (the enclosure of the next F is computed afresh)
            enclosure = None
            continue
        prefix = 2 * prefix + source.randbits(1)
        length += 1


def table_lookup(table: InversionTable, digits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each ``u`` in ``digits`` (uint64, below ``2**(word_bits - 1)``): ``k = #{m : upper[m] <= u}`` and
    whether the table decides the value is ``k`` (``k <= M`` and ``u + 1 <= lower[k]``; module docstring).

    Pure (draws nothing). The guide (:class:`InversionTable`) answers the values in sure buckets with one
    lookup; the rest take ``searchsorted`` and the per-value test, with the same result.

    Args:
        table: the certified table, an :class:`InversionTable`.
        digits: the leading digits ``u`` of V, a uint64 array.

    Returns:
        ``(found, decided)``: int64 counts k and a boolean array.
    """
    bucket = digits >> np.uint64(table.word_bits - 1 - table.guide_bits)
    found = table.guide_found[bucket]
    decided = table.guide_sure[bucket]
    open_ = np.flatnonzero(~decided)
    if open_.size:
        rest = digits[open_]
        counts = np.searchsorted(table.upper, rest, side="right")
        within = np.minimum(counts, table.last)
        found[open_] = counts
        decided[open_] = (counts <= table.last) & (rest < table.lower[within])  # u + 1 <= lower[k]
    return found, decided


def inversion_magnitudes(table: InversionTable, count: int, source: RandomBits) -> tuple[np.ndarray, np.ndarray]:
    """``count`` exact draws of ``|X|`` (folded table) or of ``Y`` (one-sided table) with their sign bits, as an
    int64 array and a boolean array (the draw order of the module docstring; the sign bit is the word's low bit).

    Args:
        table: the certified table of σ², an :class:`InversionTable` from :func:`inversion_table` (it fixes σ²,
            the word size and the law).
        count: the number of draws, an integer >= 0 (0 gives empty arrays and draws no bits).
        source: the random bits, any :class:`reference.core.randomness.RandomBits` (``randbits``); the bits it
            gives decide the draws in the order of the module docstring.
    """
    if count == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=bool)
    words = random_words(source, count, table.word_bits)
    digits = words >> np.uint64(1)
    negative = (words & np.uint64(1)).astype(bool)
    found, decided = table_lookup(table, digits)
    for index in np.flatnonzero(~decided).tolist():
        found[index] = _resolve(int(digits[index]), table.word_bits - 1, int(found[index]), table.sigma_squared,
                                source, table.one_sided)
    return found, negative


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
            and the word size; a folded table).
        count: the number of draws, an integer >= 0 (0 gives an empty array and draws no bits).
        source: the random bits, any :class:`reference.core.randomness.RandomBits` (``randbits``); the bits it
            gives decide the draws in the order of the module docstring.
    """
    magnitude, negative = inversion_magnitudes(table, count, source)
    return np.where(negative, -magnitude, magnitude)


__all__ = ["MAX_TABLE_ENTRIES", "MIN_TABLE_SIGMA_SQUARED", "WORD_BITS", "InversionTable", "inversion_array", "inversion_draws",
           "inversion_magnitudes", "inversion_table", "random_words", "table_lookup"]
