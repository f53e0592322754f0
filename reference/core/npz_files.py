"""Read a sparse matrix saved by ``scipy.sparse.save_npz`` with every member's header checked before any entry.

An ``.npz`` file is a zip archive of ``.npy`` members: ``format`` (``b"csr"``, ``b"csc"`` or ``b"coo"``), ``shape``,
``data`` and the index arrays of the format (``indices`` and ``indptr``; ``row`` and ``col``, or ``coords``).
``scipy.sparse.load_npz`` allocates each member as its header describes; here the headers come first
(:func:`sparse_header`, no entry read): the shape, the number of stored entries and the dtype are known and
checked against each other, against the bytes each member holds and against the caller's limits before
:func:`load_sparse` reads anything large. Every failure is a ``ValueError`` of one line naming the parameter:
a file that is not a zip, a member that is missing, truncated or forged, an index out of range, a dtype that is
not an integer or a real float.
"""

from __future__ import annotations

import math
import os
import zipfile
import zlib
from dataclasses import dataclass
from typing import IO, BinaryIO, cast

import numpy as np

from reference.core.input_files import open_regular
from reference.core.npy_files import checked_header, load_npy_bytes

#: The formats read: the ones ``save_npz`` writes for a 2-D matrix without blocks or diagonals.
SPARSE_FORMATS = ("csr", "csc", "coo")
#: Longest ``format`` or ``shape`` member read whole (both are a few dozen bytes).
_SMALL_MEMBER_BYTES = 4096


@dataclass(frozen=True)
class SparseHeader:
    """What the headers of a sparse ``.npz`` file say, before any entry is read."""

    format: str
    rows: int
    cols: int
    #: Stored entries (explicit zeros and repeated positions included: an upper bound on the non-zeros).
    stored: int
    dtype: np.dtype


@dataclass(frozen=True)
class SparseEntries:
    """The stored entries as coordinates (repeated positions kept: they add up), checked in range."""

    header: SparseHeader
    row: np.ndarray
    col: np.ndarray
    data: np.ndarray


class _Archive:
    """The zip archive of an ``.npz`` file, its members found by their array names."""

    def __init__(self, archive: zipfile.ZipFile, name: str) -> None:
        self.archive = archive
        self.name = name
        self.members = {info.filename.removesuffix(".npy"): info for info in archive.infolist()}

    def info(self, key: str) -> zipfile.ZipInfo:
        if key not in self.members:
            raise ValueError(f"{self.name}: not a scipy.sparse .npz file (no {key!r} array; write it with "
                             "scipy.sparse.save_npz)")
        return self.members[key]

    def header(self, key: str) -> tuple[tuple[int, ...], np.dtype, int]:
        """Shape, dtype and header length of a member, from its header alone (checked against the member's
        size)."""
        info = self.info(key)
        with self.archive.open(info) as handle:
            shape, dtype = checked_header(cast(BinaryIO, handle), info.file_size, f"{self.name} ({key})", max_bytes=None)
            return shape, dtype, handle.tell()

    def read(self, key: str) -> np.ndarray:
        """The member's array: only the bytes its (checked) header describes are decompressed."""
        shape, dtype, offset = self.header(key)
        wanted = offset + math.prod(shape) * dtype.itemsize
        with self.archive.open(self.info(key)) as handle:
            data = _read_exactly(handle, wanted)
        if len(data) < wanted:
            raise ValueError(f"{self.name}: the {key!r} array is truncated ({len(data)} of {wanted} bytes)")
        return load_npy_bytes(data, f"{self.name} ({key})", max_bytes=None)


def _read_exactly(handle: IO[bytes], count: int) -> bytes:
    chunks: list[bytes] = []
    while count > 0:
        chunk = handle.read(min(count, 1 << 24))
        if not chunk:
            break
        chunks.append(chunk)
        count -= len(chunk)
    return b"".join(chunks)


def _format(archive: _Archive) -> str:
    info = archive.info("format")
    if info.file_size > _SMALL_MEMBER_BYTES:
        raise ValueError(f"{archive.name}: the 'format' array is {info.file_size} bytes; a format name is a few")
    value = archive.read("format")
    text = value.item() if value.shape == () else None
    if isinstance(text, bytes):
        text = text.decode("ascii", errors="replace")
    if text not in SPARSE_FORMATS:
        raise ValueError(f"{archive.name}: a sparse format of {', '.join(SPARSE_FORMATS)} is read, got {text!r} "
                         "(convert with .tocsr() before save_npz)")
    return str(text)


def _shape(archive: _Archive) -> tuple[int, int]:
    info = archive.info("shape")
    if info.file_size > _SMALL_MEMBER_BYTES:
        raise ValueError(f"{archive.name}: the 'shape' array is {info.file_size} bytes; a 2-D shape is two numbers")
    value = archive.read("shape")
    if value.shape != (2,) or not np.issubdtype(value.dtype, np.integer):
        raise ValueError(f"{archive.name}: the 'shape' array must be two integers (a 2-D matrix), got "
                         f"{value.shape} of {value.dtype}")
    rows, cols = (int(size) for size in value.tolist())
    if rows < 1 or cols < 1:
        raise ValueError(f"{archive.name} must have at least one row and one column, got {rows}x{cols}")
    return rows, cols


