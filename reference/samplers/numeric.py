"""Fast vectorised samplers (numpy) for the Laplace, discrete Laplace and discrete Gaussian distributions.

The numeric twins of :mod:`reference.samplers.exact`; same conventions:

* :func:`laplace` — continuous Laplace(b), density ``exp(-|x|/b)/(2b)``, variance ``2b²``;
* :func:`discrete_laplace` — ``P[x] ∝ exp(-|x|/t)`` on the integers (``scale`` = t);
* :func:`discrete_gaussian` — ``N_Z(0, σ²)``, ``P[x] ∝ exp(-x²/(2σ²))`` (``sigma_squared`` = σ², a scale, not
  the variance).

Parameters are real numbers (ints, floats, Fractions or strings) **rounded to binary64**, and the samplers use
floating-point probabilities, so their distributions are within float rounding of the exact ones, not
equal to them (details per function). For exact sampling use :mod:`reference.samplers.exact`.

Randomness: ``rng`` is a ``numpy.random.Generator``, an integer seed or ``None``
(:func:`reference.core.rng.as_generator`). **Draw order** is documented per function, so that a seed gives
the same output on every platform whose numpy keeps PCG64's stream and these Generator methods' algorithms.
All three samplers are built from two vectorised primitives, chosen because they are the cheapest numpy
offers (a ziggurat exponential costs about 0.4 of a normal, ``Generator.laplace``'s inversion about 1.5):
``gen.standard_exponential(n)`` and *random signs*, ``ceil(n / 64)`` raw 64-bit words
``gen.bit_generator.random_raw(...)`` whose bit ``i mod 64`` (counted from the least significant) of word
``i // 64`` negates value ``i``.
``size`` is an integer >= 0 and the result a 1-D array (``int64`` for the discrete samplers).
"""

from __future__ import annotations

import math

import numpy as np

from reference.core.keyword_calls import formerly_positional
from reference.core.rng import RngLike, as_generator
from reference.core.validate import RealLike, check_positive_int, positive_real

__all__ = ["acceptance_probability", "discrete_gaussian", "discrete_laplace", "laplace"]

#: A lower bound on the acceptance probability of one round of CKS Algorithm 3,
#: ``tanh(1/(2t)) exp(-σ²/(2t²)) Z(σ²)`` with ``t = floor(σ) + 1``: its minimum over σ² is about 0.445 (near
#: σ² = 0.09; it tends to sqrt(π/2) e^{-1/2} ≈ 0.760 as σ grows). Only sets how many candidates a round draws.
ACCEPTANCE_FLOOR = 0.44

#: The acceptance probability that sets a round's candidate count is rounded down to a multiple of
#: 1/ACCEPTANCE_STEPS, so that the count is an integer computation (the same on every platform's libm unless
#: the float estimate lies within rounding of a multiple).
ACCEPTANCE_STEPS = 64

#: Largest discrete Laplace scale (and largest σ, i.e. σ² <= MAX_SCALE**2) the float samplers accept: a
#: magnitude is computed as a float and cast to int64, so draws must stay far below 2**53.
MAX_SCALE = 1e12


@formerly_positional("size", "rng")
def laplace(scale: RealLike, *, size: int, rng: RngLike = None) -> np.ndarray:
    """``size`` independent Laplace(``scale``) draws, ``scale`` = b > 0 rounded to float.

    A Laplace(b) variable is b·E with a random sign, E standard exponential. Draw order:
    ``E = gen.standard_exponential(size)``, then the random signs (module docstring); value i is ``±b·E_i``.

    Args:
        scale: the Laplace scale b > 0, a real number (int, float, Fraction or str) (rounded to float).
        size: the number of draws, an integer >= 0.
        rng: a ``numpy.random.Generator``, an integer seed or ``None`` (fresh OS entropy).
    """
    b = positive_real(scale, "scale")
    count = check_positive_int(size, "size", minimum=0)
    out = np.empty(count, dtype=np.float64)
    laplace_fill(out, b, as_generator(rng))
    return out


