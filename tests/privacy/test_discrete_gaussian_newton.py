"""The discrete Gaussian's smallest ε at σ in the thousands: located by Newton on the lattice sum and its
derivative, then certified both ways; the derivative sum agrees with a finite difference of δ."""

from __future__ import annotations

from fractions import Fraction

import mpmath

from reference.core.certified import working_precision
from reference.privacy.discrete_gaussian_profile import (
    _lattice_sums,
    discrete_gaussian_delta,
    discrete_gaussian_epsilon,
    normaliser_ball,
)

SIGMA_SQUARED = Fraction(2437) ** 2


def test_epsilon_certified_both_ways_at_large_sigma() -> None:
    for sensitivity, delta in ((1000, Fraction(1, 10**6)), (1, Fraction(1, 10**9))):
        bracket = discrete_gaussian_epsilon(delta=delta, sigma_squared=SIGMA_SQUARED, sensitivity=sensitivity)
        assert 0 < bracket.upper - bracket.lower <= bracket.upper * Fraction(1, 10**22)
        assert discrete_gaussian_delta(epsilon=bracket.upper, sigma_squared=SIGMA_SQUARED,
                                       sensitivity=sensitivity).certainly_le(delta)
        assert discrete_gaussian_delta(epsilon=bracket.lower, sigma_squared=SIGMA_SQUARED,
                                       sensitivity=sensitivity).certainly_gt(delta)


def test_derivative_sum_matches_a_finite_difference() -> None:
    # −dδ/dε from the recurrence, against (δ(ε − h) − δ(ε + h))/(2h) in 40-digit mpmath on the certified δ
    scale, shift, epsilon = Fraction(50), 3, Fraction(1, 2)
    with working_precision(200):
        _, slope, _ = _lattice_sums(epsilon, scale, shift, 120)
        derivative = slope / normaliser_ball(scale, 120)
    step = Fraction(1, 10**12)
    mpmath.mp.dps = 40
    low = discrete_gaussian_delta(epsilon=epsilon - step, sigma_squared=scale, sensitivity=shift).midpoint
    high = discrete_gaussian_delta(epsilon=epsilon + step, sigma_squared=scale, sensitivity=shift).midpoint
    difference = mpmath.mpf((low - high).numerator) / (low - high).denominator / (2 * mpmath.mpf(step.numerator) / step.denominator)
    exact = mpmath.mpf(derivative.mid().str(30, radius=False))
    assert abs(difference / exact - 1) < mpmath.mpf(10) ** -15
