"""Participation audits of a noisy strategy ``C x + z`` (the noise matrix the identity), at the sizes DP-FTRL
runs at.

With B = I the release is the strategy's output with i.i.d. Gaussian noise (any later reconstruction, such as
DP-FTRL's prefix sums ``W C⁻¹ (C x + z)``, is post-processing), so ``Q = Wᵀ(BBᵀ)⁺W = CᵀC``, C the workload
given. It is computed in integers by FLINT (C over one common denominator d: ``Q = (dC)ᵀ(dC)/d²``) instead of
the general audit's rational elimination of ``[B | W]`` (cubic in rationals: about 15 minutes at n = 2048).
The maximum over the participation patterns is then :func:`reference.audit.linear.contribution.max_pattern_quadratic`.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from flint import fmpz_mat

from reference.audit.linear.column_matrix import ColumnMatrix, IntegerArray
from reference.audit.linear.contribution import max_pattern_quadratic
from reference.audit.linear.participation import Participation
from reference.audit.linear.verdict import LinearNoiseVerdict
from reference.core.validate import fraction_text


def is_identity(matrix: ColumnMatrix) -> bool:
    """Is the matrix the identity (square, unit diagonal, nothing else)?"""
    if matrix.rows != matrix.cols:
        return False
    return all(column == {j: 1} for j, column in enumerate(matrix.columns(False)))


def strategy_gram(workload: ColumnMatrix) -> tuple[list[list[int]], int]:
    """``CᵀC`` as integer rows over one common denominator: (numerators, denominator)."""
    if isinstance(workload, IntegerArray):  # integers already: no per-entry rational on the way
        scaled = fmpz_mat(workload.rows, workload.cols, np.asarray(workload.array).ravel().tolist())
        gram = scaled.transpose() * scaled
        return [[int(entry) for entry in row] for row in gram.tolist()], 1
    columns = workload.columns(False)
    denominator = math.lcm(*(Fraction(value).denominator for column in columns for value in column.values()))
    flat = [0] * (workload.rows * workload.cols)
    for j, column in enumerate(columns):
        for i, value in column.items():
            flat[i * workload.cols + j] = int(Fraction(value) * denominator)
    scaled = fmpz_mat(workload.rows, workload.cols, flat)
    gram = scaled.transpose() * scaled
    return [[int(entry) for entry in row] for row in gram.tolist()], denominator * denominator


def strategy_participation_audit(workload: ColumnMatrix, scale: Fraction,
                                 participation: Participation) -> LinearNoiseVerdict:
    """The Gaussian verdict for ``C x + N(0, σ² I)`` under a participation scheme (module docstring)."""
    numerators, denominator = strategy_gram(workload)
    found = max_pattern_quadratic(participation, numerators, denominator)
    rho = found.upper / (2 * scale * scale)
    value = (f"= {fraction_text(found.upper)}" if found.exact
             else f"in [{fraction_text(found.lower)}, {fraction_text(found.upper)}]")
    text = (f"private: Mahalanobis sensitivity^2 {value} over the patterns of '{participation.describe()}' "
            f"({found.method}); rho {'=' if found.exact else '<='} {fraction_text(rho)} (noise matrix the identity: "
            "Q = C^T C)")
    size = workload.rows
    return LinearNoiseVerdict(
        noise="gaussian", scale=scale, neighbours="add_remove", contributions=1, outputs=size, inputs=workload.cols,
        draws=size, rank=size, kernel_dimension=0, private=True, first_offending_column=None, strategy=None,
        strategy_unique=True, l1_sensitivity=None, l2_sensitivity_squared=found.upper, epsilon=None,
        epsilon_exact=False, rho=rho, explanation=text, rho_is_bound=not found.exact, participation=participation,
        pattern_maximum=found,
    )
