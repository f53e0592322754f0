"""The exact privacy profile δ(ε) of the one-dimensional discrete Gaussian mechanism, certified with Arb.

Model and conventions
---------------------
``M(x) = q(x) + Y`` with ``Y ~ N_Z(0, σ²)``, ``P[Y = y] ∝ exp(-y²/(2σ²))`` on the integers (``σ²`` —
``sigma_squared`` — is a scale, not the variance of Y), and ``q`` integer-valued with neighbouring values
differing by the integer ``Δ`` (``sensitivity``). The smallest δ for which M is (ε, δ)-DP is the hockey-stick
divergence of the pair (N_Z(0, σ²), N_Z(Δ, σ²)),

    δ(ε) = Σ_y max(0, p(y) - e^ε p(y - Δ)),

which Canonne, Kamath & Steinke (2020), Theorem 7, write with two tails (X ~ N_Z(0, σ²)):

    δ(ε) = P[X > εσ²/Δ - Δ/2] - e^ε P[X > εσ²/Δ + Δ/2].

Both inequalities are strict. Writing both non-strict gives the same value (the two extra terms cancel exactly,
because the boundary point has p(y) = e^ε p(y - Δ)); mixing a strict and a non-strict one does not, and is
wrong whenever ``a = εσ²/Δ - Δ/2`` is an integer (for example ε = 1, σ² = 3/2, Δ = 1, a = 1).

The neighbouring relation enters only through Δ: ``add_remove`` counts have Δ = 1. A query whose neighbouring
values differ by *at most* Δ has its worst case at exactly Δ: the shifted family N_Z(s, σ²) has a monotone
likelihood ratio, so the profile increases with the shift s (checked in the tests).

Method
------
Here the two tails are never subtracted. With ``L = floor(a) + 1`` (the smallest integer > a), every term of

    δ(ε) = (1/Z) Σ_{x >= L} exp(-x²/(2σ²)) · (1 - exp(-u(x))),   u(x) = (2xΔ + Δ²)/(2σ²) - ε > 0,

is positive, and ``1 - exp(-u)`` is evaluated as ``-expm1(-u)`` of an exact rational, so the sum keeps its
relative accuracy. It is truncated at N >= 0 with the rigorous tail bound

    Σ_{x >= N} exp(-x²/(2σ²)) <= exp(-N²/(2σ²)) / (1 - exp(-(2N + 1)/(2σ²)))

(consecutive ratios are at most exp(-(2N + 1)/(2σ²)) from N on), added to the enclosure as ``[0, bound]``.
The normaliser ``Z = Σ_x exp(-x²/(2σ²))`` is summed directly for σ² < 1 and otherwise through the Jacobi
theta (Poisson summation) identity ``Z = sqrt(2πσ²) (1 + 2 Σ_{k >= 1} exp(-2π²σ²k²))``, with the analogous
tail bound. All arithmetic is in Arb balls (python-flint), whose enclosures are rigorous; the working precision
is doubled until the result has 80 relative bits or, in a comparison, lies on one side of the threshold.
The cost grows like σ (about 12σ terms at 100 bits): σ² = 1e6 takes about 0.01 s, σ² = 1e8 about 1 s.
"""

from __future__ import annotations

from fractions import Fraction

from flint import arb

from reference.core.bisection import bisect, bracket_upward
from reference.core.certified import (
    TARGET_ACCURACY_BITS,
    CertifiedReal,
    EnclosureRangeError,
    UndecidedComparisonError,
    working_precision,
)
from reference.core.certified import ball as _ball
from reference.core.exact_text import exact_text
from reference.core.validate import (
    RationalLike,
    check_positive_int,
    describe,
    nonnegative_fraction,
    open_unit_fraction,
    positive_fraction,
    tolerance_fraction,
)

START_PRECISION = 144
MAX_PRECISION = 1 << 13
#: Largest number of lattice terms one evaluation may sum (about 12σ are needed at 100 bits: σ² up to ~1e11).
MAX_TERMS = 4_000_000
#: Default relative width of :func:`discrete_gaussian_epsilon`'s bracket (its 20-digit decimal is backed).
FINE_TOLERANCE = Fraction(1, 10**22)


def _floor(value: Fraction) -> int:
    return value.numerator // value.denominator


