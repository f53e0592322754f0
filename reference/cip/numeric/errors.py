"""Numeric twins of the CIP error metrics: realised worst-case errors in O(n), and Monte Carlo estimates.

* :func:`worst_range_error` — ``max over all contiguous ranges of |Σ_{t=first}^{last} s_t|`` for one noise
  vector in O(n): with prefix sums ``P_0 = 0, P_t = s_0 + … + s_{t−1}``, a range sum is ``P_{b+1} − P_a``, so the
  maximum absolute range sum is ``max P − min P`` (attained between the arg-min and arg-max prefixes).
* :func:`worst_node_error` — ``max over tree nodes |node sum|`` in O(n) (levels summed bottom-up).
* :func:`expected_worst_error` — Definition 3.12 by Monte Carlo over cascade draws: mean and standard error.
* :func:`sample_ranges` / :func:`sampled_range_errors` — the sampling scheme of the paper's Appendix E.5 (a range
  drawn uniformly from the n(n+1)/2 ranges: with probability 2/(n+1) a single cell, else the span of two distinct
  cells) and the paper's estimators built on it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from reference.cip.numeric.cascade import cascade_leaves
from reference.core.exact_text import message_value
from reference.core.options import Workload
from reference.core.real_arrays import real_array
from reference.core.rng import as_generator
from reference.core.validate import check_depth, check_positive_int, positive_real

if TYPE_CHECKING:
    import numpy.typing as npt


@dataclass(frozen=True)
class WorstRange:
    """The realised worst-case range error of one noise vector and a range attaining it (0-based, inclusive)."""

    value: float
    first: int
    last: int


def _as_noise(noise: object) -> np.ndarray:
    array = real_array(noise, "noise", finite=False)  # refuses strings, complex and ragged values in one line
    if array.ndim != 1 or array.size == 0:
        raise ValueError(f"noise must be a non-empty one-dimensional array, got shape {array.shape}")
    if not np.all(np.isfinite(array)):
        raise ValueError("noise must contain only finite values")
    return array


def worst_range_error(noise: npt.ArrayLike) -> WorstRange:
    """``max_{first <= last} |Σ_{t=first}^{last} noise_t|`` and a maximising range, in O(n).

    Args:
        noise: the noise of the cells, a non-empty one-dimensional sequence or array of finite numbers.
    """
    values = _as_noise(noise)
    prefix = np.concatenate(([0.0], np.cumsum(values)))
    low, high = int(np.argmin(prefix)), int(np.argmax(prefix))
    if low == high:  # all prefixes equal: every range sums to zero; any single cell attains it
        return WorstRange(0.0, 0, 0)
    first, last = min(low, high), max(low, high) - 1
    return WorstRange(float(prefix[high] - prefix[low]), first, last)


def worst_range_error_brute(noise: npt.ArrayLike) -> WorstRange:
    """The same maximum by enumerating all ranges (O(n²)); the twin of :func:`worst_range_error`.

    Args:
        noise: the noise of the cells, a non-empty one-dimensional sequence or array of finite numbers.
    """
    values = _as_noise(noise)
    best = WorstRange(-1.0, 0, 0)
    for first in range(values.size):
        running = 0.0
        for last in range(first, values.size):
            running += values[last]
            if abs(running) > best.value:
                best = WorstRange(abs(running), first, last)
    return best


def node_sums(leaves: npt.ArrayLike) -> list[np.ndarray]:
    """Sums over every tree node, one array per level from the root (level 0) to the leaves.

    Args:
        leaves: the leaf values, a one-dimensional array of length 2**depth (depth >= 0).
    """
    values = _as_noise(leaves)
    n = values.size
    if n & (n - 1):
        raise ValueError(f"leaves must have a power-of-two length, got {message_value(n)}")
    levels = [values]
    while levels[-1].size > 1:
        current = levels[-1]
        levels.append(current[0::2] + current[1::2])
    return levels[::-1]


def worst_node_error(leaves: npt.ArrayLike) -> float:
    """``max over the 2n − 1 tree nodes of |node sum|``, in O(n).

    Args:
        leaves: the leaf values, a one-dimensional array of length 2**depth (depth >= 0).
    """
    return float(max(np.max(np.abs(level)) for level in node_sums(leaves)))


@dataclass(frozen=True)
class MonteCarloEstimate:
    """A Monte Carlo mean with its standard error and the number of draws."""

    mean: float
    standard_error: float
    draws: int


def expected_worst_error(
    depth: int, sigma: float, workload: Workload, draws: int, rng: np.random.Generator | int | None = None
) -> MonteCarloEstimate:
    """Definition 3.12, ``E max_q |(W s)_q|`` for s ~ N(0, σ² C_depth), by ``draws`` cascade samples.

    Draw order: ``draws`` consecutive calls of ``cascade_leaves(depth, sigma, generator)``.

    Args:
        depth: the cascade's depth, an integer in [0, 26].
        sigma: σ > 0, a finite float: the standard deviation of every node.
        workload: ``"ranges"`` (every contiguous range) or ``"nodal"`` (every tree node).
        draws: the number of cascade samples, an integer >= 2.
        rng: a ``numpy.random.Generator``, an integer seed or ``None`` (fresh OS entropy).
    """
    depth = check_depth(depth, maximum=26)
    scale = positive_real(sigma, "sigma")
    count = check_positive_int(draws, "draws", minimum=2)
    if workload not in ("ranges", "nodal"):
        raise ValueError(f"workload must be 'ranges' or 'nodal'; got {workload!r}")
    generator = as_generator(rng)
    measure = (lambda s: worst_range_error(s).value) if workload == "ranges" else worst_node_error
    samples = np.array([measure(cascade_leaves(depth, scale, generator)) for _ in range(count)])
    return MonteCarloEstimate(float(samples.mean()), float(samples.std(ddof=1) / math.sqrt(count)), count)


def sample_ranges(length: int, count: int, rng: np.random.Generator | int | None = None) -> np.ndarray:
    """``count`` ranges drawn uniformly from all length(length+1)/2 contiguous ranges, by Appendix E.5's scheme.

    Returns an int64 array of shape (count, 2) of [first, last]. Draw order per batch: the coin flips
    (``count`` uniforms), then single cells for the heads, then pairs of distinct cells for the tails.

    Args:
        length: n, the number of cells, an integer >= 1.
        count: how many ranges, an integer >= 1.
        rng: a ``numpy.random.Generator``, an integer seed or ``None`` (fresh OS entropy).
    """
    n = check_positive_int(length, "length")
    size = check_positive_int(count, "count")
    generator = as_generator(rng)
    heads = generator.random(size) < 2.0 / (n + 1)
    result = np.empty((size, 2), dtype=np.int64)
    singles = generator.integers(0, n, size=int(heads.sum()))
    result[heads, 0] = singles
    result[heads, 1] = singles
    tails = int((~heads).sum())
    if tails and n < 2:
        raise ValueError("length 1 has no pair of distinct cells")
    if tails:
        first = generator.integers(0, n, size=tails)
        # a second, distinct cell uniformly: draw from n − 1 values and skip over the first
        second = generator.integers(0, n - 1, size=tails)
        second = second + (second >= first)
        result[~heads, 0] = np.minimum(first, second)
        result[~heads, 1] = np.maximum(first, second)
    return result


@dataclass(frozen=True)
class SampledRangeErrors:
    """Appendix E.5's estimators from ``count`` sampled ranges of one noise vector."""

    total_squared_error_estimate: float  # (n(n+1)/2) · mean of E_i²: unbiased for Σ over ranges of (range sum)²
    max_sampled_error: float  # max_i |E_i|: the paper's estimate of the worst-case error
    count: int


def sampled_range_errors(noise: npt.ArrayLike, count: int, rng: np.random.Generator | int | None = None) -> SampledRangeErrors:
    """Evaluate the paper's Monte Carlo estimators on ``count`` uniformly sampled ranges of one noise vector.

    Args:
        noise: the noise of the cells, a non-empty one-dimensional sequence or array of finite numbers.
        count: how many ranges to sample, an integer >= 1.
        rng: a ``numpy.random.Generator``, an integer seed or ``None`` (fresh OS entropy).
    """
    values = _as_noise(noise)
    ranges = sample_ranges(values.size, count, rng)
    prefix = np.concatenate(([0.0], np.cumsum(values)))
    errors = prefix[ranges[:, 1] + 1] - prefix[ranges[:, 0]]
    total_ranges = values.size * (values.size + 1) / 2
    return SampledRangeErrors(
        total_squared_error_estimate=float(total_ranges * np.mean(errors**2)),
        max_sampled_error=float(np.max(np.abs(errors))),
        count=ranges.shape[0],
    )
