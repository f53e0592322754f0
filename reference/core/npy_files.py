"""Read a ``.npy`` array only after its header has been checked against the bytes that follow it.

``np.load`` allocates the array its header describes before reading an entry: a 100-byte file whose header
says ``(100000, 100000)`` float64 asks for 80 GB and fails with a MemoryError (or the kernel's out-of-memory
killer) instead of a refusal. Here the header is parsed first; an object dtype (pickled data), a size that the
file does not hold (truncated or forged header), or a size over the bound is refused with a ``ValueError``
naming the parameter, before any entry is read. Paths go through :mod:`reference.core.input_files`'s regular
file check (no FIFO, device or directory).
"""

from __future__ import annotations

import io
import math
import os
from pathlib import Path
from typing import BinaryIO

import numpy as np

from reference.core.input_files import open_regular, size_text

#: Largest array read into memory by :func:`load_npy` (a memory map is bounded by the caller's own checks).
MAX_NPY_BYTES = 1 << 30


def _unreadable(name: str, error: BaseException) -> ValueError:
    """The one-line refusal of a file numpy cannot read as ``.npy`` (the first line of its message)."""
    first = str(error).splitlines()[0][:120] if str(error) else type(error).__name__
    return ValueError(f"{name}: not a readable .npy file ({first})")


def checked_header(
    handle: BinaryIO, available: int | None, name: str, *, max_bytes: int | None = MAX_NPY_BYTES
) -> tuple[tuple[int, ...], np.dtype]:
    """Shape and dtype from the header at ``handle`` (positioned at the file's start), checked: a known
    version, no Python objects, and ``prod(shape) * itemsize`` within both the ``available`` bytes of the file
    (None: not checked here, the caller does it with :func:`check_holds`) and ``max_bytes`` (None: no bound).

    Args:
        handle: a binary file positioned at the start of the ``.npy`` data; left after the header.
        available: the bytes from ``handle``'s position to the end of the file (None: not checked here; the caller calls
            :func:`check_holds`).
        name: the parameter or option the file came from (``"--input"``, ``"noise_matrix"``), named in every refusal.
        max_bytes: the largest array accepted, in bytes (default MAX_NPY_BYTES = 1 GiB; None: no bound, as for a memory
            map).
    """
    start = handle.tell()
    _check_header_length(handle, available, name)
    handle.seek(start)
    try:
        version = np.lib.format.read_magic(handle)
        if version == (1, 0):
            shape, _, dtype = np.lib.format.read_array_header_1_0(handle)
        elif version in ((2, 0), (3, 0)):
            shape, _, dtype = np.lib.format.read_array_header_2_0(handle)
        else:
            raise ValueError(f"unsupported .npy version {version}")
    except (ValueError, OSError, EOFError, SyntaxError) as error:
        raise _unreadable(name, error) from None
    except Exception as error:  # numpy's header parser: tokenize's TokenError on unbalanced syntax, and others
        raise ValueError(f"{name}: not a readable .npy file (the header is not a valid .npy header: "
                         f"{type(error).__name__})") from None
    if not isinstance(shape, tuple) or not all(isinstance(size, int) and size >= 0 for size in shape):
        raise ValueError(f"{name}: not a readable .npy file (the header's shape {shape!r} is not a tuple of sizes)")
    if dtype.hasobject:
        raise ValueError(f"{name}: the .npy file holds Python objects ({dtype}); numeric arrays only")
    needed = math.prod(int(size) for size in shape) * dtype.itemsize
    if available is not None:
        check_holds(tuple(int(size) for size in shape), dtype, available - handle.tell(), name)
    if max_bytes is not None and needed > max_bytes:
        raise ValueError(
            f"{name}: the .npy array is {tuple(shape)} of {dtype} ({size_text(needed)}); at most {size_text(max_bytes)}"
        )
    return tuple(int(size) for size in shape), dtype


#: Longest header read (numpy's own default bound for a header it parses safely).
MAX_HEADER_BYTES = 10_000


