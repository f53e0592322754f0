"""Exact discrete Gaussian draws at large σ: a block index from a small certified table, vectorised rejection.

For σ beyond the inversion table (:mod:`reference.samplers.inversion`, σ up to about 6 850) the table would grow
like 9σ. Instead ``X`` is proposed in two levels and corrected by an exact rejection:

* **Blocks.** ``B = 2^k`` is the largest power of two with ``B <= σ/64``, and ``s² = σ²/B²`` (so s is 64 to 128 and
  its table has at most about 1 200 entries, whatever σ). The block index ``b >= 0`` has the *one-sided* law
  ``P[b] = e(b)/W`` with ``e(b) = exp(-b²B²/(2σ²)) = exp(-b²/(2s²))`` and ``W = Σ_{y >= 0} e(y) = (Z_s + 1)/2``
  (every b once, b = 0 included), drawn exactly by inversion of its certified CDF table
  (:func:`reference.samplers.inversion.inversion_table` with ``one_sided=True``); the same 64-bit word's low
  bit is a fair sign ``S``. Then ``r`` uniform on ``{0, …, B - 1}`` (k fresh bits), ``m = bB + r`` and the
  proposal ``x = (-1)^S m``.
* **The proposal's law.** Each pair (b, r) gives a different m, each (m, S) a different x except m = 0, which
  both signs give. So ``P[propose x] = e(b)/(2BW)`` for x ≠ 0 (``b = ⌊|x|/B⌋``) and ``P[propose 0] = 2 e(0)/(2BW) =
  1/(BW)``.
* **Acceptance.** x ≠ 0 is accepted with probability ``a(x) = exp(-γ)``, ``γ = r(2bB + r)/(2σ²) = (m² - b²B²)/(2σ²)
  >= 0``; x = 0 with probability ``a(0) = 1/2``. Then ``P[propose x] a(x) = exp(-x²/(2σ²))/(2BW)`` for *every*
  integer x (for x ≠ 0: ``e(b) exp(-γ) = exp(-m²/(2σ²))``; for x = 0: ``(1/(BW))·(1/2)``), proportional to
  ``P[X = x]`` for ``X ~ N_Z(0, σ²)``: given independent uniform bits, an accepted proposal *equals* ``N_Z(0, σ²)``
  in law, and the accepted proposals of a sequence of independent proposals are independent. A proposal is
  accepted with probability ``Z_σ/(2BW)``, about ``1 - 0.4/s`` (above 99.3% for s >= 64): the expected work per
  value is about one proposal.
* **Deciding the acceptance without a float.** A uniform ``V`` in [0, 1) is drawn as an integer ``u`` of
  ``L = 64 - k`` digits (``V ∈ [u/2^L, (u+1)/2^L)``), accepted iff ``V < a(x)``. For x = 0, ``V < 1/2`` iff V's
  first digit is 0: decided by ``u`` alone. For x ≠ 0, ``1 - γ <= exp(-γ) <= 1 - γ + γ²/2`` (γ >= 0), so with
  exact integers (``u``, ``2σ²`` and the numerator of γ are integers) ``(u + 1)/2^L <= 1 - γ`` accepts and
  ``u/2^L >= 1 - γ + γ²/2`` rejects; the rest (probability about ``γ²/2 + 2^-L``) is resolved like the inversion
  sampler's undecided values: Arb enclosures of ``exp(-γ)`` at growing precision against ``V``'s interval, one
  more digit of V whenever they overlap (:func:`_accept`). The first test is made for all proposals at once by a
  *sufficient* int64 condition (:func:`_surely_accepted`: each True it gives is a True of the exact test), and
  the proposals it leaves open — the rejections and those near the threshold, about 1% — are decided one by one
  by the exact tests. No float decides anything: floats appear only in :func:`blocked_acceptance`, for
  documentation.

**Draw order** (``count`` values): rounds until ``count`` values are accepted. A round of ``n`` proposals (``n``
= the values still missing plus a margin) takes ``n`` block indices with their signs from
:func:`reference.samplers.inversion.inversion_magnitudes` (one request of ``64 n`` bits, then the rare extra bits
of its undecided values), then one request of ``64 n`` bits: word i (bits ``64 i .. 64 i + 63`` from the least
significant end) gives ``r`` (its low k bits) and ``u`` (the other ``64 - k`` bits, V's first digits from the
word's most significant end); then the open proposals are decided in index order, an undecided one drawing its
further digits of V one bit at a time, until ``count`` are accepted (later proposals are dropped, undecided).
The values are the accepted proposals in index order.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from reference.core.certified import CertifiedReal, ball, working_precision
from reference.core.randomness import RandomBits
from reference.samplers.inversion import (
    WORD_BITS,
    InversionTable,
    inversion_magnitudes,
    inversion_table,
    random_words,
)

#: σ/B: the block width is the largest power of two at most σ/64 (so s = σ/B is in [64, 128)).
BLOCKS_PER_SIGMA = 64
#: Guard bits of the Arb evaluations above the resolution they must decide.
_GUARD_BITS = 64


def block_width(sigma_squared: Fraction) -> int:
    """``B = 2^k``, the largest power of two with ``B² <= σ²/64²`` (exact integer arithmetic); 1 for small σ.

    Args:
        sigma_squared: the variance σ² > 0 of ``N_Z(0, σ²)`` (not σ), an exact ``Fraction``.
    """
    limit = sigma_squared / (BLOCKS_PER_SIGMA * BLOCKS_PER_SIGMA)  # B² <= limit
    width = 1
    while Fraction((2 * width) ** 2) <= limit:
        width *= 2
    return width


def _accept(u: int, length: int, halve: int, numerator: int, denominator: int, source: RandomBits) -> bool:
    """Whether ``V < h exp(-γ)`` (``h = 1/halve``, ``γ = numerator/denominator``) for ``V`` with known first digits
    ``u`` (``length`` bits): exact integer bounds first, then certified Arb comparisons with one more digit of V
    whenever undecided (module docstring)."""
    n, d, unit = numerator, denominator, 1 << length
    # (u + 1)/2^L <= (1 - γ)/H  <=>  (u + 1) H d <= 2^L (d - n)
    if (u + 1) * halve * d <= unit * (d - n):
        return True
    # u/2^L >= (1 - γ + γ²/2)/H  <=>  2 u H d² >= 2^L (2d² - 2dn + n²)
    if 2 * u * halve * d * d >= unit * (2 * d * d - 2 * d * n + n * n):
        return False
    gamma, h = Fraction(n, d), Fraction(1, halve)
    precision = length + _GUARD_BITS
    while True:
        with working_precision(precision):
            enclosure = CertifiedReal.from_arb(ball(h) * (-ball(gamma)).exp())
        while precision >= length + _GUARD_BITS:
            if Fraction(u + 1, 1 << length) <= enclosure.lower:
                return True
            if Fraction(u, 1 << length) >= enclosure.upper:
                return False
            u = 2 * u + source.randbits(1)
            length += 1
        precision *= 2


#: Digits of V and bits of 2σ² the whole-array acceptance test works with (products stay below 2**63).
_COARSE_BITS = 30


def _surely_accepted(block: np.ndarray, offset: np.ndarray, uniforms: np.ndarray, digits: int, width: int,
                     p: int, q: int) -> np.ndarray:
    """Which proposals the inline test ``(u + 1) d <= 2^L (d - n)`` accepts, found for all at once in int64 from
    fewer digits: a sufficient condition, so every True here is a True of the exact test and a False leaves the
    proposal to it (rejections and the few near the threshold).

    With ``T`` leading digits ``t = u >> (L - T)`` of V, ``u + 1 <= (t + 1) 2^(L - T)``, so ``d (2^T - t - 1) >=
    2^T n`` implies the exact condition; with ``d' = d >> s <= d/2^s`` and ``n' = ceil(n/2^s) >= n/2^s``,
    ``d' (2^T - t - 1) >= 2^T n'`` implies that. ``s`` makes ``d' < 2^(T+2)`` and n is clipped at d (where the
    test cannot pass), so every product is below 2^63; when ``n`` itself could pass 2^62 (a σ² with a huge
    numerator or denominator) nothing is decided here.
    """
    accepted = np.zeros(len(block), dtype=bool)
    if len(block) == 0:
        return accepted
    largest = (width - 1) * (2 * int(block.max()) * width + width) * q
    if largest >= 1 << 62:
        return accepted
    d = 2 * p
    top = min(digits, _COARSE_BITS)
    scale = max(0, d.bit_length() - (_COARSE_BITS + 2))
    coarse_d = d >> scale
    n = offset * (2 * block * width + offset) * q
    if d < 1 << 62:  # γ >= 1 never passes the test; clipped there, n' <= d' + 1 keeps 2^T n' below 2^63
        n = np.minimum(n, d)
    coarse_n = (n + ((1 << scale) - 1)) >> scale
    gap = ((1 << top) - 1) - (uniforms >> np.uint64(digits - top)).astype(np.int64)
    return np.asarray(coarse_d * gap >= coarse_n * (1 << top))


def acceptance_open(sigma_squared: Fraction, width: int, block: np.ndarray, offset: np.ndarray,
                    uniforms: np.ndarray, digits: int) -> tuple[np.ndarray, np.ndarray]:
    """The part of the acceptance decided for all proposals at once (pure: draws nothing).

    Args:
        sigma_squared: σ² of ``N_Z(0, σ²)``, an exact ``Fraction``.
        width: the block width B, a power of two >= 1.
        block: the block indices b (int64 array).
        offset: the offsets r in ``[0, B)`` (int64 array).
        uniforms: the first ``digits`` digits ``u`` of each V (uint64 array).
        digits: L, the number of digits of V in ``uniforms``, an integer from 2 to 63.

    Returns:
        ``(accepted, open_)``: boolean arrays; ``accepted`` is final where ``open_`` is False (x = 0 is accepted
        iff V's first digit is 0; x ≠ 0 where the sufficient test accepts it), and the open proposals (x ≠ 0,
        not surely accepted) are left to the exact tests (:func:`_accept`).
    """
    p, q = sigma_squared.numerator, sigma_squared.denominator
    zero = (block == 0) & (offset == 0)
    surely = _surely_accepted(block, offset, uniforms, digits, width, p, q)
    half = (uniforms >> np.uint64(digits - 1)) == 0  # V < 1/2
    accepted = np.where(zero, half, surely)
    return accepted, ~(zero | surely)


def block_table(sigma_squared: Fraction, width: int, word_bits: int = WORD_BITS) -> InversionTable:
    """The certified table of the block index's one-sided law at ``s² = σ²/B²`` (cached by
    :func:`reference.samplers.inversion.inversion_table`).

    Args:
        sigma_squared: σ² of ``N_Z(0, σ²)``, an exact ``Fraction``.
        width: the block width B, a power of two >= 1.
        word_bits: the bits per block word (64 in the sampler; fewer to enumerate every word in a test).
    """
    table = inversion_table(sigma_squared / (width * width), word_bits, True)
    if table is None:
        raise ValueError("sigma_squared is too small for the blocked sampler (use the inversion table)")
    return table


def proposals(blocks: np.ndarray, negative: np.ndarray, words: np.ndarray,
              width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The proposals of a round from the block indices, their sign bits and the offset words (pure).

    Args:
        blocks: the block indices b (int64 array).
        negative: the sign bits S (boolean array).
        words: one offset word per proposal (uint64 array): r is its low k bits, u the others.
        width: the block width B = 2^k.

    Returns:
        ``(offsets, uniforms, values)``: r (int64), u (uint64) and ``x = (-1)^S (bB + r)`` (int64).
    """
    offsets = (words & np.uint64(width - 1)).astype(np.int64)
    uniforms = words >> np.uint64(width.bit_length() - 1)
    magnitudes = blocks * width + offsets
    return offsets, uniforms, np.where(negative, -magnitudes, magnitudes)


