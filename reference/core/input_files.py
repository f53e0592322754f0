"""Read an input file only if it is a regular file of bounded size, checked before a byte is read.

A path can name a FIFO (``open`` waits for a writer forever), a device (``/dev/zero`` never ends), a directory,
or a regular file that keeps growing while it is read; a symbolic link can point at any of these. The file is
opened without blocking (so a FIFO opens at once), its kind and size are taken from ``fstat`` of the open
descriptor (no race between the check and the read), and at most ``max_bytes + 1`` bytes are read, so a file that
grows past the bound during the read is refused too. Every refusal is a ``ValueError`` naming the parameter.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

#: Default bound on a text input (64 MiB): a CSV row costs Python about 10-20 times its bytes once parsed, so
#: 64 MiB of records parse within about 1.5 GB.
MAX_INPUT_BYTES = 64 << 20

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _kind(mode: int) -> str:
    return next((text for test, text in _KINDS if test(mode)), "not a regular file")


def size_text(count: int) -> str:
    """A byte count for a message.

    Args:
        count: a number of bytes, an integer >= 0 (printed in MiB from 1 MiB up).
    """
    return f"{count / (1 << 20):.1f} MiB" if count >= 1 << 20 else f"{count} bytes"


def open_regular(path: object, *, name: str, what: str = "a regular file") -> tuple[int, os.stat_result]:
    """A blocking descriptor of the regular file ``path`` (a link is followed) and its ``fstat``, or a
    ``ValueError`` naming ``name`` (``what``: the file wanted, for the message). The caller closes it.

    Args:
        path: anything the caller was given: accepted when it is a ``str`` or ``pathlib.Path`` (a symbolic link is
            followed); anything else is a TypeError naming ``name``.
        name: the parameter or option the path came from (``"--input"``, ``"path"``), named in every refusal.
        what: the kind of file wanted, as the refusal says it (default ``"a regular file"``; ``"a regular .npy file"``).
    """
    if not isinstance(path, (str, Path)):
        raise TypeError(f"{name} must be a str or pathlib.Path, got {type(path).__name__}")
    if not str(path).strip():
        raise ValueError(f"{name} must name a file, got an empty path")
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO opens at once, without a writer
    except OSError as error:
        raise ValueError(f"{name}: cannot read {str(path)!r}: {error.strerror or error}") from None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise ValueError(f"{name} must be {what}, got {_kind(info.st_mode)}: {str(path)!r}")
        os.set_blocking(descriptor, True)
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor, info


def read_regular_bytes(path: str | Path, *, name: str, max_bytes: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of the regular file ``path`` (a link is followed), refusing anything else or more than
    ``max_bytes`` bytes with a ``ValueError`` that names ``name``.

    Args:
        path: the file to read, a ``str`` or ``pathlib.Path`` (a symbolic link is followed).
        name: the parameter or option the path came from, named in every refusal.
        max_bytes: the largest file accepted, in bytes (default MAX_INPUT_BYTES = 64 MiB); a file that grows past it
            while read is refused too.
    """
    descriptor, info = open_regular(path, name=name)
    try:
        if info.st_size > max_bytes:
            raise ValueError(
                f"{name} must be a file of at most {size_text(max_bytes)}, got {size_text(info.st_size)}: "
                f"{str(path)!r}"
            )
        chunks: list[bytes] = []
        remaining = max_bytes + 1
        while remaining > 0:
            chunk = os.read(descriptor, min(remaining, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
        if remaining <= 0:  # grew past the bound while being read (a log being written, an endless file)
            raise ValueError(f"{name} must be a file of at most {size_text(max_bytes)}; {str(path)!r} grew past it")
        return b"".join(chunks)
    except OSError as error:
        raise ValueError(f"{name}: cannot read {str(path)!r}: {error.strerror or error}") from None
    finally:
        os.close(descriptor)


def read_regular_text(path: str | Path, *, name: str, max_bytes: int = MAX_INPUT_BYTES, encoding: str = "utf-8") -> str:
    """:func:`read_regular_bytes` decoded; a file that is not text in ``encoding`` is refused naming ``name``.

    Args:
        path: the file to read, a ``str`` or ``pathlib.Path`` (a symbolic link is followed).
        name: the parameter or option the path came from, named in every refusal.
        max_bytes: the largest file accepted, in bytes (default MAX_INPUT_BYTES = 64 MiB).
        encoding: the text encoding, as Python names it (default ``"utf-8"``; ``"utf-8-sig"`` also drops a byte-order
            mark).
    """
    data = read_regular_bytes(path, name=name, max_bytes=max_bytes)
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        raise ValueError(f"{name}: {str(path)!r} is not UTF-8 text (byte {error.start})") from None
