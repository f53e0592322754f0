"""The Gaussian mechanism's exact privacy profile δ(ε) in Arb balls: the enclosures every Gaussian calibration
decides on.

Model (Balle & Wang 2018, Theorem 8), with ``a = Δ/(2σ)``, ``b = εσ/Δ``, ``u = b - a``, ``v = b + a``:

    δ(ε) = Φ(-u) - e^ε Φ(-v).

Two evaluations, both rigorous balls:

* **direct**: both Φ's as ``erfc/2`` (the tails keep their relative accuracy). The two terms cancel when σ/Δ is
  large: about ``log2(b/a)`` bits are lost, so at σ/Δ = 1e5000 every evaluation needs some 17,000 bits (0.3 s
  each, and a search makes dozens).
* **series**, for a small gap ``h = v - u = Δ/σ``: since ``(v² - u²)/2 = 2ab = ε``, ``e^ε φ(v) = φ(u)`` and

      δ(ε) = φ(u) (R(u) - R(v)),   R(x) = Φ(-x)/φ(x) = ∫_0^∞ e^{-tx - t²/2} dt  (Mills' ratio),

  so ``R(u) - R(v) = ∫_0^∞ e^{-ut - t²/2} (1 - e^{-ht}) dt``. For ``y >= 0`` the partial sums of
  ``1 - e^{-y} = Σ_{k>=1} (-1)^{k+1} y^k/k!`` lie alternately above and below it, and the weight is positive,
  so consecutive partial sums of ``Σ (-1)^{k+1} h^k M_k(u)/k!`` enclose ``R(u) - R(v)``, with the moments
  ``M_k(u) = ∫_0^∞ t^k e^{-ut - t²/2} dt`` all positive: no cancellation. For ``u > 0``,
  ``M_k(u)/k! = 2^{-(k+1)/2} U((k+1)/2, 1/2, u²/2)`` (Kummer's U, which Arb evaluates without cancellation at
  any u); for ``u <= 1`` the recurrence ``M_0 = R(u)``, ``M_1 = 1 - u M_0``, ``M_{k+1} = k M_{k-1} - u M_k``
  (integration by parts) is used, whose terms do not cancel there.

In the direct form the second term is computed as ``φ(u) R(v)`` where ``e^ε`` is beyond Arb's exponent range
(the same value: ``e^ε Φ(-v) = e^ε φ(v) R(v) = φ(u) R(v)``).

The series is used when ``h·max(1, |u|) < 2^-SERIES_GAP_BITS`` (each term then at most about ``2^-SERIES_GAP_BITS``
times the one before); elsewhere the direct form loses few bits.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

from flint import arb, ctx

from reference.core.certified import ball as _ball
from reference.privacy.mills_ratio import mills_ratio_ball

#: The series form is used when ``h·max(1, |u|)`` is below ``2**-SERIES_GAP_BITS``: there the direct form would
#: lose at least this many bits, while each term of the series is that much smaller than the one before.
SERIES_GAP_BITS = 16

#: 2**-SERIES_GAP_BITS, an exact ball (a power of two is exact at every precision).
_SERIES_THRESHOLD = arb(2) ** -SERIES_GAP_BITS

_NAN = arb("nan")
_HALF, _MINUS_HALF = arb(0.5), arb(-0.5)
#: 2**SERIES_GAP_BITS: from this σ/Δ on the gap 1/s is below the series threshold.
_SERIES_RATIO = arb(2) ** SERIES_GAP_BITS

#: From this ε on the direct form's second term is computed as φ(u) R(v): e^ε exceeds 2**(2**20) there.
LARGE_EPSILON = arb(2) ** 20

#: Most series terms summed (a bound on the work; at 2**-16 per term, 64 terms resolve 1024 bits).
MAX_SERIES_TERMS = 64


def profile_ball(epsilon: arb, ratio: arb) -> arb:
    """A ball containing δ(ε) at ``ratio = σ/Δ`` (balls, ε >= 0), at the current ``ctx.prec``.

    Args:
        epsilon: ε >= 0 as an Arb ball (``flint.arb``), at the caller's working precision.
        ratio: σ/Δ > 0 as an Arb ball: the noise standard deviation over the ℓ₂ sensitivity Δ (not Δ²).
    """
    return _profile(epsilon, ratio, cells=True)


def _profile(epsilon: arb, ratio: arb, *, cells: bool) -> arb:
    """:func:`profile_ball`, with Mills' ratio cells asked first only when ``cells``."""
    gap = 1 / ratio  # h = Δ/σ = 2a
    half_gap = gap / 2
    shift = epsilon * ratio  # b
    lower = shift - half_gap  # u
    # h·max(1, |u|) < 2**-SERIES_GAP_BITS, tested as h < t and h·|u| < t (the first fails at once at moderate σ)
    if gap < _SERIES_THRESHOLD and gap * abs(lower) < _SERIES_THRESHOLD:
        series = _series_delta(lower, gap)
        if series is not None:
            return series
    upper = shift + half_gap  # v
    # the same as φ(u) (R(u) - R(v)) (e^ε φ(v) = φ(u)), with Mills' ratio from cached Taylor models: one
    # exponential instead of two erfc and e^ε, where the cells serve u and v (0 <= u < v < 64, up to 128 bits)
    if cells:
        head_ratio, tail_ratio = mills_ratio_ball(lower), mills_ratio_ball(upper)  # both asked: a request counts
        if head_ratio is not None and tail_ratio is not None:
            return (lower * lower / -2).exp() * _inverse_root_two_pi() * (head_ratio - tail_ratio)
    root_two = arb(2).sqrt()
    # Φ(x) = erfc(-x/√2)/2: both arguments below are erfc of the (usually positive) tail argument; the halving
    # is done once, on the difference
    head = (lower / root_two).erfc()
    tail = epsilon.exp() * (upper / root_two).erfc() if epsilon < LARGE_EPSILON else _NAN
    if tail.is_finite():
        return (head - tail) / 2
    # e^ε past 2**(2**20) (a product of a huge and a tiny ball, whose radius is huge) or beyond Arb's exponent
    # range: the same term as φ(u) R(v), with Mills' ratio R(v) = 2^(-1/2) U(1/2, 1/2, v²/2) (v > 0)
    density = (-(lower * lower) / 2).exp() / (2 * arb.pi()).sqrt()
    tail = density * (upper * upper / 2).hypgeom_u(arb(1) / 2, arb(1) / 2) / root_two
    return head / 2 - tail


