"""The Gaussian mechanism's privacy trade-off at a fixed σ: δ at a given ε (:func:`gaussian_delta`) and the
smallest ε at a given δ (:func:`gaussian_epsilon`), both certified enclosures. Conventions: :mod:`reference.privacy.gaussian`.
"""

from __future__ import annotations

from fractions import Fraction

from flint import arb

from reference.core.bisection import bisect, bracket_downward, bracket_upward
from reference.core.certified import (
    START_PRECISION,
    CertifiedReal,
)
from reference.core.certified import ball as _ball
from reference.core.validate import (
    RationalLike,
    open_unit_fraction,
    positive_fraction,
    tolerance_fraction,
)
from reference.privacy.gaussian_enclosure import ball_decided, dyadic_guess, enclose_delta

#: Relative tolerance of the ε enclosures and of the verdict's σ ratio: narrow enough that their 20-digit
#: decimals are backed by the enclosure (CertifiedReal.decimal refuses digits it cannot certify).
FINE_TOLERANCE = Fraction(1, 10**22)


def gaussian_delta(*, epsilon: RationalLike, sigma: RationalLike, sensitivity_squared: RationalLike) -> CertifiedReal:
    """Certified enclosure of δ(ε), the smallest δ for which ``N(0, σ²)`` noise at sensitivity Δ is (ε, δ)-DP.

    ``epsilon > 0``, ``sigma > 0`` and ``sensitivity_squared = Δ² > 0`` are exact rationals. The enclosure is
    rigorous (Arb) and about 24 digits wide (relative).

    Args:
        epsilon: ε >= 0, exact (int, Fraction or a decimal/fraction string such as ``"1e-3"``; no float).
        sigma: the Gaussian's standard deviation σ > 0, exact.
        sensitivity_squared: Δ², the squared ℓ2 sensitivity, > 0, exact.
    """
    eps = positive_fraction(epsilon, "epsilon")
    sig = positive_fraction(sigma, "sigma")
    d2 = positive_fraction(sensitivity_squared, "sensitivity_squared")
    return enclose_delta(epsilon=eps, sigma=sig, sensitivity_squared=d2)


def gaussian_epsilon(
    *,
    delta: RationalLike,
    sigma: RationalLike,
    sensitivity_squared: RationalLike,
    tolerance: RationalLike = FINE_TOLERANCE,
) -> CertifiedReal:
    """Certified enclosure ``[lower, upper]`` of the smallest ε >= 0 with ``δ(ε) <= delta`` at ``sigma``.

    ``upper`` is certified sufficient (the Arb upper bound of δ(upper) is <= delta) — the number an auditor
    can quote — and ``lower`` certified insufficient (the Arb lower bound of δ(lower) is > delta), unless the
    answer is exactly 0 (δ(0) = erf(Δ/(2√2 σ)) <= delta), returned as ``[0, 0]``. The width is at most
    ``tolerance * upper`` (``tolerance`` a rational in (0, 1)).

    Args:
        delta: δ in (0, 1), exact (int, Fraction or a string such as ``"1e-6"``).
        sigma: the Gaussian's standard deviation σ > 0, exact.
        sensitivity_squared: Δ², the squared ℓ2 sensitivity, > 0, exact.
        tolerance: the relative width the ε enclosure is narrowed to, in (0, 1), exact (default 1e-22).
    """
    target = open_unit_fraction(delta, "delta")
    sig = positive_fraction(sigma, "sigma")
    d2 = positive_fraction(sensitivity_squared, "sensitivity_squared")
    tol = tolerance_fraction(tolerance)
    ladder = [START_PRECISION]  # the precision that decided last (nearby ε need about the same)

    def sufficient(epsilon: Fraction) -> bool:
        decided, _, ladder[0] = ball_decided(epsilon=epsilon, sigma=sig, sensitivity_squared=d2, delta=target, start=max(START_PRECISION, ladder[0] // 2))
        return decided

    if sufficient(Fraction(0)):
        return CertifiedReal(Fraction(0), Fraction(0))
    # bracket: δ(ε) -> 0 as ε -> oo, so doubling finds a sufficient ε; ε = 0 is certified insufficient. It
    # starts at the classical ε ≈ Δ²/(2σ²) + (Δ/σ) sqrt(2 log(1.25/δ)) (only where to look; a positive dyadic of
    # any magnitude): from a fixed start it took one certified decision per factor of two, some 16,600 of them
    # to reach ε ≈ 1e-4998 at Δ/σ = 1e-5000, and some 66,000 to reach ε ≈ 1e20000 at σ = 1e-10000
    start = dyadic_guess(lambda: _ball(d2) / (2 * _ball(sig) ** 2)
                          + (_ball(d2) / _ball(sig) ** 2 * 2 * (arb(5) / 4 / _ball(target)).log()).sqrt())
    low, high = bracket_upward(sufficient, Fraction(0), start) if not sufficient(start) else (
        bracket_downward(sufficient, start / 2, start))
    return CertifiedReal(*bisect(sufficient, low, high, tolerance=tol))


