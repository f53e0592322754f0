"""Faulty KARY Algorithm 2: computes the tree height in floating point.

FAULT: ``height = math.ceil(math.log(2 * T + 1, arity))``. At exact powers the float logarithm rounds up:
``math.log(125, 5) == 3.0000000000000004``, so for ``arity = 5``, ``T = 62`` the height is 4 instead of 3
(the project's conventions forbid this: heights are integer arithmetic). The noise indices are unchanged (the extra top digit is 0) but the Laplace scale
``height / epsilon`` is 4/ε instead of 3/ε: every variance is 16/9 of the oracle's.
"""

from __future__ import annotations

import math

import numpy as np


def _balanced_digits(value: int, arity: int, width: int) -> list[int]:
    digits = []
    for _ in range(width):
        digit = value % arity
        if digit > arity // 2:
            digit -= arity
        digits.append(digit)
        value = (value - digit) // arity
    return digits


def faulty_kary_noise(arity: int, epsilon: float, horizon: int, runs: int, seed: int) -> np.ndarray:
    """``runs`` × ``horizon`` output noise (noisy prefix count − true count) with the fault above."""
    height = math.ceil(math.log(2 * horizon + 1, arity))  # the fault
    scale = height / epsilon
    capacity = (arity**height - 1) // 2
    rng = np.random.default_rng(seed)
    values = rng.laplace(0.0, scale, size=(runs, 2 * capacity + 1))  # column p + capacity holds z_p
    out = np.zeros((runs, horizon))
    for t in range(1, horizon + 1):
        rep = _balanced_digits(t, arity, height)
        position = 0
        for level in range(height, 0, -1):
            digit = rep[level - 1]
            step = arity ** (level - 1) if digit > 0 else -(arity ** (level - 1))
            for _ in range(abs(digit)):
                position += step
                out[:, t - 1] += values[:, position + capacity]
    return out
