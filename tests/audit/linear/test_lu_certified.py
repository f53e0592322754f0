"""The Gaussian audit's compiled paths (exact substitution when B is a permuted triangular matrix with pivots ±1,
else a float sparse LU; both certified in int64) against independent exact values.

The reference values are computed here with sympy's exact rational matrices from the definition,
Δ² = max_j w_jᵀ (B Bᵀ)⁻¹ w_j and Δ1 = max_j ‖B⁻¹ w_j‖₁ for an invertible B — no code of the audit — and the
compiled path is also paired with the exact sparse elimination it stands in for."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import sympy
from scipy import sparse

from reference.audit.linear import lu_certified
from reference.audit.linear.audit import audit_linear_noise
from reference.audit.linear.column_matrix import IntegerArray, UsedColumns
from reference.audit.linear.lu_certified import IntegerForm, certified_shifts, integer_sparse
from reference.audit.linear.sparse_audit import sparse_linear_noise_audit
from reference.audit.linear.verdict import LinearNoiseVerdict

METHOD = "u_j = B^-1 w_j"  # either compiled route (the elimination says neither)
LU_ROUTE = "float sparse LU"
TRIANGULAR_ROUTE = "exact integer substitution"


def _sympy_reference(noise: np.ndarray, workload: np.ndarray) -> tuple[Fraction, Fraction]:
    """(Δ², Δ1) of an invertible B from the definitions, in sympy rationals."""
    b_matrix = sympy.Matrix(noise.tolist())
    w_matrix = sympy.Matrix(workload.tolist())
    gram_inverse = (b_matrix * b_matrix.T).inv()
    shifts = b_matrix.inv() * w_matrix
    squared = max((w_matrix[:, j].T * gram_inverse * w_matrix[:, j])[0, 0] for j in range(w_matrix.cols))
    l1 = max(sum(abs(shifts[i, j]) for i in range(shifts.rows)) for j in range(shifts.cols))
    return Fraction(int(sympy.fraction(squared)[0]), int(sympy.fraction(squared)[1])), Fraction(int(l1))


def _unimodular(size: int, generator: np.random.Generator) -> np.ndarray:
    """A random integer matrix of determinant ±1: unit lower times unit upper triangular factors with small
    entries, rows and columns shuffled (its LU with partial pivoting may have pivots other than ±1)."""
    lower = np.tril(generator.integers(-1, 2, (size, size)), -1) + np.eye(size, dtype=np.int64)
    upper = np.triu(generator.integers(-1, 2, (size, size)), 1) + np.diag(generator.choice([-1, 1], size))
    product = lower @ upper
    return product[generator.permutation(size)][:, generator.permutation(size)]


def _signed_intervals(size: int, generator: np.random.Generator) -> np.ndarray:
    """A random invertible matrix whose columns are ± the indicators of intervals of rows (consecutive ones: a
    totally unimodular matrix, so every pivot of its LU is ±1 — the counters' shape)."""
    while True:
        matrix = np.zeros((size, size), dtype=np.int64)
        for column in range(size):
            start = int(generator.integers(0, size))
            stop = int(generator.integers(start + 1, size + 1))
            matrix[start:stop, column] = generator.choice([-1, 1])
        if sympy.Matrix(matrix.tolist()).det() != 0:
            return matrix


def _forms(noise: np.ndarray, workload: np.ndarray) -> tuple[IntegerForm, IntegerForm]:
    forms = integer_sparse(noise, "noise_matrix"), integer_sparse(workload, "workload")
    assert forms[0] is not None and forms[1] is not None
    return forms[0], forms[1]


def tree_counter(horizon: int) -> np.ndarray:
    """The binary tree mechanism's noise matrix: output t (the count of steps 0..t) adds the dyadic nodes that
    partition [0, t + 1) (one column per node used)."""
    nodes: dict[tuple[int, int], int] = {}
    entries = []
    for step in range(horizon):
        length, start = step + 1, 0
        for level in range(length.bit_length() - 1, -1, -1):
            if length >> level & 1:
                entries.append((step, nodes.setdefault((level, start >> level), len(nodes))))
                start += 1 << level
    matrix = np.zeros((horizon, len(nodes)), dtype=np.int64)
    for row, col in entries:
        matrix[row, col] = 1
    return matrix


@pytest.mark.parametrize("seed", range(8))
def test_random_intervals_match_sympy_and_the_elimination(seed: int) -> None:
    generator = np.random.default_rng(seed)
    size = int(generator.integers(2, 12))
    noise = _signed_intervals(size, generator)
    workload = generator.integers(-2, 3, (size, int(generator.integers(1, 6))))
    workload[:, 0] = generator.integers(1, 3, size)  # a non-zero column, so Δ² > 0
    fast = audit_linear_noise(noise, workload, "gaussian", scale=3, contributions=2)
    assert METHOD in fast.explanation
    squared, l1 = _sympy_reference(noise, workload)
    assert fast.l2_sensitivity_squared == 4 * squared
    assert fast.l1_sensitivity == 2 * l1
    assert fast.rho == 4 * squared / 18
    exact = sparse_linear_noise_audit(UsedColumns(IntegerArray(noise)), IntegerArray(workload), "gaussian",
                                      Fraction(3), 2)
    assert isinstance(exact, LinearNoiseVerdict) and METHOD not in exact.explanation  # the elimination: a pair
    for field in ("l2_sensitivity_squared", "l1_sensitivity", "rho", "rank", "kernel_dimension", "strategy",
                  "strategy_unique", "private", "draws", "outputs", "inputs"):
        assert getattr(fast, field) == getattr(exact, field), field


@pytest.mark.parametrize("seed", range(4))
def test_random_unimodular_any_path_matches_sympy(seed: int) -> None:
    """Pivots other than ±1 send the audit to the elimination: the value is the same either way."""
    generator = np.random.default_rng(seed)
    size = int(generator.integers(2, 9))
    noise = _unimodular(size, generator)
    workload = generator.integers(-2, 3, (size, 3))
    verdict = audit_linear_noise(sparse.csr_matrix(noise), workload, "gaussian", scale=1)
    squared, l1 = _sympy_reference(noise, workload)
    assert verdict.l2_sensitivity_squared == squared and verdict.l1_sensitivity == l1


@pytest.mark.parametrize("horizon", [1, 7, 16, 33])
def test_the_tree_counter_with_a_prefix_workload(horizon: int) -> None:
    noise = tree_counter(horizon)
    prefix = np.tril(np.ones((horizon, horizon), dtype=np.int64))
    verdict = audit_linear_noise(sparse.csc_matrix(noise), prefix, "gaussian", scale=1)
    assert METHOD in verdict.explanation
    # by hand: input j reaches the prefix sums t >= j, u_j = B^-1 w_j has one entry per level change; sympy here
    assert verdict.l2_sensitivity_squared == _sympy_reference(noise, prefix)[0]


def test_unused_draws_are_dropped() -> None:
    noise = np.array([[1, 0, 0], [1, 0, 1]])  # draw 1 reaches no output
    verdict = audit_linear_noise(noise, np.eye(2, dtype=np.int64), "gaussian", scale=1)
    assert METHOD in verdict.explanation
    assert verdict.unused_draws == 1 and verdict.draws == 2
    assert verdict.l2_sensitivity_squared == 2  # B⁻¹ = [[1, 0], [-1, 1]]: column 0 has norm² 2


@pytest.mark.parametrize(("noise", "reason"), [
    ([[2, 0], [0, 1]], "a pivot 2: shifts may be fractions"),
    ([[1, 1], [1, 1]], "singular"),
    ([[1, 0, 1], [0, 1, 1]], "not square: a kernel, the minimum-norm shift is a projection"),
])
def test_what_the_path_leaves_to_the_elimination(noise: list[list[int]], reason: str) -> None:
    array = np.array(noise, dtype=np.int64)
    workload = array.copy()  # in col(B): private, with a finite Δ²
    assert certified_shifts(*_forms(array, workload)) is None, reason
    verdict = audit_linear_noise(array, workload, "gaussian", scale=1)
    assert METHOD not in verdict.explanation
    squared = sympy.Matrix(workload.tolist()).T * (sympy.Matrix(noise) * sympy.Matrix(noise).T).pinv() \
        * sympy.Matrix(workload.tolist())
    assert verdict.l2_sensitivity_squared == max(Fraction(str(squared[j, j])) for j in range(squared.cols))
    assert verdict.private


def test_a_wrong_proposal_is_not_certified(monkeypatch: pytest.MonkeyPatch) -> None:
    """The residual check B U = W is what makes the result exact: a solve that proposes a wrong shift (here one
    entry moved by one) is rejected, and the audit falls back to the elimination with the right value."""
    noise = tree_counter(12)
    prefix = np.tril(np.ones((12, 12), dtype=np.int64))
    forms = _forms(noise, prefix)
    assert certified_shifts(*forms) is not None  # certified as it is
    solve = lu_certified._level_solve  # what both routes (substitution, the LU's two solves) call

    def off_by_one(*arguments: object) -> object:
        result = solve(*arguments)  # type: ignore[arg-type]
        assert result is not None
        solution = result[0].tolil()
        solution[0, 0] = solution[0, 0] + 1
        return solution.tocsr(), result[1]

    monkeypatch.setattr(lu_certified, "_level_solve", off_by_one)
    assert certified_shifts(*forms) is None
    verdict = audit_linear_noise(noise, prefix, "gaussian", scale=1)
    assert METHOD not in verdict.explanation
    assert verdict.l2_sensitivity_squared == _sympy_reference(noise, prefix)[0]


def test_products_that_might_wrap_are_not_taken() -> None:
    big = sparse.csr_array(np.array([[2**40, 2**40], [0, 1]], dtype=np.int64))
    assert lu_certified._bounded_product(big, big) is None
    small = sparse.csr_array(np.array([[3, -2], [0, 1]], dtype=np.int64))
    product = lu_certified._bounded_product(small, small)
    assert product is not None and (product.toarray() == np.array([[9, -8], [0, 1]])).all()


def test_a_large_entry_falls_back_exactly() -> None:
    noise = np.array([[1, 0], [2**61, 1]], dtype=np.int64)  # det 1, but the products might wrap in int64
    workload = np.eye(2, dtype=np.int64)
    verdict = audit_linear_noise(noise, workload, "gaussian", scale=1)
    assert verdict.l2_sensitivity_squared == _sympy_reference(noise, workload)[0]


def _permuted_triangular(size: int, generator: np.random.Generator) -> np.ndarray:
    """A random lower triangular matrix with diagonal ±1 and small entries below, rows and columns shuffled."""
    matrix = np.tril(generator.integers(-2, 3, (size, size)), -1) * (generator.random((size, size)) < 0.4)
    matrix += np.diag(generator.choice([-1, 1], size))
    return matrix[generator.permutation(size)][:, generator.permutation(size)]


@pytest.mark.parametrize("seed", range(8))
def test_permuted_triangular_noise_by_substitution_matches_sympy(seed: int) -> None:
    generator = np.random.default_rng(100 + seed)
    size = int(generator.integers(1, 12))
    noise = _permuted_triangular(size, generator)
    workload = generator.integers(-2, 3, (size, int(generator.integers(1, 5))))
    workload[:, 0] = generator.integers(1, 3, size)
    verdict = audit_linear_noise(sparse.csc_matrix(noise), workload, "gaussian", scale=2, contributions=3)
    assert TRIANGULAR_ROUTE in verdict.explanation
    squared, l1 = _sympy_reference(noise, workload)
    assert verdict.l2_sensitivity_squared == 9 * squared and verdict.l1_sensitivity == 3 * l1
    assert verdict.strategy == tuple(tuple(Fraction(int(entry)) for entry in row)
                                     for row in (sympy.Matrix(noise.tolist()).inv() * sympy.Matrix(workload.tolist())
                                                 ).tolist())


@pytest.mark.parametrize("horizon", [5, 16, 33])
def test_the_differenced_tree_counter_with_the_identity(horizon: int) -> None:
    """The difference form of the tree counter's prefix release (P B and I) is triangular up to permutations."""
    noise = tree_counter(horizon)
    differenced = noise - np.vstack([np.zeros((1, noise.shape[1]), dtype=np.int64), noise[:-1]])
    identity = np.eye(horizon, dtype=np.int64)
    verdict = audit_linear_noise(sparse.csc_matrix(differenced), sparse.identity(horizon, format="csc",
                                                                                  dtype=np.int8), "gaussian", scale=1)
    assert TRIANGULAR_ROUTE in verdict.explanation
    assert verdict.l2_sensitivity_squared == _sympy_reference(differenced, identity)[0]
    # the same release in the prefix form has the same Δ²
    prefix = np.tril(np.ones((horizon, horizon), dtype=np.int64))
    assert verdict.l2_sensitivity_squared == _sympy_reference(noise, prefix)[0]


@pytest.mark.parametrize(("noise", "reason"), [
    ([[1, 1], [1, 2]], "a pivot 2 under one matching, a cycle under the other: the float LU path (det 1)"),
    ([[1, 2], [1, 1]], "a pivot 2 under one matching, a cycle under the other: the float LU path (det -1)"),
])
def test_what_substitution_leaves_to_the_lu(noise: list[list[int]], reason: str) -> None:
    array = np.array(noise, dtype=np.int64)
    assert lu_certified._permuted_triangular(sparse.csc_array(array)) is None, reason
    workload = np.eye(2, dtype=np.int64)
    verdict = audit_linear_noise(array, workload, "gaussian", scale=1)
    assert LU_ROUTE in verdict.explanation and TRIANGULAR_ROUTE not in verdict.explanation
    assert verdict.l2_sensitivity_squared == _sympy_reference(array, workload)[0]


def test_a_cycle_is_not_taken_for_a_triangle() -> None:
    """A pattern with a 3-cycle off a ±1 matching: no symmetric reordering is triangular (det 2 here)."""
    noise = np.array([[1, 1, 0], [0, 1, 1], [1, 0, 1]], dtype=np.int64)
    assert lu_certified._permuted_triangular(sparse.csc_array(noise)) is None
    verdict = audit_linear_noise(noise, np.eye(3, dtype=np.int64), "gaussian", scale=1)
    assert verdict.l2_sensitivity_squared == _sympy_reference(noise, np.eye(3, dtype=np.int64))[0]


@pytest.mark.parametrize("seed", range(6))
def test_difference_nonzeros_are_counted_as_formed(seed: int) -> None:
    """The count that chooses the sparser form, against the first differences formed in numpy."""
    generator = np.random.default_rng(200 + seed)
    rows, cols = (int(size) for size in generator.integers(1, 9, 2))
    dense = generator.integers(-1, 2, (rows, cols)) * (generator.random((rows, cols)) < 0.6)
    differenced = dense - np.vstack([np.zeros((1, cols), dtype=dense.dtype), dense[:-1]])
    matrix = sparse.csc_array(dense.astype(np.int64))
    matrix.eliminate_zeros()
    assert lu_certified._difference_nonzeros(matrix) == np.count_nonzero(differenced)