def gaussian_tail_bound(start: int, sigma_squared: Fraction) -> arb:
    """Ball containing an upper bound of Σ_{x >= start} exp(-x²/(2σ²)), for start >= 0.

    Args:
        start: the first term's x, an integer >= 0.
        sigma_squared: σ² > 0, a ``Fraction``.
    """
    head = _ball(Fraction(-(start * start), 2) / sigma_squared).exp()
    ratio_gap = -(_ball(Fraction(-(2 * start + 1), 2) / sigma_squared).expm1())  # 1 - exp(-(2N+1)/(2σ²)) > 0
    return head / ratio_gap


def _with_tail(partial: arb, tail: arb) -> arb:
    """The ball ``partial + [0, tail.upper]``: the truncated positive sum plus its rigorous remainder."""
    return partial + arb(0).union(tail.upper())


def _theta_sum(coefficient: arb, accuracy_bits: int) -> arb:
    """Ball for Σ_{k >= 1} exp(-c k²) (c > 0 an Arb ball), truncated with the bound exp(-cK²)/(1 - exp(-c(2K+1)))."""
    total = arb(0)
    k = 1
    while True:
        term = (-coefficient * (k * k)).exp()
        total += term
        k += 1
        tail = (-coefficient * (k * k)).exp() / (-(-coefficient * (2 * k + 1)).expm1())
        if tail.upper() < term.lower() * arb(2) ** (-accuracy_bits) or k > MAX_TERMS:
            return _with_tail(total, tail)


def normaliser_ball(sigma_squared: Fraction, accuracy_bits: int) -> arb:
    """Ball containing Z = Σ_{x in Z} exp(-x²/(2σ²)).

    Args:
        sigma_squared: σ² > 0, a ``Fraction``.
        accuracy_bits: the relative accuracy wanted, in bits (a positive integer).
    """
    if sigma_squared < 1:
        coefficient = 1 / (2 * _ball(sigma_squared))
        return 1 + 2 * _theta_sum(coefficient, accuracy_bits)
    scale = _ball(sigma_squared)
    coefficient = 2 * arb.pi() ** 2 * scale
    return (2 * arb.pi() * scale).sqrt() * (1 + 2 * _theta_sum(coefficient, accuracy_bits))


def _delta_ball(epsilon: Fraction, sigma_squared: Fraction, sensitivity: int, accuracy_bits: int) -> arb:
    """Ball containing δ(ε) at the current working precision (sum to ``accuracy_bits`` relative bits)."""
    return _lattice_sum(epsilon, sigma_squared, sensitivity, accuracy_bits)[0]


def _lattice_sum(
    epsilon: Fraction, sigma_squared: Fraction, sensitivity: int, accuracy_bits: int
) -> tuple[arb, int]:
    """:func:`_delta_ball` and the number of lattice terms it added (what :func:`estimated_lattice_terms`
    predicts before the sum)."""
    numerator, _, terms = _lattice_sums(epsilon, sigma_squared, sensitivity, accuracy_bits)
    return numerator / normaliser_ball(sigma_squared, accuracy_bits), terms


