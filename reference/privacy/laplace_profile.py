"""The exact privacy profile δ(ε) of the multivariate Laplace mechanism, certified with Arb ball arithmetic.

Model and conventions
---------------------
The mechanism releases ``f(D) + Lap(b)^d``: ``d`` independent Laplace variables of scale ``b`` (``scale``;
density ``exp(-|x|/b)/(2b)``, variance ``2b²``). For one neighbouring pair ``f(D') = f(D) + v`` (``v`` is the
*sensitivity vector*, exact rationals) the mechanism is (ε, δ)-DP for that pair iff ``δ >= δ(ε)`` with

    δ(ε) = E[(1 - e^(ε - L))_+],   L = Σ_i (|y_i - v_i| - |y_i|)/b,   y_i ~ Lap(b) i.i.d.,

the privacy loss. Swapping D and D' (or the sign of any v_i) gives the same law of L (y -> -y), so δ(ε)
depends only on the multiset ``a_i = |v_i|/b``; ``log`` is natural throughout.

Derivation (exact)
------------------
With ``t = y/b ~ Lap(1)`` one coordinate's loss ``ℓ = |t - a| - |t|`` equals ``+a`` for ``t <= 0`` (mass 1/2),
``-a`` for ``t >= a`` (mass ``e^(-a)/2``) and ``a - 2t`` in between (density ``(1/4) e^(-a/2) e^(ℓ/2)`` on
(-a, a)). So the law of ℓ is ``(1/2) e^(-a/2) e^(ℓ/2) ν_a(dℓ)`` with ``ν_a = δ_(-a) + δ_a + (1/2)·1_(-a,a) dℓ``,
and the law of L is ``K e^(L/2) μ(dL)``, ``K = 2^-d e^(-A/2)``, ``A = Σ a_i``, ``μ = ν_(a_1) * ... * ν_(a_d)``.

Write ``S^c`` for the point mass at c and ``J`` for convolution with the Heaviside function, so that
``J^p S^c`` is the truncated power ``(x - c)_+^(p-1)/(p-1)!`` and ``1_(-a,a) = J(S^-a - S^a)``. With ``x = J/2``,
``ν_a = S^-a (1 + x) + S^a (1 - x)``, hence for a group of ``m`` equal entries ``ν_a^m = Σ_r C(m, r)
S^((2r-m)a) (1 - x)^r (1 + x)^(m-r)``: μ is a sum over *shifts* c of ``W_c(x)`` (an integer polynomial in x
applied to S^c). Integrating ``e^(±L/2)`` against each truncated power from ε upwards (the contributions at
+∞ cancel because μ vanishes beyond A) and collecting terms gives the closed form

    δ(ε) = [ε < A] + 2^-d e^((ε - A)/2) Σ_{c <= ε} B_c((ε - c)/2),   B_c(v) = Σ_i C_(c,i) v^i / i!,

    C_c(x) = (W_c(-1) - W_c(x))/(1 + x) - (W_c(1) - W_c(x))/(1 - x)   (exact integer polynomial division),

and δ(ε) = 0 exactly for ε >= A (pure DP: the loss never exceeds A = ‖v‖_1/b). For d = 1 this is
``δ(ε) = 1 - e^((ε - a)/2)`` on [0, a). The coefficients are exact integers and rationals (python-flint
``fmpz_poly``/``fmpq_poly``); only the single exponential and the polynomial evaluations are done in Arb balls,
whose enclosures are rigorous. The sum cancels heavily (δ is small while the terms are not), so the working
precision is raised until the ball has 80 bits of relative accuracy, or, for a comparison with a target δ,
until it lies entirely on one side of the target (a ball containing the target never decides).

Cost: shifts are grouped by equal |v_i| (a multinomial structure), so a vector with few distinct values is
cheap — an all-equal vector of length d (a k-ary tree leaf's root path) has d + 1 shifts and polynomials of
degree d - 1. Vectors needing more than :data:`MAX_PROFILE_COEFFICIENTS` polynomial coefficients (distinct
shifts × dimension), more than :data:`MAX_CONSTRUCTION_WORK` to build, or of dimension above
:data:`MAX_DIMENSION`, are refused with a ValueError naming the limit (each distinct |v_i| doubles the
number of shifts: 15 pairwise distinct entries are accepted, 16 are not). Building costs up to a few
seconds and a few hundred MB at the limits (an all-equal vector of 600 entries: about 4 s, 0.4 GB); the
profiles are cached (bounded by PROFILE_CACHE_COEFFICIENTS coefficients in total), and later evaluations
take milliseconds (an all-equal vector of 30 entries — a k-ary tree of height 30 — builds in about 2 ms).

Monotonicity (used by the bisections): the 1-D pair (Lap(0), Lap(a')) is a garbling of (Lap(0), Lap(a)) for
a' <= a (its profile 1 - e^((ε-a)/2) is dominated for every ε, both directions — Blackwell), hence δ(ε) is
nondecreasing in every |v_i| and nonincreasing in b; it is strictly decreasing in ε on [0, A).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb, factorial

from flint import arb, arb_poly, fmpq_poly, fmpz_poly

from reference.core.bisection import bisect
from reference.core.certified import (
    TARGET_ACCURACY_BITS,
    CertifiedReal,
    UndecidedComparisonError,
    working_precision,
)
from reference.core.certified import ball as _ball
from reference.core.exact_text import exact_text
from reference.core.validate import (
    RationalLike,
    describe,
    nonnegative_fraction,
    open_unit_fraction,
    positive_fraction,
    to_fraction,
    tolerance_fraction,
)

#: First working precision, and the cap after which a computation is declared undecidable.
START_PRECISION = 128
MAX_PRECISION = 1 << 17
#: Largest number of nonzero entries of a sensitivity vector.
MAX_DIMENSION = 600
#: Largest (number of distinct privacy-loss breakpoints) × (dimension) the exact profile builds.
MAX_PROFILE_COEFFICIENTS = 500_000
#: Largest (shift combinations formed while grouping) × (dimension): the cost of building the profile.
MAX_CONSTRUCTION_WORK = 8_000_000

DEFAULT_TOLERANCE = Fraction(1, 10**12)
#: Relative tolerance of the ε enclosures: narrow enough that their 20-digit decimals are certified.
FINE_TOLERANCE = Fraction(1, 10**22)

GroupKey = tuple[tuple[Fraction, int], ...]


# ---------------------------------------------------------------------------------------------- validation


def _groups(sensitivities: object, name: str = "sensitivities") -> GroupKey:
    """Validate a sensitivity vector and return its nonzero |entries| grouped: ((value, multiplicity), ...)."""
    if isinstance(sensitivities, (str, bytes)) or not isinstance(sensitivities, Sequence):
        raise TypeError(
            f"{name} must be a sequence of exact rationals (the vector f(D') - f(D)), "
            f"got {type(sensitivities).__name__}"
        )
    if len(sensitivities) == 0:
        raise ValueError(f"{name} must have at least one entry")
    counts: dict[Fraction, int] = {}
    for index, entry in enumerate(sensitivities):
        value = abs(to_fraction(entry, f"{name}[{index}]"))
        if value:
            counts[value] = counts.get(value, 0) + 1
    if not counts:
        raise ValueError(f"{name} must have a nonzero entry (an all-zero vector leaks nothing: δ(ε) = 0)")
    dimension = sum(counts.values())
    if dimension > MAX_DIMENSION:
        raise ValueError(
            f"{name} has {dimension} nonzero entries; the exact profile accepts at most MAX_DIMENSION = {MAX_DIMENSION}"
        )
    return tuple(sorted(counts.items()))


def _vectors(sensitivity_vectors: object) -> tuple[GroupKey, ...]:
    if isinstance(sensitivity_vectors, (str, bytes)) or not isinstance(sensitivity_vectors, Sequence):
        raise TypeError("sensitivity_vectors must be a sequence of sensitivity vectors")
    if len(sensitivity_vectors) == 0:
        raise ValueError("sensitivity_vectors must contain at least one vector")
    return tuple(_groups(vector, f"sensitivity_vectors[{i}]") for i, vector in enumerate(sensitivity_vectors))


# ---------------------------------------------------------------------------------------------- exact core


class ExactProfile:
    """The exact part of δ(ε) for one grouped sensitivity vector (in units of the sensitivities, b = 1); build it
    with :func:`profile_of_vector` or :func:`profiles_of_vectors` (cached).

    ``shifts`` are the distinct breakpoints Σ_g (2 r_g - m_g) u_g in increasing order, ``borel[j]`` the exact
    polynomial B_c of the module docstring for ``shifts[j]``. ``total`` is ‖v‖_1 (A·b).

    Args:
        groups: the vector's nonzero |entries| grouped, ((value, multiplicity), ...) in increasing value.
    """

    def __init__(self, groups: GroupKey) -> None:
        self.groups = groups
        self.dimension = sum(m for _, m in groups)
        self.total = sum((u * m for u, m in groups), Fraction(0))
        _check_budget(groups, self.dimension)
        self.shifts, self.borel = _build(groups, self.dimension)
        self.size = len(self.shifts) * self.dimension
        self._arb_cache: dict[int, list[arb_poly]] = {}

    def arb_polys(self, precision: int) -> list[arb_poly]:
        """The Borel polynomials as Arb polynomials at ``precision`` (enclosures of the exact coefficients).

        Args:
            precision: the working precision in bits, a positive integer.
        """
        cached = self._arb_cache.get(precision)
        if cached is None:
            with working_precision(precision):
                cached = [arb_poly(poly) for poly in self.borel]
            if len(self._arb_cache) >= 2:  # balls of a large profile take megabytes per precision
                self._arb_cache.pop(next(iter(self._arb_cache)))
            self._arb_cache[precision] = cached
        return cached


def _check_budget(groups: GroupKey, dimension: int) -> None:
    """Refuse, before any polynomial is built, a vector whose profile exceeds the documented limits."""
    shifts = {Fraction(0)}
    for value, multiplicity in groups:
        work = len(shifts) * (multiplicity + 1) * dimension
        if work > MAX_CONSTRUCTION_WORK:
            raise ValueError(
                f"sensitivities: building the exact profile of this vector (dimension {dimension}, {len(groups)} "
                f"distinct |entries|) needs more than MAX_CONSTRUCTION_WORK = {MAX_CONSTRUCTION_WORK} "
                "(shift combinations × dimension); vectors with few distinct |entries| are cheap "
                f"(all-equal vectors up to MAX_DIMENSION = {MAX_DIMENSION} entries)"
            )
        shifts = {s + (2 * r - multiplicity) * value for s in shifts for r in range(multiplicity + 1)}
    if len(shifts) * dimension > MAX_PROFILE_COEFFICIENTS:
        raise ValueError(
            f"sensitivities: the exact profile of this vector (dimension {dimension}, {len(groups)} distinct "
            f"|entries|, {len(shifts)} privacy-loss breakpoints) needs {len(shifts) * dimension} polynomial "
            f"coefficients, more than MAX_PROFILE_COEFFICIENTS = {MAX_PROFILE_COEFFICIENTS}; vectors with few "
            f"distinct |entries| are cheap (all-equal vectors up to MAX_DIMENSION = {MAX_DIMENSION} entries)"
        )


def _build(groups: GroupKey, dimension: int) -> tuple[tuple[Fraction, ...], tuple[fmpq_poly, ...]]:
    one_minus, one_plus = fmpz_poly([1, -1]), fmpz_poly([1, 1])
    polys: dict[Fraction, fmpz_poly] = {Fraction(0): fmpz_poly([1])}
    for value, multiplicity in groups:
        minus_powers = [one_minus**r for r in range(multiplicity + 1)]
        plus_powers = [one_plus**r for r in range(multiplicity + 1)]
        merged: dict[Fraction, fmpz_poly] = {}
        for r in range(multiplicity + 1):
            factor = comb(multiplicity, r) * minus_powers[r] * plus_powers[multiplicity - r]
            offset = (2 * r - multiplicity) * value
            for shift, poly in polys.items():
                key = shift + offset
                product = poly * factor
                merged[key] = merged[key] + product if key in merged else product
        polys = merged
    top = max(dimension - 1, 0)
    scale = [factorial(top) // factorial(i) for i in range(top + 1)]  # B_i = C_i / i! = C_i (top!/i!) / top!
    shifts = tuple(sorted(polys))
    borel = []
    for shift in shifts:
        poly = polys[shift]
        upper, upper_rest = divmod(fmpz_poly([poly(-1)]) - poly, one_plus)
        lower, lower_rest = divmod(fmpz_poly([poly(1)]) - poly, one_minus)
        if (
            upper_rest.degree() >= 0 or lower_rest.degree() >= 0
        ):  # impossible: the numerators vanish at the divisor's root
            raise ArithmeticError("inexact polynomial division in the Laplace profile")
        coefficients = [int(c) for c in (upper - lower).coeffs()]
        borel.append(fmpq_poly([c * s for c, s in zip(coefficients, scale)], factorial(top)))
    return shifts, tuple(borel)


#: Profiles kept for reuse (most recent last), up to PROFILE_CACHE_COEFFICIENTS coefficients in total.
_CACHE: OrderedDict[GroupKey, ExactProfile] = OrderedDict()
PROFILE_CACHE_COEFFICIENTS = 2 * MAX_PROFILE_COEFFICIENTS


def _profile(groups: GroupKey) -> ExactProfile:
    """The (cached) exact profile of a grouped vector; the cache is bounded by its total coefficient count."""
    cached = _CACHE.get(groups)
    if cached is not None:
        _CACHE.move_to_end(groups)
        return cached
    profile = ExactProfile(groups)
    _CACHE[groups] = profile
    while len(_CACHE) > 1 and sum(p.size for p in _CACHE.values()) > PROFILE_CACHE_COEFFICIENTS:
        _CACHE.popitem(last=False)
    return profile


def _delta_ball(profile: ExactProfile, epsilon: Fraction, scale: Fraction, precision: int) -> arb:
    """A ball containing δ(ε) at ``precision`` bits; requires ε·b < ‖v‖_1 (else δ = 0 exactly)."""
    polys = profile.arb_polys(precision)
    threshold = epsilon * scale  # a breakpoint c = shift/b is <= ε iff shift <= ε b
    with working_precision(precision):
        total = arb(0)
        for shift, poly in zip(profile.shifts, polys):
            if shift > threshold:
                break
            total += poly(_ball((threshold - shift) / (2 * scale)))
        exponent = _ball((threshold - profile.total) / (2 * scale))
        return 1 + total * exponent.exp() / arb(2) ** profile.dimension


def _clip(enclosure: CertifiedReal) -> CertifiedReal:
    """Intersect with [0, 1], where δ(ε) lies by definition."""
    lower = min(max(enclosure.lower, Fraction(0)), Fraction(1))
    upper = max(min(enclosure.upper, Fraction(1)), Fraction(0))
    return CertifiedReal(lower, upper)


def _is_zero(profile: ExactProfile, epsilon: Fraction, scale: Fraction) -> bool:
    """δ(ε) = 0 exactly iff ε >= A = ‖v‖_1 / b (the loss is at most A, and P[L = A] = 2^-d > 0)."""
    return epsilon * scale >= profile.total


def _next_precision(precision: int, ball: arb) -> int:
    """The next working precision: the cancellation costs about the same number of bits at any precision, so
    aim at (bits lost) + TARGET_ACCURACY_BITS + 64, rounded up to a multiple of 256 (and at least double
    when the ball told nothing: infinite, or containing 0)."""
    if not ball.is_finite() or ball.rel_accuracy_bits() <= 0:
        return 2 * precision
    lost = precision - ball.rel_accuracy_bits()
    wanted = ((lost + TARGET_ACCURACY_BITS + 64) // 256 + 1) * 256
    return max(wanted, precision + 64)


#: Largest ‖v‖₁/scale (the pure-DP ε) for which the exact profile is computed: its terms need about that many
#: bits (e^A), and past 1e6 one evaluation takes minutes (scale 3e-7 at ‖v‖₁ = 2 did not end).
MAX_PURE_EPSILON = Fraction(10**6)


def _check_reach(profile: ExactProfile, scale: Fraction) -> None:
    if profile.total / scale > MAX_PURE_EPSILON:
        raise ValueError(
            f"scale is too small for the sensitivities: their l1 norm over scale is {describe(profile.total / scale)}, "
            "above 1e6, where the exact Laplace profile is not computed (the noise is far below any useful privacy: "
            "delta(epsilon) is essentially 1 for every modest epsilon); scale must be at least l1 norm / 1e6"
        )


def _enclose(profile: ExactProfile, epsilon: Fraction, scale: Fraction) -> CertifiedReal:
    """δ(ε) to TARGET_ACCURACY_BITS relative bits (exactly 0 for ε >= A)."""
    _check_reach(profile, scale)
    if _is_zero(profile, epsilon, scale):
        return CertifiedReal(Fraction(0), Fraction(0))
    precision = START_PRECISION
    while precision <= MAX_PRECISION:
        ball = _delta_ball(profile, epsilon, scale, precision)
        if ball.is_finite() and ball.rel_accuracy_bits() >= TARGET_ACCURACY_BITS:
            return _clip(CertifiedReal.from_arb(ball))
        precision = _next_precision(precision, ball)
    raise UndecidedComparisonError(
        f"could not enclose the Laplace delta(epsilon) to {TARGET_ACCURACY_BITS} bits with {MAX_PRECISION} bits"
    )


def _satisfied(profile: ExactProfile, epsilon: Fraction, scale: Fraction, target: Fraction) -> tuple[bool, CertifiedReal]:
    """Certified ``δ(ε) <= target``: (True, enclosure with upper <= target) or (False, lower > target)."""
    if _is_zero(profile, epsilon, scale):
        return True, CertifiedReal(Fraction(0), Fraction(0))
    precision = START_PRECISION
    while precision <= MAX_PRECISION:
        ball = _delta_ball(profile, epsilon, scale, precision)
        if ball.is_finite():
            enclosure = _clip(CertifiedReal.from_arb(ball))
            if enclosure.certainly_le(target):
                return True, enclosure
            if enclosure.certainly_gt(target):
                return False, enclosure
        precision = 2 * precision
    raise UndecidedComparisonError(
        f"the Laplace delta(epsilon) at epsilon={exact_text(epsilon)}, scale={exact_text(scale)} is "
        f"indistinguishable from delta={exact_text(target)} at {MAX_PRECISION} bits"
    )


def all_satisfied(profiles: Sequence[ExactProfile], *, epsilon: Fraction, scale: Fraction, target: Fraction) -> bool:
    """Certified ``δ(ε) <= target`` for every profile (each decided from a ball on one side of ``target``).

    Args:
        profiles: the exact profiles (:func:`profile_of_vector`, :func:`profiles_of_vectors`).
        epsilon: ε >= 0, an exact rational.
        scale: the Laplace scale b > 0, an exact rational.
        target: the δ to compare with, an exact rational in (0, 1).
    """
    for profile in profiles:
        _check_reach(profile, scale)
    return all(_satisfied(profile, epsilon, scale, target)[0] for profile in profiles)


def _worst_enclosure(profiles: Sequence[ExactProfile], epsilon: Fraction, scale: Fraction) -> CertifiedReal:
    enclosures = [_enclose(profile, epsilon, scale) for profile in profiles]
    return CertifiedReal(max(e.lower for e in enclosures), max(e.upper for e in enclosures))


def reported_delta(profiles: Sequence[ExactProfile], *, epsilon: Fraction, scale: Fraction,
                   target: Fraction) -> CertifiedReal:
    """The worst δ(ε) for a report: the 80-bit enclosure when it lies on one side of ``target`` (it nearly
    always does), else the enclosures that decided the comparison.

    Args:
        profiles: the exact profiles (:func:`profile_of_vector`, :func:`profiles_of_vectors`).
        epsilon: ε >= 0, an exact rational.
        scale: the Laplace scale b > 0, an exact rational.
        target: the δ compared with, an exact rational in (0, 1).
    """
    worst = _worst_enclosure(profiles, epsilon, scale)
    if worst.certainly_le(target) or worst.certainly_gt(target):
        return worst
    deciding = [_satisfied(profile, epsilon, scale, target)[1] for profile in profiles]
    return CertifiedReal(max(e.lower for e in deciding), max(e.upper for e in deciding))


# ---------------------------------------------------------------------------------------------- public API


def profile_of_vector(sensitivities: Sequence[RationalLike]) -> ExactProfile:
    """The (cached) exact profile of one sensitivity vector, validated.

    Args:
        sensitivities: the difference vector v: a non-empty sequence of exact rationals, at least one nonzero.
    """
    return _profile(_groups(sensitivities))


def profiles_of_vectors(sensitivity_vectors: Sequence[Sequence[RationalLike]]) -> list[ExactProfile]:
    """The (cached) exact profiles of several sensitivity vectors, validated.

    Args:
        sensitivity_vectors: the neighbouring differences v = f(D') − f(D): a non-empty sequence of non-empty
            sequences of exact rationals.
    """
    return [_profile(groups) for groups in _vectors(sensitivity_vectors)]


def laplace_delta(*, epsilon: RationalLike, scale: RationalLike, sensitivities: Sequence[RationalLike]) -> CertifiedReal:
    """Certified enclosure of δ(ε) for ``f(D) + Lap(scale)^d`` and one neighbouring pair ``f(D') - f(D) = v``.

    ``epsilon >= 0`` (δ(0) is the total variation distance), ``scale > 0`` and the entries of
    ``sensitivities`` (the vector v; signs and zero entries are allowed, at least one entry must be nonzero)
    are exact rationals. Exact closed form (module docstring) with Arb balls: the enclosure is rigorous and
    about 24 digits wide (relative); it is exactly ``[0, 0]`` when ``epsilon >= ‖v‖_1/scale`` (pure DP).

    Args:
        epsilon: ε >= 0 (at 0, δ is the total variation distance), exact (int, Fraction or str such as ``"1/3"``; not
            float).
        scale: the Laplace scale b > 0 of every coordinate, exact (int, Fraction or str such as ``"1/3"``; not float).
        sensitivities: the difference vector v = f(D') − f(D): a non-empty sequence of exact rationals, signs and zeros
            allowed, at least one nonzero.
    """
    eps = nonnegative_fraction(epsilon, "epsilon")
    lam = positive_fraction(scale, "scale")
    return _enclose(_profile(_groups(sensitivities)), eps, lam)


@dataclass(frozen=True)
class WorstCaseDelta:
    """δ(ε) maximised over several sensitivity vectors (the neighbouring pairs of a mechanism).

    ``delta`` encloses the maximum (``[max of lowers, max of uppers]``); ``deltas[i]`` is the enclosure for
    ``sensitivity_vectors[i]``; ``index`` is the vector with the largest upper bound.
    """

    delta: CertifiedReal
    deltas: tuple[CertifiedReal, ...]
    index: int


def laplace_delta_worst_case(
    *,
    epsilon: RationalLike,
    scale: RationalLike,
    sensitivity_vectors: Sequence[Sequence[RationalLike]],
) -> WorstCaseDelta:
    """The largest δ(ε) over ``sensitivity_vectors`` (see :func:`laplace_delta`): the mechanism is (ε, δ)-DP
    over a neighbouring relation whose differences are these vectors iff ``δ >= delta``.

    Args:
        epsilon: ε >= 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        scale: the Laplace scale b > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        sensitivity_vectors: the neighbouring differences v = f(D') − f(D): a non-empty sequence of non-empty sequences
            of exact rationals.
    """
    eps = nonnegative_fraction(epsilon, "epsilon")
    lam = positive_fraction(scale, "scale")
    profiles = [_profile(groups) for groups in _vectors(sensitivity_vectors)]
    deltas = tuple(_enclose(profile, eps, lam) for profile in profiles)
    index = max(range(len(deltas)), key=lambda i: deltas[i].upper)
    worst = CertifiedReal(max(d.lower for d in deltas), max(d.upper for d in deltas))
    return WorstCaseDelta(worst, deltas, index)


def laplace_private(
    *,
    epsilon: RationalLike,
    delta: RationalLike,
    scale: RationalLike,
    sensitivity_vectors: Sequence[Sequence[RationalLike]],
) -> bool:
    """Certified answer whether ``Lap(scale)^d`` noise is (ε, δ)-DP for every vector in ``sensitivity_vectors``
    (``δ(ε) <= delta`` for each), decided from Arb balls lying entirely on one side of ``delta``. For rational
    inputs δ(ε) is never equal to ``delta`` (``e^x`` is irrational for rational x != 0), so raising the precision
    always decides.

    Args:
        epsilon: ε >= 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        delta: δ in (0, 1), exact (int, Fraction or str such as ``"1/3"``; not float).
        scale: the Laplace scale b > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        sensitivity_vectors: the neighbouring differences v = f(D') − f(D): a non-empty sequence of non-empty sequences
            of exact rationals.
    """
    eps = nonnegative_fraction(epsilon, "epsilon")
    target = open_unit_fraction(delta, "delta")
    lam = positive_fraction(scale, "scale")
    return all_satisfied(profiles_of_vectors(sensitivity_vectors), epsilon=eps, scale=lam, target=target)


def _epsilon_search(profiles: Sequence[ExactProfile], target: Fraction, scale: Fraction, tol: Fraction) -> CertifiedReal:
    if all_satisfied(profiles, epsilon=Fraction(0), scale=scale, target=target):
        return CertifiedReal(Fraction(0), Fraction(0))
    # ε = 0 is certified insufficient; ε = max ‖v‖_1 / b gives δ = 0 exactly (certified sufficient)
    def sufficient(epsilon: Fraction) -> bool:
        return all_satisfied(profiles, epsilon=epsilon, scale=scale, target=target)

    high = max(profile.total for profile in profiles) / scale
    return CertifiedReal(*bisect(sufficient, Fraction(0), high, tolerance=tol))


def laplace_epsilon(
    *,
    delta: RationalLike,
    scale: RationalLike,
    sensitivities: Sequence[RationalLike],
    tolerance: RationalLike = FINE_TOLERANCE,
) -> CertifiedReal:
    """Certified ``[lower, upper]`` around the smallest ε >= 0 with ``δ(ε) <= delta`` for ``Lap(scale)^d``.

    ``upper`` is certified sufficient (Arb upper bound of δ(upper) <= delta): the number to quote as the ε
    of the noise; ``lower`` is certified insufficient (Arb lower bound of δ(lower) > delta), unless the answer
    is exactly 0 (returned as ``[0, 0]``). Exact bisection on ε in [0, ‖v‖_1/scale] until the width is at most
    ``tolerance * upper`` (``tolerance`` a rational in (0, 1)).

    Args:
        delta: the target δ in (0, 1), exact (int, Fraction or str such as ``"1/3"``; not float).
        scale: the Laplace scale b > 0 of every coordinate, exact (int, Fraction or str such as ``"1/3"``; not float).
        sensitivities: the difference vector v: a non-empty sequence of exact rationals, at least one nonzero.
        tolerance: the relative width at which the bisection stops, exact (int, Fraction or str such as ``"1/3"``; not
            float) in (0, 1) (default 10^-22).
    """
    target = open_unit_fraction(delta, "delta")
    lam = positive_fraction(scale, "scale")
    tol = tolerance_fraction(tolerance)
    return _epsilon_search([_profile(_groups(sensitivities))], target, lam, tol)


def laplace_epsilon_worst_case(
    *,
    delta: RationalLike,
    scale: RationalLike,
    sensitivity_vectors: Sequence[Sequence[RationalLike]],
    tolerance: RationalLike = FINE_TOLERANCE,
) -> CertifiedReal:
    """:func:`laplace_epsilon` for the worst of several sensitivity vectors (δ(ε) maximised over them).

    Args:
        delta: δ in (0, 1), exact (int, Fraction or str such as ``"1/3"``; not float).
        scale: the Laplace scale b > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        sensitivity_vectors: the neighbouring differences v = f(D') − f(D): a non-empty sequence of non-empty sequences
            of exact rationals.
        tolerance: the relative width at which the bisection stops, exact (int, Fraction or str such as ``"1/3"``; not
            float) in (0, 1) (default 10^-22).
    """
    target = open_unit_fraction(delta, "delta")
    lam = positive_fraction(scale, "scale")
    tol = tolerance_fraction(tolerance)
    return _epsilon_search([_profile(groups) for groups in _vectors(sensitivity_vectors)], target, lam, tol)


__all__ = [
    "DEFAULT_TOLERANCE",
    "FINE_TOLERANCE",
    "MAX_CONSTRUCTION_WORK",
    "MAX_DIMENSION",
    "MAX_PROFILE_COEFFICIENTS",
    "ExactProfile",
    "UndecidedComparisonError",
    "WorstCaseDelta",
    "all_satisfied",
    "laplace_delta",
    "laplace_delta_worst_case",
    "laplace_epsilon",
    "laplace_epsilon_worst_case",
    "laplace_private",
    "profile_of_vector",
    "profiles_of_vectors",
    "reported_delta",
]