def profile_with_density(epsilon: arb, ratio: arb) -> tuple[arb, arb]:
    """Balls containing δ(ε) and the normal density φ(u) at ``u = εs - 1/(2s)``, ``s = ratio`` (the factor of
    δ's slope dδ/dσ = -φ(u)/(Δ s²)), at the current ``ctx.prec``: :func:`profile_ball` sharing its one exponential
    where Mills' ratio cells serve.

    Args:
        epsilon: ε >= 0 as an Arb ball (``flint.arb``), at the caller's working precision.
        ratio: σ/Δ > 0 as an Arb ball: the noise standard deviation over the ℓ₂ sensitivity Δ (not Δ²).
    """
    half_gap = _HALF / ratio  # a
    shift = epsilon * ratio  # b
    lower, upper = shift - half_gap, shift + half_gap  # u, v
    density = (lower * lower * _MINUS_HALF).exp() * _inverse_root_two_pi()
    if ratio > _SERIES_RATIO:  # 1/s < 2**-SERIES_GAP_BITS: the series form may be wanted (see profile_ball)
        return _profile(epsilon, ratio, cells=False), density
    # 1/s >= 2**-SERIES_GAP_BITS (not certainly below): profile_ball's series test fails, so its direct form is
    # computed here from the u and v above, with Mills' ratio cells for whichever of R(u), R(v) they serve
    head_ratio, tail_ratio = mills_ratio_ball(lower), mills_ratio_ball(upper)  # both asked: a request counts
    if head_ratio is not None and tail_ratio is not None:
        return density * (head_ratio - tail_ratio), density
    # one term from a cell, the other from erfc: Φ(-x) = erfc(x/√2)/2, Φ(-u) = φ(u) R(u), e^ε Φ(-v) = φ(u) R(v)
    scale = _inverse_root_two()
    if tail_ratio is not None:
        return (lower * scale).erfc() * _HALF - density * tail_ratio, density
    if not epsilon < LARGE_EPSILON:
        return _profile(epsilon, ratio, cells=False), density
    tail = epsilon.exp() * (upper * scale).erfc()
    if not tail.is_finite():  # e^ε times a tiny ball: the general route (φ(u) R(v) by Kummer's U)
        return _profile(epsilon, ratio, cells=False), density
    if head_ratio is not None:
        return density * head_ratio - tail * _HALF, density
    return ((lower * scale).erfc() - tail) * _HALF, density