def _lattice_sums(
    epsilon: Fraction, sigma_squared: Fraction, sensitivity: int, accuracy_bits: int
) -> tuple[arb, arb, int]:
    """Balls for Z·δ(ε) = Σ_{x >= L} w(x)(1 − e^{−u(x)}) and Z·(−dδ/dε) = Σ_{x >= L} w(x) e^{−u(x)} (the
    boundary terms of the derivative vanish: at the boundary p(y) = e^ε p(y − Δ)), and the terms added.

    Each term comes from the previous one by multiplications only, every factor an exact-rational exponential
    computed once (Arb keeps the recurrences rigorous; their rounding grows like the number of terms, a few
    bits at most, which the precision ladder absorbs):

    * w(x + 1) = w(x)·c(x), c(x) = exp(−(2x + 1)/(2σ²)), c(x + 1) = c(x)·exp(−1/σ²);
    * E(x) = e^{−u(x)}, E(x + 1) = E(x)·g with g = exp(−Δ/σ²) (u grows by Δ/σ² per step);
    * D(x) = 1 − E(x), D(x + 1) = D(x)·g + (1 − g): every term positive, so 1 − e^{−u} keeps its relative
      accuracy even where u is tiny (no subtraction of nearly equal numbers).
    """
    threshold = epsilon * sigma_squared / sensitivity - Fraction(sensitivity, 2)  # a
    first = _floor(threshold) + 1  # smallest integer strictly above a
    two_sigma_squared = 2 * sigma_squared
    loss = Fraction(2 * first * sensitivity + sensitivity * sensitivity) / two_sigma_squared - epsilon  # u(L) > 0
    weight = _ball(Fraction(-(first * first)) / two_sigma_squared).exp()
    ratio = _ball(Fraction(-(2 * first + 1)) / two_sigma_squared).exp()
    ratio_step = _ball(-1 / sigma_squared).exp()
    gap = -(_ball(Fraction(-sensitivity) / sigma_squared).expm1())  # 1 − g
    decay = 1 - gap  # g
    above = -(_ball(-loss).expm1())  # D(L) = 1 − e^{−u(L)}
    below = _ball(-loss).exp()  # E(L) = e^{−u(L)}
    total = arb(0)
    slope = arb(0)
    x = first
    terms = 0
    relative = arb(2) ** (-accuracy_bits)
    while True:
        total += weight * above
        slope += weight * below
        weight *= ratio
        ratio *= ratio_step
        above = above * decay + gap
        below *= decay
        x += 1
        terms += 1
        if x >= 0 and terms % 16 == 0:
            tail = gaussian_tail_bound(x, sigma_squared)
            if tail.upper() < total.lower() * relative:
                break
        if terms > MAX_TERMS:
            raise ValueError(
                f"sigma_squared={exact_text(sigma_squared)} is too large for the direct lattice sum "
                f"(more than {MAX_TERMS} terms)"
            )
    tail = gaussian_tail_bound(x, sigma_squared)
    return _with_tail(total, tail), _with_tail(slope, tail), terms


def _clip_to_unit(enclosure: CertifiedReal) -> CertifiedReal:
    lower = min(max(enclosure.lower, Fraction(0)), Fraction(1))
    upper = max(min(enclosure.upper, Fraction(1)), Fraction(0))
    return CertifiedReal(lower, upper)


def _enclose_delta(epsilon: Fraction, sigma_squared: Fraction, sensitivity: int) -> CertifiedReal:
    precision = START_PRECISION
    while precision <= MAX_PRECISION:
        with working_precision(precision):
            ball = _delta_ball(epsilon, sigma_squared, sensitivity, TARGET_ACCURACY_BITS + 16)
        if ball.is_finite() and ball.rel_accuracy_bits() >= TARGET_ACCURACY_BITS:
            return _clip_to_unit(CertifiedReal.from_arb(ball))
        precision *= 2
    raise UndecidedComparisonError(f"could not enclose delta(epsilon) to {TARGET_ACCURACY_BITS} bits")


def _delta_satisfied(epsilon: Fraction, sigma_squared: Fraction, sensitivity: int, delta: Fraction) -> bool:
    """Certified ``δ(ε) <= delta``; decided only by an enclosure lying on one side of ``delta``."""
    precision = START_PRECISION
    accuracy = TARGET_ACCURACY_BITS
    while precision <= MAX_PRECISION:
        with working_precision(precision):
            ball = _delta_ball(epsilon, sigma_squared, sensitivity, accuracy)
        if ball.is_finite():
            enclosure = CertifiedReal.from_arb(ball)
            if enclosure.certainly_le(delta):
                return True
            if enclosure.certainly_gt(delta):
                return False
        precision *= 2
        accuracy *= 2
    raise UndecidedComparisonError(
        f"delta(epsilon) at epsilon={exact_text(epsilon)}, sigma_squared={exact_text(sigma_squared)}, "
        f"sensitivity={sensitivity} is indistinguishable from delta={exact_text(delta)} at {MAX_PRECISION} bits"
    )


#: The range where the profile is computed (documented limits, checked before any sum): the cost grows like σ
#: (σ² = 1e10 took over 20 s with a tiny ε; 1e9 a few seconds), like the magnitude of the terms below 2**-(2**20) for tiny σ² (σ² = 1e-300 took
#: 11 s) and for huge ε (1e30 never ended). Below MIN_SIGMA_SQUARED the law is a point mass at 0 to within
#: exp(-1/(2σ²)) < 10**-217000.
MIN_SIGMA_SQUARED = Fraction(1, 10**6)
MAX_SIGMA_SQUARED = Fraction(10**9)
MAX_EPSILON = Fraction(10**5)


