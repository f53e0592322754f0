"""Exact samplers for Bernoulli, discrete Laplace and discrete Gaussian distributions (rational parameters).

Following Canonne, Kamath, Steinke, "The Discrete Gaussian for Differential Privacy" (NeurIPS 2020; CKS),
Algorithms 1–3, in pure integer arithmetic — except :func:`discrete_gaussian`, which inverts a certified CDF
table (:mod:`reference.samplers.inversion`) and, beyond the table, draws a block from a small certified table
and corrects it by an exact rejection (:mod:`reference.samplers.blocked`); CKS Algorithm 3 is its twin
:func:`discrete_gaussian_rejection` and its fallback outside both ranges. Every parameter is an exact rational (``int``, ``Fraction`` or a
string such as ``"1/3"``; floats are refused) and every random decision is a comparison of integers drawn by
a :class:`~reference.core.randomness.RandomBits` source (or, for the table, a comparison of integers with
certified integer bounds). No float is evaluated.

**Exactness.** Given independent uniform random bits, the output distribution of each sampler *equals* the
stated probability mass function — not an approximation of it — and each sampler terminates with
probability 1 (the expected number of loop iterations is bounded by a constant for the Bernoulli and discrete
Laplace samplers, by about 2.25 for the rejection discrete Gaussian; the inversion sampler decides all but a
fraction below 2**-48 (at σ = 1000) of its draws from one 64-bit word). The verification module
``reference_verification.samplers.exact_checks`` checks this by enumerating every bit string up to a length (the output
probabilities are then known to within the mass of the unfinished strings), and ``reference_verification.samplers.checks``
by seeded goodness-of-fit tests.

Conventions:

* ``bernoulli(p)`` is 1 with probability ``p``.
* ``bernoulli_exp_minus(gamma)`` is 1 with probability ``exp(-gamma)``, natural exponential, ``gamma >= 0``.
* ``discrete_laplace(scale)`` — ``P[x] ∝ exp(-|x| / scale)`` on the integers (``scale`` = t > 0).
* ``discrete_gaussian(sigma_squared)`` — ``N_Z(0, σ²)``: ``P[x] ∝ exp(-x² / (2σ²))`` on the integers;
  ``sigma_squared`` = σ² > 0 is a scale, not the variance (the variance is slightly below σ²:
  :func:`reference.samplers.pmf.discrete_gaussian_variance`).

**Draw order.** Each sampler consumes bits from ``source`` in the order its algorithm (below) makes its
random decisions; a vector (``size=n``) is ``n`` independent scalar draws made one after the other, element 0
first — except :func:`discrete_gaussian`, whose vector takes one request of ``64 n`` bits and then the rare
extra bits (:mod:`reference.samplers.inversion`). So a
:class:`~reference.core.randomness.SeededRandomBits` seed gives the same output everywhere.
``source=None`` uses fresh OS entropy (:class:`~reference.core.randomness.SystemRandomBits`).

Throughput (measured on one core with :class:`~reference.core.randomness.SeededRandomBits`): the discrete
Gaussian by inversion draws millions of samples per second once its table is built (a table of about 9.1σ
entries, built in Arb at roughly 5 µs an entry, cached per σ²); the rejection twin and the discrete Laplace,
pure Python, about 40 000–65 000 and 90 000–130 000 per second, roughly half that with OS entropy.
"""

from __future__ import annotations

from collections.abc import Callable
from math import isqrt
from typing import overload

from reference.core.exact_text import message_value
from reference.core.keyword_calls import formerly_positional
from reference.core.randomness import RandomBits, check_source
from reference.core.validate import RationalLike, check_positive_int, positive_fraction, to_fraction
from reference.samplers.blocked import blocked_draws
from reference.samplers.inversion import inversion_draws, inversion_table

#: Smallest σ² served by the blocked sampler when there is no inversion table (σ >= 128: blocks of width >= 2).
BLOCKED_MIN_SIGMA_SQUARED = 128 * 128
#: Largest σ² (exclusive) served by the blocked sampler: its block offsets and digits live in 64-bit words
#: (σ below 2^50, blocks below 2^44); beyond, :func:`discrete_gaussian_rejection`.
BLOCKED_MAX_SIGMA_SQUARED = 1 << 100

__all__ = [
    "bernoulli",
    "bernoulli_exp_minus",
    "discrete_gaussian",
    "discrete_gaussian_rejection",
    "discrete_laplace",
]


# ---------------------------------------------------------------------------------------------- integer cores