def _inverse_root_two_pi() -> arb:
    """1/√(2π) at the current precision (kept per precision: a factor of every fast δ)."""
    precision = ctx.prec
    value = _INVERSE_ROOT_TWO_PI.get(precision)
    if value is None:
        value = (2 * arb.pi()).rsqrt()
        if len(_INVERSE_ROOT_TWO_PI) < 64:
            _INVERSE_ROOT_TWO_PI[precision] = value
    return value


#: 1/√(2π) by working precision (a handful of precisions occur; at most 64 are kept).
_INVERSE_ROOT_TWO_PI: dict[int, arb] = {}


def _inverse_root_two() -> arb:
    """1/√2 at the current precision (kept per precision: the scale of every erfc argument of the direct form)."""
    precision = ctx.prec
    value = _INVERSE_ROOT_TWO.get(precision)
    if value is None:
        value = arb(2).rsqrt()
        if len(_INVERSE_ROOT_TWO) < 64:
            _INVERSE_ROOT_TWO[precision] = value
    return value


#: 1/√2 by working precision (at most 64 kept).
_INVERSE_ROOT_TWO: dict[int, arb] = {}


def _series_delta(lower: arb, gap: arb) -> arb | None:
    """``φ(u) (R(u) - R(u + h))`` enclosed by two consecutive partial sums of the moment series (see the module
    docstring); None when MAX_SERIES_TERMS terms do not bring the last term below the working precision."""
    moments = _moment_terms(lower)
    first = gap * next(moments)
    if not first.is_finite() or not first > 0:
        return None
    negligible = first * arb(2) ** -(ctx.prec + 8)  # below the working precision's last bit of the first term
    partial = first
    power = gap
    for index in range(2, MAX_SERIES_TERMS + 1):
        power = power * gap
        term = power * next(moments)
        following = partial + (term if index % 2 else -term)
        if term < negligible:
            density = (-(lower * lower) / 2).exp() / (2 * arb.pi()).sqrt()
            return density * partial.union(following)
        partial = following
    return None


def _moment_terms(lower: arb) -> Iterator[arb]:
    """Yield ``M_k(u)/k!`` for k = 1, 2, ... (balls)."""
    if lower > 1:
        argument = lower * lower / 2
        half = arb(1) / 2
        index = 1
        while True:
            yield argument.hypgeom_u(arb(index + 1) / 2, half) * arb(2) ** (-arb(index + 1) / 2)
            index += 1
    # u <= 1 (or undecided near 1): the recurrence, whose terms do not cancel there
    mills = (lower / arb(2).sqrt()).erfc() / 2 * (2 * arb.pi()).sqrt() * (lower * lower / 2).exp()
    previous, current = mills, 1 - lower * mills  # M_0, M_1
    factorial = arb(1)
    index = 1
    while True:
        yield current / factorial
        previous, current = current, index * previous - lower * current
        index += 1
        factorial = factorial * index


def delta_ball(*, epsilon: Fraction, sigma: Fraction, sensitivity_squared: Fraction) -> arb:
    """A ball containing δ(ε) at the current ``ctx.prec``, from exact rationals (ε may be 0).

    Args:
        epsilon: ε >= 0, an exact ``Fraction`` (0 allowed: δ(0) is the total variation distance).
        sigma: the noise standard deviation σ > 0 (not σ²), an exact ``Fraction``.
        sensitivity_squared: the squared ℓ₂ sensitivity Δ² > 0 (not Δ), an exact ``Fraction``.
    """
    return profile_ball(_ball(epsilon), _ball(sigma) / _ball(sensitivity_squared).sqrt())
