"""Calibration of the (correlated) Gaussian mechanism, certified with Arb ball arithmetic.

Model and conventions
---------------------
The mechanism releases ``x + N(0, σ² C)``; ``σ`` (``sigma``) is a standard deviation. For neighbours with
``x - x' = v`` its privacy loss is exactly that of the scalar Gaussian mechanism with sensitivity
``Δ = sqrt(vᵀ C⁻¹ v)``, so everything here is parameterised by ``sensitivity_squared = Δ²``, the maximum of
``vᵀ C⁻¹ v`` over the neighbouring relation in use (see :mod:`reference.cip.sensitivity`, which names the
relation: ``add_remove`` or ``substitution``). Δ² is passed squared because it is an exact rational when C⁻¹
is, while Δ usually is not. ``log`` is natural.

The exact privacy profile (Balle & Wang 2018, Theorem 8): the mechanism is (ε, δ)-DP iff ``δ >= δ(ε)`` with

    δ(ε) = Φ(Δ/(2σ) - εσ/Δ) - e^ε Φ(-Δ/(2σ) - εσ/Δ),

which is strictly decreasing in σ (and in ε). It is evaluated with both Φ's written as ``erfc/2`` (so the
tails keep their relative accuracy) in Arb balls, whose enclosures are rigorous. The two terms cancel when
σ/Δ is large (δ(ε) is about ``2aφ(b - a)/b²`` with ``a = Δ/(2σ)``, ``b = εσ/Δ``: a relative loss of about
``log2(b/a)`` bits), so the working precision is doubled until the ball is narrow enough or, for a
comparison with a threshold, until the ball lies entirely on one side of it. All inputs are exact rationals
(floats are refused); every irrational output is a :class:`~reference.core.certified.CertifiedReal`.

The classical Gaussian mechanism (Dwork & Roth, Theorem A.1) ``σ = Δ sqrt(2 log(1.25/δ))/ε`` is valid only for
ε ∈ (0, 1) and refused outside it (:func:`check_paper_range`, which the papers' own σ formulas use too, e.g.
CIP's Theorems 3.8 and 3.9 in :mod:`reference.cip.privacy`). :func:`sigma_exact` works for every ε > 0 and
δ ∈ (0, 1), and for either relation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

from flint import arb

from reference.core.bisection import bisect, bracket_around, bracket_downward, bracket_upward
from reference.core.certified import (
    MAX_PRECISION,
    START_PRECISION,
    TARGET_ACCURACY_BITS,
    CertifiedReal,
    Rounding,
    UndecidedComparisonError,
    certify,
    check_rounding,
    format_directed,
    format_significant,
    next_precision,
    working_precision,
)
from reference.core.certified import ball as _ball
from reference.core.validate import (
    RationalLike,
    describe,
    fraction_text,
    open_unit_fraction,
    positive_fraction,
    tolerance_fraction,
)
from reference.core.verdict import Decided
from reference.privacy.gaussian_estimate import sigma_estimate, sigma_estimate_wide
from reference.privacy.gaussian_profile import delta_ball, profile_ball

_T = TypeVar("_T")

DEFAULT_TOLERANCE = Fraction(1, 10**12)
#: Relative tolerance of the ε enclosures and of the verdict's σ ratio: narrow enough that their 20-digit
#: decimals are backed by the enclosure (CertifiedReal.decimal refuses digits it cannot certify).
FINE_TOLERANCE = Fraction(1, 10**22)

_EXACT_POINTER = (
    "for every epsilon > 0 and delta in (0, 1) use the exact calibration "
    "reference.privacy.gaussian.sigma_exact (CLI: `calibrate {command}`, JSON key `sigma_exact`)"
)


# ---------------------------------------------------------------------------------------------- Arb core


def _delta_ball(epsilon: Fraction, sigma: Fraction, sensitivity_squared: Fraction) -> arb:
    """A ball containing δ(ε) at the current ``ctx.prec`` (ε may be 0 here): direct, or the moment series where
    the direct form's two terms cancel (:mod:`reference.privacy.gaussian_profile`)."""
    return delta_ball(epsilon, sigma, sensitivity_squared)


def _enclose_delta(epsilon: Fraction, sigma: Fraction, sensitivity_squared: Fraction) -> CertifiedReal:
    """δ(ε) to TARGET_ACCURACY_BITS relative bits (precision doubled until reached).

    Where that accuracy is out of reach (δ(ε) below about 2**-(2**20), as at σ/Δ = 10**10), the enclosure at
    the highest precision is returned: still certified, only wider (typically [0, 2**-(2**20)], a bound).
    """
    return _clip_to_unit(CertifiedReal.from_arb(_accurate_delta_ball(epsilon, sigma, sensitivity_squared)))


