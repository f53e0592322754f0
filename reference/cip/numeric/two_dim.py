"""Cascade Sampling in two dimensions (CIP paper, Appendix D.3, Algorithm 4).

Cells form a ``2**row_depth`` x ``2**column_depth`` array; rows are the leaves of a perfect binary tree of
depth ``row_depth``, columns of one of depth ``column_depth``, both in natural order. A rectangle is a pair
(row node, column node); nodes are numbered in level order (``2**level − 1 + position``), so the values of
all rectangles form a ``(2**(row_depth+1) − 1, 2**(column_depth+1) − 1)`` array indexed by the two node ids.

Algorithm 4: ``X_{∅,·}`` is a cascade (Algorithm 1) over the column tree; for every internal row node ``★``,
top down, an independent cascade ``Y_{★,·}`` over the column tree is drawn and
``X_{★0,J} = X_{★,J}/2 + (√3/2) Y_{★,J}``, ``X_{★1,J} = X_{★,J}/2 − (√3/2) Y_{★,J}`` for every column node ``J``.
Every rectangle is ``N(0, σ²)`` and the cell covariance is ``σ² C_row_depth ⊗ C_column_depth``
(:mod:`reference.cip.exact.two_dim`).

Since every step is linear, Algorithm 4 is the 1-D cascade map applied along the columns of a block of
draws and then along its rows; this module computes it that way, level by level with slices, so the cost
is linear in the number of cells.

Order of random draws: one block ``rng.standard_normal((2**row_depth, 2**column_depth))``. Its row 0 drives the cascade ``X_{∅,·}``; row ``1 + k`` drives ``Y`` of the internal row node with level-order
id ``k``. Within a row, entry 0 is the cascade's root value and entry ``1 + t`` its ``Y`` at the internal
column node with level-order id ``t`` (Algorithm 1 in the order "root, then internal nodes in level order",
with the arithmetic of :mod:`reference.cip.numeric.cascade`, so ``two_dim_nodes(0, d, σ, seed)[0]`` equals
``cascade_tree(d, σ, seed)`` bit for bit).
With ``size=B`` the block has shape ``(B, rows, columns)``, row-major: ``B`` samples equal ``B`` successive
single calls on the same generator.
"""

from __future__ import annotations

import math
from types import EllipsisType
from typing import TypeAlias

import numpy as np
import numpy.typing as npt

from reference.core.exact_text import message_value
from reference.core.rng import RngLike, as_generator
from reference.core.validate import (
    DEFAULT_MAX_GIB,
    check_depth,
    check_float_memory,
    check_positive_int,
    count_text,
    positive_real,
)

FloatArray: TypeAlias = npt.NDArray[np.float64]

#: ``row_depth + column_depth`` may not exceed this (2**30 cells of float64 are 8 GiB).
MAX_TOTAL_DEPTH = 30

_HALF_SQRT3 = math.sqrt(3.0) / 2.0


def _along(axis: int, index: slice) -> tuple[EllipsisType | slice, ...]:
    """An index selecting ``index`` along ``axis`` (−1 or −2) of an array of any rank."""
    return (Ellipsis, index) if axis == -1 else (Ellipsis, index, slice(None))


def _cascade(draws: FloatArray, depth: int, axis: int, scale: float, *, nodes: bool) -> FloatArray:
    """The 1-D cascade map of depth ``depth`` along ``axis``: ``2**depth`` draws (root, then Y of the internal
    nodes in level order, each to be multiplied by ``scale``) to the ``2**depth`` leaf values, or to all
    ``2**(depth+1) − 1`` node values. Arithmetic as in :mod:`reference.cip.numeric.cascade`:
    root ``z * scale``, children ``X * 0.5 ± z * (√3/2 · scale)``."""
    values = draws[_along(axis, slice(0, 1))] * scale
    shape = list(draws.shape)
    if nodes:
        shape[axis] = (1 << (depth + 1)) - 1
        out = np.empty(shape)
        out[_along(axis, slice(0, 1))] = values
    for level in range(depth):
        width = 1 << level
        noise = draws[_along(axis, slice(width, 2 * width))] * (_HALF_SQRT3 * scale)
        half = values * 0.5
        shape[axis] = 2 * width
        children = np.empty(shape) if not nodes else out[_along(axis, slice(2 * width - 1, 4 * width - 1))]
        children[_along(axis, slice(0, None, 2))] = half + noise
        children[_along(axis, slice(1, None, 2))] = half - noise
        values = children
    return out if nodes else values


