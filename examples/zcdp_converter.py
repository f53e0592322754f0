"""Two user-written converters from ρ-zCDP to (ε, δ)-DP, in floats, the way libraries write them.

``epsilon_for`` is Bun & Steinke's conversion ε = ρ + 2·sqrt(ρ·log(1/δ)) (valid for every ρ-zCDP mechanism).
``epsilon_for_faulty`` is the planted fault: the factor 2 became a sqrt(2) inside the root, ε = ρ +
sqrt(2ρ·log(1/δ)), too small (the Gaussian with that ρ needs more).
"""

from __future__ import annotations

import math

#: (ρ, δ) pairs the converter is used at.
GRID = [(0.05, 1e-6), (0.5, 1e-9), (2.0, 1e-5)]


def epsilon_for(rho: float, delta: float) -> float:
    return rho + 2 * math.sqrt(rho * math.log(1 / delta))


def epsilon_for_faulty(rho: float, delta: float) -> float:
    return rho + math.sqrt(2 * rho * math.log(1 / delta))
