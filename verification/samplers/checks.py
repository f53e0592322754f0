"""Seeded statistical checks of the project's own samplers (exact :mod:`reference.samplers.exact`, numeric
:mod:`reference.samplers.numeric`) against the certified pmfs, built on the goodness-of-fit machinery of
:mod:`reference.samplers.fit` (whose docstring states the tests and their rigorous false-alarm bounds).

Every check is seeded (exact samplers: :class:`~reference.core.randomness.SeededRandomBits` ``(seed)``; numeric:
``numpy.random.default_rng(seed)``) and takes its sample size as a parameter so the claims registry can run a
larger budget than the tests. The exhaustive and certified checks are in :mod:`.exact_checks`.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from reference.core.randomness import SeededRandomBits
from reference.core.statistical_check import StatisticalCheck
from reference.core.validate import RationalLike, check_positive_int, positive_fraction, to_fraction
from reference.samplers import exact as exact_samplers
from reference.samplers import numeric as numeric_samplers
from reference.samplers import pmf as discrete
from reference.samplers.fit import (
    DEFAULT_ALPHA,
    MIN_EXPECTED,
    as_float,
    binomial_two_sided,
    check_alpha,
    check_kind,
    check_layer,
    fit_from_cells,
    fit_to_distribution,
    moments_of_distribution,
)


def draw(kind: object, layer: object, parameter: RationalLike, samples: int, seed: int) -> np.ndarray:
    """``samples`` draws (an ``int64`` array) of ``kind`` from the ``layer`` sampler, seeded with ``seed``.

    ``parameter`` is the scale (discrete Laplace) or σ² (discrete Gaussian), an exact rational; the numeric
    layer receives the same value (rounded to float there).
    """
    chosen = check_kind(kind)
    where = check_layer(layer)
    name = "scale" if chosen == "discrete-laplace" else "sigma_squared"
    value = positive_fraction(parameter, name)
    count = check_positive_int(samples, "samples", minimum=1)
    start = check_positive_int(seed, "seed", minimum=0)
    if where == "exact":
        source = SeededRandomBits(start)
        sampler = exact_samplers.discrete_laplace if chosen == "discrete-laplace" else exact_samplers.discrete_gaussian
        return np.array(sampler(value, source=source, size=count), dtype=np.int64)
    generator = np.random.default_rng(start)
    if chosen == "discrete-laplace":
        return numeric_samplers.discrete_laplace(value, size=count, rng=generator)
    return numeric_samplers.discrete_gaussian(value, size=count, rng=generator)


def check_fit(
    kind: object,
    layer: object,
    parameter: RationalLike,
    samples: int = 2_000,
    seed: int = 0,
    alpha: float = DEFAULT_ALPHA,
) -> StatisticalCheck:
    """``samples`` seeded draws of the ``layer`` ("exact" or "numeric") ``kind`` sampler fitted to the exact pmf."""
    chosen, where = check_kind(kind), check_layer(layer)
    values = draw(chosen, where, parameter, samples, seed)
    value = to_fraction(parameter, "parameter")
    return fit_to_distribution(values, chosen, value, alpha, name=f"{where} {chosen}({value}) fit, seed {seed}")


def check_bernoulli_exp_minus(
    gamma: RationalLike, samples: int = 20_000, seed: int = 0, alpha: float = DEFAULT_ALPHA
) -> StatisticalCheck:
    """The exact Bernoulli(exp(-γ)) sampler: the number of ones in ``samples`` seeded draws against
    Binomial(n, exp(-γ)) (exact two-sided binomial test; exp(-γ) certified with Arb)."""
    value = to_fraction(gamma, "gamma")
    if value < 0:
        raise ValueError(f"gamma must be a rational >= 0, got {value}")
    count = check_positive_int(samples, "samples")
    level = check_alpha(alpha)
    draws = exact_samplers.bernoulli_exp_minus(
        value, source=SeededRandomBits(check_positive_int(seed, "seed", minimum=0)), size=count
    )
    ones = sum(draws)
    probability = as_float(discrete.exp_minus(value))
    p_value = binomial_two_sided(ones, count, probability)
    detail = f"{ones} ones, expected {count * probability:.6g}"
    return StatisticalCheck.by_p_value(name=f"exact Bernoulli(exp(-{value}))", statistic=float(ones), p_value=p_value,
                                       false_alarm=level, samples=count, detail=detail)


def _laplace_cdf(x: np.ndarray, scale: float) -> np.ndarray:
    result: np.ndarray = np.where(
        x < 0, 0.5 * np.exp(np.minimum(x, 0.0) / scale), 1.0 - 0.5 * np.exp(-np.maximum(x, 0.0) / scale)
    )
    return result


def check_laplace_fit(
    scale: RationalLike, samples: int = 20_000, seed: int = 0, alpha: float = DEFAULT_ALPHA, bins: int = 40
) -> StatisticalCheck:
    """The numeric continuous Laplace(b) sampler: ``bins`` equiprobable cells (fewer if needed for expected
    counts >= 5; chi-square and exact binomial tests), the Kolmogorov–Smirnov distance with the
    Dvoretzky–Kiefer–Wolfowitz–Massart bound ``2 exp(-2 n D²)`` (rigorous for a continuous cdf), and the exact
    law ``Σ|X_i| ~ Gamma(n, b)`` (``|X|`` is exponential with mean b)."""
    b = float(to_fraction(scale, "scale"))
    if b <= 0:
        raise ValueError(f"scale must be > 0, got {scale!r}")
    count = check_positive_int(samples, "samples", minimum=10)
    level = check_alpha(alpha)
    cells = min(check_positive_int(bins, "bins", minimum=2), max(2, int(count // MIN_EXPECTED)))
    values = numeric_samplers.laplace(scale, size=count, rng=np.random.default_rng(check_positive_int(seed, "seed", minimum=0)))
    quantiles = np.arange(1, cells) / cells
    edges = np.where(quantiles < 0.5, b * np.log(2 * quantiles), -b * np.log(2 * (1 - quantiles)))
    cdf = np.concatenate(([0.0], _laplace_cdf(edges, b), [1.0]))
    probabilities = np.diff(cdf)
    observed = np.bincount(np.searchsorted(edges, values, side="right"), minlength=cells)
    table = [(f"bin {i}", int(observed[i]), float(probabilities[i])) for i in range(cells)]
    sorted_values = np.sort(values)
    model = _laplace_cdf(sorted_values, b)
    ranks = np.arange(1, count + 1) / count
    distance = float(max(np.max(ranks - model), np.max(model - (ranks - 1.0 / count))))
    dkw = min(1.0, 2.0 * math.exp(-2.0 * count * distance * distance))
    total = float(np.sum(np.abs(values)))
    gamma_p = min(
        1.0, 2.0 * min(float(stats.gamma.cdf(total, count, scale=b)), float(stats.gamma.sf(total, count, scale=b)))
    )
    extra = [("Kolmogorov-Smirnov (DKW bound)", dkw), ("sum |X| vs Gamma(n, b)", gamma_p)]
    detail = f"KS distance {distance:.4g}; sum |X| = {total:.6g} (expected {count * b:.6g})"
    return fit_from_cells(f"numeric Laplace({b}) fit, seed {seed}", count, level, table, table, extra, detail)


def check_moments(
    kind: object,
    layer: object,
    parameter: RationalLike,
    samples: int = 2_000,
    seed: int = 0,
    alpha: float = DEFAULT_ALPHA,
) -> StatisticalCheck:
    """``samples`` seeded draws of the ``layer`` ``kind`` sampler: mean and mean square (Chernoff bounds)."""
    chosen, where = check_kind(kind), check_layer(layer)
    values = draw(chosen, where, parameter, samples, seed)
    value = to_fraction(parameter, "parameter")
    return moments_of_distribution(values, chosen, value, alpha, f"{where} {chosen}({value}) moments, seed {seed}")

