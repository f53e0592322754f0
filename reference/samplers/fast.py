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
``size`` is an integer >= 0 and the result a 1-D array (``int64`` for the discrete samplers).
"""

from __future__ import annotations

import math

import numpy as np

from reference.core.rng import as_generator
from reference.core.validate import RealLike, check_positive_int, positive_real

__all__ = ["discrete_gaussian", "discrete_laplace", "laplace"]

#: A lower bound on the acceptance probability of one round of CKS Algorithm 3,
#: ``tanh(1/(2t)) exp(-σ²/(2t²)) Z(σ²)`` with ``t = floor(σ) + 1``: its minimum over σ² is about 0.445 (near
#: σ² = 0.09; it tends to sqrt(π/2) e^{-1/2} ≈ 0.760 as σ grows). Only sets how many candidates a round draws.
ACCEPTANCE_FLOOR = 0.44

#: Largest discrete Laplace scale (and largest σ, i.e. σ² <= MAX_SCALE**2) the float samplers accept: numpy
#: computes a geometric variable as a float and casts it to int64, so draws must stay far below 2**53.
MAX_SCALE = 1e12


def laplace(scale: RealLike, size: int, rng: object = None) -> np.ndarray:
    """``size`` independent Laplace(``scale``) draws: ``rng.laplace(0.0, scale, size)`` (numpy's inversion
    sampler; one ``Generator.laplace`` call), ``scale`` = b > 0 rounded to float."""
    b = positive_real(scale, "scale")
    count = check_positive_int(size, "size", minimum=0)
    gen = as_generator(rng)
    return gen.laplace(0.0, b, count)


def _geometric_difference(scale: float, count: int, gen: np.random.Generator) -> np.ndarray:
    """``G1 - G2`` with ``G1 = gen.geometric(p, count)`` drawn first, then ``G2``; ``p = -expm1(-1/scale)``."""
    success = -math.expm1(-1.0 / scale)
    first = gen.geometric(success, count)
    second = gen.geometric(success, count)
    return (first - second).astype(np.int64)


def discrete_laplace(scale: RealLike, size: int, rng: object = None) -> np.ndarray:
    """``size`` independent discrete Laplace draws with ``P[x] ∝ exp(-|x|/t)``, ``t`` = ``scale`` > 0.

    The difference ``G1 - G2`` of two independent geometric variables on {1, 2, ...} with success probability
    ``p = 1 - exp(-1/t)`` (``P[G = g] = (1-p)^(g-1) p``) is exactly discrete Laplace with ratio ``1 - p``.
    Approximations: ``t`` is rounded to float, ``p`` is ``-expm1(-1/t)`` in binary64 (relative error ~1e-16),
    and numpy's ``Generator.geometric`` uses float arithmetic (inversion for small ``p``). Draw order: all of
    ``G1`` (``gen.geometric(p, size)``), then all of ``G2``.
    """
    t = positive_real(scale, "scale")
    if t > MAX_SCALE:
        raise ValueError(f"scale must be at most {MAX_SCALE:g} for the float sampler, got {t!r}")
    count = check_positive_int(size, "size", minimum=0)
    gen = as_generator(rng)
    return _geometric_difference(t, count, gen)


def discrete_gaussian(sigma_squared: RealLike, size: int, rng: object = None) -> np.ndarray:
    """``size`` independent ``N_Z(0, σ²)`` draws, ``σ²`` = ``sigma_squared`` > 0 (CKS Algorithm 3, vectorised).

    Rejection from the discrete Laplace with scale ``t = floor(σ) + 1`` (``floor(σ) = isqrt(floor(σ²))``,
    exact for the float σ²): a candidate ``Y`` is accepted when a uniform ``U`` in [0, 1) is below
    ``exp(-(|Y| - σ²/t)² / (2σ²))``. Approximation: that acceptance probability is evaluated in binary64
    (relative error a few units in 1e-16, and probabilities below ~1e-308 round to 0), where the exact sampler
    draws Bernoulli(exp(-γ)) exactly; σ² is rounded to float.

    Draw order: rounds until ``size`` values are accepted. A round with ``r`` values still needed draws
    ``n = ceil(r / ACCEPTANCE_FLOOR) + 8`` candidates: ``G1`` (``n`` geometrics), ``G2`` (``n`` geometrics) as
    in :func:`discrete_laplace`, then ``U = gen.random(n)``; the accepted candidates fill the output in
    order and any beyond ``r`` are discarded. (So the first values for ``size=m`` are in general not those
    for ``size=n``.)
    """
    s2 = positive_real(sigma_squared, "sigma_squared")
    if s2 > MAX_SCALE**2:
        raise ValueError(f"sigma_squared must be at most {MAX_SCALE**2:g} for the float sampler, got {s2!r}")
    count = check_positive_int(size, "size", minimum=0)
    return _discrete_gaussian_draws(s2, count, as_generator(rng))


def _discrete_gaussian_draws(s2: float, count: int, gen: np.random.Generator) -> np.ndarray:
    """The body of :func:`discrete_gaussian` for validated arguments (the batched sampler calls it per run)."""
    t = float(math.isqrt(math.floor(s2)) + 1)
    out = np.empty(count, dtype=np.int64)
    filled = 0
    while filled < count:
        needed = count - filled
        candidates = math.ceil(needed / ACCEPTANCE_FLOOR) + 8
        values = _geometric_difference(t, candidates, gen)
        uniform = gen.random(candidates)
        offset = np.abs(values) - s2 / t
        accepted = values[uniform < np.exp(-(offset * offset) / (2.0 * s2))][:needed]
        out[filled : filled + accepted.size] = accepted
        filled += accepted.size
    return out
