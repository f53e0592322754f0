"""Exact covariance, precision and sensitivities of Algorithm 4 (CIP paper, Appendix D.3), σ = 1.

Conventions as in :mod:`reference.cip.numeric.two_dim`: cells ``(row, column)`` of a ``2**row_depth`` x
``2**column_depth`` array, flattened row-major (cell index ``row * 2**column_depth + column``) for matrices;
rectangles are pairs of (level, position) tree nodes.

The construction, exactly
-------------------------
Algorithm 4 is run on coefficient vectors (:func:`rectangle_loadings`), as Algorithm 3 is in
:mod:`reference.cip.exact.general_tree`: the independent sources are the column-cascade sources (root with
variance 1, ``(√3/2) Y`` with variance 3/4) of each of the ``2**row_depth`` column cascades that Algorithm 4
draws — the one for ``X_{∅,·}`` and, scaled by ``√3/2`` (variance × 3/4), the one for each internal row node.
Everything is rational; covariances are ``Σ_t a_t b_t var_t``.

What it gives (derived; each checked against the construction in the tests and ``verification/``):

* ``Cov(X_{I,J}, X_{I',J'}) = G_row(I, I') · G_col(J, J')`` with ``G`` the 1-D node covariances, so the cells
  have covariance ``C_row_depth ⊗ C_column_depth`` (:func:`covariance_kronecker`) and every rectangle
  ``(I, J)`` has variance ``1 · 1 = 1`` — the paper's claim that all rectangles have variance σ² holds.
* precision ``C_r⁻¹ ⊗ C_c⁻¹``, entry ``p_r(h) p_c(h')`` for row/column lowest-common-ancestor heights
  ``h, h'`` with ``p_d(0) = 1 + d/3`` and ``p_d(h) = (d − h + 2)/3`` (:mod:`reference.cip.exact.matrix`).
* Δ² (:func:`sensitivity_squared`): ``add_remove`` ``(1 + r/3)(1 + c/3)``; ``substitution``
  ``2 (1 + r/3)(1 + c/3) − 2 min p_r(h) p_c(h')`` over ``(h, h') ≠ (0, 0)``. All ``p`` are positive and
  ``p_d(h) >= 2/3`` with equality at ``h = d``, and ``p_d(0) >= 1``, so the minimum is ``4/9`` when both depths
  are >= 1, giving ``2 (1 + r/3)(1 + c/3) − 8/9``; with one depth 0 it is the 1-D value ``(2 + 2d)/3``; a single
  cell has no substitution neighbours and is refused, as in :mod:`reference.cip.sensitivity`.
"""

from __future__ import annotations

from fractions import Fraction

from reference.cip.exact import matrix as cip_matrix
from reference.cip.exact.general_tree import node_loadings, source_variances
from reference.cip.tree import perfect_tree
from reference.core import linalg
from reference.core.linalg import Matrix, Vector
from reference.core.validate import Neighbours, check_depth, check_neighbours

#: ``row_depth + column_depth`` at most this for the dense exact matrices (64 cells).
MAX_DENSE_TOTAL_DEPTH = 6

Node = tuple[int, int]  # (level, position)


def _check_depths(row_depth: object, column_depth: object, *, dense: bool = True) -> tuple[int, int]:
    rows = check_depth(row_depth, "row_depth")
    columns = check_depth(column_depth, "column_depth")
    if dense and rows + columns > MAX_DENSE_TOTAL_DEPTH:
        raise ValueError(
            f"row_depth + column_depth must be at most {MAX_DENSE_TOTAL_DEPTH} for dense exact matrices, "
            f"got {rows} + {columns}"
        )
    return rows, columns


def _level_order(depth: int) -> list[Node]:
    return [(level, position) for level in range(depth + 1) for position in range(1 << level)]


