"""The blocked discrete Gaussian's law is exactly ``N_Z(0, σ²)``: the law its pieces imply, enumerated exactly at
small word sizes, against the certified pmf; a seeded whole-law audit of its draws; and both checks failing on
deliberately wrong variants (a folded block law, no coin at 0, an off-by-one block, a cut tail).

**Enumeration.** The sampler's pure pieces are composed over *every* block word of ``BLOCK_BITS`` bits (the
one-sided table at that word size, :func:`reference.samplers.inversion.table_lookup`, the table's undecided words
resolved by the sampler's own exact resolution with no further bits) and every offset word of ``OFFSET_BITS``
bits (:func:`reference.samplers.blocked.proposals`, :func:`reference.samplers.blocked.acceptance_open`, the open
ones by the exact test :func:`reference.samplers.blocked._accept` with no further bits). Each word pair has
mass exactly ``2**-(BLOCK_BITS + OFFSET_BITS)`` (Fractions); a pair whose outcome needs more digits of V (its
interval straddles a CDF value or ``exp(-γ)``) is *unknown* mass ``U``. With ``A(x)`` the mass of pairs
accepted at x and ``R`` the rejected mass, a proposal is accepted at x with probability in ``[A(x), A(x) + U]``
and rejected with probability in ``[R, R + U]``, so the sampler's ``P[X = x]`` lies in
``[A(x)/(1 - R), (A(x) + U)/(1 - R - U)]``: this interval must meet the certified pmf at every x. The check is
exact (no statistics, no false alarm); its resolution is ``U`` (below 2e-3 here); each wrong variant misses the pmf at many x
(14 to 79 of them).

**Statistics.** :func:`reference.testing.assert_samples_match` (the whole-law audit: scale, family, tails) at
false-alarm probability 1e-9 on 200,000 seeded draws with small blocks, where the four mutations each move a
mass of at least 1% of the law.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from fractions import Fraction
from math import isqrt

import numpy as np
import pytest

from reference.core.randomness import BitsExhausted, ScriptedBits, SeededRandomBits
from reference.samplers import blocked
from reference.samplers.inversion import InversionTable, _guide, _resolve, inversion_table, table_lookup
from reference.samplers.pmf import discrete_gaussian_pmf
from reference.testing import assert_samples_match

#: Word sizes of the enumeration: every block word (its low bit the sign) and every offset word (r and V's digits).
BLOCK_BITS = 16
OFFSET_BITS = 12
#: (σ², B): s² = σ²/B² = 4 and 9/4, small enough for block 0, x = 0 and large γ to matter.
CASES = [(Fraction(64), 4), (Fraction(9), 2)]


def implied_law(sigma_squared: Fraction, width: int) -> tuple[dict[int, Fraction], Fraction, Fraction]:
    """``A`` (accepted mass per x), ``R`` (rejected mass) and ``U`` (unknown mass) of one proposal, exactly."""
    table = blocked.block_table(sigma_squared, width, BLOCK_BITS)
    words = np.arange(1 << BLOCK_BITS, dtype=np.uint64)
    digits, negative = words >> np.uint64(1), (words & np.uint64(1)).astype(bool)
    found, decided = table_lookup(table, digits)
    unknown = 0  # counted in units of one word pair
    block_mass: dict[tuple[int, bool], int] = defaultdict(int)  # block words per (b, sign)
    for index in range(words.size):
        b = int(found[index])
        if not decided[index]:
            try:
                b = _resolve(int(digits[index]), BLOCK_BITS - 1, b, table.sigma_squared, ScriptedBits(0, 0),
                             table.one_sided)
            except BitsExhausted:
                unknown += 1 << OFFSET_BITS
                continue
        block_mass[(b, bool(negative[index]))] += 1
    shift = width.bit_length() - 1
    length = OFFSET_BITS - shift  # digits of V
    offset_words = np.arange(1 << OFFSET_BITS, dtype=np.uint64)
    p, q = sigma_squared.numerator, sigma_squared.denominator
    accepted_mass: dict[int, int] = defaultdict(int)
    rejected = 0
    for (b, sign), weight in sorted(block_mass.items()):
        blocks = np.full(offset_words.size, b, dtype=np.int64)
        signs = np.full(offset_words.size, sign)
        offsets, uniforms, values = blocked.proposals(blocks, signs, offset_words, width)
        accepted, open_ = blocked.acceptance_open(sigma_squared, width, blocks, offsets, uniforms, length)
        for index in np.flatnonzero(open_).tolist():
            r, u = int(offsets[index]), int(uniforms[index])
            try:
                accepted[index] = blocked._accept(u, length, 1, r * (2 * b * width + r) * q, 2 * p, ScriptedBits(0, 0))
            except BitsExhausted:
                unknown += weight
                accepted[index] = False
                open_[index] = True
                continue
            open_[index] = False
        for value, count in zip(*np.unique(values[accepted], return_counts=True)):
            accepted_mass[int(value)] += weight * int(count)
        rejected += weight * int(np.count_nonzero(~accepted & ~open_))
    total = 1 << (BLOCK_BITS + OFFSET_BITS)
    assert sum(accepted_mass.values()) + rejected + unknown == total  # every word pair counted once
    return ({x: Fraction(mass, total) for x, mass in accepted_mass.items()}, Fraction(rejected, total),
            Fraction(unknown, total))


def law_mismatches(sigma_squared: Fraction, width: int) -> list[int]:
    """The x (|x| <= 6σ) where the enumerated interval of P[X = x] misses the certified pmf."""
    accepted, rejected, unknown = implied_law(sigma_squared, width)
    assert unknown < Fraction(1, 500)
    reach = 6 * int(np.sqrt(float(sigma_squared))) + 1
    misses = []
    for x in range(-reach, reach + 1):
        mass = accepted.get(x, Fraction(0))
        low, high = mass / (1 - rejected), (mass + unknown) / (1 - rejected - unknown)
        truth = discrete_gaussian_pmf(x, sigma_squared)
        if truth.upper < low or truth.lower > high:
            misses.append(x)
    return misses


@pytest.mark.parametrize(("sigma_squared", "width"), CASES)
def test_the_enumerated_law_of_the_blocked_sampler_is_the_discrete_gaussian(sigma_squared: Fraction,
                                                                            width: int) -> None:
    assert law_mismatches(sigma_squared, width) == []


def _folded_table(sigma_squared: Fraction, width: int, word_bits: int = 64) -> InversionTable | None:
    # the wrong block law: P[b] ∝ c_b e(b) (the folded |Y|) instead of e(b), with no other change
    return inversion_table(sigma_squared / (width * width), word_bits, False)


def _always_accept_zero(sigma_squared: Fraction, width: int, block: np.ndarray, offset: np.ndarray,
                        uniforms: np.ndarray, digits: int) -> tuple[np.ndarray, np.ndarray]:
    # the wrong acceptance: x = 0 accepted without its coin (both signs propose it)
    accepted, open_ = ORIGINAL_ACCEPTANCE(sigma_squared, width, block, offset, uniforms, digits)
    zero = (block == 0) & (offset == 0)
    return accepted | zero, open_ & ~zero


def _off_by_one_block(blocks: np.ndarray, negative: np.ndarray, words: np.ndarray,
                      width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    # the wrong inversion: every block index one too high (the acceptance still sees the right b)
    offsets, uniforms, values = ORIGINAL_PROPOSALS(blocks, negative, words, width)
    return offsets, uniforms, np.where(values < 0, values - width, values + width)


def _cut_table(sigma_squared: Fraction, width: int, word_bits: int = 64) -> InversionTable:
    # the wrong tail: the table ends at block 2s (s = σ/B), its last entry taking the whole tail beyond
    table = ORIGINAL_TABLE(sigma_squared, width, word_bits)
    cut = 2 * isqrt(int(table.sigma_squared))
    full = np.uint64(1 << (table.word_bits - 1))
    lower, upper = table.lower[:cut + 1].copy(), table.upper[:cut + 1].copy()
    lower[-1] = upper[-1] = full
    bits, found, sure = _guide(lower, upper, table.word_bits - 1)
    return replace(table, lower=lower, upper=upper, guide_bits=bits, guide_found=found, guide_sure=sure)


ORIGINAL_TABLE = blocked.block_table
ORIGINAL_ACCEPTANCE = blocked.acceptance_open
ORIGINAL_PROPOSALS = blocked.proposals
MUTATIONS = {"folded block law": ("block_table", _folded_table),
             "no coin at zero": ("acceptance_open", _always_accept_zero),
             "off-by-one block": ("proposals", _off_by_one_block),
             "cut tail": ("block_table", _cut_table)}


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
def test_the_enumeration_catches_a_wrong_blocked_sampler(mutation: str, monkeypatch: pytest.MonkeyPatch) -> None:
    name, replacement = MUTATIONS[mutation]
    monkeypatch.setattr(blocked, name, replacement)
    sigma_squared, width = CASES[0]
    assert len(law_mismatches(sigma_squared, width)) >= 1


#: σ² = 400 with B = 4 (s = 5): block 0 holds about 8% of the law and x = 0 about 2%.
AUDIT_SIGMA_SQUARED, AUDIT_WIDTH, AUDIT_DRAWS = Fraction(400), 4, 200_000


def _audit_draws() -> np.ndarray:
    values = blocked.sample_blocked(AUDIT_SIGMA_SQUARED, AUDIT_DRAWS, SeededRandomBits(35), AUDIT_WIDTH)
    return np.array(values, dtype=np.int64)


def test_the_whole_law_audit_passes_the_blocked_sampler() -> None:
    report = assert_samples_match(_audit_draws(), "discrete-gaussian", sigma_squared=AUDIT_SIGMA_SQUARED, alpha=1e-9)
    assert report.verdict == "holds"


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
def test_the_whole_law_audit_catches_a_wrong_blocked_sampler(mutation: str, monkeypatch: pytest.MonkeyPatch) -> None:
    name, replacement = MUTATIONS[mutation]
    monkeypatch.setattr(blocked, name, replacement)
    with pytest.raises(AssertionError, match="do not match"):
        assert_samples_match(_audit_draws(), "discrete-gaussian", sigma_squared=AUDIT_SIGMA_SQUARED, alpha=1e-9)
