"""ProbedColumns (a probe's non-zeros, the columns built when read) reads exactly as SparseColumns built from the
same columns' dicts: the columns, both forms, the counts, the used columns and the dense matrix; each read is the
caller's own."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np

from reference.audit.linear.column_matrix import SparseColumns
from reference.audit.linear.probed_columns import ProbedColumns


def test_probed_columns_read_as_the_same_sparse_columns() -> None:
    rng = random.Random(3)
    rows, cols = 7, 9
    values = [Fraction(1), Fraction(-2), Fraction(1, 3), Fraction(5, 2)]
    expected: list[dict[int, Fraction | int]] = [{} for _ in range(cols)]
    positions = []
    for col in range(cols):
        if col in (2, 6):
            continue  # two columns without a non-zero
        for row in rng.sample(range(rows), rng.randint(1, rows)):
            index = rng.randrange(len(values))
            value = values[index]
            expected[col][row] = int(value) if value.denominator == 1 else value
            positions.append((row, col, index))
    rng.shuffle(positions)  # the probe's order is not the columns' order
    probed = ProbedColumns(rows, cols, np.array([p[0] for p in positions], dtype=np.int64),
                           np.array([p[1] for p in positions], dtype=np.int64), values,
                           np.array([p[2] for p in positions], dtype=np.int64))
    plain = SparseColumns(rows, cols, [dict(column) for column in expected])
    assert probed.nonzeros(False) == plain.nonzeros(False) == len(positions)
    assert probed.used_columns() == plain.used_columns() == [c for c in range(cols) if c not in (2, 6)]
    first = probed.columns(False)
    assert first == expected
    first[0].clear()  # the reader's own dicts: the next read is whole
    assert probed.columns(False) == expected
    assert probed.columns(True) == plain.columns(True)
    assert probed.nonzeros(True) == plain.nonzeros(True)
    assert probed.dense() == plain.dense()
    assert probed.columns(False) == expected  # built and kept now: still copies
    assert all(type(value) is int for column in probed.columns(False) for value in column.values()
               if Fraction(value).denominator == 1)