def rectangle_loadings(row_depth: int, column_depth: int) -> tuple[dict[tuple[Node, Node], Vector], Vector]:
    """Algorithm 4 on coefficient vectors: ``(loadings, source variances)``.

    ``loadings[(row node, column node)]`` gives ``X_{I,J}`` as a combination of independent sources; source
    ``k * 2**column_depth + u`` is column-cascade source ``u`` of cascade ``k`` (``k = 0`` draws ``X_{∅,·}``,
    ``k = 1 + id`` is ``(√3/2) Y`` of the internal row node with level-order id ``id``) — the numbering of the
    numeric sampler's draw block.

    Args:
        row_depth: the row tree's depth r, an integer >= 0 (2**r rows); r + c at most 6 (64 cells, dense exact
            vectors).
        column_depth: the column tree's depth c, an integer >= 0 (2**c columns); r + c at most 6.
    """
    rows, columns = _check_depths(row_depth, column_depth)
    column_tree = perfect_tree(columns)
    column_nodes = _level_order(columns)
    cascade = dict(zip(column_nodes, node_loadings(column_tree)))  # Algorithm 1 over the columns
    width = 1 << columns
    total = (1 << rows) * width
    column_variances = source_variances(column_tree)
    variances = tuple(
        column_variances[u] * (1 if k == 0 else Fraction(3, 4)) for k in range(1 << rows) for u in range(width)
    )

    def embed(block: int, vector: Vector) -> Vector:
        result = [Fraction(0)] * total
        result[block * width : (block + 1) * width] = vector
        return tuple(result)

    loadings: dict[tuple[Node, Node], Vector] = {}
    for column_node in column_nodes:
        loadings[(0, 0), column_node] = embed(0, cascade[column_node])
    for row_id, (level, position) in enumerate(_level_order(rows - 1) if rows else []):
        for column_node in column_nodes:
            parent = loadings[(level, position), column_node]
            noise = embed(1 + row_id, cascade[column_node])  # (√3/2) Y_{★,J}: variances carry the 3/4
            loadings[(level + 1, 2 * position), column_node] = tuple(p / 2 + z for p, z in zip(parent, noise))
            loadings[(level + 1, 2 * position + 1), column_node] = tuple(p / 2 - z for p, z in zip(parent, noise))
    return loadings, variances


def _inner(left: Vector, right: Vector, weights: Vector) -> Fraction:
    return sum((a * b * w for a, b, w in zip(left, right, weights) if a and b), Fraction(0))


def covariance(row_depth: int, column_depth: int) -> Matrix:
    """Exact covariance (σ = 1) of the cells, row-major, from the construction (:func:`rectangle_loadings`).

    Args:
        row_depth: the row tree's depth r, an integer >= 0 (2**r rows); r + c at most 6 (a dense 2**(r+c)-square
            exact matrix).
        column_depth: the column tree's depth c, an integer >= 0 (2**c columns); r + c at most 6.
    """
    rows, columns = _check_depths(row_depth, column_depth)
    loadings, variances = rectangle_loadings(rows, columns)
    cells = [loadings[(rows, i), (columns, j)] for i in range(1 << rows) for j in range(1 << columns)]
    return tuple(tuple(_inner(a, b, variances) for b in cells) for a in cells)


def covariance_kronecker(row_depth: int, column_depth: int) -> Matrix:
    """``C_row_depth ⊗ C_column_depth`` (:func:`reference.core.linalg.kron`), the derived covariance.

    Args:
        row_depth: the row tree's depth r, an integer >= 0 (2**r rows); r + c at most 6.
        column_depth: the column tree's depth c, an integer >= 0 (2**c columns); r + c at most 6.
    """
    rows, columns = _check_depths(row_depth, column_depth)
    return linalg.kron(cip_matrix.covariance(rows), cip_matrix.covariance(columns))


def rectangle_variances(row_depth: int, column_depth: int) -> dict[tuple[Node, Node], Fraction]:
    """Variance (σ = 1) of every (row node, column node) rectangle from the construction. Each should be 1.

    Args:
        row_depth: the row tree's depth r, an integer >= 0 (2**(r+1) − 1 row nodes); r + c at most 6.
        column_depth: the column tree's depth c, an integer >= 0 (2**(c+1) − 1 column nodes); r + c at most 6.
    """
    loadings, variances = rectangle_loadings(row_depth, column_depth)
    return {key: _inner(vector, vector, variances) for key, vector in loadings.items()}


def rectangle_variances_from_cells(row_depth: int, column_depth: int) -> dict[tuple[Node, Node], Fraction]:
    """Variance of the *sum of the cells in* every rectangle, from the cell covariance (definition).

    Args:
        row_depth: the row tree's depth r, an integer >= 0; r + c at most 6 (the dense cell covariance is
            built).
        column_depth: the column tree's depth c, an integer >= 0; r + c at most 6.
    """
    rows, columns = _check_depths(row_depth, column_depth)
    matrix = covariance(rows, columns)
    width = 1 << columns
    result = {}
    for row_node in _level_order(rows):
        for column_node in _level_order(columns):
            row_span = 1 << (rows - row_node[0])
            column_span = 1 << (columns - column_node[0])
            cells = [
                r * width + c
                for r in range(row_node[1] * row_span, (row_node[1] + 1) * row_span)
                for c in range(column_node[1] * column_span, (column_node[1] + 1) * column_span)
            ]
            result[row_node, column_node] = sum((matrix[a][b] for a in cells for b in cells), Fraction(0))
    return result


