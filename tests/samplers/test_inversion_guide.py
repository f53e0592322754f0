"""The inversion table's guide changes no outcome, and the one-sided table brackets its CDF.

``table_lookup`` (guide, then ``searchsorted`` in the buckets a table entry splits) against the definition
``k = #{m : upper[m] <= u}`` and ``u + 1 <= lower[k]`` computed with plain ``searchsorted`` on every u, at random
u and at every bucket's first and last u; the one-sided table's bounds against ``G(m) = P[X <= m | X >= 0]``
for ``X ~ N_Z(0, s²)`` from the certified pmf and tail (an independent route to the same law)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from reference.samplers.inversion import inversion_table, table_lookup
from reference.samplers.pmf import discrete_gaussian_pmf, discrete_gaussian_tail


def _by_definition(lower: np.ndarray, upper: np.ndarray, digits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    found = np.searchsorted(upper, digits, side="right")
    last = lower.size - 1
    decided = np.array([k <= last and u + 1 <= int(lower[k]) for k, u in zip(found.tolist(), digits.tolist())])
    return found, decided


@pytest.mark.parametrize(("sigma_squared", "word_bits", "one_sided"), [
    (Fraction(10**6), 64, False), (Fraction(40 * 10**6), 64, False), (Fraction(3), 64, False),
    (Fraction(10**4), 64, True), (Fraction(9, 4), 12, True), (Fraction(100), 16, False)])
def test_the_guide_gives_what_the_definition_gives(sigma_squared: Fraction, word_bits: int, one_sided: bool) -> None:
    table = inversion_table(sigma_squared, word_bits, one_sided)
    assert table is not None
    resolution = word_bits - 1
    generator = np.random.default_rng(int(sigma_squared))
    spread = generator.integers(0, 1 << resolution, 40_000, dtype=np.uint64)
    width = np.uint64(1 << (resolution - table.guide_bits))
    firsts = np.arange(1 << table.guide_bits, dtype=np.uint64) * width
    near = np.clip(np.concatenate([table.upper, table.lower]).astype(np.int64)[:, None] + np.arange(-2, 3),
                   0, (1 << resolution) - 1).astype(np.uint64).ravel() if resolution < 63 else \
        np.concatenate([table.upper - np.uint64(1), table.upper, table.lower - np.uint64(1), table.lower])
    near = near[near < np.uint64(1 << resolution)]
    for digits in (spread, firsts, firsts + width - np.uint64(1), near):
        found, decided = table_lookup(table, digits)
        expected_found, expected_decided = _by_definition(table.lower, table.upper, digits)
        assert np.array_equal(found, expected_found)
        assert np.array_equal(decided, expected_decided)
    # the guide is worth having: most of the law's mass lands in sure buckets
    assert np.count_nonzero(table.guide_sure) / table.guide_sure.size > 0.5


def test_the_one_sided_table_brackets_the_conditioned_cdf() -> None:
    s2 = Fraction(25, 4)
    table = inversion_table(s2, 64, True)
    assert table is not None
    positive = discrete_gaussian_tail(0, s2)  # P[X >= 0]
    unit = Fraction(1 << 63)
    head_low = head_high = Fraction(0)
    for m in range(table.last + 1):
        mass = discrete_gaussian_pmf(m, s2)
        head_low += mass.lower
        head_high += mass.upper
        # G(m) = P[0 <= X <= m] / P[X >= 0], enclosed from the certified pmf and tail
        low, high = head_low / positive.upper, head_high / positive.lower
        assert Fraction(int(table.lower[m])) / unit <= high
        assert Fraction(int(table.upper[m])) / unit >= low
    assert int(table.upper[-1]) == 1 << 63 or (1 - head_high / positive.lower) * unit < 2
