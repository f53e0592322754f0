"""A probed map held as its sorted non-zeros, its exact columns built when they are read.

:func:`reference.audit.linear.probe_linear.probe_linear_columns` recovers the non-zeros as numpy arrays (positions,
and an index into the distinct exact values). A :class:`~reference.audit.linear.column_matrix.SparseColumns` hands
its reader a fresh dict per column (the caller owns them), which it used to copy from dicts built by the probe;
here the dicts are built straight from the arrays when read — one dict per column per read, as the copy was — so
the dicts the probe used to build and hold are not built at all. Counting the non-zeros and the used columns needs
no dict; the first-difference form (and :meth:`ProbedColumns.dense`) builds the columns once and keeps them.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import islice

import numpy as np

from reference.audit.linear.column_matrix import SparseColumns
from reference.audit.linear.elimination import Sparse, narrow
from reference.core.linalg import Matrix


class ProbedColumns(SparseColumns):
    """Exact sparse columns from a probe's non-zeros: entry k sits at (``entry_rows[k]``, ``entry_cols[k]``) and
    is ``distinct[inverse[k]]``.

    Args:
        rows: the number of rows (the function's outputs), a positive integer.
        cols: the number of columns (the draws), a positive integer.
        entry_rows: each non-zero's row, int64.
        entry_cols: each non-zero's column, int64 (any order: sorted here, stably).
        distinct: the distinct exact values of the non-zeros.
        inverse: per non-zero, the index of its value in ``distinct``.
    """

    def __init__(self, rows: int, cols: int, entry_rows: np.ndarray, entry_cols: np.ndarray,
                 distinct: list[Fraction], inverse: np.ndarray) -> None:
        super().__init__(rows, cols, [])
        order = np.argsort(entry_cols, kind="stable")
        self._rows = entry_rows[order]
        self._inverse = inverse[order]
        self._narrowed = [narrow(value) for value in distinct]  # ints where integral
        self._sizes = np.bincount(entry_cols, minlength=cols).tolist()
        self._built: list[Sparse] | None = None

    def _build(self) -> list[Sparse]:
        """One dict per column from the sorted non-zeros: one iterator over (row, value), cut into the columns."""
        entries = zip(self._rows.tolist(), map(self._narrowed.__getitem__, self._inverse.tolist()))
        return [dict(islice(entries, size)) for size in self._sizes]

    def _form(self, differenced: bool) -> list[Sparse]:
        if self._built is None:
            self._built = self._build()
        self._plain = self._built
        return super()._form(differenced)

    def nonzeros(self, differenced: bool) -> int:
        return super().nonzeros(True) if differenced else int(self._rows.size)

    def columns(self, differenced: bool) -> list[Sparse]:
        if differenced or self._built is not None:
            return super().columns(differenced)
        return self._build()  # fresh dicts, the caller's

    def dense(self) -> Matrix:
        self._form(False)
        return super().dense()

    def used_columns(self) -> list[int]:
        return [column for column, size in enumerate(self._sizes) if size]
