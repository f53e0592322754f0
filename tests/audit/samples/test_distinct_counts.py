"""The counts of a discrete sample: one bincount pass when the range is small, sorting otherwise — the same."""

from __future__ import annotations

import numpy as np
import pytest

from reference.audit.samples.law_audit import audit_samples
from reference.audit.samples.law_checks import distinct_counts
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
