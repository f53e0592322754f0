"""Cascade Sampling samples at any depth, streamed: exact chi-square tests in memory bounded by one block of runs.

Under the oracle (CIP Theorem 3.3 and Equation (2)) every node of the binary tree over the ``n = 2**depth`` leaves
— the sum of the leaves below it — is ``N(0, σ²)``, and the two children ``L``, ``R`` of a node have covariance
``−σ²/2``. Hence ``L − R`` is ``N(0, 3σ²)`` (``2σ² − 2·(−σ²/2)``), and over independent runs

* ``Σ node² / σ²`` is chi-square with ``runs`` degrees of freedom for each of the ``2n − 1`` nodes (leaves
  included): the *node variances*;
* ``Σ (L − R)² / (3σ²)`` is chi-square with ``runs`` degrees of freedom for each of the ``n − 1`` internal nodes: the
  *sibling covariances* (a covariance off by c·σ² moves the variance of L − R by −2cσ²).

Both are exact two-sided tests. So is the *pooled scale* test: the root and the sibling differences are (up to
scale) the Haar coefficients of the leaves, independent under the oracle, so ``root²/σ² + Σ (L − R)²/(3σ²)`` over
all runs is chi-square with ``runs × n`` degrees of freedom — one test that sees a scale error common to all nodes
(a variance passed for σ, say) with every value drawn. Beside these second moments, a family test: the counts of
Haar coefficients above fixed magnitudes, exact binomial tests (:mod:`reference.audit.samples.magnitude_cells`),
see a law of the right covariance but the wrong shape (Laplace, uniform, heavy tails). ``alpha`` is split evenly
a quarter to the pooled scale test, the rest over the other second-moment tests and the binomial tests (union
bound, :func:`stream_levels`). Together they
pin the whole covariance ``σ² C_depth`` (node variances and sibling covariances determine the Haar coefficients'
variances), not only the leaves' marginals.

The samples (``runs × n``, ``.npy``) are read ``block_runs`` runs at a time through a memory map into
:class:`CascadeMoments`, which holds three exact sums per node (``O(n)``, :mod:`reference.audit.samples.sufficient`: each
squared value rounded to a fixed-point grid, then added as integers, so the verdict is the same for any block size
and any order of blocks; the sibling sums hold ``(L − R)²`` and are divided by 3 exactly when read); a block is
summed level by level in place and in cache-sized tiles (:mod:`reference.audit.samples.cascade_fold`), so the peak memory
is a small multiple of one block (measured in the tests). Power: a noise scale off by a factor ``1 + r`` is
detected with probability 99% once ``(1 + r)² q_0.01 >= q_hi`` (``q_0.01`` the 1% quantile of chi-square(runs),
``q_hi`` the test's upper critical value), and symmetrically below: :func:`reference.audit.samples.report.chi_square_scale_power`.
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import numpy as np

from reference.audit.samples.cascade_fold import EXACT_TOTAL, KEPT_VALUES, fold_block, total_offsets, work_space
from reference.audit.samples.magnitude_cells import CUTS, count_above, magnitude_check, squared_cuts
from reference.audit.samples.report import (
    PropertyCheck,
    SamplerAuditReport,
    TooFewRunsError,
    cascade_scale_power,
    check_alpha,
    chi_square_critical,
    chi_square_scale_power,
    listed_failures,
    pooled_scale_check,
)
from reference.audit.samples.sufficient import FRACTION_BITS, GRID_ROOT, ExactSums
from reference.core.exact_text import message_value
from reference.core.npy_files import load_npy
from reference.core.validate import RealLike, check_depth, positive_real

#: Largest depth accepted (2**26 leaves: 512 MiB per run in float64).
MAX_STREAM_DEPTH = 26
#: Default number of runs read at a time.
DEFAULT_BLOCK_RUNS = 64


def open_cascade_samples(samples: object) -> np.ndarray:
    """The cascade runs as a 2-D real array: a ``.npy`` path is memory-mapped (read through the bounded reader),
    an array is taken as it is.

    Args:
        samples: anything the caller was given: accepted when a path (str or Path) to a ``.npy`` file, or a numpy
            array, of shape ``(runs, leaves)``.

    Raises:
        ValueError: naming ``samples`` when the path is not an existing ``.npy`` file or the array is not 2-D.
        TypeError: naming ``samples`` when it is neither a path nor a real numpy array.
    """
    if isinstance(samples, (str, Path)):
        path = Path(samples)
        if path.suffix.lower() != ".npy" or not path.is_file():
            raise ValueError(f"samples must be an existing .npy file for the streamed audit, got {str(path)!r}")
        array = load_npy(path, "samples", mmap=True)
    elif isinstance(samples, np.ndarray):
        array = samples
    else:
        raise TypeError(f"samples must be a .npy path or a numpy array, got {type(samples).__name__}")
    if array.ndim != 2:
        raise ValueError(f"samples must be 2-D (runs × leaves), got shape {array.shape}")
    if not (np.issubdtype(array.dtype, np.floating) or np.issubdtype(array.dtype, np.integer)):
        raise TypeError(f"samples must be a real array, got dtype {array.dtype}")
    return array


def _log_distance(ratio: float) -> float:
    """``|log ratio|``, infinite for a zero ratio (every run's rounded square 0: possible with very few runs)."""
    return abs(math.log(ratio)) if ratio > 0 else math.inf


def _most_extreme(ratios: np.ndarray) -> float:
    """The ratio of largest ``|log ratio|`` (the first in order on a tie), as ``argmax |log ratios|`` picks it:
    ``|log|`` falls below 1 and rises above it, so that ratio is the smallest or the largest — two passes without
    a temporary instead of a logarithm of every node (about 40 ms at depth 20)."""
    low_at, high_at = int(np.argmin(ratios)), int(np.argmax(ratios))
    with np.errstate(divide="ignore"):  # a zero ratio is infinitely far: log gives -inf
        low, high = np.abs(np.log(ratios[[low_at, high_at]]))
    if low != high:
        return float(ratios[low_at] if low > high else ratios[high_at])
    return float(ratios[min(low_at, high_at)])


class CascadeMoments:
    """The sufficient statistics of the streamed tests: per node ``Σ node² / σ²`` and per internal node
    ``Σ (L − R)² / (3σ²)`` over the runs seen, as exact fixed-point sums
    (:class:`reference.audit.samples.sufficient.ExactSums`), so any split of the runs into blocks and any order of
    :meth:`merge` gives the same statistics and verdict. Memory: three numbers per node, whatever the run count.

    Args:
        depth: the cascade's depth, an integer in [0, :data:`MAX_STREAM_DEPTH`] (``2**depth`` leaves per run).
        sigma: the claimed σ > 0, the standard deviation of every node (not σ²); an int, float, Fraction or
            string such as ``"3/2"``, used as a float.
    """

    def __init__(self, depth: int, sigma: RealLike) -> None:
        self.depth = check_depth(depth, "depth", maximum=MAX_STREAM_DEPTH)
        self.sigma = positive_real(sigma, "sigma")
        self.runs = 0
        # nodes[level] has 2**level entries (level 0 = root ... depth = leaves); siblings likewise for levels < depth
        self._nodes = [ExactSums((1 << level,)) for level in range(self.depth + 1)]
        # Σ (L − R)² / 3: the squares summed exactly, divided by 3 when read (ExactSums' divisor)
        self._siblings = [ExactSums((1 << level,), divisor=3) for level in range(self.depth)]
        # the blocks' totals not yet added to the exact sums: float64 integers (laid out by total_offsets) whose
        # sum stays exact while the sum of the blocks' maxima stays below 2**52; added by _flush when read
        self._pending: np.ndarray | None = None
        self._pending_peak = 0
        # the whole-law part: counts of the leaves' sibling Haar coefficients |w| above the cuts
        # (reference.audit.samples.magnitude_cells); in the scaled units of the sums, w² = (L − R)² / (3 GRID_ROOT²)
        self._thresholds = squared_cuts(3.0 * GRID_ROOT * GRID_ROOT)
        self.above = np.zeros(len(CUTS), dtype=np.int64)

    def __getstate__(self) -> dict[str, object]:
        """The statistics with the pending totals added (what a worker process sends back)."""
        self._flush()
        return self.__dict__

    @property
    def nodes(self) -> list[ExactSums]:
        """``nodes[level]``: the exact sums of ``node² / σ²`` of the ``2**level`` nodes of ``level`` (0 = root)."""
        self._flush()
        return self._nodes

    @property
    def siblings(self) -> list[ExactSums]:
        """``siblings[level]``: the exact sums of ``(L − R)² / (3σ²)`` for the children of level ``level``."""
        self._flush()
        return self._siblings

    def _flush(self) -> None:
        """Add the pending totals to the exact sums; their array goes back to the thread's work space, which
        drops its large arrays (the sums are being read: the blocks are most likely done)."""
        space = work_space()
        if self._pending is not None:
            self._add_totals(self._pending, self._pending_peak)
            if self._pending.size <= KEPT_VALUES:
                space.give("totals", self._pending)
            self._pending, self._pending_peak = None, 0
        space.trim(KEPT_VALUES)

    def _add_totals(self, totals: np.ndarray, peak: int) -> None:
        """Add totals laid out by :func:`reference.audit.samples.cascade_fold.total_offsets` (float64 integers below
        2**52, at most ``peak``: converted to int64 exactly) to the exact sums, level by level."""
        nodes, siblings = total_offsets(self.depth)
        for level, start in enumerate(nodes):
            self._nodes[level].add_integers(totals[start:start + (1 << level)].astype(np.int64), peak)
        for level, start in enumerate(siblings):
            self._siblings[level].add_integers(totals[start:start + (1 << level)].astype(np.int64), peak)

    def add(self, samples: np.ndarray) -> None:
        """Consume a block of runs (``rows × 2**depth``, real, finite): its sums by
        :func:`reference.audit.samples.cascade_fold.fold_block`, or by :meth:`_add_scaled_exactly` (Python integers where
        needed) when a sum leaves the exact float range.

        Args:
            samples: a block of runs, shape (runs, 2**depth), real and finite (one row per run, the leaves in order).

        Raises:
            ValueError: ``samples`` is not of that shape or holds NaN or infinity.
        """
        leaves = 1 << self.depth
        if samples.ndim != 2 or samples.shape[1] != leaves:
            raise ValueError(f"samples must have shape (runs, 2**depth = {leaves}), got {samples.shape}")
        if samples.shape[0] == 0:
            return
        # the values in the grid's root units: their squares are then directly in units of the grid
        scale = GRID_ROOT / self.sigma
        space = work_space()
        counts = np.zeros(len(CUTS), dtype=np.int64)
        folded = fold_block(samples, scale, self.depth, space, (self._thresholds, counts))
        if folded is not None:
            self.above += counts
        if folded is None:  # huge or non-finite values
            block = np.multiply(samples, scale, dtype=np.float64)
            if not np.all(np.isfinite(block)):
                raise ValueError(f"samples must be finite (no NaN or infinity); runs {self.runs}.."
                                 f"{self.runs + len(block) - 1}")
            self._add_scaled_exactly(block)
        else:
            totals, peak = folded
            if totals.size > KEPT_VALUES:  # deep trees: no second copy of the totals, added block by block
                self._add_totals(totals, peak)
            elif self._pending is not None and self._pending_peak + peak < EXACT_TOTAL:
                np.add(self._pending, totals, out=self._pending)  # integers, every sum below 2**52: exact
                self._pending_peak += peak
            else:
                self._flush()
                self._pending, self._pending_peak = space.take("totals", totals), peak
        self.runs += samples.shape[0]

    def _add_scaled_exactly(self, block: np.ndarray) -> None:
        """The reference computation of the sums :func:`reference.audit.samples.cascade_fold.fold_block` forms, for any
        finite values ``block`` (already times the scale; Python integers where the squares leave the float range):
        each level's squares through :meth:`ExactSums.add_grid_nonnegative`."""
        for level in range(self.depth, -1, -1):
            self._nodes[level].add_grid_nonnegative(np.multiply(block, block))
            if level == 0:
                break
            left, right = block[:, 0::2], block[:, 1::2]
            difference = left - right
            squares = np.multiply(difference, difference, out=difference)
            if level == self.depth:  # the leaves' siblings, as the fold counts them; before they are rounded
                count_above(squares, self._thresholds, self.above)
            self._siblings[level - 1].add_grid_nonnegative(squares)
            block = left + right  # the parents, half the size

    def merge(self, other: CascadeMoments) -> None:
        """Add the runs another accumulator has seen (same depth and sigma).

        Args:
            other: the accumulator of other runs (another block), of the same depth and σ.

        Raises:
            ValueError: ``other`` has another depth or σ.
        """
        if (other.depth, other.sigma) != (self.depth, self.sigma):
            raise ValueError("cannot merge cascade statistics of different depth or sigma")
        for mine, theirs in zip(self.nodes + self.siblings, other.nodes + other.siblings):
            mine.merge(theirs)
        self.above += other.above
        self.runs += other.runs

    def statistics(self) -> dict[str, list[float]]:
        """The normalised sums, level by level (what the tests read; for comparing runs)."""
        return {"node_squares": [float(v) for sums in self.nodes for v in sums.values()],
                "sibling_squares": [float(v) for sums in self.siblings for v in sums.values()]}

    def report(self, alpha: float = 1e-6) -> SamplerAuditReport:
        """The verdict of the node-variance and sibling-covariance tests on the runs seen (module docstring).

        Args:
            alpha: the false-alarm probability of the whole audit, in (0, 1), split over its sub-tests by
                :func:`stream_levels` (default 1e-6).

        Returns:
            The report: node variances, sibling covariances, the pooled scale test and (depth >= 1) the magnitude
            counts.

        Raises:
            TooFewRunsError: fewer than 2 runs were seen.
        """
        a = check_alpha(alpha)
        runs, leaves = self.runs, 1 << self.depth
        if runs < 2:
            raise TooFewRunsError(f"samples must have at least 2 runs, got {message_value(runs)}")
        per_test, pooled_level = stream_levels(self.depth, a)
        low, high = chi_square_critical(runs, per_test)
        # each run's square is rounded to the grid (at most half a unit, 2**-(FRACTION_BITS + 1) in units of σ²)
        # before it is summed: the acceptance range is widened by that much per run, so the stated false alarm holds
        # for the rounded statistic too (it matters only with very few runs, where the lower critical value of a
        # node is below one grid unit: two runs at depth 20)
        rounding = runs * 2.0 ** -(FRACTION_BITS + 1)
        accept_low, accept_high = low - rounding, high + rounding
        checks = []
        for name, groups, what in (("node variances", self.nodes, "node"),
                                   ("sibling covariances", self.siblings, "sibling difference")):
            found: list[tuple[float, str]] = []
            worst = 1.0
            count = 0
            for level, sums in enumerate(groups):
                values = sums.values()
                count += values.size
                ratios = values / runs
                extreme = _most_extreme(ratios) if values.size else 1.0
                if _log_distance(extreme) > _log_distance(worst):
                    worst = extreme
                for position in np.flatnonzero((values < accept_low) | (values > accept_high))[:50]:
                    ratio = float(ratios[position])
                    found.append((_log_distance(ratio), f"{what} variance at level {level}, position "
                                  f"{int(position)} {'too large' if ratio > 1 else 'too small'} (ratio to exact "
                                  f"{ratio:.6g})"))
            share = per_test * count
            checks.append(PropertyCheck(name, not found, share, count, worst, listed_failures(found),
                                        f"{count} two-sided chi-square({runs}) tests, acceptance "
                                        f"[{low / runs:.4g}, {high / runs:.4g}] for the variance ratio; most "
                                        f"extreme ratio {worst:.6g}"))
        checks.append(self.pooled_check(pooled_level))
        if leaves > 1:  # depth 0 has no sibling differences
            checks.append(magnitude_check(self.above, runs * (leaves // 2), per_test * len(CUTS)))
        return SamplerAuditReport(f"cascade samples (streamed), depth {self.depth}, sigma {self.sigma!r}",
                                  all(c.holds for c in checks), a, runs, leaves, tuple(checks))

    def pooled_check(self, level: float) -> PropertyCheck:
        """The pooled scale test (:func:`reference.audit.samples.report.pooled_scale_check`) on the runs seen: the
        statistic is the exact integer total of root² / σ² and every (L − R)² / (3σ²), rounded once.

        Args:
            level: the test's false-alarm probability, in (0, 1) (the audit gives it a quarter of ``alpha``).

        Returns:
            The two-sided chi-square(runs × 2**depth) test of the pooled statistic.
        """
        grid = 1 << FRACTION_BITS  # exact: the integer totals, added as Python integers, then one rounding
        differences = sum(sums.grand_total() for sums in self.siblings)  # in units of 3 × the grid
        total = Fraction(self.nodes[0].grand_total()) + Fraction(differences, 3)
        return pooled_scale_check(float(total / grid), self.runs << self.depth, level)


def stream_tests(depth: int) -> int:
    """The sub-tests ``alpha`` is split over: ``2n − 1`` node variances, ``n − 1`` sibling covariances, the pooled
    scale and one binomial test per magnitude cut (``n = 2**depth``).

    Args:
        depth: the cascade's depth, an integer >= 0.

    Returns:
        The number of sub-tests (no magnitude cuts at depth 0, which has no sibling differences).
    """
    leaves = 1 << depth
    return (2 * leaves - 1) + (leaves - 1) + 1 + (len(CUTS) if leaves > 1 else 0)


def stream_levels(depth: int, alpha: float) -> tuple[float, float]:
    """(the level of each node, sibling and magnitude sub-test, the pooled scale test's level): the pooled test,
    which sees a scale error with every value drawn, keeps a quarter of ``alpha``; the other sub-tests share the
    rest evenly (union bound: the levels add up to ``alpha``).

    Args:
        depth: the cascade's depth, an integer >= 0.
        alpha: the false-alarm probability of the whole audit, in (0, 1).

    Returns:
        (level of each other sub-test, level of the pooled scale test).
    """
    return 0.75 * alpha / (stream_tests(depth) - 1), 0.25 * alpha


def cascade_power(depth: int, runs: int, alpha: float) -> dict[str, float]:
    """The smallest errors the streamed tests detect with probability 99% at ``runs`` runs: a relative error of
    the noise scale σ common to every node (the sharper of a node-variance test and the pooled test), and a sibling correlation error (a covariance ``c σ²`` off changes
    ``Var(L − R)`` by the factor ``1 − 2c/3``, tested as a variance ratio); ``inf`` when too few runs.

    Args:
        depth: the cascade's depth, an integer >= 0.
        runs: the number of runs, an integer (below 2: both errors ``inf``).
        alpha: the audit's false-alarm probability, in (0, 1), split as in :func:`stream_levels`.

    Returns:
        ``{"scale_error": r, "correlation_error": c}``: the relative error r of σ and the correlation error c
        (in units of σ²) detected with probability 99%.
    """
    leaves = 1 << depth
    per_test, pooled_level = stream_levels(depth, alpha)
    if runs < 2:
        return {"scale_error": math.inf, "correlation_error": math.inf}
    per_node = chi_square_scale_power(runs, 1, per_test)
    scale = cascade_scale_power(runs, leaves, per_test, pooled_level)
    ratio = max((1.0 + per_node) ** 2 - 1.0, 1.0 - (1.0 - per_node) ** 2)
    return {"scale_error": scale, "correlation_error": 1.5 * ratio}


def audit_cascade_stream(
    samples: object,
    depth: int,
    *,
    sigma: RealLike,
    alpha: float = 1e-6,
    block_runs: int = DEFAULT_BLOCK_RUNS,
) -> SamplerAuditReport:
    """Audit Cascade Sampling leaves (``runs × 2**depth``; a path to a ``.npy`` file is memory-mapped) against
    ``N(0, σ² C_depth)`` by the streamed node-variance and sibling-covariance tests (module docstring), ``block_runs``
    runs at a time through :class:`CascadeMoments` (the verdict does not depend on ``block_runs``).

    Args:
        samples: anything the caller was given: accepted when the leaves, shape (runs, 2**depth), real: a numpy
            array or the path (``str`` or ``Path``) of a ``.npy`` file (read through a memory map, one block at a
            time); anything else is refused.
        depth: the cascade's depth, an integer in [0, :data:`MAX_STREAM_DEPTH`].
        sigma: the claimed σ > 0 (standard deviation, not σ²); an int, float, Fraction or string such as ``"3/2"``.
        alpha: the false-alarm probability, in (0, 1) (default 1e-6).
        block_runs: the runs read and folded at a time, an integer >= 1 (default :data:`DEFAULT_BLOCK_RUNS`);
            it bounds the memory, not the verdict.

    Returns:
        The report of :meth:`CascadeMoments.report`.

    Raises:
        ValueError: ``samples`` is not a ``.npy`` file or not of shape (runs >= 2, 2**depth), a value is not
            finite, or ``depth``, ``sigma``, ``alpha`` or ``block_runs`` is out of range.
        TypeError: ``samples`` is neither a path nor an array, or not real.
    """
    moments = CascadeMoments(depth, sigma)
    a = check_alpha(alpha)
    if isinstance(block_runs, bool) or not isinstance(block_runs, int) or block_runs < 1:
        raise ValueError(f"block_runs must be a positive integer, got {block_runs!r}")
    array = open_cascade_samples(samples)
    leaves = 1 << moments.depth
    if array.shape[1] != leaves:
        raise ValueError(f"samples must have 2**depth = {leaves} columns, got {array.shape[1]}")
    if array.shape[0] < 2:
        raise ValueError(f"samples must have at least 2 runs, got {array.shape[0]}")
    for start in range(0, array.shape[0], block_runs):
        moments.add(np.asarray(array[start:start + block_runs]))
    return moments.report(a)
