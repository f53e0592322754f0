"""A probed map as sparse exact columns, held as the probe found it (numpy arrays of positions, each distinct exact
value once) until a reader asks for the columns: the dict per column (a Python object per non-zero) is built on the
first read, once, not by the probe itself.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import islice, repeat

import numpy as np

from reference.audit.linear.column_matrix import SparseColumns
from reference.audit.linear.elimination import Sparse, narrow
from reference.core.linalg import Matrix


class ProbedColumns(SparseColumns):
    """Sparse exact columns of a probed map (a :class:`SparseColumns`, read the same way): non-zero k sits at
    output ``rows[k]`` of draw ``cols[k]`` and is ``distinct[inverse[k]]``. The plain columns are built from these
    arrays for each reader that asks for them (the reader owns its dicts: nothing to copy); the dicts the other
    reads need (the differenced form, the dense matrix) are built once, on the first such read, and kept.

    Args:
        outputs: the number of outputs (rows), a positive integer.
        count: the number of draws (columns), a positive integer.
        rows: each non-zero's output index, int64.
        cols: each non-zero's draw index, int64.
        distinct: the distinct exact non-zero values.
        inverse: per non-zero, the index of its value in ``distinct``, int64.
    """

    def __init__(self, outputs: int, count: int, rows: np.ndarray, cols: np.ndarray, distinct: list[Fraction],
                 inverse: np.ndarray) -> None:
        super().__init__(outputs, count, [])
        self._entries = (rows, cols, distinct, inverse)
        self._built = False

    def _form(self, differenced: bool) -> list[Sparse]:
        if not self._built:
            self._plain = column_dicts(self.cols, *self._entries)
            self._built = True
        return super()._form(differenced)

    def nonzeros(self, differenced: bool) -> int:
        return int(self._entries[0].size) if not differenced else super().nonzeros(differenced)

    def columns(self, differenced: bool) -> list[Sparse]:
        return column_dicts(self.cols, *self._entries) if not differenced else super().columns(differenced)

    def dense(self) -> Matrix:
        self._form(False)
        return super().dense()

    def used_columns(self) -> list[int]:
        return [int(col) for col in np.unique(self._entries[1]).tolist()]


def column_dicts(count: int, rows: np.ndarray, cols: np.ndarray, distinct: list[Fraction],
                 inverse: np.ndarray) -> list[Sparse]:
    """The non-zeros as one dict per column (output index to exact value, an int where integral), rows ascending
    within a column.

    Args:
        count: the number of draws (the number of dicts).
        rows: each non-zero's output index.
        cols: each non-zero's draw index.
        distinct: the distinct exact non-zero values.
        inverse: per non-zero, the index of its value in ``distinct``.
    """
    order = np.argsort(cols, kind="stable")
    narrowed = [narrow(value) for value in distinct]
    sizes = np.bincount(cols, minlength=count).tolist()
    if len(narrowed) == 1:  # one value (a 0/1 map): the rows alone, cut into the columns (a loop in C: map)
        ordered = iter(rows[order].tolist())
        return list(map(dict.fromkeys, map(islice, repeat(ordered), sizes), repeat(narrowed[0])))
    # one iterator over (row, value) in column order, cut into the columns: no list slices
    entries = zip(rows[order].tolist(), map(narrowed.__getitem__, inverse[order].tolist()))
    return [dict(islice(entries, size)) for size in sizes]
