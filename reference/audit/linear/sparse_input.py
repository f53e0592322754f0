"""scipy.sparse matrices, in memory or saved by ``scipy.sparse.save_npz``, as exact sparse columns.

A strategy or workload of a production system (a hierarchical range mechanism over 4,096 leaves, a banded
DP-FTRL factorisation) is sparse; a dense ``.npy`` of it is mostly zeros. Here only the stored entries become
exact numbers: an integer is the int it is, a float the binary rational it is (as for a float ``.npy`` file),
and entries stored twice at one position add up (scipy's convention), in Python integers or Fractions, so
without overflow. The cost is estimated before any entry is read, from the ``.npz`` headers
(:func:`reference.core.npz_files.sparse_header`): the shape against ``max_dimension`` and the stored entries
against ``max_nonzeros`` (integers) or ``max_float_entries`` (each float becomes a Fraction, as slow as parsing
one from text).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np

from reference.audit.linear.column_matrix import ColumnMatrix, IntegerArray, SparseColumns
from reference.audit.linear.elimination import Sparse, narrow
from reference.audit.linear.size_limits import SizeLimits
from reference.core.input_types import SparseMatrix
from reference.core.linalg import Matrix
from reference.core.npz_files import SparseEntries, SparseHeader, load_sparse, sparse_header


def exact_values(data: np.ndarray, name: str) -> list[int] | list[Fraction]:
    """The entries of a 1-D integer or real-float array as exact numbers (a float as the binary rational it is;
    a long double through its own integer ratio, never through a rounding to float64).

    Args:
        data: the stored entries, a 1-D numpy array of an integer or real floating dtype.
        name: the parameter the matrix was given as, named in a refusal.

    Raises:
        ValueError: a dtype other than integer or real float, or a nan or infinite entry.
    """
    if np.issubdtype(data.dtype, np.integer):
        return [int(value) for value in data.tolist()]
    if not np.issubdtype(data.dtype, np.floating):
        raise ValueError(f"{name}: the entries must be integers or real floats, got {data.dtype}")
    if not np.isfinite(data).all():
        raise ValueError(f"{name} has a non-finite entry (nan or inf)")
    if data.dtype.itemsize > 8:
        return [Fraction(*value.as_integer_ratio()) for value in data]
    return [Fraction(value) for value in data.astype(np.float64).tolist()]


def check_header(header: SparseHeader, name: str, *, max_dimension: int, max_nonzeros: int,
                 max_float_entries: int, dimension_field: str = "sparse_dimension") -> None:
    """Refuse, before any entry is read, a matrix over the limits (module docstring), with what was found.

    Args:
        header: the matrix's format, shape, stored-entry count and dtype (from the ``.npz`` headers or the scipy
            object).
        name: the parameter the matrix was given as, named in a refusal.
        max_dimension: the most rows and the most columns.
        max_nonzeros: the most stored entries of an integer matrix.
        max_float_entries: the most stored entries of a float matrix (each becomes a Fraction).
        dimension_field: the :class:`~reference.audit.linear.size_limits.SizeLimits` field a refusal of the shape
            names (default ``"sparse_dimension"``; ``"dense_dimension"`` for the dense audit).

    Raises:
        ValueError: a dimension or the stored entries over its limit.
    """
    if header.rows > max_dimension or header.cols > max_dimension:
        raise ValueError(f"{name} is {header.rows}x{header.cols}; at most {max_dimension} rows and columns; "
                         f"{SizeLimits.hint(dimension_field)}")
    floats = np.issubdtype(header.dtype, np.floating)
    limit = max_float_entries if floats else max_nonzeros
    if header.stored > limit:
        raise ValueError(
            f"{name}: {header.stored:,} stored {'float ' if floats else ''}entries; at most {limit:,} "
            + (f"(each becomes an exact rational); {SizeLimits.hint('text_entries')}" if floats
               else f"(about {header.stored * 100 / 1e9:.3g} GB as exact Python numbers); "
               f"{SizeLimits.hint('nonzeros' if dimension_field == 'sparse_dimension' else dimension_field)}")
        )


def entry_columns(entries: SparseEntries, name: str) -> SparseColumns:
    """The exact columns of checked coordinate entries; repeated positions add up and zeros are dropped.

    Args:
        entries: the coordinate entries (rows, columns, values) and the header, already checked.
        name: the parameter the matrix was given as, named in a refusal.
    """
    header = entries.header
    columns: list[Sparse] = [{} for _ in range(header.cols)]
    values = exact_values(entries.data, name)
    for row, col, value in zip(entries.row.tolist(), entries.col.tolist(), values):
        if value:
            column = columns[col]
            column[row] = column.get(row, 0) + value
    exact = [{row: narrow(value) for row, value in column.items() if value} for column in columns]
    return SparseColumns(header.rows, header.cols, exact)


#: A stored integer entry costs about 100 bytes as a Python int in a dict, 8 in an int64 array: a file with more
#: than one stored entry in this many positions is held as a dense array (and differenced by numpy).
DENSE_FRACTION = 8


def dense_integer_array(entries: SparseEntries, max_entries: int) -> np.ndarray | None:
    """The entries as a dense int64 array when that is smaller than Python ints (see :data:`DENSE_FRACTION`), no
    position is stored twice (int64 sums could wrap), every entry fits in int64 and the array has at most
    ``max_entries`` entries; else None.

    Args:
        entries: the coordinate entries and the header, already checked.
        max_entries: the most positions (rows × columns) of the dense array; 0 never gives one.
    """
    header = entries.header
    size = header.rows * header.cols
    if (not np.issubdtype(header.dtype, np.integer) or size > max_entries
            or header.stored * DENSE_FRACTION <= size or header.stored == 0):
        return None
    data = entries.data
    if data.dtype == np.uint64 and int(data.max()) > np.iinfo(np.int64).max:
        return None
    positions = entries.row.astype(np.int64) * header.cols + entries.col.astype(np.int64)
    if int(np.bincount(positions, minlength=size).max()) > 1:  # linear time (numpy's unique hashes: 20 s at 16 M)
        return None
    dense = np.zeros((header.rows, header.cols), dtype=np.int64)
    dense.ravel()[positions] = data.astype(np.int64)
    return dense


def load_sparse_columns(path: str | Path, name: str, *, max_dimension: int, max_nonzeros: int,
                        max_float_entries: int, dimension_field: str = "sparse_dimension",
                        max_dense_entries: int = 0) -> ColumnMatrix:
    """The matrix of a ``save_npz`` file as exact sparse columns, its size checked from the headers first
    (``dimension_field``: the :class:`SizeLimits` field a refusal of the shape names); a dense integer one as an
    int64 array instead when it has at most ``max_dense_entries`` positions (:func:`dense_integer_array`).

    Args:
        path: the ``.npz`` file, a ``str`` or :class:`~pathlib.Path`.
        name: the parameter (or option) the file was given for, named in a refusal.
        max_dimension: the most rows and the most columns.
        max_nonzeros: the most stored integer entries.
        max_float_entries: the most stored float entries.
        dimension_field: the :class:`~reference.audit.linear.size_limits.SizeLimits` field a refusal of the shape
            names (default ``"sparse_dimension"``).
        max_dense_entries: the most positions of a dense int64 form (default 0: always sparse columns).

    Raises:
        ValueError: an unreadable file, a dtype other than integer or real float, or a size over its limit.
    """
    header = sparse_header(path, name)
    check_header(header, name, max_dimension=max_dimension, max_nonzeros=max_nonzeros,
                 max_float_entries=max_float_entries, dimension_field=dimension_field)
    entries = load_sparse(path, name, max_stored=header.stored)
    dense = dense_integer_array(entries, max_dense_entries)
    return IntegerArray(dense) if dense is not None else entry_columns(entries, name)


def load_sparse_dense(path: str | Path, name: str, *, max_dimension: int, max_float_entries: int) -> Matrix:
    """The matrix of a ``save_npz`` file as a dense exact :data:`Matrix` (at most ``max_dimension`` rows and
    columns, checked from the headers before any entry is read).

    Args:
        path: the ``.npz`` file, a ``str`` or :class:`~pathlib.Path`.
        name: the parameter (or option) the file was given for, named in a refusal.
        max_dimension: the most rows and the most columns (the stored entries are bounded by its square).
        max_float_entries: the most stored float entries.

    Raises:
        ValueError: an unreadable file, a dtype other than integer or real float, or a size over its limit.
    """
    columns = load_sparse_columns(path, name, max_dimension=max_dimension, max_nonzeros=max_dimension * max_dimension,
                                  max_float_entries=max_float_entries, dimension_field="dense_dimension")
    return columns.dense()


def scipy_columns(value: SparseMatrix, name: str, *, max_dimension: int, max_nonzeros: int,
                  max_float_entries: int) -> SparseColumns:
    """A 2-D scipy.sparse matrix or array given to the API, as exact sparse columns (limits as for a file).

    Args:
        value: a 2-D scipy.sparse matrix or array (csr, csc, coo, ...) of integer or real float entries.
        name: the parameter the matrix was given as, named in a refusal.
        max_dimension: the most rows and the most columns.
        max_nonzeros: the most stored integer entries.
        max_float_entries: the most stored float entries.

    Raises:
        TypeError: ``value`` is not a 2-D scipy.sparse matrix.
        ValueError: an empty dimension, a dtype other than integer or real float, or a size over its limit.
    """
    from scipy import sparse

    if not sparse.issparse(value) or len(value.shape) != 2:
        raise TypeError(f"{name} must be a 2-D scipy.sparse matrix")
    rows, cols = (int(size) for size in value.shape)
    if rows < 1 or cols < 1:
        raise ValueError(f"{name} must have at least one row and one column, got {rows}x{cols}")
    dtype = np.dtype(value.dtype)
    if not (np.issubdtype(dtype, np.integer) or np.issubdtype(dtype, np.floating)):
        raise ValueError(f"{name}: the entries must be integers or real floats, got {dtype}")
    header = SparseHeader(str(value.format), rows, cols, int(value.nnz), dtype)
    check_header(header, name, max_dimension=max_dimension, max_nonzeros=max_nonzeros,
                 max_float_entries=max_float_entries)
    coordinates = sparse.coo_array(value)  # repeated positions kept
    row, col = coordinates.coords
    return entry_columns(SparseEntries(header, np.asarray(row), np.asarray(col), np.asarray(coordinates.data)), name)


__all__ = ["check_header", "entry_columns", "exact_values", "load_sparse_columns", "load_sparse_dense",
           "scipy_columns"]