def _check_range(epsilon: Fraction | None, sigma_squared: Fraction) -> None:
    if not MIN_SIGMA_SQUARED <= sigma_squared <= MAX_SIGMA_SQUARED:
        raise ValueError(
            f"sigma_squared must be in [1e-6, 1e9] for the discrete Gaussian's exact profile, got "
            f"{describe(sigma_squared)} (the lattice sum has about 12 sigma terms)"
        )
    if epsilon is not None and epsilon > MAX_EPSILON:
        raise ValueError(f"epsilon must be at most 1e5 for the discrete Gaussian's exact profile, got {describe(epsilon)}")


#: Most lattice terms one evaluation is allowed before it starts (estimated from the parameters): σ² up to about
#: 6.9e7 at a small sensitivity (σ² = 1e9 at ε = 0 needs about 380,000 terms: refused). A sensitivity far above σ
#: starts the sum far left of 0 and adds about Δ/2 - εσ²/Δ more terms.
MAX_ESTIMATED_TERMS = 100_000
#: Most lattice terms all the evaluations of one call may add: a refusal in one line instead of minutes of work.
#: A term costs about 1.5-2.3 µs (multiplicative recurrences, measured at σ² from 6e6 to 6e7 on an idle core;
#: a few times more on a loaded one), so this is a few seconds at most.
MAX_TOTAL_TERMS = 1_000_000
#: Evaluations the smallest ε at δ makes when Newton settles (:func:`_newton_epsilon`: a handful of steps, then
#: two certifying evaluations); the certified bisection it falls back to is estimated again before it starts.
NEWTON_EVALUATIONS = 16


def estimated_lattice_terms(*, epsilon: Fraction, sigma_squared: Fraction, sensitivity: int) -> int:
    """The terms one δ(ε) lattice sum adds, estimated before summing: from the first integer above
    ``a = εσ²/Δ - Δ/2`` up to 0 (the negative side, when a < 0), then about 12σ more until the Gaussian tail
    is below the sum's accuracy (``exp(-x²/(2σ²)) < 2**-96`` at ``x ≈ 11.5σ``).

    Args:
        epsilon: ε >= 0, a ``Fraction``.
        sigma_squared: σ² > 0, a ``Fraction``.
        sensitivity: Δ, a positive integer.
    """
    from math import isqrt

    first = _floor(epsilon * sigma_squared / sensitivity - Fraction(sensitivity, 2)) + 1
    sigma_bound = _floor(sigma_squared) + 1  # σ <= sqrt(floor(σ²) + 1)
    return max(0, -first) + 12 * (isqrt(sigma_bound) + 1)


def estimated_evaluations(tolerance: Fraction) -> int:
    """Evaluations of δ(ε) the search for the smallest ε makes: the upward bracket from 1 (at most about
    log2(MAX_EPSILON) + 2 doublings) and the bisection to the relative ``tolerance``.

    Args:
        tolerance: the bisection's relative tolerance, a ``Fraction`` in (0, 1).
    """
    return MAX_EPSILON.numerator.bit_length() + 2 + (1 / tolerance).__ceil__().bit_length()