def _index_members(form: str, archive: _Archive) -> tuple[str, ...]:
    if form == "coo":
        return ("coords",) if "coords" in archive.members and "row" not in archive.members else ("row", "col")
    return ("indices", "indptr")


def _check_index_header(archive: _Archive, key: str, expected: tuple[int, ...]) -> None:
    shape, dtype, _ = archive.header(key)
    if not np.issubdtype(dtype, np.integer):
        raise ValueError(f"{archive.name}: the {key!r} array must hold integers, got {dtype}")
    if shape != expected:
        raise ValueError(f"{archive.name}: the {key!r} array has shape {shape}; the headers of 'shape' and 'data' "
                         f"need {expected}")


def _header(archive: _Archive) -> SparseHeader:
    form = _format(archive)
    rows, cols = _shape(archive)
    data_shape, dtype, _ = archive.header("data")
    if len(data_shape) != 1:
        raise ValueError(f"{archive.name}: the 'data' array must be 1-D, got shape {data_shape}")
    if not (np.issubdtype(dtype, np.integer) or np.issubdtype(dtype, np.floating)):
        raise ValueError(f"{archive.name}: the entries must be integers or real floats, got {dtype}")
    stored = data_shape[0]
    for key in _index_members(form, archive):
        expected = {"indptr": ((rows if form == "csr" else cols) + 1,), "coords": (2, stored)}.get(key, (stored,))
        _check_index_header(archive, key, expected)
    return SparseHeader(form, rows, cols, stored, dtype)


class _Opened:
    """The regular file ``path`` as a zip archive (closed on exit); zip errors become one line."""

    def __init__(self, path: object, name: str) -> None:
        self.path, self.name = path, name

    def __enter__(self) -> _Archive:
        descriptor, _ = open_regular(self.path, name=self.name, what="a regular .npz file")
        self.handle = os.fdopen(descriptor, "rb")
        try:
            self.archive = zipfile.ZipFile(self.handle)
        except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError) as error:
            self.handle.close()
            raise ValueError(f"{self.name}: not a readable .npz file ({_first_line(error)})") from None
        return _Archive(self.archive, self.name)

    def __exit__(self, *exc: object) -> None:
        self.archive.close()
        self.handle.close()


def _first_line(error: BaseException) -> str:
    return str(error).splitlines()[0][:120] if str(error) else type(error).__name__


def _zip_errors(name: str, error: BaseException) -> ValueError:
    return ValueError(f"{name}: not a readable .npz file ({_first_line(error)})")


#: What a damaged, encrypted or oddly compressed archive raises while a member is read.
_ZIP_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError, OSError, NotImplementedError,
               RuntimeError)


def sparse_header(path: object, name: str) -> SparseHeader:
    """The format, shape, stored-entry count and dtype of a ``save_npz`` file, from its headers alone.

    Args:
        path: anything the caller was given: accepted when it is a ``str`` or ``pathlib.Path`` naming a regular
            ``save_npz`` file (a TypeError otherwise).
        name: the parameter or option the file came from (``"--input"``, ``"noise_matrix"``), named in every refusal.
    """
    with _Opened(path, name) as archive:
        try:
            return _header(archive)
        except _ZIP_ERRORS as error:
            raise _zip_errors(name, error) from None


def load_sparse(path: object, name: str, *, max_stored: int) -> SparseEntries:
    """The entries of a ``save_npz`` file as coordinates: the headers are checked first (:func:`sparse_header`) and
    a file of more than ``max_stored`` stored entries is refused before any entry is read; the indices are then
    checked in range (scipy's full format check).

    Args:
        path: anything the caller was given: accepted when it is a ``str`` or ``pathlib.Path`` naming a regular
            ``save_npz`` file (a TypeError otherwise).
        name: the parameter or option the file came from (``"--input"``, ``"noise_matrix"``), named in every refusal.
        max_stored: the most stored entries accepted (explicit zeros and repeated positions count); a file with more is
            refused before any entry is read.
    """
    from scipy import sparse

    with _Opened(path, name) as archive:
        try:
            header = _header(archive)
            if header.stored > max_stored:
                raise ValueError(f"{name}: {header.stored:,} stored entries; at most {max_stored:,}")
            data = archive.read("data")
            indices = [archive.read(key) for key in _index_members(header.format, archive)]
        except _ZIP_ERRORS as error:
            raise _zip_errors(name, error) from None
    shape = (header.rows, header.cols)
    try:
        if header.format == "coo":
            row, col = (indices[0][0], indices[0][1]) if len(indices) == 1 else (indices[0], indices[1])
            matrix = sparse.coo_array((data, (row, col)), shape=shape)  # checks the indices against the shape
        else:
            kind = sparse.csr_array if header.format == "csr" else sparse.csc_array
            compressed = kind((data, indices[0], indices[1]), shape=shape)
            compressed.check_format(full_check=True)  # indptr monotone, every index in range
            matrix = compressed.tocoo()  # repeated positions kept, not summed (no integer overflow)
    except (ValueError, TypeError, IndexError, OverflowError) as error:
        raise ValueError(f"{name}: not a valid {header.format} matrix ({_first_line(error)})") from None
    row_index, col_index = matrix.coords
    return SparseEntries(header, np.asarray(row_index), np.asarray(col_index), np.asarray(matrix.data))


__all__ = ["SPARSE_FORMATS", "SparseEntries", "SparseHeader", "load_sparse", "sparse_header"]