def sample_blocked(sigma_squared: Fraction, count: int, source: RandomBits, width: int) -> list[int]:
    """``count`` exact ``N_Z(0, σ²)`` draws with block width ``width`` (module docstring; any power of two
    with a one-sided table at ``σ²/B²``: tests use small ones at a small σ²).

    Args:
        sigma_squared: the variance σ² of ``N_Z(0, σ²)`` (not σ), an exact ``Fraction``.
        count: the number of draws, an integer >= 0.
        source: the random bits, any :class:`reference.core.randomness.RandomBits`.
        width: the block width B, a power of two from 1 to 2**60.
    """
    if width < 1 or width & (width - 1) or width > 1 << 60:
        raise ValueError(f"width must be a power of two from 1 to 2**60, got {width}")
    shift = width.bit_length() - 1  # k, B = 2^k
    table = block_table(sigma_squared, width)
    p, q = sigma_squared.numerator, sigma_squared.denominator
    digits = 64 - shift  # L, the digits of V in an offset word
    unit, d = 1 << digits, 2 * p
    out: list[int] = []
    while len(out) < count:
        missing = count - len(out)
        size = missing + missing // 32 + 64  # about 99% are accepted: one round, mostly
        blocks, negative = inversion_magnitudes(table, size, source)
        offsets, uniforms, values = proposals(blocks, negative, random_words(source, size), width)
        accepted, open_ = acceptance_open(sigma_squared, width, blocks, offsets, uniforms, digits)
        # the open proposals, decided one by one in index order by the exact tests; stop at the first one that
        # comes after the missing-th acceptance (it and the later ones are never decided)
        running = np.cumsum(accepted)
        exact_accepted = 0
        stop = size
        for index in np.flatnonzero(open_).tolist():
            if int(running[index]) + exact_accepted >= missing:
                stop = index
                break
            b, r, u = int(blocks[index]), int(offsets[index]), int(uniforms[index])
            # γ = r(2bB + r)/(2σ²) = n/d with n = r(2bB + r) q; the common case, (u + 1)/2^L <= 1 − γ, inline
            n = r * (2 * b * width + r) * q
            if (u + 1) * d <= unit * (d - n) or _accept(u, digits, 1, n, d, source):
                accepted[index] = True
                exact_accepted += 1
        out.extend(values[:stop][accepted[:stop]][:missing].tolist())
    return out


