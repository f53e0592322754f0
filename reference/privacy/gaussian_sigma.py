"""The smallest σ for (ε, δ)-DP of the Gaussian mechanism (:func:`sigma_exact`), certified at both ends of a
bracket. Conventions: :mod:`reference.privacy.gaussian`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from flint import arb

from reference.core.bisection import bisect, bracket_around
from reference.core.certified import (
    MAX_PRECISION,
    START_PRECISION,
    TARGET_ACCURACY_BITS,
    CertifiedReal,
    Rounding,
    UndecidedComparisonError,
    check_rounding,
    format_directed,
    next_precision,
    working_precision,
)
from reference.core.certified import ball as _ball
from reference.core.exact_text import exact_text
from reference.core.validate import (
    RationalLike,
    fraction_text,
    open_unit_fraction,
    positive_fraction,
    tolerance_fraction,
)
from reference.privacy.gaussian_enclosure import (
    accurate_delta_ball,
    ball_decided,
    clip_to_unit,
    delta_and_slope,
    dyadic_guess,
    enclose_delta,
    reported_enclosure,
)
from reference.privacy.gaussian_estimate import sigma_estimate, sigma_estimate_wide
from reference.privacy.gaussian_mean_value import (
    FLOAT_ESTIMATE_BITS,
    GUARD_BITS,
    WIDE_ESTIMATE_BITS,
    Bracket,
    certify_bracket,
    newton_centre,
    unit_enclosure,
)
from reference.privacy.gaussian_profile import delta_ball

DEFAULT_TOLERANCE = Fraction(1, 10**12)


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
    # δ(ε) at ``sigma`` and at ``sigma_below``, each a CertifiedReal or the Arb ball that decided the comparison,
    # kept as a ball until first read (:attr:`delta_at_sigma`): the certificate is the ball's comparison with
    # δ's ball, made before this object exists; the exact rationals (and the 80-bit report) are only for reading
    _at_sigma: CertifiedReal | arb | None = field(default=None, repr=False, compare=False)
    _at_sigma_below: CertifiedReal | arb | None = field(default=None, repr=False, compare=False)

    @property
    def delta_at_sigma(self) -> CertifiedReal | None:
        """An enclosure of δ(ε) at ``sigma``, with ``upper <= delta`` (exact rational ends, clipped to [0, 1])."""
        return self._enclosure("_at_sigma")

    @property
    def delta_at_sigma_below(self) -> CertifiedReal | None:
        """An enclosure of δ(ε) at ``sigma_below``, with ``lower > delta`` (exact rational ends, clipped to [0, 1])."""
        return self._enclosure("_at_sigma_below")

    def _enclosure(self, name: str) -> CertifiedReal | None:
        value: CertifiedReal | arb | None = getattr(self, name)
        if not isinstance(value, arb):
            return value
        # the deciding ball converted exactly (an Arb ball is a dyadic midpoint and radius), intersected with the
        # 80-bit enclosure of δ(ε) at the same σ: both contain δ(ε), so their intersection does, is as narrow as
        # the report's usual enclosure, and lies on the deciding ball's side of δ (computed on first read only)
        deciding = unit_enclosure(value)
        point = self.sigma if name == "_at_sigma" else self.sigma_below
        try:
            accurate = enclose_delta(epsilon=self.epsilon, sigma=point, sensitivity_squared=self.sensitivity_squared)
        except UndecidedComparisonError:  # no finite ball below MAX_PRECISION: the deciding one alone
            accurate = deciding
        lower, upper = max(deciding.lower, accurate.lower), min(deciding.upper, accurate.upper)
        if lower > upper:  # disjoint enclosures of one number: an arithmetic defect, never a result
            raise ArithmeticError(f"two enclosures of delta(epsilon) at sigma={point} are disjoint")
        converted = CertifiedReal(lower, upper)
        object.__setattr__(self, name, converted)
        return converted

    def __getstate__(self) -> dict[str, object]:
        """The fields with both enclosures as exact rationals (Arb balls do not pickle)."""
        state = dict(self.__dict__)
        state["_at_sigma"], state["_at_sigma_below"] = self.delta_at_sigma, self.delta_at_sigma_below
        return state

    def __repr__(self) -> str:
        """The sufficient σ and what it is for, on one line (the certificate is the fields, and :meth:`as_json`)."""
        return (f"ExactSigma(sigma <= {self.decimal()} (sufficient, rounded up), epsilon={exact_text(self.epsilon)}, "
                f"delta={exact_text(self.delta)}, sensitivity_squared={exact_text(self.sensitivity_squared)})")

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
        is sufficient too; ``rounded="down"`` prints ``sigma_below`` rounded down (certified insufficient).

        Args:
            digits: significant digits, a positive integer.
            rounded: ``"up"`` (the safe side for a σ: never below the certified value) or ``"down"``.
        """
        if check_rounding(rounded) == "up":
            return format_directed(self.sigma, digits, upward=True)
        return format_directed(self.sigma_below, digits, upward=False)

    def as_json(self, rounded: Rounding = "up") -> dict[str, object]:  # type: ignore[override]
        """JSON form (exact rationals as "p/q"; ``sigma`` a decimal rounded up, a sufficient σ).

        Args:
            rounded: the direction of the decimal's rounding, ``"up"`` (safe for a σ) or ``"down"``.
        """
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

    How: a float solve (:mod:`reference.privacy.gaussian_estimate`) gives a centre c; one Arb enclosure of δ(ε)
    (Balle–Wang; Mills' ratio from cached Taylor models where they serve, else Arb's erfc) at c and a bound of
    its slope between c and the ends (a Lipschitz bound of log|δ'|) give, by the mean value theorem, balls
    containing δ(ε) at both ends of the bracket ``[σ (1 - tolerance), σ]`` placed by a linear step
    (:mod:`reference.privacy.gaussian_mean_value`); σ certified sufficient and the lower end certified
    insufficient by comparing those balls with δ's ball — and that is the answer. Fine tolerances first take
    Newton steps on Arb midpoints at doubling precision. Where that does not decide, the older routes answer:
    80-bit enclosures at each end of a bracket re-centred by secant steps, then Newton on Arb midpoints at a
    precision growing with the digits, and finally exact rational bisection with certified comparisons. Every
    route carries the same certificates, so the float only decides where to look: a wrong estimate costs
    time, never the guarantee.

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
    d2 = positive_fraction(sensitivity_squared, "sensitivity_squared")
    tol = DEFAULT_TOLERANCE if tolerance is DEFAULT_TOLERANCE else tolerance_fraction(tolerance)

    estimate = sigma_estimate(epsilon=eps, delta=target, sensitivity_squared=d2)
    if estimate is not None:
        fast = _certify_by_mean_value(estimate, eps, target, d2, tol, trusted_bits=FLOAT_ESTIMATE_BITS)
        if fast is not None:
            return fast
    # past the float range (δ = 1e-9999, ε = 1e-5000) the same solve on Arb midpoints: a few evaluations at
    # the cancellation's precision instead of some forty certified bisection steps at it
    centre = Fraction(estimate) if estimate is not None else sigma_estimate_wide(
        epsilon=eps, delta=target, sensitivity_squared=d2)
    # the 80-bit enclosures tell the two ends of the bracket apart only when tol is well above 2**-80 (δ moves by
    # about tol·|d log δ / d log σ| across it): finer tolerances go straight to the refinement
    if estimate is None and centre is not None:
        fast = _certify_by_mean_value(centre, eps, target, d2, tol, trusted_bits=WIDE_ESTIMATE_BITS)
        if fast is not None:
            return fast
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


#: Working precisions (bits beyond those the tolerance needs) at which the mean value bracket is tried (with a
#: Newton step between the tries) before the older routes (secant brackets, the refinement ladder, the
#: bisection) take over.
_MEAN_VALUE_EXTRA_BITS = (0, 64)


def _certify_by_mean_value(
    centre: Fraction | float, eps: Fraction, target: Fraction, d2: Fraction, tol: Fraction, *, trusted_bits: int
) -> ExactSigma | None:
    """The answer from one enclosure of δ(ε) and one slope bound (:mod:`reference.privacy.gaussian_mean_value`):
    Newton steps on Arb midpoints, each at twice the previous accuracy, until the centre is within about
    √tol of the optimum (none at all for tolerances down to about 1e-24 from the float estimate), then the
    bracket certified by the mean value form. The two balls become rationals once, at the end. None when no
    try decides: the older routes then answer, with the same certificates.
    """
    tol_bits = tol.denominator.bit_length() - tol.numerator.bit_length() + 1
    accuracy = trusted_bits
    # the remainder is about (2**-accuracy)²·|σ δ''/δ'| against a gap of tol/2: a centre of about half the
    # tolerance's bits (plus a margin for that ratio) is enough
    while 2 * accuracy < tol_bits + _NEWTON_MARGIN_BITS:
        accuracy *= 2
        stepped = newton_centre(centre, epsilon=eps, delta=target, sensitivity_squared=d2, bits=accuracy + GUARD_BITS)
        if stepped is None:
            return None
        centre = stepped
    for extra in _MEAN_VALUE_EXTRA_BITS:
        bits = max(START_PRECISION, tol_bits + GUARD_BITS) + extra
        if bits > MAX_PRECISION:
            return None
        bracket = certify_bracket(centre, epsilon=eps, delta=target, sensitivity_squared=d2, tolerance=tol, bits=bits)
        if bracket is not None:
            # the balls decided against the target's ball; they become exact rationals when first read
            return _from_bracket(bracket, eps, target, d2, tol)
        if extra == _MEAN_VALUE_EXTRA_BITS[-1]:
            break
        # undecided: a centre less accurate than trusted or too few bits for δ's cancellation; both are doubled
        accuracy *= 2
        stepped = newton_centre(centre, epsilon=eps, delta=target, sensitivity_squared=d2, bits=accuracy + GUARD_BITS)
        if stepped is None:
            return None
        centre = stepped
    return None


def _from_bracket(bracket: Bracket, eps: Fraction, target: Fraction, d2: Fraction, tol: Fraction) -> ExactSigma:
    """The answer from a certified bracket, its fields set directly: the validation of ``CertifiedReal`` (two
    Fractions, lower <= upper) holds by construction (``sigma_below = sigma (1 - tol)`` with 0 < tol < 1, both
    built as Fractions), and skipping it is a tenth of a grid point's time."""
    result = object.__new__(ExactSigma)
    # a frozen dataclass keeps its fields in the instance dictionary: one update sets all eight
    vars(result).update(lower=bracket.sigma_below, upper=bracket.sigma, epsilon=eps, delta=target,
                        sensitivity_squared=d2, tolerance=tol, _at_sigma=bracket.at_sigma,
                        _at_sigma_below=bracket.at_below)
    return result


#: Bits of margin for the remainder's factor |σ δ''/δ'| (about |a² - b² - 2|, a few hundred on the comparison grid)
#: when deciding how accurate the centre must be; too few only costs a retry with a Newton step.
_NEWTON_MARGIN_BITS = 10


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
            sigma_ball = accurate_delta_ball(epsilon=eps, sigma=high, sensitivity_squared=d2)
            below_ball = accurate_delta_ball(epsilon=eps, sigma=below, sensitivity_squared=d2)
        except UndecidedComparisonError:
            break
        # compared as balls first (no rationals); the two enclosures the answer carries are converted once
        with working_precision(START_PRECISION + TARGET_ACCURACY_BITS):
            target_ball = _ball(target)
        if sigma_ball <= target_ball and below_ball > target_ball:
            at_sigma = clip_to_unit(CertifiedReal.from_arb(sigma_ball))
            at_below = clip_to_unit(CertifiedReal.from_arb(below_ball))
            if at_sigma.certainly_le(target) and at_below.certainly_gt(target):
                return ExactSigma(
                    below, high, epsilon=eps, delta=target, sensitivity_squared=d2, tolerance=tol,
                    _at_sigma=at_sigma, _at_sigma_below=at_below,
                )
        at_sigma = clip_to_unit(CertifiedReal.from_arb(sigma_ball))
        at_below = clip_to_unit(CertifiedReal.from_arb(below_ball))
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



def _certify_refined(
    centre: Fraction, eps: Fraction, target: Fraction, d2: Fraction, tol: Fraction
) -> ExactSigma | None:
    """The bracket ``[σ (1 - tol), σ]`` certified at a precision of about log2(1/tol) + 144 bits (doubled a few
    times where δ's two terms cancel more): Newton steps on Arb midpoints (the closed-form slope of
    :func:`delta_and_slope`) from ``centre`` until a step is below tol/16, then δ(ε) enclosed at both ends and
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
                value, slope = delta_and_slope(epsilon=eps_ball, sigma=sigma, sensitivity_squared=d2_ball)
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
                at_sigma = delta_ball(epsilon=eps, sigma=high, sensitivity_squared=d2)
                at_below = delta_ball(epsilon=eps, sigma=below, sensitivity_squared=d2)
                if at_sigma.is_finite() and at_below.is_finite() and at_sigma <= target_ball and at_below > target_ball:
                    return ExactSigma(
                        below, high, epsilon=eps, delta=target, sensitivity_squared=d2, tolerance=tol,
                        _at_sigma=clip_to_unit(CertifiedReal.from_arb(at_sigma)),
                        _at_sigma_below=clip_to_unit(CertifiedReal.from_arb(at_below)),
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
        decided, _, ladder[0] = ball_decided(epsilon=eps, sigma=sigma, sensitivity_squared=d2, delta=target, start=max(START_PRECISION, ladder[0] // 2))
        return decided

    if known is not None and known[0] is not None and known[1] is not None:
        low, high = known[0], known[1]
    else:
        # a good guess for moderate ε; only a starting point, every step is certified
        # (b - a = z with z = sqrt(2 log(2/δ)), solved for σ: the classical z Δ/ε at small ε, Δ/sqrt(2ε) at large ε,
        # where z Δ/ε alone was 150 decades low at ε = 1e300 and the bracket took 500 certified doublings)
        # It is capped by the σ at which δ(0) = erf(Δ/(2√2 σ)) equals δ, sufficient for every ε since δ(ε) falls
        # with ε: at ε = 1e-10000 and δ near 1 the formula alone was 10,000 decades high (33,000 halvings, 3.5 s)
        # (erfinv(δ) as erfcinv(1 - δ), exact: a 53-bit ball of δ = 1 - 1e-100 contains 1, where erfinv is infinite)
        def rough_sigma() -> arb:
            general = _ball(d2).sqrt() * (
                (2 * (2 / _ball(target)).log()).sqrt() + (2 * (2 / _ball(target)).log() + 2 * _ball(eps)).sqrt()
            ) / (2 * _ball(eps))
            at_zero = _ball(d2).sqrt() / (2 * arb(2).sqrt() * _ball(1 - target).erfcinv())
            if not (at_zero.is_finite() and at_zero > 0):
                return general
            return at_zero if not general.is_finite() else general.min(at_zero)

        guess = Fraction(estimate) if estimate is not None else dyadic_guess(rough_sigma)
        # halving ends as δ(ε) -> 1 when σ -> 0 (delta < 1); doubling ends as δ(ε) -> 0 when σ -> oo
        low, high = bracket_around(satisfied, guess)
    # invariant: low certified insufficient, high certified sufficient
    low, high = bisect(satisfied, low, high, tolerance=tol)
    below = high * (1 - tol)
    # below <= low, so it is insufficient by monotonicity; certify it directly anyway
    at_below = reported_enclosure(epsilon=eps, sigma=below, sensitivity_squared=d2, delta=target)
    if at_below.certainly_le(target):  # impossible unless δ(ε) were not decreasing in σ
        raise ArithmeticError("sigma_below was certified sufficient: delta(epsilon) is not monotone here")
    at_sigma = reported_enclosure(epsilon=eps, sigma=high, sensitivity_squared=d2, delta=target)
    if not at_sigma.certainly_le(target):  # impossible: high was certified sufficient
        raise ArithmeticError("sigma was certified sufficient, then insufficient: inconsistent enclosures")
    return ExactSigma(
        below, high, epsilon=eps, delta=target, sensitivity_squared=d2, tolerance=tol,
        _at_sigma=at_sigma, _at_sigma_below=at_below,
    )


