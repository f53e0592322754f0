"""A hierarchical histogram with its consistency step, audited as released (B = A⁺, dense rational) and in the
equivalent integer form T x̂ = AᵀA x + Aᵀ z (T = AᵀA invertible), as ``benchmarks/bench_hierarchical.py`` does
at n = 4,096: both give the same ε, and it is the number of levels. By hand: u = A e_j (one node per level)
solves Aᵀu = AᵀA e_j with ‖u‖₁ = levels; the dual vector e_j has ‖A e_j‖_∞ = 1, so every solution has
‖u‖₁ ≥ e_jᵀAᵀu = (AᵀA)_jj = levels."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from flint import fmpq_mat
from scipy import sparse

from reference.audit.linear.audit import audit_linear_noise


def _tree(leaves: int, branching: int) -> np.ndarray:
    rows = []
    size = leaves
    while size >= 1:
        rows.extend([int(start <= leaf < start + size) for leaf in range(leaves)] for start in range(0, leaves, size))
        size //= branching
    return np.array(rows, dtype=np.int64)


@pytest.mark.parametrize(("leaves", "branching", "levels"), [(16, 4, 3), (27, 3, 4), (8, 2, 4)])
def test_the_consistency_map_and_its_integer_form_agree(leaves: int, branching: int, levels: int) -> None:
    strategy = _tree(leaves, branching)
    nodes = strategy.shape[0]
    exact = fmpq_mat(nodes, leaves, [int(v) for v in strategy.ravel()])
    pseudo_inverse = (exact.transpose() * exact).inv() * exact.transpose()  # (AᵀA)⁻¹Aᵀ, exact
    released = [[Fraction(int(pseudo_inverse[i, j].p), int(pseudo_inverse[i, j].q)) for j in range(nodes)]
                for i in range(leaves)]
    identity = [[int(i == j) for j in range(leaves)] for i in range(leaves)]
    as_released = audit_linear_noise(released, identity, "laplace", scale=1)
    integer_form = audit_linear_noise(sparse.csc_matrix(strategy.T), strategy.T @ strategy, "laplace", scale=1)
    assert as_released.epsilon == as_released.epsilon_lower == integer_form.epsilon == integer_form.epsilon_lower
    assert integer_form.epsilon == levels
    assert integer_form.kernel_dimension == as_released.kernel_dimension == nodes - leaves
