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
import stat
from pathlib import Path
from typing import BinaryIO

import numpy as np

from reference.core.input_files import file_kind

#: Largest array read into memory by :func:`load_npy` (a memory map is bounded by the caller's own checks).
MAX_NPY_BYTES = 1 << 30


def _size(count: int) -> str:
    return f"{count / (1 << 20):.1f} MiB" if count >= 1 << 20 else f"{count} bytes"


def checked_header(
    handle: BinaryIO, available: int | None, name: str, *, max_bytes: int | None = MAX_NPY_BYTES
) -> tuple[tuple[int, ...], np.dtype]:
    """Shape and dtype from the header at ``handle`` (positioned at the file's start), checked: a known
    version, no Python objects, and ``prod(shape) * itemsize`` within both the ``available`` bytes of the file
    (None: not checked here, the caller does it with :func:`check_holds`) and ``max_bytes`` (None: no bound)."""
    try:
        version = np.lib.format.read_magic(handle)
        if version == (1, 0):
            shape, _, dtype = np.lib.format.read_array_header_1_0(handle)
        elif version in ((2, 0), (3, 0)):
            shape, _, dtype = np.lib.format.read_array_header_2_0(handle)
        else:
            raise ValueError(f"unsupported .npy version {version}")
    except (ValueError, OSError, EOFError, SyntaxError) as error:
        first = str(error).splitlines()[0][:120] if str(error) else type(error).__name__
        raise ValueError(f"{name}: not a readable .npy file ({first})") from None
    if dtype.hasobject:
        raise ValueError(f"{name}: the .npy file holds Python objects ({dtype}); numeric arrays only")
    needed = math.prod(int(size) for size in shape) * dtype.itemsize
    if available is not None:
        check_holds(tuple(int(size) for size in shape), dtype, available - handle.tell(), name)
    if max_bytes is not None and needed > max_bytes:
        raise ValueError(
            f"{name}: the .npy array is {tuple(shape)} of {dtype} ({_size(needed)}); at most {_size(max_bytes)}"
        )
    return tuple(int(size) for size in shape), dtype


def check_holds(shape: tuple[int, ...], dtype: np.dtype, follows: int, name: str) -> None:
    """Refuse an array whose header asks for more bytes than the ``follows`` bytes after the header."""
    needed = math.prod(shape) * dtype.itemsize
    if needed > follows:
        raise ValueError(
            f"{name}: the .npy header gives shape {shape} of {dtype} ({_size(needed)}) but the file holds "
            f"{_size(max(follows, 0))} after it (truncated or a wrong header)"
        )


def load_npy_bytes(data: bytes, name: str, *, max_bytes: int | None = MAX_NPY_BYTES) -> np.ndarray:
    """The array of an ``.npy`` file already read into ``data``, header checked first."""
    handle = io.BytesIO(data)
    checked_header(handle, len(data), name, max_bytes=max_bytes)
    handle.seek(0)
    try:
        return np.asarray(np.load(handle, allow_pickle=False))
    except (ValueError, EOFError, OSError) as error:
        first = str(error).splitlines()[0][:120] if str(error) else type(error).__name__
        raise ValueError(f"{name}: not a readable .npy file ({first})") from None


def load_npy(path: str | Path, name: str, *, mmap: bool = False, max_bytes: int | None = MAX_NPY_BYTES) -> np.ndarray:
    """The array of the regular ``.npy`` file ``path``: the header checked before any entry is read; memory
    mapped when ``mmap`` (the caller bounds the size), else read (at most ``max_bytes``)."""
    if not isinstance(path, (str, Path)):
        raise TypeError(f"{name} must be a str or pathlib.Path, got {type(path).__name__}")
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO opens at once, without a writer
    except OSError as error:
        raise ValueError(f"{name}: cannot read {str(path)!r}: {error.strerror or error}") from None
    with os.fdopen(descriptor, "rb") as handle:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise ValueError(f"{name} must be a regular .npy file, got {file_kind(info.st_mode)}: {str(path)!r}")
        os.set_blocking(descriptor, True)
        checked_header(handle, info.st_size, name, max_bytes=None if mmap else max_bytes)
        handle.seek(0)
        try:
            if mmap:
                return np.asarray(np.load(path, mmap_mode="r", allow_pickle=False))
            return np.asarray(np.load(handle, allow_pickle=False))
        except (ValueError, EOFError, OSError) as error:
            first = str(error).splitlines()[0][:120] if str(error) else type(error).__name__
            raise ValueError(f"{name}: not a readable .npy file ({first})") from None


__all__ = ["MAX_NPY_BYTES", "check_holds", "checked_header", "load_npy", "load_npy_bytes"]
