"""A user's b-ary tree of counts with integer (discrete Laplace) noise and an integer consistency step, written
with numpy int64 arrays as such code usually is.

``release(leaf_counts, node_noise)``: the exact count of every node of a complete ``ARITY``-ary tree over
``LEAVES`` leaves (level order) plus one integer noise draw per node, then made consistent top down — each
parent keeps its noisy value and its first child absorbs the difference, so that every parent equals the sum of
its children. Integers in, integers out, linear.

Privacy as its author states it: a leaf count changes by one; it changes one node per level, ``LEVELS`` nodes,
so the ℓ1 sensitivity is ``LEVELS`` and discrete Laplace noise of scale ``LEVELS/ε`` gives ε-DP.
``SCALE`` is that scale; ``FAULTY_SCALE`` is the planted fault — the height counted in edges (``LEVELS − 1``)
instead of levels.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

ARITY = 3
LEVELS = 3  # root, one middle level, leaves
LEAVES = ARITY ** (LEVELS - 1)
NODES = (ARITY**LEVELS - 1) // (ARITY - 1)
EPSILON = Fraction(1)
SCALE = LEVELS / EPSILON
FAULTY_SCALE = (LEVELS - 1) / EPSILON


def _children(node: int) -> range:
    return range(ARITY * node + 1, ARITY * node + ARITY + 1)


def release(leaf_counts: np.ndarray, node_noise: np.ndarray) -> np.ndarray:
    """Noisy, consistent node counts (level order)."""
    counts = np.zeros(NODES, dtype=np.int64)
    counts[NODES - LEAVES:] = leaf_counts
    for node in range(NODES - LEAVES - 1, -1, -1):  # exact subtree sums, bottom up
        counts[node] = sum(counts[child] for child in _children(node))
    noisy = counts + node_noise
    for node in range(NODES - LEAVES):  # consistency, top down: the first child absorbs the difference
        children = list(_children(node))
        noisy[children[0]] = noisy[node] - sum(noisy[child] for child in children[1:])
    return noisy
