"""The small-depth cascade audit on blocks of runs: leaf, node and whitened statistics as exact sums.

:func:`reference.audit.samplers.audit_cascade_samples` tests leaf marginals, internal-node variances and the full
covariance (rows whitened by the exact Haar whitening of ``σ² C_depth``, then tested i.i.d. ``N(0, 1)`` by the
battery of :func:`reference.cip.whitening.whitened_normal_test`). Everything it reads is a sum over runs except
the battery's Kolmogorov–Smirnov part, which reads the pooled whitened values; here that part is taken on a fixed
grid: the ``GRID_CELLS - 1`` standard normal quantiles ``Φ⁻¹(k / GRID_CELLS)``, where the empirical distribution
function is known from integer counts. Its distance ``D_grid`` is at most the full ``D``, so the DKW bound
``P(D_grid >= d) <= P(D >= d) <= 2 exp(-2 M d²)`` is still a valid p-value (slightly less powerful between grid
points). Every other sub-test is the battery's own, on the same statistics.

:class:`CascadeSampleMoments` keeps, as exact fixed-point sums (:mod:`reference.audit.sufficient`): per leaf and
per internal node the sum of squares over ``σ²``; per whitened coordinate its sum and sum of squares; per pair of
coordinates the sum of products; and the grid counts. Memory: ``O(n²)`` (``n <= 256``), whatever the run count;
blocks in any split and any merge order give the identical statistics and verdict.
"""

from __future__ import annotations

import math

import numpy as np

from reference.audit.sufficient import FRACTION_BITS, ExactSums
from reference.cip.whitening import StatisticalCheck, haar_whitening, two_sided_chi2

#: Equal-probability cells of the grid on which the pooled whitened values are counted.
GRID_CELLS = 1024
#: Products of whitened coordinates formed at once (rows × pairs).
PRODUCT_TILE = 1 << 20


class CascadeSampleMoments:
    """Sufficient statistics of the small-depth cascade audit (module docstring)."""

    def __init__(self, depth: int, sigma: float) -> None:
        from scipy import stats

        self.depth, self.sigma = depth, sigma
        leaves = 1 << depth
        self.whitening = haar_whitening(depth, sigma)
        self.leaf_squares = ExactSums((leaves,))
        self.node_squares = ExactSums((max(leaves - 1, 0),))
        self.white_sums = ExactSums((leaves,))
        self.white_squares = ExactSums((leaves,))
        self.upper = np.triu_indices(leaves, 1)
        self.white_products = ExactSums((self.upper[0].size,))
        self.edges = stats.norm.ppf(np.arange(1, GRID_CELLS) / GRID_CELLS)
        self.below = np.zeros(GRID_CELLS - 1, dtype=np.int64)  # values <= each edge, over all runs
        self.runs = 0

    def add(self, samples: np.ndarray) -> None:
        """Consume a block of runs (``rows × 2**depth``, real; finite checked by the caller)."""
        x = np.asarray(samples, dtype=np.float64)
        leaves = 1 << self.depth
        scaled = x / self.sigma
        self.leaf_squares.add(np.multiply(scaled, scaled), scratch=True)
        nodes = [scaled.reshape(x.shape[0], 1 << level, leaves >> level).sum(axis=2) for level in range(self.depth)]
        if nodes:
            internal = np.concatenate(nodes, axis=1)
            self.node_squares.add(np.multiply(internal, internal), scratch=True)
        white = np.zeros_like(x)
        for column in range(leaves):  # elementwise, fixed order: the same numbers for any block shape
            white += x[:, column:column + 1] * self.whitening[:, column]
        self.white_sums.add(white)
        self.white_squares.add(np.multiply(white, white))
        tile = max(1, PRODUCT_TILE // max(1, self.upper[0].size))
        for start in range(0, white.shape[0], tile):
            rows = white[start:start + tile]
            self.white_products.add(np.multiply(rows[:, self.upper[0]], rows[:, self.upper[1]]), scratch=True)
        positions = np.searchsorted(self.edges, white.ravel(), side="left")  # edges[k] >= value from k on
        counts = np.bincount(positions, minlength=GRID_CELLS)[: GRID_CELLS - 1]
        self.below += np.cumsum(counts)
        self.runs += x.shape[0]

    def merge(self, other: CascadeSampleMoments) -> None:
        """Add another accumulator's runs (same depth and sigma)."""
        if (other.depth, other.sigma) != (self.depth, self.sigma):
            raise ValueError("cannot merge cascade statistics of different depth or sigma")
        for mine, theirs in ((self.leaf_squares, other.leaf_squares), (self.node_squares, other.node_squares),
                             (self.white_sums, other.white_sums), (self.white_squares, other.white_squares),
                             (self.white_products, other.white_products)):
            mine.merge(theirs)
        self.below += other.below
        self.runs += other.runs

    def whitened_check(self, alpha: float, name: str) -> StatisticalCheck:
        """The battery of :func:`reference.cip.whitening.whitened_normal_test` from the sums, the KS part on the
        grid (module docstring)."""
        from scipy import stats

        samples, dim = self.runs, 1 << self.depth
        squares, sums = self.white_squares.values(), self.white_sums.values()
        tests: list[tuple[str, float, float]] = []
        total = math.ldexp(float(self.white_squares.grand_total()), -FRACTION_BITS)
        tests.append(("total sum of squares", total, two_sided_chi2(total, samples * dim)))
        means = sums / math.sqrt(samples)
        for i in range(dim):
            tests.append((f"sum of squares of coordinate {i}", float(squares[i]), two_sided_chi2(float(squares[i]), samples)))
            tests.append((f"mean of coordinate {i}", float(means[i]), float(2.0 * stats.norm.sf(abs(means[i])))))
        products = self.white_products.values()
        for pair, (first, second) in enumerate(zip(self.upper[0].tolist(), self.upper[1].tolist())):
            r = products[pair] / math.sqrt(squares[first] * squares[second])
            t_value = r * math.sqrt((samples - 1) / max(1.0 - r * r, 1e-300))
            tests.append((f"correlation of coordinates {first}, {second}", float(t_value),
                          float(2.0 * stats.t.sf(abs(t_value), samples - 1))))
        pooled = samples * dim
        grid = np.arange(1, GRID_CELLS) / GRID_CELLS
        distance = float(np.max(np.abs(self.below / pooled - grid)))
        dkw = min(1.0, 2.0 * math.exp(-2.0 * pooled * distance**2))
        tests.append((f"Kolmogorov-Smirnov on a {GRID_CELLS}-cell grid (DKW bound)", distance, dkw))
        worst = min(tests, key=lambda item: item[2])
        combined = min(1.0, len(tests) * worst[2])
        detail = (f"{len(tests)} sub-tests; most significant: {worst[0]} = {worst[1]:.6g} (p = {worst[2]:.3g}); "
                  f"total sum of squares {total:.6g} for {samples * dim} dof")
        return StatisticalCheck(name, worst[1], combined, alpha, combined > alpha, samples, len(tests), detail)
