"""General binary trees for CIP (Appendix D.2): the structure Algorithm 3 and its exact twin run on.

A :class:`BinaryTree` is immutable. A node is addressed by its bit-string label: the root is ``""``; the
children of node ``s`` are ``s + "0"`` (left) and ``s + "1"`` (right). A node has 0 children (a leaf), 1 child
or 2 children; following the paper (D.2: "its children are indexed ... solely as ★0 if it has only one
child"), an only child is always labelled ``0``. Leaves are the data cells, in natural (left-to-right) order.

Nodes are numbered in *level order*: by level (the label's length; level 0 is the root), then left to right.
For a perfect tree this is the usual ``2**level - 1 + position``. The tree is stored as the list of child
counts of its nodes in level order (the breadth-first encoding), which determines it; labels are derived
on request. Build a tree with :meth:`BinaryTree.from_labels` (leaf labels), :meth:`BinaryTree.from_nested`
(``()`` a leaf, ``(t,)`` one child, ``(t0, t1)`` two), :meth:`BinaryTree.from_child_counts`, or the
constructors :func:`balanced_tree` and :func:`perfect_tree`.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import TypeAlias

import numpy as np
import numpy.typing as npt

from reference.core.exact_text import message_value
from reference.core.validate import check_depth, check_positive_int

IntArray: TypeAlias = npt.NDArray[np.int64]

#: A nested-tuple tree: ``()`` is a leaf, ``(child,)`` a node with one child, ``(left, right)`` a split.
Nested: TypeAlias = "tuple[Nested, ...]"

#: Trees up to this many leaves print their leaf labels in ``repr``.
_REPR_LEAVES = 16

@dataclass(frozen=True)
class Level:
    """One level of the tree as index arrays (what the vectorised sampler needs)."""

    counts: IntArray  # child count (0, 1, 2) of each node of the level, left to right
    parent: IntArray  # index within the level above of each node's parent (empty for the root level)
    is_right: npt.NDArray[np.bool_]  # the node is the right child (label ends in 1)
    below_split: npt.NDArray[np.bool_]  # the parent has two children
    draw: IntArray  # column of the draw block holding Y of the parent split (0 where the parent is not a split)
    leaf_start: IntArray  # natural index of the first leaf under each node
    leaf_count: IntArray  # number of leaves under each node

class BinaryTree:
    """An immutable binary tree given by the child counts of its nodes in level order (module docstring).

    ``BinaryTree(child_counts)`` validates the encoding: every count is 0, 1 or 2, and the counts describe one
    connected tree (breadth-first, the number of nodes announced never falls behind the nodes read, and the
    total is exact). Equality and hashing are by this encoding.

    Args:
        child_counts: the child count (0, 1 or 2) of every node in level order, describing one connected tree.
    """

    __slots__ = ("__dict__", "_counts")
    _counts: tuple[int, ...]

    def __init__(self, child_counts: Iterable[int]) -> None:
        counts = _validate_child_counts(child_counts)
        object.__setattr__(self, "_counts", counts)

    def __setattr__(self, name: str, value: object) -> None:
        # functools.cached_property writes into __dict__ directly, so caching still works.
        raise AttributeError("BinaryTree is immutable")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BinaryTree) and self._counts == other._counts

    def __hash__(self) -> int:
        return hash(self._counts)

    def __reduce__(self) -> tuple[type[BinaryTree], tuple[tuple[int, ...]]]:
        # pickle by the encoding (the default protocol would go through the blocked __setattr__)
        return (BinaryTree, (self._counts,))

    def __repr__(self) -> str:
        if self.leaf_count <= _REPR_LEAVES:
            return f"BinaryTree.from_labels({self.leaves!r})"
        return f"<BinaryTree with {self.leaf_count} leaves, height {self.height}>"

    # --- construction -------------------------------------------------------------------------------------

    @classmethod
    def from_child_counts(cls, child_counts: Iterable[int]) -> BinaryTree:
        """The tree whose nodes, in level order, have these numbers of children (same as the constructor).

        Args:
            child_counts: the child count (0, 1 or 2) of every node in level order.
        """
        return cls(child_counts)

    @classmethod
    def from_labels(cls, labels: Iterable[str]) -> BinaryTree:
        """The tree whose leaves have the given bit-string labels, listed in natural (left-to-right) order.

        Raises ``TypeError``/``ValueError`` naming ``labels`` unless the labels are strings of ``0``/``1``,
        at least one, distinct, prefix-free (no leaf is an ancestor of another), listed left to right
        (lexicographic order), and every only child is labelled ``0``.

        Args:
            labels: the leaves' bit-string labels (strings of ``0``/``1``), left to right.
        """
        if isinstance(labels, (str, bytes)):
            raise TypeError("labels must be a sequence of bit strings such as ('0', '10', '11'), not one string")
        items = tuple(labels)
        if not items:
            raise ValueError("labels must name at least one leaf")
        for label in items:
            if not isinstance(label, str):
                raise TypeError(f"labels must be bit strings such as '0110', got {type(label).__name__}")
            if label.strip("01"):
                raise ValueError(f"labels must be strings of the characters 0 and 1, got {label!r}")
        if len(set(items)) != len(items):
            raise ValueError("labels must be distinct")
        if list(items) != sorted(items):
            raise ValueError("labels must be listed in natural (left-to-right, i.e. lexicographic) order")
        # In sorted order a leaf that is an ancestor of another comes right before one of its descendants,
        # so checking neighbours suffices.
        for first, second in itertools.pairwise(items):
            if second.startswith(first):
                raise ValueError(f"labels must be prefix-free: leaf {first!r} is an ancestor of leaf {second!r}")
        nodes = set(items)
        frontier = set(items)
        while frontier:  # every prefix, each found once from below
            frontier = {label[:-1] for label in frontier if label} - nodes
            nodes |= frontier
        for node in nodes:
            if node + "1" in nodes and node + "0" not in nodes:
                raise ValueError(
                    f"labels: node {node!r} has only the child {node + '1'!r}; an only child is labelled "
                    f"{node + '0'!r} (CIP paper, Appendix D.2)"
                )
        ordered = sorted(nodes, key=lambda s: (len(s), s))
        return cls((s + "0" in nodes) + (s + "1" in nodes) for s in ordered)

    @classmethod
    def from_nested(cls, nested: Nested) -> BinaryTree:
        """The tree given as nested tuples (or lists): ``()`` a leaf, ``(t,)`` one child, ``(t0, t1)`` two.

        Args:
            nested: nested tuples or lists: ``()`` a leaf, ``(t,)`` one child, ``(t0, t1)`` two.
        """
        counts: list[int] = []
        level: list[object] = [nested]
        path: list[str] = [""]
        while level:
            next_level: list[object] = []
            next_path: list[str] = []
            for node, label in zip(level, path):
                if not isinstance(node, (tuple, list)):
                    raise TypeError(
                        "nested must be nested tuples (() a leaf, (child,) or (left, right) a node); "
                        f"found {type(node).__name__} at node {label!r}"
                    )
                if len(node) > 2:
                    raise ValueError(f"nested: a node has 0, 1 or 2 children; node {label!r} has {len(node)}")
                counts.append(len(node))
                next_level.extend(node)
                next_path.extend(label + str(bit) for bit in range(len(node)))
            level, path = next_level, next_path
        return cls(counts)

    def to_nested(self) -> Nested:
        """The nested-tuple form (inverse of :meth:`from_nested`)."""
        built: dict[str, Nested] = {}
        for label in reversed(self.nodes):
            built[label] = tuple(built[child] for child in self.children(label))
        return built[""]

    # --- structure ----------------------------------------------------------------------------------------

    @property
    def child_counts(self) -> tuple[int, ...]:
        """Child count of every node, in level order (the encoding the tree is stored as)."""
        return self._counts

    @property
    def node_count(self) -> int:
        """The number of nodes, leaves included."""
        return len(self._counts)

    @property
    def leaf_count(self) -> int:
        """The number of leaves ``m`` (data cells)."""
        return self._counts.count(0)

    @property
    def height(self) -> int:
        """The largest level of a node (0 for a single leaf)."""
        return len(self.levels) - 1

    @cached_property
    def levels(self) -> tuple[Level, ...]:
        """The tree level by level from the root: each level's child counts and the leaf span of its nodes."""
        counts = np.array(self._counts, dtype=np.int64)
        sizes, read = [1], 1
        while read < len(counts):  # the children of one level are the next level
            sizes.append(int(counts[read - sizes[-1] : read].sum()))
            read += sizes[-1]
        bounds = np.cumsum([0, *sizes])
        raw = [counts[bounds[i] : bounds[i + 1]] for i in range(len(sizes))]
        split_rank = np.cumsum(counts == 2) - (counts == 2)  # splits before each node, level order
        parents: list[IntArray] = [np.zeros(0, dtype=np.int64)]
        rights: list[npt.NDArray[np.bool_]] = [np.zeros(1, dtype=bool)]
        below: list[npt.NDArray[np.bool_]] = [np.zeros(1, dtype=bool)]
        draws: list[IntArray] = [np.zeros(1, dtype=np.int64)]
        for i in range(1, len(sizes)):
            above = raw[i - 1]
            parent = np.repeat(np.arange(len(above), dtype=np.int64), above)
            first_child = np.cumsum(above) - above
            right = (np.arange(len(parent)) - first_child[parent]) == 1
            split = above[parent] == 2
            parents.append(parent)
            rights.append(right)
            below.append(split)
            rank = split_rank[bounds[i - 1] : bounds[i]][parent]
            draws.append(np.where(split, 1 + rank, 0))
        # leaves under each node, bottom up; then the natural index of each node's first leaf, top down
        leaf_counts: list[IntArray] = [np.zeros(0, dtype=np.int64)] * len(sizes)
        for i in reversed(range(len(sizes))):
            total = np.ones(len(raw[i]), dtype=np.int64)
            if i + 1 < len(sizes):
                sums = np.zeros(len(raw[i]), dtype=np.int64)
                np.add.at(sums, parents[i + 1], leaf_counts[i + 1])
                total = np.where(raw[i] == 0, 1, sums)
            leaf_counts[i] = total
        starts: list[IntArray] = [np.zeros(1, dtype=np.int64)]
        for i in range(1, len(sizes)):
            left_sibling = np.roll(leaf_counts[i], 1)
            starts.append(starts[i - 1][parents[i]] + np.where(rights[i], left_sibling, 0))
        return tuple(
            Level(raw[i], parents[i], rights[i], below[i], draws[i], starts[i], leaf_counts[i])
            for i in range(len(sizes))
        )

    @cached_property
    def nodes(self) -> tuple[str, ...]:
        """The label of every node, in level order."""
        labels: list[str] = [""]
        previous = [""]
        for level in self.levels[1:]:
            current = [previous[p] + ("1" if r else "0") for p, r in zip(level.parent.tolist(), level.is_right)]
            labels.extend(current)
            previous = current
        return tuple(labels)

    @cached_property
    def leaves(self) -> tuple[str, ...]:
        """The leaf labels in natural (left-to-right) order."""
        labels = self.nodes
        return tuple(labels[i] for i in self.leaf_node_indices.tolist())

    @cached_property
    def level_sizes(self) -> tuple[int, ...]:
        """The number of nodes on each level, root level first."""
        return tuple(len(level.counts) for level in self.levels)

    @cached_property
    def parent_indices(self) -> IntArray:
        """For every node in level order, the level-order index of its parent (−1 for the root)."""
        result = np.full(self.node_count, -1, dtype=np.int64)
        offset = 0
        for size, level in zip(self.level_sizes, self.levels[1:]):
            result[offset + size : offset + size + len(level.parent)] = offset + level.parent
            offset += size
        return result

    @cached_property
    def leaf_node_indices(self) -> IntArray:
        """For each leaf in natural order, its level-order node index."""
        result = np.empty(self.leaf_count, dtype=np.int64)
        offset = 0
        for level in self.levels:
            is_leaf = level.counts == 0
            result[level.leaf_start[is_leaf]] = offset + np.flatnonzero(is_leaf)
            offset += len(level.counts)
        return result

    @cached_property
    def node_index(self) -> dict[str, int]:
        """Level-order index of every node label."""
        return {label: index for index, label in enumerate(self.nodes)}

    def _index_of(self, label: object) -> int:
        if not isinstance(label, str) or label not in self.node_index:
            raise ValueError(f"label must be the bit-string label of a node of the tree, got {label!r}")
        return self.node_index[label]

    def children(self, label: str) -> tuple[str, ...]:
        """The labels of the children of node ``label`` (0, 1 or 2 of them, left first).

        Args:
            label: the node's bit-string label (``""`` is the root).
        """
        count = self._counts[self._index_of(label)]
        return tuple(label + str(bit) for bit in range(count))

    def leaf_range(self, label: str) -> tuple[int, int]:
        """``(start, stop)``: node ``label`` covers the leaves ``start .. stop − 1`` in natural order.

        Args:
            label: the node's bit-string label (``""`` is the root).
        """
        index = self._index_of(label)
        level = len(label)
        position = index - (sum(len(lv.counts) for lv in self.levels[:level]))
        start = int(self.levels[level].leaf_start[position])
        return start, start + int(self.levels[level].leaf_count[position])

    @cached_property
    def splits(self) -> tuple[str, ...]:
        """The two-child nodes, in level order (``Y`` of the ``t``-th is draw ``1 + t``)."""
        labels = self.nodes
        return tuple(labels[i] for i, count in enumerate(self._counts) if count == 2)

