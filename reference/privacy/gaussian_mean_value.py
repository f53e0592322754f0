"""A certified σ bracket from ONE Arb enclosure of the Gaussian mechanism's δ(ε) and a slope bound: the mean
value form. Conventions and model: :mod:`reference.privacy.gaussian_profile`.

Why it is safe. δ is a smooth, strictly decreasing function of σ > 0 with the closed-form slope

    dδ/dσ = −(Δ/σ²) φ(a − b) = −φ(u)/(Δ s²),   a = Δ/(2σ), b = εσ/Δ, u = b − a, s = σ/Δ

(derived in :func:`reference.privacy.gaussian_enclosure.delta_and_slope`; the two terms' derivatives combine
because e^ε φ(a + b) = φ(a − b)). For a centre ``c`` and an end σ, the mean value theorem gives
δ(σ) = δ(c) + (σ − c)·δ'(ξ) for some ξ between ``c`` and σ. Arb evaluates δ(c) and φ(u) at ``c`` as balls
(:func:`reference.privacy.gaussian_profile.profile_with_density`; every arithmetic step of Arb returns a ball
containing the exact result for every point of its arguments). The slope over the segment follows from the
slope at ``c`` by a Lipschitz bound: ``log|δ'|`` = −u²/2 − 2 log s + const has derivative

    d log|δ'| / d log σ = −u (a + b) − 2 = a² − b² − 2    (du/d log σ = b + a),

and for σ in [c/2, 2c] (a ≤ 2a(c), b ≤ 2b(c)) its size is at most K = 4a(c)² + 4b(c)² + 2 = 1/s² + 4ε²s² + 2.
With ``r`` <= 1/4 the ends' largest relative distance from ``c``, ``|log ξ − log c| <= 2r``, so
``|δ'(ξ)| / |δ'(c)|`` lies in [e^{−2Kr}, e^{2Kr}] ⊂ [1 − 4Kr, 1 + 4Kr] when 2Kr <= 1 (e^x <= 1 + 2x on [0, 1]).
The ball ``δ(c) + (σ − c)·(−|δ'(c)|)·(1 ± 4Kr)``, all in Arb, therefore contains δ(σ). If it lies entirely at
or below the ball of the target δ, δ(σ) <= δ: σ is sufficient; if it lies entirely above, σ is insufficient.
Neither comparison uses a midpoint or a float; the midpoints only choose where the bracket goes.

Why it is cheap. Only one δ(ε) needs the two normal tails (Mills' ratio cells,
:mod:`reference.privacy.mills_ratio`, or Arb's erfc); the slope shares its exponential. The remainder term is
about (σ − c)²·|δ''|, so a centre within about √tolerance (relative) of the optimum is enough to tell apart the
ends of a bracket of relative width ``tolerance``: a float estimate (≈ 1e-12) serves every tolerance down to
about 1e-22 without any further step, and each Newton step on Arb midpoints doubles the digits for finer ones
(cost linear in the digits, no bisection).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import NamedTuple

from flint import arb, ctx, fmpq

from reference.core.certified import CertifiedReal, working_precision
from reference.privacy.gaussian_enclosure import clip_to_unit
from reference.privacy.gaussian_profile import profile_ball, profile_with_density

#: Working bits kept beyond those that separate the bracket's two ends (the slope factor d log δ / d log σ
#: and the cancellation of δ's two tails take some of them); a bracket not decided is retried with more.
GUARD_BITS = 20

#: Relative accuracy (bits) the float estimate is trusted with when planning Newton steps: it is within about
#: 2**-41 on the comparison grid (its Halley steps stop below 1e-5), and a wrong trust only costs a retry.
FLOAT_ESTIMATE_BITS = 40

#: The same for the Arb-midpoint estimate of the inputs past the float range (it stops at steps of 2**-60).
WIDE_ESTIMATE_BITS = 50


class Bracket(NamedTuple):
    """A certified bracket: ``sigma`` sufficient (``at_sigma``, a ball containing δ(ε) at ``sigma``, lies at or
    below the target δ's ball), ``sigma_below = sigma (1 - tolerance)`` insufficient (``at_below`` lies above)."""

    sigma_below: Fraction
    sigma: Fraction
    at_sigma: arb
    at_below: arb


def _slope(epsilon: arb, root: arb, sigma: arb) -> arb:
    """A ball containing dδ/dσ = −(Δ/σ²) φ(Δ/(2σ) − εσ/Δ) for every σ in the ball ``sigma`` (``root`` = Δ)."""
    if root is _ONE:  # Δ = 1 exactly: two divisions fewer
        inverse = 1 / sigma
        gap = inverse / 2 - epsilon * sigma
        return (gap * gap / -2).exp() * (inverse * inverse) * _inverse_root_two_pi()
    gap = root / (2 * sigma) - epsilon * sigma / root
    return (gap * gap / -2).exp() * (root / (sigma * sigma)) * _inverse_root_two_pi()


def _inverse_root_two_pi() -> arb:
    """-1/√(2π) at the current precision (computed once per precision: a constant of every slope)."""
    precision = ctx.prec
    value = _NEGATIVE_INVERSE_ROOT_TWO_PI.get(precision)
    if value is None:
        value = -(2 * arb.pi()).rsqrt()
        if len(_NEGATIVE_INVERSE_ROOT_TWO_PI) < 64:
            _NEGATIVE_INVERSE_ROOT_TWO_PI[precision] = value
    return value


#: -1/√(2π) by working precision (a handful of precisions occur; at most 64 are kept).
_NEGATIVE_INVERSE_ROOT_TWO_PI: dict[int, arb] = {}


def unit_enclosure(ball: arb) -> CertifiedReal:
    """The exact enclosure ``[mid - rad, mid + rad]`` of a finite ball containing some δ(ε), intersected with
    [0, 1] (where δ lies by definition): :meth:`CertifiedReal.from_arb` then clipping, with the common case (a
    ball of ordinary exponents inside (0, 1)) done on integers over one power of two instead of eight Fraction
    operations; anything else takes that general route.

    Args:
        ball: a finite ``flint.arb`` ball containing δ(ε) (a value in [0, 1]).
    """
    mantissa, exponent = ball.mid().man_exp()
    radius, radius_exponent = ball.rad().man_exp()
    common = int(min(exponent, radius_exponent))
    if mantissa <= 0 or not -_ORDINARY_EXPONENT < common < 0 or exponent > 0 or radius_exponent > 0:
        return clip_to_unit(CertifiedReal.from_arb(ball))
    middle = int(mantissa) << int(exponent - common)
    spread = int(radius) << int(radius_exponent - common)
    lower, upper, unit = middle - spread, middle + spread, 1 << -common
    if lower < 0 or upper > unit:  # reaching outside [0, 1]: the general route clips
        return clip_to_unit(CertifiedReal.from_arb(ball))
    return CertifiedReal(Fraction(lower, unit), Fraction(upper, unit))


#: Binary exponents handled by :func:`unit_enclosure`'s integer route (far inside the exact range of
#: :mod:`reference.core.certified`, which widens values below 2**-(2**20)).
_ORDINARY_EXPONENT = 1 << 16


def _dyadic(value: arb) -> Fraction | None:
    """The exact dyadic midpoint of a finite ball as a Fraction (None when it is not positive)."""
    mantissa, exponent = value.mid().man_exp()
    numerator, power = int(mantissa), int(exponent)
    if numerator <= 0:
        return None
    return Fraction(numerator << power) if power >= 0 else Fraction(numerator, 1 << -power)


def newton_centre(
    centre: Fraction | float, *, epsilon: Fraction, delta: Fraction, sensitivity_squared: Fraction, bits: int
) -> Fraction | None:
    """One Newton step for δ(σ) = ``delta`` from ``centre`` on Arb midpoints at ``bits`` working bits: the next
    centre (a dyadic rational), or None where δ or its slope is not usable there. It only steers.

    Args:
        centre: the current σ, a positive exact ``Fraction`` or a float (read exactly, as the dyadic it is).
        epsilon: ε > 0, an exact ``Fraction``.
        delta: the target δ in (0, 1), an exact ``Fraction``.
        sensitivity_squared: the squared ℓ₂ sensitivity Δ² > 0 (not Δ), an exact ``Fraction``.
        bits: the Arb working precision in bits, an integer >= 2 (about twice the centre's correct bits).
    """
    with working_precision(bits):
        eps = arb(fmpq(epsilon.numerator, epsilon.denominator))
        root = arb(fmpq(sensitivity_squared.numerator, sensitivity_squared.denominator)).sqrt()
        sigma = arb(centre) if isinstance(centre, float) else arb(fmpq(centre.numerator, centre.denominator))
        value = profile_ball(eps, sigma / root)
        slope = _slope(eps, root, sigma)
        if not (value.is_finite() and slope.is_finite() and slope.mid() < 0):
            return None
        stepped = (sigma - (value.mid() - arb(fmpq(delta.numerator, delta.denominator))) / slope.mid()).mid()
        # a step that leaves [c/2, 2c] ran off δ's flat part (δ near 1, where the slope vanishes): no centre
        if not (sigma / 2 < stepped < 2 * sigma):
            return None
        return _dyadic(stepped)


def certify_bracket(
    centre: Fraction | float,
    *,
    epsilon: Fraction,
    delta: Fraction,
    sensitivity_squared: Fraction,
    tolerance: Fraction,
    bits: int,
) -> Bracket | None:
    """The bracket ``[σ (1 - tolerance), σ]`` placed by a linear step from ``centre`` and certified by the mean
    value form (module docstring) at ``bits`` working bits; None when the balls do not decide (a centre too far
    from the optimum, too few bits, δ's tails cancelling past them): the caller retries or falls back.

    ``σ`` is a dyadic rational (a short one, on a power-of-two grid finer than tolerance·σ/8) just above the
    linear step's root times (1 + tolerance/2), so the optimum sits near the bracket's middle.

    Args:
        centre: where to expand δ, a positive exact ``Fraction`` or a float (read exactly): within about
            √tolerance (relative) of the optimal σ for the bracket to be decided.
        epsilon: ε > 0, an exact ``Fraction``.
        delta: the target δ in (0, 1), an exact ``Fraction``.
        sensitivity_squared: the squared ℓ₂ sensitivity Δ² > 0 (not Δ), an exact ``Fraction``.
        tolerance: the bracket's relative width, an exact ``Fraction`` in (0, 1).
        bits: the Arb working precision in bits, an integer >= 2 (the tolerance's bits plus GUARD_BITS suffice
            away from cancellation).
    """
    saved = ctx.prec
    ctx.prec = bits
    try:
        return _certify(centre, epsilon, delta, sensitivity_squared, tolerance)
    finally:
        ctx.prec = saved


def _certify(centre: Fraction | float, epsilon: Fraction, delta: Fraction, sensitivity_squared: Fraction,
             tolerance: Fraction) -> Bracket | None:
    """:func:`certify_bracket` at the current ``ctx.prec``."""
    eps, root, eps_term, one_minus, tolerance_bits = _constants(epsilon, sensitivity_squared, tolerance, ctx.prec)
    target = arb(fmpq(delta.numerator, delta.denominator))
    # a float centre is a dyadic rational, read exactly
    if isinstance(centre, float):
        float_centre: float | None = centre
        centre_ball = arb(centre)
    else:
        float_centre, centre_ball = None, arb(fmpq(centre.numerator, centre.denominator))
    ratio = centre_ball if root is _ONE else centre_ball / root  # s = c/Δ
    value, density = profile_with_density(eps, ratio)  # balls containing δ(c) and φ(u) at c
    square = ratio * ratio
    # |δ'(c)| = φ(u)/(Δ s²), which also places the bracket (its midpoint only steers)
    steepness = density / square if root is _ONE else density / (root * square)
    if not (value.is_finite() and steepness.is_finite() and steepness > _ZERO):
        return None
    placed = None if float_centre is None else _float_placement(float_centre, value, target, steepness, tolerance,
                                                                 tolerance_bits)
    if placed is None:
        placed = _exact_placement(centre_ball, value, target, steepness, tolerance, tolerance_bits)
        if placed is None:
            return None
    high_ball, high, below = placed
    up = high_ball - centre_ball
    down = high_ball * one_minus - centre_ball  # high (1 - tolerance) - c
    # r: the ends' largest relative distance from c (a ball whose every point bounds it)
    slope = _slope_near(eps_term, square, steepness, up.union(down).abs_upper() / centre_ball)
    if slope is None:
        return None
    # the mean value form (module docstring): balls containing δ at both ends
    at_sigma = value + up * slope
    if not at_sigma <= target:
        return None
    at_below = value + down * slope
    if not at_below > target:
        return None
    return Bracket(below, high, at_sigma, at_below)


def _slope_near(eps_term: arb, square: arb, steepness: arb, reach: arb) -> arb | None:
    """A ball containing δ'(ξ) for every ξ within relative distance ``reach`` (r) of the centre c (module
    docstring: the Lipschitz bound of log|δ'|): ``-|δ'(c)| [1 - 4Kr, 1 + 4Kr]`` with ``K = 1/s² + 4ε²s² + 2``
    (``eps_term`` is 16ε², ``square`` is s², ``steepness`` is ``|δ'(c)|``); None when ``r > 1/4`` or ``2Kr > 1``."""
    spread = (_FOUR / square + eps_term * square + _EIGHT) * reach  # 4Kr
    if not (reach <= _QUARTER and spread <= _TWO):
        return None
    return -steepness * (1 + spread * _UNIT)  # _UNIT = [-1, 1]


_QUARTER, _TWO, _FOUR, _EIGHT = arb(0.25), arb(2), arb(4), arb(8)
_UNIT = arb(0, 1)
_ZERO = arb(0)


def _float_placement(centre: float, value: arb, target: arb, steepness: arb, tolerance: Fraction,
                     tolerance_bits: int) -> tuple[arb, Fraction, Fraction] | None:
    """The bracket's ends ``(ball of high, high, high (1 - tolerance))`` placed in floats: ``high`` is
    ``linear (1 + tolerance/2)`` rounded up to a multiple of ``2**-k`` <= tolerance·linear/8, where ``linear`` is
    where the tangent at c meets the target (midpoints: this only places the bracket). Exact as long as that
    multiple is a float (fewer than 53 bits, a normal number); None otherwise (the exact route places it)."""
    if tolerance_bits > _FLOAT_PLACEMENT_BITS:
        return None
    step = float(steepness)  # float(ball) is its midpoint's float, as float(ball.mid()) (without the new ball)
    linear = centre + (float(value) - float(target)) / step if step > 0.0 else 0.0
    if not 0.0 < linear < _FLOAT_CEILING:
        return None
    top, bottom = tolerance.numerator, tolerance.denominator
    _, exponent = math.frexp(linear)  # linear >= 2**(exponent - 1) and tolerance > 2**(-tolerance_bits - 1)
    scale = tolerance_bits + 5 - exponent
    # below 2**(tolerance_bits + 7) <= 2**53: an integer-valued float, then scaled back by a power of two
    count = math.ceil(math.ldexp(linear * (1.0 + 0.5 * top / bottom), scale))
    high = math.ldexp(count, -scale)
    if not _FLOAT_FLOOR < high < _FLOAT_CEILING:  # subnormal (inexact) or overflowing
        return None
    numerator, denominator = high.as_integer_ratio()
    return arb(high), Fraction(numerator, denominator), Fraction(numerator * (bottom - top), denominator * bottom)


def _exact_placement(centre_ball: arb, value: arb, target: arb, steepness: arb, tolerance: Fraction,
                     tolerance_bits: int) -> tuple[arb, Fraction, Fraction] | None:
    """:func:`_float_placement` in integers, for any centre and tolerance."""
    linear = (centre_ball + (value.mid() - target.mid()) / steepness.mid()).mid()
    if not linear > 0:
        return None
    mantissa_part, exponent_part = linear.man_exp()
    mantissa, exponent = int(mantissa_part), int(exponent_part)
    top, bottom = tolerance.numerator, tolerance.denominator
    # high = ceil(linear (1 + tol/2) 2**k) / 2**k in integers, with 2**-k <= tol·linear/8 (bit lengths bound
    # tol > 2**(-tolerance_bits - 1) and linear >= 2**(m_bits - 1 + e))
    scale = tolerance_bits + 5 - mantissa.bit_length() - exponent
    shift = exponent + scale
    numerator = mantissa * (2 * bottom + top)
    denominator = 2 * bottom
    if shift >= 0:
        numerator <<= shift
    else:
        denominator <<= -shift
    grid_count = -((-numerator) // denominator)  # the ceiling
    # the exact ends: high = grid_count / 2**scale, below = high (1 - tolerance)
    high_ratio = (grid_count, 1 << scale) if scale >= 0 else (grid_count << -scale, 1)
    high = Fraction(*high_ratio)
    below = Fraction(high_ratio[0] * (bottom - top), high_ratio[1] * bottom)
    return arb(fmpq(*high_ratio)), high, below


def _constants(epsilon: Fraction, sensitivity_squared: Fraction, tolerance: Fraction,
               precision: int) -> tuple[arb, arb, arb, arb, int]:
    """The balls of ε, Δ = √(Δ²) (the exact ``_ONE`` for Δ² = 1), 16ε² and 1 - tolerance at ``precision``, and
    the tolerance's bit count (``tolerance < 2**(1 - bits)``), kept for the last few (ε, Δ², tolerance,
    precision): a calibration over many δ at one ε reads them once."""
    key = (epsilon.numerator, epsilon.denominator, sensitivity_squared.numerator, sensitivity_squared.denominator,
           tolerance.numerator, tolerance.denominator, precision)
    found = _CONSTANTS.get(key)
    if found is None:
        eps = arb(fmpq(epsilon.numerator, epsilon.denominator))
        if sensitivity_squared.numerator == sensitivity_squared.denominator:
            root = _ONE
        else:
            root = arb(fmpq(sensitivity_squared.numerator, sensitivity_squared.denominator)).sqrt()
        one_minus = 1 - arb(fmpq(tolerance.numerator, tolerance.denominator))
        if len(_CONSTANTS) >= _CACHE_SIZE:
            _CONSTANTS.clear()
        tolerance_bits = tolerance.denominator.bit_length() - tolerance.numerator.bit_length()
        found = _CONSTANTS[key] = (eps, root, 16 * eps * eps, one_minus, tolerance_bits)
    return found


#: Entries kept by the cache above (cleared when full: it only saves conversions).
_CACHE_SIZE = 64
_CONSTANTS: dict[tuple[int, int, int, int, int, int, int], tuple[arb, arb, arb, arb, int]] = {}

#: Tolerances placed in floats have at most this many bits (the grid count then has at most 52 bits).
_FLOAT_PLACEMENT_BITS = 46
#: Normal float range with a margin (a power-of-two scaling inside it is exact).
_FLOAT_FLOOR, _FLOAT_CEILING = 2.0**-1000, 2.0**1000


_ONE = arb(1)


__all__ = ["FLOAT_ESTIMATE_BITS", "GUARD_BITS", "WIDE_ESTIMATE_BITS", "Bracket", "certify_bracket", "newton_centre"]
