"""The streamed cascade audit's sums for one block of runs, computed in cache-sized tiles of the leaves.

:class:`reference.audit.samples.cascade_stream.CascadeMoments` needs, per node, the sum over the block's runs of
``rint(y²)`` (``y`` the node's value in the grid's root units) and, per internal node, of ``rint((L − R)²)`` (the
statistic ``(L − R)² / 3`` without its factor 1/3, applied exactly when the sums are read); each rounded to an
integer first, so the sums are exact integers (:mod:`reference.audit.samples.sufficient`). :func:`fold_block` computes
exactly those integers — the same IEEE operations on every value as the reference computation
(``CascadeMoments._add_scaled_exactly``): the product by the scale, ``L + R``, ``L − R``, the square, the
rounding — with less traffic:

* **in place**: each level's values are squared and rounded where they lie, and the runs (rows) are added
  pairwise in place, halving; the float sums of nonnegative integers are exact when the computed total is below
  ``2**52`` (every partial sum is at most the total), which is checked once for all totals at the end;
* **in tiles**: the lowest :data:`TILE_LEVELS` levels — almost all the work — are computed one subtree of the
  leaves at a time (all runs of the block, about :data:`TILE_VALUES` values), so each pass over a level reads
  from the core's cache instead of main memory; a subtree's nodes are a contiguous range of each level, so the
  tile's sums are a range of each level's totals. The levels above, ``2**TILE_LEVELS`` times smaller, follow in
  one piece.

The work space (:class:`FoldSpace`, one per thread: :func:`work_space`) is kept from block to block: fresh pages
cost about as much as a pass over them.
"""

from __future__ import annotations

import threading

import numpy as np

from reference.audit.samples.magnitude_cells import count_above

#: Values (runs × leaves) of one tile: its level, its parents and differences stay within a core's cache.
TILE_VALUES = 1 << 17
#: Levels computed tile by tile (each halves the values; the rest is 2**-TILE_LEVELS of the leaves).
TILE_LEVELS = 4
#: Float sums of nonnegative integers whose computed total is below this are exact (2**52).
EXACT_TOTAL = float(1 << 52)
#: Work-space arrays of at most this many entries (32 MiB of float64: the totals up to depth 20) are kept from
#: block to block; larger ones are dropped when the statistics are read (:meth:`FoldSpace.trim`).
KEPT_VALUES = 1 << 22


class FoldSpace:
    """Work space of :func:`fold_block`, reused by the next block of the same or smaller size."""

    def __init__(self) -> None:
        self._arrays: dict[str, np.ndarray] = {}

    def get(self, name: str, size: int, dtype: type = np.float64) -> np.ndarray:
        """A flat array of ``size`` entries (contents undefined).

        Args:
            name: the array's role in the fold (e.g. ``"totals"``, ``"block"``), one array kept per name.
            size: the entries needed, an integer >= 0; a held array as large, of ``dtype``, is reused.
            dtype: the numpy scalar type of the entries (default ``numpy.float64``).

        Returns:
            A view of ``size`` entries of the held (or a new) array.
        """
        array = self._arrays.get(name)
        if array is None or array.size < size or array.dtype != dtype:
            array = self._arrays[name] = np.empty(size, dtype=dtype)
        return array[:size]

    def take(self, name: str, array: np.ndarray) -> np.ndarray:
        """Hand ``array`` (a view of the space's array ``name``) to the caller for good: the space forgets it.

        Args:
            name: the role under which the space holds the array.
            array: the view the caller keeps; the space forgets ``name`` only if ``array`` shares its memory.

        Returns:
            ``array``.
        """
        held = self._arrays.get(name)
        if held is not None and np.shares_memory(held, array):
            del self._arrays[name]
        return array

    def trim(self, limit: int) -> None:
        """Drop the arrays of more than ``limit`` entries.

        Args:
            limit: the most entries an array may have and be kept (e.g. :data:`KEPT_VALUES`).
        """
        self._arrays = {name: array for name, array in self._arrays.items() if array.size <= limit}

    def give(self, name: str, array: np.ndarray) -> None:
        """Take ``array`` (flat) back as ``name`` when the space holds none as large.

        Args:
            name: the role to hold it under.
            array: a flat array the caller no longer uses.
        """
        held = self._arrays.get(name)
        if held is None or held.size < array.size:
            self._arrays[name] = array


_LOCAL = threading.local()


def work_space() -> FoldSpace:
    """This thread's work space (Dask's threaded scheduler runs blocks in threads: one space each)."""
    space: FoldSpace | None = getattr(_LOCAL, "space", None)
    if space is None:
        space = _LOCAL.space = FoldSpace()
    return space


def total_offsets(depth: int) -> tuple[list[int], list[int]]:
    """Where each level's totals start in the array :func:`fold_block` returns: the nodes of level ``l``
    (``2**l`` of them) at ``nodes[l]``, the sibling differences below level ``l`` (``2**l``) at ``siblings[l]``.

    Args:
        depth: the cascade's depth, an integer >= 0 (levels 0 = root .. depth = leaves).

    Returns:
        (``nodes``, ``siblings``): the start offsets, ``depth + 1`` and ``depth`` of them, in a totals array of
        ``3 × 2**depth − 2`` entries.
    """
    nodes = [(1 << level) - 1 for level in range(depth + 1)]
    siblings = [(2 << depth) - 1 + (1 << level) - 1 for level in range(depth)]
    return nodes, siblings


