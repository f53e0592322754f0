"""Whitening of correlated Gaussian noise, and a rigorous test that whitened draws are i.i.d. N(0, 1).

A sample of ``N(0, σ² M)`` becomes i.i.d. standard normal under a whitening matrix ``W`` with
``W (σ² M) Wᵀ = I``. :func:`haar_whitening` builds ``W`` for CIP's ``C_depth`` from its Haar eigenbasis (each
eigenvector checked exactly), :func:`ldl_whitening` for any symmetric positive definite rational ``M`` from its
exact ``L D Lᵀ`` factorisation. :func:`whitened_normal_test` then tests the whitened rows with a battery of
exact or rigorously bounded tests combined by a union bound, so the stated false-alarm probability is a true
upper bound. The sampler audits (:mod:`reference.audit.samples.audit`) and CIP's cross-checks use them.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from reference.cip.exact import matrix as cip_matrix
from reference.core.linalg import Matrix
from reference.core.statistical_check import StatisticalCheck
from reference.core.validate import check_depth, positive_real

#: Default false-alarm probability of one statistical check (the test suite runs at most 100 of them).
DEFAULT_ALPHA = 1e-9


def haar_whitening(depth: int, sigma: float) -> np.ndarray:
    """The ``n x n`` matrix ``W`` with ``W (sigma**2 C_depth) W^T = I``, from the Haar basis of C_depth.

    Each unnormalised Haar vector ``h`` of :func:`reference.cip.exact.matrix.haar_vectors` is checked to be an
    exact eigenvector (``C h == lambda h`` in rationals) and its row of ``W`` is ``h / sqrt(|h|^2 sigma**2
    lambda)``. Only the final square root and division are rounded (relative error a few ``u``).

    Args:
        depth: the cascade's depth, an integer in [0, 12] (W is 2**depth × 2**depth; the exact C_depth is
            built).
        sigma: the noise standard deviation σ > 0 (not σ²), a finite real (float, int, Fraction or a string
            such as ``"1/3"``), used as a float.
    """
    depth = check_depth(depth, "depth", maximum=cip_matrix.MAX_DENSE_DEPTH)
    sigma = positive_real(sigma, "sigma")
    matrix = cip_matrix.covariance(depth)
    rows = []
    for _, vector in cip_matrix.haar_vectors(depth):
        image = [sum((a * b for a, b in zip(row, vector, strict=True) if b), Fraction(0)) for row in matrix]
        support = next(t for t, v in enumerate(vector) if v != 0)
        eigenvalue = image[support] / vector[support]
        if any(image[t] != eigenvalue * vector[t] for t in range(len(vector))) or eigenvalue <= 0:
            raise ArithmeticError("a Haar vector is not an eigenvector of C_depth with a positive eigenvalue")
        norm_squared = sum(v * v for v in vector)
        scale = 1.0 / (sigma * math.sqrt(norm_squared * eigenvalue))
        rows.append([float(v) * scale for v in vector])
    return np.array(rows, dtype=np.float64)


def ldl_whitening(matrix: Matrix, sigma: float) -> np.ndarray:
    """The matrix ``W = D**-1/2 L**-1 / sigma`` with ``W (sigma**2 M) W^T = I``, from the exact factorisation
    ``M = L D L^T`` (``L`` unit lower triangular, ``D`` diagonal), computed and verified in rationals.

    Raises ``ValueError`` if ``M`` is not symmetric positive definite.

    Args:
        matrix: M, a symmetric positive definite square exact matrix (rows of Fractions) whose noise is
            ``N(0, σ² M)``; anything else raises ``ValueError``.
        sigma: the noise standard deviation σ > 0 (not σ²), a finite real (float, int, Fraction or a string
            such as ``"1/3"``), used as a float.
    """
    sigma = positive_real(sigma, "sigma")
    size = len(matrix)
    lower = [[Fraction(int(i == j)) for j in range(size)] for i in range(size)]
    diag: list[Fraction] = []
    for j in range(size):
        pivot = matrix[j][j] - sum((lower[j][k] ** 2 * diag[k] for k in range(j)), Fraction(0))
        if pivot <= 0:
            raise ValueError("matrix must be symmetric positive definite (a pivot of its LDL^T is <= 0)")
        diag.append(pivot)
        for i in range(j + 1, size):
            lower[i][j] = (
                matrix[i][j] - sum((lower[i][k] * lower[j][k] * diag[k] for k in range(j)), Fraction(0))
            ) / pivot
    for i in range(size):
        for j in range(size):
            rebuilt = sum((lower[i][k] * diag[k] * lower[j][k] for k in range(min(i, j) + 1)), Fraction(0))
            if rebuilt != matrix[i][j]:
                raise ValueError("matrix must be symmetric (L D L^T does not reproduce it)")
    # Forward substitution for L^{-1}, exactly (L is unit lower triangular).
    inverse = [[Fraction(0)] * size for _ in range(size)]
    for j in range(size):
        inverse[j][j] = Fraction(1)
        for i in range(j + 1, size):
            inverse[i][j] = -sum((lower[i][k] * inverse[k][j] for k in range(j, i)), Fraction(0))
    rows = []
    for i in range(size):
        scale = 1.0 / (sigma * math.sqrt(diag[i]))
        rows.append([float(inverse[i][j]) * scale for j in range(size)])
    return np.array(rows, dtype=np.float64).reshape(size, size)


def two_sided_chi2(value: float, dof: int) -> float:
    """Two-sided p-value of a chi-square statistic with ``dof`` degrees of freedom (exact under the null).

    Args:
        value: the chi-square statistic, a float >= 0.
        dof: its degrees of freedom, an integer >= 1.
    """
    from scipy import stats  # imported here: scipy.stats costs ~0.6 s at import time

    return float(min(1.0, 2.0 * min(stats.chi2.cdf(value, dof), stats.chi2.sf(value, dof))))


def whitened_normal_test(
    white: np.ndarray, alpha: float = DEFAULT_ALPHA, name: str = "i.i.d. N(0,1)"
) -> StatisticalCheck:
    """Test that the rows of ``white`` (shape ``(samples, dim)``) are i.i.d. ``N(0, I_dim)``.

    Sub-tests, each with an exact null distribution (or a rigorous bound) when the null holds:

    * the total sum of squares is chi-square with ``samples * dim`` degrees of freedom (two-sided);
    * per coordinate, the sum of squares is chi-square with ``samples`` dof (two-sided), and
      ``sum / sqrt(samples)`` is standard normal (two-sided);
    * per pair of coordinates, the uncentred correlation ``r`` gives ``r sqrt((samples-1)/(1-r^2))``, which is
      Student t with ``samples - 1`` dof exactly (given one column, the other's projection on it is N(0, 1)
      and independent of the chi-square residual);
    * the pooled values against the N(0, 1) distribution function: Kolmogorov–Smirnov distance ``D`` with the
      Dvoretzky–Kiefer–Wolfowitz–Massart bound ``P(D >= d) <= 2 exp(-2 M d^2)`` as a conservative p-value.

    The p-values are combined by the union bound, so the false-alarm probability is at most ``alpha``.

    Args:
        white: the whitened draws, a 2-D float array of shape ``(samples, dim)`` with at least 2 rows and 1
            column.
        alpha: the false-alarm probability of the whole battery, a float in (0, 1) (default 1e-9): under the
            null the check fails with probability at most ``alpha``.
        name: the check's name in the returned :class:`StatisticalCheck` and its summary line (default
            ``"i.i.d. N(0,1)"``).
    """
    from scipy import stats  # imported here: scipy.stats costs ~0.6 s at import time
    if not isinstance(white, np.ndarray) or white.ndim != 2 or white.shape[0] < 2 or white.shape[1] < 1:
        raise ValueError("white must be a 2-D array with at least 2 rows (samples) and 1 column")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    samples, dim = white.shape
    tests: list[tuple[str, float, float]] = []  # (description, statistic, p-value)

    total = float(np.sum(white * white))
    tests.append(("total sum of squares", total, two_sided_chi2(total, samples * dim)))

    squares = np.sum(white * white, axis=0)
    means = np.sum(white, axis=0) / math.sqrt(samples)
    for i in range(dim):
        square_p = two_sided_chi2(float(squares[i]), samples)
        tests.append((f"sum of squares of coordinate {i}", float(squares[i]), square_p))
        tests.append((f"z statistic of the mean of coordinate {i}", float(means[i]),
                      float(2.0 * stats.norm.sf(abs(means[i])))))

    gram = white.T @ white
    for i in range(dim):
        for j in range(i + 1, dim):
            r = gram[i, j] / math.sqrt(gram[i, i] * gram[j, j])
            t_value = r * math.sqrt((samples - 1) / max(1.0 - r * r, 1e-300))
            p = float(2.0 * stats.t.sf(abs(t_value), samples - 1))
            tests.append((f"t statistic of the correlation of coordinates {i}, {j}", t_value, p))

    pooled = white.ravel()
    distance = float(stats.kstest(pooled, "norm").statistic)
    dkw = min(1.0, 2.0 * math.exp(-2.0 * pooled.size * distance**2))
    tests.append(("Kolmogorov-Smirnov (DKW bound)", distance, dkw))

    worst = min(tests, key=lambda item: item[2])
    combined = min(1.0, len(tests) * worst[2])
    detail = (
        f"{len(tests)} sub-tests; most significant: {worst[0]} = {worst[1]:.6g} (p = {worst[2]:.3g}); "
        f"total sum of squares {total:.6g} for {samples * dim} dof"
    )
    return StatisticalCheck.by_p_value(name=name, statistic=worst[1], p_value=combined, false_alarm=alpha,
                                       samples=samples, detail=detail, subtests=len(tests))
