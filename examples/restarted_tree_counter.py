"""A user's binary-tree continual counter with restarts (the kind DP-FTRL's tree aggregation uses), written as a
user would, in plain Python: the stream is cut into blocks of ``BLOCK`` steps and a fresh binary tree of
Gaussian node noise counts each block; the count at step t adds the noisy totals of the finished blocks (their
roots) and the binary-mechanism prefix of the current block.

Privacy as its author states it: a user participates at most once per tree (once per block), every tree's
leaf-to-root path has ``HEIGHT + 1`` nodes, so Δ² <= TREES·(HEIGHT + 1) and the release is
ρ-zCDP with ρ = TREES·(HEIGHT + 1)/(2σ²).

``noisy_counts`` is correct. ``noisy_counts_shared_seed`` is the planted fault: every tree draws the same node
noise (the generator is re-seeded per tree), so the trees' noise cancels between blocks.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

BLOCK = 8  # steps per tree
HEIGHT = 3  # log2(BLOCK)
TREES = 4
HORIZON = BLOCK * TREES
NODES = 2 * BLOCK - 1  # per tree, level order: node 0 the root, children of v are 2v+1, 2v+2
DRAWS = TREES * NODES
SIGMA = 4
CLAIMED_RHO = Fraction(TREES * (HEIGHT + 1), 2 * SIGMA**2)


def _node_sums(bits: Sequence[object]) -> list[object]:
    """The exact subtree sums of one block (level order)."""
    sums: list[object] = [0] * NODES
    for leaf, bit in enumerate(bits):
        node = BLOCK - 1 + leaf
        while True:
            sums[node] = sums[node] + bit  # type: ignore[operator]
            if node == 0:
                break
            node = (node - 1) // 2
    return sums


def _prefix_nodes(step: int) -> list[int]:
    """The nodes whose intervals tile [0, step] inside a block (binary mechanism)."""
    nodes, start, size, node = [], 0, BLOCK, 0
    end = step + 1
    while start < end:
        if start + size <= end:
            nodes.append(node)
            start += size
            node += 1  # the right sibling's subtree starts where this one ended
            continue
        node, size = 2 * node + 1, size // 2  # descend to the left child
    return nodes


def _counts(bits: Sequence[object], noise_of_tree: Sequence[Sequence[object]]) -> list[object]:
    outputs: list[object] = []
    finished: object = 0
    for tree in range(TREES):
        block = bits[tree * BLOCK:(tree + 1) * BLOCK]
        noisy = [value + draw for value, draw in zip(_node_sums(block), noise_of_tree[tree])]  # type: ignore[operator]
        for step in range(BLOCK):
            total = finished
            for node in _prefix_nodes(step):
                total = total + noisy[node]  # type: ignore[operator]
            outputs.append(total)
        finished = finished + noisy[0]  # type: ignore[operator]
    return outputs


def noisy_counts(bits: Sequence[object], draws: Sequence[object]) -> list[object]:
    """The noisy prefix counts of ``bits`` given ``DRAWS`` standard-σ node draws (already scaled by σ)."""
    return _counts(bits, [draws[tree * NODES:(tree + 1) * NODES] for tree in range(TREES)])


def noisy_counts_shared_seed(bits: Sequence[object], draws: Sequence[object]) -> list[object]:
    """FAULT: every tree uses the first tree's node draws (a generator re-seeded per tree)."""
    return _counts(bits, [draws[:NODES] for _ in range(TREES)])
