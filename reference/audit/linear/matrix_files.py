"""Matrices read exactly from files and float arrays, for the linear-noise audit and the command line.

A ``.npy`` integer array is checked from its header and memory-mapped; a sparse ``.npz`` file from its headers;
``.csv`` and ``.json`` text is parsed to exact rationals after its entries are counted from the separators; a
float array is read as the binary rationals its entries are. Every size is refused before the reading, naming
the flag that raises it (:class:`~reference.audit.linear.size_limits.SizeLimits`).
"""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
from pathlib import Path

import numpy as np

from reference.audit.linear.column_matrix import ColumnMatrix, RationalColumns, load_npy_columns, npy_shape
from reference.audit.linear.size_limits import DEFAULT_LIMITS, SizeLimits
from reference.audit.linear.sparse_input import load_sparse_columns, load_sparse_dense
from reference.audit.linear.verdict import exact_matrix
from reference.core.input_files import read_regular_text
from reference.core.input_types import MatrixLike
from reference.core.linalg import Matrix
from reference.core.npy_files import load_npy


def float_matrix(array: np.ndarray, name: str, limits: SizeLimits = DEFAULT_LIMITS) -> Matrix:
    """A 2-D float array read exactly: each entry is the binary rational it is (a strategy optimised in floating
    point is audited as the matrix the code holds, not as the one its author meant).

    Args:
        array: a 2-D numpy array of a floating dtype (float16 to long double).
        name: the parameter the matrix was given as, named in a refusal.
        limits: the size limits (``sparse_dimension`` per side, ``text_entries`` entries); default
            :data:`~reference.audit.linear.size_limits.DEFAULT_LIMITS`.

    Raises:
        ValueError: an empty or over-limit array, or a nan or infinite entry.
    """
    rows, cols = array.shape
    if rows < 1 or cols < 1:
        raise ValueError(f"{name} must have at least one row and one column")
    check_float_shape(array.shape, name, limits)
    check_float_entries(rows * cols, name, limits)
    if not np.isfinite(array).all():
        raise ValueError(f"{name} has a non-finite entry (nan or inf)")
    if array.dtype.itemsize > 8:  # a long double: through its own integer ratio, not rounded to float64
        return tuple(tuple(Fraction(*entry.as_integer_ratio()) for entry in row) for row in array)
    # float64 holds every float16/float32 value exactly; Fraction(float) is exact
    return tuple(tuple(Fraction(entry) for entry in row) for row in array.astype(np.float64).tolist())


def check_float_shape(shape: tuple[int, ...], name: str, limits: SizeLimits = DEFAULT_LIMITS) -> None:
    """Refuse a float matrix with more rows or columns than ``limits.sparse_dimension``.

    Args:
        shape: the array's shape (rows, columns).
        name: the parameter the matrix was given as, named in the refusal.
        limits: the size limits (``sparse_dimension``); default
            :data:`~reference.audit.linear.size_limits.DEFAULT_LIMITS`.

    Raises:
        ValueError: a dimension over the limit.
    """
    rows, cols = shape[0], shape[1]
    if rows > limits.sparse_dimension or cols > limits.sparse_dimension:
        raise ValueError(f"{name} is {rows}x{cols}; at most {limits.sparse_dimension} rows and columns; "
                         f"{SizeLimits.hint('sparse_dimension')}")


#: Most entries read from a ``.csv`` or ``.json`` matrix by default: each is parsed to an exact rational (measured
#: about 5.4 µs an entry, so a million take about 5 s); larger matrices are read from integer ``.npy`` files.
MAX_TEXT_ENTRIES = DEFAULT_LIMITS.text_entries


def text_entry_count(text: str) -> int:
    """An upper bound on the entries of a ``.csv`` or ``.json`` matrix, from its separators alone: entries are
    separated by commas and line ends (a trailing line end or JSON's commas between rows add at most one per
    row).

    Args:
        text: the whole text of the ``.csv`` or ``.json`` file.
    """
    return text.count(",") + text.count("\n") + 1


def check_text_entries(text: str, name: str, limits: SizeLimits = DEFAULT_LIMITS) -> None:
    """Refuse, before parsing, a matrix text with more than ``limits.text_entries`` entries.

    Args:
        text: the whole text of the ``.csv`` or ``.json`` file.
        name: the parameter the file was given for, named in the refusal.
        limits: the size limits (``text_entries``); default :data:`~reference.audit.linear.size_limits.DEFAULT_LIMITS`.

    Raises:
        ValueError: the text holds more entries than the limit.
    """
    entries = text_entry_count(text)
    if entries > limits.text_entries:
        raise ValueError(
            f"{name}: the file holds about {entries:,} entries; at most {limits.text_entries:,} are parsed from "
            f".csv or .json text (about {entries * 5.4e-6:.0f} s; an integer .npy or .npz file is read faster); "
            f"{SizeLimits.hint('text_entries')}"
        )


def check_float_entries(entries: int, name: str, limits: SizeLimits = DEFAULT_LIMITS) -> None:
    """Refuse, before reading, a float matrix with more than ``limits.text_entries`` entries (each is converted to
    an exact rational, about as slow as parsing one from text).

    Args:
        entries: the number of float entries about to be read (rows × columns).
        name: the parameter the matrix was given as, named in the refusal.
        limits: the size limits (``text_entries``); default :data:`~reference.audit.linear.size_limits.DEFAULT_LIMITS`.

    Raises:
        ValueError: ``entries`` exceeds the limit.
    """
    if entries > limits.text_entries:
        raise ValueError(f"{name}: a float matrix of {entries:,} entries; at most {limits.text_entries:,} are read "
                         "exactly (each becomes a rational; an integer .npy or .npz file, scaled, is read faster); "
                         f"{SizeLimits.hint('text_entries')}")


