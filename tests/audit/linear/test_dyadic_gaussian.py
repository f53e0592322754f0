"""Float64 matrices with Gaussian noise audited as 2^s·B, 2^s·W in int64: the same Δ² as the matrices read as
exact rationals (Δ² = max w_jᵀ(B D Bᵀ)⁺w_j is unchanged when B and W are scaled together), on the add/remove,
participation (B = I, a float strategy: Q = CᵀC/c² for B = c·I) and draw-variance paths; and by hand on a small
case: B = I, W = [[0.1], [0.2]] gives Δ² = 0.1² + 0.2² in the floats' own binary values."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from reference.audit.linear.audit import audit_linear_noise
from reference.audit.linear.column_matrix import IntegerArray
from reference.audit.linear.dyadic import float_built_array
from reference.audit.linear.participation import min_separation
from reference.audit.linear.strategy_audit import identity_multiple


def _rows(matrix: np.ndarray) -> list[list[Fraction]]:
    return [[Fraction(value) for value in row] for row in matrix.tolist()]


def test_by_hand() -> None:
    verdict = audit_linear_noise(np.eye(2, dtype=np.int64), np.array([[0.1], [0.2]]), "gaussian", scale=1)
    assert verdict.l2_sensitivity_squared == Fraction(0.1) ** 2 + Fraction(0.2) ** 2


@pytest.mark.parametrize("seed", range(3))
def test_float_strategies_under_participation_match_the_rational_reading(seed: int) -> None:
    generator = np.random.default_rng(seed)
    size = 12
    strategy = np.tril(generator.uniform(-1, 1, (size, size)))  # signs: a negative Gram entry is possible
    for model in ("signed", "vector"):
        scheme = min_separation(separation=3, times=3, contribution=model)
        scaled = audit_linear_noise(np.eye(size, dtype=np.int64), strategy, "gaussian", scale=2,
                                    participation=scheme)
        exact = audit_linear_noise([[int(i == j) for j in range(size)] for i in range(size)], _rows(strategy),
                                   "gaussian", scale=2, participation=scheme)
        assert scaled.pattern_maximum is not None and exact.pattern_maximum is not None
        assert (scaled.pattern_maximum.lower, scaled.pattern_maximum.upper) == (exact.pattern_maximum.lower,
                                                                                exact.pattern_maximum.upper)
        assert scaled.rho == exact.rho


@pytest.mark.parametrize("seed", range(3))
def test_float_noise_matrices_match_the_rational_reading(seed: int) -> None:
    generator = np.random.default_rng(10 + seed)
    noise, workload = generator.normal(size=(4, 6)), generator.normal(size=(4, 3))
    assert float_built_array(noise)
    scaled = audit_linear_noise(noise, workload, "gaussian", scale=1)
    exact = audit_linear_noise(_rows(noise), _rows(workload), "gaussian", scale=1)
    assert scaled.l2_sensitivity_squared == exact.l2_sensitivity_squared
    assert scaled.rank == exact.rank == 4
    variances = [1, 2, Fraction(1, 3), 1, 5, 1]
    scaled = audit_linear_noise(noise, workload, "gaussian", scale=1, draw_variances=variances)
    exact = audit_linear_noise(_rows(noise), _rows(workload), "gaussian", scale=1, draw_variances=variances)
    assert scaled.l2_sensitivity_squared == exact.l2_sensitivity_squared


def test_identity_multiple() -> None:
    assert identity_multiple(IntegerArray(np.eye(3, dtype=np.int64) * 8)) == 8
    assert identity_multiple(IntegerArray(np.eye(3, dtype=np.int64))) == 1
    assert identity_multiple(IntegerArray(np.diag(np.array([1, 2, 1])))) is None
    assert identity_multiple(IntegerArray(-np.eye(2, dtype=np.int64))) is None
    assert identity_multiple(IntegerArray(np.ones((2, 3), dtype=np.int64))) is None