def blocked_draws(sigma_squared: Fraction, count: int, source: RandomBits) -> list[int]:
    """``count`` exact ``N_Z(0, σ²)`` draws by the two-level proposal and exact rejection (module docstring),
    with the block width of :func:`block_width`.

    Args:
        sigma_squared: the variance σ² of ``N_Z(0, σ²)`` (not σ), an exact ``Fraction``; σ²/B² must have an
            inversion table (σ² below 2**-20 is refused with ``ValueError``; the blocked sampler is meant for σ
            beyond about 6 850).
        count: the number of draws, an integer >= 0.
        source: the random bits, any :class:`reference.core.randomness.RandomBits` (``randbits``); the bits it
            gives decide the draws in the order of the module docstring.
    """
    return sample_blocked(sigma_squared, count, source, block_width(sigma_squared))


def blocked_acceptance(sigma_squared: Fraction) -> float:
    """The expected acceptance rate of a proposal, ``Z_σ/(2BW)`` (a float, for documentation and benchmarks
    only): ``1/(1 + B/(σ√(2π)))``, about ``1 - 0.4/s``, above 0.99.

    Args:
        sigma_squared: the variance σ² > 0 of ``N_Z(0, σ²)`` (not σ), an exact ``Fraction``.
    """
    width = block_width(sigma_squared)
    sigma = math.sqrt(float(sigma_squared))
    return sigma * math.sqrt(2 * math.pi) / (width * (sigma * math.sqrt(2 * math.pi) / width + 1))
