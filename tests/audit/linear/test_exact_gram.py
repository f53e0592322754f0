"""CᵀC by float64 BLAS products that cannot round (one product, or a split into digits), against Python ints."""

from __future__ import annotations

import numpy as np
import pytest

from reference.audit.linear.exact_gram import EXACT_DOUBLE, exact_gram


def _python_gram(matrix: np.ndarray) -> list[list[int]]:
    columns = [[int(v) for v in matrix[:, j]] for j in range(matrix.shape[1])]
    return [[sum(a * b for a, b in zip(left, right)) for right in columns] for left in columns]


@pytest.mark.parametrize(("rows", "bits"), [(5, 3), (40, 20), (7, 40), (30, 58), (3, 61), (200, 61)])
def test_exact_gram_matches_python_integers(rows: int, bits: int) -> None:
    generator = np.random.default_rng(rows * 100 + bits)
    matrix = generator.integers(-(2**bits), 2**bits, (rows, 5), dtype=np.int64)
    matrix[0, 0] = -(2**bits)  # the most negative digit pattern
    assert exact_gram(matrix) == _python_gram(matrix)


def test_a_product_that_would_round_in_one_float_product_is_split() -> None:
    # 2^27 + 1 squared is 2^54 + 2^28 + 1: one float64 product rounds it to an even number; the digits do not
    value = 2**27 + 1
    matrix = np.array([[value], [0]], dtype=np.int64)
    floats = matrix.astype(np.float64)
    assert int((floats.T @ floats)[0, 0]) != value * value  # the hazard the split avoids
    assert exact_gram(matrix) == [[value * value]]
    assert 2 * value * value > EXACT_DOUBLE


def test_what_is_not_taken() -> None:
    assert exact_gram(np.array([[2**62]], dtype=np.int64)) is None  # beyond the digit range
    assert exact_gram(np.zeros((0, 3), dtype=np.int64)) is None
    assert exact_gram(np.array([[0.5]])) is None  # not integers


def test_a_mostly_zero_matrix_takes_the_sparse_product() -> None:
    generator = np.random.default_rng(3)
    matrix = np.zeros((60, 40), dtype=np.int64)
    rows, cols = generator.integers(0, 60, 100), generator.integers(0, 40, 100)
    matrix[rows, cols] = generator.integers(-(2**29), 2**29, 100)
    assert np.count_nonzero(matrix) * 8 < matrix.size
    assert exact_gram(matrix) == _python_gram(matrix)
    matrix[0, :] = 2**40  # a column ℓ1 norm times the largest entry past 2⁶³: the sparse digit split instead
    assert exact_gram(matrix) == _python_gram(matrix)
    matrix[1, :3] = -(2**61)  # near the digit range, negative top digits
    assert exact_gram(matrix) == _python_gram(matrix)