def _bernoulli_ratio(numerator: int, denominator: int, source: RandomBits) -> bool:
    """Bernoulli(p) for ``p = numerator / denominator`` in [0, 1], by lazily comparing a uniform ``U`` in
    [0, 1) with ``p``, one binary digit at a time.

    Digit ``i`` of ``p`` is computed exactly by doubling the remainder (``r <- 2r``; digit ``r >= d``; then
    ``r <- r - d``); digit ``i`` of ``U`` is ``source.randbits(1)``. The first position where they differ
    decides ``U < p`` (output 1) or ``U > p`` (output 0); ``P[U < p] = p`` exactly and the expected number of
    bits drawn is 2, whatever the denominator. ``p = 0`` and ``p = 1`` draw no bits.
    """
    if numerator <= 0:
        return False
    if numerator >= denominator:
        return True
    remainder = numerator
    while True:
        remainder *= 2
        digit = remainder >= denominator
        if digit:
            remainder -= denominator
        bit = source.randbits(1)
        if bit != digit:
            return bit < digit


def _bernoulli_exp_minus_unit(numerator: int, denominator: int, source: RandomBits) -> bool:
    """CKS Algorithm 1 for γ = numerator/denominator in [0, 1]: Bernoulli(exp(-γ)).

    ``K = 1``; while Bernoulli(γ/K) is 1, ``K += 1``; return whether the final ``K`` is odd. As
    ``P[K > j] = γ^j / j!``, ``P[K odd] = Σ_j (-γ)^j / j! = exp(-γ)``.
    """
    count = 1
    while _bernoulli_ratio(numerator, denominator * count, source):
        count += 1
    return count % 2 == 1


def _bernoulli_exp_minus(numerator: int, denominator: int, source: RandomBits) -> bool:
    """Bernoulli(exp(-γ)) for γ = numerator/denominator >= 0: ``floor(γ)`` independent Bernoulli(exp(-1))
    draws (stopping at the first 0) and then one Bernoulli(exp(-(γ - floor γ))) (CKS Algorithm 1, γ > 1)."""
    whole, remainder = divmod(numerator, denominator)
    for _ in range(whole):
        if not _bernoulli_exp_minus_unit(1, 1, source):
            return False
    return _bernoulli_exp_minus_unit(remainder, denominator, source)


def _discrete_laplace(numerator: int, denominator: int, source: RandomBits) -> int:
    """CKS Algorithm 2 for scale = numerator/denominator (CKS's ``t/s``): ``P[x] ∝ exp(-|x| s / t)``.

    Loop: ``U`` uniform on ``{0, ..., t-1}``; reject unless Bernoulli(exp(-U/t)); ``V`` = number of 1s before
    the first 0 in Bernoulli(exp(-1)) draws; ``X = U + t V`` (geometric: ``P[X = x] ∝ exp(-x/t)``);
    ``Y = floor(X / s)`` (geometric: ``P[Y = y] ∝ exp(-y s/t)``); a fair sign bit ``B``; reject
    ``B = 1, Y = 0`` (so 0 is not counted twice); return ``(1 - 2B) Y``.
    """
    t, s = numerator, denominator
    while True:
        uniform = source.randbelow(t)
        if not _bernoulli_exp_minus_unit(uniform, t, source):
            continue
        count = 0
        while _bernoulli_exp_minus_unit(1, 1, source):
            count += 1
        magnitude = (uniform + t * count) // s
        negative = source.randbits(1) == 1
        if negative and magnitude == 0:
            continue
        return -magnitude if negative else magnitude