def _check_cost(epsilon: Fraction, sigma_squared: Fraction, sensitivity: int, evaluations: int = 1) -> None:
    """Refuse, before any sum, parameters whose lattice sum needs more than MAX_ESTIMATED_TERMS terms, or whose
    ``evaluations`` sums need more than MAX_TOTAL_TERMS together."""
    from math import isqrt

    sigma_bound = _floor(sigma_squared) + 1
    estimate = estimated_lattice_terms(epsilon=epsilon, sigma_squared=sigma_squared, sensitivity=sensitivity)
    if evaluations > 1 and estimate <= MAX_ESTIMATED_TERMS and estimate * evaluations > MAX_TOTAL_TERMS:
        raise ValueError(
            f"sigma_squared {describe(sigma_squared)}: the smallest epsilon at delta needs about {evaluations} "
            f"evaluations of {estimate} lattice terms ({estimate * evaluations} in all; at most {MAX_TOTAL_TERMS}, "
            "about a second); use discrete_gaussian_delta at a given epsilon, or a smaller sigma_squared"
        )
    if estimate > MAX_ESTIMATED_TERMS and 12 * (isqrt(sigma_bound) + 1) > MAX_ESTIMATED_TERMS:
        raise ValueError(
            f"sigma_squared {describe(sigma_squared)} is too large for the discrete Gaussian's exact profile: its "
            f"lattice sum would need {describe(Fraction(estimate))} terms (at most {MAX_ESTIMATED_TERMS}, about a "
            "second)"
        )
    if estimate > MAX_ESTIMATED_TERMS:
        spare = max(0, MAX_ESTIMATED_TERMS - 12 * (isqrt(sigma_bound) + 1))
        raise ValueError(
            f"sensitivity {describe(Fraction(sensitivity))} is too large for sigma_squared "
            f"{describe(sigma_squared)} in the discrete Gaussian's exact profile: its lattice sum would need "
            f"{describe(Fraction(estimate))} terms (at most "
            f"{MAX_ESTIMATED_TERMS}; at epsilon 0 the sensitivity may be up to about {2 * spare})"
        )


def discrete_gaussian_delta(
    *,
    epsilon: RationalLike,
    sigma_squared: RationalLike,
    sensitivity: int = 1,
) -> CertifiedReal:
    """Certified enclosure of the exact δ(ε) of ``q + N_Z(0, σ²)`` for an integer shift Δ (CKS 2020, Theorem 7).

    ``epsilon >= 0`` and ``sigma_squared > 0`` are exact rationals, ``sensitivity`` a positive integer Δ (the
    largest change of the integer-valued query between neighbours). The enclosure is rigorous (Arb ball
    arithmetic over a positive lattice sum with a proven truncation bound) and about 24 digits wide; its
    ``upper`` end is a δ the mechanism certainly achieves, its ``lower`` end one it certainly does not beat.

    Args:
        epsilon: ε >= 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        sigma_squared: the scale σ² > 0 of N_Z(0, σ²) (not its variance), exact (int, Fraction or str such as ``"1/3"``;
            not float).
        sensitivity: Δ, a positive integer: the largest change of the integer-valued query between neighbours (default
            1).
    """
    eps = nonnegative_fraction(epsilon, "epsilon")
    scale = positive_fraction(sigma_squared, "sigma_squared")
    shift = check_positive_int(sensitivity, "sensitivity")
    _check_range(eps, scale)
    _check_cost(eps, scale, shift)
    return _enclose_delta(eps, scale, shift)


def discrete_gaussian_epsilon(
    *,
    delta: RationalLike,
    sigma_squared: RationalLike,
    sensitivity: int = 1,
    tolerance: RationalLike = FINE_TOLERANCE,
) -> CertifiedReal:
    """Certified ``[lower, upper]`` around the smallest ε >= 0 with δ(ε) <= ``delta`` for ``q + N_Z(0, σ²)``.

    ``upper`` is certified sufficient (the Arb upper bound of δ(upper) is <= ``delta``), ``lower`` certified
    insufficient, unless δ(0) <= ``delta``, when ``[0, 0]`` is returned. Rational bisection on ε until the
    bracket is within ``tolerance`` (relative, in (0, 1)).

    Args:
        delta: the target δ in (0, 1), exact (int, Fraction or str such as ``"1/3"``; not float).
        sigma_squared: the scale σ² > 0 of N_Z(0, σ²) (not its variance), exact (int, Fraction or str such as ``"1/3"``;
            not float).
        sensitivity: Δ, a positive integer (default 1).
        tolerance: the relative width at which the bisection stops, exact (int, Fraction or str such as ``"1/3"``; not
            float) in (0, 1) (default 10^-22).
    """
    target = open_unit_fraction(delta, "delta")
    scale = positive_fraction(sigma_squared, "sigma_squared")
    shift = check_positive_int(sensitivity, "sensitivity")
    tol = tolerance_fraction(tolerance)
    _check_range(None, scale)
    # ε = 0 starts the sum furthest left: the costliest evaluation, times the evaluations of the search
    _check_cost(Fraction(0), scale, shift, NEWTON_EVALUATIONS)
    try:
        return _smallest_epsilon(target, scale, shift, tol)
    except EnclosureRangeError as error:  # the refusal names the parameters that led there
        raise EnclosureRangeError(f"delta = {exact_text(target)}, sigma_squared = {exact_text(scale)}, "
                                  f"sensitivity = {shift}: {error}") from None