def _random_signs(values: np.ndarray, gen: np.random.Generator) -> None:
    """Negate ``values[i]`` (contiguous float64, in place) where bit ``i`` of the raw words is 1: flipping the
    IEEE sign bit is exact, and -0.0 stays a zero."""
    words = gen.bit_generator.random_raw(-(-values.size // 64))
    bits = np.unpackbits(words.astype("<u8", copy=False).view(np.uint8), count=values.size, bitorder="little")
    mask = bits.astype(np.uint64)
    mask <<= np.uint64(63)
    pattern = values.view(np.uint64)
    pattern ^= mask


def laplace_fill(out: np.ndarray, scale: float, gen: np.random.Generator) -> None:
    """Fill contiguous float64 ``out`` with :func:`laplace` draws (validated ``scale``; the batched samplers
    call it on rows of one array).

    Args:
        out: a contiguous float64 array to fill.
        scale: the validated Laplace scale b > 0.
        gen: the ``numpy.random.Generator`` to draw with.
    """
    gen.standard_exponential(out=out)
    out *= scale
    _random_signs(out, gen)


def _magnitude_shift(scale: float) -> float:
    """The shift c of :func:`discrete_laplace`: ``1 - t log(2/(1 + q))``, q = exp(-1/t), in (1/2, 1).

    Capped just below 1 so that ``ceil(t·0 - c)`` is still 0 when c rounds to 1 (t below ~1e-17).
    """
    success = -math.expm1(-1.0 / scale)  # 1 - q, accurate for large t
    shift = 1.0 - scale * math.log1p(success / (2.0 - success))
    return min(shift, math.nextafter(1.0, 0.0))


def _discrete_laplace_magnitudes(out: np.ndarray, scale: float, gen: np.random.Generator) -> None:
    """Fill contiguous float64 ``out`` with ``ceil(t·E - c)`` (E = ``gen.standard_exponential``), the
    magnitudes of :func:`discrete_laplace` (integer-valued floats)."""
    gen.standard_exponential(out=out)
    out *= scale
    out -= _magnitude_shift(scale)
    np.ceil(out, out=out)


def discrete_laplace_fill(out: np.ndarray, scale: float, gen: np.random.Generator) -> None:
    """Fill contiguous float64 ``out`` with :func:`discrete_laplace` draws (integer-valued floats).

    Args:
        out: a contiguous float64 array to fill.
        scale: the validated scale t > 0.
        gen: the ``numpy.random.Generator`` to draw with.
    """
    _discrete_laplace_magnitudes(out, scale, gen)
    _random_signs(out, gen)


@formerly_positional("size", "rng")
def discrete_laplace(scale: RealLike, *, size: int, rng: RngLike = None) -> np.ndarray:
    """``size`` independent discrete Laplace draws with ``P[x] ∝ exp(-|x|/t)``, ``t`` = ``scale`` > 0.

    With q = exp(-1/t) the target has ``P[|X| >= m] = 2 q^m / (1 + q)`` for m >= 1. The magnitude
    ``M = ceil(t·E - c)``, E standard exponential and ``c = 1 - t log(2/(1 + q))`` in (1/2, 1), has
    ``P[M >= m] = P[t·E > m - 1 + c] = q^(m - 1 + c) = 2 q^m / (1 + q)`` (and M >= 0 since c < 1); a random sign
    then splits the mass of each m >= 1 evenly between ±m, which is the target. Approximations: ``t`` is rounded
    to float and ``t·E - c`` is evaluated in binary64 (relative error ~1e-16 in each boundary). Draw order:
    ``E = gen.standard_exponential(size)``, then the random signs (module docstring).

    Args:
        scale: the scale t > 0, a real number (int, float, Fraction or str) (rounded to float).
        size: the number of draws, an integer >= 0.
        rng: a ``numpy.random.Generator``, an integer seed or ``None`` (fresh OS entropy).
    """
    t = positive_real(scale, "scale")
    if t > MAX_SCALE:
        raise ValueError(f"scale must be at most {MAX_SCALE:g} for the float sampler, got {t!r}")
    count = check_positive_int(size, "size", minimum=0)
    out = np.empty(count, dtype=np.float64)
    discrete_laplace_fill(out, t, as_generator(rng))
    return out.astype(np.int64)


@formerly_positional("size", "rng")
def discrete_gaussian(sigma_squared: RealLike, *, size: int, rng: RngLike = None) -> np.ndarray:
    """``size`` independent ``N_Z(0, σ²)`` draws, ``σ²`` = ``sigma_squared`` > 0 (CKS Algorithm 3, vectorised).

    Rejection from the discrete Laplace with scale ``t = floor(σ) + 1`` (``floor(σ) = isqrt(floor(σ²))``,
    exact for the float σ²): a candidate ``Y`` is accepted when a uniform ``U`` in [0, 1) is below
    ``exp((|Y| - σ²/t)² · (-1/(2σ²)))`` (a uniform and a vectorised exp cost about half a ziggurat exponential).
    Approximation: that acceptance probability is evaluated in binary64 (relative error a few units in 1e-16, and
    probabilities below ~1e-308 round to 0), where the exact sampler draws Bernoulli(exp(-γ)) exactly; σ² is
    rounded to float.

    Draw order: rounds until ``size`` values are accepted. A round with ``r`` values still needed draws
    ``n = ceil(64 (r + 3 isqrt(r)) / A) + 8`` candidates, ``A = max(floor(64 a), 29)`` with ``a`` the round's
    acceptance probability :func:`acceptance_probability` evaluated in binary64 (29/64 >= ACCEPTANCE_FLOOR):
    the magnitudes ``ceil(t·E - c)`` of :func:`discrete_laplace` (``n`` exponentials), then ``U =
    gen.random(n)``, then ``n`` random signs; the accepted candidates fill the output in order and any beyond
    ``r`` are discarded. (So the first values for ``size=m`` are in general not those for ``size=n``.)

    Args:
        sigma_squared: the scale σ² > 0, a real number (int, float, Fraction or str) (rounded to float).
        size: the number of draws, an integer >= 0.
        rng: a ``numpy.random.Generator``, an integer seed or ``None`` (fresh OS entropy).
    """
    s2 = positive_real(sigma_squared, "sigma_squared")
    if s2 > MAX_SCALE**2:
        raise ValueError(f"sigma_squared must be at most {MAX_SCALE**2:g} for the float sampler, got {s2!r}")
    count = check_positive_int(size, "size", minimum=0)
    out = np.empty(count, dtype=np.int64)
    discrete_gaussian_fill(out, s2, as_generator(rng))
    return out


def acceptance_probability(sigma_squared: float) -> float:
    """One round's acceptance probability in :func:`discrete_gaussian`, ``tanh(1/(2t)) exp(-σ²/(2t²)) Z``, in
    binary64: the sum over y of the candidate pmf ``tanh(1/(2t)) e^(-|y|/t)`` times ``exp(-γ)`` is
    ``tanh(1/(2t)) e^(-σ²/(2t²)) Σ_y e^(-y²/(2σ²))``. Z = Σ_y e^(-y²/(2σ²)) is summed directly for σ² < 1 (terms
    ``|y| <= 40``) and taken as sqrt(2π σ²) above (Poisson summation: the neglected factor is
    1 + 2e^(-2π²σ²) + ... < 1 + 6e-9), so the value is a slight underestimate; it only sets candidate counts.

    Args:
        sigma_squared: σ² > 0, a float.
    """
    t = float(math.isqrt(math.floor(sigma_squared)) + 1)
    if sigma_squared < 1.0:
        total = 1.0 + 2.0 * math.fsum(math.exp(-(y * y) / (2.0 * sigma_squared)) for y in range(1, 41))
    else:
        total = math.sqrt(2.0 * math.pi * sigma_squared)
    return math.tanh(0.5 / t) * math.exp(-sigma_squared / (2.0 * t * t)) * total


def discrete_gaussian_fill(out: np.ndarray, s2: float, gen: np.random.Generator) -> None:
    """Fill int64 ``out`` with :func:`discrete_gaussian` draws for validated σ² (the batched sampler calls it
    on rows of one array).

    Args:
        out: a contiguous int64 array to fill.
        s2: the validated scale σ² > 0, a float.
        gen: the ``numpy.random.Generator`` to draw with.
    """
    t = float(math.isqrt(math.floor(s2)) + 1)
    steps = max(math.floor(ACCEPTANCE_STEPS * acceptance_probability(s2)), math.ceil(ACCEPTANCE_STEPS * ACCEPTANCE_FLOOR))
    centre, factor = s2 / t, -0.5 / s2  # a product, not a quotient: a multiplication costs less
    filled = 0
    while filled < out.size:
        needed = out.size - filled
        candidates = -(-ACCEPTANCE_STEPS * (needed + 3 * math.isqrt(needed)) // steps) + 8
        magnitude = np.empty(candidates, dtype=np.float64)
        _discrete_laplace_magnitudes(magnitude, t, gen)
        uniform = gen.random(candidates)
        threshold = magnitude - centre
        threshold *= threshold
        threshold *= factor
        np.exp(threshold, out=threshold)
        accepted = uniform < threshold
        _random_signs(magnitude, gen)
        values = np.compress(accepted, magnitude)[:needed]
        out[filled : filled + values.size] = values
        filled += values.size
