"""Two user-written calibrators of the analytic Gaussian mechanism (Balle & Wang 2018), in floats, as public code
often has them: find σ with δ(σ) = Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ) equal to the target δ by bisection.

``analytic_sigma`` is safe: it bisects to float precision, keeps the end of the bracket where δ(σ) <= target
and adds a relative margin of 1e-9 for the float evaluation of δ. ``analytic_sigma_early_stop`` is the planted
fault: it stops when the bracket is 1e-6 wide and returns its midpoint, which is below the smallest safe σ at
about half the grid points (by up to a few parts in 10⁷).
"""

from __future__ import annotations

import math
from fractions import Fraction


def _phi(value: float) -> float:
    return 0.5 * math.erfc(-value / math.sqrt(2))


def _delta(sigma: float, epsilon: float, sensitivity: float) -> float:
    a, b = sensitivity / (2 * sigma), epsilon * sigma / sensitivity
    return _phi(a - b) - math.exp(epsilon) * _phi(-a - b)


def _bracket(epsilon: float, delta: float, sensitivity: float) -> tuple[float, float]:
    low, high = 1e-3 * sensitivity, sensitivity
    while _delta(high, epsilon, sensitivity) > delta:
        low, high = high, 2 * high
    return low, high


def analytic_sigma(epsilon: Fraction, delta: Fraction, sensitivity_squared: Fraction) -> float:
    """The smallest safe σ, to float precision, rounded up by a relative 1e-9."""
    eps, target, sensitivity = float(epsilon), float(delta), math.sqrt(float(sensitivity_squared))
    low, high = _bracket(eps, target, sensitivity)
    for _ in range(200):
        middle = (low + high) / 2
        if middle in (low, high):
            break
        if _delta(middle, eps, sensitivity) > target:
            low = middle
        else:
            high = middle
    return high * (1 + 1e-9)


def analytic_sigma_early_stop(epsilon: Fraction, delta: Fraction, sensitivity_squared: Fraction) -> float:
    """FAULT: stops at a bracket 1e-6 wide and returns the midpoint."""
    eps, target, sensitivity = float(epsilon), float(delta), math.sqrt(float(sensitivity_squared))
    low, high = _bracket(eps, target, sensitivity)
    while high - low > 1e-6 * high:
        middle = (low + high) / 2
        if _delta(middle, eps, sensitivity) > target:
            low = middle
        else:
            high = middle
    return (low + high) / 2
