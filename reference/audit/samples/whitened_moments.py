"""The small-depth cascade audit on blocks of runs: leaf, node and whitened statistics as exact sums.

:func:`reference.audit.samples.audit.audit_cascade_samples` tests leaf marginals, internal-node variances and the full
covariance (rows whitened by the exact Haar whitening of ``σ² C_depth``, then tested i.i.d. ``N(0, 1)`` by the
battery of :func:`reference.cip.whitening.whitened_normal_test`). Everything it reads is a sum over runs except
the battery's Kolmogorov–Smirnov part, which reads the pooled whitened values; here that part is taken on a fixed
grid: the ``GRID_CELLS - 1`` standard normal quantiles ``Φ⁻¹(k / GRID_CELLS)``, where the empirical distribution
function is known from integer counts. Its distance ``D_grid`` is at most the full ``D``, so the DKW bound
``P(D_grid >= d) <= P(D >= d) <= 2 exp(-2 M d²)`` is still a valid p-value (slightly less powerful between grid
points). Every other sub-test is the battery's own, on the same statistics.

:class:`CascadeSampleMoments` keeps, as exact fixed-point sums (:mod:`reference.audit.samples.sufficient`): per leaf and
per internal node the sum of squares over ``σ²``; the grid counts; the streamed audit's
:class:`reference.audit.samples.cascade_stream.CascadeMoments` (for the pooled scale test); and for the whitened coordinates ``w`` (formed
from node sums, the Haar rows being ``±c`` on the halves of a node) rounded once to ``q = w`` on the grid
``2**-WHITE_BITS``, the sums ``Σ q_i`` and the Gram matrix ``Σ q_i q_j`` — the latter by matrix products, which are
exact because every product and partial sum of these integer-valued floats is an integer below ``2**53``
(:func:`reference.audit.samples.sufficient.exact_gram`), whatever order the BLAS adds in. Memory: ``O(n²)``
(``n <= 256``), whatever the run count; blocks in any split and any merge order give the identical statistics and
verdict.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from reference.audit.samples.cascade_stream import CascadeMoments
from reference.audit.samples.sufficient import ExactSums, exact_gram
from reference.cip.whitening import haar_whitening, two_sided_chi2
from reference.core.statistical_check import StatisticalCheck

#: Equal-probability cells of the grid on which the pooled whitened values are counted.
GRID_CELLS = 1024
#: Fractional bits of the grid the whitened values are rounded to before their sums and products are taken.
WHITE_BITS = 16


@lru_cache(maxsize=8)
def cascade_whitening(depth: int, sigma: float) -> np.ndarray:
    """The Haar whitening (its exact eigenvector checks cost seconds at depth 8), once per (depth, σ); read-only.

    Args:
        depth: the cascade's depth, an integer >= 0 (n = 2**depth leaves).
        sigma: the claimed σ > 0 (standard deviation, not σ²), as a float.

    Returns:
        W, an (n, n) float array with ``W (σ² C_depth) Wᵀ = I``, not writeable.
    """
    matrix = haar_whitening(depth, sigma)
    matrix.setflags(write=False)
    return matrix


def _haar_structure(whitening: np.ndarray, depth: int) -> list[tuple[int, int, int, float]]:
    """(row, level, position, c) per row of the Haar whitening: ``c`` on the left half of node (level, position)'s
    leaves and ``−c`` on the right half (level −1: the root's row, ``c`` on every leaf). Checked against the matrix
    entry by entry (``ArithmeticError`` if a row has another shape)."""
    leaves = 1 << depth
    structure = []
    for row, vector in enumerate(whitening):
        support = np.flatnonzero(vector)
        start, width = int(support[0]), int(support.size)
        coefficient = float(vector[start])
        if width == leaves and np.all(vector == coefficient):
            structure.append((row, -1, 0, coefficient))
            continue
        level = depth - (width.bit_length() - 1)
        expected = np.zeros(leaves)
        expected[start:start + width // 2] = coefficient
        expected[start + width // 2:start + width] = -coefficient
        if width & (width - 1) or start % width or not np.array_equal(vector, expected):
            raise ArithmeticError("a row of the Haar whitening is not ±c on the two halves of a dyadic interval")
        structure.append((row, level, start // width, coefficient))
    return structure


class CascadeSampleMoments:
    """Sufficient statistics of the small-depth cascade audit (module docstring).

    Args:
        depth: the cascade's depth, an integer >= 0 (``2**depth`` leaves; the whitened tests are quadratic in
            them: the audits allow up to 8), already checked by the caller.
        sigma: the claimed σ > 0 of every node (standard deviation, not σ²), as a float, already checked.
    """

    def __init__(self, depth: int, sigma: float) -> None:
        from scipy import stats

        self.depth, self.sigma = depth, sigma
        leaves = 1 << depth
        self.whitening = cascade_whitening(depth, sigma)
        self.leaf_squares = ExactSums((leaves,))
        self.node_squares = ExactSums((max(leaves - 1, 0),))
        self.haar = _haar_structure(self.whitening, depth)
        self.white_sums = ExactSums((leaves,), WHITE_BITS)
        self.pairs = np.triu_indices(leaves)  # i <= j: the squares on the diagonal too
        self.white_gram = ExactSums((self.pairs[0].size,), 2 * WHITE_BITS)  # Σ q_i q_j, q = w on 2**-WHITE_BITS
        self.edges = stats.norm.ppf(np.arange(1, GRID_CELLS) / GRID_CELLS)
        # the pooled scale test's statistic, accumulated by the streamed audit's own code
        self.scale = CascadeMoments(depth, sigma)
        self.below = np.zeros(GRID_CELLS - 1, dtype=np.int64)  # values <= each edge, over all runs
        self.runs = 0

    def add(self, samples: np.ndarray) -> None:
        """Consume a block of runs (``rows × 2**depth``, real; finite checked by the caller).

        Args:
            samples: a block of runs, shape (rows, 2**depth), real and finite, one run per row.
        """
        x = np.asarray(samples, dtype=np.float64)
        leaves = 1 << self.depth
        scaled = x / self.sigma
        self.leaf_squares.add(np.multiply(scaled, scaled), scratch=True)
        nodes = [scaled.reshape(x.shape[0], 1 << level, leaves >> level).sum(axis=2) for level in range(self.depth)]
        if nodes:
            internal = np.concatenate(nodes, axis=1)
            self.node_squares.add(np.multiply(internal, internal), scratch=True)
        white = self.whiten(x)
        self.white_sums.add(white)  # each value rounded to 2**-WHITE_BITS, added exactly
        exact_gram(self.white_gram, white, WHITE_BITS, self.pairs)  # Σ q_i q_j, i <= j, exactly
        positions = np.searchsorted(self.edges, white.ravel(), side="left")  # edges[k] >= value from k on
        counts = np.bincount(positions, minlength=GRID_CELLS)[: GRID_CELLS - 1]
        self.below += np.cumsum(counts)
        self.scale.add(x)
        self.runs += x.shape[0]

    def merge(self, other: CascadeSampleMoments) -> None:
        """Add another accumulator's runs (same depth and sigma).

        Args:
            other: the statistics of other runs (another block), of the same depth and σ.

        Raises:
            ValueError: ``other`` has another depth or σ.
        """
        if (other.depth, other.sigma) != (self.depth, self.sigma):
            raise ValueError("cannot merge cascade statistics of different depth or sigma")
        for mine, theirs in ((self.leaf_squares, other.leaf_squares), (self.node_squares, other.node_squares),
                             (self.white_sums, other.white_sums), (self.white_gram, other.white_gram)):
            mine.merge(theirs)
        self.below += other.below
        self.scale.merge(other.scale)
        self.runs += other.runs

    def whiten(self, x: np.ndarray) -> np.ndarray:
        """``x Wᵀ`` from the Haar structure of ``W``: each row of ``W`` is ``c`` on the left half of a node's leaves
        and ``−c`` on the right half (the root's row: ``c`` on all), so the whitened coordinate is ``c (L − R)`` of
        the node's children sums (``c`` times the root sum). O(n) per run instead of O(n²), and elementwise: the
        same numbers for any block shape.

        Args:
            x: runs of leaves, a real (rows, 2**depth) array (not divided by σ: W holds the 1/σ).

        Returns:
            The whitened runs, a float64 (rows, 2**depth) array: i.i.d. N(0, 1) entries under the claim.
        """
        sums = [np.asarray(x, dtype=np.float64)]  # sums[j]: the node sums of level depth - j
        while sums[-1].shape[1] > 1:
            sums.append(sums[-1][:, 0::2] + sums[-1][:, 1::2])
        white = np.empty_like(sums[0])
        for row, level, position, coefficient in self.haar:
            if level < 0:
                white[:, row] = coefficient * sums[-1][:, 0]
            else:
                children = sums[self.depth - level - 1]
                white[:, row] = coefficient * (children[:, 2 * position] - children[:, 2 * position + 1])
        return white

    def whitened_check(self, alpha: float, name: str) -> StatisticalCheck:
        """The battery of :func:`reference.cip.whitening.whitened_normal_test` from the sums, the KS part on the
        grid (module docstring).

        Args:
            alpha: the battery's false-alarm probability, in (0, 1) (union bound over its sub-tests).
            name: the check's name in the report (e.g. ``"whitened covariance sigma^2 C_3"``).

        Returns:
            The battery's check: total sum of squares, per-coordinate squares and means, pairwise correlations
            and the Kolmogorov–Smirnov grid test.
        """
        from scipy import stats

        samples, dim = self.runs, 1 << self.depth
        sums = self.white_sums.values()
        gram = np.zeros((dim, dim))
        gram[self.pairs] = self.white_gram.values()
        squares = np.diag(gram).copy()
        tests: list[tuple[str, float, float]] = []
        diagonal = self.white_gram.total[self.pairs[0] == self.pairs[1]]
        total = math.ldexp(float(sum(int(v) for v in diagonal)), -2 * WHITE_BITS)
        tests.append(("total sum of squares", total, two_sided_chi2(total, samples * dim)))
        means = sums / math.sqrt(samples)
        square_p = 2.0 * np.minimum(stats.chi2.cdf(squares, samples), stats.chi2.sf(squares, samples))
        mean_p = 2.0 * stats.norm.sf(np.abs(means))
        for i in range(dim):  # vectorised p-values, the battery's order of sub-tests
            tests.append((f"sum of squares of coordinate {i}", float(squares[i]), float(min(1.0, square_p[i]))))
            tests.append((f"z statistic of the mean of coordinate {i}", float(means[i]), float(mean_p[i])))
        first, second = np.triu_indices(dim, 1)
        r = gram[first, second] / np.sqrt(squares[first] * squares[second])
        t_values = r * np.sqrt((samples - 1) / np.maximum(1.0 - r * r, 1e-300))
        pair_p = 2.0 * stats.t.sf(np.abs(t_values), samples - 1)
        for index, (i, j) in enumerate(zip(first.tolist(), second.tolist())):
            tests.append((f"t statistic of the correlation of coordinates {i}, {j}", float(t_values[index]),
                          float(pair_p[index])))
        pooled = samples * dim
        grid = np.arange(1, GRID_CELLS) / GRID_CELLS
        distance = float(np.max(np.abs(self.below / pooled - grid)))
        dkw = min(1.0, 2.0 * math.exp(-2.0 * pooled * distance**2))
        tests.append((f"Kolmogorov-Smirnov on a {GRID_CELLS}-cell grid (DKW bound)", distance, dkw))
        worst = min(tests, key=lambda item: item[2])
        combined = min(1.0, len(tests) * worst[2])
        detail = (f"{len(tests)} sub-tests; most significant: {worst[0]} = {worst[1]:.6g} (p = {worst[2]:.3g}); "
                  f"total sum of squares {total:.6g} for {samples * dim} dof")
        return StatisticalCheck.by_p_value(name=name, statistic=worst[1], p_value=combined, false_alarm=alpha,
                                           samples=samples, detail=detail, subtests=len(tests))
