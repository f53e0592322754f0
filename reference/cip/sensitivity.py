"""Mahalanobis sensitivity Δ² = max vᵀ C⁻¹ v of correlated Gaussian noise, exactly, per neighbouring relation.

For the mechanism ``x + N(0, σ² C)`` and neighbours with ``x - x' = v``, the privacy loss is that of the
scalar Gaussian mechanism with sensitivity ``sqrt(vᵀ C⁻¹ v)``; the calibration needs the maximum over the
neighbouring relation:

* ``add_remove`` — one count changes by one in one cell, ``v = ±e_i``: ``Δ² = max_i (C⁻¹)_ii``
  (the ``‖diag(C⁻¹)‖_∞`` of CIP Theorem 3.8);
* ``substitution`` — one record moves from cell i to cell j ≠ i, ``v = e_i - e_j``:
  ``Δ² = max_{i≠j} (C⁻¹)_ii + (C⁻¹)_jj - 2 (C⁻¹)_ij``. Needs at least two cells.

Everything is an exact ``Fraction``; the result is passed to :mod:`reference.privacy.gaussian` as
``sensitivity_squared``.

For Cascade Sampling's C_depth the entries of C⁻¹ depend only on the height h of the lowest common ancestor
(:func:`reference.cip.exact.matrix.precision_entry_from_height`): ``1 + depth/3`` on the diagonal and
``(depth - h + 2)/3`` off it, so a substitution between leaves whose ancestor has height h costs
``2(1 + depth/3) - 2(depth - h + 2)/3 = 2(h + 1)/3``, largest for leaves in opposite halves (h = depth):
``Δ² = 2(depth + 1)/3``. That is at most twice the ``add_remove`` value ``(depth + 3)/3`` and equal to it at
depth 1.
"""

from __future__ import annotations

from fractions import Fraction

from reference.cip.exact import matrix as cip_matrix
from reference.core import linalg
from reference.core.exact_text import message_value
from reference.core.linalg import Matrix
from reference.core.options import Neighbours
from reference.core.validate import check_depth, check_neighbours


def _validated_precision(precision: object, *, check_positive_definite: bool) -> Matrix:
    """A non-empty square symmetric exact matrix (positive definite if asked)."""
    if not isinstance(precision, (tuple, list)) or not precision:
        raise TypeError("precision must be a non-empty square matrix given as a sequence of rows")
    if not all(isinstance(row, (tuple, list)) for row in precision):
        raise TypeError("precision must be a sequence of rows (tuples or lists of int/Fraction)")
    try:
        matrix = linalg.as_matrix(precision)
    except TypeError as error:
        raise TypeError(f"precision: {error} (floats are refused; use Fraction)") from None
    except ValueError as error:
        raise ValueError(f"precision: {error}") from None
    rows, columns = linalg.shape(matrix)
    if rows != columns:
        raise ValueError(f"precision must be square, got {message_value(rows)}x{columns}")
    if any(matrix[i][j] != matrix[j][i] for i in range(rows) for j in range(i)):
        raise ValueError("precision must be symmetric (the inverse of a covariance matrix)")
    if check_positive_definite and not linalg.is_positive_definite(matrix):
        raise ValueError("precision must be positive definite (the inverse of a covariance matrix)")
    return matrix


def mahalanobis_sensitivity_squared(
    precision: Matrix, neighbours: Neighbours, *, check_positive_definite: bool = True
) -> Fraction:
    """Δ² = max vᵀ P v over the neighbouring differences v of ``neighbours``, for the precision matrix P = C⁻¹.

    ``precision`` is an exact symmetric positive-definite matrix (rows of ints/Fractions); positive
    definiteness is verified exactly (O(n³); pass ``check_positive_definite=False`` for large matrices known
    to be definite). ``substitution`` needs at least two cells.

    Args:
        precision: the precision matrix P = C⁻¹: a square, symmetric, positive-definite matrix given as rows of ints or
            Fractions.
        neighbours: ``"add_remove"`` (one cell changes by 1) or ``"substitution"`` (one unit moves between cells)
            (``substitution`` needs at least two cells).
        check_positive_definite: verify positive definiteness exactly (O(n³), default ``True``); ``False`` skips it for
            large matrices known to be definite.
    """
    relation = check_neighbours(neighbours)
    matrix = _validated_precision(precision, check_positive_definite=check_positive_definite)
    size = len(matrix)
    if relation == "add_remove":
        return max(matrix[i][i] for i in range(size))
    if size < 2:
        raise ValueError("neighbours='substitution' needs at least 2 cells: with 1 cell no record can move")
    return max(matrix[i][i] + matrix[j][j] - 2 * matrix[i][j] for i in range(size) for j in range(i + 1, size))


def cascade_sensitivity_squared(depth: int, neighbours: Neighbours) -> Fraction:
    """Δ² for Cascade Sampling's covariance C_depth (n = 2**depth cells), exactly, for any depth <= 30.

    ``add_remove``: ``max diag C⁻¹ = 1 + depth/3`` (via :func:`cip_matrix.max_precision_diagonal`).
    ``substitution``: the maximum over lowest-common-ancestor heights h = 1..depth of
    ``P(0) + P(0) - 2 P(h)`` with ``P`` = :func:`cip_matrix.precision_entry_from_height`, which is
    ``2(depth + 1)/3``; depth 0 (one cell) is refused.

    Args:
        depth: the cascade's depth, an integer in [0, 30] (at least 1 for ``substitution``).
        neighbours: ``"add_remove"`` (one cell changes by 1) or ``"substitution"`` (one unit moves between cells).
    """
    levels = check_depth(depth)
    relation = check_neighbours(neighbours)
    if relation == "add_remove":
        return cip_matrix.max_precision_diagonal(levels)
    if levels == 0:
        raise ValueError("neighbours='substitution' needs depth >= 1: depth 0 has a single cell")
    diagonal = cip_matrix.precision_entry_from_height(levels, 0)
    # every pair of leaves with lowest common ancestor at height h gives the same value: scan the heights
    return max(
        2 * diagonal - 2 * cip_matrix.precision_entry_from_height(levels, height) for height in range(1, levels + 1)
    )