def is_consistent(row_depth: int, column_depth: int) -> bool:
    """Exact consistency: every rectangle's loading is the sum of its two halves', split by rows and by columns.

    Args:
        row_depth: the row tree's depth r, an integer >= 0; r + c at most 6.
        column_depth: the column tree's depth c, an integer >= 0; r + c at most 6.
    """
    rows, columns = _check_depths(row_depth, column_depth)
    loadings, _ = rectangle_loadings(rows, columns)
    for (row_node, column_node), vector in loadings.items():
        (rl, rp), (cl, cp) = row_node, column_node
        halves = []
        if rl < rows:
            halves.append([((rl + 1, 2 * rp + b), column_node) for b in (0, 1)])
        if cl < columns:
            halves.append([(row_node, (cl + 1, 2 * cp + b)) for b in (0, 1)])
        for first, second in halves:
            if tuple(a + b for a, b in zip(loadings[first], loadings[second])) != vector:
                return False
    return True


def precision(row_depth: int, column_depth: int) -> Matrix:
    """``C⁻¹`` by exact elimination (:func:`reference.core.linalg.inverse`) on the constructed covariance.

    Args:
        row_depth: the row tree's depth r, an integer >= 0; r + c at most 6 (exact elimination on the dense
            covariance).
        column_depth: the column tree's depth c, an integer >= 0; r + c at most 6.
    """
    return linalg.inverse(covariance(row_depth, column_depth))


def precision_entry(row_depth: int, column_depth: int, first: tuple[int, int], second: tuple[int, int]) -> Fraction:
    """Entry of ``C_r⁻¹ ⊗ C_c⁻¹`` for cells ``first = (row, column)`` and ``second``, any depths, O(1).

    Args:
        row_depth: the row tree's depth r, an integer in [0, 30] (no dense matrix is built).
        column_depth: the column tree's depth c, an integer in [0, 30].
        first: one cell, a pair ``(row, column)`` with 0 <= row < 2**r and 0 <= column < 2**c.
        second: the other cell, a pair ``(row, column)`` in the same ranges.
    """
    rows, columns = _check_depths(row_depth, column_depth, dense=False)
    for name, (row, column) in (("first", first), ("second", second)):
        if not (0 <= row < 1 << rows and 0 <= column < 1 << columns):
            raise ValueError(f"{name} must be a cell (row, column) of the {1 << rows} x {1 << columns} array")
    row_height = cip_matrix.lca_height(first[0], second[0])
    column_height = cip_matrix.lca_height(first[1], second[1])
    return cip_matrix.precision_entry_from_height(rows, row_height) * cip_matrix.precision_entry_from_height(
        columns, column_height
    )


def sensitivity_squared(row_depth: int, column_depth: int, neighbours: Neighbours) -> Fraction:
    """Δ² (σ = 1) of Algorithm 4's cells, any depths, from the Kronecker structure of the precision.

    ``add_remove``: the (constant) diagonal ``p_r(0) p_c(0)``. ``substitution``:
    ``2 p_r(0) p_c(0) − 2 min_{(h, h') ≠ (0, 0)} p_r(h) p_c(h')`` (a single cell is refused), the minimum taken by
    enumerating the heights. Checked against the dense exact precision for small depths.

    Args:
        row_depth: the row tree's depth r, an integer in [0, 30] (no dense matrix is built).
        column_depth: the column tree's depth c, an integer in [0, 30].
        neighbours: the neighbouring relation: ``"add_remove"`` (one record added or removed: one cell changes
            by 1) or ``"substitution"`` (one record moves between two cells; needs at least 2 cells).
    """
    neighbours = check_neighbours(neighbours)
    rows, columns = _check_depths(row_depth, column_depth, dense=False)
    row_entries = [cip_matrix.precision_entry_from_height(rows, h) for h in range(rows + 1)]
    column_entries = [cip_matrix.precision_entry_from_height(columns, h) for h in range(columns + 1)]
    diagonal = row_entries[0] * column_entries[0]
    if neighbours == "add_remove":
        return diagonal
    off_diagonal = [
        row_entries[h] * column_entries[k] for h in range(rows + 1) for k in range(columns + 1) if (h, k) != (0, 0)
    ]
    if not off_diagonal:
        raise ValueError("neighbours='substitution' needs at least 2 cells: with 1 cell no record can move")
    return 2 * diagonal - 2 * min(off_diagonal)
