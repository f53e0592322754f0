"""Faulty KARY Algorithm 2: an off-by-one in the digit loop.

FAULT: the walk over the offset digits runs ``for level in range(height - 1, 0, -1)`` instead of
``range(height, 0, -1)``, so the top level is skipped: outputs whose top digit is non-zero get too little
noise (e.g. for ``arity = 5``, ``T = 62``, step 25 = (0, 0, 1) gets none at all) and the wrong noise values,
so marginal variances and covariance entries differ from the oracle's.
"""

from __future__ import annotations

import numpy as np

from reference.kary.digits import height_for_horizon, representation


def faulty_kary_noise(arity: int, epsilon: float, horizon: int, runs: int, seed: int) -> np.ndarray:
    """``runs`` × ``horizon`` output noise (noisy prefix count − true count) with the fault above."""
    height = height_for_horizon(arity, horizon, offset=True)
    scale = height / epsilon
    capacity = (arity**height - 1) // 2
    rng = np.random.default_rng(seed)
    values = rng.laplace(0.0, scale, size=(runs, 2 * capacity + 1))  # column p + capacity holds z_p
    out = np.zeros((runs, horizon))
    for t in range(1, horizon + 1):
        rep = representation(t, arity, height)
        position = 0
        for level in range(height - 1, 0, -1):  # the fault: should start at height
            digit = rep[level - 1]
            step = arity ** (level - 1) if digit > 0 else -(arity ** (level - 1))
            for _ in range(abs(digit)):
                position += step
                out[:, t - 1] += values[:, position + capacity]
    return out
