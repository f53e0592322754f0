"""Cascade Sampling's exact σ at extreme ε, checked independently: ``calibrate_cascade``'s certificate is the
Gaussian one at Δ² = 1 + depth/3 (CIP Corollary B.3), and its two ends are re-checked with mpmath at 1,200 digits
through the closed form δ(σ) = Φ(Δ/2σ − εσ/Δ) − e^ε Φ(−Δ/2σ − εσ/Δ): the returned σ meets δ, and ``sigma_below``
(the certified-insufficient end) misses it."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

from reference.cip.calibration import calibrate_cascade


def _delta(sigma: Fraction, epsilon: Fraction, sensitivity_squared: Fraction) -> mpmath.mpf:
    s = mpmath.mpf(sigma.numerator) / sigma.denominator
    e = mpmath.mpf(epsilon.numerator) / epsilon.denominator
    d = mpmath.sqrt(mpmath.mpf(sensitivity_squared.numerator) / sensitivity_squared.denominator)
    return mpmath.ncdf(d / (2 * s) - e * s / d) - mpmath.exp(e) * mpmath.ncdf(-d / (2 * s) - e * s / d)


@pytest.mark.parametrize("depth", [0, 5, 24])
@pytest.mark.parametrize("epsilon", [Fraction(1, 10**100), Fraction(1, 10**1000)])
@pytest.mark.parametrize("delta", [Fraction(1, 10**300), Fraction(1, 10**6), Fraction(999_999, 10**6)])
def test_the_cascade_sigma_brackets_the_optimum_at_1200_digits(depth: int, epsilon: Fraction, delta: Fraction) -> None:
    calibration = calibrate_cascade(depth=depth, epsilon=epsilon, delta=delta)
    sigma = calibration.sigma_exact
    assert calibration.sensitivity_squared == 1 + Fraction(depth, 3)
    with mpmath.workdps(1200):
        target = mpmath.mpf(delta.numerator) / delta.denominator
        assert _delta(sigma.sigma, epsilon, calibration.sensitivity_squared) <= target
        assert _delta(sigma.lower, epsilon, calibration.sensitivity_squared) > target