def _discrete_gaussian(numerator: int, denominator: int, source: RandomBits) -> int:
    """CKS Algorithm 3 for σ² = numerator/denominator: ``t = floor(σ) + 1``; loop: ``Y`` discrete Laplace with
    scale ``t``; return ``Y`` with probability ``exp(-(|Y| - σ²/t)² / (2σ²))``.

    The acceptance exponent is the exact rational ``(q t |Y| - p)² / (2 p q t²)`` for σ² = p/q, and
    ``floor(σ) = isqrt(floor(σ²))`` is exact. Since
    ``exp(-|y|/t) exp(-(|y| - σ²/t)²/(2σ²)) = exp(-y²/(2σ²)) exp(-σ²/(2t²))``, accepted values are
    ``N_Z(0, σ²)``-distributed.
    """
    p, q = numerator, denominator
    t = isqrt(p // q) + 1
    while True:
        candidate = _discrete_laplace(t, 1, source)
        offset = q * t * abs(candidate) - p
        if _bernoulli_exp_minus(offset * offset, 2 * p * q * t * t, source):
            return candidate


# ---------------------------------------------------------------------------------------------- public API


#: Most exact draws in one call: the exact samplers run at about 50,000 draws a second, so this is a few seconds;
#: draw more in several calls, or use the numeric samplers (reference.samplers.numeric) for bulk numeric work.
MAX_EXACT_SIZE = 200_000


def _checked_size(size: object) -> int:
    count = check_positive_int(size, "size", minimum=0)
    if count > MAX_EXACT_SIZE:
        raise ValueError(
            f"size must be at most {MAX_EXACT_SIZE} for the exact samplers (about 50,000 draws a second), got "
            f"{message_value(count)}: draw in several calls, or use reference.samplers.numeric"
        )
    return count


def _repeat(draw: Callable[[], int], size: object) -> list[int]:
    return [draw() for _ in range(_checked_size(size))]


@overload
def bernoulli(p: RationalLike, *, size: None = None, source: RandomBits | None = None) -> int: ...
@overload
def bernoulli(p: RationalLike, *, size: int, source: RandomBits | None = None) -> list[int]: ...


@formerly_positional("source", "size")
def bernoulli(
    p: RationalLike, *, size: int | None = None, source: RandomBits | None = None
) -> int | list[int]:
    """Exact Bernoulli(``p``) for a rational ``p`` in [0, 1]: 1 iff a uniform ``U`` in [0, 1), drawn bit by bit,
    is below ``p`` (compared one binary digit at a time; 2 random bits expected).

    Returns 0 or 1 (``size=None``) or a list of ``size`` independent draws.

    Args:
        p: the probability, in [0, 1], exact (int, Fraction or str such as ``"1/3"``; not float).
        source: a :class:`~reference.core.randomness.RandomBits` source or ``None`` (OS entropy); a ``random.Random`` is
            refused.
        size: ``None`` for one ``int``, or a positive integer for a list of that many independent draws.
    """
    value = to_fraction(p, "p")
    if not 0 <= value <= 1:
        raise ValueError(f"p must be a rational in [0, 1], got {message_value(value)}")
    bits = check_source(source)
    numerator, denominator = value.numerator, value.denominator

    def draw() -> int:
        return int(_bernoulli_ratio(numerator, denominator, bits))

    return draw() if size is None else _repeat(draw, size)


@overload
def bernoulli_exp_minus(gamma: RationalLike, *, size: None = None, source: RandomBits | None = None) -> int: ...
@overload
def bernoulli_exp_minus(gamma: RationalLike, *, size: int, source: RandomBits | None = None) -> list[int]: ...


@formerly_positional("source", "size")
def bernoulli_exp_minus(
    gamma: RationalLike, *, size: int | None = None, source: RandomBits | None = None
) -> int | list[int]:
    """Exact Bernoulli(exp(-``gamma``)) for a rational ``gamma >= 0`` (CKS Algorithm 1), no floats.

    For γ in [0, 1]: draw Bernoulli(γ/1), Bernoulli(γ/2), ... until the first 0; output 1 iff the number of
    draws made is odd. For γ > 1: ``floor(γ)`` Bernoulli(exp(-1)) draws (output 0 at the first 0), then one
    Bernoulli(exp(-(γ - floor γ))). Expected work O(1 + γ) Bernoulli draws.

    Args:
        gamma: γ >= 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        source: a :class:`~reference.core.randomness.RandomBits` source or ``None`` (OS entropy); a ``random.Random`` is
            refused.
        size: ``None`` for one ``int``, or a positive integer for a list of that many independent draws.
    """
    value = to_fraction(gamma, "gamma")
    if value < 0:
        raise ValueError(f"gamma must be a rational >= 0, got {message_value(value)}")
    bits = check_source(source)
    numerator, denominator = value.numerator, value.denominator

    def draw() -> int:
        return int(_bernoulli_exp_minus(numerator, denominator, bits))

    return draw() if size is None else _repeat(draw, size)


@overload
def discrete_laplace(scale: RationalLike, *, size: None = None, source: RandomBits | None = None) -> int: ...
@overload
def discrete_laplace(scale: RationalLike, *, size: int, source: RandomBits | None = None) -> list[int]: ...


@formerly_positional("source", "size")
def discrete_laplace(
    scale: RationalLike, *, size: int | None = None, source: RandomBits | None = None
) -> int | list[int]:
    """Exact discrete Laplace with rational ``scale`` = t > 0: ``P[x] = tanh(1/(2t)) exp(-|x|/t)``, x in Z
    (CKS Algorithm 2 with CKS's ``t/s`` = ``scale``).

    Expected loop iterations are O(1) for ``scale >= 1``; for a small scale most draws are 0 and about half
    of the iterations are rejected (a sign bit on 0), still O(1) in expectation.

    Args:
        scale: the scale t > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        source: a :class:`~reference.core.randomness.RandomBits` source or ``None`` (OS entropy); a ``random.Random`` is
            refused.
        size: ``None`` for one ``int``, or a positive integer for a list of that many independent draws.
    """
    value = positive_fraction(scale, "scale")
    bits = check_source(source)
    numerator, denominator = value.numerator, value.denominator

    def draw() -> int:
        return _discrete_laplace(numerator, denominator, bits)

    return draw() if size is None else _repeat(draw, size)


@overload
def discrete_gaussian(sigma_squared: RationalLike, *, size: None = None, source: RandomBits | None = None) -> int: ...
@overload
def discrete_gaussian(sigma_squared: RationalLike, *, size: int, source: RandomBits | None = None) -> list[int]: ...


@formerly_positional("source", "size")
def discrete_gaussian(
    sigma_squared: RationalLike, *, size: int | None = None, source: RandomBits | None = None
) -> int | list[int]:
    """Exact discrete Gaussian ``N_Z(0, σ²)`` for a rational ``sigma_squared`` = σ² > 0:
    ``P[x] = exp(-x²/(2σ²)) / Σ_y exp(-y²/(2σ²))``, x in Z.

    For σ² from 2**-20 to about 4.7e7 (σ up to about 6 850; :mod:`reference.samplers.inversion`, where
    exactness is proved): inversion of a certified CDF table, one 64-bit word per value, vectorised; the table
    is built once per σ² (cached). Beyond: a block index from a small certified table and an exact rejection
    (:mod:`reference.samplers.blocked`, exactness proved there), for σ² below 2**100. Below 2**-20 and from
    2**100 on: :func:`discrete_gaussian_rejection`. All are exact; their bit streams differ.

    Args:
        sigma_squared: the scale σ² > 0 (not the variance), exact (int, Fraction or str such as ``"1/3"``; not float).
        source: a :class:`~reference.core.randomness.RandomBits` source (:class:`SeededRandomBits` for reproducible
            draws) or ``None`` (OS entropy); a ``random.Random`` is refused.
        size: ``None`` for one ``int``, or a positive integer for a list of that many independent draws.
    """
    value = positive_fraction(sigma_squared, "sigma_squared")
    bits = check_source(source)
    count = 1 if size is None else _checked_size(size)
    table = inversion_table(value)
    if table is not None:
        draws = inversion_draws(table, count, bits)
    elif BLOCKED_MIN_SIGMA_SQUARED <= value < BLOCKED_MAX_SIGMA_SQUARED:
        draws = blocked_draws(value, count, bits)
    else:
        numerator, denominator = value.numerator, value.denominator
        draws = [_discrete_gaussian(numerator, denominator, bits) for _ in range(count)]
    return draws[0] if size is None else draws


@overload
def discrete_gaussian_rejection(sigma_squared: RationalLike, *, size: None = None, source: RandomBits | None = None) -> int: ...
@overload
def discrete_gaussian_rejection(sigma_squared: RationalLike, *, size: int, source: RandomBits | None = None) -> list[int]: ...


@formerly_positional("source", "size")
def discrete_gaussian_rejection(
    sigma_squared: RationalLike, *, size: int | None = None, source: RandomBits | None = None
) -> int | list[int]:
    """Exact discrete Gaussian ``N_Z(0, σ²)`` by CKS Algorithm 3 (the twin of :func:`discrete_gaussian`, and
    what it uses for σ beyond its table): ``P[x] = exp(-x²/(2σ²)) / Σ_y exp(-y²/(2σ²))``, x in Z.

    Rejection from the discrete Laplace with scale ``t = floor(σ) + 1``; one iteration accepts with probability
    ``tanh(1/(2t)) exp(-σ²/(2t²)) Z(σ²)``, between about 0.445 (near σ² = 0.09) and ``sqrt(π/2) e^{-1/2}`` ≈ 0.760
    (as σ grows) — evaluated on a grid of σ² in (0, 30] and at perfect squares — so the expected work is O(1).
    A vector is ``size`` scalar draws made one after the other.

    Args:
        sigma_squared: the scale σ² > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        source: a :class:`~reference.core.randomness.RandomBits` source or ``None`` (OS entropy); a ``random.Random`` is
            refused.
        size: ``None`` for one ``int``, or a positive integer for a list of that many independent draws.
    """
    value = positive_fraction(sigma_squared, "sigma_squared")
    bits = check_source(source)
    numerator, denominator = value.numerator, value.denominator

    def draw() -> int:
        return _discrete_gaussian(numerator, denominator, bits)

    return draw() if size is None else _repeat(draw, size)
