"""A user's float32 tree aggregator (running means of a stream, as in DP-FTRL style tree aggregation), written
with numpy float32 and vectorised over a batch of streams (the last axis).

``running_means(values, node_noise)``: a binary tree over ``HORIZON`` steps, one Gaussian draw per node (already
scaled by σ); the noisy prefix sum at step t is the sum of the noisy nodes tiling [0, t], divided by t + 1.
``values`` is (HORIZON,) or (HORIZON, batch); ``node_noise`` is (NODES,) or (NODES, batch).

Privacy as its author states it: one value changes by at most 1; it changes ``HEIGHT + 1`` nodes, so Δ² =
HEIGHT + 1, and the analytic Gaussian σ for it (:mod:`examples.gaussian_calibrators`) gives (ε, δ)-DP.
``SIGMA`` is that σ; ``FAULTY_SIGMA`` is the planted fault — Δ² counted as HEIGHT (the root forgotten).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from examples.gaussian_calibrators import analytic_sigma

HORIZON = 64
HEIGHT = 6
NODES = 2 * HORIZON - 1  # level order: node 0 the root, children of v are 2v+1, 2v+2
EPSILON = Fraction(1, 2)
DELTA = Fraction(1, 10**6)


SIGMA = analytic_sigma(EPSILON, DELTA, Fraction(HEIGHT + 1))
FAULTY_SIGMA = analytic_sigma(EPSILON, DELTA, Fraction(HEIGHT))


def _tiling(step: int) -> list[int]:
    nodes, start, size, node = [], 0, HORIZON, 0
    while start < step + 1:
        if start + size <= step + 1:
            nodes.append(node)
            start, node = start + size, node + 1
        else:
            node, size = 2 * node + 1, size // 2
    return nodes


_TILING = np.zeros((HORIZON, NODES), dtype=np.float32)
for _step in range(HORIZON):
    _TILING[_step, _tiling(_step)] = 1


def running_means(values: np.ndarray, node_noise: np.ndarray) -> np.ndarray:
    """Noisy running means (float32)."""
    values = np.asarray(values, dtype=np.float32)
    sums = np.zeros((NODES, *values.shape[1:]), dtype=np.float32)
    sums[NODES - HORIZON:] = values
    for node in range(NODES - HORIZON - 1, -1, -1):
        sums[node] = sums[2 * node + 1] + sums[2 * node + 2]
    noisy = sums + np.asarray(node_noise, dtype=np.float32)
    steps = np.arange(1, HORIZON + 1, dtype=np.float32).reshape((HORIZON,) + (1,) * (values.ndim - 1))
    return (_TILING @ noisy) / steps
