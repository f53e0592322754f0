"""Zero-concentrated DP (ρ-zCDP): the ρ of (discrete) Gaussian noise, composition, and conversions to (ε, δ)-DP.

Conventions
-----------
σ is a standard deviation (``sigma_squared = σ²``); for the discrete Gaussian N_Z(0, σ²) with
``P[x] ∝ exp(-x²/(2σ²))`` σ² is a scale, not the variance. ``sensitivity_squared`` is Δ², the largest squared
ℓ2 change of the query between neighbours under the neighbouring relation in use (``add_remove`` or
``substitution``: the caller derives Δ² for its relation, see :mod:`reference.tda.calibration`). ``log`` is
natural. Inputs are exact rationals (int, Fraction, or strings such as ``"1/3"``, ``"1e-6"``); floats are
refused.

Facts used (each checked by ``verification/tda/proofs/privacy_accounting.py``, the tests, or both)
--------------------------------------------------------------------------------------------------
* Gaussian mechanism, N(0, σ²) per coordinate, ℓ2 sensitivity Δ: (Δ²/(2σ²))-zCDP (Bun & Steinke 2016,
  Proposition 1.6).
* Discrete Gaussian, integer-valued query, independent N_Z(0, σ²) per coordinate, ℓ2 sensitivity Δ:
  (Δ²/(2σ²))-zCDP (Canonne, Kamath & Steinke 2020, Theorem 4 in one dimension, Theorem 14 for vectors).
* Adaptive composition adds the ρ's (Bun & Steinke 2016, Lemma 2.3).
* Simple conversion: ρ-zCDP implies (ρ + 2 sqrt(ρ log(1/δ)), δ)-DP for every δ in (0, 1) (Bun & Steinke 2016,
  Proposition 1.3); equivalently δ = exp(-(ε - ρ)²/(4ρ)) for ε >= ρ.
* Tight conversion (Canonne, Kamath & Steinke 2020, Corollary 13): ρ-zCDP implies (ε, δ)-DP for ε >= 0 and

      δ = inf_{α>1} exp((α-1)(αρ-ε)) / (α-1) · (1 - 1/α)^α,

  equivalently ε = inf_{α>1} αρ + (log(1/δ) + (α-1) log(1 - 1/α) - log α)/(α - 1). Every α > 1 gives a valid
  pair; the factor (1-1/α)^α/(α-1) = (1-1/α)^(α-1)/α < 1 makes it never worse than the simple conversion.

Rigour
------
Irrational results are :class:`~reference.core.certified.CertifiedReal` enclosures computed with Arb ball
arithmetic (python-flint), whose error bounds are rigorous. For the tight conversion the optimal order α is
bracketed by certified bisection on the sign of the derivative (both objectives are strictly convex in α: with
t = α - 1 the ε objective's derivative vanishes where ρt² + log(1+t) = log(1/δ), the δ objective's where
(2t+1)ρ - ε + log(t/(1+t)) = 0, each strictly increasing in t). The enclosure's ``upper`` end is the objective
at a rational α (a valid ε or δ, attained), its ``lower`` end the Arb lower bound of the objective over the
whole bracket (so the exact infimum lies between them). A ρ reported as sufficient is certified: for the
closed form :func:`rho_from_epsilon_delta` use its ``lower`` end; :func:`rho_from_epsilon_delta_tight` returns
``[certified sufficient, certified insufficient]``. A comparison is never decided from a ball containing the
threshold.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from flint import arb

from reference.core.bisection import bisect, bracket_upward
from reference.core.certified import (
    TARGET_ACCURACY_BITS,
    CertifiedReal,
    UndecidedComparisonError,
    enclose,
    working_precision,
)
from reference.core.certified import ball as _ball
from reference.core.validate import (
    RationalLike,
    describe,
    fraction_text,
    nonnegative_fraction,
    open_unit_fraction,
    positive_fraction,
    tolerance_fraction,
)
from reference.privacy.discrete_gaussian_profile import discrete_gaussian_delta, discrete_gaussian_epsilon

START_PRECISION = 192
MAX_PRECISION = 1 << 12
#: Relative width of the α bracket (well below the 80-bit target, so the bracket never limits the enclosure).
_ORDER_BITS = 110
#: Default relative width of the ρ bracket: narrow enough that its 20-digit decimal is backed by the bracket.
DEFAULT_TOLERANCE = Fraction(1, 10**22)


# ------------------------------------------------------------------------------------------ ρ of mechanisms


def rho_gaussian(*, sigma_squared: RationalLike, sensitivity_squared: RationalLike) -> Fraction:
    """ρ = Δ²/(2σ²) of the Gaussian mechanism N(0, σ²) per coordinate at ℓ2 sensitivity Δ (exact).

    Bun & Steinke 2016, Proposition 1.6. ``sigma_squared`` (σ², σ a standard deviation) and
    ``sensitivity_squared`` (Δ² for the neighbouring relation in use) are positive exact rationals.

    Args:
        sigma_squared: the variance σ² > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        sensitivity_squared: Δ² > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
    """
    scale = positive_fraction(sigma_squared, "sigma_squared")
    d2 = positive_fraction(sensitivity_squared, "sensitivity_squared")
    return d2 / (2 * scale)


def rho_discrete_gaussian(*, sigma_squared: RationalLike, sensitivity_squared: RationalLike) -> Fraction:
    """ρ = Δ²/(2σ²) of independent discrete Gaussians N_Z(0, σ²) on an integer-valued query (exact).

    Canonne, Kamath & Steinke 2020, Theorem 4 (one coordinate) and Theorem 14 (a vector of independent
    N_Z(0, σ²), ℓ2 sensitivity Δ). Precondition: the query is integer-valued, so Δ² (a sum of squared integer
    changes) is a positive integer; a non-integer ``sensitivity_squared`` is refused. σ² is the scale of
    ``P[x] ∝ exp(-x²/(2σ²))``, any positive rational.

    Args:
        sigma_squared: the scale σ² > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        sensitivity_squared: Δ², a positive integer (the query is integer-valued).
    """
    scale = positive_fraction(sigma_squared, "sigma_squared")
    d2 = positive_fraction(sensitivity_squared, "sensitivity_squared")
    if d2.denominator != 1:
        raise ValueError(
            "sensitivity_squared must be a positive integer for an integer-valued query (a sum of squared "
            f"integer changes), got {fraction_text(d2)}"
        )
    return d2 / (2 * scale)


def sigma_squared_for_rho(*, rho: RationalLike, sensitivity_squared: RationalLike) -> Fraction:
    """The σ² = Δ²/(2ρ) at which (discrete) Gaussian noise is exactly ρ-zCDP at ℓ2 sensitivity Δ (exact).

    Args:
        rho: ρ > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        sensitivity_squared: Δ² > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
    """
    budget = positive_fraction(rho, "rho")
    d2 = positive_fraction(sensitivity_squared, "sensitivity_squared")
    return d2 / (2 * budget)


def compose_rho(*rhos: RationalLike) -> Fraction:
    """Σ ρ_i: adaptive composition of ρ_i-zCDP mechanisms is (Σ ρ_i)-zCDP (Bun & Steinke 2016, Lemma 2.3).

    Args:
        *rhos: the ρ_i > 0 of the composed mechanisms, at least one, each an exact rational: int, Fraction or a
            string such as ``"1/6"``; a float is refused.
    """
    if not rhos:
        raise ValueError("rhos must name at least one zCDP parameter")
    return sum((positive_fraction(value, f"rhos[{index}]") for index, value in enumerate(rhos)), Fraction(0))


# ------------------------------------------------------------------------------------------ Arb helpers


def _enclose(compute: Callable[[], arb], label: str) -> CertifiedReal:
    """Evaluate an Arb expression at rising precision until it has TARGET_ACCURACY_BITS relative bits."""
    return enclose(compute, label, start_bits=START_PRECISION, target_bits=TARGET_ACCURACY_BITS, max_bits=MAX_PRECISION)


def _log_inverse(delta: Fraction) -> arb:
    """log(1/δ); for δ near 1 as -log1p(δ - 1), since 1/δ rounded to the working precision loses δ - 1."""
    if delta < Fraction(1, 2):
        return _ball(1 / delta).log()
    return -(_ball(delta - 1).log1p())


def _sign(ball: arb) -> int | None:
    """+1 / -1 when the ball lies strictly on one side of 0, else None (undecided)."""
    if ball > 0:
        return 1
    if ball < 0:
        return -1
    return None


def _bracket_order(derivative: Callable[[Fraction], arb]) -> tuple[Fraction, Fraction]:
    """Bracket [low, high] (t = α - 1 > 0) around the unique root of an increasing function of t.

    ``derivative(t)`` must be negative for t below the root and positive above it, and -> -oo as t -> 0+.
    Certified bisection: ``low`` stays certified negative (or 0), ``high`` certified positive; an undecided
    midpoint stops the search with the current (valid) bracket.
    """
    def above_root(t: Fraction) -> bool | None:
        sign = _sign(derivative(t))
        return None if sign is None else sign > 0

    def done(low: Fraction, high: Fraction) -> bool:
        # keep halving while low is still 0 (the root is positive), unless high is already negligibly small
        if low == 0:
            return high < Fraction(1, 2) ** ORDER_EXPONENT_LIMIT
        return high - low <= high / Fraction(2) ** _ORDER_BITS

    bracket = _bracket_exponent(above_root)
    if bracket is None:  # undecided on the way: the caller retries at a higher precision
        raise UndecidedComparisonError("the optimal order's exponent is undecided at this precision")
    return bisect(above_root, *bracket, done=done)


#: Binary exponents of t = α - 1 searched for the optimal order: t in [2**-40000, 2**40000] (the optimal t is
#: about sqrt(log(1/δ)/ρ) for a tiny ρ: 2**33300 at ρ = δ = 1e-10000, the corner of the accepted inputs).
ORDER_EXPONENT_LIMIT = 40_000


def _bracket_exponent(above_root: Callable[[Fraction], bool | None]) -> tuple[Fraction, Fraction] | None:
    """[2**e, 2**(e+1)] around the root (or [0, 2**-4001] below the searched range), found by galloping on
    the exponent and bisecting it: a few dozen decisions even when the root is near 2**±4000 (halving or
    doubling t itself took thousands, which made tiny or huge ρ hang). None when a decision is undecided."""
    first = above_root(Fraction(1))
    if first is None:
        return None
    direction = -1 if first else 1  # the root lies below 1 (go down) or above it (go up)
    settled, step = 0, 1  # exponent known on the side of 1
    while True:
        exponent = settled + direction * step
        if abs(exponent) > ORDER_EXPONENT_LIMIT:
            exponent = direction * (ORDER_EXPONENT_LIMIT + 1)
        side = above_root(Fraction(2) ** exponent)
        if side is None:
            return None
        if side == first:  # still on the same side as 1
            if abs(exponent) > ORDER_EXPONENT_LIMIT:
                if direction < 0:
                    return Fraction(0), Fraction(2) ** exponent
                raise UndecidedComparisonError(
                    f"no bracket below 2**{ORDER_EXPONENT_LIMIT}: the optimal order was not found")
            settled, step = exponent, 2 * step
            continue
        crossed = exponent
        break
    while abs(crossed - settled) > 1:  # bisect the exponent between settled (side of 1) and crossed
        middle = (crossed + settled) // 2
        side = above_root(Fraction(2) ** middle)
        if side is None:
            return None
        if side == first:
            settled = middle
        else:
            crossed = middle
    low, high = sorted((settled, crossed))
    return Fraction(2) ** low, Fraction(2) ** high


#: A certified lower bound of an objective over t in (0, T], used when the optimal order cannot be separated
#: from t = 0 (T = the bracket's upper end).
FloorNearZero = Callable[[Fraction], arb]


def _objective_enclosure(
    objective: Callable[[arb], arb], low: Fraction, high: Fraction, floor_near_zero: FloorNearZero
) -> tuple[arb, arb]:
    """(value at the rational midpoint, a ball whose lower end bounds the objective over the whole bracket)."""
    middle = (low + high) / 2
    at_point = objective(_ball(middle))
    if low == 0:  # the root lies in (0, high]: bound the objective there instead of evaluating at t = 0
        return at_point, floor_near_zero(high).union(at_point)
    return at_point, objective(_ball(low).union(_ball(high)))


def _tight_enclosure(
    objective: Callable[[arb], arb],
    derivative: Callable[[Fraction], arb],
    floor_near_zero: FloorNearZero,
    label: str,
) -> tuple[CertifiedReal, CertifiedReal]:
    """(enclosure of the objective at a rational order, enclosure over the bracket of the optimal order)."""
    precision = START_PRECISION
    while precision <= MAX_PRECISION:
        with working_precision(precision):
            try:
                low, high = _bracket_order(derivative)
            except UndecidedComparisonError:
                if precision * 2 > MAX_PRECISION:
                    raise
                precision *= 2
                continue
            at_point, over_bracket = _objective_enclosure(objective, low, high, floor_near_zero)
        if at_point.is_finite() and over_bracket.is_finite():
            point = CertifiedReal.from_arb(at_point)
            bracket = CertifiedReal.from_arb(over_bracket)
            width = point.upper - bracket.lower
            scale = max(abs(point.upper), abs(bracket.lower))
            if scale == 0 or width <= scale / Fraction(2) ** TARGET_ACCURACY_BITS or precision * 2 > MAX_PRECISION:
                return point, bracket
        precision *= 2
    raise UndecidedComparisonError(f"could not enclose {label}")


# ------------------------------------------------------------------------------------------ conversions


def epsilon_from_rho_simple(*, delta: RationalLike, rho: RationalLike) -> CertifiedReal:
    """Enclosure of ε = ρ + 2 sqrt(ρ log(1/δ)) (Bun & Steinke 2016, Proposition 1.3).

    ρ-zCDP implies (ε, δ)-DP; quote the ``upper`` end (a certified upper bound of this ε).

    Args:
        delta: δ in (0, 1), exact (int, Fraction or str such as ``"1/3"``; not float).
        rho: ρ > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
    """
    budget = positive_fraction(rho, "rho")
    target = open_unit_fraction(delta, "delta")
    return _enclose(
        lambda: _ball(budget) + 2 * (_ball(budget) * _log_inverse(target)).sqrt(), "the simple zCDP epsilon"
    )


def delta_from_rho_simple(*, epsilon: RationalLike, rho: RationalLike) -> CertifiedReal:
    """Enclosure of δ = exp(-(ε - ρ)²/(4ρ)) for ε >= ρ (1 for ε < ρ): the inverse of the simple conversion.

    Args:
        epsilon: ε >= 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        rho: ρ > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
    """
    exponent = log_delta_from_rho_simple(rho=rho, epsilon=epsilon)
    if exponent == 0:
        return CertifiedReal(Fraction(1), Fraction(1))
    return _enclose(lambda: _ball(exponent).exp(), "the simple zCDP delta")


def _tight_epsilon(budget: Fraction, target: Fraction) -> tuple[CertifiedReal, CertifiedReal]:
    """(ε at a rational order: valid and attained, enclosure of the objective over the optimal-order bracket)."""

    def objective(t: arb) -> arb:  # α = 1 + t: αρ + (log(1/δ) - log α)/(α - 1) + log(1 - 1/α)
        # log(1 - 1/α) = -log1p(1/t), never log t - log α: for a huge optimal t (tiny ρ) those two nearly equal
        # logarithms cancel, and over the bracket of t their difference would be as wide as each of them
        rho_ball, log_inv = _ball(budget), _log_inverse(target)
        return (1 + t) * rho_ball + (log_inv - t.log1p()) / t - (1 / t).log1p()

    def derivative(t: Fraction) -> arb:  # d/dα of the objective times (α - 1)²: ρt² + log(1 + t) - log(1/δ)
        return _ball(budget) * _ball(t * t) + _ball(1 + t).log() - _log_inverse(target)

    def floor_near_zero(high: Fraction) -> arb:
        # for 0 < t <= T: (1+t)ρ >= ρ, and g(t) = (L - log1p t)/t - log1p(1/t) has g'(t) = -(L - log1p t)/t² < 0
        # while log1p t < L, so g(t) >= g(T): ρ + g(T) bounds the objective below (ε is clipped at 0, so 0 is a
        # valid floor too). Narrow when the optimal t is below the searched range (a huge ρ): ε ≈ ρ there.
        t, log_inverse = _ball(high), _log_inverse(target)
        if not t.log1p() < log_inverse:
            return arb(0)
        return _ball(budget) + (log_inverse - t.log1p()) / t - (1 / t).log1p()

    return _tight_enclosure(objective, derivative, floor_near_zero, "the tight zCDP epsilon")


def epsilon_from_rho_tight(*, delta: RationalLike, rho: RationalLike) -> CertifiedReal:
    """Enclosure of the optimal ε of the tight conversion (Canonne, Kamath & Steinke 2020, Corollary 13).

    ρ-zCDP implies (ε, δ)-DP with ε = inf_{α>1} αρ + (log(1/δ) + (α-1) log(1 - 1/α) - log α)/(α - 1).
    ``upper`` is that expression at a rational α near the optimum, rounded up: a certified valid ε to quote.
    ``lower`` is a certified lower bound of the infimum. Clipped at 0 (ε < 0 means (0, δ)-DP).

    Args:
        delta: the target δ in (0, 1), exact (int, Fraction or str such as ``"1/3"``; not float).
        rho: the zCDP parameter ρ > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
    """
    budget = positive_fraction(rho, "rho")
    target = open_unit_fraction(delta, "delta")
    if target > Fraction(1, 2) and _zero_epsilon_suffices(budget, target):
        # δ near 1: (0, δ)-DP already holds; the optimal-order search (the clipped ε) is not needed, and at a δ a
        # hair below 1 its objective cannot be resolved from the clip
        return CertifiedReal(Fraction(0), Fraction(0))
    point, bracket = _tight_epsilon(budget, target)
    lower = max(min(bracket.lower, point.upper), Fraction(0))
    return CertifiedReal(lower, max(point.upper, Fraction(0)))


def _zero_epsilon_suffices(budget: Fraction, target: Fraction) -> bool:
    """Certified: log δ(0) of the tight conversion (its upper end, an order where it holds) is below log(target)."""
    try:
        at_zero = _log_delta_enclosure(budget, Fraction(0)).upper
    except (ValueError, ArithmeticError):  # undecided at ε = 0: leave it to the search
        return False
    return bool(_ball(at_zero) < _ball(target - 1).log1p())


def _log_delta_enclosure(rho: RationalLike, epsilon: RationalLike) -> CertifiedReal:
    """Enclosure of log δ for the tight conversion (CKS 2020, Corollary 13), without clipping at δ <= 1.

    log δ = inf_{α>1} (α-1)(αρ-ε) + α log(1 - 1/α) - log(α - 1). ``upper`` is the value at a rational α near the
    optimum (certified valid), ``lower`` a certified lower bound of the infimum. Useful when δ is too small
    for an exact enclosure (below about 1e-315653).
    """
    budget = positive_fraction(rho, "rho")
    eps = nonnegative_fraction(epsilon, "epsilon")

    def objective(t: arb) -> arb:  # α = 1 + t: t((1+t)ρ - ε) + (1+t) log(t/(1+t)) - log t
        # = t((1+t)ρ - ε - log1p(1/t)) - log1p(t): the two logarithms of size |log t| that cancel in the
        # printed form (leaving a value of size t at a tiny optimal t, or of size log t at a huge one) are
        # combined by hand, so the enclosure over the bracket of t stays as narrow as the bracket
        return t * ((1 + t) * _ball(budget) - _ball(eps) - (1 / t).log1p()) - t.log1p()

    def derivative(t: Fraction) -> arb:  # d/dα log δ(α) = (2α - 1)ρ - ε + log(1 - 1/α), α = 1 + t
        return _ball((2 * t + 1) * budget - eps) + _ball(t / (1 + t)).log()

    def floor_near_zero(high: Fraction) -> arb:
        # for 0 < t <= T <= 1/e: t log t >= T log T, -(1+t) log(1+t) >= -(1+T) log(1+T)
        bound = min(high, Fraction(1, 3))
        t = _ball(bound)
        # t((1+t)ρ - ε) >= t(ρ - ε) >= T min(0, ρ - ε): no loss of the bound when ρ >= ε (δ near 1)
        return t * _ball(min(Fraction(0), budget - eps)) + t * t.log() - (1 + t) * (1 + t).log()

    point, bracket = _tight_enclosure(objective, derivative, floor_near_zero, "the tight zCDP log delta")
    return CertifiedReal(min(bracket.lower, point.upper), point.upper)


def log_delta_from_rho(*, epsilon: RationalLike, rho: RationalLike) -> CertifiedReal:
    """Enclosure of log δ for the tight conversion (CKS 2020, Corollary 13), without clipping at δ <= 1.

    log δ = inf_{α>1} (α-1)(αρ-ε) + α log(1 - 1/α) - log(α - 1). ``upper`` is the value at a rational α near the
    optimum (certified valid), ``lower`` a certified lower bound of the infimum. Useful when δ is too small
    for an exact enclosure (below about 1e-315653). Refused when ρ exceeds ε so far that log δ, about
    -exp(-(ρ - ε)), cannot be separated from 0 (the optimal α - 1 is below 2**-40000; δ is 1 to that accuracy,
    which :func:`delta_from_rho` reports).

    Args:
        epsilon: ε >= 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        rho: ρ > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
    """
    budget = positive_fraction(rho, "rho")
    eps = nonnegative_fraction(epsilon, "epsilon")
    found = _log_delta_enclosure(budget, eps)
    if found.lower < 0 <= found.upper:
        raise ValueError(
            f"rho must not exceed epsilon by more than about {ORDER_EXPONENT_LIMIT * 7 // 10} for log_delta_from_rho,"
            f" got rho {describe(budget)} and epsilon {describe(eps)}: log δ ≈ -exp(-(rho - epsilon)) is then too "
            "close to 0 to enclose (delta_from_rho gives δ = 1 to that accuracy)"
        )
    return found


def _exp_enclosure(log_value: CertifiedReal) -> CertifiedReal:
    """[exp(lower), exp(upper)] rounded outward (exp is increasing), clipped to [0, 1]."""
    with working_precision(START_PRECISION):  # log δ <= 0 after the clip at 1: exp never overflows
        low = CertifiedReal.from_arb(_ball(min(log_value.lower, Fraction(0))).exp()).lower
        high = CertifiedReal.from_arb(_ball(min(log_value.upper, Fraction(0))).exp()).upper
    return CertifiedReal(min(max(low, Fraction(0)), Fraction(1)), min(high, Fraction(1)))


def delta_from_rho(*, epsilon: RationalLike, rho: RationalLike) -> CertifiedReal:
    """Enclosure of the optimal δ of the tight conversion (Canonne, Kamath & Steinke 2020, Corollary 13).

    δ = inf_{α>1} exp((α-1)(αρ-ε)) (1 - 1/α)^α/(α - 1) for ε >= 0. ``upper`` is the expression at a rational α
    near the optimum (certified, valid: ρ-zCDP implies (ε, upper)-DP); ``lower`` a certified lower bound of the
    infimum. Clipped at 1. For δ below about 1e-315653 use :func:`log_delta_from_rho`.

    Args:
        epsilon: ε >= 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        rho: ρ > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
    """
    return _exp_enclosure(_log_delta_enclosure(rho, epsilon))


def log_delta_from_rho_simple(*, epsilon: RationalLike, rho: RationalLike) -> Fraction:
    """log δ = -(ε - ρ)²/(4ρ) of the simple conversion for ε >= ρ (0 for ε < ρ), exact.

    Args:
        epsilon: ε >= 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        rho: ρ > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
    """
    budget = positive_fraction(rho, "rho")
    eps = nonnegative_fraction(epsilon, "epsilon")
    gap = max(eps - budget, Fraction(0))
    return -gap * gap / (4 * budget)


def rho_from_epsilon_delta(*, epsilon: RationalLike, delta: RationalLike) -> CertifiedReal:
    """Enclosure of the largest ρ with ρ + 2 sqrt(ρ log(1/δ)) <= ε: ρ = (sqrt(ε + log(1/δ)) - sqrt(log(1/δ)))².

    The unique positive root of the simple conversion (proved in ``verification/tda/proofs/privacy_accounting.py``). Its
    ``lower`` end is certified sufficient: ρ-zCDP with ρ = lower implies (ε, δ)-DP. Computed as
    ε² / (sqrt(ε + L) + sqrt(L))² (the same number, without cancellation).

    Args:
        epsilon: the target ε > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        delta: the target δ in (0, 1), exact (int, Fraction or str such as ``"1/3"``; not float).
    """
    eps = positive_fraction(epsilon, "epsilon")
    target = open_unit_fraction(delta, "delta")

    def compute() -> arb:
        log_inv = _log_inverse(target)
        return _ball(eps * eps) / ((_ball(eps) + log_inv).sqrt() + log_inv.sqrt()) ** 2

    return _enclose(compute, "rho from (epsilon, delta)")


def _tight_sufficient(budget: Fraction, eps: Fraction, target: Fraction) -> bool | None:
    """True: certified ε_tight(ρ) <= ε; False: certified inf > ε; None: undecided."""
    point, bracket = _tight_epsilon(budget, target)
    if point.certainly_le(eps):
        return True
    if bracket.certainly_gt(eps):
        return False
    return None


#: Smallest ε the tight (ε, δ) → ρ conversion accepts (2.7 s at 1e-20 and minutes at 1e-300 before this bound).
TIGHT_EPSILON_MINIMUM = Fraction(1, 10**12)
TIGHT_EPSILON_MINIMUM_TEXT = "1e-12"


def rho_from_epsilon_delta_tight(
    *,
    epsilon: RationalLike,
    delta: RationalLike,
    tolerance: RationalLike = DEFAULT_TOLERANCE,
) -> CertifiedReal:
    """``[lower, upper]`` around the largest ρ for which the tight conversion (CKS Corollary 13) gives (ε, δ).

    ``lower`` is certified sufficient (the certified ε of :func:`epsilon_from_rho_tight` at ``lower`` is
    <= ε, at a rational order), ``upper`` certified insufficient (the certified lower bound of the infimum over
    α is > ε). Rational bisection to relative width ``tolerance`` in (0, 1); starts from the simple closed form,
    which is sufficient for the tight conversion as well (so ``lower`` >= :func:`rho_from_epsilon_delta`).

    Args:
        epsilon: ε > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        delta: δ in (0, 1), exact (int, Fraction or str such as ``"1/3"``; not float).
        tolerance: the relative width at which the bisection stops, exact (int, Fraction or str such as ``"1/3"``; not
            float) in (0, 1) (default 10^-22).
    """
    eps = positive_fraction(epsilon, "epsilon")
    target = open_unit_fraction(delta, "delta")
    tol = tolerance_fraction(tolerance)
    if eps < TIGHT_EPSILON_MINIMUM:
        raise ValueError(
            f"epsilon = {describe(eps)} is below {TIGHT_EPSILON_MINIMUM_TEXT}, where the tight conversion's bisection "
            "over the Renyi order is not run (its rationals grow with log(1/epsilon)); "
            "rho_from_epsilon_delta gives a certified sufficient rho there"
        )
    low = rho_from_epsilon_delta(epsilon=eps, delta=target).lower
    if _tight_sufficient(low, eps, target) is not True:
        raise UndecidedComparisonError("the simple closed-form rho was not certified sufficient for the tight bound")
    def sufficient(rho: Fraction) -> bool | None:
        return _tight_sufficient(rho, eps, target)

    # sufficiency holds below the threshold; an undecided 'high' is never used as the sufficient end
    low, high = bracket_upward(sufficient, low, 2 * low, increasing=False)
    return CertifiedReal(*bisect(sufficient, low, high, tolerance=tol, increasing=False))


__all__ = [
    "DEFAULT_TOLERANCE",
    "UndecidedComparisonError",
    "compose_rho",
    "delta_from_rho",
    "delta_from_rho_simple",
    "discrete_gaussian_delta",
    "discrete_gaussian_epsilon",
    "epsilon_from_rho_simple",
    "epsilon_from_rho_tight",
    "log_delta_from_rho",
    "log_delta_from_rho_simple",
    "rho_discrete_gaussian",
    "rho_from_epsilon_delta",
    "rho_from_epsilon_delta_tight",
    "rho_gaussian",
    "sigma_squared_for_rho",
]