def _check_depths(row_depth: object, column_depth: object) -> tuple[int, int]:
    rows = check_depth(row_depth, "row_depth", maximum=MAX_TOTAL_DEPTH)
    columns = check_depth(column_depth, "column_depth", maximum=MAX_TOTAL_DEPTH)
    if rows + columns > MAX_TOTAL_DEPTH:
        raise ValueError(f"row_depth + column_depth must be at most {MAX_TOTAL_DEPTH}, got {message_value(rows)} + {columns}")
    return rows, columns


def _draws(
    row_depth: object, column_depth: object, sigma: object, rng: object, size: object, max_gib: object
) -> tuple[int, int, FloatArray, float, bool]:
    rows, columns = _check_depths(row_depth, column_depth)
    scale = positive_real(sigma, "sigma")
    generator = as_generator(rng)
    batch = None if size is None else check_positive_int(size, "size")
    count = 1 if batch is None else batch
    # the draws, and the nodes (about 4 per cell) of the output
    check_float_memory(5 * count << (rows + columns), max_gib, f"{count_text(count)} sample(s) of {1 << (rows + columns)} cells")
    # one flat call, reshaped row-major: the same stream as `count` single calls
    block = generator.standard_normal(count << (rows + columns)).reshape(count, 1 << rows, 1 << columns)
    return rows, columns, block, scale, batch is None


def two_dim_nodes(
    row_depth: int,
    column_depth: int,
    sigma: float,
    rng: RngLike = None,
    *,
    size: int | None = None,
    max_gib: float = DEFAULT_MAX_GIB,
) -> FloatArray:
    """Algorithm 4: the noise of every (row node, column node) rectangle.

    Shape ``(2**(row_depth+1) − 1, 2**(column_depth+1) − 1)`` indexed by level-order node ids (or with a leading
    ``size`` axis). Entry ``[a, b]`` is the sum of the noise of the cells in the rectangle up to float rounding.

    Args:
        row_depth: the row tree's depth, an integer >= 0; ``row_depth + column_depth`` at most 30.
        column_depth: the column tree's depth, an integer >= 0.
        sigma: σ > 0, a finite float: the standard deviation of every node (rectangle).
        rng: a ``numpy.random.Generator``, an integer seed or ``None`` (fresh OS entropy).
        size: ``None`` for one sample, or an integer >= 1 for that many independent samples on a leading axis.
        max_gib: the largest output, in GiB, before the call is refused with ``ValueError`` (default 2).
    """
    rows, columns, draws, scale, single = _draws(row_depth, column_depth, sigma, rng, size, max_gib)
    # columns first (Algorithm 1 with σ, one cascade per row of draws), then the row splits: their "draws"
    # are the σ-scaled cascades X_{∅,·} and Y_{★,·}, so the row pass uses scale 1
    result = _cascade(_cascade(draws, columns, -1, scale, nodes=True), rows, -2, 1.0, nodes=True)
    return result[0] if single else result


def two_dim_leaves(
    row_depth: int,
    column_depth: int,
    sigma: float,
    rng: RngLike = None,
    *,
    size: int | None = None,
    max_gib: float = DEFAULT_MAX_GIB,
) -> FloatArray:
    """Algorithm 4: the noise of the cells, shape ``(2**row_depth, 2**column_depth)`` (or ``(size, …)``).

    The same draws and arithmetic as :func:`two_dim_nodes`: with the same seed the cells equal the leaf rows
    and leaf columns of the rectangle array bit for bit.

    Args:
        row_depth: the row tree's depth, an integer >= 0; ``row_depth + column_depth`` at most 30.
        column_depth: the column tree's depth, an integer >= 0.
        sigma: σ > 0, a finite float: the standard deviation of every node (rectangle).
        rng: a ``numpy.random.Generator``, an integer seed or ``None`` (fresh OS entropy).
        size: ``None`` for one sample, or an integer >= 1 for that many independent samples on a leading axis.
        max_gib: the largest output, in GiB, before the call is refused with ``ValueError`` (default 2).
    """
    rows, columns, draws, scale, single = _draws(row_depth, column_depth, sigma, rng, size, max_gib)
    result = _cascade(_cascade(draws, columns, -1, scale, nodes=False), rows, -2, 1.0, nodes=False)
    return result[0] if single else result
