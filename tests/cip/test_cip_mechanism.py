"""The CIP mechanism: calibration from exact precision matrices, consistency, unbiasedness, bad input."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from reference.cip.exact import general_tree as cip_general_tree
from reference.cip.exact import matrix as cip_matrix
from reference.cip.mechanism import CorrelatedInputPerturbation
from reference.cip.tree import balanced_tree
from reference.core import linalg
from reference.privacy.gaussian import gaussian_delta


def dense_sensitivity(precision: linalg.Matrix, neighbours: str, cells: int) -> Fraction:
    """Δ² by brute force over the neighbouring differences of the first ``cells`` cells."""
    if neighbours == "add_remove":
        return max(precision[i][i] for i in range(cells))
    return max(
        precision[i][i] + precision[j][j] - 2 * precision[i][j] for i in range(cells) for j in range(cells) if i != j
    )


@pytest.mark.parametrize("length", [2, 3, 5, 6, 7, 8, 9, 12])
@pytest.mark.parametrize("neighbours", ["add_remove", "substitution"])
def test_calibration_uses_exact_sensitivity(length: int, neighbours: str) -> None:
    padded = CorrelatedInputPerturbation.calibrate(length, epsilon=1, delta="1e-6", neighbours=neighbours, layout="pad")
    depth = (length - 1).bit_length()
    precision = linalg.inverse(cip_matrix.covariance(depth))
    assert padded.sensitivity_squared == dense_sensitivity(precision, neighbours, length)
    balanced = CorrelatedInputPerturbation.calibrate(
        length, epsilon=1, delta="1e-6", neighbours=neighbours, layout="balanced"
    )
    tree_precision = linalg.inverse(cip_general_tree.covariance(balanced_tree(length)))
    assert balanced.sensitivity_squared == dense_sensitivity(tree_precision, neighbours, length)
    for mechanism in (padded, balanced):
        # the σ used is certified sufficient for the sensitivity: δ(ε) at σ is at most δ
        assert gaussian_delta(
            epsilon=1, sigma=mechanism.calibration.sigma, sensitivity_squared=mechanism.sensitivity_squared
        ).upper <= Fraction(1, 10**6)
        assert Fraction(mechanism.sigma) >= mechanism.calibration.sigma


def test_answers_are_consistent() -> None:
    mechanism = CorrelatedInputPerturbation.calibrate(6, epsilon="1/2", delta="1e-5")
    data = np.arange(6.0)
    released = mechanism.release(data, rng=3)
    ranges = np.array([[0, 5], [1, 3], [2, 2]])
    workload = np.zeros((3, 6))
    for row, (first, last) in enumerate(ranges):
        workload[row, first : last + 1] = 1
    assert np.allclose(mechanism.answer_ranges(released, ranges), mechanism.answer(released, workload))
    assert mechanism.answer_ranges(released, ranges)[0] == pytest.approx(released.sum())


@pytest.mark.parametrize("layout", ["pad", "balanced"])
def test_release_is_unbiased(layout: str) -> None:
    # mean of 4000 releases per cell: z-test with a Bonferroni threshold; false alarm 1e-9 in total
    mechanism = CorrelatedInputPerturbation.calibrate(5, epsilon=1, delta="1e-3", layout=layout)
    rng = np.random.default_rng(11)
    data = np.array([3.0, 0.0, 7.0, 1.0, 2.0])
    draws = np.array([mechanism.release(data, rng) for _ in range(4000)])
    z = (draws.mean(axis=0) - data) / (mechanism.sigma / np.sqrt(4000))  # each cell has variance σ²
    assert np.all(2 * stats.norm.sf(np.abs(z)) > 1e-9 / 5)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: CorrelatedInputPerturbation.calibrate(0, epsilon=1, delta="0.1"), "length"),
        (lambda: CorrelatedInputPerturbation.calibrate(4, epsilon=0, delta="0.1"), "epsilon"),
        (lambda: CorrelatedInputPerturbation.calibrate(4, epsilon=1, delta="1"), "delta"),
        (lambda: CorrelatedInputPerturbation.calibrate(4, epsilon=1, delta="0.1", layout="tree"), "layout"),
        (
            lambda: CorrelatedInputPerturbation.calibrate(1, epsilon=1, delta="0.1", neighbours="substitution"),
            "substitution",
        ),
        (lambda: CorrelatedInputPerturbation.calibrate(4, epsilon=1, delta="0.1").release([1.0, 2.0]), "length 4"),
        (lambda: CorrelatedInputPerturbation.calibrate(2, epsilon=1, delta="0.1").release([1.0, np.inf]), "finite"),
        (
            lambda: CorrelatedInputPerturbation.calibrate(2, epsilon=1, delta="0.1").answer(
                [0.0, 0.0], np.ones((3, 4))
            ),
            "workload",
        ),
        (
            lambda: CorrelatedInputPerturbation.calibrate(2, epsilon=1, delta="0.1").answer_ranges(
                [0.0, 0.0], [[1, 0]]
            ),
            "first <= last",
        ),
    ],
)
def test_bad_input(call: object, message: str) -> None:
    with pytest.raises((ValueError, TypeError), match=message):
        call()  # type: ignore[operator]


def test_structured_calibrations() -> None:
    from reference.cip.calibration import calibrate_general_tree, calibrate_two_dim
    from reference.cip.exact import two_dim as cip_two_dim

    tree = balanced_tree(5)
    result = calibrate_general_tree(tree, epsilon="1/2", delta="1e-6")
    precision = linalg.inverse(cip_general_tree.covariance(tree))
    assert result.sensitivity_squared == dense_sensitivity(precision, "add_remove", 5)
    assert result.sigma_theorem_3_8 is not None and result.sigma_exact.sigma < result.sigma_theorem_3_8.lower
    grid = calibrate_two_dim(1, 2, epsilon=2, delta="1e-6", neighbours="substitution")
    kron = linalg.kron(linalg.inverse(cip_matrix.covariance(1)), linalg.inverse(cip_matrix.covariance(2)))
    assert grid.sensitivity_squared == dense_sensitivity(kron, "substitution", 8)
    assert grid.sigma_theorem_3_8 is None and "sigma_exact" in str(grid.sigma_theorem_3_8_refused)
    assert cip_two_dim.sensitivity_squared(1, 2, "add_remove") == Fraction(4, 3) * Fraction(5, 3)
    with pytest.raises(TypeError, match="tree"):
        calibrate_general_tree("not a tree", epsilon=1, delta="0.1")


def test_calibrated_stream_refuses_past_horizon() -> None:
    from reference.cip.calibration import calibrated_stream

    stream, certificate = calibrated_stream(5, epsilon=1, delta="1e-6", rng=1)
    assert Fraction(stream.sigma) >= certificate.sigma
    # Δ² of the padded release of depth 3 under add/remove is 1 + 3/3 = 2
    assert certificate.sensitivity_squared == 2
    values = [stream.next_noise() for _ in range(5)]
    assert len(values) == 5
    with pytest.raises(ValueError, match="horizon"):
        stream.next_noise()
