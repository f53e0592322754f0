"""Exact noise covariances of a linear-noise mechanism and the oracles' covariances to compare them with.

``noise_covariance`` is v·B D Bᵀ for the noise ``B z`` (v = σ² Gaussian, 2b² Laplace; D the draws' relative
variances); ``compare_covariance`` names the first entries where it differs from an oracle's. The oracles are
the papers' designs: the CIP leaves (σ² C_depth, CIP Definition 3.1), a workload over them, and KARY
Algorithm 2's outputs (2b² L Lᵀ).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from reference.audit.linear.audit import check_noise, draw_weights, exact_matrix
from reference.cip.exact import matrix as cip_matrix
from reference.core.input_types import MatrixLike
from reference.core.linalg import Matrix, from_flint, to_flint
from reference.core.options import LinearNoise
from reference.core.validate import RationalLike, check_depth, check_positive_int, positive_fraction
from reference.kary import tree as kary_tree


@dataclass(frozen=True)
class CovarianceDifference:
    """One entry where the implementation's covariance differs from the oracle's (0-based indices)."""

    row: int
    column: int
    actual: Fraction
    expected: Fraction


def noise_covariance(
    noise_matrix: MatrixLike, scale: RationalLike, noise: LinearNoise, draw_variances: Sequence[object] | None = None
) -> Matrix:
    """The exact covariance v·B D Bᵀ of ``B z``: v = σ² (Gaussian) or 2b² (Laplace); D = diag(draw_variances)
    (relative variances of the draws, all 1 by default).

    Args:
        noise_matrix: B, outputs × draws: rows of exact numbers (int, Fraction, ``"p/q"``/decimal string) or a 2-D
            numpy integer array; floats are refused.
        scale: σ (Gaussian) or b (Laplace), a positive exact rational.
        noise: ``"gaussian"`` or ``"laplace"`` (the discrete kinds are refused: their variances are irrational).
        draw_variances: the draws' relative variances d_j (draw j has variance v·d_j), positive exact numbers, one
            per column of B; None (default): all 1.

    Returns:
        The outputs × outputs covariance, exact.

    Raises:
        ValueError: a discrete noise kind, a non-positive scale or variance, or a malformed matrix.
    """
    b_matrix = exact_matrix(noise_matrix, "noise_matrix")
    kind = check_noise(noise)
    if kind not in ("gaussian", "laplace"):
        raise ValueError(
            f"noise must be gaussian or laplace for an exact covariance, got {kind!r} (the discrete laws' variances "
            "are irrational: see reference.samplers.pmf for certified enclosures)"
        )
    sc = positive_fraction(scale, "scale")
    variance = sc * sc if kind == "gaussian" else 2 * sc * sc
    draws = len(b_matrix[0])
    weights = draw_weights(draw_variances, draws) or tuple(Fraction(1) for _ in range(draws))
    scaled = tuple(tuple(entry * weight for entry, weight in zip(row, weights)) for row in b_matrix)
    product = to_flint(scaled) * to_flint(b_matrix).transpose()
    return tuple(tuple(variance * entry for entry in row) for row in from_flint(product))


def compare_covariance(
    noise_matrix: MatrixLike,
    scale: RationalLike,
    noise: LinearNoise,
    oracle_covariance: MatrixLike,
    *,
    draw_variances: Sequence[object] | None = None,
    limit: int = 10,
) -> tuple[CovarianceDifference, ...]:
    """The first ``limit`` entries (row-major) where :func:`noise_covariance` differs from the oracle; empty
    when they agree exactly.

    Args:
        noise_matrix: B, outputs × draws, as in :func:`noise_covariance`.
        scale: σ (Gaussian) or b (Laplace), a positive exact rational.
        noise: ``"gaussian"`` or ``"laplace"``.
        oracle_covariance: the oracle's covariance, outputs × outputs, exact entries as in ``noise_matrix``.
        draw_variances: the draws' relative variances, as in :func:`noise_covariance`; None (default): all 1.
        limit: the most differences returned, a positive integer (default 10).

    Raises:
        ValueError: the oracle's shape differs from outputs × outputs, or an input is malformed.
    """
    actual = noise_covariance(noise_matrix, scale, noise, draw_variances)
    expected = exact_matrix(oracle_covariance, "oracle_covariance")
    if len(expected) != len(actual) or len(expected[0]) != len(actual):
        raise ValueError(
            f"oracle_covariance is {len(expected)}x{len(expected[0])}, the noise has {len(actual)} outputs"
        )
    limit = check_positive_int(limit, "limit")
    found: list[CovarianceDifference] = []
    for i, (row_a, row_e) in enumerate(zip(actual, expected)):
        for j, (a, e) in enumerate(zip(row_a, row_e)):
            if a != e:
                found.append(CovarianceDifference(i, j, a, e))
                if len(found) >= limit:
                    return tuple(found)
    return tuple(found)


# ------------------------------------------------------------------------------------------- oracles


def cip_leaf_covariance_oracle(depth: int, sigma: RationalLike) -> Matrix:
    """σ² C_depth: the CIP leaves' noise covariance (Definition 3.1).

    Args:
        depth: the CIP tree depth d, 0 <= d <= 12 (2^d leaves).
        sigma: the noise standard deviation σ, a positive exact rational.

    Returns:
        The 2^d × 2^d exact covariance.
    """
    d = check_depth(depth, maximum=12)
    sig = positive_fraction(sigma, "sigma")
    return tuple(tuple(sig * sig * entry for entry in row) for row in cip_matrix.covariance(d))


def cip_workload_covariance_oracle(depth: int, sigma: RationalLike, workload: MatrixLike) -> Matrix:
    """σ² W C_depth Wᵀ: the covariance of a workload's answers computed from the CIP leaves.

    Args:
        depth: the CIP tree depth d, 0 <= d <= 12.
        sigma: the noise standard deviation σ, a positive exact rational.
        workload: W, queries × 2^d leaves: rows of exact numbers or a 2-D numpy integer array.

    Returns:
        The queries × queries exact covariance.

    Raises:
        ValueError: ``workload`` does not have one column per leaf.
    """
    d = check_depth(depth, maximum=12)
    w = exact_matrix(workload, "workload")
    if len(w[0]) != 1 << d:
        raise ValueError(f"workload must have {1 << d} columns (one per leaf), got {len(w[0])}")
    leaves = to_flint(cip_leaf_covariance_oracle(d, sigma))
    wf = to_flint(w)
    return from_flint(wf * leaves * wf.transpose())


def kary_algorithm_2_covariance_oracle(arity: int, height: int, scale: RationalLike) -> Matrix:
    """2b² L Lᵀ: the covariance of Algorithm 2's T outputs (T = the offset capacity) with Laplace(b) noise.

    Args:
        arity: the tree's arity k >= 2.
        height: the tree's height h, 1 <= h <= 64 (T is the offset capacity of height h).
        scale: the Laplace scale b, a positive exact rational.

    Returns:
        The T × T exact covariance.
    """
    return kary_tree.output_covariance(arity, height, scale, subtraction=True)


def kary_prefix_workload(horizon: int) -> Matrix:
    """The T×T lower-triangular all-ones matrix (prefix sums): the continual-counting workload.

    Args:
        horizon: the number of steps T, a positive integer.
    """
    steps = check_positive_int(horizon, "horizon")
    one, zero = Fraction(1), Fraction(0)  # shared (Fractions are immutable): a million entries at T = 1,000
    return tuple((one,) * (i + 1) + (zero,) * (steps - i - 1) for i in range(steps))
