"""Certified enclosures and comparisons of the Gaussian mechanism's δ(ε) (the profile of
:mod:`reference.privacy.gaussian_profile`): precision ladders that stop when a ball is narrow enough or lies on
one side of a threshold. Every Gaussian calibration decides on these.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from flint import arb

from reference.core.certified import (
    MAX_PRECISION,
    START_PRECISION,
    TARGET_ACCURACY_BITS,
    CertifiedReal,
    UndecidedComparisonError,
    next_precision,
    working_precision,
)
from reference.core.certified import ball as _ball
from reference.core.validate import (
    describe,
)
from reference.privacy.gaussian_profile import delta_ball, profile_ball


def enclose_delta(*, epsilon: Fraction, sigma: Fraction, sensitivity_squared: Fraction) -> CertifiedReal:
    """δ(ε) to TARGET_ACCURACY_BITS relative bits (precision doubled until reached).

    Where that accuracy is out of reach (δ(ε) below about 2**-(2**20), as at σ/Δ = 10**10), the enclosure at
    the highest precision is returned: still certified, only wider (typically [0, 2**-(2**20)], a bound).

    Args:
        epsilon: ε >= 0, an exact ``Fraction``.
        sigma: the noise standard deviation σ > 0 (not σ²), an exact ``Fraction``.
        sensitivity_squared: the squared ℓ₂ sensitivity Δ² > 0 (not Δ), an exact ``Fraction``.
    """
    return clip_to_unit(CertifiedReal.from_arb(accurate_delta_ball(epsilon=epsilon, sigma=sigma, sensitivity_squared=sensitivity_squared)))


def accurate_delta_ball(*, epsilon: Fraction, sigma: Fraction, sensitivity_squared: Fraction) -> arb:
    """The Arb ball :func:`enclose_delta` converts (kept as a ball for comparisons that need no rationals).

    Args:
        epsilon: ε >= 0, an exact ``Fraction``.
        sigma: the noise standard deviation σ > 0 (not σ²), an exact ``Fraction``.
        sensitivity_squared: the squared ℓ₂ sensitivity Δ² > 0 (not Δ), an exact ``Fraction``.
    """
    precision = START_PRECISION + TARGET_ACCURACY_BITS
    last = None
    while precision <= MAX_PRECISION:
        with working_precision(precision):
            ball = delta_ball(epsilon=epsilon, sigma=sigma, sensitivity_squared=sensitivity_squared)
        if ball.is_finite() and ball.rel_accuracy_bits() >= TARGET_ACCURACY_BITS:
            return ball
        if ball.is_finite():
            last = ball
        precision = next_precision(precision)
    if last is not None:
        return last
    raise UndecidedComparisonError(
        f"could not enclose delta(epsilon) to {TARGET_ACCURACY_BITS} bits with {MAX_PRECISION} bits of precision"
    )


def clip_to_unit(enclosure: CertifiedReal) -> CertifiedReal:
    """Intersect with [0, 1], where δ(ε) lies by definition (a difference of probabilities, never < 0).

    Args:
        enclosure: a certified enclosure of δ(ε), a :class:`reference.core.certified.CertifiedReal`, possibly
            reaching below 0 or above 1 by its rounding.
    """
    lower = min(max(enclosure.lower, Fraction(0)), Fraction(1))
    upper = max(min(enclosure.upper, Fraction(1)), Fraction(0))
    return CertifiedReal(lower, upper)


def delta_satisfied(
    *, epsilon: Fraction, delta: Fraction, sigma: Fraction, sensitivity_squared: Fraction
) -> tuple[bool, CertifiedReal]:
    """Certified ``δ(ε) <= delta``: (True, enclosure with upper <= delta) or (False, lower > delta).

    The precision is doubled until the ball lies on one side of ``delta``; a ball that contains ``delta``
    never decides. Raises :class:`UndecidedComparisonError` past MAX_PRECISION.

    Args:
        epsilon: ε >= 0, an exact ``Fraction``.
        delta: the threshold δ to compare δ(ε) with, an exact ``Fraction`` in [0, 1).
        sigma: the noise standard deviation σ > 0 (not σ²), an exact ``Fraction``.
        sensitivity_squared: the squared ℓ₂ sensitivity Δ² > 0 (not Δ), an exact ``Fraction``.
    """
    decided, enclosure, _ = delta_decided(epsilon=epsilon, sigma=sigma, sensitivity_squared=sensitivity_squared, delta=delta, start=START_PRECISION)
    return decided, enclosure


def delta_decided(
    *, epsilon: Fraction, delta: Fraction, sigma: Fraction, sensitivity_squared: Fraction, start: int
) -> tuple[bool, CertifiedReal, int]:
    """:func:`delta_satisfied` from the precision ``start`` (a power of two times START_PRECISION), also
    returning the precision that decided: a bisection starts its next decision there instead of climbing the
    same ladder again.

    Args:
        epsilon: ε >= 0, an exact ``Fraction``.
        delta: the threshold δ to compare δ(ε) with, an exact ``Fraction`` in [0, 1).
        sigma: the noise standard deviation σ > 0 (not σ²), an exact ``Fraction``.
        sensitivity_squared: the squared ℓ₂ sensitivity Δ² > 0 (not Δ), an exact ``Fraction``.
        start: the Arb precision in bits to try first, an integer: START_PRECISION (64) times a power of two, at
            most MAX_PRECISION (2**15); the precision is doubled from there.
    """
    decided, ball, precision = ball_decided(epsilon=epsilon, sigma=sigma, sensitivity_squared=sensitivity_squared, delta=delta, start=start)
    return decided, clip_to_unit(CertifiedReal.from_arb(ball)), precision


def ball_decided(
    *, epsilon: Fraction, delta: Fraction, sigma: Fraction, sensitivity_squared: Fraction, start: int
) -> tuple[bool, arb, int]:
    """:func:`delta_decided` with the deciding ball itself: the comparison is made on Arb balls (a ball lying
    entirely on one side of the ball of ``delta``), so a search that needs only the decision builds no rationals
    (those of a δ near 1e-10000 are 33,000-bit integers, slower to compare than the evaluation itself).

    Args:
        epsilon: ε >= 0, an exact ``Fraction``.
        delta: the threshold δ to compare δ(ε) with, an exact ``Fraction`` in [0, 1).
        sigma: the noise standard deviation σ > 0 (not σ²), an exact ``Fraction``.
        sensitivity_squared: the squared ℓ₂ sensitivity Δ² > 0 (not Δ), an exact ``Fraction``.
        start: the Arb precision in bits to try first, an integer: START_PRECISION (64) times a power of two, at
            most MAX_PRECISION (2**15); the precision is doubled from there.
    """
    precision = start
    while precision <= MAX_PRECISION:
        with working_precision(precision):
            ball = delta_ball(epsilon=epsilon, sigma=sigma, sensitivity_squared=sensitivity_squared)
            target = _ball(delta)
        if ball.is_finite():
            if ball <= target:
                return True, ball, precision
            if ball > target:
                return False, ball, precision
        precision *= 2
    raise UndecidedComparisonError(
        f"delta(epsilon) at epsilon={describe(epsilon)}, sigma={describe(sigma)}, sensitivity_squared="
        f"{describe(sensitivity_squared)} is indistinguishable from delta={describe(delta)} at {MAX_PRECISION} bits"
    )


def reported_enclosure(
    *, epsilon: Fraction, delta: Fraction, sigma: Fraction, sensitivity_squared: Fraction
) -> CertifiedReal:
    """δ(ε) for a report: the 80-bit enclosure when it lies on one side of ``delta`` (it nearly always does),
    else the (wider) enclosure that decided the comparison.

    Args:
        epsilon: ε >= 0, an exact ``Fraction``.
        delta: the threshold δ the report compares δ(ε) with, an exact ``Fraction`` in [0, 1).
        sigma: the noise standard deviation σ > 0 (not σ²), an exact ``Fraction``.
        sensitivity_squared: the squared ℓ₂ sensitivity Δ² > 0 (not Δ), an exact ``Fraction``.
    """
    enclosure = enclose_delta(epsilon=epsilon, sigma=sigma, sensitivity_squared=sensitivity_squared)
    if enclosure.certainly_le(delta) or enclosure.certainly_gt(delta):
        return enclosure
    return delta_satisfied(epsilon=epsilon, sigma=sigma, sensitivity_squared=sensitivity_squared, delta=delta)[1]


def dyadic_guess(compute: Callable[[], arb]) -> Fraction:
    """A rough positive dyadic rational from an Arb expression at 53 bits (a starting point, not a result).

    Args:
        compute: a function of no arguments returning an Arb ball (``flint.arb``), evaluated at 53 bits; a
            result that is not a finite ball (or not positive) gives 1.
    """
    with working_precision(53):
        ball = compute()
    if not isinstance(ball, arb) or not ball.is_finite():
        return Fraction(1)
    midpoint = CertifiedReal.from_arb(ball.mid()).lower
    return midpoint if midpoint > 0 else Fraction(1)




def delta_and_slope(*, epsilon: arb, sigma: arb, sensitivity_squared: arb) -> tuple[arb, arb]:
    """Balls containing δ(ε) and dδ/dσ at σ, at the current ``ctx.prec``. The slope has a closed form:
    with a = Δ/(2σ), b = εσ/Δ, e^ε φ(−a − b) = φ(a − b) (since (a + b)² − (a − b)² = 4ab = 2ε), so the two
    terms' derivatives combine into dδ/dσ = −(Δ/σ²) φ(a − b).

    Args:
        epsilon: ε >= 0 as an Arb ball (``flint.arb``), at the caller's working precision.
        sigma: the noise standard deviation σ > 0 (not σ²) as an Arb ball.
        sensitivity_squared: the squared ℓ₂ sensitivity Δ² > 0 (not Δ) as an Arb ball.
    """
    root_d2 = sensitivity_squared.sqrt()
    ratio = sigma / root_d2
    gap = 1 / (2 * ratio) - epsilon * ratio
    density = (-(gap * gap) / 2).exp() / (2 * arb.pi()).sqrt()
    return profile_ball(epsilon, ratio), -(root_d2 / (sigma * sigma)) * density


