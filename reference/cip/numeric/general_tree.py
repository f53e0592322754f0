"""Cascade Sampling on a general binary tree (CIP paper, Appendix D.2, Algorithm 3 as the prose describes).

The tree is :class:`reference.cip.tree.BinaryTree` (labels, level order and leaf order as documented there).

The sampler
-----------
Algorithm 3 (the printed pseudocode is mis-nested; this follows the prose): ``X_root ~ N(0, σ²)``; for every
node ``s`` with two children draw ``Y_s ~ N(0, σ²)`` and set ``X_{s0} = X_s/2 + (√3/2) Y_s``,
``X_{s1} = X_s/2 − (√3/2) Y_s``; a node with one child passes its value unchanged; leaves stop.

Order of random draws: one block ``z = rng.standard_normal(m)`` for a tree with ``m`` leaves (a binary tree
with ``m`` leaves has exactly ``m − 1`` two-child nodes): ``X_root = σ z[0]`` and ``Y_s = σ z[1 + t]`` for the
``t``-th two-child node ``s`` in level order. With ``size=B`` the block is ``(B, m)``, row-major, so ``B``
samples equal ``B`` successive single calls on the same generator. For the perfect tree this is the order
"root, then the internal nodes in level order", and the arithmetic is that of
:mod:`reference.cip.numeric.cascade`: the two samplers give the same values, bit for bit, for the same seed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TypeAlias

import numpy as np
import numpy.typing as npt

from reference.cip.tree import BinaryTree, Level, check_tree
from reference.core.rng import RngLike, as_generator
from reference.core.validate import DEFAULT_MAX_GIB, check_float_memory, check_positive_int, count_text, positive_real

FloatArray: TypeAlias = npt.NDArray[np.float64]


_HALF_SQRT3 = math.sqrt(3.0) / 2.0















def _draws(
    tree: BinaryTree, sigma: object, rng: object, size: object, max_gib: object
) -> tuple[FloatArray, float, bool]:
    """The block of standard normals (always 2-D), σ, and whether a single sample was asked for."""
    scale = positive_real(sigma, "sigma")
    generator = as_generator(rng)
    batch = None if size is None else check_positive_int(size, "size")
    count = 1 if batch is None else batch
    # the draws, and the nodes (about 2 per leaf) of the output
    check_float_memory(3 * count * tree.leaf_count, max_gib, f"{count_text(count)} sample(s) of {tree.leaf_count} leaves")
    # one flat call, reshaped row-major: the same stream as `count` calls of standard_normal(m)
    block = generator.standard_normal(count * tree.leaf_count).reshape(count, tree.leaf_count)
    return block, scale, batch is None


def _children(level: Level, parent_values: FloatArray, draws: FloatArray, sigma: float) -> FloatArray:
    """Values of one level from those of the level above (Algorithm 3, one step, all nodes at once).

    The arithmetic is that of :mod:`reference.cip.numeric.cascade` (``h = X * 0.5``, ``y = z * (√3/2 · σ)``,
    ``h ± y``), so on a perfect tree the two samplers agree bit for bit for the same seed.
    """
    inherited = parent_values[:, level.parent]
    half = inherited * 0.5
    noise = draws[:, level.draw] * (_HALF_SQRT3 * sigma)
    split_value = np.where(level.is_right, half - noise, half + noise)
    # an only child takes its parent's value unchanged (bit for bit)
    return np.where(level.below_split, split_value, inherited)


def general_tree_nodes(
    tree: BinaryTree, sigma: float, rng: RngLike = None, *, size: int | None = None, max_gib: float = DEFAULT_MAX_GIB
) -> FloatArray:
    """Algorithm 3: the noise of every node in level order (shape ``(node_count,)``, or ``(size, node_count)``).

    Every node is ``N(0, σ²)``; a split node's value is the sum of its children's up to float rounding (see
    :func:`consistency_defects`); an only child equals its parent exactly. ``rng``: a Generator, a seed or
    None; the draw order is in the module docstring.

    Args:
        tree: the tree, a :class:`~reference.cip.tree.BinaryTree`.
        sigma: σ > 0, a finite float: the standard deviation of every node.
        rng: a ``numpy.random.Generator``, an integer seed or ``None`` (fresh OS entropy).
        size: ``None`` for one sample, or an integer >= 1 for that many independent samples on a leading axis.
        max_gib: the largest output, in GiB, before the call is refused with ``ValueError`` (default 2).
    """
    tree = check_tree(tree)
    draws, scale, single = _draws(tree, sigma, rng, size, max_gib)
    out = np.empty((draws.shape[0], tree.node_count))
    values = draws[:, :1] * scale
    out[:, 0] = values[:, 0]
    offset = 1
    for level in tree.levels[1:]:
        values = _children(level, values, draws, scale)
        out[:, offset : offset + values.shape[1]] = values
        offset += values.shape[1]
    return out[0] if single else out


def general_tree_leaves(
    tree: BinaryTree, sigma: float, rng: RngLike = None, *, size: int | None = None, max_gib: float = DEFAULT_MAX_GIB
) -> FloatArray:
    """Algorithm 3: the noise of the leaves in natural order (shape ``(m,)``, or ``(size, m)``).

    Same draws and arithmetic as :func:`general_tree_nodes` (same seed, same leaves bit for bit), holding one
    level of values at a time.

    Args:
        tree: the tree, a :class:`~reference.cip.tree.BinaryTree`.
        sigma: σ > 0, a finite float: the standard deviation of every node.
        rng: a ``numpy.random.Generator``, an integer seed or ``None`` (fresh OS entropy).
        size: ``None`` for one sample, or an integer >= 1 for that many independent samples on a leading axis.
        max_gib: the largest output, in GiB, before the call is refused with ``ValueError`` (default 2).
    """
    tree = check_tree(tree)
    draws, scale, single = _draws(tree, sigma, rng, size, max_gib)
    out = np.empty((draws.shape[0], tree.leaf_count))
    values = draws[:, :1] * scale
    for depth, level in enumerate(tree.levels):
        if depth:
            values = _children(level, values, draws, scale)
        is_leaf = level.counts == 0
        out[:, level.leaf_start[is_leaf]] = values[:, is_leaf]
    return out[0] if single else out


def consistency_defects(tree: BinaryTree, node_values: Sequence[float] | FloatArray) -> FloatArray:
    """For every node with children (level order): ``|value − Σ children| / bound``, with
    ``bound = 4u (|value| + Σ |children|) + tiny`` and ``u = 2**-53``. Every entry is <= 1 when the float
    computation of Algorithm 3 is consistent up to rounding; a one-child node gives exactly 0.

    Why this bound: a split computes ``c0 = fl(h + a)``, ``c1 = fl(h − a)`` from the exact ``h = X/2``, so the
    exact ``c0 + c1`` is within ``u (|c0| + |c1|)/(1 − u)`` of ``X``; evaluating ``fl(fl(c0 + c1) − X)`` adds two
    more roundings of at most ``u`` times the magnitudes involved; ``4u`` covers all three.

    Args:
        tree: the :class:`~reference.cip.tree.BinaryTree` the values belong to.
        node_values: one value per node in level order (as :func:`general_tree_nodes` returns for one sample).
    """
    tree = check_tree(tree)
    values = np.asarray(node_values, dtype=np.float64)
    if values.ndim not in (1, 2) or values.shape[-1] != tree.node_count:
        raise ValueError(
            f"node_values must have shape ({tree.node_count},) or (samples, {tree.node_count}), got {values.shape}"
        )
    counts = np.array(tree.child_counts)
    first_child = 1 + np.cumsum(counts) - counts  # level order: a node's children follow all earlier children
    parents = np.flatnonzero(counts > 0)
    left = values[..., first_child[parents]]
    right = np.where(counts[parents] == 2, values[..., np.minimum(first_child[parents] + 1, len(counts) - 1)], 0.0)
    parent = values[..., parents]
    bound = 4 * 2.0**-53 * (np.abs(parent) + np.abs(left) + np.abs(right)) + np.finfo(np.float64).tiny
    return np.asarray(np.abs(left + right - parent) / bound, dtype=np.float64)


