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


@pytest.mark.parametrize(("delta", "scale", "shift"), [
    (Fraction(1, 1000), Fraction(2), 1), (Fraction(1, 10), Fraction(1), 3), (Fraction(1, 10**6), Fraction(5), 12),
    (Fraction(1, 2), Fraction(1, 3), 1),
])
def test_smallest_epsilon_at_delta(delta: Fraction, scale: Fraction, shift: int) -> None:
    from reference.privacy.discrete_laplace_profile import discrete_laplace_epsilon

    found = discrete_laplace_epsilon(delta=delta, scale=scale, sensitivity=shift)
    assert 0 < found.lower < found.upper < Fraction(shift) / scale
    assert found.upper - found.lower <= found.upper / 10**20
    # the root of the term-by-term sum (mpmath's Anderson–Björck solver, started just outside the bracket)
    low = mpmath.mpf(found.lower.numerator) / found.lower.denominator
    high = mpmath.mpf(found.upper.numerator) / found.upper.denominator
    target = mpmath.mpf(delta.numerator) / delta.denominator
    assert direct(found.upper, scale, shift) <= target < direct(found.lower, scale, shift)
    root = mpmath.findroot(lambda eps: direct_at(eps, scale, shift) - target, (low * (1 - mpmath.mpf(10) ** -15),
                                                                             high * (1 + mpmath.mpf(10) ** -15)),
                           solver="anderson")
    assert abs(root / high - 1) < mpmath.mpf(10) ** -18


def direct_at(epsilon: mpmath.mpf, scale: Fraction, shift: int) -> mpmath.mpf:
    """:func:`direct` at an mpmath ε."""
    t = mpmath.mpf(scale.numerator) / scale.denominator
    r = mpmath.exp(-1 / t)
    norm = (1 - r) / (1 + r)
    e = mpmath.exp(epsilon)
    reach = int(150 * float(scale)) + shift
    return mpmath.fsum(max(0, norm * (r ** abs(y) - e * r ** abs(y - shift))) for y in range(-reach, reach + 1))


def test_smallest_epsilon_is_zero_when_delta_is_large() -> None:
    from reference.privacy.discrete_laplace_profile import discrete_laplace_epsilon

    # δ(0) is the total variation distance, below 1: a δ above it is met at ε = 0
    tv = direct(Fraction(0), Fraction(1), 1)
    above = Fraction(int(tv * 10**6) + 1, 10**6)
    found = discrete_laplace_epsilon(delta=above, scale=1, sensitivity=1)
    assert found.lower == found.upper == 0


def test_calibration_audit_reports_the_smallest_epsilon() -> None:
    from reference.audit.calibration import audit_discrete_laplace

    verdict = audit_discrete_laplace(scale=2, sensitivity=1, epsilon="2/5", delta="1/1000")
    assert not verdict.holds and verdict.epsilon_at_delta is not None
    assert Fraction(2, 5) < verdict.epsilon_at_delta.lower  # the claim fails because ε(δ) is above it
    assert direct(verdict.epsilon_at_delta.upper, Fraction(2), 1) <= mpmath.mpf(1) / 1000