def _row_totals(values: np.ndarray, out: np.ndarray) -> None:
    """``out`` = the column sums of ``values`` (``rows × width``, float64, overwritten) rounded to integers first;
    the rows are added pairwise in place, the last addition written to ``out``."""
    np.rint(values, out=values)
    rows = values.shape[0]
    if rows == 1:
        np.copyto(out, values[0])
        return
    while rows > 2:
        half = rows // 2
        np.add(values[:half], values[rows - half:rows], out=values[:half])
        rows -= half
    np.add(values[0], values[1], out=out)


def _fold_levels(current: np.ndarray, level: int, count: int, column: int, room: np.ndarray, totals: np.ndarray,
                 offsets: tuple[list[int], list[int]], parents_out: np.ndarray | None = None,
                 cells: tuple[np.ndarray, np.ndarray] | None = None) -> None:
    """Fold ``count`` levels of the subtree block ``current`` (rows × width, contiguous, overwritten): its nodes
    are level ``level``'s ``column .. column + width - 1``. Each level's node sums and (below the root) sibling
    sums go to their range of ``totals``; the parents of the last level folded are written to ``parents_out``
    (when given). ``room``: float64 work space of ``current.size`` values. ``cells``: (thresholds, counts): the
    squared sibling differences of the first level folded (the leaves' siblings, when ``level`` is the leaves')
    above each threshold are counted into ``counts`` before they are rounded."""
    nodes, siblings = offsets
    rows, width = current.shape
    spare, differences = room[:current.size // 2], room[current.size // 2:]
    for step in range(count):
        at = level - step
        if at:
            half = (rows, width // 2)
            left, right = current[:, 0::2], current[:, 1::2]
            difference = np.subtract(left, right, out=differences[:rows * half[1]].reshape(half))
            last = step == count - 1 and parents_out is not None
            parents = np.add(left, right, out=parents_out if last else spare[:rows * half[1]].reshape(half))
        node_totals = totals[nodes[at] + column:nodes[at] + column + width]
        if rows == 1:  # one run: its rounded squares are the totals, squared and rounded where they are kept
            np.multiply(current[0], current[0], out=node_totals)
            np.rint(node_totals, out=node_totals)
        else:
            np.multiply(current, current, out=current)
            _row_totals(current, node_totals)
        if not at:
            return
        np.multiply(difference, difference, out=difference)
        if cells is not None and step == 0:  # the leaves' siblings only: half the coefficients, half the cost
            count_above(difference, *cells)
        column //= 2
        sibling_totals = totals[siblings[at - 1] + column:siblings[at - 1] + column + width // 2]
        if rows == 1:
            np.rint(difference[0], out=sibling_totals)
        else:
            _row_totals(difference, sibling_totals)
        spare = current.reshape(-1)
        current, width = parents, width // 2


def fold_block(samples: np.ndarray, scale: float, depth: int, space: FoldSpace,
               cells: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, int] | None:
    """The block's exact sums (module docstring) as float64 integers below ``2**52``, laid out by
    :func:`total_offsets`, and their maximum, for ``samples`` (rows × ``2**depth``, real) times ``scale``;
    ``None`` when a total is not below ``2**52`` or not finite (huge or non-finite values: the caller computes
    those exactly). The array is part of ``space``: valid until the next call. ``cells``: (thresholds, counts),
    the squared sibling differences (in the scaled units) above each threshold counted into ``counts`` (meaningful
    only when the block's sums are returned, not ``None``) for the leaves' siblings, ``n/2`` per run.

    Args:
        samples: the block, shape (rows, 2**depth), real (any float or integer dtype; computed in float64).
        scale: the factor the values are multiplied by first (the grid's root units over σ), a positive float.
        depth: the cascade's depth, an integer >= 0 (``samples`` has 2**depth columns).
        space: the thread's work space (:func:`work_space`); the returned totals are one of its arrays.
        cells: (thresholds, counts) for the magnitude counts: float thresholds on the squared scaled differences
            and an int64 array of one count per threshold, added to; ``None``: not counted.

    Returns:
        (totals, peak): the float64 integer totals laid out by :func:`total_offsets` and their maximum, or
        ``None`` when a total is not below 2**52 or not finite.
    """
    rows, leaves = samples.shape
    offsets = total_offsets(depth)
    totals = space.get("totals", 3 * leaves - 2)
    tile = max(1, min(leaves, TILE_VALUES // rows))
    tile = 1 << (tile.bit_length() - 1)  # a power of two: a subtree of the leaves
    tiled_levels = min(TILE_LEVELS, depth, tile.bit_length() - 1)
    with np.errstate(over="ignore", invalid="ignore"):  # inf and NaN reach the totals, which are checked
        block: np.ndarray
        if tile == leaves or tiled_levels == 0:
            block = space.get("block", samples.size).reshape(samples.shape)
            np.multiply(samples, scale, out=block, dtype=np.float64)  # computed in float64 whatever the input
            _fold_levels(block, depth, depth + 1, 0, space.get("room", samples.size), totals, offsets, cells=cells)
        else:
            top = space.get("top", samples.size >> tiled_levels).reshape(rows, leaves >> tiled_levels)
            block = space.get("block", rows * tile).reshape(rows, tile)
            room = space.get("room", rows * tile)
            for start in range(0, leaves, tile):
                np.multiply(samples[:, start:start + tile], scale, out=block, dtype=np.float64)
                _fold_levels(block, depth, tiled_levels, start, room, totals, offsets,
                             top[:, start >> tiled_levels:(start + tile) >> tiled_levels], cells)
            rest = depth - tiled_levels
            _fold_levels(top, rest, rest + 1, 0, space.get("top room", top.size), totals, offsets)
    peak = float(np.max(totals))
    if not peak < EXACT_TOTAL:  # a NaN fails too
        return None
    return totals, int(peak)
