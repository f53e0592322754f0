"""(ε, δ) of a discrete-Gaussian linear release, decided exactly where its integer draw shifts are unique (it was
"cannot decide" through the zCDP conversion)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from reference.testing import assert_linear_mechanism_private

PREFIX = [[1, 0, 0], [1, 1, 0], [1, 1, 1]]
IDENTITY = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
SIGMA = 2  # N_Z(0, σ²) per draw, σ² = 4


def direct_delta(epsilon: float) -> float:
    """Σ_y max(0, p(y) − e^ε p(y − u)) for u = (1, 1, 1), the worst shift (the first prefix column), in floats
    over |y_i| <= 30 (independent of the reference's convolution)."""
    ys = np.arange(-30, 31)
    p = np.exp(-ys.astype(float) ** 2 / (2 * SIGMA**2))
    p /= p.sum()
    shifted = np.exp(-(ys.astype(float) - 1) ** 2 / (2 * SIGMA**2)) / np.exp(-ys.astype(float) ** 2 / (2 * SIGMA**2)).sum()
    joint = p[:, None, None] * p[None, :, None] * p[None, None, :]
    moved = shifted[:, None, None] * shifted[None, :, None] * shifted[None, None, :]
    return float(np.maximum(joint - np.exp(epsilon) * moved, 0).sum())


def test_exact_delta_decides_both_ways() -> None:
    expected = direct_delta(1.0)
    assert 1e-3 < expected < 1e-1
    above, below = Fraction(expected * 1.01), Fraction(expected * 0.99)
    assert_linear_mechanism_private(IDENTITY, PREFIX, "discrete-gaussian", scale=SIGMA, epsilon=1, delta=above)
    with pytest.raises(AssertionError, match=r"the claim fails: .*certified delta\(epsilon\) in \[.*relative excess"):
        assert_linear_mechanism_private(IDENTITY, PREFIX, "discrete-gaussian", scale=SIGMA, epsilon=1, delta=below)
