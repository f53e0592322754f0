"""Exact discrete Gaussian draws at large σ: a block index from a small certified table, vectorised rejection.

For σ beyond the inversion table (:mod:`reference.samplers.inversion`, σ up to about 6 850) the table would grow
like 9σ. Instead ``|X|`` is proposed in two levels and corrected by an exact rejection:

* **Blocks.** ``B = 2^k`` is the largest power of two with ``B <= σ/64``, and ``s² = σ²/B²`` (so s is 64 to 128 and
  its inversion table has at most about 1 200 entries, whatever σ). The block index ``b = |Y|`` with
  ``Y ~ N_Z(0, s²)`` (exact, by inversion), so ``P[b] = c_b e(b)/Z_s`` with ``e(b) = exp(-b²B²/(2σ²))``, ``c_0 = 1``
  and ``c_b = 2`` for b >= 1; then ``r`` uniform on ``{0, …, B - 1}`` (k fresh bits) and ``m = bB + r``.
* **Acceptance.** ``m`` is accepted with probability ``a(m) = h · exp(-γ)``, ``γ = r(2bB + r)/(2σ²) = (m² - b²B²)/(2σ²)``
  and ``h = 1`` when ``b = 0 < m``, else ``h = 1/2`` (a fair coin, then ``exp(-γ)``). So ``a(m) <= 1`` (γ >= 0) and
  ``P[propose m] a(m) = c_b e(b)/(Z_s B) · h exp(-γ) = c'_m exp(-m²/(2σ²))/(2 Z_s B)`` with ``c'_0 = 1`` and
  ``c'_m = 2`` for m >= 1: proportional to ``P[|X| = m]`` for ``X ~ N_Z(0, σ²)``. An accepted m gets a fair sign
  bit (none for 0). Given independent uniform bits the output law *equals* ``N_Z(0, σ²)``; about half the
  proposals are accepted (h = 1/2 but on block 0), so the expected work per value is O(1).
* **Deciding the acceptance without a float.** A uniform ``V`` in [0, 1) is drawn as a 63-bit integer ``u``
  (``V ∈ [u/2^63, (u+1)/2^63)``). ``1 - γ <= exp(-γ) <= 1 - γ + γ²/2`` (γ >= 0), so with exact integers (Python
  ints: ``u``, ``2σ²`` and the numerator of γ are exact) ``(u + 1)/2^63 <= h(1 - γ)`` accepts and
  ``u/2^63 >= h(1 - γ + γ²/2)`` rejects; the rest (probability about ``γ²/4 + 2^-63``, γ <= 10 B/σ <= 0.16) is
  resolved like the inversion sampler's undecided values: Arb enclosures of ``h exp(-γ)`` at growing precision
  against ``V``'s interval, one more digit of V whenever they overlap.

**Draw order** (``count`` values): rounds until ``count`` values are accepted. A round of ``n`` proposals (``n`` =
the values still missing, at least 64) takes ``n`` block indices from
:func:`reference.samplers.inversion.inversion_array` (its own draw order), then one request of ``64 n`` bits:
word i (bits ``64 i .. 64 i + 63`` from the least significant end) gives ``r`` (its low k bits), the sign (bit k),
the coin deciding the factor h = 1/2 (bit k + 1; ignored where h = 1) and the first ``62 - k`` digits of ``V`` (the
rest); then the proposals the coin keeps are decided in index order, an undecided one drawing its further digits
of V one bit at a time, until ``count`` are accepted (later proposals are dropped).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from reference.core.certified import CertifiedReal, ball, working_precision
from reference.core.randomness import RandomBits
from reference.samplers.inversion import inversion_array, inversion_table

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


def blocked_draws(sigma_squared: Fraction, count: int, source: RandomBits) -> list[int]:
    """``count`` exact ``N_Z(0, σ²)`` draws by the two-level proposal and exact rejection (module docstring).

    Args:
        sigma_squared: the variance σ² of ``N_Z(0, σ²)`` (not σ), an exact ``Fraction``; σ²/B² must have an
            inversion table (σ² below 2**-20 is refused with ``ValueError``; the blocked sampler is meant for σ
            beyond about 6 850).
        count: the number of draws, an integer >= 0.
        source: the random bits, any :class:`reference.core.randomness.RandomBits` (``randbits``); the bits it
            gives decide the draws in the order of the module docstring.
    """
    width = block_width(sigma_squared)
    shift = width.bit_length() - 1  # k, B = 2^k
    table = inversion_table(sigma_squared / (width * width))
    if table is None:
        raise ValueError("sigma_squared is too small for the blocked sampler (use the inversion table)")
    p, q = sigma_squared.numerator, sigma_squared.denominator
    out: list[int] = []
    while len(out) < count:
        size = max(64, (count - len(out)) * 9 // 4)  # about half are accepted: one round, mostly
        blocks = np.abs(inversion_array(table, size, source))
        raw = source.randbits(64 * size)
        words = np.frombuffer(raw.to_bytes(8 * size, "little"), dtype="<u8")
        offsets = (words & np.uint64(width - 1)).astype(np.int64)
        signs = ((words >> np.uint64(shift)) & np.uint64(1)).astype(bool)
        coins = ((words >> np.uint64(shift + 1)) & np.uint64(1)).astype(bool)
        magnitudes = blocks * width + offsets
        # h = 1/2 (every block but 0, and m = 0) is a fair coin, decided here for all proposals at once
        kept = np.flatnonzero(((blocks == 0) & (magnitudes > 0)) | coins)
        block, offset, magnitude = blocks[kept], offsets[kept], magnitudes[kept]
        uniforms = words[kept] >> np.uint64(shift + 2)  # the first 62 - k digits of V
        values = np.where(signs[kept] & (magnitude > 0), -magnitude, magnitude)
        digits = 62 - shift
        accepted = _surely_accepted(block, offset, uniforms, digits, width, p, q)
        missing = count - len(out)
        # the proposals the whole-array test leaves open, decided one by one in index order, exactly as before:
        # stop at the first one that comes after the count-th acceptance (the later ones are never decided)
        running = np.cumsum(accepted)
        exact_accepted = 0
        stop = len(kept)
        unit = 1 << digits
        d = 2 * p
        for index in np.flatnonzero(~accepted).tolist():
            if int(running[index]) + exact_accepted >= missing:
                stop = index
                break
            b, r, u = int(block[index]), int(offset[index]), int(uniforms[index])
            # γ = r(2bB + r)/(2σ²) = n/d with n = r(2bB + r) q; the common case, (u + 1)/2^L <= 1 − γ, inline
            n = r * (2 * b * width + r) * q
            if (u + 1) * d <= unit * (d - n) or _accept(u, digits, 1, n, d, source):
                accepted[index] = True
                exact_accepted += 1
        out.extend(values[:stop][accepted[:stop]][:missing].tolist())
    return out


def blocked_acceptance(sigma_squared: Fraction) -> float:
    """The expected acceptance rate (a float, for documentation and benchmarks only): about 1/2.

    Args:
        sigma_squared: the variance σ² > 0 of ``N_Z(0, σ²)`` (not σ), an exact ``Fraction``.
    """
    width = block_width(sigma_squared)
    return 0.5 * math.exp(-width / math.sqrt(float(sigma_squared)))