def _validate_child_counts(child_counts: object) -> tuple[int, ...]:
    if isinstance(child_counts, (str, bytes)) or not isinstance(child_counts, Iterable):
        raise TypeError("child_counts must be a sequence of integers 0, 1 or 2 (level order)")
    counts = tuple(child_counts)
    for count in counts:
        if isinstance(count, bool) or not isinstance(count, (int, np.integer)):
            raise TypeError(f"child_counts must hold integers 0, 1 or 2, got {count!r}")
        if count not in (0, 1, 2):
            raise ValueError(f"child_counts: a node has 0, 1 or 2 children, got {message_value(int(count))}")
    counts = tuple(int(count) for count in counts)
    if not counts:
        raise ValueError("child_counts must describe at least the root")
    # Breadth-first: after reading k nodes, 1 + (children announced) nodes exist; the tree is connected and
    # complete iff this stays >= k + 1 before the end and equals len(counts) at the end.
    announced = 1 + np.cumsum(counts)
    if np.any(announced[:-1] < np.arange(2, len(counts) + 1)) or announced[-1] != len(counts):
        raise ValueError(
            "child_counts is not a level-order encoding of one tree: the number of nodes must be "
            "1 + the sum of the counts, and every node but the last must be followed by nodes to read"
        )
    return counts