def _accurate_delta_ball(epsilon: Fraction, sigma: Fraction, sensitivity_squared: Fraction) -> arb:
    """The Arb ball :func:`_enclose_delta` converts (kept as a ball for comparisons that need no rationals)."""
    precision = START_PRECISION + TARGET_ACCURACY_BITS
    last = None
    while precision <= MAX_PRECISION:
        with working_precision(precision):
            ball = _delta_ball(epsilon, sigma, sensitivity_squared)
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


def _clip_to_unit(enclosure: CertifiedReal) -> CertifiedReal:
    """Intersect with [0, 1], where δ(ε) lies by definition (a difference of probabilities, never < 0)."""
    lower = min(max(enclosure.lower, Fraction(0)), Fraction(1))
    upper = max(min(enclosure.upper, Fraction(1)), Fraction(0))
    return CertifiedReal(lower, upper)


def _delta_satisfied(
    epsilon: Fraction, sigma: Fraction, sensitivity_squared: Fraction, delta: Fraction
) -> tuple[bool, CertifiedReal]:
    """Certified ``δ(ε) <= delta``: (True, enclosure with upper <= delta) or (False, lower > delta).

    The precision is doubled until the ball lies on one side of ``delta``; a ball that contains ``delta``
    never decides. Raises :class:`UndecidedComparisonError` past MAX_PRECISION.
    """
    decided, enclosure, _ = _delta_decided(epsilon, sigma, sensitivity_squared, delta, START_PRECISION)
    return decided, enclosure


def _delta_decided(
    epsilon: Fraction, sigma: Fraction, sensitivity_squared: Fraction, delta: Fraction, start: int
) -> tuple[bool, CertifiedReal, int]:
    """:func:`_delta_satisfied` from the precision ``start`` (a power of two times START_PRECISION), also
    returning the precision that decided: a bisection starts its next decision there instead of climbing the
    same ladder again."""
    decided, ball, precision = _ball_decided(epsilon, sigma, sensitivity_squared, delta, start)
    return decided, _clip_to_unit(CertifiedReal.from_arb(ball)), precision


def _ball_decided(
    epsilon: Fraction, sigma: Fraction, sensitivity_squared: Fraction, delta: Fraction, start: int
) -> tuple[bool, arb, int]:
    """:func:`_delta_decided` with the deciding ball itself: the comparison is made on Arb balls (a ball lying
    entirely on one side of the ball of ``delta``), so a search that needs only the decision builds no rationals
    (those of a δ near 1e-10000 are 33,000-bit integers, slower to compare than the evaluation itself)."""
    precision = start
    while precision <= MAX_PRECISION:
        with working_precision(precision):
            ball = _delta_ball(epsilon, sigma, sensitivity_squared)
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


def _reported_enclosure(
    epsilon: Fraction, sigma: Fraction, sensitivity_squared: Fraction, delta: Fraction
) -> CertifiedReal:
    """δ(ε) for a report: the 80-bit enclosure when it lies on one side of ``delta`` (it nearly always does),
    else the (wider) enclosure that decided the comparison."""
    enclosure = _enclose_delta(epsilon, sigma, sensitivity_squared)
    if enclosure.certainly_le(delta) or enclosure.certainly_gt(delta):
        return enclosure
    return _delta_satisfied(epsilon, sigma, sensitivity_squared, delta)[1]


def _dyadic_guess(compute: Callable[[], arb]) -> Fraction:
    """A rough positive dyadic rational from an Arb expression at 53 bits (a starting point, not a result)."""
    with working_precision(53):
        ball = compute()
    if not isinstance(ball, arb) or not ball.is_finite():
        return Fraction(1)
    midpoint = CertifiedReal.from_arb(ball.mid()).lower
    return midpoint if midpoint > 0 else Fraction(1)


# ---------------------------------------------------------------------------------------------- validation


def _validate_common(sensitivity_squared: object) -> Fraction:
    return positive_fraction(sensitivity_squared, "sensitivity_squared")


