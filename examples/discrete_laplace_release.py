"""A user-written integer count release with discrete Laplace noise, P[x] ∝ exp(−|x|/t): its scale calibration.

A user may add up to SENSITIVITY to the count. ``scale_for`` gives t = Δ/ε (the mechanism is then exactly ε-DP).
``scale_for_faulty`` is the planted fault: t = 1/ε, the sensitivity forgotten (the release is 3ε-DP).
"""

from __future__ import annotations

from fractions import Fraction

SENSITIVITY = 3
EPSILON = Fraction(1, 2)


def scale_for(epsilon: Fraction, sensitivity: int) -> Fraction:
    return sensitivity / epsilon


def scale_for_faulty(epsilon: Fraction, sensitivity: int) -> Fraction:
    return 1 / epsilon
