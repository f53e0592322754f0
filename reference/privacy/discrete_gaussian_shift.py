"""The exact δ(ε) of independent discrete Gaussian noise N_Z(0, σ²)^d under an integer shift vector u, certified.

A linear release with integer noise and a unique integer draw shift u (neighbouring inputs move the noise vector
by u) is the pair (N_Z(0, σ²)^d, N_Z(u, σ²)^d). Its privacy loss at y is L = (‖u‖² − 2⟨u, y⟩)/(2σ²), so with
T = ⟨u, Y⟩ (Y ~ N_Z(0, σ²)^d)

    δ(ε) = E[(1 − e^{ε − L})_+] = Σ_t P[T = t] · (−expm1(ε − (‖u‖² − 2t)/(2σ²)))   over t < ‖u‖²/2 − εσ².

(The divergence is symmetric: y ↦ u − y exchanges the two laws.) T is a sum of independent |u_i|·Y_i (Y_i
symmetric), so its law is the product of the polynomials Σ_y p(y) z^{|u_i| y} — an exact convolution, done with
Arb polynomials (python-flint ``arb_poly``, rigorous). Each coordinate is truncated to |y| <= M; the dropped mass
is at most k·2·P[Y > M] (k the non-zero entries) and, δ being the expectation of a function in [0, 1], the
enclosure is [δ_truncated, δ_truncated + dropped]. M grows until the dropped mass is below 2^-90 of δ. One
non-zero entry Δ is the one-dimensional profile of :mod:`reference.privacy.discrete_gaussian_profile` (a test).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import isqrt

from flint import arb, arb_poly

from reference.core.certified import TARGET_ACCURACY_BITS, CertifiedReal, UndecidedComparisonError, working_precision
from reference.core.certified import ball as _ball
from reference.core.validate import RationalLike, nonnegative_fraction, positive_fraction, sequence_of
from reference.privacy.discrete_gaussian_profile import gaussian_tail_bound, normaliser_ball

#: Most coefficients of the convolved law (the product polynomial's length): the cost bound of one evaluation.
MAX_SUPPORT = 400_000
START_PRECISION = 160
MAX_PRECISION = 1 << 12


def _entries(shift: Sequence[object]) -> list[int]:
    values: list[int] = []
    for value in sequence_of(shift, "shift", "a list of integers (an integer draw shift)"):
        if isinstance(value, Fraction) and value.denominator == 1:
            values.append(value.numerator)
        elif isinstance(value, int) and not isinstance(value, bool):
            values.append(value)
        else:
            raise ValueError(f"shift must hold integers (an integer draw shift), got {value!r}")
    if not values:
        raise ValueError("shift must list at least one entry")
    magnitudes = sorted(abs(value) for value in values if value)
    if not magnitudes:
        raise ValueError("shift must have a non-zero entry (a zero shift is no neighbouring pair)")
    return magnitudes


def _delta_parts(
    epsilon: Fraction, sigma_squared: Fraction, magnitudes: list[int], reach: int, bits: int
) -> tuple[arb, arb]:
    """(δ of the truncated law, the bound on the dropped mass)."""
    normaliser = normaliser_ball(sigma_squared, bits)
    weights = [(_ball(Fraction(-(y * y)) / (2 * sigma_squared)).exp() / normaliser) for y in range(-reach, reach + 1)]
    law = arb_poly([1])
    for magnitude in magnitudes:
        coefficients = [arb(0)] * (2 * reach * magnitude + 1)
        for index, weight in enumerate(weights):
            coefficients[index * magnitude] = weight
        law = law * arb_poly(coefficients)
    offset = reach * sum(magnitudes)  # coefficient index = t + offset
    norm = sum(magnitude * magnitude for magnitude in magnitudes)
    bound = Fraction(norm, 2) - epsilon * sigma_squared  # t < bound contributes
    total = arb(0)
    coefficients = law.coeffs()
    for index, coefficient in enumerate(coefficients):
        t = index - offset
        if t >= bound:
            break
        if coefficient != 0:
            total += coefficient * -(_ball(epsilon - Fraction(norm - 2 * t) / (2 * sigma_squared)).expm1())
    dropped = 2 * len(magnitudes) * gaussian_tail_bound(reach + 1, sigma_squared) / normaliser
    return total, dropped


def discrete_gaussian_shift_delta(
    *, epsilon: RationalLike, sigma_squared: RationalLike, shift: Sequence[int]
) -> CertifiedReal:
    """Certified enclosure of δ(ε) for N_Z(0, σ²)^d against N_Z(u, σ²)^d, u = ``shift`` (integers, not all
    zero); ``epsilon >= 0`` and ``sigma_squared > 0`` exact rationals. Refused (ValueError) when the convolved
    law would exceed :data:`MAX_SUPPORT` coefficients.

    Args:
        epsilon: ε >= 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        sigma_squared: the scale σ² > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        shift: the integer shift vector u, not all zero.
    """
    eps = nonnegative_fraction(epsilon, "epsilon")
    scale = positive_fraction(sigma_squared, "sigma_squared")
    magnitudes = _entries(shift)
    # first reach: the tail beyond it below 2^-(bits + 20) per coordinate (exp(-M²/(2σ²)) <= 2^-(b))
    bits = TARGET_ACCURACY_BITS + 20
    reach = isqrt(int(2 * scale * bits * 7 // 10) + 1) + 2
    precision = START_PRECISION
    while True:
        if (2 * reach + 1) * sum(magnitudes) > MAX_SUPPORT:
            raise ValueError(
                f"shift and sigma_squared need a convolved law of more than {MAX_SUPPORT} points "
                f"(sum of |u_i| = {sum(magnitudes)}, reach {reach}): too costly for the exact profile")
        with working_precision(precision):
            total, dropped = _delta_parts(eps, scale, magnitudes, reach, bits)
            found = total + arb(0).union(dropped.upper())
            truncation_limits = dropped.upper() > total.lower() * arb(2) ** -(TARGET_ACCURACY_BITS + 8)
        if found.is_finite() and found.rel_accuracy_bits() >= TARGET_ACCURACY_BITS:
            enclosure = CertifiedReal.from_arb(found)
            return CertifiedReal(max(enclosure.lower, Fraction(0)), min(enclosure.upper, Fraction(1)))
        if truncation_limits:
            reach *= 2  # the dropped tail, not the precision, limits the accuracy: widen the box
            continue
        precision *= 2
        if precision > MAX_PRECISION:
            raise UndecidedComparisonError("could not enclose the shifted discrete Gaussian's delta(epsilon) "
                                           f"to {TARGET_ACCURACY_BITS} bits")