def _check_header_length(handle: BinaryIO, available: int | None, name: str) -> None:
    """Refuse, from the first 12 bytes, a header longer than :data:`MAX_HEADER_BYTES` or than the file, before
    numpy reads it (a version-2 length field of 2**32 - 1 would otherwise be read as a 4 GiB header)."""
    prefix = handle.read(12)
    if len(prefix) < 10 or not prefix.startswith(b"\x93NUMPY"):
        return  # numpy's own message says what is wrong with the magic string
    major = prefix[6]
    if major == 1:
        length, fixed = int.from_bytes(prefix[8:10], "little"), 10
    elif major in (2, 3) and len(prefix) == 12:
        length, fixed = int.from_bytes(prefix[8:12], "little"), 12
    else:
        return
    if length > MAX_HEADER_BYTES:
        raise ValueError(f"{name}: not a readable .npy file (the header length field says {length:,} bytes; at "
                         f"most {MAX_HEADER_BYTES:,})")
    if available is not None and fixed + length > available:
        raise ValueError(f"{name}: not a readable .npy file (the header length field says {length:,} bytes but "
                         f"the file holds {size_text(max(available - fixed, 0))} after it)")


def check_holds(shape: tuple[int, ...], dtype: np.dtype, follows: int, name: str) -> None:
    """Refuse an array whose header asks for more bytes than the ``follows`` bytes after the header.

    Args:
        shape: the array shape the header gives.
        dtype: the dtype the header gives.
        follows: the number of bytes in the file after the header.
        name: the parameter or option the file came from (``"--input"``, ``"noise_matrix"``), named in every refusal.
    """
    needed = math.prod(shape) * dtype.itemsize
    if needed > follows:
        raise ValueError(
            f"{name}: the .npy header gives shape {shape} of {dtype} ({size_text(needed)}) but the file holds "
            f"{size_text(max(follows, 0))} after it (truncated or a wrong header)"
        )


def load_npy_bytes(data: bytes, name: str, *, max_bytes: int | None = MAX_NPY_BYTES) -> np.ndarray:
    """The array of an ``.npy`` file already read into ``data``, header checked first.

    Args:
        data: the whole ``.npy`` file, as bytes.
        name: the parameter or option the file came from (``"--input"``, ``"noise_matrix"``), named in every refusal.
        max_bytes: the largest array accepted, in bytes (default MAX_NPY_BYTES = 1 GiB; None: no bound).
    """
    handle = io.BytesIO(data)
    checked_header(handle, len(data), name, max_bytes=max_bytes)
    handle.seek(0)
    try:
        return np.asarray(np.load(handle, allow_pickle=False))
    except (ValueError, EOFError, OSError) as error:
        raise _unreadable(name, error) from None


def load_npy(path: str | Path, name: str, *, mmap: bool = False, max_bytes: int | None = MAX_NPY_BYTES) -> np.ndarray:
    """The array of the regular ``.npy`` file ``path``: the header checked before any entry is read; memory
    mapped when ``mmap`` (the caller bounds the size), else read (at most ``max_bytes``).

    Args:
        path: the ``.npy`` file, a ``str`` or ``pathlib.Path``; it must be a regular file (a symbolic link is followed).
        name: the parameter or option the file came from (``"--input"``, ``"noise_matrix"``), named in every refusal.
        mmap: True: map the file read-only instead of reading it (no ``max_bytes`` bound; the caller bounds the size);
            False (default): read it.
        max_bytes: the largest array read, in bytes (default MAX_NPY_BYTES = 1 GiB; None: no bound); not applied when
            ``mmap``.
    """
    descriptor, info = open_regular(path, name=name, what="a regular .npy file")
    with os.fdopen(descriptor, "rb") as handle:
        checked_header(handle, info.st_size, name, max_bytes=None if mmap else max_bytes)
        handle.seek(0)
        try:
            if mmap:
                return np.asarray(np.load(path, mmap_mode="r", allow_pickle=False))
            return np.asarray(np.load(handle, allow_pickle=False))
        except (ValueError, EOFError, OSError) as error:
            raise _unreadable(name, error) from None


__all__ = ["MAX_NPY_BYTES", "check_holds", "checked_header", "load_npy", "load_npy_bytes"]
