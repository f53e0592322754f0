"""The exact privacy profile δ(ε) of the discrete Laplace mechanism, in closed form, certified with Arb.

``M(x) = q(x) + Y`` with ``Y ~ Lap_Z(t)``, ``P[Y = y] = C r^{|y|}`` (r = e^{−1/t}, C = (1 − r)/(1 + r)) and ``q``
integer-valued with neighbouring values differing by the integer Δ. The hockey-stick divergence

    δ(ε) = Σ_y max(0, p(y) − e^ε p(y − Δ))

has the likelihood ratio p(y)/p(y − Δ) = r^{|y| − |y − Δ|}: e^{Δ/t} for y <= 0 and e^{(Δ − 2y)/t} for 0 < y < Δ
(decreasing), so the positive terms are y <= 0 (when Δ/t > ε) and y = 1..m with m the number of integers
1 <= y < (Δ − εt)/2. Summing the two geometric series,

    δ(ε) = [ −expm1(ε − Δ/t) + (−expm1(−m/t)) · r · (−expm1(ε − (Δ − m − 1)/t)) ] / (1 + r)

for ε < Δ/t, and δ(ε) = 0 for ε >= Δ/t (the mechanism is exactly (Δ/t)-DP). Every factor is positive (the second
group is Σ_{y=1..m} (p(y) − e^ε p(y − Δ))·(1 + r), a sum of positive terms), so the enclosure keeps its relative
accuracy. The tests compare it with the direct sum.
"""

from __future__ import annotations

from fractions import Fraction

from flint import arb

from reference.core.bisection import bisect
from reference.core.certified import CertifiedReal, ball, certify
from reference.core.validate import (
    RationalLike,
    check_positive_int,
    nonnegative_fraction,
    open_unit_fraction,
    positive_fraction,
    tolerance_fraction,
)


def positive_terms(*, epsilon: Fraction, scale: Fraction, sensitivity: int) -> int:
    """m: how many y in 1..Δ−1 have p(y) > e^ε p(y − Δ), i.e. 1 <= y < (Δ − εt)/2.

    Args:
        epsilon: ε >= 0, an exact ``Fraction``.
        scale: the noise scale t > 0 of ``Lap_Z(t)`` (``P[Y = y] ∝ e^{−|y|/t}``), an exact ``Fraction``.
        sensitivity: the integer shift Δ >= 1 between neighbouring query values.
    """
    bound = (sensitivity - epsilon * scale) / 2  # y < bound
    if bound <= 1:
        return 0
    below = bound.numerator // bound.denominator
    return below - 1 if below == bound else below  # integers y >= 1 strictly below the bound


def discrete_laplace_delta(*, epsilon: RationalLike, scale: RationalLike, sensitivity: int = 1) -> CertifiedReal:
    """Certified enclosure of the exact δ(ε) of ``q + Lap_Z(t)`` for an integer shift Δ (``sensitivity``);
    ``epsilon >= 0``, ``scale`` = t > 0 exact rationals. Exactly 0 when ε >= Δ/t.

    Args:
        epsilon: ε >= 0, an exact rational: int, Fraction or a string such as ``"1/2"``; a float is refused.
        scale: the noise scale t > 0 of ``Lap_Z(t)`` (``P[Y = y] ∝ e^{−|y|/t}``), an exact rational as ``epsilon``.
        sensitivity: the integer shift Δ >= 1 between neighbouring query values (default 1).
    """
    eps = nonnegative_fraction(epsilon, "epsilon")
    t = positive_fraction(scale, "scale")
    shift = check_positive_int(sensitivity, "sensitivity")
    if eps >= Fraction(shift) / t:
        return CertifiedReal.exact(Fraction(0))
    count = positive_terms(epsilon=eps, scale=t, sensitivity=shift)

    def compute() -> arb:
        ratio = (-1 / ball(t)).exp()  # r
        left = -(ball(eps - Fraction(shift) / t).expm1())
        middle = arb(0)
        if count:
            middle = (-(ball(-Fraction(count) / t).expm1())) * ratio * (
                -(ball(eps - Fraction(shift - count - 1) / t).expm1()))
        return (left + middle) / (1 + ratio)

    found = certify(compute, label="the discrete Laplace delta(epsilon)")
    return CertifiedReal(max(found.lower, Fraction(0)), min(found.upper, Fraction(1)))


def _sufficient(epsilon: Fraction, scale: Fraction, sensitivity: int, target: Fraction) -> bool | None:
    """δ(ε) <= target, certified: True or False from an enclosure on one side of ``target``, None when the
    standard enclosure straddles it (δ(ε) is a combination of exponentials of rationals, so equality with a
    rational target is not expected, but it is never assumed either)."""
    enclosure = discrete_laplace_delta(epsilon=epsilon, scale=scale, sensitivity=sensitivity)
    if enclosure.certainly_le(target):
        return True
    if enclosure.certainly_gt(target):
        return False
    return None


def discrete_laplace_epsilon(*, delta: RationalLike, scale: RationalLike, sensitivity: int = 1,
                             tolerance: RationalLike = Fraction(1, 10**22)) -> CertifiedReal:
    """Certified ``[lower, upper]`` around the smallest ε >= 0 with δ(ε) <= ``delta`` for ``q + Lap_Z(t)``.

    ``upper`` is certified sufficient (the enclosure of δ(upper) is <= ``delta``) and ``lower`` certified
    insufficient, unless δ(0) <= ``delta`` (``[0, 0]``). δ(ε) decreases in ε and is 0 from Δ/t on, so the
    threshold lies in (0, Δ/t]: exact rational bisection on that bracket until its relative width is at most
    ``tolerance`` (in (0, 1)); an undecided midpoint stops it early with the (valid, wider) bracket it has.

    Args:
        delta: the target δ in the open interval (0, 1), an exact rational: int, Fraction or a string such as
            ``"1e-6"``; a float is refused.
        scale: the noise scale t > 0 of ``Lap_Z(t)`` (``P[Y = y] ∝ e^{−|y|/t}``), an exact rational as ``delta``.
        sensitivity: the integer shift Δ >= 1 between neighbouring query values (default 1).
        tolerance: the bisection's relative width at which it stops, an exact rational in [1e-100, 1) (default
            1e-22).
    """
    target = open_unit_fraction(delta, "delta")
    t = positive_fraction(scale, "scale")
    shift = check_positive_int(sensitivity, "sensitivity")
    tol = tolerance_fraction(tolerance)
    if _sufficient(Fraction(0), t, shift, target):
        return CertifiedReal(Fraction(0), Fraction(0))

    def sufficient(epsilon: Fraction) -> bool | None:
        return _sufficient(epsilon, t, shift, target)

    # ε = 0 is not certified sufficient (insufficient, or undecided: then [0, Δ/t] is still a valid bracket of
    # the smallest sufficient ε); ε = Δ/t gives δ = 0 exactly
    return CertifiedReal(*bisect(sufficient, Fraction(0), Fraction(shift) / t, tolerance=tol))