def load_exact_matrix(path: str | Path, name: str = "matrix", limits: SizeLimits = DEFAULT_LIMITS) -> Matrix:
    """Read an exact matrix from a file (for the CLI): ``.npy`` (integer dtype; a float array is read exactly,
    each entry the binary rational it is), ``.npz`` (a sparse matrix written by ``scipy.sparse.save_npz``:
    csr, csc or coo, integer or float entries read the same way; its shape checked from the headers first),
    ``.csv`` (comma-separated entries such as ``1``, ``-1/2``, ``0.25``, read exactly) or ``.json`` (a list of
    rows whose entries are ints or strings such as ``"1/3"``; JSON floats are refused).

    Args:
        path: the file, a ``str`` or :class:`~pathlib.Path` ending in ``.npy``, ``.npz``, ``.csv`` or ``.json``.
        name: the parameter (or option) the file was given for, named in a refusal; default ``"matrix"``.
        limits: the size limits (``dense_dimension`` per side, ``text_entries`` parsed entries); default
            :data:`~reference.audit.linear.size_limits.DEFAULT_LIMITS`.

    Returns:
        The matrix as exact rows of Fractions.

    Raises:
        TypeError: ``path`` is not a ``str`` or a path.
        ValueError: a missing file, an unknown ending, unreadable contents or an over-limit matrix.
    """
    if not isinstance(path, (str, Path)):
        raise TypeError(f"{name} must be a file path, got {type(path).__name__}")
    file = Path(path)
    suffix = file.suffix.lower()
    if suffix not in MATRIX_SUFFIXES:
        raise ValueError(f"{name}: file must end in .npy, .npz, .csv or .json, got {file.name!r}")
    if not file.is_file():
        raise ValueError(f"{name}: no such file {str(file)!r}")
    rows: MatrixLike
    if suffix == ".npz":
        return load_sparse_dense(file, name, max_dimension=limits.dense_dimension,
                                 max_float_entries=limits.text_entries)
    if suffix == ".npy":
        array = load_npy(file, name)
        if array.ndim == 2 and np.issubdtype(array.dtype, np.floating):
            check_float_entries(array.size, name, limits)
            return float_matrix(array, name, limits)
        if array.ndim != 2 or not np.issubdtype(array.dtype, np.integer):
            raise ValueError(f"{name}: a .npy file must hold a 2-D integer or float array, got {array.ndim}-D "
                             f"{array.dtype}")
        rows = [[int(entry) for entry in row] for row in array.tolist()]
    elif suffix == ".csv":
        text = read_regular_text(file, name=name, encoding="utf-8-sig")
        check_text_entries(text, name, limits)
        try:
            rows = [[entry.strip() for entry in row] for row in csv.reader(io.StringIO(text, newline="")) if row]
        except csv.Error as error:  # a field over the csv module's size limit, a stray quote
            raise ValueError(f"{name}: not a CSV of exact rationals ({error})") from None
    else:
        text = read_regular_text(file, name=name, encoding="utf-8-sig")
        check_text_entries(text, name, limits)
        try:
            rows = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"{name}: invalid JSON ({error.msg})") from None
        if not isinstance(rows, list):
            raise ValueError(f"{name}: the JSON file must hold a list of rows")
    try:
        return exact_matrix(rows, name, limits.dense_dimension)
    except ValueError as error:
        if "rows and columns" in str(error):  # the size limit: say how to raise it
            raise ValueError(f"{error}; {SizeLimits.hint('dense_dimension')}") from None
        raise


#: The file endings of a matrix given on the command line.
MATRIX_SUFFIXES = (".npy", ".npz", ".csv", ".json")


def load_matrix_columns(path: str | Path, name: str = "matrix", limits: SizeLimits = DEFAULT_LIMITS) -> ColumnMatrix:
    """:func:`load_exact_matrix` for the sparse audit: an integer ``.npy`` file is checked from its header (shape,
    dtype and size refused before any entry is read) and memory-mapped, never converted entry by entry; a sparse
    ``.npz`` file is checked from its headers (shape, stored entries, dtype) and only its stored entries are
    read.

    Args:
        path: the file, a ``str`` or :class:`~pathlib.Path` ending in ``.npy``, ``.npz``, ``.csv`` or ``.json``.
        name: the parameter (or option) the file was given for, named in a refusal; default ``"matrix"``.
        limits: the size limits (sparse dimension, non-zeros, scanned entries, text entries); default
            :data:`~reference.audit.linear.size_limits.DEFAULT_LIMITS`.

    Raises:
        TypeError: ``path`` is not a ``str`` or a path.
        ValueError: a missing file, an unknown ending, unreadable contents or an over-limit matrix.
    """
    if isinstance(path, (str, Path)) and Path(path).suffix.lower() == ".npz" and Path(path).is_file():
        return load_sparse_columns(path, name, max_dimension=limits.sparse_dimension, max_nonzeros=limits.nonzeros,
                                   max_float_entries=limits.text_entries, max_dense_entries=limits.scanned_entries)
    if isinstance(path, (str, Path)) and Path(path).suffix.lower() == ".npy" and Path(path).is_file():
        shape, dtype = npy_shape(Path(path), name)
        if len(shape) == 2 and np.issubdtype(dtype, np.floating):
            check_float_entries(shape[0] * shape[1], name, limits)  # before reading: each entry becomes a Fraction
            return RationalColumns(float_matrix(load_npy(Path(path), name), name, limits))
        return load_npy_columns(Path(path), name, limits)
    return RationalColumns(load_exact_matrix(path, name, limits))
