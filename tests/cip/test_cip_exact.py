"""Exact CIP layer: C_depth, its inverse, spectrum, range variances, error metrics.

Each test compares two independent routes (definition vs structured formula, our elimination vs sympy/FLINT,
exact vs float evaluation), or checks a property; no expected value is copied from the code's output.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.cip.exact import errors as cip_errors
from reference.cip.exact import matrix as cip_matrix
from reference.cip.exact import ranges as cip_ranges
from reference.core import linalg


@pytest.mark.parametrize("depth", range(0, 7))
def test_entry_formula_matches_block_recursion(depth: int) -> None:
    matrix = cip_matrix.covariance(depth)
    n = 1 << depth
    assert all(matrix[i][j] == cip_matrix.covariance_entry(depth, i, j) for i in range(n) for j in range(n))


def test_small_matrices_by_hand() -> None:
    half, eighth = Fraction(1, 2), Fraction(1, 8)
    assert cip_matrix.covariance(1) == ((1, -half), (-half, 1))
    # C_2 from Definition 3.1 written out: off-diagonal block -J/2^3
    expected = (
        (1, -half, -eighth, -eighth),
        (-half, 1, -eighth, -eighth),
        (-eighth, -eighth, 1, -half),
        (-eighth, -eighth, -half, 1),
    )
    assert cip_matrix.covariance(2) == expected


@pytest.mark.parametrize("depth", range(0, 6))
def test_three_inverses_agree(depth: int) -> None:
    pure_python = linalg.inverse(cip_matrix.covariance(depth))
    assert cip_matrix.inverse_by_elimination(depth) == pure_python
    assert cip_matrix.inverse_by_lemma_b2(depth) == pure_python
    assert linalg.matmul(cip_matrix.covariance(depth), pure_python) == linalg.identity(1 << depth)


@pytest.mark.parametrize("depth", range(0, 7))
def test_precision_entries_from_haar_closed_form(depth: int) -> None:
    inverse = cip_matrix.inverse_by_elimination(depth)
    n = 1 << depth
    for i in range(n):
        for j in range(n):
            assert inverse[i][j] == cip_matrix.precision_entry_from_height(depth, cip_matrix.lca_height(i, j))


@pytest.mark.parametrize("depth", range(0, 4))
def test_spectrum_and_determinant_against_sympy(depth: int) -> None:
    matrix = sympy.Matrix(
        [[sympy.Rational(x.numerator, x.denominator) for x in row] for row in cip_matrix.covariance(depth)]
    )
    eigen = {Fraction(int(v.p), int(v.q)): m for v, m in matrix.eigenvals().items()}
    assert cip_matrix.spectrum(depth) == eigen == cip_matrix.spectrum_closed_form(depth)
    det = matrix.det()
    assert (
        cip_matrix.determinant(depth) == Fraction(int(det.p), int(det.q)) == cip_matrix.determinant_closed_form(depth)
    )


@pytest.mark.parametrize("depth", range(0, 6))
def test_positive_definite_and_row_sums(depth: int) -> None:
    assert cip_matrix.is_positive_definite(depth)
    assert set(cip_matrix.row_sums(depth)) == {Fraction(1, 1 << depth)}


def test_positive_definite_test_rejects_indefinite() -> None:
    assert not linalg.is_positive_definite(linalg.as_matrix([[1, 2], [2, 1]]))
    assert not linalg.is_positive_definite(linalg.as_matrix([[1, 0], [1, 1]]))  # not symmetric


@pytest.mark.parametrize("depth", range(0, 6))
def test_range_variance_routes_agree(depth: int) -> None:
    n = 1 << depth
    by_sum = {(a, b): cip_ranges.range_variance_by_sum(depth, a, b) for a in range(n) for b in range(a, n)}
    assert all(cip_ranges.range_variance(depth, a, b) == v for (a, b), v in by_sum.items())
    stats = cip_ranges.all_range_statistics(depth)
    best = max(by_sum.values())
    assert stats.max_variance == best
    assert stats.maximisers == tuple(sorted(k for k, v in by_sum.items() if v == best))
    assert stats.total_variance == sum(by_sum.values())
    assert stats.min_variance == min(by_sum.values())
    assert stats.count == len(by_sum)


@pytest.mark.parametrize("depth", range(0, 8))
def test_total_by_pair_counts(depth: int) -> None:
    assert cip_ranges.all_range_statistics(depth).total_variance == cip_ranges.total_range_variance_by_pair_counts(
        depth
    )


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_range_variance_matches_float_quadratic_form(data: st.DataObject) -> None:
    depth = data.draw(st.integers(0, 9))
    n = 1 << depth
    first = data.draw(st.integers(0, n - 1))
    last = data.draw(st.integers(first, n - 1))
    idx = np.arange(first, last + 1)
    heights = np.array([[(int(i) ^ int(j)).bit_length() for j in idx] for i in idx])
    block = np.where(heights == 0, 1.0, -(2.0 ** (1 - 2 * heights)))
    assert float(cip_ranges.range_variance(depth, first, last)) == pytest.approx(block.sum(), rel=1e-12, abs=1e-12)


def test_node_variances_all_one() -> None:
    # Theorem 3.3 as a property of the computed variances (proved for all depths in proofs/)
    for depth in range(0, 9):
        assert set(cip_errors.nodal_variances(depth).values()) == {Fraction(1)}


def test_error_metrics_closed_forms() -> None:
    depth = 3
    n = 1 << depth
    stats = cip_ranges.all_range_statistics(depth)
    assert cip_errors.expected_total_squared_error(depth, "1/4", "ranges") == stats.total_variance / 4
    assert cip_errors.expected_total_squared_error(depth, 2, "nodal") == 2 * (2 * n - 1)
    expr = cip_errors.worst_case_expected_error(depth, 1, "nodal")
    assert sympy.simplify(expr - sympy.sqrt(2 / sympy.pi)) == 0


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: cip_matrix.covariance(-1), "depth"),
        (lambda: cip_matrix.covariance(1.5), "depth"),  # type: ignore[arg-type]
        (lambda: cip_matrix.covariance(13), "depth"),
        (lambda: cip_ranges.range_variance(3, 5, 2), "first <= last"),
        (lambda: cip_ranges.range_variance(3, 0, 8), "last < 8"),
        (lambda: cip_matrix.covariance_entry(2, 0, 4), "j must be"),
        (lambda: cip_errors.expected_total_squared_error(2, 0, "ranges"), "sigma_squared"),
        (lambda: cip_errors.expected_total_squared_error(2, 0.5, "ranges"), "sigma_squared"),
        (lambda: cip_errors.workload_variances(2, "diagonal"), "workload"),  # type: ignore[arg-type]
        (lambda: linalg.inverse(linalg.as_matrix([[1, 1], [1, 1]])), "singular"),
    ],
)
def test_bad_input(call: object, message: str) -> None:
    with pytest.raises((ValueError, TypeError), match=message):
        call()  # type: ignore[operator]


@pytest.mark.parametrize("depth", range(0, 6))
def test_exact_cascade_twin_matches_definition(depth: int) -> None:
    from reference.cip.exact import cascade

    nodes = cascade.node_covariance(depth)
    assert all(nodes[i][i] == 1 for i in range(len(nodes)))  # Theorem 3.3 for the construction
    assert cascade.leaf_covariance(depth) == cip_matrix.covariance(depth)  # Proposition 3.5


def test_exact_cascade_twin_matches_numeric_linear_map() -> None:
    # probe the numeric sampler with unit draws: column j of A is its output when draw j is 1 and the rest 0
    from reference_verification.cip.checks.cascade import ScriptedGenerator

    from reference.cip.exact import cascade
    from reference.cip.numeric.cascade import cascade_tree

    depth = 3
    size = (2 << depth) - 1
    columns = []
    for j in range(1 << depth):
        draws = np.zeros(1 << depth)
        draws[j] = 1.0
        columns.append(cascade_tree(depth, 1.0, ScriptedGenerator(draws)))
    mapping = np.array(columns).T
    exact = np.array([[float(x) for x in row] for row in cascade.node_covariance(depth)])
    assert mapping.shape == (size, 1 << depth)
    assert np.allclose(mapping @ mapping.T, exact, atol=1e-14)


def test_workload_matrices() -> None:
    nodal = cip_errors.nodal_workload(2)
    assert nodal.tolist() == [
        [1, 1, 1, 1],
        [1, 1, 0, 0],
        [0, 0, 1, 1],
        [1, 0, 0, 0],
        [0, 1, 0, 0],
        [0, 0, 1, 0],
        [0, 0, 0, 1],
    ]
    # every node's variance from the dense quadratic form equals the exact nodal variances (all 1)
    matrix = np.array([[float(x) for x in row] for row in cip_matrix.covariance(3)])
    quadratic = np.einsum("qi,ij,qj->q", cip_errors.nodal_workload(3), matrix, cip_errors.nodal_workload(3))
    assert np.allclose(quadratic, 1.0)
    ranges = cip_errors.range_workload(3)
    assert ranges.shape == (6, 3) and ranges.sum() == 1 + 2 + 3 + 1 + 2 + 1
