"""The blocks of unit draws batch mode passes to a user's function, and the call on one.

A block of T unit columns (draws × probes) is mostly zeros: at T = 1,024 in float64 it is 8 MiB, and allocating it
and touching its pages (the kernel maps them on first use) cost about as much as a fast function's own call on it.
So a block of at most :data:`CACHED_BLOCK_BYTES` is built once per process and kept *immutable*: its memory is a
``bytes`` object, so the array numpy makes of it is read-only and no flag can make it writable (numpy refuses
``writeable = True`` on an array whose memory is a read-only buffer). A function that writes into its argument (or
refuses a read-only one: a Cython memoryview without ``const``, an in-place ``draws *= 1``) raises on it; the call is
then made again on a fresh writable block, and only what that second call does counts (a time limit or a memory
limit reached on the first call is reported as it is, without a second call). No function can change the kept block,
so no later probe sees a changed one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from reference.audit.linear.probe_calls import UnitBlocks
from reference.core.user_code import UserCodeError

#: Most bytes of a block of unit draws kept between probes (8 MiB: T = 1,024 draws × 1,024 probes in float64).
CACHED_BLOCK_BYTES = 1 << 23

#: The one kept block: ((rows, start, stop, dtype), the read-only array).
_KEPT: list[tuple[tuple[int, int, int, str], np.ndarray]] = []


def fresh_unit_block(count: int, start: int, stop: int, dtype: Any, unit_blocks: UnitBlocks = "dense") -> Any:
    """The unit draws start, ..., stop − 1 as the columns of one new block: a writable numpy array (draws × probes),
    or a scipy.sparse csc array with one stored entry per column.

    Args:
        count: the number of draws (rows of the block).
        start: the first unit draw (its column is the block's first).
        stop: one past the last unit draw.
        dtype: the numpy dtype of the entries.
        unit_blocks: ``"dense"`` (a numpy array, default) or ``"sparse"`` (a scipy.sparse csc array).
    """
    width = stop - start
    if unit_blocks == "sparse":
        import scipy.sparse

        return scipy.sparse.csc_array((np.ones(width, dtype=dtype), np.arange(start, stop), np.arange(width + 1)),
                                      shape=(count, width))
    probes = np.zeros((count, width), dtype=dtype)
    probes[np.arange(start, stop), np.arange(width)] = 1
    return probes


def kept_unit_block(count: int, start: int, stop: int, dtype: Any) -> np.ndarray | None:
    """The dense block of unit draws start, ..., stop − 1, read-only and kept for later probes (module docstring);
    None when it is larger than :data:`CACHED_BLOCK_BYTES` (the caller builds a fresh one).

    Args:
        count: the number of draws (rows of the block).
        start: the first unit draw.
        stop: one past the last unit draw.
        dtype: the numpy dtype of the entries.
    """
    kind = np.dtype(dtype)
    if count * (stop - start) * kind.itemsize > CACHED_BLOCK_BYTES:
        return None
    key = (count, start, stop, kind.str)
    if _KEPT and _KEPT[0][0] == key:
        return _KEPT[0][1]
    # the entries copied into an immutable bytes object: the array over it can never be made writable
    block = np.frombuffer(fresh_unit_block(count, start, stop, kind).tobytes(), dtype=kind).reshape(count, -1)
    _KEPT[:] = [(key, block)]
    return block


def call_on_unit_block(function: Callable[[Any], Any], count: int, start: int, stop: int, dtype: Any,
                       unit_blocks: UnitBlocks) -> Any:
    """``function`` (guarded: a :class:`reference.core.user_code.UserFunction`) on the block of unit draws
    start, ..., stop − 1: the kept read-only block when there is one, again on a fresh writable block when the
    function raised on it (module docstring).

    Args:
        function: the user's function, already guarded, taking draws × probes.
        count: the number of draws.
        start: the first unit draw.
        stop: one past the last unit draw.
        dtype: the numpy dtype the function takes.
        unit_blocks: ``"dense"`` or ``"sparse"`` (sparse blocks are cheap to build: never kept).
    """
    kept = kept_unit_block(count, start, stop, dtype) if unit_blocks == "dense" else None
    if kept is None:
        return function(fresh_unit_block(count, start, stop, dtype, unit_blocks))
    try:
        return function(kept)
    except UserCodeError as refusal:
        # the guard's one line hides what the function raised, kept as the refusal's context: only an ordinary
        # exception (an assignment into the read-only block, say) earns a second call; a time or memory limit does not
        raised = refusal.__context__
        if not isinstance(raised, Exception) or isinstance(raised, (MemoryError, UserCodeError)):
            raise
    return function(fresh_unit_block(count, start, stop, dtype))