#: Most leaves of a general tree built here: 2**26 leaves hold about 2**27 nodes in int64 arrays (1 GiB).
MAX_TREE_LEAVES = 1 << 26


def balanced_tree(leaves: int) -> BinaryTree:
    """The balanced binary tree over ``leaves`` >= 1 leaves: ``m`` leaves split into ``ceil(m/2)`` on the left
    and ``floor(m/2)`` on the right, recursively (every internal node has two children). Vectorised by level.

    Args:
        leaves: m, the number of leaves, an integer >= 1.
    """
    count = check_positive_int(leaves, "leaves")
    if count > MAX_TREE_LEAVES:
        raise ValueError(f"leaves must be at most {MAX_TREE_LEAVES} (the tree is held node by node), got {message_value(count)}")
    sizes = np.array([count], dtype=np.int64)
    encoded: list[IntArray] = []
    while len(sizes):
        split = sizes > 1
        encoded.append(np.where(split, 2, 0))
        inner = sizes[split]
        children = np.empty(2 * len(inner), dtype=np.int64)
        children[0::2] = inner - inner // 2  # ceil(m/2) on the left
        children[1::2] = inner // 2
        sizes = children
    return BinaryTree(np.concatenate(encoded).tolist())

def perfect_tree(depth: int) -> BinaryTree:
    """The perfect binary tree with ``2**depth`` leaves (``depth`` <= 24).

    Args:
        depth: the depth, an integer in [0, 24] (2**depth leaves).
    """
    depth = check_depth(depth, maximum=24)
    return BinaryTree([2] * ((1 << depth) - 1) + [0] * (1 << depth))

def check_tree(tree: object) -> BinaryTree:
    """``tree`` if it is a :class:`BinaryTree`, else ``TypeError`` naming ``tree``.

    Args:
        tree: anything: accepted when it is a :class:`BinaryTree` (``TypeError`` otherwise).
    """
    if not isinstance(tree, BinaryTree):
        raise TypeError(f"tree must be a BinaryTree, got {type(tree).__name__}")
    return tree

def contract_chains(tree: BinaryTree) -> BinaryTree:
    """The tree with every one-child node removed (its child takes its place).

    Algorithm 3 passes a value unchanged through a one-child node, so the leaves of ``tree`` and of
    ``contract_chains(tree)`` have the same joint distribution (checked exactly in
    :mod:`reference.cip.exact.general_tree`).

    Args:
        tree: a :class:`BinaryTree`.
    """
    tree = check_tree(tree)
    built: dict[str, Nested] = {}
    for label in reversed(tree.nodes):
        kids = tree.children(label)
        built[label] = built[kids[0]] if len(kids) == 1 else tuple(built[child] for child in kids)
    return BinaryTree.from_nested(built[""])
