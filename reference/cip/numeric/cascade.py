"""Cascade Sampling (CIP paper, Algorithm 1): noise ``N(0, sigma**2 * C_depth)`` in O(n) time.

Conventions
-----------
* ``depth`` is the height of the perfect binary tree; ``n = 2**depth`` leaves, in natural order.
* ``sigma`` is a standard deviation: every tree node (leaf or internal) gets variance ``sigma**2``
  (Theorem 3.3), and the leaves have covariance ``sigma**2 * C_depth`` (Proposition 3.5).
* Node ``(level, position)`` (level 0 = root, level ``depth`` = leaves) covers leaves
  ``[position * 2**(depth - level), (position + 1) * 2**(depth - level))``. :func:`cascade_tree` returns all
  ``2n - 1`` node values in *level order*: node ``(l, p)`` sits at index ``2**l - 1 + p``, so the root is at
  0 and the children of index ``i`` are ``2i + 1`` (left, label 0) and ``2i + 2`` (right, label 1).

The split (equation (2) of the paper)
-------------------------------------
A node with value ``X`` and an independent ``Y = sigma * z`` (``z`` standard normal) gets children
``X/2 + (sqrt(3)/2) Y`` (left) and ``X/2 - (sqrt(3)/2) Y`` (right). In floating point both functions compute,
with the same operations in the same order, ``h = X * 0.5``, ``y = z * (sqrt(3)/2 * sigma)``,
``left = h + y``, ``right = h - y``; so the two functions agree bit for bit, and ``left + right`` equals
``X`` up to one rounding per child (see ``verification/cip/checks/cascade.py`` for the bound).

Order of random draws (the same in both functions)
--------------------------------------------------
1. the root: one standard normal ``z``, the root value being ``sigma * z``;
2. then for ``level = 0, 1, ..., depth - 1``: ``2**level`` standard normals, one per level-``level`` node from
   left to right, used as that node's ``z`` in the split.

So ``n`` standard normals are drawn in total. The draws are made with ``Generator.standard_normal`` in
blocks of at most :data:`CHUNK` values; numpy's ``Generator`` produces the same sequence whether normals are
drawn one at a time or in blocks, so the output depends only on the generator's state (and a seed gives the
same output everywhere).

Memory
------
:func:`cascade_leaves` works in place in its output array: level ``l`` (``2**l`` values) is stored in the
last ``2**l`` slots, and level ``l + 1`` is written over the last ``2**(l+1)`` slots in blocks, front to
back. The children ``[2a, 2a + 2b)`` of parents ``[a, a + b)`` (offsets within that region) never reach the
parents still to be read, which sit at offset ``2**l + a + b`` or later; the parents of the block itself are
copied out first. So the only extra memory is two scratch blocks of :data:`CHUNK` floats.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from reference.core.rng import as_generator
from reference.core.validate import DEFAULT_MAX_GIB, check_depth, check_float_memory, positive_real

#: Largest depth the numeric layer accepts (2**40 leaves is already 8 TiB of float64).
MAX_NUMERIC_DEPTH = 40

#: Block length for the in-place level sweep: large enough that the per-block Python overhead is negligible,
#: small enough that the two scratch blocks stay in cache.
CHUNK = 1 << 15

#: sqrt(3)/2 rounded once; the split multiplies it by sigma once per call.
SQRT3_OVER_2 = math.sqrt(3.0) / 2.0


def _split_level(
    values: np.ndarray,
    parent_start: int,
    child_start: int,
    count: int,
    gen: np.random.Generator,
    scale: float,
    half_buf: np.ndarray,
    noise_buf: np.ndarray,
) -> None:
    """Write the ``2 * count`` children of ``values[parent_start : parent_start + count]`` to
    ``values[child_start : child_start + 2 * count]``, drawing ``count`` standard normals (left to right).

    Requires that block ``[a, a + b)`` of children never overwrites parents at ``a + b`` or later, which holds
    when the parent and child regions are disjoint (tree) or when both regions end at the same place
    (``cascade_leaves``).
    """
    for start in range(0, count, CHUNK):
        size = min(CHUNK, count - start)
        half = half_buf[:size]
        noise = noise_buf[:size]
        # Copy-and-halve first: the children written below may overlap the parents of this block.
        np.multiply(values[parent_start + start : parent_start + start + size], 0.5, out=half)
        gen.standard_normal(out=noise)
        np.multiply(noise, scale, out=noise)
        children = values[child_start + 2 * start : child_start + 2 * (start + size)]
        np.add(half, noise, out=children[0::2])
        np.subtract(half, noise, out=children[1::2])


def _validated(
    depth: object, sigma: object, rng: object, max_gib: float, values: Callable[[int], int]
) -> tuple[int, float, np.random.Generator]:
    """Validate the common arguments (in signature order, so the first bad one is named), then the memory the
    output needs against ``max_gib`` (cost before work)."""
    checked_depth = check_depth(depth, "depth", maximum=MAX_NUMERIC_DEPTH)
    checked_sigma = positive_real(sigma, "sigma")
    check_float_memory(values(checked_depth), max_gib, f"depth {checked_depth}")
    return checked_depth, checked_sigma, as_generator(rng, "rng")


def cascade_leaves(
    depth: int, sigma: float, rng: np.random.Generator | int | None = None, *, max_gib: float = DEFAULT_MAX_GIB
) -> np.ndarray:
    """The ``2**depth`` leaf noises of Algorithm 1: one draw from ``N(0, sigma**2 * C_depth)``.

    ``depth`` is an integer in ``[0, 40]``; ``sigma > 0`` finite is the standard deviation of every node;
    ``rng`` is a ``numpy.random.Generator``, an integer seed or ``None`` (fresh entropy). Returns a float64
    array of shape ``(2**depth,)``. Draw order as in the module docstring; for the same seed the result equals
    the last level of :func:`cascade_tree` exactly. Time O(n); extra memory two blocks of :data:`CHUNK`.
    Refused (``ValueError``) when the output would exceed ``max_gib`` GiB (default 2: depth 28).

    Args:
        depth: the cascade's depth, an integer in [0, 40] (2**depth leaves).
        sigma: σ > 0, a finite float: the standard deviation of every node.
        rng: a ``numpy.random.Generator``, an integer seed or ``None`` (fresh OS entropy).
        max_gib: the largest output, in GiB, before the call is refused with ``ValueError`` (default 2).
    """
    depth, sigma, gen = _validated(depth, sigma, rng, max_gib, lambda d: 1 << d)
    n = 1 << depth
    out = np.empty(n, dtype=np.float64)
    out[n - 1] = sigma * gen.standard_normal()
    scale = SQRT3_OVER_2 * sigma
    block = min(CHUNK, max(n // 2, 1))
    half_buf = np.empty(block, dtype=np.float64)
    noise_buf = np.empty(block, dtype=np.float64)
    for level in range(depth):
        width = 1 << level
        # Level `level` lives in the last `width` slots; its children go to the last 2 * width slots.
        _split_level(out, n - width, n - 2 * width, width, gen, scale, half_buf, noise_buf)
    return out


def cascade_tree(
    depth: int, sigma: float, rng: np.random.Generator | int | None = None, *, max_gib: float = DEFAULT_MAX_GIB
) -> np.ndarray:
    """All ``2 * 2**depth - 1`` node noises of Algorithm 1, in level order (index ``2**l - 1 + p``).

    Same arguments, draws and arithmetic as :func:`cascade_leaves`; use :func:`level_view` to read one level.
    Every internal node equals the sum of its two children up to rounding. ``max_gib`` as for
    :func:`cascade_leaves` (the tree holds twice as many values).

    Args:
        depth: the cascade's depth, an integer in [0, 40].
        sigma: σ > 0, a finite float: the standard deviation of every node.
        rng: a ``numpy.random.Generator``, an integer seed or ``None`` (fresh OS entropy).
        max_gib: the largest output, in GiB, before the call is refused with ``ValueError`` (default 2).
    """
    depth, sigma, gen = _validated(depth, sigma, rng, max_gib, lambda d: (2 << d) - 1)
    n = 1 << depth
    tree = np.empty(2 * n - 1, dtype=np.float64)
    tree[0] = sigma * gen.standard_normal()
    scale = SQRT3_OVER_2 * sigma
    block = min(CHUNK, max(n // 2, 1))
    half_buf = np.empty(block, dtype=np.float64)
    noise_buf = np.empty(block, dtype=np.float64)
    for level in range(depth):
        width = 1 << level
        _split_level(tree, width - 1, 2 * width - 1, width, gen, scale, half_buf, noise_buf)
    return tree


def level_view(tree: np.ndarray, depth: int, level: int) -> np.ndarray:
    """The ``2**level`` values of level ``level`` of a level-order ``tree`` of the given ``depth`` (a view).

    ``tree`` must be a one-dimensional array of length ``2**(depth + 1) - 1``; ``level`` an integer in
    ``[0, depth]`` (0 = root, ``depth`` = leaves).

    Args:
        tree: a one-dimensional level-order array of length ``2**(depth + 1) − 1`` (as :func:`cascade_tree` returns).
        depth: the tree's depth, an integer in [0, 40].
        level: the level to view, an integer in [0, depth] (0 = root, ``depth`` = leaves).
    """
    depth = check_depth(depth, "depth", maximum=MAX_NUMERIC_DEPTH)
    level = check_depth(level, "level", maximum=depth)
    if not isinstance(tree, np.ndarray):
        raise TypeError(f"tree must be a numpy array in level order, got {type(tree).__name__}")
    expected = (1 << (depth + 1)) - 1
    if tree.ndim != 1 or tree.shape[0] != expected:
        raise ValueError(
            f"tree must be one-dimensional of length 2**(depth + 1) - 1 = {expected} for depth {depth}, "
            f"got shape {tree.shape}"
        )
    return tree[(1 << level) - 1 : (1 << (level + 1)) - 1]
