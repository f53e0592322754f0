"""A user-written Rényi DP accountant in floats, for STEPS compositions of the Gaussian mechanism with a float
σ read from a configuration (sensitivity Δ = 1): RDP(α) = STEPS·α/(2σ²) evaluated in float64, tight but
rounded — at some orders one unit in the last place below the exact value.

``rdp_undercount`` is the planted fault: a 2% undercount (a series truncated one term early).
"""

from __future__ import annotations

STEPS = 10
SIGMA = 1.3


def rdp(alpha: float) -> float:
    return STEPS * alpha / (2 * SIGMA**2)


def rdp_undercount(alpha: float) -> float:
    return 0.98 * rdp(alpha)
