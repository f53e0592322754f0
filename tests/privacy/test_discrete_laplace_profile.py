"""The discrete Laplace's exact δ(ε) in closed form, against the hockey-stick sum computed term by term."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

from reference.privacy.discrete_laplace_profile import discrete_laplace_delta


def direct(epsilon: Fraction, scale: Fraction, shift: int) -> mpmath.mpf:
    """Σ_y max(0, p(y) − e^ε p(y − Δ)) over |y| <= 150 t + Δ in 40-digit mpmath (the rest is below 1e-65)."""
    mpmath.mp.dps = 40
    t = mpmath.mpf(scale.numerator) / scale.denominator
    r = mpmath.exp(-1 / t)
    norm = (1 - r) / (1 + r)
    e = mpmath.exp(mpmath.mpf(epsilon.numerator) / epsilon.denominator)
    reach = int(150 * float(scale)) + shift
    total = mpmath.mpf(0)
    for y in range(-reach, reach + 1):
        term = norm * (r ** abs(y) - e * r ** abs(y - shift))
        if term > 0:
            total += term
    return total


@pytest.mark.parametrize(("epsilon", "scale", "shift"), [
    (Fraction(1, 2), Fraction(1), 1), (Fraction(1, 10), Fraction(3), 1), (Fraction(1, 2), Fraction(2), 5),
    (Fraction(0), Fraction(3, 2), 4), (Fraction(1), Fraction(1, 3), 7), (Fraction(3, 10), Fraction(5), 12),
])
def test_closed_form_equals_the_sum(epsilon: Fraction, scale: Fraction, shift: int) -> None:
    enclosure = discrete_laplace_delta(epsilon=epsilon, scale=scale, sensitivity=shift)
    expected = direct(epsilon, scale, shift)
    assert expected > 0
    middle = mpmath.mpf(enclosure.midpoint.numerator) / enclosure.midpoint.denominator
    assert abs(middle / expected - 1) < mpmath.mpf(10) ** -20


def test_zero_at_and_beyond_the_pure_epsilon() -> None:
    # Δ/t = 3/2: δ(3/2) = 0 exactly, and just below it δ > 0
    assert discrete_laplace_delta(epsilon=Fraction(3, 2), scale=2, sensitivity=3).upper == 0
    assert discrete_laplace_delta(epsilon=Fraction(149, 100), scale=2, sensitivity=3).lower > 0
