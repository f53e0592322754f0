"""Exact matrices held as sparse columns, read once: the input of the sparse linear-noise audit.

A dense exact matrix of a tree mechanism at horizon T = 10,000 has 10⁸ entries and a Python object per entry
costs gigabytes; its non-zeros (after first differences, see :func:`reference.audit.linear.elimination.sparsest_form`) number
O(T log T). So an integer ``.npy`` array stays a numpy array (memory-mapped) until its columns are asked for, in
one form or the other (``differenced``: the rows replaced by their first differences, a unimodular row operation),
and only the non-zeros of that form become Python ints, each converted once. Integer arrays never meet a
``Fraction``; rational matrices (sequences, CSV, JSON) are validated entry by entry as before.

Cost before work: an ``.npy`` file's shape and dtype come from its header, so an over-limit file is refused before
any entry is read, and the non-zeros are counted (numpy, blockwise) before any Python object is built.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import numpy as np

from reference.audit.linear import elimination as sparse
from reference.audit.linear.elimination import Sparse
from reference.audit.linear.size_limits import DEFAULT_LIMITS, SizeLimits
from reference.core.linalg import Matrix
from reference.core.npy_files import checked_header, load_npy

#: Most entries of an ``.npy`` matrix scanned by default (20,000 × 20,000; 3.2 GB of int64 read from disk).
MAX_SCANNED_ENTRIES = DEFAULT_LIMITS.scanned_entries
#: Most non-zeros held as Python objects by default (about 100 bytes each).
MAX_NONZEROS = DEFAULT_LIMITS.nonzeros
#: Rows per numpy block when scanning (bounds the temporary arrays).
_BLOCK_ENTRIES = 1 << 22
#: Entries of magnitude below this stay in int64 under first differences.
_INT64_SAFE = 1 << 62


class ColumnMatrix(ABC):
    """An exact matrix whose columns are produced on demand, sparse (see the module docstring)."""

    rows: int
    cols: int

    @abstractmethod
    def nonzeros(self, differenced: bool) -> int:
        """Non-zeros of the matrix (``differenced``: of its row first differences).

        Args:
            differenced: True to count the non-zeros of the row first differences (row i minus row i − 1, row −1
                zero), False to count those of the matrix as it is.
        """

    @abstractmethod
    def columns(self, differenced: bool) -> list[Sparse]:
        """The columns as sparse exact vectors (ints where integral).

        Args:
            differenced: True for the columns of the row first differences (see :meth:`nonzeros`), False for the
                matrix's own columns.

        Returns:
            One dict per column, row index to non-zero exact entry; the caller owns the dicts.
        """

    @abstractmethod
    def dense(self) -> Matrix:
        """The dense exact matrix (for the dense algorithms; callers bound the size first)."""

    @abstractmethod
    def used_columns(self) -> list[int]:
        """The indices of the columns that are not identically zero."""


class SparseColumns(ColumnMatrix):
    """Exact sparse columns as given (a scipy.sparse matrix or ``.npz`` file, a matrix whose draws were rescaled):
    no dense form is held, only built when asked for (callers bound the size first).

    Args:
        rows: the number of rows, a positive integer.
        cols: the number of columns, a positive integer (the length of ``columns``).
        columns: the columns, each a dict from row index (0 <= index < ``rows``) to its non-zero exact entry (an int
            or a Fraction); held, not copied.
    """

    def __init__(self, rows: int, cols: int, columns: list[Sparse]) -> None:
        self.rows, self.cols = rows, cols
        self._plain = columns
        self._differenced: list[Sparse] | None = None

    def _form(self, differenced: bool) -> list[Sparse]:
        if not differenced:
            return self._plain
        if self._differenced is None:
            self._differenced = [sparse.difference(column, self.rows) for column in self._plain]
        return self._differenced

    def nonzeros(self, differenced: bool) -> int:
        return sparse.nonzeros(self._form(differenced))

    def columns(self, differenced: bool) -> list[Sparse]:
        return [dict(column) for column in self._form(differenced)]

    def dense(self) -> Matrix:
        zero = Fraction(0)
        return tuple(tuple(Fraction(column[i]) if i in column else zero for column in self._plain)
                     for i in range(self.rows))

    def used_columns(self) -> list[int]:
        return [j for j, column in enumerate(self._plain) if column]


class RationalColumns(SparseColumns):
    """A validated dense exact :data:`Matrix`.

    Args:
        matrix: the validated exact matrix, a non-empty tuple of equal-length rows of Fractions (as
            :func:`reference.audit.linear.verdict.exact_matrix` returns).
    """

    def __init__(self, matrix: Matrix) -> None:
        super().__init__(len(matrix), len(matrix[0]), sparse.sparse_columns(matrix))
        self.matrix = matrix

    def dense(self) -> Matrix:
        return self.matrix


class IntegerArray(ColumnMatrix):
    """A 2-D numpy integer array (possibly memory-mapped): exact as it stands.

    Args:
        array: a 2-D numpy array of an integer dtype (a memory map is read blockwise, never copied whole).

    Raises:
        ValueError: ``array`` is not 2-D or not of an integer dtype.
    """

    def __init__(self, array: np.ndarray) -> None:
        if array.ndim != 2 or not np.issubdtype(array.dtype, np.integer):
            raise ValueError(f"an integer matrix must be 2-D with an integer dtype, got {array.ndim}-D {array.dtype}")
        self.array = array
        self.rows, self.cols = (int(size) for size in array.shape)
        self._counts: dict[bool, int] = {}

    def _work_dtype(self, block: np.ndarray) -> np.dtype:
        """A dtype in which the block and its first differences are exact: the next wider integer for narrow
        dtypes (less memory traffic than int64), int64 when the entries are safely inside it, else Python ints."""
        itemsize = block.dtype.itemsize
        if itemsize <= 4:
            return np.dtype(f"int{8 * itemsize * 2}")
        if block.size and (int(block.max()) >= _INT64_SAFE or int(block.min()) <= -_INT64_SAFE):
            return np.dtype(object)  # exact Python ints: no wrap-around
        return np.dtype(np.int64)

    def _blocks(self) -> Iterator[tuple[int, np.ndarray, bool]]:
        """(offset, block, by_columns), blocks bounded in size and row-major in the array's own dtype.

        A row-major (or strided) array comes in blocks of whole rows (``by_columns`` False, ``offset`` the first
        row); a Fortran-ordered one — numpy saves a transposed array so — in blocks of whole columns, as rows of
        its transpose (``by_columns`` True, ``offset`` the first column), so that every block is read in memory
        order and its first differences down the columns run along the block's rows.
        """
        by_columns = bool(self.array.flags.f_contiguous and not self.array.flags.c_contiguous)
        lines = self.array.T if by_columns else self.array
        count, length = lines.shape
        step = max(1, _BLOCK_ENTRIES // max(1, length))
        for start in range(0, count, step):
            yield start, np.ascontiguousarray(lines[start:start + step]), by_columns

    @staticmethod
    def _changes(block: np.ndarray, by_columns: bool, above: np.ndarray) -> np.ndarray:
        """Where the block's first differences down the matrix's columns are non-zero (``above``: the matrix row
        above a block of rows), compared in the array's own dtype: equality needs no widening."""
        mask = np.empty(block.shape, dtype=bool)
        if by_columns:  # a block row is a matrix column: the first entry minus zero, then along the block row
            np.not_equal(block[:, 1:], block[:, :-1], out=mask[:, 1:])
            np.not_equal(block[:, 0], 0, out=mask[:, 0])
        else:
            np.not_equal(block[1:], block[:-1], out=mask[1:])
            np.not_equal(block[0], above, out=mask[0])
        return mask

    def nonzeros(self, differenced: bool) -> int:
        if not self._counts:  # both forms in one pass
            plain = changed = 0
            above = np.zeros(self.cols, dtype=self.array.dtype)  # the row above the first one: zero
            for _, block, by_columns in self._blocks():
                plain += int(np.count_nonzero(block))
                changed += int(np.count_nonzero(self._changes(block, by_columns, above)))
                above = block[-1].copy()
            self._counts = {False: plain, True: changed}
        return self._counts[differenced]

    def columns(self, differenced: bool) -> list[Sparse]:
        out: list[Sparse] = [{} for _ in range(self.cols)]
        above = np.zeros(self.cols, dtype=self.array.dtype)  # the row above the first one: zero
        for offset, block, by_columns in self._blocks():
            # the non-zeros of the chosen form located on a boolean mask (no widened copy of the block); only those
            # entries are widened to an exact dtype and differenced
            mask = self._changes(block, by_columns, above) if differenced else block != 0
            flat = np.flatnonzero(mask)
            work = self._work_dtype(block)
            if differenced and not by_columns:  # the row kept from the block before must be exact in it too
                kept = self._work_dtype(above[np.newaxis])
                work = np.dtype(object) if object in (work, kept) else np.promote_types(work, kept)
            entries = block.ravel()
            values = entries[flat].astype(work)
            lines, positions = np.divmod(flat, block.shape[1])
            if differenced:
                starts = positions == 0 if by_columns else lines == 0  # the entries whose predecessor is outside
                step_back = 1 if by_columns else block.shape[1]
                before = entries[np.where(starts, 0, flat - step_back)].astype(work)
                before[starts] = 0 if by_columns else above[positions[starts]].astype(work)
                values = values - before
            above = block[-1].copy()
            rows, cols = (positions, lines + offset) if by_columns else (lines + offset, positions)
            for row, col, value in zip(rows.tolist(), cols.tolist(), values.tolist()):
                out[col][row] = int(value)  # ints stand for Fractions (the sparse module's convention)
        return out

    def dense(self) -> Matrix:
        return tuple(tuple(Fraction(int(entry)) for entry in row) for row in np.asarray(self.array).tolist())

    def used_columns(self) -> list[int]:
        used = np.zeros(self.cols, dtype=bool)
        step = max(1, _BLOCK_ENTRIES // max(1, self.cols))
        for start in range(0, self.rows, step):  # blockwise, as the counts: a memory-mapped file is read once more
            used |= np.any(np.asarray(self.array[start:start + step]) != 0, axis=0)
        return np.flatnonzero(used).tolist()


class UsedColumns(ColumnMatrix):
    """The columns of ``base`` that are not identically zero, in their order (a zero column of a noise matrix is a
    draw no output uses). A first difference of a zero column is zero, so both forms drop the same columns.

    Args:
        base: the matrix whose non-zero columns are kept (all of them when every column is zero).
    """

    def __init__(self, base: ColumnMatrix) -> None:
        self.base = base
        self.kept = base.used_columns() or list(range(base.cols))  # an all-zero matrix is kept as it is
        self.rows, self.cols = base.rows, len(self.kept)

    def nonzeros(self, differenced: bool) -> int:
        return self.base.nonzeros(differenced)  # zero columns hold no non-zero

    def columns(self, differenced: bool) -> list[Sparse]:
        if self.cols == self.base.cols:
            return self.base.columns(differenced)
        every = self.base.columns(differenced)
        return [every[j] for j in self.kept]

    def dense(self) -> Matrix:
        return tuple(tuple(row[j] for j in self.kept) for row in self.base.dense())

    def used_columns(self) -> list[int]:
        return list(range(self.cols))


def npy_shape(path: Path, name: str) -> tuple[tuple[int, ...], np.dtype]:
    """The shape and dtype of an ``.npy`` file from its header alone (no entry is read); the file's size is
    checked against it when the array is opened (:func:`reference.core.npy_files.load_npy`).

    Args:
        path: the ``.npy`` file.
        name: the parameter the file was given for, named in a refusal (e.g. ``"noise_matrix"``).

    Raises:
        ValueError: the file cannot be read or its header is not a valid ``.npy`` header.
    """
    try:
        with path.open("rb") as handle:
            return checked_header(handle, None, name, max_bytes=None)
    except OSError as error:
        raise ValueError(f"{name}: cannot read {str(path)!r}: {error.strerror or error}") from None


def load_npy_columns(path: Path, name: str, limits: SizeLimits = DEFAULT_LIMITS) -> IntegerArray:
    """An integer ``.npy`` matrix, checked from its header (shape, dtype, size) before any entry is read, then
    memory-mapped.

    Args:
        path: the ``.npy`` file holding a 2-D integer array.
        name: the parameter the file was given for, named in a refusal.
        limits: the size limits (``limits.scanned_entries`` bounds rows × columns); default
            :data:`~reference.audit.linear.size_limits.DEFAULT_LIMITS`.

    Raises:
        ValueError: not a 2-D integer array, an empty dimension, or more entries than the limit.
    """
    shape, dtype = npy_shape(path, name)
    if len(shape) != 2 or not np.issubdtype(dtype, np.integer):
        raise ValueError(f"{name}: a .npy file must hold a 2-D integer array, got {len(shape)}-D {dtype}")
    rows, cols = shape
    if rows < 1 or cols < 1:
        raise ValueError(f"{name} must have at least one row and one column, got {rows}x{cols}")
    check_scan(rows, cols, dtype.itemsize, name, limits.scanned_entries)
    return IntegerArray(load_npy(path, name, mmap=True))


def check_scan(rows: int, cols: int, itemsize: int, name: str, limit: int = MAX_SCANNED_ENTRIES) -> None:
    """Refuse a matrix too large to scan, with the estimate.

    Args:
        rows: the matrix's number of rows.
        cols: the matrix's number of columns.
        itemsize: bytes per entry of its dtype (for the estimate of the bytes read).
        name: the parameter the matrix was given for, named in the refusal.
        limit: the most entries (rows × cols) scanned; default :data:`MAX_SCANNED_ENTRIES`.

    Raises:
        ValueError: rows × cols exceeds ``limit``.
    """
    entries = rows * cols
    if entries > limit:
        raise ValueError(
            f"{name} is {rows}x{cols} ({entries:.3g} entries, {entries * itemsize / 1e9:.3g} GB to read); "
            f"at most {limit:.3g} entries; {SizeLimits.hint('scanned_entries')}"
        )


def check_nonzeros(count: int, name: str, limit: int = MAX_NONZEROS) -> None:
    """Refuse more non-zeros than fit in memory as Python objects, with the estimate.

    Args:
        count: the non-zeros about to be held as Python numbers.
        name: the matrix they belong to, named in the refusal.
        limit: the most non-zeros allowed; default :data:`MAX_NONZEROS`.

    Raises:
        ValueError: ``count`` exceeds ``limit``.
    """
    if count > limit:
        raise ValueError(
            f"{name} has {count:.3g} non-zeros (about {count * 100 / 1e9:.3g} GB as exact Python numbers); "
            f"at most {limit:.3g} (first differences are taken where they are sparser); {SizeLimits.hint('nonzeros')}"
        )
