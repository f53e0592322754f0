"""Draws with infinite variance (a node given zero privacy budget): what the release still says.

A draw z_j of infinite variance hides everything along its column b_j of B. The release W x + B z is then
equivalent to Q (W x + B_f z_f), where B_f keeps the finite draws and the rows of Q span the vectors y with
yᵀ b_j = 0 for every infinite draw j (the limit σ_j → ∞ of the Gaussian Mahalanobis sensitivity is the projected
one; for Laplace the smallest shift may use the infinite draws for free, which is the same linear programme on
Q B_f and Q W). :func:`mask_infinite_draws` returns (Q W, Q B_f) exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from flint import fmpq, fmpq_mat

from reference.core.linalg import Matrix, rref_pivots


def left_null_basis(columns: Sequence[Sequence[Fraction]], outputs: int) -> list[list[Fraction]]:
    """Rows y (length ``outputs``) spanning {y : yᵀ c = 0 for every column c}, exact (from the RREF of Cᵀ).

    Args:
        columns: the columns c (each of length ``outputs``, exact); empty gives the identity's rows.
        outputs: the length of each column and of each returned row.
    """
    if not columns:
        return [[Fraction(int(i == j)) for j in range(outputs)] for i in range(outputs)]
    system = fmpq_mat(len(columns), outputs, [fmpq(v.numerator, v.denominator) for column in columns for v in column])
    reduced, _ = system.rref()
    pivots = rref_pivots(reduced, outputs)
    basis = []
    for free in (j for j in range(outputs) if j not in pivots):
        vector = [Fraction(0)] * outputs
        vector[free] = Fraction(1)
        for row, pivot in enumerate(pivots):
            entry = reduced[row, free]
            vector[pivot] = -Fraction(int(entry.p), int(entry.q))
        basis.append(vector)
    return basis


def mask_infinite_draws(b_matrix: Matrix, w_matrix: Matrix, infinite: Sequence[int]) -> tuple[Matrix, Matrix]:
    """(Q W, Q B_f): the release with the infinite-variance draws ``infinite`` (column indices of B) projected out.

    Args:
        b_matrix: B, outputs × draws, exact and validated.
        w_matrix: W, outputs × inputs, exact and validated.
        infinite: the 0-based column indices of B whose draws have infinite variance (repeats ignored).

    Raises:
        ValueError: an index outside [0, draws), every draw masked, or every output direction masked.
    """
    draws = len(b_matrix[0])
    marked = sorted(set(infinite))
    if any(isinstance(j, bool) or not isinstance(j, int) or not 0 <= j < draws for j in marked):
        raise ValueError(f"infinite_variance_draws must be column indices of the noise matrix in [0, {draws})")
    finite = [j for j in range(draws) if j not in set(marked)]
    if not finite:
        raise ValueError("infinite_variance_draws: at least one draw must have finite variance")
    outputs = len(b_matrix)
    basis = left_null_basis([[row[j] for row in b_matrix] for j in marked], outputs)
    if not basis:
        raise ValueError("infinite_variance_draws: every output direction is masked; the release carries no "
                         "information (nothing to audit)")

    def project(matrix: Matrix, keep: Sequence[int]) -> Matrix:
        return tuple(
            tuple(sum((y[i] * matrix[i][j] for i in range(outputs) if y[i]), Fraction(0)) for j in keep)
            for y in basis
        )

    return project(w_matrix, range(len(w_matrix[0]))), project(b_matrix, finite)
