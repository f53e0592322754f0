"""The O(depth) closed form of the total range variance against the two O(n²) routes, and its growth."""

from __future__ import annotations

import pytest

from reference.cip.exact.ranges import (
    all_range_statistics,
    range_variance,
    total_range_variance,
    total_range_variance_by_pair_counts,
)


@pytest.mark.parametrize("depth", range(0, 9))
def test_closed_form_total_equals_the_recurrence_and_the_pair_counts(depth: int) -> None:
    closed = total_range_variance(depth)
    assert closed == all_range_statistics(depth).total_variance
    assert closed == total_range_variance_by_pair_counts(depth)


@pytest.mark.parametrize("depth", [10, 11])
def test_closed_form_total_equals_the_recurrence_at_larger_depths(depth: int) -> None:
    assert total_range_variance(depth) == all_range_statistics(depth).total_variance


def test_closed_form_reaches_depth_24_exactly() -> None:
    total = total_range_variance(24)
    count = (1 << 24) * ((1 << 24) + 1) // 2
    # the mean lies between the smallest variance (a single leaf, 1, is not below it) and the largest
    assert 0 < total / count < range_variance(24, 0, (1 << 24) - 1) + 24


@pytest.mark.parametrize("depth", range(0, 9))
def test_range_summary_equals_the_all_range_sweep(depth: int) -> None:
    from reference.cip.exact.ranges import range_summary

    summary, sweep = range_summary(depth), all_range_statistics(depth)
    assert (summary.max_variance, summary.argmax, summary.maximisers, summary.total_variance, summary.count) == (
        sweep.max_variance, sweep.argmax, sweep.maximisers, sweep.total_variance, sweep.count)
    assert summary.mean_variance == sweep.total_variance / sweep.count
