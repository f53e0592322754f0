"""The discrete Gaussian under an integer shift vector: one entry is the one-dimensional profile; two entries
match a direct two-dimensional sum; more entries of 1 are compositions, so δ grows with their number."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

import mpmath
import pytest

from reference.privacy.discrete_gaussian_profile import discrete_gaussian_delta
from reference.privacy.discrete_gaussian_shift import discrete_gaussian_shift_delta


@pytest.mark.parametrize(("epsilon", "sigma_squared", "shift"), [
    (Fraction(1, 2), Fraction(1), 1), (Fraction(1, 10), Fraction(9, 2), 3), (Fraction(0), Fraction(2), 1),
])
def test_one_entry_is_the_scalar_profile(epsilon: Fraction, sigma_squared: Fraction, shift: int) -> None:
    vector = discrete_gaussian_shift_delta(epsilon=epsilon, sigma_squared=sigma_squared, shift=[0, shift, 0])
    scalar = discrete_gaussian_delta(epsilon=epsilon, sigma_squared=sigma_squared, sensitivity=shift)
    assert vector.lower <= scalar.upper and scalar.lower <= vector.upper
    assert vector.upper - vector.lower <= vector.upper * Fraction(1, 10**20)


def test_two_entries_match_the_direct_sum() -> None:
    # Σ_{y1, y2} max(0, p(y) − e^ε p(y − u)) for u = (1, -2), σ² = 3/2, ε = 1/3, over |y_i| <= 40, 40 digits
    mpmath.mp.dps = 40
    s2, eps, u = mpmath.mpf(3) / 2, mpmath.mpf(1) / 3, (1, -2)
    norm = mpmath.nsum(lambda y: mpmath.exp(-y * y / (2 * s2)), [-mpmath.inf, mpmath.inf])
    p = [mpmath.exp(-y * y / (2 * s2)) / norm for y in range(-60, 61)]

    def prob(y: int) -> mpmath.mpf:
        return p[y + 60] if abs(y) <= 60 else mpmath.mpf(0)

    total = mpmath.mpf(0)
    for y1 in range(-40, 41):
        for y2 in range(-40, 41):
            term = prob(y1) * prob(y2) - mpmath.exp(eps) * prob(y1 - u[0]) * prob(y2 - u[1])
            if term > 0:
                total += term
    found = discrete_gaussian_shift_delta(epsilon=Fraction(1, 3), sigma_squared=Fraction(3, 2), shift=u)
    middle = mpmath.mpf(found.midpoint.numerator) / found.midpoint.denominator
    assert abs(middle / total - 1) < mpmath.mpf(10) ** -20


def test_more_unit_entries_compose() -> None:
    deltas = [discrete_gaussian_shift_delta(epsilon=1, sigma_squared=4, shift=[1] * count) for count in (1, 2, 4, 8)]
    assert all(low.upper < high.lower for low, high in pairwise(deltas))
    with pytest.raises(ValueError, match="non-zero entry"):
        discrete_gaussian_shift_delta(epsilon=1, sigma_squared=4, shift=[0, 0])
