"""Numeric CIP error metrics against their brute-force and exact twins."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from reference.cip.numeric import errors as cip_errors


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-5, 5, allow_nan=False), min_size=1, max_size=40))
def test_worst_range_error_matches_brute_force(values: list[float]) -> None:
    fast = cip_errors.worst_range_error(values)
    brute = cip_errors.worst_range_error_brute(values)
    assert fast.value == pytest.approx(brute.value, abs=1e-9)
    attained = abs(sum(values[fast.first : fast.last + 1]))
    assert attained == pytest.approx(fast.value, abs=1e-9)


def test_worst_node_error_matches_direct_sums() -> None:
    rng = np.random.default_rng(1)
    leaves = rng.standard_normal(16)
    direct = max(abs(leaves[p * w : (p + 1) * w].sum()) for w in (1, 2, 4, 8, 16) for p in range(16 // w))
    assert cip_errors.worst_node_error(leaves) == pytest.approx(direct)


def test_sample_ranges_uniform() -> None:
    # chi-square goodness of fit over all 10 ranges of n = 4; false-alarm probability 1e-9 (seeded)
    n, draws = 4, 50000
    ranges = cip_errors.sample_ranges(n, draws, rng=7)
    assert np.all(ranges[:, 0] <= ranges[:, 1]) and ranges.min() >= 0 and ranges.max() < n
    keys = ranges[:, 0] * n + ranges[:, 1]
    observed = np.array([np.sum(keys == a * n + b) for a in range(n) for b in range(a, n)])
    _, p_value = stats.chisquare(observed)
    assert p_value > 1e-9


def test_expected_worst_error_is_reproducible() -> None:
    a = cip_errors.expected_worst_error(3, 1.0, "ranges", 10, rng=5)
    b = cip_errors.expected_worst_error(3, 1.0, "ranges", 10, rng=5)
    assert a == b and a.draws == 10 and a.mean > 0


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: cip_errors.worst_range_error([]), "non-empty"),
        (lambda: cip_errors.worst_range_error([1.0, float("nan")]), "finite"),
        (lambda: cip_errors.worst_node_error([1.0, 2.0, 3.0]), "power-of-two"),
        (lambda: cip_errors.expected_worst_error(3, -1.0, "ranges", 10), "sigma"),
        (lambda: cip_errors.expected_worst_error(3, 1.0, "rows", 10), "workload"),  # type: ignore[arg-type]
        (lambda: cip_errors.sample_ranges(0, 5), "length"),
    ],
)
def test_bad_input(call: object, message: str) -> None:
    with pytest.raises((ValueError, TypeError), match=message):
        call()  # type: ignore[operator]
