"""The counter assertion in the user's terms: float scales read exactly with a tolerance, per-draw variances,
zero-budget draws together with per-draw variances, and integer draws with float outputs."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from reference.testing import assert_prefix_counter

HORIZON = 4


def own_draws(z: tuple[Fraction, ...]) -> list[Fraction]:
    """One draw per output (B = I): the strategy is the prefix workload itself."""
    return list(z)


def test_float_sigma_read_exactly_with_rtol() -> None:
    # B = I: Δ² = the longest prefix column = HORIZON, ρ = HORIZON/(2σ²). σ = sqrt(0.35) in floats squares to
    # slightly less than 0.35, so the user's ρ = 4/(2·0.35) is exceeded by rounding only
    sigma = math.sqrt(0.35)
    assert Fraction(sigma) ** 2 < Fraction(7, 20)
    claimed = HORIZON / (2 * 0.35)
    with pytest.raises(AssertionError, match=r"relative excess [0-9.]+e-1[5-7], rtol = 0"):
        assert_prefix_counter(own_draws, HORIZON, HORIZON, "gaussian", rho=claimed, scale=sigma)
    assert_prefix_counter(own_draws, HORIZON, HORIZON, "gaussian", rho=claimed, scale=sigma, rtol=1e-12)
    with pytest.raises(AssertionError, match=r"relative excess 2\.0[0-9]e-02, rtol = 1\.00e-12"):
        assert_prefix_counter(own_draws, HORIZON, HORIZON, "gaussian", rho=0.98 * claimed, scale=sigma, rtol=1e-12)
    # ε claims take the tolerance too: Laplace b = 1/3 in floats, ε = Δ1/b = 4·3 exceeds 12 by rounding
    scale = 1 / 3
    assert Fraction(scale) < Fraction(1, 3)
    with pytest.raises(AssertionError):
        assert_prefix_counter(own_draws, HORIZON, HORIZON, "laplace", epsilon=12, scale=scale)
    assert_prefix_counter(own_draws, HORIZON, HORIZON, "laplace", epsilon=12, scale=scale, rtol=1e-12)


def test_per_draw_variances() -> None:
    # B = I, draw i of variance σ² d_i: Δ² = max_j Σ_{i >= j} 1/d_i = 1 + 1/2 + 1/4 + 1/4 = 2 (column 0); σ = 1
    variances = [1.0, 2.0, 4.0, 4.0]
    assert_prefix_counter(own_draws, HORIZON, HORIZON, "gaussian", rho=1, scale=1, draw_variances=variances)
    with pytest.raises(AssertionError, match="the claim fails"):
        assert_prefix_counter(own_draws, HORIZON, HORIZON, "gaussian", rho="0.99", scale=1, draw_variances=variances)


def test_zero_budget_draws_with_per_draw_variances() -> None:
    # draw 1 has a zero budget (infinite variance): output 1 says nothing; outputs 0, 2, 3 remain, with
    # Δ² = max_j Σ_{i in {0, 2, 3}, i >= j} 1/d_i = 1 + 1/4 + 1/4 = 3/2, so ρ = 3/4 at σ = 1
    variances = [1, float("inf"), 4, 4]
    assert_prefix_counter(own_draws, HORIZON, HORIZON, "gaussian", rho=Fraction(3, 4), scale=1,
                          draw_variances=variances, infinite_variance_draws=[1])
    with pytest.raises(AssertionError, match="the claim fails"):
        assert_prefix_counter(own_draws, HORIZON, HORIZON, "gaussian", rho=Fraction(74, 100), scale=1,
                              draw_variances=variances, infinite_variance_draws=[1])


def test_integer_draws_float_outputs() -> None:
    # integer noise, then a float step (halving): B = L/2, the strategy B⁻¹W = 2I, Δ1 = 2, ε = Δ1/b = 2 at b = 1
    def halved(z: np.ndarray) -> np.ndarray:
        return np.cumsum(z) / 2.0

    assert_prefix_counter(halved, HORIZON, HORIZON, "laplace", epsilon=2, scale=1, inputs="integer-float64")
    with pytest.raises(AssertionError):
        assert_prefix_counter(halved, HORIZON, HORIZON, "laplace", epsilon="1.96", scale=1, inputs="integer-float64")
