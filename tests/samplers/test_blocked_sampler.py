"""The blocked exact discrete Gaussian (large σ): fit to the exact pmf at every decade it serves, its exact
acceptance decision against an Arb-only twin, and the dispatch of ``discrete_gaussian``.

Seeded goodness-of-fit tests; the false-alarm probability of each is stated (Bonferroni over the file's fits:
1e-9 in all)."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import numpy as np
import pytest
from flint import arb
from reference_verification.samplers.checks import fit_to_distribution

from reference.core.certified import CertifiedReal, ball, working_precision
from reference.core.randomness import SeededRandomBits
from reference.samplers import exact
from reference.samplers.blocked import _accept, block_width, blocked_draws
from reference.samplers.pmf import discrete_gaussian_cdf

#: Fits in this file; each runs at false alarm FALSE_ALARM / FITS.
FITS = 9
FALSE_ALARM = 1e-9


@pytest.mark.parametrize("sigma_squared", [128 * 128, 10**5, 10**6, 10**7])
def test_blocked_draws_fit_the_exact_pmf_cell_by_cell(sigma_squared: int) -> None:
    # σ small enough for the per-integer exact test (every cell's pmf certified), large enough for blocks >= 2
    samples = 60_000
    values = blocked_draws(Fraction(sigma_squared), samples, SeededRandomBits(sigma_squared))
    check = fit_to_distribution(np.array(values), "discrete-gaussian", sigma_squared, alpha=FALSE_ALARM / FITS)
    assert check.holds, check.summary()


def _binned_p_value(values: np.ndarray, sigma_squared: int) -> float:
    """Pearson chi-square of |X| in bins at 0.5σ, σ, 1.5σ, 2σ and of the sign, expected from the certified CDF."""
    from scipy.stats import chi2

    sigma = int(np.sqrt(sigma_squared))
    edges = [sigma // 2, sigma, 3 * sigma // 2, 2 * sigma]
    within = []  # P[|X| <= e] = 2 P[X <= e] - 1, from the certified CDF (midpoints: the widths are ~1e-6 or less)
    for edge in edges:
        cdf = discrete_gaussian_cdf(edge, sigma_squared)
        middle = float((cdf.lower + cdf.upper) / 2)
        within.append(2 * middle - 1)
    probabilities = np.diff([0.0, *within, 1.0])
    magnitudes = np.abs(values)
    observed_bins = np.array([np.count_nonzero(magnitudes <= edges[0])]
                             + [np.count_nonzero((magnitudes > lo) & (magnitudes <= hi))
                                for lo, hi in itertools.pairwise(edges)]
                             + [np.count_nonzero(magnitudes > edges[-1])])
    # split each magnitude bin by sign (fair for m > 0; the single value 0 has mass ~1/σ, put it in the + half)
    positive = np.array([np.count_nonzero((values >= 0) & (magnitudes <= edges[0]))]
                        + [np.count_nonzero((values > 0) & (magnitudes > lo) & (magnitudes <= hi))
                           for lo, hi in itertools.pairwise(edges)]
                        + [np.count_nonzero((values > 0) & (magnitudes > edges[-1]))])
    expected = values.size * probabilities
    statistic = float(np.sum((positive - expected / 2) ** 2 / (expected / 2))
                      + np.sum((observed_bins - positive - expected / 2) ** 2 / (expected / 2)))
    return float(chi2.sf(statistic, 2 * len(probabilities) - 1))


@pytest.mark.parametrize("exponent", [8, 9, 10, 11, 12])
def test_discrete_gaussian_fits_at_every_large_decade(exponent: int) -> None:
    sigma_squared = 10**exponent
    values = np.array(exact.discrete_gaussian(sigma_squared, source=SeededRandomBits(exponent), size=100_000))
    assert _binned_p_value(values, sigma_squared) > FALSE_ALARM / FITS


def test_the_binned_fit_catches_a_wrong_scale() -> None:
    # draws at σ² = 1.1e10 tested against 1e10: the test must fail (it is not a test that passes everything)
    values = np.array(exact.discrete_gaussian(11 * 10**9, source=SeededRandomBits(5), size=100_000))
    assert _binned_p_value(values, 10**10) < FALSE_ALARM


def _arb_twin(u: int, length: int, halve: int, numerator: int, denominator: int) -> bool | None:
    """V < exp(-γ)/H for every V in [u/2^L, (u+1)/2^L) (True), for none (False), or undecided here (None)."""
    with working_precision(4 * length + 64):
        value = CertifiedReal.from_arb(ball(Fraction(1, halve)) * (-ball(Fraction(numerator, denominator))).exp())
    if Fraction(u + 1, 1 << length) <= value.lower:
        return True
    if Fraction(u, 1 << length) >= value.upper:
        return False
    return None


def test_the_integer_acceptance_bounds_agree_with_arb() -> None:
    rng = random.Random(7)
    decided = 0
    for _ in range(3000):
        length = rng.choice((8, 16, 50))
        denominator = rng.randint(1, 10**6)
        numerator = rng.randint(0, denominator // 4)  # γ in [0, 1/4]: the blocked sampler's range
        halve = rng.choice((1, 2))
        # u near the threshold half the time, so the bounds' edges are exercised
        target = int((1 << length) * float(arb(Fraction(1, halve).numerator) / halve
                                           * (-arb(numerator) / denominator).exp().mid()))
        u = min((1 << length) - 1, max(0, target + rng.randint(-3, 3))) if rng.random() < 0.5 else \
            rng.randrange(1 << length)
        twin = _arb_twin(u, length, halve, numerator, denominator)
        if twin is None:
            continue  # V's interval straddles the threshold: the sampler draws more digits (a random outcome)
        decided += 1
        assert _accept(u, length, halve, numerator, denominator, SeededRandomBits(0)) is twin
    assert decided > 2500


def test_block_width_is_the_largest_power_of_two_below_sigma_over_64() -> None:
    assert block_width(Fraction(128 * 128)) == 2
    assert block_width(Fraction(128 * 128 - 1)) == 1
    assert block_width(Fraction(10**12)) == 8192  # 10^6/64 = 15625 >= 8192, < 16384


def test_discrete_gaussian_uses_the_blocked_sampler_beyond_the_table() -> None:
    # same seed, same values: the dispatch goes to blocked_draws where there is no inversion table
    assert exact.discrete_gaussian(10**9, source=SeededRandomBits(3), size=50) == blocked_draws(
        Fraction(10**9), 50, SeededRandomBits(3))


def one_at_a_time(sigma_squared: Fraction, count: int, source: SeededRandomBits, width: int | None = None) -> list[int]:
    """The blocked sampler's draw order (module docstring) in plain Python integers, every proposal decided by
    the definitions: the block index as ``#{m : upper[m] <= u}`` and the table's test (no guide, no
    searchsorted), every acceptance by the exact tests (no whole-array test). The same bits must give the same
    values."""
    from reference.samplers.inversion import _resolve, inversion_table

    width = block_width(sigma_squared) if width is None else width
    shift = width.bit_length() - 1
    table = inversion_table(sigma_squared / (width * width), 64, True)
    assert table is not None
    upper, lower = [int(v) for v in table.upper], [int(v) for v in table.lower]
    p, q = sigma_squared.numerator, sigma_squared.denominator
    digits = 64 - shift
    out: list[int] = []
    while len(out) < count:
        missing = count - len(out)
        size = missing + missing // 32 + 64
        raw = source.randbits(64 * size)
        block_words = [(raw >> (64 * i)) & ((1 << 64) - 1) for i in range(size)]
        blocks = []
        for word in block_words:  # the table's decisions, then the undecided ones in index order
            u = word >> 1
            found = sum(1 for bound in upper if bound <= u)
            blocks.append(found if found < len(lower) and u + 1 <= lower[found] else None)
        for index, word in enumerate(block_words):
            if blocks[index] is None:
                u = word >> 1
                blocks[index] = _resolve(u, 63, sum(1 for bound in upper if bound <= u), table.sigma_squared,
                                         source, True)
        raw = source.randbits(64 * size)
        accepted_here = 0
        for index in range(size):
            word = (raw >> (64 * index)) & ((1 << 64) - 1)
            b, negative = blocks[index], block_words[index] & 1
            assert b is not None
            r, u = word & (width - 1), word >> shift
            m = b * width + r
            if m == 0:
                accept = u < 1 << (digits - 1)  # V < 1/2
            else:
                n, d = r * (2 * b * width + r) * q, 2 * p
                accept = _accept(u, digits, 1, n, d, source)
            if accept:
                out.append(-m if negative else m)
                accepted_here += 1
                if accepted_here == missing:
                    break
    return out


@pytest.mark.parametrize("sigma_squared", [Fraction(10**8), Fraction(10**8) + Fraction(1, 3), Fraction(10**10),
                                           Fraction(7 * 10**9, 11), Fraction(10**12), Fraction(10**20)])
def test_the_whole_array_decision_gives_the_one_at_a_time_draws(sigma_squared: Fraction) -> None:
    for count in (1, 5, 3000):
        assert blocked_draws(sigma_squared, count, SeededRandomBits(count)) == one_at_a_time(
            sigma_squared, count, SeededRandomBits(count))


@pytest.mark.parametrize(("sigma_squared", "width"), [(Fraction(64), 4), (Fraction(9, 2), 1), (Fraction(10**6), 64)])
def test_small_blocks_give_the_one_at_a_time_draws(sigma_squared: Fraction, width: int) -> None:
    # small σ² and blocks: γ reaches 1 and beyond, block 0 and x = 0 are frequent, the exact tests run often
    from reference.samplers.blocked import sample_blocked

    for count in (1, 7, 2000):
        assert sample_blocked(sigma_squared, count, SeededRandomBits(count), width) == one_at_a_time(
            sigma_squared, count, SeededRandomBits(count), width)


def test_the_whole_array_test_only_accepts_what_the_exact_test_accepts() -> None:
    from reference.samplers.blocked import _surely_accepted

    generator = np.random.default_rng(3)
    for sigma_squared in (Fraction(10**8), Fraction(10**12) + Fraction(2, 7)):
        width, p, q = block_width(sigma_squared), sigma_squared.numerator, sigma_squared.denominator
        digits = 62 - (width.bit_length() - 1)
        block = generator.integers(0, 700, 20_000)
        offset = generator.integers(0, width, 20_000)
        # uniforms spread over [0, 2^L), and a band just below each proposal's threshold 2^L (1 − γ)
        spread = generator.integers(0, 1 << digits, 20_000, dtype=np.uint64)
        d = 2 * p
        thresholds = [((1 << digits) * (d - r * (2 * b * width + r) * q)) // d for b, r in zip(block.tolist(), offset.tolist())]
        near = np.array([max(t - int(k), 0) for t, k in zip(thresholds, generator.integers(0, 4, 20_000))], dtype=np.uint64)
        for uniforms in (spread, near):
            fast = _surely_accepted(block, offset, uniforms, digits, width, p, q)
            exact_test = [(u + 1) * d <= (1 << digits) * (d - r * (2 * b * width + r) * q)
                          for b, r, u in zip(block.tolist(), offset.tolist(), uniforms.tolist())]
            assert all(e for f, e in zip(fast.tolist(), exact_test) if f)
        assert fast.sum() < sum(exact_test) or not any(exact_test)  # the band near the threshold is left open
