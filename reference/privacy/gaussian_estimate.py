"""A binary64 estimate of the smallest Gaussian σ: where the certified calibration looks first.

Nothing here is a result. :func:`reference.privacy.gaussian.sigma_exact` uses the estimate only to place a
narrow bracket, whose two ends it then certifies in Arb; a poor estimate (or none) costs time, never safety.

Model (Balle & Wang 2018, Theorem 8), in units of the sensitivity: with ``s = σ/Δ``, ``a = 1/(2s)`` and
``b = εs``,

    δ(s) = Φ(a - b) - e^ε Φ(-a - b).

Since ``(a + b)² - (a - b)² = 4ab = 2ε``, ``e^ε φ(a + b) = φ(a - b)``, and differentiating gives

    dδ/ds = -φ(a - b)/s²,   so   d log δ / d log s = -2a φ(a - b) / δ(s) < 0.

Writing ``g = d log δ / d log s`` and ``u = log s`` (so ``da/du = -a``, ``db/du = b``), and using
``φ'(w) = -w φ(w)`` with ``w = a - b``, ``dw/du = -(a + b)``:

    d(a φ(a - b))/du = a φ(a - b) (a² - b² - 1),   so   d²log δ/du² = g (a² - b² - 1 - g).

The estimate solves ``log δ(s) = log delta`` for u by Halley's method on those two derivatives (three
evaluations at most points of the comparison grid from the start below, where Newton's method took four or
five), safeguarded by a bracket (a step leaving the bracket is replaced by its midpoint), in ``math`` floats: no
numpy or scipy call, because the whole point is speed. It gives up (``None``) whenever a float would not
represent the problem (δ below the float range, e^ε overflowing, a non-finite intermediate).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

from flint import arb

from reference.core.certified import MAX_PRECISION, UndecidedComparisonError, working_precision
from reference.privacy.gaussian_profile import profile_ball

_ROOT_TWO = math.sqrt(2.0)
_ROOT_TWO_PI = math.sqrt(2.0 * math.pi)
#: Steps before giving up (three or four suffice from the start on the comparison grid).
_MAX_STEPS = 200
#: Stop once a step in log s is below this (a few units in the last place of s).
_STEP_FLOOR = 4e-16


def _log_delta(epsilon: float, s: float) -> tuple[float, float]:
    """``(log δ(s), d log δ / d log s)`` in floats; ``log δ = -inf`` where the float difference is <= 0."""
    a = 0.5 / s
    b = epsilon * s
    head = 0.5 * math.erfc((b - a) / _ROOT_TWO)
    tail = math.exp(epsilon) * 0.5 * math.erfc((a + b) / _ROOT_TWO)
    delta = head - tail
    if not delta > 0.0:
        return -math.inf, -math.inf
    density = math.exp(-0.5 * (a - b) ** 2) / _ROOT_TWO_PI
    return math.log(delta), -2.0 * a * density / delta


def sigma_estimate(*, epsilon: Fraction, delta: Fraction, sensitivity_squared: Fraction) -> float | None:
    """A float near the smallest σ with δ(ε) <= ``delta`` at sensitivity² ``sensitivity_squared``, or None.

    Inputs are the exact rationals of the caller (converted to floats here). On the grid ε in [0.01, 20],
    δ in [1e-15, 1e-3] it was within 4.6e-13 (relative) of the certified optimum (the solve stops once a step is
    below 1e-5), which the caller does not rely on.

    Args:
        epsilon: ε > 0, an exact ``Fraction`` (read as a float here; above 700 gives None).
        delta: the target δ in (0, 1), an exact ``Fraction`` (its logarithm is taken as a float; a δ that
            underflows to the float 0 gives None).
        sensitivity_squared: the squared ℓ₂ sensitivity Δ² > 0 (not Δ), an exact ``Fraction``; σ scales with Δ.
    """
    try:
        # int / int is the correctly rounded quotient, as float(Fraction) is, without the numbers.Rational detour
        eps = epsilon.numerator / epsilon.denominator
        target = math.log(delta.numerator / delta.denominator)
        scale = math.sqrt(sensitivity_squared.numerator / sensitivity_squared.denominator)
        if eps > 700.0 or not (math.isfinite(target) and 0.0 < scale < math.inf and eps > 0.0):
            return None
        s = _solve(eps, target)
    except (OverflowError, ValueError, ZeroDivisionError):
        return None
    if s is None:
        return None
    sigma = s * scale
    return sigma if 0.0 < sigma < math.inf else None


def _tail_quantile(log_delta: float) -> float:
    """About the z > 0 with Φ(-z) = δ (from ``log δ``; Abramowitz & Stegun 26.2.23, within 4.5e-4 for δ < 1/2).
    Only a starting point."""
    t = math.sqrt(-2.0 * min(log_delta, math.log(0.5)))
    return t - (2.515517 + t * (0.802853 + t * 0.010328)) / (1.0 + t * (1.432788 + t * (0.189269 + t * 0.001308)))


def _solve(epsilon: float, target: float) -> float | None:
    """The root in ``u = log s`` of ``log δ(e^u) = target`` (δ decreases in s), safeguarded Halley steps."""
    # start where b - a = z, the point at which the first tail alone is δ (e^ε Φ(-v) is then dropped): the
    # answer at moderate and large ε, an upper bound everywhere (the dropped term is positive); at small ε,
    # where the two tails nearly cancel, it is a few times too large, which Newton's first steps correct
    z = _tail_quantile(target)
    u = math.log((z + math.sqrt(z * z + 2.0 * epsilon)) / (2.0 * epsilon))
    low, high = -math.inf, math.inf  # low: log δ above target (s too small); high: below target
    growth, erfc, exp = math.exp(epsilon), math.erfc, math.exp
    for _ in range(_MAX_STEPS):
        # _log_delta written out (the loop is most of the estimate's time): log δ(s) and d log δ / d log s
        s = exp(u)
        a = 0.5 / s
        b = epsilon * s
        delta = 0.5 * (erfc((b - a) / _ROOT_TWO) - growth * erfc((a + b) / _ROOT_TWO))
        if delta > 0.0:
            value = math.log(delta)
            slope = -2.0 * a * exp(-0.5 * (a - b) ** 2) / (_ROOT_TWO_PI * delta)
            curvature = slope * (a * a - b * b - 1.0 - slope)  # d²log δ/du² (module docstring)
        else:
            value = slope = curvature = -math.inf
        if value > target:
            low = u
        else:
            high = u
        size = abs(u) if abs(u) > 1.0 else 1.0
        if value == target or high - low <= _STEP_FLOOR * size:
            return s
        # a Halley step (a Newton step where it is not defined), clamped to a factor e**2 in s while one side is
        # unknown, bisected once both are known
        if -math.inf < slope < 0.0:
            miss = value - target
            denominator = 2.0 * slope * slope - miss * curvature
            step = 2.0 * miss * slope / denominator if denominator > 0.0 else miss / slope
            candidate = u - (2.0 if step > 2.0 else -2.0 if step < -2.0 else step)
        else:
            candidate = u + 2.0 if high == math.inf else u - 2.0
        if not low < candidate < high:
            if -math.inf < low and high < math.inf:
                candidate = 0.5 * (low + high)
            else:
                candidate = u + 1.0 if high == math.inf else u - 1.0
        if abs(candidate - u) <= _NEWTON_FLOOR * size:
            return exp(candidate)
        u = candidate
    return None


#: A step in log s this small ends the solve (the step is still taken): Halley's error left is about its cube,
#: below the float's own noise (the two tails' difference cancels to about 1e-13 at small ε, where steps stall
#: instead of shrinking to 4e-16); on the comparison grid the estimate is within 4.6e-13 of the optimum.
_NEWTON_FLOOR = 1e-5


#: Correct bits asked of each δ(s) in :func:`sigma_estimate_wide` (the answer needs about 50: the caller
#: certifies a bracket of relative width ``tolerance`` around it), and the precision its arithmetic starts at.
_WIDE_BITS = 64
_WIDE_START_PRECISION = 128


def sigma_estimate_wide(*, epsilon: Fraction, delta: Fraction, sensitivity_squared: Fraction) -> Fraction | None:
    """The same Newton solve as :func:`sigma_estimate`, on Arb midpoints instead of floats: for the inputs a
    float cannot represent (δ below 1e-308, ε below 1e-308 or above 700, σ past 1e308).

    Each δ(s) is evaluated at a precision doubled until its ball has :data:`_WIDE_BITS` correct bits: δ(s) is
    the difference of two normal tails, which cancel to about ``log2(1/δ)`` bits at small ε (ε = 1e-5000,
    δ = 1e-9999) and hardly at all at moderate ε (ε = 1/2, δ = 1e-10000 is a far tail, 128 bits suffice).
    Midpoints steer the search (radii are dropped): like the float estimate this only says where to look, and
    the caller certifies both ends of its bracket. Returns a dyadic rational, or None when the solve does not
    settle.

    Args:
        epsilon: ε > 0, an exact ``Fraction`` of any magnitude (its bit length sets the working precision).
        delta: the target δ in (0, 1), an exact ``Fraction`` of any magnitude (about log2(1/δ) bits are used,
            capped at the certified layer's maximum precision).
        sensitivity_squared: the squared ℓ₂ sensitivity Δ² > 0 (not Δ), an exact ``Fraction``; σ scales with Δ.
    """
    # bits for the cancellation (about log2(1/δ)) and for u = b - a, whose terms are about sqrt(ε/2) near the
    # answer at large ε (at ε = 1e300, 128 bits leave u wrong by 1e111)
    ceiling = min(max(delta.denominator.bit_length() - delta.numerator.bit_length(), 0)
                  + max(epsilon.numerator.bit_length() - epsilon.denominator.bit_length(), 0)
                  + 2 * _WIDE_START_PRECISION, MAX_PRECISION)

    def at(bits: int, compute: Callable[[], tuple[arb, arb] | None]) -> tuple[arb, arb] | None:
        with working_precision(bits):
            return compute()

    def log_delta(u: arb) -> tuple[arb, arb] | None:
        """(log δ(e^u), d log δ / d u) as midpoints, or None where δ is not certainly positive."""
        bits = _WIDE_START_PRECISION
        while True:
            found = at(bits, lambda: _log_delta_ball(epsilon, u))
            if found is not None or bits >= ceiling:
                return found
            bits *= 2

    def certainly_below(u: arb) -> bool:
        """δ(e^u) < delta certainly: unresolved only because it is far below (a tail like exp(-1e399) at ε = 1e300),
        not because the two tails cancel."""
        with working_precision(ceiling):
            return bool(profile_ball(arb(epsilon.numerator) / epsilon.denominator, arb(u).exp())
                        < arb(delta.numerator) / delta.denominator)

    with working_precision(_WIDE_START_PRECISION):
        target = (arb(delta.numerator) / delta.denominator).log().mid()
        eps = arb(epsilon.numerator) / epsilon.denominator
        u = ((2 * (arb(5) / 4).log() - 2 * target).sqrt() / eps).log().mid()
        low: arb | None = None
        high: arb | None = None
        width = arb(1)
        floor = arb(2) ** -60
        high_unresolved = False  # whether ``high`` is a point where δ was not resolved at MAX_PRECISION
        for _ in range(_MAX_STEPS):
            found = log_delta(u)
            if found is None or found[0] <= target:  # δ not resolved from 0 only happens far past the answer
                high, high_unresolved = u, found is None and not certainly_below(u)
                if low is None:
                    u, width = (u - width).mid(), 2 * width
                    continue
            else:
                low = u
                if high is None:
                    u, width = (u + width).mid(), 2 * width
                    continue
            assert low is not None and high is not None
            if high - low <= floor * max(arb(1), abs(u)):
                break
            candidate = (0.5 * (low + high)).mid()
            if found is not None and found[1] < 0:
                newton = (u - (found[0] - target) / found[1]).mid()
                if low < newton < high:
                    candidate = newton
            if abs(candidate - u) <= floor * max(arb(1), abs(u)):
                u = candidate
                break
            u = candidate
        else:
            return None
        if high_unresolved:  # the answer lies where δ cannot be resolved: no certified comparison can decide
            raise UndecidedComparisonError(
                f"the two normal tails of delta(epsilon) cancel past the {MAX_PRECISION}-bit working precision "
                "near the answer (delta and epsilon both tiny): sigma cannot be certified"
            )
        sigma = (u.exp() * (arb(sensitivity_squared.numerator) / sensitivity_squared.denominator).sqrt()).mid()
        numerator, exponent = sigma.man_exp()
        return Fraction(int(numerator)) * Fraction(2) ** int(exponent) if numerator > 0 else None


def _log_delta_ball(epsilon: Fraction, u: arb) -> tuple[arb, arb] | None:
    """At the current precision: (log δ(e^u), d log δ / d u) as midpoints when δ's ball has
    :data:`_WIDE_BITS` correct bits and is positive, else None."""
    eps = arb(epsilon.numerator) / epsilon.denominator
    s = arb(u).exp()
    a = 1 / (2 * s)
    b = eps * s
    value = profile_ball(eps, s)  # without the cancellation of the two tails at large s
    if not (value > 0 and value.rel_accuracy_bits() >= _WIDE_BITS):
        return None
    density = (-((a - b) ** 2) / 2).exp() / (2 * arb.pi()).sqrt()
    return value.log().mid(), (-2 * a * density / value).mid()


__all__ = ["sigma_estimate", "sigma_estimate_wide"]
