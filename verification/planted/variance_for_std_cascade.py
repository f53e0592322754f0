"""Faulty Cascade Sampling: passes the *variance* ``sigma**2`` where the standard deviation ``sigma`` is expected.

FAULT: ``cascade_leaves(depth, sigma**2, rng)`` instead of ``cascade_leaves(depth, sigma, rng)``, so every leaf
and every node has variance ``sigma**4`` instead of ``sigma**2`` (invisible at ``sigma == 1``). The covariance
*shape* ``C_depth`` is right; only the scale is wrong, so the marginal and node-variance tests catch it.
"""

from __future__ import annotations

import numpy as np

from reference.cip.numeric.cascade import cascade_leaves


def faulty_cascade_samples(depth: int, sigma: float, runs: int, seed: int) -> np.ndarray:
    """``runs`` draws (rows) of the ``2**depth`` leaves, with the fault above."""
    rng = np.random.default_rng(seed)
    return np.stack([cascade_leaves(depth, sigma**2, rng) for _ in range(runs)])


def faulty_cascade_batch(generator: np.random.Generator, runs: int) -> np.ndarray:
    """The same fault as a batched sampler function for ``audit sampler-function``: depth 6, σ = 2 meant, σ² = 4
    passed, so every node has variance 16 instead of 4."""
    from reference.cip.numeric.cascade_runs import cascade_leaves_runs

    depth, sigma = 6, 2.0
    return cascade_leaves_runs(depth, sigma**2, runs, generator)
