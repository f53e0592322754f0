"""The smallest integer draw shift, ``min{‖u‖₁ : B u = y, u ∈ ℤ^d}``, exactly on small instances.

Every integer solution is ``u0 + Kᵀ t`` with ``u0`` one integer solution, the rows of ``K`` a basis of the integer
kernel lattice ``{u ∈ ℤ^d : B u = 0}`` and ``t ∈ ℤ^k``. The basis comes from the Hermite normal form of
``[Bᵀ | I_d]`` (python-flint): its rows with zero ``Bᵀ`` part are a basis of that lattice (saturated, not merely of
the rational kernel), then LLL-reduced so that the search box is small.

A solution no longer than a known bound ``U`` has ``t = (K Kᵀ)⁻¹ K (u − u0)``, so ``|t_i| <= max_j |P_ij| ·
(U + ‖u0‖₁)`` with ``P = (K Kᵀ)⁻¹ K`` (exact rationals): enumerating that box finds the minimum exactly. When the
box has more than ``max_points`` points (the ``shift_points`` field of
:class:`~reference.audit.linear.size_limits.SizeLimits`, ``--max-shift-points``) the search is refused (``None``)
and the caller keeps its bounds.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from fractions import Fraction

from flint import fmpq_mat, fmpz_mat

from reference.audit.linear.size_limits import DEFAULT_LIMITS
from reference.core.linalg import fraction_of


def integer_kernel_basis(columns: Sequence[Mapping[int, Fraction]], outputs: int) -> list[list[int]]:
    """A basis (rows) of ``{u ∈ ℤ^d : B u = 0}`` for the integer matrix B given by its sparse columns, LLL-reduced.

    Args:
        columns: the integer matrix B (outputs × draws) by its sparse columns, row index to integral entry.
        outputs: the number of rows of B.

    Returns:
        The basis vectors, each a list of ``len(columns)`` ints; empty when the kernel is trivial.
    """
    draws = len(columns)
    augmented = fmpz_mat(draws, outputs + draws)
    for j, column in enumerate(columns):
        for i, value in column.items():
            augmented[j, i] = int(value)
        augmented[j, outputs + j] = 1
    hermite = augmented.hnf()
    rows = [[int(hermite[r, outputs + j]) for j in range(draws)] for r in range(draws)
            if all(hermite[r, i] == 0 for i in range(outputs))]
    if not rows:
        return []
    return [[int(v) for v in row] for row in fmpz_mat(rows).lll().tolist()]


def minimum_integer_shift(basis: Sequence[Sequence[int]], solution: Mapping[int, int], draws: int,
                          max_points: int = DEFAULT_LIMITS.shift_points) -> int | None:
    """The exact ``min ‖u0 + Kᵀ t‖₁`` over ``t ∈ ℤ^k`` (module docstring), or None when the box is too large.

    Args:
        basis: the rows of K, a basis of the integer kernel of B (:func:`integer_kernel_basis`), each of length
            ``draws``.
        solution: one integer solution u0 of B u = y, sparse (draw index to non-zero int).
        draws: d, the number of columns of B.
        max_points: the most kernel combinations t enumerated (default ``SizeLimits().shift_points``); a larger box
            gives None.
    """
    start = [int(solution.get(j, 0)) for j in range(draws)]
    best = sum(abs(v) for v in start)
    if not basis:
        return best
    size = len(basis)
    radius = _box_radius(basis, start, best)
    if math.prod(2 * r + 1 for r in radius) > max_points:
        return None
    for t in itertools.product(*(range(-r, r + 1) for r in radius)):
        norm = sum(abs(start[j] + sum(t[r] * basis[r][j] for r in range(size))) for j in range(draws))
        best = min(best, norm)
    return best


def box_points(basis: Sequence[Sequence[int]], solution: Mapping[int, int], draws: int) -> int:
    """The number of kernel combinations t the search of :func:`minimum_integer_shift` enumerates (its cost).

    Args:
        basis: the rows of K, as for :func:`minimum_integer_shift`.
        solution: one integer solution u0 of B u = y, sparse (draw index to non-zero int).
        draws: d, the number of columns of B.
    """
    if not basis:
        return 1
    start = [int(solution.get(j, 0)) for j in range(draws)]
    return math.prod(2 * r + 1 for r in _box_radius(basis, start, sum(abs(v) for v in start)))


def _box_radius(basis: Sequence[Sequence[int]], start: Sequence[int], best: int) -> list[int]:
    """|t_r| <= max_j |P_rj| · 2 ‖u0‖₁ for every shorter solution (module docstring), per basis row r."""
    size, draws = len(basis), len(start)
    gram = fmpq_mat([[sum(a * b for a, b in zip(basis[r], basis[s])) for s in range(size)] for r in range(size)])
    left = gram.inv() * fmpq_mat([list(row) for row in basis])  # (K Kᵀ)⁻¹ K
    radius = []
    for r in range(size):
        largest = max(abs(fraction_of(left[r, j])) for j in range(draws))
        radius.append(math.floor(largest * (2 * best)))  # ‖u − u0‖₁ <= ‖u‖₁ + ‖u0‖₁ <= 2 best
    return radius
