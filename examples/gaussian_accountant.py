"""Two user-written Rényi DP accountants for ``steps`` compositions of the Gaussian mechanism (σ a standard
deviation, sensitivity Δ = 1), returning RDP(α) as a float, the way accountants tabulate it.

``rdp_gaussian`` is exact: steps·α/(2σ²). ``rdp_gaussian_undercount`` is the planted fault, a 2% undercount of
the kind found in a public accountant (a series truncated one term early): steps·α/(2σ²)·0.98.
"""

from __future__ import annotations

STEPS = 1000
SIGMA = 40


def rdp_gaussian(alpha: float) -> float:
    return STEPS * alpha / (2 * SIGMA**2)


def rdp_gaussian_undercount(alpha: float) -> float:
    return STEPS * alpha / (2 * SIGMA**2) * 0.98
