"""The counts of a discrete sample: bincount chunk by chunk when the range is small, sorting otherwise — the same;
float draws of a discrete law checked and converted chunk by chunk."""

from __future__ import annotations

import numpy as np
import pytest

from reference.audit.samples.law_audit import CONVERT_CHUNK, audit_samples
from reference.audit.samples.law_checks import COUNT_CHUNK, distinct_counts
from reference.audit.samples.laws import DiscreteGaussian


@pytest.mark.parametrize("values", [
    np.array([3, -2, 3, 7, -2, -2], dtype=np.int64),
    np.array([0, 0, 5], dtype=np.int64),
    np.array([-(2**40), 2**40, 1], dtype=np.int64),  # a range far beyond the table: sorted
    np.random.default_rng(3).integers(-50, 50, 10_000),
])
def test_the_counts_are_those_of_unique(values: np.ndarray) -> None:
    points, counts = distinct_counts(values.astype(np.int64))
    expected_points, expected_counts = np.unique(values, return_counts=True)
    assert points.tolist() == expected_points.tolist() and counts.tolist() == expected_counts.tolist()


def test_integer_and_float_input_give_one_report() -> None:
    values = np.rint(np.random.default_rng(8).normal(0, 10, 50_000)).astype(np.int64)
    law = DiscreteGaussian(100)
    as_integers, as_floats = audit_samples(values, law), audit_samples(values.astype(float), law)
    assert as_integers.as_json() == as_floats.as_json()


def _chunked_cases() -> list[np.ndarray]:
    """Samples longer than one counting chunk whose later chunks widen the table on either side, or leave it."""
    rng = np.random.default_rng(5)
    widening = rng.integers(-5, 5, 3 * COUNT_CHUNK + 17)
    widening[COUNT_CHUNK + 3] = -900  # the second chunk widens the table downwards
    widening[2 * COUNT_CHUNK + 9] = 4_000  # the third upwards
    far = rng.integers(-5, 5, 2 * COUNT_CHUNK)
    far[-1] = 2**45  # the last chunk makes the range too wide to count: sorted
    return [widening, far, rng.integers(0, 3, COUNT_CHUNK + 1)]


@pytest.mark.parametrize("values", _chunked_cases())
def test_chunked_counts_are_those_of_unique(values: np.ndarray) -> None:
    points, counts = distinct_counts(values.astype(np.int64))
    expected_points, expected_counts = np.unique(values, return_counts=True)
    assert points.tolist() == expected_points.tolist() and counts.tolist() == expected_counts.tolist()


@pytest.mark.parametrize(("position", "bad", "message"), [
    (CONVERT_CHUNK + 5, 0.5, "integers"), (CONVERT_CHUNK + 5, np.nan, "finite"),
    (2 * CONVERT_CHUNK - 1, -np.inf, "finite"), (0, 2.5, "integers"),
])
def test_float_draws_of_a_discrete_law_are_checked_in_every_chunk(position: int, bad: float, message: str) -> None:
    values = np.rint(np.random.default_rng(6).normal(0, 2, 2 * CONVERT_CHUNK))
    values[position] = bad
    with pytest.raises(ValueError, match=message):
        audit_samples(values, DiscreteGaussian(4))


def test_huge_float_draws_are_counted_as_integers_in_the_tails() -> None:
    values = np.rint(np.random.default_rng(7).normal(0, 2, 5_000))
    values[:3] = [2.0**60, -1e300, 2.0**53 + 2]
    report = audit_samples(values, DiscreteGaussian(4))
    assert report.verdict == "fails"
    assert any(check.name == "tails" and not check.holds for check in report.checks)
