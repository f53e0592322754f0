"""Sufficient statistics: blocks of runs, in any split and any merge order, give identical sums and verdicts."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np

from reference.audit.samples.cascade_stream import CascadeMoments, audit_cascade_stream
from reference.audit.samples.design_audit import audit_design_samples, kary_design
from reference.audit.samples.design_moments import DesignMoments
from reference.audit.samples.sufficient import FRACTION_BITS, ExactSums, IntegerHistogram
from reference.cip.numeric.cascade_runs import cascade_leaves_runs
from reference.kary.counters_runs import algorithm_2_runs
from reference.samplers.fit import fit_to_counts, fit_to_distribution
from reference.samplers.numeric_runs import discrete_gaussian_runs

ALPHA = 1e-6


def _splits(runs: int, seed: int) -> list[tuple[int, int]]:
    """Random contiguous blocks covering 0..runs, in a shuffled order."""
    rng = np.random.default_rng(seed)
    cuts = sorted({0, runs, *rng.integers(1, runs, 5).tolist()})
    blocks = list(itertools.pairwise(cuts))
    rng.shuffle(blocks)
    return blocks


def test_exact_sums_are_the_integer_sums_of_the_rounded_values() -> None:
    values = np.random.default_rng(1).standard_normal((57, 4)) * 3.0
    whole = ExactSums((4,))
    whole.add(values)
    expected = [sum(round(v * 2**FRACTION_BITS) for v in column) for column in values.T]  # independent
    assert [int(v) for v in whole.total] == expected
    parts = ExactSums((4,))
    for start, stop in _splits(57, 2):
        piece = ExactSums((4,))
        piece.add(values[start:stop])
        parts.merge(piece)
    assert np.array_equal(parts.total, whole.total)
    assert np.all(np.abs(whole.values() - values.sum(axis=0)) <= 57 * 2.0 ** -(FRACTION_BITS + 1) + 1e-12)


def test_exact_sums_stay_exact_for_huge_values() -> None:
    values = np.array([[1e30], [-1e30], [2.5e-3], [1e18]])
    sums = ExactSums((1,))
    sums.add(values)
    expected = sum(round(float(v) * 2**FRACTION_BITS) for v in values[:, 0])
    assert int(sums.total[0]) == expected


def test_cascade_moments_do_not_depend_on_the_split() -> None:
    depth, runs = 6, 400
    samples = cascade_leaves_runs(depth, 1.3, runs, 5)
    whole = CascadeMoments(depth, 1.3)
    whole.add(samples)
    merged = CascadeMoments(depth, 1.3)
    for start, stop in _splits(runs, 3):
        part = CascadeMoments(depth, 1.3)
        part.add(samples[start:stop])
        merged.merge(part)
    assert merged.statistics() == whole.statistics()
    assert merged.report(ALPHA).as_json() == whole.report(ALPHA).as_json()
    for block in (1, 7, 64, runs):
        assert audit_cascade_stream(samples, depth, sigma=1.3, alpha=ALPHA, block_runs=block).as_json() == whole.report(ALPHA).as_json()


def test_design_moments_do_not_depend_on_the_split() -> None:
    horizon, runs = 9, 3000
    design = kary_design(3, horizon, 2, Fraction(1))
    samples = algorithm_2_runs(np.zeros(horizon, dtype=np.int64), 3, 1.0, runs, 9)
    merged = DesignMoments(design, runs, ALPHA)
    for start, stop in _splits(runs, 4):
        part = DesignMoments(design, runs, ALPHA)
        part.add(samples[start:stop], start)
        merged.merge(part)
    whole = audit_design_samples(samples, design, ALPHA)
    assert merged.report().as_json() == whole.as_json()
    assert whole.holds


def test_histogram_fit_equals_the_fit_on_the_values() -> None:
    values = discrete_gaussian_runs(Fraction(9, 2), 500, 8, 6)
    histogram = IntegerHistogram()
    for start, stop in _splits(8, 5):
        part = IntegerHistogram()
        part.add(values[start:stop])
        histogram.merge(part)
    from_counts = fit_to_counts(dict(histogram.counts), "discrete-gaussian", Fraction(9, 2), ALPHA)
    direct = fit_to_distribution(values.ravel(), "discrete-gaussian", Fraction(9, 2), ALPHA)
    assert histogram.draws == values.size
    assert (from_counts.p_value, from_counts.statistic, from_counts.detail) == (
        direct.p_value, direct.statistic, direct.detail)


def test_the_grand_total_is_exact_near_the_int64_limit() -> None:
    sums = ExactSums((3,))
    sums.total = np.array([2**62, 2**62, -5], dtype=np.int64)
    assert sums.grand_total() == 2**63 - 5
    sums.total = sums.total.astype(object)
    assert sums.grand_total() == 2**63 - 5


def test_the_pooled_scale_test_sees_a_small_common_scale_error() -> None:
    # 2% too large a σ at depth 10 and 300 runs: far inside every per-node band (about ±50% at 300 runs), but the
    # pooled chi-square with 300 × 1024 degrees of freedom sees it
    samples = cascade_leaves_runs(10, 1.02, 300, 8)
    report = CascadeMoments(10, 1.0)
    report.add(samples)
    verdict = report.report(ALPHA)
    assert not verdict.holds
    # the magnitude counts (a family test, every coefficient counted) may see the scale too; the per-node bands not
    assert "pooled scale" in {check.name for check in verdict.checks if not check.holds}
    assert {check.name for check in verdict.checks if not check.holds} <= {"pooled scale", "whitened magnitudes"}
    correct = CascadeMoments(10, 1.02)
    correct.add(samples)
    assert correct.report(ALPHA).holds


def test_the_stated_cascade_power_holds_in_simulation() -> None:
    # at the stated scale error each seeded run detects it with probability >= 99% (so all 5 with >= 95%)
    from reference.audit.samples.cascade_stream import cascade_power

    depth, runs = 6, 200
    error = cascade_power(depth, runs, ALPHA)["scale_error"]
    assert 0 < error < 0.1
    for seed in range(5):
        moments = CascadeMoments(depth, 1.0)
        moments.add(cascade_leaves_runs(depth, 1.0 + error, runs, 100 + seed))
        assert not moments.report(ALPHA).holds


def test_small_depth_cascade_moments_do_not_depend_on_the_split() -> None:
    from reference.audit.samples.audit import audit_cascade_samples, cascade_samples_report
    from reference.audit.samples.whitened_moments import CascadeSampleMoments

    depth, runs = 4, 500
    samples = cascade_leaves_runs(depth, 0.8, runs, 12)
    merged = CascadeSampleMoments(depth, 0.8)
    for start, stop in _splits(runs, 6):
        part = CascadeSampleMoments(depth, 0.8)
        part.add(samples[start:stop])
        merged.merge(part)
    whole = audit_cascade_samples(samples, depth, sigma=0.8, alpha=ALPHA)
    split = cascade_samples_report(merged, ALPHA)
    assert split.checks == whole.checks and split.holds == whole.holds
    # every test passes; 500 runs cannot see a 2% scale error at depth 4: the audit says so
    assert whole.holds and whole.verdict == "inconclusive" and whole.runs_needed is not None
    assert not audit_cascade_samples(samples, depth, sigma=0.8**2, alpha=ALPHA).holds  # the variance passed for σ


def test_the_grid_kolmogorov_smirnov_counts_are_the_empirical_distribution() -> None:
    from reference.audit.samples.whitened_moments import CascadeSampleMoments

    moments = CascadeSampleMoments(2, 1.0)
    samples = cascade_leaves_runs(2, 1.0, 30, 13)
    moments.add(samples)
    white = samples @ moments.whitening.T
    # independent count: how many pooled whitened values lie at or below each grid edge
    expected = [int(np.count_nonzero(white <= edge)) for edge in moments.edges]
    close = np.abs(white.ravel()[:, None] - moments.edges[None, :]) < 1e-9  # values on an edge are ambiguous
    assert not close.any()
    assert moments.below.tolist() == expected


def test_the_haar_structured_whitening_is_the_matrix_product() -> None:
    from reference.audit.samples.whitened_moments import CascadeSampleMoments

    for depth in (0, 1, 3, 6):
        moments = CascadeSampleMoments(depth, 1.7)
        samples = cascade_leaves_runs(depth, 1.7, 40, depth)
        assert np.allclose(moments.whiten(samples), samples @ moments.whitening.T, rtol=0, atol=1e-12)


def test_totals_beyond_int64_become_python_integers_exactly() -> None:
    sums = ExactSums((2,))
    big = np.array([2.0**52 - 1, 3.0])
    for _ in range(2000):  # 2000 (2**52 - 1) passes 2**62: the totals switch to Python integers
        sums.add_integers(big)
    assert sums.total.dtype == object
    assert [int(v) for v in sums.total] == [2000 * (2**52 - 1), 6000]
    assert all(isinstance(v, int) for v in sums.total)


def test_exact_gram_is_the_integer_gram_of_the_rounded_values() -> None:
    from reference.audit.samples.sufficient import exact_gram

    values = np.random.default_rng(3).standard_normal((300, 5)) * 4.0
    values[7, 2] = 3e9  # one huge value: its row is multiplied out in Python integers
    pairs = np.triu_indices(5, 1)
    sums = ExactSums((pairs[0].size,), 32)
    for start, stop in _splits(300, 7):
        exact_gram(sums, values[start:stop], 16, pairs)
    rounded = [[round(v * 2**16) for v in row] for row in values.tolist()]  # independent: Python integers
    expected = [sum(row[s] * row[t] for row in rounded) for s, t in zip(*pairs)]
    assert [int(v) for v in sums.total] == expected


def test_worker_environment_sets_one_thread_and_restores() -> None:
    import os

    from reference.core.processes import THREAD_VARIABLES, worker_environment

    before = {name: os.environ.get(name) for name in THREAD_VARIABLES}
    with worker_environment():
        assert all(os.environ[name] == (before[name] or "1") for name in THREAD_VARIABLES)
    assert {name: os.environ.get(name) for name in THREAD_VARIABLES} == before
