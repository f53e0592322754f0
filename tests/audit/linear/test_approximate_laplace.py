"""(ε, δ) claims with δ > 0 on Laplace-kind linear noise, below the release's ε-DP ε: decided from the exact δ(ε),
never failed for being over the pure ε.

Independent values: y = x + b·Lap(1) with shift Δ = 1 has δ(ε) = 1 − e^{(ε − Δ/b)/2} for 0 <= ε <= Δ/b (the
hockey-stick divergence of two Laplace densities, integrated by hand); the discrete Laplace's δ(ε) is the direct sum
Σ_y max(0, p(y) − e^ε p(y − 1)), taken here with mpmath over |y| <= 400.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest

from reference.audit.linear.audit import audit_linear_noise
from reference.audit.linear.claim_report import claim_report


def laplace_delta_by_hand(epsilon: float, scale: float) -> float:
    return 1 - math.exp((epsilon - 1 / scale) / 2)


def discrete_laplace_delta_by_sum(epsilon: float, scale: float) -> float:
    with mpmath.workdps(40):
        ratio = mpmath.exp(-1 / mpmath.mpf(scale))
        norm = (1 - ratio) / (1 + ratio)

        def p(y: int) -> mpmath.mpf:
            return norm * ratio ** abs(y)

        total = mpmath.fsum(max(0, p(y) - mpmath.exp(epsilon) * p(y - 1)) for y in range(-400, 401))
        return float(total)


@pytest.mark.parametrize("noise", ["laplace", "discrete-laplace"])
def test_scalar_claim_below_pure_epsilon(noise: str) -> None:
    audit = audit_linear_noise([[1]], [[1]], noise, scale=1)  # type: ignore[arg-type]
    assert audit.epsilon == 1 and audit.epsilon_exact
    epsilon = Fraction(9, 10)
    exact = (laplace_delta_by_hand(0.9, 1.0) if noise == "laplace" else discrete_laplace_delta_by_sum(0.9, 1.0))
    assert 0.01 < exact < 0.1
    found = audit.laplace_delta(epsilon)
    assert found is not None and float(found.lower) == pytest.approx(exact, rel=1e-12)
    above, below = Fraction(exact * 1.001), Fraction(exact * 0.999)
    assert audit.verdict_on(epsilon=epsilon, delta=above) == "holds"
    assert audit.verdict_on(epsilon=epsilon, delta=below) == "fails"
    assert audit.verdict_on(epsilon=epsilon) == "fails"  # pure ε below the exact ε
    report = claim_report(audit, epsilon=epsilon, delta=above)
    assert report.verdict == "holds" and report.delta_at_epsilon == found


def test_worst_shift_decides() -> None:
    # two inputs on the identity noise, the second released three times over (W column (3)): its shift is 3,
    # δ(ε) of the worst column is that of Δ = 3, b = 1, i.e. of Δ = 1 at b = 1/3
    audit = audit_linear_noise([[1]], [[1, 3]], "laplace", scale=1)
    assert audit.epsilon == 3
    exact = laplace_delta_by_hand(2.5, 1 / 3)
    found = audit.laplace_delta(Fraction(5, 2))
    assert found is not None and float(found.upper) == pytest.approx(exact, rel=1e-12)


def test_discrete_shift_over_several_draws_is_inconclusive() -> None:
    # one input moves two discrete-Laplace draws: no closed form here, so no verdict either way
    audit = audit_linear_noise([[1, 0], [0, 1]], [[1], [1]], "discrete-laplace", scale=1)
    assert audit.epsilon == 2 and audit.laplace_delta(Fraction(1)) is None
    assert audit.verdict_on(epsilon=1, delta="1/2") == "inconclusive"
    assert audit.verdict_on(epsilon=1) == "fails"



def laplace_pair_delta_by_quadrature(epsilon: float) -> float:
    """δ(ε) of Lap(1)² shifted by (1, 1): E[max(0, 1 − e^{ε − ℓ₁ − ℓ₂})] with each coordinate's privacy loss
    ℓ = |y − 1| − |y| equal to 1 (y <= 0, probability 1/2), −1 (y >= 1, probability e^{-1}/2) or 1 − 2y on
    0 < y < 1 (density e^{-y}/2). Two continuous coordinates add to 2 − 2s, s = y + z with density
    e^{-s} min(s, 2 − s)/4 on (0, 2). Integrated by mpmath with the kink of max(0, ·) as a break point."""
    with mpmath.workdps(30):
        atoms = [(mpmath.mpf(1), mpmath.mpf(1) / 2), (mpmath.mpf(-1), mpmath.exp(-1) / 2)]

        def gain(loss: mpmath.mpf) -> mpmath.mpf:
            return max(mpmath.mpf(0), 1 - mpmath.exp(epsilon - loss))

        def pieces(*points: float) -> list[float]:
            return sorted({point for point in points if points[0] <= point <= points[-1]} | {points[0], points[-1]})

        total = mpmath.fsum(p * q * gain(a + b) for a, p in atoms for b, q in atoms)
        for a, p in atoms:  # one atom, one continuous coordinate (twice, by symmetry); kink at a + 1 − 2y = ε
            total += 2 * p * mpmath.quad(lambda y, a=a: mpmath.exp(-y) / 2 * gain(a + 1 - 2 * y),
                                         pieces(0, (float(a) + 1 - epsilon) / 2, 1))
        total += mpmath.quad(lambda s: mpmath.exp(-s) * min(s, 2 - s) / 4 * gain(2 - 2 * s),
                             pieces(0, 1 - epsilon / 2, 1, 2))
        return float(total)


def test_laplace_shift_over_two_draws_uses_the_vector_profile() -> None:
    audit = audit_linear_noise([[1, 0], [0, 1]], [[1], [1]], "laplace", scale=1)
    assert audit.epsilon == 2
    exact = laplace_pair_delta_by_quadrature(1.0)
    found = audit.laplace_delta(Fraction(1))
    assert found is not None and float(found.upper) == pytest.approx(exact, rel=1e-12)
    assert audit.verdict_on(epsilon=1, delta=Fraction(exact * 1.001)) == "holds"
    assert audit.verdict_on(epsilon=1, delta=Fraction(exact * 0.999)) == "fails"


def test_relative_excess_is_over_delta_when_delta_decides() -> None:
    audit = audit_linear_noise([[1]], [[1]], "laplace", scale=1)
    exact = laplace_delta_by_hand(0.9, 1.0)
    excess = audit.relative_excess(epsilon=Fraction(9, 10), delta=Fraction(1, 10))
    assert excess is not None and float(excess[1]) == pytest.approx(exact / 0.1 - 1, rel=1e-12)
    pure = audit.relative_excess(epsilon=Fraction(9, 10))  # a pure claim: the excess of ε, 1/0.9 − 1
    assert pure == (Fraction(1, 9), Fraction(1, 9))
