"""The pivot columns of a reduced row echelon form, against the rank and hand-built cases."""

from __future__ import annotations

import random

from flint import fmpq_mat

from reference.core.linalg import rref_pivots


def test_hand_built_pivots() -> None:
    # columns 0 and 2 are independent, column 1 = 2 x column 0, column 3 = column 0 + column 2
    matrix = fmpq_mat(3, 4, [1, 2, 0, 1, 2, 4, 1, 3, 3, 6, 1, 4])
    reduced, rank = matrix.rref()
    assert rank == 2 and rref_pivots(reduced, 4) == [0, 2]
    assert rref_pivots(fmpq_mat(2, 3), 3) == []  # a zero matrix has no pivot


def test_width_ignores_an_augmented_block() -> None:
    # [A | b] with A = 0 and b != 0: the pivot of the augmented matrix sits in b, outside A's columns
    augmented = fmpq_mat(2, 3, [0, 0, 1, 0, 0, 2])
    reduced, _ = augmented.rref()
    assert rref_pivots(reduced, 3) == [2]
    assert rref_pivots(reduced, 2) == []


def test_pivot_count_is_the_rank_and_pivots_increase() -> None:
    rng = random.Random(7)
    for _ in range(50):
        rows, cols = rng.randint(1, 5), rng.randint(1, 5)
        matrix = fmpq_mat(rows, cols, [rng.choice([0, 0, 1, -2, 3]) for _ in range(rows * cols)])
        reduced, rank = matrix.rref()
        pivots = rref_pivots(reduced, cols)
        assert len(pivots) == rank == matrix.rank()
        assert pivots == sorted(set(pivots))
        for row, pivot in enumerate(pivots):  # a pivot is a 1 with zeros above and below it
            assert [reduced[i, pivot] for i in range(rows)] == [int(i == row) for i in range(rows)]
