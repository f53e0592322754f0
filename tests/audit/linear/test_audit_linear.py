"""Tests of the linear-noise audit (reference.audit.linear.audit) against the examples in examples/."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

# examples/ is a folder of the repository, not part of the installed package; pytest puts the repository root on
# sys.path (``pythonpath`` in pyproject.toml), so it imports as ``examples``.
from reference_verification.planted import correct_kary, sensitivity_off_kary, shared_noise_kary

from reference.audit.linear.audit import audit_linear_noise, exact_matrix, load_exact_matrix
from reference.audit.linear.covariance import (
    cip_leaf_covariance_oracle,
    cip_workload_covariance_oracle,
    compare_covariance,
    kary_algorithm_2_covariance_oracle,
    kary_prefix_workload,
    noise_covariance,
)
from reference.audit.linear.probe import probe_noise_matrix
from reference.cip.exact import cascade
from reference.cip.exact import matrix as cip_matrix
from reference.kary import tree as kary_tree
from reference.kary.digits import algorithm_2_noise_indices
from reference.privacy.gaussian import gaussian_delta


def cip_cascade_map(depth: int) -> tuple[list[list[Fraction]], list[Fraction]]:
    """Cascade Sampling (Algorithm 1) as an exact linear map: draws are the root X (variance 1) and one split
    draw per internal node u (Y'_u = (√3/2) Y_u, variance 3/4); X_{u0} = X_u/2 + Y'_u, X_{u1} = X_u/2 − Y'_u."""
    n = 1 << depth
    rows = []
    for leaf in range(n):
        row = [Fraction(0)] * n  # column 0: the root draw; column 1 + u: the split draw of internal node u
        row[0] = Fraction(1, n)
        for level in range(depth):
            position = leaf >> (depth - level)
            node = (1 << level) - 1 + position  # level-order index of the internal node, 0..n−2
            right = (leaf >> (depth - 1 - level)) & 1
            row[node + 1] = Fraction(-1 if right else 1, 1 << (depth - 1 - level))
        rows.append(row)
    return rows, [Fraction(1)] + [Fraction(3, 4)] * (n - 1)


# ----------------------------------------------------------------------------------------- KARY examples


def test_correct_kary_passes() -> None:
    workload = kary_prefix_workload(correct_kary.HORIZON)
    verdict = audit_linear_noise(correct_kary.noise_matrix(), workload, "laplace", scale=correct_kary.noise_scale())
    assert verdict.private and verdict.first_offending_column is None
    assert verdict.strategy_unique and verdict.kernel_dimension == 0
    expected = kary_tree.sensitivities(correct_kary.ARITY, correct_kary.HEIGHT, subtraction=True)
    assert verdict.l1_sensitivity == expected.l1
    assert verdict.l2_sensitivity_squared == expected.l2_squared
    assert verdict.epsilon == correct_kary.CLAIMED_EPSILON and verdict.epsilon_exact
    oracle = kary_algorithm_2_covariance_oracle(correct_kary.ARITY, correct_kary.HEIGHT, correct_kary.noise_scale())
    assert compare_covariance(correct_kary.noise_matrix(), correct_kary.noise_scale(), "laplace", oracle) == ()


def test_probe_recovers_correct_kary_matrix() -> None:
    probed = probe_noise_matrix(correct_kary.release_noise, correct_kary.HORIZON)
    assert probed == exact_matrix(correct_kary.noise_matrix(), "B")


def test_shared_noise_kary_is_caught() -> None:
    matrix = probe_noise_matrix(shared_noise_kary.release_noise, shared_noise_kary.HEIGHT)
    assert matrix == exact_matrix(shared_noise_kary.noise_matrix(), "B")
    workload = kary_prefix_workload(shared_noise_kary.HORIZON)
    verdict = audit_linear_noise(matrix, workload, "laplace", scale=shared_noise_kary.noise_scale())
    assert not verdict.private
    # Only h = 3 draws: rank(B) <= 3, and the 13 prefix columns are linearly independent, so at most 3 of them
    # lie in col(B): the first offending column is one of columns 0..3.
    assert verdict.first_offending_column is not None and verdict.first_offending_column <= 3
    assert verdict.rank <= 3
    assert verdict.epsilon is None and verdict.strategy is None
    oracle = kary_algorithm_2_covariance_oracle(
        shared_noise_kary.ARITY, shared_noise_kary.HEIGHT, shared_noise_kary.noise_scale()
    )
    differences = compare_covariance(matrix, shared_noise_kary.noise_scale(), "laplace", oracle)
    assert differences
    first = differences[0]
    # The named entry: the oracle's value there is 2b² times the number of Algorithm 2 indices both outputs use.
    shared = set(algorithm_2_noise_indices(first.row + 1, 3, 3)) & set(
        algorithm_2_noise_indices(first.column + 1, 3, 3)
    )
    assert first.expected == 2 * shared_noise_kary.noise_scale() ** 2 * len(shared)
    assert first.expected == oracle[first.row][first.column]
    assert first.actual != first.expected


def test_sensitivity_off_kary_claim_not_met() -> None:
    height = sensitivity_off_kary.HEIGHT
    workload = kary_prefix_workload(sensitivity_off_kary.HORIZON)
    verdict = audit_linear_noise(
        sensitivity_off_kary.noise_matrix(), workload, "laplace", scale=sensitivity_off_kary.noise_scale()
    )
    assert verdict.private and verdict.epsilon_exact
    assert verdict.epsilon == Fraction(height, height - 1) * sensitivity_off_kary.CLAIMED_EPSILON
    assert verdict.epsilon is not None and verdict.epsilon > sensitivity_off_kary.CLAIMED_EPSILON
    claimed_scale = Fraction(height) / sensitivity_off_kary.CLAIMED_EPSILON
    oracle = kary_algorithm_2_covariance_oracle(sensitivity_off_kary.ARITY, height, claimed_scale)
    differences = compare_covariance(
        sensitivity_off_kary.noise_matrix(), sensitivity_off_kary.noise_scale(), "laplace", oracle, limit=1
    )
    assert len(differences) == 1
    assert (differences[0].row, differences[0].column) == (0, 0)  # output 1 has variance 2b², b too small
    assert differences[0].actual == 2 * sensitivity_off_kary.noise_scale() ** 2
    assert differences[0].expected == 2 * claimed_scale**2


# ----------------------------------------------------------------------------------------- CIP


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_cip_cascade_map_matches_oracle(depth: int) -> None:
    matrix, variances = cip_cascade_map(depth)
    sigma = Fraction(3, 2)
    oracle = cip_leaf_covariance_oracle(depth, sigma)
    assert compare_covariance(matrix, sigma, "gaussian", oracle, draw_variances=variances) == ()
    # the cascade module's own covariance (from Algorithm 1's recursion) agrees too
    leaf = cascade.leaf_covariance(depth)
    assert noise_covariance(matrix, 1, "gaussian", variances) == leaf


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_cip_leaves_privacy(depth: int) -> None:
    matrix, variances = cip_cascade_map(depth)
    n = 1 << depth
    identity = [[1 if i == j else 0 for j in range(n)] for i in range(n)]
    sigma = Fraction(2)
    verdict = audit_linear_noise(matrix, identity, "gaussian", scale=sigma, draw_variances=variances)
    assert verdict.private
    assert verdict.l2_sensitivity_squared == cip_matrix.max_precision_diagonal(depth)
    assert verdict.rho == cip_matrix.max_precision_diagonal(depth) / (2 * sigma * sigma)
    epsilon = Fraction(1)
    assert (
        verdict.delta(epsilon).lower
        == gaussian_delta(epsilon=epsilon, sigma=sigma, sensitivity_squared=verdict.l2_sensitivity_squared).lower
    )


def test_cip_workload_oracle() -> None:
    depth = 2
    workload = [[1, 1, 0, 0], [0, 1, 1, 1]]
    matrix, variances = cip_cascade_map(depth)
    product = [[sum(Fraction(w) * m for w, m in zip(row, column)) for column in zip(*matrix)] for row in workload]
    oracle = cip_workload_covariance_oracle(depth, 1, workload)
    assert compare_covariance(product, 1, "gaussian", oracle, draw_variances=variances) == ()


# ----------------------------------------------------------------------------------------- small cases


def test_non_private_first_offending_column() -> None:
    verdict = audit_linear_noise([[1], [1]], [[1, 1, 0], [1, 0, 1]], "gaussian", scale=1)
    assert not verdict.private
    assert verdict.first_offending_column == 1
    with pytest.raises(ValueError, match="not private"):
        verdict.delta(1)


def test_kernel_gives_minimum_norm_and_upper_bound() -> None:
    # one output, two draws: B = [1 1]; the noise has variance 2 per unit scale
    laplace = audit_linear_noise([[1, 1]], [[1]], "laplace", scale=1)
    assert laplace.kernel_dimension == 1 and not laplace.strategy_unique
    assert laplace.strategy == ((Fraction(1, 2),), (Fraction(1, 2),))
    # the minimum-norm strategy has ℓ1 norm 1, and the LP dual λ = 1 certifies that no shift does better
    assert laplace.epsilon == laplace.epsilon_lower == 1 and laplace.epsilon_exact
    gaussian = audit_linear_noise([[1, 1]], [[1]], "gaussian", scale=1)
    assert gaussian.l2_sensitivity_squared == Fraction(1, 2)  # 1 / Var = 1/2
    assert gaussian.rho == Fraction(1, 4)


def test_scaled_identity() -> None:
    verdict = audit_linear_noise([[2, 0], [0, 3]], [[1, 0], [0, 1]], "laplace", scale=Fraction(1, 2))
    assert verdict.strategy == ((Fraction(1, 2), Fraction(0)), (Fraction(0), Fraction(1, 3)))
    assert verdict.epsilon == 1 and verdict.epsilon_exact


def test_numpy_integer_input() -> None:
    verdict = audit_linear_noise(np.eye(3, dtype=np.int64), np.eye(3, dtype=np.int64), "laplace", scale=1)
    assert verdict.epsilon == 1


# ----------------------------------------------------------------------------------------- bad inputs


def test_bad_inputs() -> None:
    with pytest.raises(ValueError, match="workload has 1 rows"):
        audit_linear_noise([[1], [1]], [[1]], "laplace", scale=1)
    with pytest.raises(TypeError, match="noise_matrix"):
        audit_linear_noise([[1.0]], [[1]], "laplace", scale=1)
    # a numpy float array is read exactly (a list of Python floats is still refused, above)
    assert audit_linear_noise([[1]], np.array([[0.1]]), "laplace", scale=1).epsilon == Fraction(0.1)
    with pytest.raises(ValueError, match="workload has a non-finite entry"):
        audit_linear_noise([[1]], np.array([[np.inf]]), "laplace", scale=1)
    with pytest.raises(TypeError, match="scale"):
        audit_linear_noise([[1]], [[1]], "laplace", scale=0.5)
    with pytest.raises(ValueError, match="scale"):
        audit_linear_noise([[1]], [[1]], "laplace", scale=0)
    with pytest.raises(ValueError, match="noise"):
        audit_linear_noise([[1]], [[1]], "cauchy", scale=1)
    with pytest.raises(ValueError, match="row 1"):
        audit_linear_noise([[1], [1, 2]], [[1], [1]], "laplace", scale=1)
    with pytest.raises(ValueError, match="at least one"):
        audit_linear_noise([], [[1]], "laplace", scale=1)
    with pytest.raises(ValueError, match="gaussian noise only"):
        audit_linear_noise([[1]], [[1]], "laplace", scale=1, draw_variances=[1])
    with pytest.raises(ValueError, match="draw_variances"):
        audit_linear_noise([[1]], [[1]], "gaussian", scale=1, draw_variances=[1, 1])
    with pytest.raises(ValueError, match="oracle_covariance"):
        compare_covariance([[1]], 1, "gaussian", [[1, 0], [0, 1]])
    with pytest.raises(ValueError, match="gaussian noise only"):
        audit_linear_noise([[1]], [[1]], "laplace", scale=1).delta(1)


def test_probe_rejects_nonlinear() -> None:
    def square(z: Sequence[Fraction]) -> list[Fraction]:
        return [z[0] * z[0], z[1]]

    def shifted(z: Sequence[Fraction]) -> list[Fraction]:
        return [z[0] + 1]

    def floats(z: Sequence[Fraction]) -> list[float]:
        return [float(z[0])]

    with pytest.raises(ValueError, match="not linear"):
        probe_noise_matrix(square, 2)
    with pytest.raises(ValueError, match="zero noise vector"):
        probe_noise_matrix(shifted, 1)
    with pytest.raises(TypeError, match="function output"):
        probe_noise_matrix(floats, 1)
    with pytest.raises(ValueError, match="draws"):
        probe_noise_matrix(shifted, 0)


def test_load_exact_matrix(tmp_path: Path) -> None:
    expected = ((Fraction(1), Fraction(-1, 2)), (Fraction(0), Fraction(3)))
    (tmp_path / "m.csv").write_text("1,-1/2\n0,3\n", encoding="utf-8")
    (tmp_path / "m.json").write_text('[[1, "-1/2"], [0, 3]]', encoding="utf-8")
    assert load_exact_matrix(tmp_path / "m.csv") == expected
    assert load_exact_matrix(tmp_path / "m.json") == expected
    np.save(tmp_path / "i.npy", np.array([[1, 0], [2, 3]], dtype=np.int64))
    assert load_exact_matrix(tmp_path / "i.npy") == exact_matrix([[1, 0], [2, 3]], "m")
    np.save(tmp_path / "f.npy", np.array([[0.1, 1.0], [0.0, -2.5]]))  # a float array is read exactly
    assert load_exact_matrix(tmp_path / "f.npy") == ((Fraction(0.1), Fraction(1)), (Fraction(0), Fraction(-5, 2)))
    assert Fraction(0.1) != Fraction(1, 10)  # the binary number the file holds, not the decimal meant
    np.save(tmp_path / "n.npy", np.array([[np.nan]]))
    with pytest.raises(ValueError, match="non-finite"):
        load_exact_matrix(tmp_path / "n.npy")
    np.save(tmp_path / "c.npy", np.array([[1j]]))
    with pytest.raises(ValueError, match="integer or float"):
        load_exact_matrix(tmp_path / "c.npy")
    (tmp_path / "f.json").write_text("[[0.5]]", encoding="utf-8")
    with pytest.raises(TypeError, match="float"):
        load_exact_matrix(tmp_path / "f.json")
    with pytest.raises(ValueError, match=r"\.npy, \.npz, \.csv or \.json"):
        load_exact_matrix(tmp_path / "m.txt")
    with pytest.raises(ValueError, match="no such file"):
        load_exact_matrix(tmp_path / "missing.csv")
