"""Algorithm 4 (CIP Appendix D.3): the numeric sampler, its exact twin and the sensitivities.

Statistical tests: 3 checks with false-alarm probability 1e-9 each, so this file's total false-alarm
probability is below 1e-8.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_verification.cip.checks import two_dim as checks

from reference.cip.exact import matrix as cip_matrix
from reference.cip.exact import two_dim as cip_two_dim
from reference.cip.numeric.cascade import cascade_leaves, cascade_tree
from reference.cip.numeric.two_dim import MAX_TOTAL_DEPTH, two_dim_leaves, two_dim_nodes
from reference.cip.sensitivity import mahalanobis_sensitivity_squared
from reference.core import linalg

F = Fraction
HALF_SQRT3 = math.sqrt(3.0) / 2.0


def naive_two_dim(row_depth: int, column_depth: int, sigma: float, seed: int) -> np.ndarray:
    """Algorithm 4 from its listing, one row node at a time, with the documented draw order: row 0 of the
    draw block drives X_{∅,·}, row 1 + k the cascade Y of internal row node k (level order)."""
    z = np.random.default_rng(seed).standard_normal((1 << row_depth, 1 << column_depth))

    def cascade(draws: np.ndarray, scale: float) -> list[float]:
        values = [float(draws[0]) * scale]
        for node in range((1 << column_depth) - 1):  # internal column nodes in level order
            noise = float(draws[1 + node]) * (HALF_SQRT3 * scale)
            half = values[node] * 0.5
            values += [half + noise, half - noise]  # children 2 node + 1, 2 node + 2
        return values

    rows = [cascade(z[0], sigma)]
    for node in range((1 << row_depth) - 1):
        y = cascade(z[1 + node], sigma)
        parent = rows[node]
        rows.append([p * 0.5 + w * HALF_SQRT3 for p, w in zip(parent, y)])
        rows.append([p * 0.5 - w * HALF_SQRT3 for p, w in zip(parent, y)])
    return np.array(rows)


# ---- numeric ----------------------------------------------------------------------------------------------


@given(st.integers(0, 3), st.integers(0, 3), st.integers(0, 2**32 - 1))
@settings(max_examples=30, deadline=None)
def test_matches_naive_algorithm_4(row_depth: int, column_depth: int, seed: int) -> None:
    nodes = two_dim_nodes(row_depth, column_depth, 1.9, seed)
    naive = naive_two_dim(row_depth, column_depth, 1.9, seed)
    assert np.array_equal(nodes, naive)  # same documented draws and arithmetic: bit for bit
    leaves = two_dim_leaves(row_depth, column_depth, 1.9, seed)
    assert np.array_equal(leaves, nodes[(1 << row_depth) - 1 :, (1 << column_depth) - 1 :])
    assert leaves.shape == (1 << row_depth, 1 << column_depth)
    assert nodes.shape == ((2 << row_depth) - 1, (2 << column_depth) - 1)


@pytest.mark.parametrize("depth", range(6))
def test_single_row_is_the_cascade(depth: int) -> None:
    assert np.array_equal(two_dim_nodes(0, depth, 0.7, 9)[0], cascade_tree(depth, 0.7, 9))
    assert np.array_equal(two_dim_leaves(0, depth, 0.7, 9)[0], cascade_leaves(depth, 0.7, 9))
    # one column: the row pass is the same cascade, with c·(σ z) in place of z·(c σ)
    column = two_dim_nodes(depth, 0, 0.7, 9)[:, 0]
    assert np.allclose(column, cascade_tree(depth, 0.7, 9), rtol=0, atol=1e-14)


def test_batch_equals_successive_calls() -> None:
    batch = two_dim_nodes(2, 1, 1.0, 3, size=4)
    generator = np.random.default_rng(3)
    assert np.array_equal(batch, np.stack([two_dim_nodes(2, 1, 1.0, generator) for _ in range(4)]))
    assert two_dim_leaves(2, 1, 1.0, 3, size=4).shape == (4, 4, 2)


def test_numeric_structure_check() -> None:
    result = checks.check_two_dim_structure(3, samples=5)
    assert result.holds, result.detail


@pytest.mark.parametrize(("rows", "columns"), [(-1, 2), (2, -1)])
def test_negative_depth(rows: int, columns: int) -> None:
    with pytest.raises(ValueError, match="depth"):
        two_dim_leaves(rows, columns, 1.0, 0)


@pytest.mark.parametrize(("rows", "columns"), [(1.5, 2), (2, "3"), (True, 1)])
def test_non_integer_depth(rows: object, columns: object) -> None:
    with pytest.raises(TypeError, match="depth"):
        two_dim_nodes(rows, columns, 1.0, 0)  # type: ignore[arg-type]


def test_too_many_cells_and_bad_sigma() -> None:
    with pytest.raises(ValueError, match="row_depth \\+ column_depth"):
        two_dim_leaves(MAX_TOTAL_DEPTH, 1, 1.0, 0)
    for sigma in (0, -2.0, math.inf):
        with pytest.raises(ValueError, match="sigma"):
            two_dim_leaves(1, 1, sigma, 0)
    with pytest.raises(ValueError, match="size"):
        two_dim_leaves(1, 1, 1.0, 0, size=-1)


# ---- exact ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("rows", "columns"), [(r, c) for r in range(3) for c in range(3)])
def test_construction_is_kronecker(rows: int, columns: int) -> None:
    covariance = cip_two_dim.covariance(rows, columns)
    assert covariance == linalg.kron(cip_matrix.covariance(rows), cip_matrix.covariance(columns))
    variances = cip_two_dim.rectangle_variances(rows, columns)
    assert len(variances) == ((2 << rows) - 1) * ((2 << columns) - 1)
    assert set(variances.values()) == {1}
    assert variances == cip_two_dim.rectangle_variances_from_cells(rows, columns)
    assert cip_two_dim.is_consistent(rows, columns)


def test_one_by_one_by_hand() -> None:
    """Both depths 1: C_1 ⊗ C_1 has 1 on the diagonal, −1/2 for cells sharing a row or a column, 1/4 across;
    P_1 = [[4/3, 2/3], [2/3, 4/3]] so P = P_1 ⊗ P_1 has diagonal 16/9 and smallest entry 4/9: Δ² is 16/9
    (add_remove) and 2·16/9 − 2·4/9 = 8/3 (substitution)."""
    half, quarter = F(-1, 2), F(1, 4)
    assert cip_two_dim.covariance(1, 1) == (
        (F(1), half, half, quarter),
        (half, F(1), quarter, half),
        (half, quarter, F(1), half),
        (quarter, half, half, F(1)),
    )
    assert cip_two_dim.sensitivity_squared(1, 1, "add_remove") == F(16, 9)
    assert cip_two_dim.sensitivity_squared(1, 1, "substitution") == F(8, 3)
    assert cip_two_dim.precision_entry(1, 1, (0, 0), (1, 1)) == F(4, 9)


@pytest.mark.parametrize(("rows", "columns"), [(r, c) for r in range(3) for c in range(3) if r + c <= 3])
def test_sensitivity_against_dense(rows: int, columns: int) -> None:
    precision = cip_two_dim.precision(rows, columns)
    width = 1 << columns
    cells = [(r, c) for r in range(1 << rows) for c in range(width)]
    assert all(
        precision[i][j] == cip_two_dim.precision_entry(rows, columns, a, b)
        for i, a in enumerate(cells)
        for j, b in enumerate(cells)
    )
    for relation in ("add_remove", "substitution"):
        if (rows, columns) == (0, 0) and relation == "substitution":
            continue
        value = cip_two_dim.sensitivity_squared(rows, columns, relation)
        assert value == mahalanobis_sensitivity_squared(precision, relation)
        assert value == checks.two_dim_sensitivity_prediction(rows, columns, relation)


@given(st.integers(1, 30), st.integers(1, 30))
def test_sensitivity_closed_form_large(rows: int, columns: int) -> None:
    # (1 + r/3)(1 + c/3) and 2(1 + r/3)(1 + c/3) − 8/9 for r, c >= 1
    a, b = 1 + F(rows, 3), 1 + F(columns, 3)
    assert cip_two_dim.sensitivity_squared(rows, columns, "add_remove") == a * b
    assert cip_two_dim.sensitivity_squared(rows, columns, "substitution") == 2 * a * b - F(8, 9)
    # with one depth 0 it is the one-dimensional cascade
    assert cip_two_dim.sensitivity_squared(0, columns, "substitution") == F(2 + 2 * columns, 3)


def test_exact_bad_inputs() -> None:
    with pytest.raises(ValueError, match="substitution"):
        cip_two_dim.sensitivity_squared(0, 0, "substitution")
    with pytest.raises(ValueError, match="row_depth \\+ column_depth"):
        cip_two_dim.covariance(4, 3)
    with pytest.raises(ValueError, match="row_depth"):
        cip_two_dim.covariance(-1, 1)
    with pytest.raises(TypeError, match="column_depth"):
        cip_two_dim.covariance(1, 0.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="first"):
        cip_two_dim.precision_entry(1, 1, (2, 0), (0, 0))


# ---- verification checks (small budgets) ------------------------------------------------------------------


def test_exhaustive_two_dim_checks() -> None:
    assert checks.check_two_dim_kronecker(2).holds
    assert checks.check_two_dim_rectangles(2).holds
    assert checks.check_two_dim_sensitivity(2, 4).holds
    assert checks.check_two_by_two_example().holds
    assert checks.check_two_dim_linear_map(2, 2, 1.5).holds


def test_statistical_two_dim() -> None:
    for result in (
        checks.check_two_dim_covariance(1, 2, 2.0, samples=20_000, seed=1),
        checks.check_two_dim_covariance(2, 1, 0.5, samples=20_000, seed=2),
        checks.check_two_dim_rectangle_variances(2, 2, 1.0, samples=20_000, seed=3),
    ):
        assert result.holds, result.detail
