"""Cascade Sampling samples at any depth, streamed: exact chi-square tests in memory bounded by one batch of runs.

Under the oracle (CIP Theorem 3.3 and Equation (2)) every node of the binary tree over the ``n = 2**depth`` leaves
— the sum of the leaves below it — is ``N(0, σ²)``, and the two children ``L``, ``R`` of a node have covariance
``−σ²/2``. Hence ``L − R`` is ``N(0, 3σ²)`` (``2σ² − 2·(−σ²/2)``), and over independent runs

* ``Σ node² / σ²`` is chi-square with ``runs`` degrees of freedom for each of the ``2n − 1`` nodes (leaves
  included): the *node variances*;
* ``Σ (L − R)² / (3σ²)`` is chi-square with ``runs`` degrees of freedom for each of the ``n − 1`` internal nodes: the
  *sibling covariances* (a covariance off by c·σ² moves the variance of L − R by −2cσ²).

Both are exact two-sided tests; ``alpha`` is split evenly over the ``3n − 2`` of them (union bound). Together they
pin the whole covariance ``σ² C_depth`` (node variances and sibling covariances determine the Haar coefficients'
variances), not only the leaves' marginals.

The samples (``runs × n``, ``.npy``) are read ``batch`` runs at a time through a memory map; the accumulators
hold three numbers per node (``O(n)``), and one batch is summed level by level in place, so the peak memory is
a small multiple of one batch (measured in the tests). Power: a noise scale off by a factor ``1 + r`` is
detected with probability 99% once ``(1 + r)² q_0.01 >= q_hi`` (``q_0.01`` the 1% quantile of chi-square(runs),
``q_hi`` the test's upper critical value), and symmetrically below: :func:`reference.audit.samplers.chi_square_scale_power`.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from reference.audit.samplers import (
    PropertyCheck,
    SamplerAuditReport,
    _check_alpha,
    _critical,
    _listed,
)
from reference.core.validate import RealLike, check_depth, positive_real

#: Largest depth accepted (2**26 leaves: 512 MiB per run in float64).
MAX_STREAM_DEPTH = 26
#: Default number of runs read at a time.
DEFAULT_BATCH = 64


def _open(samples: object) -> np.ndarray:
    if isinstance(samples, (str, Path)):
        path = Path(samples)
        if path.suffix.lower() != ".npy" or not path.is_file():
            raise ValueError(f"samples must be an existing .npy file for the streamed audit, got {str(path)!r}")
        array = np.asarray(np.load(path, mmap_mode="r", allow_pickle=False))
    elif isinstance(samples, np.ndarray):
        array = samples
    else:
        raise TypeError(f"samples must be a .npy path or a numpy array, got {type(samples).__name__}")
    if array.ndim != 2:
        raise ValueError(f"samples must be 2-D (runs × leaves), got shape {array.shape}")
    if not (np.issubdtype(array.dtype, np.floating) or np.issubdtype(array.dtype, np.integer)):
        raise TypeError(f"samples must be a real array, got dtype {array.dtype}")
    return array


def audit_cascade_stream(samples: object, depth: int, sigma: RealLike, alpha: object = 1e-6,
                         batch: int = DEFAULT_BATCH) -> SamplerAuditReport:
    """Audit Cascade Sampling leaves (``runs × 2**depth``; a path to a ``.npy`` file is memory-mapped) against
    ``N(0, σ² C_depth)`` by the streamed node-variance and sibling-covariance tests (module docstring)."""
    d = check_depth(depth, "depth", maximum=MAX_STREAM_DEPTH)
    s = positive_real(sigma, "sigma")
    a = _check_alpha(alpha)
    if isinstance(batch, bool) or not isinstance(batch, int) or batch < 1:
        raise ValueError(f"batch must be a positive integer, got {batch!r}")
    array = _open(samples)
    leaves = 1 << d
    if array.shape[1] != leaves:
        raise ValueError(f"samples must have 2**depth = {leaves} columns, got {array.shape[1]}")
    runs = array.shape[0]
    if runs < 2:
        raise ValueError(f"samples must have at least 2 runs, got {runs}")
    # node_squares[level] has 2**level entries (level 0 = root ... level d = leaves); sibling_squares likewise
    # for the internal nodes (levels 0..d-1)
    node_squares = [np.zeros(1 << level) for level in range(d + 1)]
    sibling_squares = [np.zeros(1 << level) for level in range(d)]
    for start in range(0, runs, batch):
        block = np.array(array[start:start + batch], dtype=np.float64)  # one batch in memory
        if not np.all(np.isfinite(block)):
            raise ValueError(f"samples must be finite (no NaN or infinity); runs {start}..{start + len(block) - 1}")
        block /= s
        for level in range(d, -1, -1):
            node_squares[level] += np.einsum("ij,ij->j", block, block)
            if level == 0:
                break
            pairs = block.reshape(block.shape[0], 1 << (level - 1), 2)
            difference = pairs[:, :, 0] - pairs[:, :, 1]
            sibling_squares[level - 1] += np.einsum("ij,ij->j", difference, difference) / 3.0
            block = pairs.sum(axis=2)  # the parents, half the size: the batch is not copied at full size again
    tests = (2 * leaves - 1) + (leaves - 1)
    per_test = a / tests
    low, high = _critical(runs, per_test)
    checks = []
    for name, groups, what in (("node variances", node_squares, "node"),
                               ("sibling covariances", sibling_squares, "sibling difference")):
        found: list[tuple[float, str]] = []
        worst = 1.0
        count = 0
        for level, values in enumerate(groups):
            count += values.size
            ratios = values / runs
            extreme = float(ratios[np.argmax(np.abs(np.log(ratios)))]) if values.size else 1.0
            if abs(math.log(extreme)) > abs(math.log(worst)):
                worst = extreme
            for position in np.flatnonzero((values < low) | (values > high))[:50]:
                ratio = float(ratios[position])
                found.append((abs(math.log(ratio)), f"{what} variance at level {level}, position {int(position)} "
                              f"{'too large' if ratio > 1 else 'too small'} (ratio to exact {ratio:.6g})"))
        share = per_test * count
        checks.append(PropertyCheck(name, not found, share, count, worst, _listed(found),
                                    f"{count} two-sided chi-square({runs}) tests, acceptance "
                                    f"[{low / runs:.4g}, {high / runs:.4g}] for the variance ratio; most extreme "
                                    f"ratio {worst:.6g}"))
    return SamplerAuditReport(f"cascade samples (streamed), depth {d}, sigma {s!r}", all(c.passed for c in checks),
                              a, runs, leaves, tuple(checks))
