"""Certified probability mass functions, tails and variances of the discrete Laplace and discrete Gaussian.

Conventions, for integer ``x``:

* discrete Laplace with scale ``t`` > 0 (``scale``): ``P[x] = tanh(1/(2t)) exp(-|x|/t)``, i.e.
  ``(1 - e^{-1/t}) / (1 + e^{-1/t}) · e^{-|x|/t}``; variance ``2 e^{-1/t} / (1 - e^{-1/t})² = 1/(2 sinh²(1/(2t)))``;
  ``P[X >= m] = e^{-m/t} / (1 + e^{-1/t})`` for ``m >= 1``.
* discrete Gaussian ``N_Z(0, σ²)`` (``sigma_squared`` = σ², a scale, not the variance):
  ``P[x] = exp(-x²/(2σ²)) / Z(σ²)`` with ``Z(σ²) = Σ_{y in Z} exp(-y²/(2σ²))``.

Every value is a :class:`~reference.core.certified.CertifiedReal`: an interval with exact rational endpoints
that provably contains the true value, computed with python-flint's Arb ball arithmetic (rigorous error
bounds for every operation; the exact rational parameters enter as exact balls) at a working precision that
is doubled until the enclosure is 2**-80 wide relative to the value (about 24 digits).

Series and their truncation (the rigorous part): a sum ``Σ_{y >= a} y^w exp(-c y²)`` (``w`` = 0 or 2) is
summed term by term up to some ``N``; the rest is bounded by a geometric series. For ``z >= N >= 1`` the ratio
of consecutive terms ``((z+1)/z)^w exp(-c(2z+1))`` decreases in ``z``, so it is at most
``r = ((N+1)/N)^w exp(-c(2N+1))`` and the remainder lies in ``[0, term_N · r / (1 - r)]`` once ``r < 1``; that
interval is added to the ball. Summation stops when this bound is below ``2**-precision`` of the partial sum.

Two representations of ``Z`` are used, each exact as a series, chosen by speed: the direct sum
``1 + 2 Σ_{y>=1} exp(-y²/(2σ²))`` for ``σ² <= 1/(2π)``, and, for ``σ² > 1/(2π)``, its Poisson-summation (Jacobi
theta) dual ``Z = σ √(2π) (1 + 2 Σ_{j>=1} exp(-2π² σ² j²))``, whose terms fall off fast when σ is large.
Differentiating the dual in ``c = 1/(2σ²)`` gives the variance exactly as

    Var[X] = σ² - D(σ²),   D(σ²) = 8 π² σ⁴ Σ_{j>=1} j² exp(-2π²σ²j²) / (1 + 2 Σ_{j>=1} exp(-2π²σ²j²)) > 0,

so ``Var[X] < σ²`` for every σ² > 0 (CKS, "The Discrete Gaussian for Differential Privacy", state ``Var <= σ²``;
InfTDA's Corollary 1 quotes it). :func:`discrete_gaussian_variance` subtracts the enclosure of ``D`` from σ²
*exactly* (in rationals), so the reported upper end is below σ² whenever ``D`` is above 2**-(2**20) (the
range :class:`CertifiedReal` keeps exactly: σ² up to about 36 800); beyond that the upper end is σ² itself
(and :func:`discrete_gaussian_variance_deficit` encloses ``D`` as ``[0, 2**-(2**20)]``-wide).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from fractions import Fraction

from flint import arb, ctx

from reference.core.certified import (
    MAX_PRECISION,
    START_PRECISION,
    TARGET_ACCURACY_BITS,
    CertifiedReal,
    UndecidedComparisonError,
    certify,
    working_precision,
)
from reference.core.certified import ball as _ball
from reference.core.exact_text import message_value
from reference.core.validate import RationalLike, positive_fraction, to_fraction

#: Most terms one series may sum before giving up (a guard against a σ² far outside any practical range).
MAX_TERMS = 2_000_000


# ---------------------------------------------------------------------------------------------- helpers


def _check_integer(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    return int(value)


def _precision() -> int:
    return int(ctx.prec)


def _gaussian_series(c: arb, first: int, power: int, what: str) -> arb:
    """A ball containing ``Σ_{y >= first} y**power exp(-c y²)`` (``first >= 1``, ``power`` in {0, 2}, c > 0).

    Terms by the recurrence ``exp(-c(y+1)²) = exp(-c y²) · exp(-c(2y+1))`` (ball arithmetic, so rounding is
    tracked), then the remainder bound of the module docstring.
    """
    precision = _precision()
    threshold = arb(2) ** (-precision - 8)
    decay = (-c).exp()
    step = (-c * (2 * first + 1)).exp()  # exp(-c(2y+1)) for y = first
    gauss = (-c * first * first).exp()  # exp(-c y²) for y = first
    total = arb(0)
    y = first
    while True:
        term = gauss * y**power if power else gauss
        total += term
        ratio = step * (arb(y + 1) / y) ** power if power else step
        if ratio < 1:
            remainder = term * ratio / (1 - ratio)
            if remainder < threshold * total:
                upper = remainder.upper()
                return total + arb(upper / 2, upper / 2)  # [0, remainder] added
        if y - first >= MAX_TERMS:
            raise ValueError(f"{what}: more than {MAX_TERMS} series terms needed; sigma_squared is too large")
        gauss *= step
        step *= decay * decay
        y += 1


def _direct_is_faster(sigma_squared: Fraction) -> bool:
    """Whether the direct sum converges faster than the Poisson dual: ``c >= π²/c`` iff ``σ² <= 1/(2π)``.

    Decided in exact rationals with the enclosure 3.14159 < π < 3.1416 (either choice is exact; this only
    picks the faster one, so any rational cut between the two bounds would do).
    """
    return sigma_squared * 2 * Fraction(314159, 100000) <= 1


def _dual_sums(sigma_squared: Fraction) -> tuple[arb, arb]:
    """Balls for ``S0 = Σ_{j>=1} exp(-2π²σ²j²)`` and ``S2 = Σ_{j>=1} j² exp(-2π²σ²j²)``."""
    dual_c = 2 * arb.pi() ** 2 * _ball(sigma_squared)
    return (
        _gaussian_series(dual_c, 1, 0, "discrete Gaussian normaliser"),
        _gaussian_series(dual_c, 1, 2, "discrete Gaussian variance"),
    )


def _normaliser_ball(sigma_squared: Fraction) -> arb:
    """A ball containing ``Z(σ²) = Σ_y exp(-y²/(2σ²))`` at the current precision."""
    if _direct_is_faster(sigma_squared):
        c = 1 / (2 * _ball(sigma_squared))
        return 1 + 2 * _gaussian_series(c, 1, 0, "discrete Gaussian normaliser")
    dual_c = 2 * arb.pi() ** 2 * _ball(sigma_squared)
    return (2 * arb.pi() * _ball(sigma_squared)).sqrt() * (
        1 + 2 * _gaussian_series(dual_c, 1, 0, "discrete Gaussian normaliser")
    )


def discrete_gaussian_normaliser_ball(sigma_squared: Fraction) -> arb:
    """A ball containing ``Z(σ²)`` at the caller's working precision (for callers that manage the precision
    themselves, as the inversion sampler does); :func:`discrete_gaussian_normaliser` certifies it instead.

    Args:
        sigma_squared: σ² > 0, a ``Fraction``.
    """
    return _normaliser_ball(sigma_squared)


def _gaussian_upper_tail_ball(m: int, sigma_squared: Fraction) -> arb:
    """A ball containing ``P[X >= m]`` for ``X ~ N_Z(0, σ²)`` and ``m >= 1``.

    The direct sum ``Σ_{y >= m} exp(-c y²) / Z`` unless it needs more than ``max(m - 1, 1000)`` terms; then
    the complement ``(1 - P[0]) / 2 - Σ_{y=1}^{m-1} P[y]`` (m - 1 terms; it cancels when the tail is small,
    which the caller's precision doubling absorbs: that happens only for m above ~ σ·sqrt(2 · 1000 / prec)).
    """
    c = 1 / (2 * _ball(sigma_squared))
    normaliser = _normaliser_ball(sigma_squared)
    budget = _precision() * math.log(2) * 2 * float(sigma_squared)  # ≈ (precision ln 2) / c
    direct_terms = math.sqrt(m * m + budget) - m
    if direct_terms <= max(m - 1, 1000):
        return _gaussian_series(c, m, 0, "discrete Gaussian tail") / normaliser
    head = arb(0)
    gauss, step = arb(1), (-c).exp()  # exp(-c y²), exp(-c(2y+1)) at y = 0
    decay = (-2 * c).exp()
    for _ in range(1, m):
        gauss *= step
        step *= decay
        head += gauss
    return (1 - 1 / normaliser) / 2 - head / normaliser


def _probability(compute: Callable[[], arb], label: str) -> CertifiedReal:
    """Certify a probability and intersect the enclosure with [0, 1] (where it lies by definition)."""
    enclosure = certify(compute, label=label)
    return CertifiedReal(
        min(max(enclosure.lower, Fraction(0)), Fraction(1)), max(min(enclosure.upper, Fraction(1)), Fraction(0))
    )


# ---------------------------------------------------------------------------------------------- discrete Gaussian


def discrete_gaussian_normaliser(sigma_squared: RationalLike) -> CertifiedReal:
    """Certified ``Z(σ²) = Σ_{y in Z} exp(-y²/(2σ²))`` for a rational ``sigma_squared`` = σ² > 0 (Arb, with
    the rigorous series remainder bound of the module docstring).

    Args:
        sigma_squared: σ² > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
    """
    s2 = positive_fraction(sigma_squared, "sigma_squared")
    return certify(lambda: _normaliser_ball(s2), label="the discrete Gaussian normaliser")


def discrete_gaussian_pmf(x: int, sigma_squared: RationalLike) -> CertifiedReal:
    """Certified ``P[X = x] = exp(-x²/(2σ²)) / Z(σ²)`` for ``X ~ N_Z(0, σ²)``, integer ``x``, rational σ² > 0.

    Args:
        x: the point, an integer.
        sigma_squared: σ² > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
    """
    value = _check_integer(x, "x")
    s2 = positive_fraction(sigma_squared, "sigma_squared")

    def compute() -> arb:
        return (-_ball(Fraction(value * value) / (2 * s2))).exp() / _normaliser_ball(s2)

    return _probability(compute, "the discrete Gaussian pmf")


def discrete_gaussian_tail(m: int, sigma_squared: RationalLike) -> CertifiedReal:
    """Certified ``P[X >= m]`` for ``X ~ N_Z(0, σ²)`` and an integer ``m`` (``1 - P[X >= 1 - m]`` for m <= 0).

    Args:
        m: the threshold, an integer.
        sigma_squared: σ² > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
    """
    value = _check_integer(m, "m")
    s2 = positive_fraction(sigma_squared, "sigma_squared")
    if value >= 1:
        return _probability(lambda: _gaussian_upper_tail_ball(value, s2), "a discrete Gaussian tail")
    return _probability(lambda: 1 - _gaussian_upper_tail_ball(1 - value, s2), "a discrete Gaussian tail")


def discrete_gaussian_cdf(m: int, sigma_squared: RationalLike) -> CertifiedReal:
    """Certified ``P[X <= m]`` for ``X ~ N_Z(0, σ²)`` (``= P[X >= -m]`` by symmetry), integer ``m``.

    Args:
        m: the threshold, an integer.
        sigma_squared: σ² > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
    """
    value = _check_integer(m, "m")
    return discrete_gaussian_tail(-value, sigma_squared)


def _deficit_ball(sigma_squared: Fraction) -> arb:
    """A ball containing ``D(σ²) = σ² - Var[X]`` from the Poisson dual (module docstring)."""
    s0, s2 = _dual_sums(sigma_squared)
    square = _ball(sigma_squared) ** 2
    return 8 * arb.pi() ** 2 * square * s2 / (1 + 2 * s0)


def _direct_variance_ball(sigma_squared: Fraction) -> arb:
    """A ball containing ``Var[X] = 2 Σ_{y>=1} y² exp(-c y²) / Z`` (direct sums; mean 0 by symmetry)."""
    c = 1 / (2 * _ball(sigma_squared))
    second = _gaussian_series(c, 1, 2, "discrete Gaussian variance")
    return 2 * second / (1 + 2 * _gaussian_series(c, 1, 0, "discrete Gaussian normaliser"))


def _nonnegative(enclosure: CertifiedReal) -> CertifiedReal:
    return CertifiedReal(max(enclosure.lower, Fraction(0)), max(enclosure.upper, Fraction(0)))


def discrete_gaussian_variance_deficit(sigma_squared: RationalLike) -> CertifiedReal:
    """Certified ``D(σ²) = σ² - Var[X] > 0`` for ``X ~ N_Z(0, σ²)`` (Poisson-dual series; module docstring).

    About ``8π²σ⁴ exp(-2π²σ²)`` for large σ² (1.5e-82 at σ² = 10). Below 2**-(2**20) (σ² above about 36 800) the
    enclosure is ``[0, 2**-(2**20)]``-wide, as :class:`CertifiedReal` does not keep such values exactly.

    Args:
        sigma_squared: σ² > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
    """
    s2 = positive_fraction(sigma_squared, "sigma_squared")
    if _direct_is_faster(s2):
        variance = discrete_gaussian_variance(s2)
        return CertifiedReal(s2 - variance.upper, s2 - variance.lower)
    return _nonnegative(certify(lambda: _deficit_ball(s2), label="the discrete Gaussian variance deficit"))


def discrete_gaussian_variance(sigma_squared: RationalLike) -> CertifiedReal:
    """Certified variance of ``N_Z(0, σ²)`` for a rational ``sigma_squared`` = σ² > 0; strictly below σ².

    For ``σ² <= 1/(2π)`` the direct ratio ``Σ y² e^{-y²/(2σ²)} / Σ e^{-y²/(2σ²)}``; above, ``σ² - D(σ²)`` with
    the enclosure of ``D`` subtracted from σ² exactly, so that the upper end is ``< σ²`` (for σ² up to about
    36 800; see the module docstring). The precision is doubled until the enclosure is 2**-80 wide (relative)
    and its upper end is below σ².

    Args:
        sigma_squared: σ² > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
    """
    s2 = positive_fraction(sigma_squared, "sigma_squared")
    direct = _direct_is_faster(s2)
    precision = START_PRECISION + TARGET_ACCURACY_BITS
    limit = Fraction(1, 2**TARGET_ACCURACY_BITS)
    while precision <= MAX_PRECISION:
        with working_precision(precision):
            ball = _direct_variance_ball(s2) if direct else _deficit_ball(s2)
            positive = bool(ball > 0)
        if ball.is_finite() and positive:
            raw = _nonnegative(CertifiedReal.from_arb(ball))
            # positive, but below 2**-(2**20): CertifiedReal widened it to [0, tiny]
            tiny = raw.lower == 0
            if tiny and direct:  # Var itself is tiny (σ² below about 7e-7)
                return raw
            found = raw if direct else CertifiedReal(s2 - raw.upper, s2 - raw.lower)
            found = CertifiedReal(found.lower, min(found.upper, s2))  # Var <= σ² (D >= 0), a proved fact
            if found.relative_width() <= limit and (found.upper < s2 or tiny):
                return found
        precision *= 2
    raise UndecidedComparisonError(f"could not enclose the discrete Gaussian variance at sigma_squared={s2}")


# ---------------------------------------------------------------------------------------------- discrete Laplace


def exp_minus(gamma: RationalLike) -> CertifiedReal:
    """Certified ``exp(-γ)`` for a rational ``gamma`` >= 0: the probability that
    :func:`reference.samplers.exact.bernoulli_exp_minus` returns 1.

    Args:
        gamma: γ >= 0, exact (int, Fraction or str such as ``"1/3"``; not float).
    """
    value = to_fraction(gamma, "gamma")
    if value < 0:
        raise ValueError(f"gamma must be a rational >= 0, got {message_value(value)}")
    if value == 0:
        return CertifiedReal.exact(1)
    return _probability(lambda: (-_ball(value)).exp(), "exp(-gamma)")


def discrete_laplace_pmf(x: int, scale: RationalLike) -> CertifiedReal:
    """Certified ``P[X = x] = (1 - e^{-1/t})/(1 + e^{-1/t}) e^{-|x|/t}`` (= ``tanh(1/(2t)) e^{-|x|/t}``) for the
    discrete Laplace with rational ``scale`` = t > 0 and integer ``x``.

    Args:
        x: the point, an integer.
        scale: t > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
    """
    value = _check_integer(x, "x")
    t = positive_fraction(scale, "scale")

    def compute() -> arb:
        rate = 1 / _ball(t)
        return (rate / 2).tanh() * (-rate * abs(value)).exp()

    return _probability(compute, "the discrete Laplace pmf")


def discrete_laplace_tail(m: int, scale: RationalLike) -> CertifiedReal:
    """Certified ``P[X >= m]`` for the discrete Laplace with scale t: ``e^{-m/t}/(1 + e^{-1/t})`` for
    ``m >= 1``, and ``1 - P[X >= 1 - m]`` for ``m <= 0``.

    Args:
        m: the threshold, an integer.
        scale: t > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
    """
    value = _check_integer(m, "m")
    t = positive_fraction(scale, "scale")

    def upper(start: int) -> arb:
        rate = 1 / _ball(t)
        return (-rate * start).exp() / (1 + (-rate).exp())

    if value >= 1:
        return _probability(lambda: upper(value), "a discrete Laplace tail")
    return _probability(lambda: 1 - upper(1 - value), "a discrete Laplace tail")


def discrete_laplace_cdf(m: int, scale: RationalLike) -> CertifiedReal:
    """Certified ``P[X <= m]`` for the discrete Laplace (``= P[X >= -m]`` by symmetry), integer ``m``.

    Args:
        m: the threshold, an integer.
        scale: t > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
    """
    value = _check_integer(m, "m")
    return discrete_laplace_tail(-value, scale)


def discrete_laplace_variance(scale: RationalLike) -> CertifiedReal:
    """Certified variance ``2 e^{-1/t} / (1 - e^{-1/t})²`` (= ``1 / (2 sinh²(1/(2t)))``) of the discrete
    Laplace with rational ``scale`` = t > 0 (it is below the continuous Laplace's ``2t²``).

    Args:
        scale: t > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
    """
    t = positive_fraction(scale, "scale")

    def compute() -> arb:
        rate = 1 / _ball(t)
        return 2 * (-rate).exp() / (-rate).expm1() ** 2

    return certify(compute, label="the discrete Laplace variance")
