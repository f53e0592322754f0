"""Sequence parameters (difference vectors, shifts) read by one validator: each malformed form is one line naming
the parameter, never Python's or NumPy's own words ("'int' object is not iterable", "truth value of an array")."""

from __future__ import annotations

from fractions import Fraction

import numpy
import pytest

from reference.audit.calibration import audit_laplace
from reference.core.validate import exact_vectors, sequence_of
from reference.privacy.discrete_gaussian_shift import discrete_gaussian_shift_delta
from reference.privacy.laplace_profile import laplace_delta

MALFORMED_VECTORS: list[object] = [
    5, None, "12", {1: 2}, [], [None], [5], [1 + 2j], [[]], [[float("nan")]], numpy.array([numpy.nan]),
    numpy.array([[0.5]]), [["x"]],
]


@pytest.mark.parametrize("vectors", MALFORMED_VECTORS)
def test_malformed_difference_vectors_are_one_named_line(vectors: object) -> None:
    with pytest.raises((TypeError, ValueError)) as refused:
        audit_laplace(epsilon=1, delta=0, scale=2, sensitivity_vectors=vectors)  # type: ignore[arg-type]
    message = str(refused.value)
    assert message.startswith("sensitivity_vectors") and "\n" not in message


def test_an_integer_numpy_matrix_reads_as_its_rows() -> None:
    as_array = audit_laplace(epsilon=1, delta=0, scale=2, sensitivity_vectors=numpy.array([[1, 1], [2, 0]]))  # type: ignore[arg-type]
    as_lists = audit_laplace(epsilon=1, delta=0, scale=2, sensitivity_vectors=[[1, 1], [2, 0]])
    assert as_array.verdict == as_lists.verdict == "holds"  # ε = ‖v‖₁/b = 2/2 = 1 exactly (KARY Lemma A.2)
    assert exact_vectors(numpy.array([[1, -3]]), "v") == [[Fraction(1), Fraction(-3)]]


def test_an_entry_is_named_by_its_position() -> None:
    with pytest.raises(TypeError, match=r"^v\[1\]\[0\] must be an exact rational"):
        exact_vectors([[1], [0.5]], "v")


@pytest.mark.parametrize("shift", [None, 5, {1: 2}, "12", []])
def test_a_malformed_shift_is_one_named_line(shift: object) -> None:
    with pytest.raises((TypeError, ValueError)) as refused:
        discrete_gaussian_shift_delta(epsilon=1, sigma_squared=4, shift=shift)  # type: ignore[arg-type]
    assert str(refused.value).startswith("shift") and "\n" not in str(refused.value)


def test_sequence_of_refuses_sets_and_scalars() -> None:
    for value in ({1, 2}, 3, numpy.float64(2)):
        with pytest.raises(TypeError, match=r"^xs must be a list"):
            sequence_of(value, "xs", "a list of numbers")


def test_a_too_small_laplace_scale_names_scale_and_sensitivities() -> None:
    with pytest.raises(ValueError) as refused:
        laplace_delta(epsilon=1, scale=Fraction(1, 10**7), sensitivities=[1, 1])
    message = str(refused.value)
    assert message.startswith("scale") and "sensitivities" in message and "\n" not in message
