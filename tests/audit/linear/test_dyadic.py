"""Float64 matrices audited with Laplace noise as one power of two times int64 matrices: the scaling is exact and
minimal, the verdict equals the one on the matrices read as exact rationals, and a float-built tree's bracket is
certified with one LP."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from scipy import sparse

from reference.audit.linear.audit import audit_linear_noise, column_matrix
from reference.audit.linear.dyadic import clearing_power, scaled_to_integers


def test_the_clearing_power_is_the_least() -> None:
    rng = np.random.default_rng(4)
    for values in (np.array([0.1, 1 / 3, 2.0, 0.0, -0.75]), rng.normal(size=50), np.array([0.5, 3.0]),
                   np.array([0.0]), np.array([2.0**-60, 7.0])):
        power = clearing_power(values)
        assert all((Fraction(float(v)) * 2**power).denominator == 1 for v in values)
        if power:
            assert any((Fraction(float(v)) * 2 ** (power - 1)).denominator != 1 for v in values)
    assert clearing_power(np.array([3, -5])) == 0


def test_scaling_is_exact_and_refused_when_it_would_not_fit() -> None:
    noise = np.array([[0.5, 0.25], [0.0, 1 / 3]])
    workload = sparse.csr_matrix(np.array([[1.5], [0.1]]))
    found = scaled_to_integers(noise, workload)
    assert found is not None
    scaled_noise, scaled_workload = found
    power = clearing_power(np.concatenate([noise.ravel(), workload.data]))
    assert scaled_noise.dtype == np.int64 and sparse.issparse(scaled_workload)
    assert all(Fraction(int(a)) == Fraction(float(b)) * 2**power for a, b in zip(scaled_noise.ravel(), noise.ravel()))
    assert all(Fraction(int(a)) == Fraction(float(b)) * 2**power
               for a, b in zip(scaled_workload.toarray().ravel(), workload.toarray().ravel()))
    assert scaled_to_integers(np.array([[2.0**70]]), np.array([[2.0**-10]])) is None  # 2^80 > int64
    assert scaled_to_integers(np.eye(2, dtype=np.int64), np.eye(2, dtype=np.int64)) is None  # nothing to do
    assert scaled_to_integers(np.array([[np.nan]]), np.eye(1)) is None  # left to the audit's refusal
    assert scaled_to_integers([[0.5]], np.eye(1)) is None  # rows: read as before


def weighted_tree() -> tuple[sparse.csc_matrix, np.ndarray]:
    """A binary tree over 8 leaves (15 nodes), level l weighted by the float (1 + l/3)/3: noise A_wᵀ, workload
    A_wᵀA_w (the consistency form), both float64."""
    rows = [[int(start <= j < start + size) for j in range(8)] for size in (8, 4, 2, 1) for start in range(0, 8, size)]
    weights = np.repeat(np.linspace(1.0, 2.0, 4) / 3.0, [1, 2, 4, 8])
    strategy = np.diag(weights) @ np.array(rows, dtype=np.float64)
    return sparse.csc_matrix(strategy.T), strategy.T @ strategy


def test_the_verdict_equals_the_rational_one() -> None:
    noise, workload = weighted_tree()
    scaled = audit_linear_noise(noise, workload, "laplace", scale=1)
    rational = audit_linear_noise(column_matrix(noise, "noise_matrix"), column_matrix(workload, "workload"),
                                  "laplace", scale=1)
    assert scaled.epsilon is not None and scaled.epsilon_lower is not None
    assert rational.epsilon is not None and rational.epsilon_lower is not None
    # the same certified bracket up to the LP's rounding (each is certified: they must overlap)
    assert scaled.epsilon_lower <= rational.epsilon and rational.epsilon_lower <= scaled.epsilon
    # the shift u = A_w e_j (leaf j's path, one node per level) costs Σ_l w_l = (3 + 4 + 5 + 6)/9 = 2 and the LP
    # finds none cheaper: ε = 2 within 1e-12; 2% less noise (scale 0.98, ε = 2/0.98) fails ε = 2
    assert abs(scaled.epsilon - 2) < Fraction(1, 10**12) and scaled.epsilon - scaled.epsilon_lower < Fraction(1, 10**12)
    tolerant = audit_linear_noise(noise, workload, "laplace", scale=1, rtol=1e-12)
    assert tolerant.verdict_on(epsilon=2) == "holds"
    assert audit_linear_noise(noise, workload, "laplace", scale="0.98", rtol=1e-12).verdict_on(epsilon=2) == "fails"


def test_one_lp_certifies_a_float_built_tree(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from reference.audit.linear import laplace_lp

    calls = []
    solve = laplace_lp._solve

    def counting(*arguments, **keywords):  # type: ignore[no-untyped-def]
        calls.append(1)
        return solve(*arguments, **keywords)

    monkeypatch.setattr(laplace_lp, "_solve", counting)
    noise, workload = weighted_tree()
    verdict = audit_linear_noise(noise, workload, "laplace", scale=1)
    assert verdict.epsilon is not None and verdict.epsilon_lower is not None
    assert not verdict.epsilon_exact and verdict.epsilon - verdict.epsilon_lower <= verdict.epsilon / 10**9
    assert len(calls) < 8  # not one LP per leaf: the bracket is closed to 1e-9 once an LP's could not close