def _smallest_epsilon(target: Fraction, scale: Fraction, shift: int, tol: Fraction) -> CertifiedReal:
    """:func:`discrete_gaussian_epsilon`'s search, on validated parameters."""
    if _delta_satisfied(Fraction(0), scale, shift, target):
        return CertifiedReal(Fraction(0), Fraction(0))

    def sufficient(epsilon: Fraction) -> bool:
        return _delta_satisfied(epsilon, scale, shift, target)

    located = _newton_epsilon(target, scale, shift, tol)
    if located is not None:
        # certify a bracket of relative width 0.9·tol around the located root: two evaluations
        low, high = located * (1 - tol * Fraction(45, 100)), located * (1 + tol * Fraction(45, 100))
        if sufficient(high) and not sufficient(low):
            return CertifiedReal(low, high)
    _check_cost(Fraction(0), scale, shift, estimated_evaluations(tol))  # the bisection's cost, before it starts
    low, high = bracket_upward(sufficient, Fraction(0), Fraction(1))  # δ(ε) -> 0 as ε -> oo
    return CertifiedReal(*bisect(sufficient, low, high, tolerance=tol))


#: Most Newton steps :func:`_newton_epsilon` takes before leaving the root to the certified bisection.
MAX_NEWTON_STEPS = 60
#: Largest factor one Newton step may grow ε by before a sufficient ε is seen.
MAX_NEWTON_GROWTH = 1024


def _midpoint(ball: arb) -> Fraction:
    return CertifiedReal.from_arb(ball.mid()).lower


def _newton_epsilon(target: Fraction, sigma_squared: Fraction, sensitivity: int, tolerance: Fraction) -> Fraction | None:
    """Locate (not certify) the ε with δ(ε) = ``target``: safeguarded Newton on log δ(ε) − log target with the
    derivative from the same lattice sum (:func:`_lattice_sums`), inside a bracket [insufficient, sufficient]
    that falls back to halving when a step leaves it. Returns None when it does not settle (the caller then
    bisects with certified comparisons). The located value is certified by the caller, never trusted."""
    low, high = Fraction(0), None  # δ(0) > target was certified by the caller
    epsilon = Fraction(1)
    with working_precision(START_PRECISION):
        log_target = _ball(target).log()
        normaliser = normaliser_ball(sigma_squared, TARGET_ACCURACY_BITS + 16).log()
        for _ in range(MAX_NEWTON_STEPS):
            try:
                _check_cost(epsilon, sigma_squared, sensitivity)
                total, slope, _ = _lattice_sums(epsilon, sigma_squared, sensitivity, TARGET_ACCURACY_BITS + 16)
            except ValueError:
                return None
            if not (total > 0 and slope > 0):
                return None
            excess = total.log() - normaliser - log_target  # log δ(ε) − log target
            if _midpoint(excess) > 0:  # the midpoint's sign: near the root the ball may straddle 0
                low = epsilon
            else:
                high = epsilon
            candidate = epsilon + _midpoint(excess * total / slope)  # Newton on log δ: −g/g' = g·δ/(−δ')
            if high is None:  # no sufficient ε seen yet: at least double, at most MAX_NEWTON_GROWTH times
                # (where δ(ε) is nearly flat, as for a tiny σ², Newton's step is astronomically long: bounded, the
                # search walks up geometrically instead of building numbers of millions of digits)
                candidate = min(max(candidate, 2 * epsilon), MAX_NEWTON_GROWTH * epsilon)
            elif not low < candidate < high:  # a step out of the bracket: halve it instead
                candidate = (low + high) / 2
            if abs(candidate - epsilon) <= epsilon * tolerance / 16:
                return candidate
            epsilon = candidate
    return None


__all__ = [
    "FINE_TOLERANCE",
    "UndecidedComparisonError",
    "discrete_gaussian_delta",
    "discrete_gaussian_epsilon",
    "nonnegative_fraction",
]
