"""Exact covariance, precision and sensitivities of Algorithm 3 (CIP paper, Appendix D.2) on a general tree.

All values are for σ = 1 (multiply covariances by σ², precisions by σ⁻²). Trees are
:class:`reference.cip.tree.BinaryTree` (labels, level order and leaf order as documented there).

The construction, exactly
-------------------------
Write ``Z_s = (√3/2) Y_s`` for the draw at a two-child node ``s``: the ``Z_s`` are independent with variance
3/4, independent of ``X_root`` (variance 1), and Algorithm 3 reads ``X_{s0} = X_s/2 + Z_s``,
``X_{s1} = X_s/2 − Z_s``, ``X_{only child} = X_s``. Every node value is therefore a *rational* combination of
the ``m`` sources ``(X_root, Z_s ...)`` (a tree with ``m`` leaves has ``m − 1`` splits), and every covariance is
``Σ_t a_t b_t var_t`` — rational. :func:`node_loadings` runs the construction on these coefficient vectors;
:func:`node_covariance` and :func:`covariance` multiply them out. Nothing about the answer is assumed.

What it gives (derived here, checked against the construction in the tests and in ``verification/``):

* every node has variance 1 (``1/4 + 3/4`` below a split, unchanged below an only child);
* for two distinct leaves with lowest common ancestor ``a`` (always a split),
  ``Cov = −(1/2) · 2**−(s_i + s_j)`` where ``s_i`` counts the splits strictly between ``a`` and leaf ``i``
  (each split halves the share a descendant carries; a one-child node does not): :func:`covariance_closed_form`.
  For the perfect tree this is ``−2**(1 − 2h)``, Definition 3.1.
* the precision: the leaves determine the sources (``X_root`` = sum of all leaves,
  ``Z_s = (sum of leaves under s0 − sum under s1)/2``), so with ``h_s`` = +1 on the leaves under ``s0``, −1 under
  ``s1``, 0 elsewhere, ``C⁻¹ = 1 1ᵀ + (1/3) Σ_s h_s h_sᵀ`` (:func:`precision_closed_form`). In particular
  ``(C⁻¹)_ii = 1 + D_i/3`` with ``D_i`` the number of split ancestors of leaf ``i``.
* Gaussian-mechanism sensitivities (squared Mahalanobis, ``Δ² = vᵀ C⁻¹ v`` maximised over neighbouring
  differences ``v``): ``add_remove`` (``v = ±e_i``): ``1 + max_i D_i / 3``; ``substitution`` (``v = e_i − e_j``):
  ``(4 + s_i + s_j)/3 = (2 + D_i + D_j − 2 D_a)/3`` for leaves meeting at split ``a`` (``D_a`` = splits above ``a``),
  maximised over pairs (:func:`sensitivity_squared`; a single leaf has no substitution neighbours and is
  refused, as in :mod:`reference.cip.sensitivity`). One-child nodes change none of this: a chain is
  invisible to the leaves (:func:`reference.cip.tree.contract_chains`).

The dense route — :func:`precision` by elimination, then
:func:`reference.cip.sensitivity.mahalanobis_sensitivity_squared` — is the independent check of these
closed forms (tests and ``verification/cip/checks/general_tree.py``).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from reference.cip.exact import matrix as cip_matrix
from reference.cip.tree import BinaryTree, balanced_tree
from reference.core import linalg
from reference.core.linalg import Matrix, Vector, from_flint, to_flint
from reference.core.validate import Neighbours, check_neighbours, check_positive_int

IntegerArray = npt.NDArray[np.int64]

#: Largest number of leaves for which the dense exact matrices are built.
MAX_DENSE_LEAVES = 256

_HALF = Fraction(1, 2)
_THREE_QUARTERS = Fraction(3, 4)


def _check_tree(tree: object, *, dense: bool = True) -> BinaryTree:
    if not isinstance(tree, BinaryTree):
        raise TypeError(f"tree must be a BinaryTree, got {type(tree).__name__}")
    if dense and tree.leaf_count > MAX_DENSE_LEAVES:
        raise ValueError(f"tree must have at most {MAX_DENSE_LEAVES} leaves for dense exact matrices")
    return tree


def source_variances(tree: BinaryTree) -> Vector:
    """Variances of the independent sources: ``X_root`` (1), then ``Z_s = (√3/2) Y_s`` (3/4) per split.

    Args:
        tree: the tree, a :class:`reference.cip.tree.BinaryTree` with at most 256 leaves.
    """
    tree = _check_tree(tree)
    return (Fraction(1),) + (_THREE_QUARTERS,) * (tree.leaf_count - 1)


def node_loadings(tree: BinaryTree) -> tuple[Vector, ...]:
    """Algorithm 3 run on coefficient vectors: node value = Σ_t loading[t] · source_t, level order.

    Source 0 is ``X_root``; source ``1 + t`` is ``Z`` of the ``t``-th split in level order (the same numbering
    as the numeric sampler's draws).

    Args:
        tree: the tree, a :class:`reference.cip.tree.BinaryTree` with at most 256 leaves (one loading vector of
            length ``leaf_count`` per node).
    """
    tree = _check_tree(tree)
    width = tree.leaf_count
    split_number = {label: 1 + t for t, label in enumerate(tree.splits)}
    loadings: dict[str, Vector] = {"": tuple(Fraction(int(t == 0)) for t in range(width))}
    for label in tree.nodes:
        kids = tree.children(label)
        value = loadings[label]
        if len(kids) == 1:
            loadings[kids[0]] = value
        elif len(kids) == 2:
            source = split_number[label]
            half = [entry * _HALF for entry in value]
            left, right = list(half), list(half)
            left[source] += 1
            right[source] -= 1
            loadings[kids[0]], loadings[kids[1]] = tuple(left), tuple(right)
    return tuple(loadings[label] for label in tree.nodes)


def _gram(rows: Sequence[Vector], weights: Vector) -> Matrix:
    weighted = [tuple(a * w for a, w in zip(row, weights)) for row in rows]
    return tuple(tuple(sum((a * b for a, b in zip(left, right)), Fraction(0)) for right in rows) for left in weighted)


def node_covariance(tree: BinaryTree) -> Matrix:
    """Exact covariance (σ = 1) of all node values in level order, from the construction.

    Args:
        tree: the tree, a :class:`reference.cip.tree.BinaryTree` with at most 256 leaves (the matrix is
            node_count × node_count).
    """
    tree = _check_tree(tree)
    return _gram(node_loadings(tree), source_variances(tree))


def covariance(tree: BinaryTree) -> Matrix:
    """Exact covariance (σ = 1) of the leaves in natural order, from the construction (:func:`node_loadings`).

    Args:
        tree: the tree, a :class:`reference.cip.tree.BinaryTree` with at most 256 leaves (the matrix is
            leaf_count × leaf_count, leaves in natural order).
    """
    tree = _check_tree(tree)
    loadings = node_loadings(tree)
    return _gram([loadings[i] for i in tree.leaf_node_indices.tolist()], source_variances(tree))


def _splits_between(tree: BinaryTree, label: str, top: int) -> int:
    """Number of two-child nodes among the ancestors of ``label`` at levels ``top .. len(label) − 1``."""
    return sum(tree.child_counts[tree.node_index[label[:level]]] == 2 for level in range(top, len(label)))


def covariance_closed_form(tree: BinaryTree) -> Matrix:
    """The leaf covariance from the derived formula (module docstring), independent of :func:`covariance`.

    Args:
        tree: the tree, a :class:`reference.cip.tree.BinaryTree` with at most 256 leaves.
    """
    tree = _check_tree(tree)
    labels = tree.leaves

    def entry(i: int, j: int) -> Fraction:
        if i == j:
            return Fraction(1)
        first, second = labels[i], labels[j]
        common = next(k for k in range(min(len(first), len(second)) + 1) if first[k] != second[k])
        exponent = _splits_between(tree, first, common + 1) + _splits_between(tree, second, common + 1)
        return -_HALF / (1 << exponent)

    return tuple(tuple(entry(i, j) for j in range(len(labels))) for i in range(len(labels)))


def node_variances(tree: BinaryTree) -> dict[str, Fraction]:
    """Variance (σ = 1) of every node from the construction: ``Σ_t loading_t² var_t``. Each should be 1.

    Args:
        tree: the tree, a :class:`reference.cip.tree.BinaryTree` with at most 256 leaves; keyed by node label.
    """
    tree = _check_tree(tree)
    weights = source_variances(tree)
    return {
        label: sum((a * a * w for a, w in zip(row, weights)), Fraction(0))
        for label, row in zip(tree.nodes, node_loadings(tree))
    }


def node_variances_from_leaves(tree: BinaryTree) -> dict[str, Fraction]:
    """Variance of the *sum of the leaves under* every node, from the leaf covariance. Equal to
    :func:`node_variances` exactly when the released leaves are consistent with the tree.

    Args:
        tree: the tree, a :class:`reference.cip.tree.BinaryTree` with at most 256 leaves; keyed by node label.
    """
    tree = _check_tree(tree)
    matrix = covariance(tree)
    result = {}
    for label in tree.nodes:
        start, stop = tree.leaf_range(label)
        result[label] = sum((matrix[i][j] for i in range(start, stop) for j in range(start, stop)), Fraction(0))
    return result


def is_consistent(tree: BinaryTree) -> bool:
    """Exact consistency of the construction: every node's loading is the sum of its children's.

    Args:
        tree: the tree, a :class:`reference.cip.tree.BinaryTree` with at most 256 leaves.
    """
    tree = _check_tree(tree)
    loadings = dict(zip(tree.nodes, node_loadings(tree)))
    for label in tree.nodes:
        kids = tree.children(label)
        if kids and tuple(map(sum, zip(*(loadings[k] for k in kids)))) != loadings[label]:
            return False
    return True


def precision(tree: BinaryTree) -> Matrix:
    """``C⁻¹`` by exact Gauss–Jordan elimination (:func:`reference.core.linalg.inverse`) on :func:`covariance`.

    Args:
        tree: the tree, a :class:`reference.cip.tree.BinaryTree` with at most 256 leaves (exact elimination on
            the dense leaf covariance: keep it small).
    """
    return linalg.inverse(covariance(tree))


def split_vectors(tree: BinaryTree) -> tuple[Vector, ...]:
    """For each split ``s`` (level order) the vector ``h_s``: +1 on leaves under ``s0``, −1 under ``s1``.

    Args:
        tree: the tree, a :class:`reference.cip.tree.BinaryTree` with at most 256 leaves; one vector per
            two-child node.
    """
    tree = _check_tree(tree)
    vectors = []
    for label in tree.splits:
        left, right = tree.leaf_range(label + "0"), tree.leaf_range(label + "1")
        vectors.append(
            tuple(
                Fraction(1) if left[0] <= i < left[1] else Fraction(-1) if right[0] <= i < right[1] else Fraction(0)
                for i in range(tree.leaf_count)
            )
        )
    return tuple(vectors)


def precision_closed_form(tree: BinaryTree) -> Matrix:
    """``1 1ᵀ + (1/3) Σ_s h_s h_sᵀ`` (module docstring), independent of the elimination in :func:`precision`.

    Args:
        tree: the tree, a :class:`reference.cip.tree.BinaryTree` with at most 256 leaves.
    """
    tree = _check_tree(tree)
    size = tree.leaf_count
    result = [[Fraction(1)] * size for _ in range(size)]
    for vector in split_vectors(tree):
        support = [i for i in range(size) if vector[i]]
        for i in support:
            for j in support:
                result[i][j] += vector[i] * vector[j] / 3
    return tuple(tuple(row) for row in result)


def _split_depth_arrays(tree: BinaryTree) -> tuple[IntegerArray, IntegerArray]:
    """For every node (level order): ``D`` = the number of two-child proper ancestors, and the largest ``D``
    of a leaf in its subtree. Integer arrays, one pass down and one up the levels (any size of tree)."""
    counts = np.array(tree.child_counts, dtype=np.int64)
    parents = tree.parent_indices
    below_root = list(itertools.pairwise(itertools.accumulate(tree.level_sizes, initial=0)))[1:]
    depth = np.zeros(tree.node_count, dtype=np.int64)
    for start, stop in below_root:  # top down
        above = parents[start:stop]
        depth[start:stop] = depth[above] + (counts[above] == 2)
    deepest = np.where(counts == 0, depth, -1)
    for start, stop in reversed(below_root):  # bottom up
        np.maximum.at(deepest, parents[start:stop], deepest[start:stop])
    return depth, deepest


def split_depths(tree: BinaryTree) -> tuple[int, ...]:
    """``D_i``: the number of two-child ancestors of each leaf (natural order). Any size of tree.

    Args:
        tree: the tree, a :class:`reference.cip.tree.BinaryTree` of any size (integer arrays, no dense matrix).
    """
    tree = _check_tree(tree, dense=False)
    depth, _ = _split_depth_arrays(tree)
    return tuple(int(d) for d in depth[tree.leaf_node_indices])


def sensitivity_squared(tree: BinaryTree, neighbours: Neighbours) -> Fraction:
    """Δ² (σ = 1) of Algorithm 3's leaves on ``tree`` from the split structure, for any size of tree.

    ``add_remove``: ``1 + max_i D_i / 3``. ``substitution``: the maximum over splits ``a`` of
    ``(2 + max_{i under a0} D_i + max_{j under a1} D_j − 2 D_a)/3`` (a single leaf is refused: no record can
    move). Checked against the dense exact precision on every small tree.

    Args:
        tree: the tree, a :class:`reference.cip.tree.BinaryTree` of any size (no dense matrix is built).
        neighbours: the neighbouring relation: ``"add_remove"`` (one record added or removed: one leaf changes
            by 1) or ``"substitution"`` (one record moves between two leaves; needs at least 2 leaves).
    """
    neighbours = check_neighbours(neighbours)
    tree = _check_tree(tree, dense=False)
    depth, deepest = _split_depth_arrays(tree)
    if neighbours == "add_remove":
        return 1 + Fraction(int(deepest[0]), 3)
    if tree.leaf_count < 2:
        raise ValueError("neighbours='substitution' needs at least 2 cells: with 1 cell no record can move")
    counts = np.array(tree.child_counts, dtype=np.int64)
    splits = np.flatnonzero(counts == 2)
    left = 1 + np.cumsum(counts)[splits] - 2  # level order: a node's children follow all earlier children
    values = 2 + deepest[left] + deepest[left + 1] - 2 * depth[splits]
    return Fraction(int(values.max()), 3)


# --- balanced tree against padding to a power of two ---------------------------------------------------------


def padding_depth(leaves: int) -> int:
    """The depth of the smallest perfect tree with at least ``leaves`` leaves (integer arithmetic).

    Args:
        leaves: the number of real cells, an integer >= 1.
    """
    count = check_positive_int(leaves, "leaves")
    return (count - 1).bit_length()


def padded_sensitivity_squared(leaves: int, neighbours: Neighbours) -> Fraction:
    """Δ² of padding ``leaves`` cells to the perfect tree of depth ``d`` and releasing all ``2**d`` noisy
    cells (the padding cells hold a public 0, so neighbours differ only in the first ``leaves`` cells).

    From the exact precision of ``C_d`` (:func:`reference.cip.exact.matrix.precision_entry_from_height`):
    ``add_remove`` ``1 + d/3``; ``substitution`` ``(2 + 2h)/3`` for the highest lowest-common-ancestor ``h`` of
    two real cells, i.e. ``(2 + 2d)/3`` whenever ``leaves >= 2``.

    Args:
        leaves: the number of real cells, an integer in [1, 2**30] (padded to 2**d cells, d =
            :func:`padding_depth`).
        neighbours: the neighbouring relation: ``"add_remove"`` (one cell changes by 1) or ``"substitution"``
            (one record moves between two real cells; needs ``leaves`` >= 2).
    """
    neighbours = check_neighbours(neighbours)
    count = check_positive_int(leaves, "leaves")
    depth = padding_depth(count)
    if neighbours == "add_remove":
        return cip_matrix.precision_entry_from_height(depth, 0)  # the diagonal is constant
    if count == 1:
        raise ValueError("neighbours='substitution' needs at least 2 cells: with 1 cell no record can move")
    # the precision depends only on the height of the lowest common ancestor: try the highest one reachable
    highest = cip_matrix.lca_height(0, count - 1)
    diagonal = cip_matrix.precision_entry_from_height(depth, 0)
    return 2 * diagonal - 2 * cip_matrix.precision_entry_from_height(depth, highest)


def padded_covariance(leaves: int) -> Matrix:
    """The covariance of the first ``leaves`` cells of ``C_d`` (padding; the real cells only).

    Args:
        leaves: the number of real cells, an integer in [1, 256] (the leaves × leaves block is built densely).
    """
    count = check_positive_int(leaves, "leaves")
    if count > MAX_DENSE_LEAVES:
        raise ValueError(f"leaves must be at most {MAX_DENSE_LEAVES} for dense exact matrices")
    # entries of C_d depend only on the height of the lowest common ancestor, so this block is the same
    # for every d >= padding_depth(leaves)
    return tuple(
        tuple(cip_matrix.covariance_entry_from_height(cip_matrix.lca_height(i, j)) for j in range(count))
        for i in range(count)
    )


def exact_inverse(matrix: Matrix) -> Matrix:
    """Exact inverse by FLINT's rational elimination, certified by checking ``matrix @ result == I`` exactly.

    The same result as :func:`reference.core.linalg.inverse` (an inverse is unique), much faster for the
    64 x 64 matrices of the padding table.

    Args:
        matrix: an invertible square exact matrix (rows of Fractions or ints); a singular one raises
            ``ZeroDivisionError``.
    """
    import flint  # local: only the larger exact inversions need it

    size = len(matrix)
    source = to_flint(matrix)
    inverse = source.inv()
    if source * inverse != flint.fmpq_mat(size, size, [int(i == j) for i in range(size) for j in range(size)]):
        raise ArithmeticError("exact inverse failed its matrix @ inverse == I check")
    return from_flint(inverse)


def truncated_padding_sensitivity_squared(leaves: int, neighbours: Neighbours) -> Fraction:
    """Δ² of padding to the perfect tree but releasing only the ``leaves`` real cells: from the exact inverse
    of the principal block of ``C_d`` (a post-processing of the full padded release, so never larger).

    Args:
        leaves: the number of real cells, an integer in [1, 256] (the dense block of ``C_d`` is inverted
            exactly).
        neighbours: the neighbouring relation: ``"add_remove"`` (one cell changes by 1) or ``"substitution"``
            (one record moves between two real cells; needs ``leaves`` >= 2).
    """
    from reference.cip.sensitivity import mahalanobis_sensitivity_squared

    neighbours = check_neighbours(neighbours)
    inverse = exact_inverse(padded_covariance(leaves))
    return mahalanobis_sensitivity_squared(inverse, neighbours, check_positive_definite=False)


@dataclass(frozen=True)
class RangeVarianceStatistics:
    """Exact variances (σ = 1) of the ``m(m+1)/2`` contiguous ranges of ``m`` cells."""

    maximum: Fraction
    argmax: tuple[int, int]  # [first, last], 0-based, the first maximiser in (first, last) order
    total: Fraction


def range_variance_statistics(matrix: Matrix) -> RangeVarianceStatistics:
    """Max, argmax and total of ``Var(Σ_{t=first}^{last} X_t)`` over all ranges, from a covariance matrix,
    by exact 2-D prefix sums (O(m²) after O(m²) preprocessing).

    Args:
        matrix: the covariance of m >= 1 cells, a non-empty square exact matrix (rows of Fractions), cells in
            order.
    """
    size = len(matrix)
    if size == 0:
        raise ValueError("matrix must be a non-empty square matrix")
    prefix = [[Fraction(0)] * (size + 1) for _ in range(size + 1)]
    for i in range(size):
        for j in range(size):
            prefix[i + 1][j + 1] = matrix[i][j] + prefix[i][j + 1] + prefix[i + 1][j] - prefix[i][j]
    best, where, total = Fraction(-1), (0, 0), Fraction(0)
    for first in range(size):
        for last in range(first, size):
            value = prefix[last + 1][last + 1] - 2 * prefix[first][last + 1] + prefix[first][first]
            total += value
            if value > best:
                best, where = value, (first, last)
    return RangeVarianceStatistics(best, where, total)


@dataclass(frozen=True)
class PaddingComparison:
    """Algorithm 3 on the balanced tree over ``leaves`` cells against padding to the perfect tree of depth
    ``padded_depth`` (exact, σ = 1). ``truncated`` = padding but releasing only the real cells. The
    substitution values are None for a single cell (no record can move)."""

    leaves: int
    padded_depth: int
    balanced_add_remove: Fraction
    balanced_substitution: Fraction | None
    padded_add_remove: Fraction
    padded_substitution: Fraction | None
    truncated_add_remove: Fraction
    truncated_substitution: Fraction | None
    balanced_ranges: RangeVarianceStatistics
    padded_ranges: RangeVarianceStatistics


def compare_with_padding(leaves: int) -> PaddingComparison:
    """Sensitivities (both relations) and range variances of the balanced tree vs padding, for ``leaves`` cells.

    At equal (ε, δ) the calibrated σ² is proportional to Δ², so the error of a range at equal privacy is
    proportional to ``Δ² × (its variance at σ = 1)``.

    Args:
        leaves: the number of real cells, an integer in [1, 256].
    """
    count = check_positive_int(leaves, "leaves")
    if count > MAX_DENSE_LEAVES:
        raise ValueError(f"leaves must be at most {MAX_DENSE_LEAVES}")
    tree = balanced_tree(count)
    padded = padded_covariance(count)
    several = count >= 2
    return PaddingComparison(
        leaves=count,
        padded_depth=padding_depth(count),
        balanced_add_remove=sensitivity_squared(tree, "add_remove"),
        balanced_substitution=sensitivity_squared(tree, "substitution") if several else None,
        padded_add_remove=padded_sensitivity_squared(count, "add_remove"),
        padded_substitution=padded_sensitivity_squared(count, "substitution") if several else None,
        truncated_add_remove=truncated_padding_sensitivity_squared(count, "add_remove"),
        truncated_substitution=truncated_padding_sensitivity_squared(count, "substitution") if several else None,
        balanced_ranges=range_variance_statistics(covariance_closed_form(tree)),
        padded_ranges=range_variance_statistics(padded),
    )
