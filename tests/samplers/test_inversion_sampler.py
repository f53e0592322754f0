"""The exact discrete Gaussian by inversion: its certified table, its draw order, its exact resolution path, and
its law (exhaustive enumeration with small words; seeded goodness of fit with 64-bit words).

Reference values come from mpmath at 60 digits (the folded CDF written out from its definition) or from the
certified pmf module, never from the sampler's own output.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest
from reference_verification.samplers import exact_checks as xc

from reference.core.randomness import ScriptedBits, SeededRandomBits
from reference.samplers import exact as es
from reference.samplers import fit as goodness
from reference.samplers import pmf
from reference.samplers.inversion import WORD_BITS, inversion_draws, inversion_table

MP = mpmath.mp.clone()
MP.dps = 60
SCALE = 1 << (WORD_BITS - 1)


def _mp_weights(sigma_squared: Fraction) -> list[mpmath.mpf]:
    """exp(-y²/(2σ²)) for y = 0, 1, ... far past any mass that matters, at 60 digits (the folded law's terms)."""
    s2 = MP.mpf(sigma_squared.numerator) / sigma_squared.denominator
    return [MP.exp(-MP.mpf(y * y) / (2 * s2)) for y in range(int(40 * MP.sqrt(s2)) + 40)]


def mp_folded_cdf(m: int, sigma_squared: Fraction) -> mpmath.mpf:
    """``P[|X| <= m]`` for ``N_Z(0, σ²)`` at 60 digits: partial sum over the normaliser summed far out."""
    weights = _mp_weights(sigma_squared)
    total = 1 + 2 * MP.fsum(weights[1:])
    return (1 + 2 * MP.fsum(weights[1 : m + 1])) / total


@pytest.mark.parametrize("sigma_squared", ["1/4", "1", "7/3", "10", "1000"])
def test_table_brackets_the_certified_cdf(sigma_squared: str) -> None:
    s2 = Fraction(sigma_squared)
    table = inversion_table(s2)
    assert table is not None
    lower, upper = table.lower.tolist(), table.upper.tolist()
    assert lower == sorted(lower) and upper == sorted(upper)
    for m in range(table.last + 1):
        tail = pmf.discrete_gaussian_tail(m + 1, s2)  # F(m) = 1 - 2 P[X >= m + 1]
        cdf_low, cdf_high = 1 - 2 * tail.upper, 1 - 2 * tail.lower
        assert lower[m] <= SCALE * cdf_low and SCALE * cdf_high <= upper[m], m
        assert upper[m] - lower[m] <= 2  # tight: a rounding unit either side at most
    # the table ends where the certified tail is below one unit of the word
    assert SCALE * 2 * pmf.discrete_gaussian_tail(table.last + 1, s2).upper < 1


def test_table_against_mpmath() -> None:
    s2 = Fraction(7, 3)
    table = inversion_table(s2)
    assert table is not None
    for m in range(table.last + 1):
        scaled = mp_folded_cdf(m, s2) * SCALE
        assert int(table.lower[m]) <= scaled <= int(table.upper[m])


def _word_inside(m: int, sigma_squared: Fraction) -> int:
    """The 63 digits of a V strictly inside [F(m - 1), F(m)), computed with mpmath (not with the table)."""
    low = mp_folded_cdf(m - 1, sigma_squared) if m > 0 else MP.mpf(0)
    return int(MP.floor((low + mp_folded_cdf(m, sigma_squared)) / 2 * SCALE))


def test_scripted_words_follow_the_draw_order() -> None:
    s2 = Fraction(7, 3)
    wanted = [(0, 1), (2, 1), (1, 0), (5, 1), (3, 0)]  # (|x|, sign bit)
    words = [(_word_inside(m, s2) << 1) | sign for m, sign in wanted]
    # one request of 64·n bits; word i is bits 64 i .. 64 i + 63 from the least significant end
    script = sum(word << (WORD_BITS * i) for i, word in enumerate(words))
    source = ScriptedBits(script, WORD_BITS * len(words))
    assert es.discrete_gaussian(s2, source=source, size=len(words)) == [-m if sign else m for m, sign in wanted]
    assert source.used == WORD_BITS * len(words)


@pytest.mark.parametrize("extra", [0, 1])
def test_undecided_word_is_resolved_exactly(extra: int) -> None:
    # u = lower[1]: the word's interval straddles 2^63 F(1), so the table cannot decide; further digits do
    s2 = Fraction(1)
    table = inversion_table(s2)
    assert table is not None
    digits = int(table.lower[1])
    assert digits < int(table.upper[1])
    tail_bits = 100
    prefix = (digits << tail_bits) | (((1 << tail_bits) - 1) if extra else 0)
    source = ScriptedBits((((digits << 1) | 0) << tail_bits) | (prefix & ((1 << tail_bits) - 1)), 64 + tail_bits)
    got = inversion_draws(table, 1, source)[0]
    value = MP.mpf(prefix) / MP.mpf(2) ** (63 + tail_bits)
    expected = 1 if value < mp_folded_cdf(1, s2) else 2
    assert got == expected


def mp_folded_tail(m: int, sigma_squared: Fraction) -> mpmath.mpf:
    """``1 - F(m) = P[|X| > m]`` at 60 significant digits (summed directly, so tiny tails keep their digits)."""
    weights = _mp_weights(sigma_squared)
    total = 1 + 2 * MP.fsum(weights[1:])
    return 2 * MP.fsum(weights[m + 1 :]) / total


def test_tail_beyond_the_table_is_exact() -> None:
    # V = 1 - 2^-103 (+ at most 2^-363): beyond the table's last entry, so the draw continues past it, one
    # certified comparison per index; the answer is the first m with 1 - F(m) < 1 - V
    s2 = Fraction(7, 3)
    table = inversion_table(s2)
    assert table is not None
    word = (1 << 64) - 1  # 63 digits of ones and the sign bit 1
    ones, zeros = 40, 260
    script = (((word << ones) | ((1 << ones) - 1)) << zeros)
    got = inversion_draws(table, 1, ScriptedBits(script, 64 + ones + zeros))[0]
    gap = MP.mpf(2) ** -(63 + ones)
    expected = next(m for m in range(100) if mp_folded_tail(m, s2) < gap)
    assert mp_folded_tail(expected, s2) < gap - MP.mpf(2) ** -(63 + ones + zeros)  # decided by the script
    assert got == -expected and expected > table.last


@pytest.mark.parametrize(("sigma_squared", "max_bits"), [("1/2", 18), ("7/3", 16), ("10", 16)])
def test_enumeration_of_the_inversion_with_small_words(sigma_squared: str, max_bits: int) -> None:
    # 4-bit words: most strings go through the exact resolution path; every output's mass is pinned
    check = xc.check_enumeration("discrete-gaussian", sigma_squared, max_bits)
    assert check.holds, check.summary()
    assert check.unresolved < Fraction(1, 100)


def test_enumeration_of_the_rejection_twin() -> None:
    check = xc.check_enumeration("discrete_gaussian_rejection", "1/2", 12)
    assert check.holds, check.summary()


@pytest.mark.parametrize("sigma_squared", ["1/4", "7/3", "1000"])
def test_inversion_fits_the_pmf(sigma_squared: str) -> None:
    # Pearson and tail tests against the certified pmf; false-alarm probability goodness.DEFAULT_ALPHA = 1e-9 each
    values = es.discrete_gaussian(sigma_squared, source=SeededRandomBits(2024), size=50_000)
    fit = goodness.fit_to_distribution(np.array(values), "discrete-gaussian", sigma_squared)
    assert fit.false_alarm == goodness.DEFAULT_ALPHA
    assert fit.holds, fit.summary()


def test_rejection_twin_fits_the_pmf() -> None:
    values = es.discrete_gaussian_rejection("7/3", source=SeededRandomBits(2025), size=5_000)
    fit = goodness.fit_to_distribution(np.array(values), "discrete-gaussian", "7/3")
    assert fit.holds, fit.summary()


@pytest.mark.parametrize("sigma_squared", [Fraction(1, 10**400), Fraction(10**400)])
def test_sigma_below_the_table_or_far_above_falls_back_to_the_rejection_twin(sigma_squared: Fraction) -> None:
    assert inversion_table(sigma_squared) is None
    assert es.discrete_gaussian(sigma_squared, source=SeededRandomBits(4), size=3) == es.discrete_gaussian_rejection(
        sigma_squared, source=SeededRandomBits(4), size=3
    )


@pytest.mark.parametrize("sigma_squared", [Fraction(10**10), Fraction(2**100 - 1)])
def test_sigma_above_the_table_uses_the_blocked_sampler(sigma_squared: Fraction) -> None:
    from reference.samplers.blocked import blocked_draws

    assert inversion_table(sigma_squared) is None
    assert es.discrete_gaussian(sigma_squared, source=SeededRandomBits(4), size=3) == blocked_draws(
        sigma_squared, 3, SeededRandomBits(4))