def check_paper_range(
    *,
    epsilon: Fraction,
    delta: Fraction,
    theorem: str,
    stated_range: str,
    within_stated_range: bool,
    bounded_by_half: bool,
    command: str,
) -> None:
    """Refuse a paper formula outside the range its theorem states, pointing to sigma_exact."""
    pointer = _EXACT_POINTER.format(command=command)
    if not within_stated_range:
        raise ValueError(
            f"epsilon must be in {stated_range} for {theorem} (the range the theorem is stated for), "
            f"got {fraction_text(epsilon)}; {pointer}"
        )
    if bounded_by_half and delta > Fraction(1, 2):
        raise ValueError(
            f"delta must be in (0, 1/2] for {theorem} (the range the theorem is stated for), "
            f"got {fraction_text(delta)}; {pointer}"
        )


# ---------------------------------------------------------------------------------------------- public API


def gaussian_delta(*, epsilon: RationalLike, sigma: RationalLike, sensitivity_squared: RationalLike) -> CertifiedReal:
    """Certified enclosure of δ(ε), the smallest δ for which ``N(0, σ²)`` noise at sensitivity Δ is (ε, δ)-DP.

    ``epsilon > 0``, ``sigma > 0`` and ``sensitivity_squared = Δ² > 0`` are exact rationals. The enclosure is
    rigorous (Arb) and about 24 digits wide (relative).
    """
    eps = positive_fraction(epsilon, "epsilon")
    sig = positive_fraction(sigma, "sigma")
    d2 = _validate_common(sensitivity_squared)
    return _enclose_delta(eps, sig, d2)


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
    """
    target = open_unit_fraction(delta, "delta")
    sig = positive_fraction(sigma, "sigma")
    d2 = _validate_common(sensitivity_squared)
    tol = tolerance_fraction(tolerance)
    ladder = [START_PRECISION]  # the precision that decided last (nearby ε need about the same)

    def sufficient(epsilon: Fraction) -> bool:
        decided, _, ladder[0] = _ball_decided(epsilon, sig, d2, target, max(START_PRECISION, ladder[0] // 2))
        return decided

    if sufficient(Fraction(0)):
        return CertifiedReal(Fraction(0), Fraction(0))
    # bracket: δ(ε) -> 0 as ε -> oo, so doubling finds a sufficient ε; ε = 0 is certified insufficient. It
    # starts at the classical ε ≈ Δ²/(2σ²) + (Δ/σ) sqrt(2 log(1.25/δ)) (only where to look; a positive dyadic of
    # any magnitude): from a fixed start it took one certified decision per factor of two, some 16,600 of them
    # to reach ε ≈ 1e-4998 at Δ/σ = 1e-5000, and some 66,000 to reach ε ≈ 1e20000 at σ = 1e-10000
    start = _dyadic_guess(lambda: _ball(d2) / (2 * _ball(sig) ** 2)
                          + (_ball(d2) / _ball(sig) ** 2 * 2 * (arb(5) / 4 / _ball(target)).log()).sqrt())
    low, high = bracket_upward(sufficient, Fraction(0), start) if not sufficient(start) else (
        bracket_downward(sufficient, start / 2, start))
    return CertifiedReal(*bisect(sufficient, low, high, tolerance=tol))


@dataclass(frozen=True)
class ExactSigma(CertifiedReal):
    """The smallest σ for (ε, δ)-DP at sensitivity Δ, certified to a relative tolerance: the enclosure
    ``[sigma_below, sigma]`` of the optimal σ.

    Every σ calibration of this package returns a :class:`CertifiedReal` whose ``upper`` end is a certified
    sufficient σ (for a paper's formula: sufficient when the theorem holds); this one is a CertifiedReal too.
    ``sigma`` (= ``upper``) is certified sufficient (Arb upper bound of δ(ε) at ``sigma`` is <= ``delta``: see
    ``delta_at_sigma``) and ``sigma_below`` (= ``lower`` = ``sigma * (1 - tolerance)``) certified insufficient
    (Arb lower bound of δ(ε) there is > ``delta``: see ``delta_at_sigma_below``). Since δ(ε) decreases in σ,
    the optimal σ lies in ``(sigma_below, sigma]``. :meth:`decimal` prints ``sigma``, the sufficient end.
    """

    epsilon: Fraction = Fraction(0)
    delta: Fraction = Fraction(0)
    sensitivity_squared: Fraction = Fraction(0)
    tolerance: Fraction = Fraction(0)
    delta_at_sigma: CertifiedReal | None = None
    delta_at_sigma_below: CertifiedReal | None = None

    def __repr__(self) -> str:
        """The sufficient σ and what it is for, on one line (the certificate is the fields, and :meth:`as_json`)."""
        return (f"ExactSigma(sigma <= {self.decimal()} (sufficient, rounded up), epsilon={fraction_text(self.epsilon)}, "
                f"delta={fraction_text(self.delta)}, sensitivity_squared={fraction_text(self.sensitivity_squared)})")

    @property
    def sigma(self) -> Fraction:
        """The certified-sufficient σ (the enclosure's upper end)."""
        return self.upper

    @property
    def sigma_below(self) -> Fraction:
        """A certified-insufficient σ (the enclosure's lower end)."""
        return self.lower

    @property
    def enclosure(self) -> CertifiedReal:
        """``[sigma_below, sigma]``, which contains the optimal σ."""
        return CertifiedReal(self.sigma_below, self.sigma)

    def decimal(self, digits: int = 20, *, rounded: Rounding = "up") -> str:
        """``sigma`` (the certified-sufficient value) rounded up to ``digits`` significant digits, so the printed σ
        is sufficient too; ``rounded="down"`` prints ``sigma_below`` rounded down (certified insufficient)."""
        if check_rounding(rounded) == "up":
            return format_directed(self.sigma, digits, upward=True)
        return format_directed(self.sigma_below, digits, upward=False)

    def as_json(self, rounded: Rounding = "up") -> dict[str, object]:  # type: ignore[override]
        """JSON form (exact rationals as "p/q"; ``sigma`` a decimal rounded up, a sufficient σ)."""
        return {
            "sigma": self.decimal(rounded=rounded),
            "sigma_rounded": check_rounding(rounded),
            "sigma_rational": fraction_text(self.sigma),
            "sigma_below": fraction_text(self.sigma_below),
            "tolerance": fraction_text(self.tolerance),
            "epsilon": fraction_text(self.epsilon),
            "delta": fraction_text(self.delta),
            "sensitivity_squared": fraction_text(self.sensitivity_squared),
            # δ at the sufficient σ is achieved (up); δ at the insufficient σ is evidence it exceeds δ (down)
            "delta_at_sigma": None if self.delta_at_sigma is None else self.delta_at_sigma.as_json("up"),
            "delta_at_sigma_below": None if self.delta_at_sigma_below is None
            else self.delta_at_sigma_below.as_json("down"),
        }


def sigma_exact(
    *,
    epsilon: RationalLike,
    delta: RationalLike,
    sensitivity_squared: RationalLike,
    tolerance: RationalLike = DEFAULT_TOLERANCE,
) -> ExactSigma:
    """The smallest σ making the Gaussian mechanism (ε, δ)-DP, for every ε > 0 and δ ∈ (0, 1).

    ``sensitivity_squared`` is Δ² for the neighbouring relation in use; ``tolerance`` is the relative width
    of the answer, a rational in (0, 1). See :class:`ExactSigma` for what is certified.

    How: a float solve (:mod:`reference.privacy.gaussian_estimate`) places the bracket ``[σ (1 - tolerance),
    σ]`` around its estimate; one 80-bit Arb enclosure of δ(ε) (Balle–Wang) at each end decides it — σ
    certified sufficient and the lower end certified insufficient — and that is the answer. A bracket that
    is not certified is re-centred by a secant step through the two enclosures (a few tries); failing that,
    exact rational bisection with certified comparisons from whatever was certified (or from a bracket grown
    around the estimate) finishes the job. Either way both ends carry the same certificates, so the float
    only decides where to look: a wrong estimate costs time, never the guarantee.

    Args:
        epsilon: the target ε > 0.
        delta: the target δ in (0, 1).
        sensitivity_squared: Δ², the squared ℓ2 (or Mahalanobis) sensitivity.
        tolerance: the relative width of the certified bracket, in (0, 1).

    Example:
        >>> from reference.privacy.gaussian import sigma_exact
        >>> sigma = sigma_exact(epsilon="1/2", delta="1e-6", sensitivity_squared="13/3")
        >>> sigma.decimal()[:15]  # rounded up: a sufficient σ
        '16.773270428004'
    """
    eps = positive_fraction(epsilon, "epsilon")
    target = open_unit_fraction(delta, "delta")
    d2 = _validate_common(sensitivity_squared)
    tol = tolerance_fraction(tolerance)

    estimate = sigma_estimate(epsilon=eps, delta=target, sensitivity_squared=d2)
    # past the float range (δ = 1e-9999, ε = 1e-5000) the same solve on Arb midpoints: a few evaluations at
    # the cancellation's precision instead of some forty certified bisection steps at it
    centre = Fraction(estimate) if estimate is not None else sigma_estimate_wide(
        epsilon=eps, delta=target, sensitivity_squared=d2)
    # the 80-bit enclosures tell the two ends of the bracket apart only when tol is well above 2**-80 (δ moves by
    # about tol·|d log δ / d log σ| across it): finer tolerances go straight to the refinement
    coarse = tol.denominator.bit_length() - tol.numerator.bit_length() < TARGET_ACCURACY_BITS - _SLOPE_BITS
    found = None if centre is None or not coarse else _certify_near(centre, eps, target, d2, tol)
    if isinstance(found, ExactSigma):
        return found
    # a tolerance finer than the 80-bit enclosures resolve: Newton on Arb midpoints at a precision that grows
    # with the digits asked for, then the same two certificates at that precision
    refined = None if centre is None else _certify_refined(centre, eps, target, d2, tol)
    if refined is not None:
        return refined
    return _sigma_by_bisection(eps, target, d2, tol, estimate, found)


#: Certified brackets tried around the float estimate (each re-centred by a secant step through the last
#: pair of enclosures) before the bisection takes over.
_BRACKET_ATTEMPTS = 3


def _certify_near(
    centre: Fraction, eps: Fraction, target: Fraction, d2: Fraction, tol: Fraction
) -> ExactSigma | tuple[Fraction | None, Fraction | None]:
    """Try the bracket ``[σ (1 - tol), σ]`` with ``σ`` just above ``centre (1 + tol/2)``: when the 80-bit
    enclosures certify δ(ε) <= ``target`` at σ and > ``target`` at the lower end, that is the answer, with
    the very enclosures :func:`sigma_exact`'s report carries. Otherwise re-centre by a secant step and retry;
    after :data:`_BRACKET_ATTEMPTS` return what was certified: (largest insufficient σ, smallest sufficient
    σ), each None when none was found.
    """
    insufficient: Fraction | None = None
    sufficient: Fraction | None = None
    for _ in range(_BRACKET_ATTEMPTS):
        if centre <= 0:
            break
        high = _dyadic_ceiling(centre * (1 + tol / 2), tol * centre / 8)
        below = high * (1 - tol)
        try:
            sigma_ball = _accurate_delta_ball(eps, high, d2)
            below_ball = _accurate_delta_ball(eps, below, d2)
        except UndecidedComparisonError:
            break
        # compared as balls first (no rationals); the two enclosures the answer carries are converted once
        with working_precision(START_PRECISION + TARGET_ACCURACY_BITS):
            target_ball = _ball(target)
        if sigma_ball <= target_ball and below_ball > target_ball:
            at_sigma = _clip_to_unit(CertifiedReal.from_arb(sigma_ball))
            at_below = _clip_to_unit(CertifiedReal.from_arb(below_ball))
            if at_sigma.certainly_le(target) and at_below.certainly_gt(target):
                return ExactSigma(
                    below, high, epsilon=eps, delta=target, sensitivity_squared=d2, tolerance=tol,
                    delta_at_sigma=at_sigma, delta_at_sigma_below=at_below,
                )
        at_sigma = _clip_to_unit(CertifiedReal.from_arb(sigma_ball))
        at_below = _clip_to_unit(CertifiedReal.from_arb(below_ball))
        for point, enclosure in ((high, at_sigma), (below, at_below)):
            if enclosure.certainly_le(target):
                sufficient = point if sufficient is None else min(sufficient, point)
            elif enclosure.certainly_gt(target):
                insufficient = point if insufficient is None else max(insufficient, point)
        drop = at_below.midpoint - at_sigma.midpoint
        if drop <= 0:
            break
        # secant through (below, δ(below)) and (high, δ(high)): δ is smooth, so this lands far closer
        centre = below + (at_below.midpoint - target) * (high - below) / drop
    return insufficient, sufficient


#: Bits of the 80-bit enclosure kept back for δ's slope and the enclosure's own width when deciding whether it can
#: tell the ends of a bracket of relative width tol apart.
_SLOPE_BITS = 24

#: Precision rungs :func:`_certify_refined` climbs (each doubled) before the bisection takes over.
_REFINE_RUNGS = 4


def _delta_and_slope(epsilon: arb, sigma: arb, sensitivity_squared: arb) -> tuple[arb, arb]:
    """Balls containing δ(ε) and dδ/dσ at σ, at the current ``ctx.prec``. The slope has a closed form:
    with a = Δ/(2σ), b = εσ/Δ, e^ε φ(−a − b) = φ(a − b) (since (a + b)² − (a − b)² = 4ab = 2ε), so the two
    terms' derivatives combine into dδ/dσ = −(Δ/σ²) φ(a − b)."""
    root_d2 = sensitivity_squared.sqrt()
    ratio = sigma / root_d2
    gap = 1 / (2 * ratio) - epsilon * ratio
    density = (-(gap * gap) / 2).exp() / (2 * arb.pi()).sqrt()
    return profile_ball(epsilon, ratio), -(root_d2 / (sigma * sigma)) * density


def _certify_refined(
    centre: Fraction, eps: Fraction, target: Fraction, d2: Fraction, tol: Fraction
) -> ExactSigma | None:
    """The bracket ``[σ (1 - tol), σ]`` certified at a precision of about log2(1/tol) + 144 bits (doubled a few
    times where δ's two terms cancel more): Newton steps on Arb midpoints (the closed-form slope of
    :func:`_delta_and_slope`) from ``centre`` until a step is below tol/16, then δ(ε) enclosed at both ends and
    compared with ``target`` as Arb balls. Only the two final enclosures become rationals. The midpoints only
    steer; both ends are certified, so a bad step costs a rung, never the guarantee. None when no rung decides.
    """
    tol_bits = tol.denominator.bit_length() - tol.numerator.bit_length() + 1
    precision = START_PRECISION + TARGET_ACCURACY_BITS + tol_bits
    for _ in range(_REFINE_RUNGS):
        if precision > MAX_PRECISION:
            return None
        with working_precision(precision):
            eps_ball, d2_ball, target_ball = _ball(eps), _ball(d2), _ball(target)
            sigma = _ball(centre)
            step_floor = _ball(tol) * sigma / 16
            # the estimate is within a few units of the answer's log; a Newton step that leaves [centre/2**64,
            # centre*2**64] ran off δ's flat part (δ near 1, where the slope vanishes): stop at the last iterate
            # instead of following it to 2**(2**20) and beyond
            leash_low, leash_high = sigma / arb(2) ** 64, sigma * arb(2) ** 64
            for _ in range(2 * precision.bit_length()):  # quadratic convergence: a few steps per doubling
                value, slope = _delta_and_slope(eps_ball, sigma, d2_ball)
                if not (value.is_finite() and slope.is_finite()) or slope.mid() == 0:
                    break
                step = ((value - target_ball) / slope).mid()
                stepped = (sigma - step).mid()
                if not leash_low < stepped < leash_high:
                    break
                sigma = stepped
                if abs(step) < step_floor:
                    break
            if sigma > 0 and sigma.is_finite():
                high = _dyadic_ceiling(CertifiedReal.from_arb(sigma.mid()).lower * (1 + tol / 2), tol * centre / 8)
                below = high * (1 - tol)
                at_sigma = _delta_ball(eps, high, d2)
                at_below = _delta_ball(eps, below, d2)
                if at_sigma.is_finite() and at_below.is_finite() and at_sigma <= target_ball and at_below > target_ball:
                    return ExactSigma(
                        below, high, epsilon=eps, delta=target, sensitivity_squared=d2, tolerance=tol,
                        delta_at_sigma=_clip_to_unit(CertifiedReal.from_arb(at_sigma)),
                        delta_at_sigma_below=_clip_to_unit(CertifiedReal.from_arb(at_below)),
                    )
            centre = CertifiedReal.from_arb(sigma.mid()).lower if sigma > 0 and sigma.is_finite() else centre
        precision = next_precision(precision)
    return None


def _dyadic_ceiling(value: Fraction, resolution: Fraction) -> Fraction:
    """The smallest multiple of ``2**-k`` that is >= ``value``, for the smallest ``k`` with ``2**-k`` below
    ``resolution`` (a short rational instead of the float estimate's long one)."""
    exponent = resolution.denominator.bit_length() - resolution.numerator.bit_length() + 1
    scale = Fraction(2) ** exponent
    scaled = value * scale
    return Fraction(-((-scaled.numerator) // scaled.denominator)) / scale


def _sigma_by_bisection(
    eps: Fraction,
    target: Fraction,
    d2: Fraction,
    tol: Fraction,
    estimate: float | None,
    known: tuple[Fraction | None, Fraction | None] | None,
) -> ExactSigma:
    """Exact rational bisection with certified comparisons, from the certified ends ``known`` if both exist,
    else from a bracket grown around the estimate (or Theorem 3.8's σ)."""

    ladder = [START_PRECISION]  # the precision that decided last (nearby σ need about the same)

    def satisfied(sigma: Fraction) -> bool:
        decided, _, ladder[0] = _ball_decided(eps, sigma, d2, target, max(START_PRECISION, ladder[0] // 2))
        return decided

    if known is not None and known[0] is not None and known[1] is not None:
        low, high = known[0], known[1]
    else:
        # a good guess for moderate ε; only a starting point, every step is certified
        # (b - a = z with z = sqrt(2 log(2/δ)), solved for σ: the classical z Δ/ε at small ε, Δ/sqrt(2ε) at large ε,
        # where z Δ/ε alone was 150 decades low at ε = 1e300 and the bracket took 500 certified doublings)
        guess = Fraction(estimate) if estimate is not None else _dyadic_guess(
            lambda: _ball(d2).sqrt() * (
                (2 * (2 / _ball(target)).log()).sqrt() + (2 * (2 / _ball(target)).log() + 2 * _ball(eps)).sqrt()
            ) / (2 * _ball(eps))
        )
        # halving ends as δ(ε) -> 1 when σ -> 0 (delta < 1); doubling ends as δ(ε) -> 0 when σ -> oo
        low, high = bracket_around(satisfied, guess)
    # invariant: low certified insufficient, high certified sufficient
    low, high = bisect(satisfied, low, high, tolerance=tol)
    below = high * (1 - tol)
    # below <= low, so it is insufficient by monotonicity; certify it directly anyway
    at_below = _reported_enclosure(eps, below, d2, target)
    if at_below.certainly_le(target):  # impossible unless δ(ε) were not decreasing in σ
        raise ArithmeticError("sigma_below was certified sufficient: delta(epsilon) is not monotone here")
    at_sigma = _reported_enclosure(eps, high, d2, target)
    if not at_sigma.certainly_le(target):  # impossible: high was certified sufficient
        raise ArithmeticError("sigma was certified sufficient, then insufficient: inconsistent enclosures")
    return ExactSigma(
        below, high, epsilon=eps, delta=target, sensitivity_squared=d2, tolerance=tol,
        delta_at_sigma=at_sigma, delta_at_sigma_below=at_below,
    )


def sigma_classical(*, epsilon: RationalLike, delta: RationalLike, sensitivity_squared: RationalLike) -> CertifiedReal:
    """σ of the classical Gaussian mechanism (Dwork & Roth, Theorem A.1): ``Δ sqrt(2 log(1.25/δ)) / ε``.

    The theorem is stated for ε ∈ (0, 1) (and asks ``c² > 2 log(1.25/δ)`` strictly: the value returned is the
    infimum of its admissible σ). ε >= 1 is refused with a pointer to :func:`sigma_exact`.
    """
    eps = positive_fraction(epsilon, "epsilon")
    target = open_unit_fraction(delta, "delta")
    d2 = _validate_common(sensitivity_squared)
    check_paper_range(
        epsilon=eps,
        delta=target,
        theorem="the classical Gaussian mechanism (Dwork & Roth, Theorem A.1)",
        stated_range="(0, 1)",
        within_stated_range=eps < 1,
        bounded_by_half=False,
        command="gaussian",
    )
    return certify(
        lambda: (2 * _ball(d2) * (_ball(Fraction(5, 4)) / _ball(target)).log()).sqrt() / _ball(eps),
        label="classical sigma",
    )


@dataclass(frozen=True)
class GaussianVerdict(Decided):
    """Certified answer to "is N(0, σ²) noise at sensitivity Δ (ε, δ)-DP?" and by how much.

    ``holds`` is decided from a ball lying entirely on one side of ``delta``. ``delta_at_sigma`` encloses
    δ(ε) at ``sigma``; ``epsilon_at_sigma`` the smallest ε achieving ``delta`` at ``sigma``; ``exact`` the
    optimal σ; ``sigma_ratio`` encloses σ / σ_optimal (> 1 means more noise than needed, < 1 too little).
    """

    sigma: Fraction
    epsilon: Fraction
    delta: Fraction
    sensitivity_squared: Fraction
    holds: bool
    # The verdict is decided first; these describe it and may be out of reach at extreme parameters (None, with
    # the reason in ``notes``): δ(ε) below 2**-(2**20) at σ = 1e10, an ε of 10**12 at σ = 3e-7.
    delta_at_sigma: CertifiedReal | None
    epsilon_at_sigma: CertifiedReal | None
    exact: ExactSigma | None
    sigma_ratio: CertifiedReal | None
    notes: tuple[str, ...] = ()

    def summary(self) -> str:
        """One line for a terminal."""
        verdict = "holds" if self.holds else "FAILS"

        def show(value: CertifiedReal | None, rounded: Rounding) -> str:
            # text: a certified one-sided bound where the enclosure is one (δ(ε) below 2**-(2**20) is [0, 2**-(2**20)])
            return "not computed (see notes)" if value is None else value.text(15, rounded=rounded)

        # δ and ε achieved at σ: rounded up; σ/σ_exact, read as "this much noise to spare": rounded down
        return (
            f"({fraction_text(self.epsilon)}, {fraction_text(self.delta)})-DP {verdict} at sigma={format_significant(self.sigma, 15)}: "
            f"delta(epsilon)={show(self.delta_at_sigma, 'up')}, smallest epsilon for delta="
            f"{show(self.epsilon_at_sigma, 'up')}, sigma/sigma_exact={show(self.sigma_ratio, 'down')}"
        )

    def as_json(self) -> dict[str, object]:
        """JSON form."""
        return {
            "verdict": self.verdict,
            "summary": self.summary(),
            "sigma": fraction_text(self.sigma),
            "epsilon": fraction_text(self.epsilon),
            "delta": fraction_text(self.delta),
            "sensitivity_squared": fraction_text(self.sensitivity_squared),
            "delta_at_sigma": None if self.delta_at_sigma is None else self.delta_at_sigma.as_json("up"),
            "epsilon_at_sigma": None if self.epsilon_at_sigma is None else self.epsilon_at_sigma.as_json("up"),
            "sigma_exact": None if self.exact is None else self.exact.as_json("up"),
            "sigma_ratio": None if self.sigma_ratio is None else self.sigma_ratio.as_json("down"),
            "notes": list(self.notes),
        }


def check_gaussian(
    *,
    epsilon: RationalLike,
    delta: RationalLike,
    sigma: RationalLike,
    sensitivity_squared: RationalLike,
) -> GaussianVerdict:
    """Certified verdict whether ``N(0, σ²)`` noise at sensitivity² ``sensitivity_squared`` is (ε, δ)-DP.

    The seed of the calibration audit: holds / fails, the enclosure of δ(ε) to compare with
    ``delta``, the smallest ε achieved, and σ against :func:`sigma_exact`.
    """
    sig = positive_fraction(sigma, "sigma")
    eps = positive_fraction(epsilon, "epsilon")
    target = open_unit_fraction(delta, "delta")
    d2 = _validate_common(sensitivity_squared)
    holds, _ = _delta_satisfied(eps, sig, d2, target)
    notes: list[str] = []

    def described(what: str, compute: Callable[[], _T]) -> _T | None:
        try:
            return compute()
        except (UndecidedComparisonError, ArithmeticError) as reason:
            notes.append(f"{what} not computed: {str(reason).splitlines()[0]}")
            return None

    enclosure = described("delta(epsilon)", lambda: _enclose_delta(eps, sig, d2))
    exact = described(
        "the exact sigma",
        lambda: sigma_exact(epsilon=eps, delta=target, sensitivity_squared=d2, tolerance=FINE_TOLERANCE),
    )
    # the optimum lies in (sigma_below, sigma], so σ/σ_opt lies in [σ/sigma, σ/sigma_below)
    ratio = None if exact is None else CertifiedReal(sig / exact.sigma, sig / exact.sigma_below)
    return GaussianVerdict(
        sigma=sig,
        epsilon=eps,
        delta=target,
        sensitivity_squared=d2,
        holds=holds,
        delta_at_sigma=enclosure,
        epsilon_at_sigma=described(
            "the smallest epsilon", lambda: gaussian_epsilon(delta=target, sigma=sig, sensitivity_squared=d2)
        ),
        exact=exact,
        sigma_ratio=ratio,
        notes=tuple(notes),
    )


__all__ = [
    "DEFAULT_TOLERANCE",
    "FINE_TOLERANCE",
    "ExactSigma",
    "GaussianVerdict",
    "UndecidedComparisonError",
    "check_gaussian",
    "gaussian_delta",
    "gaussian_epsilon",
    "sigma_classical",
    "sigma_exact",
]
