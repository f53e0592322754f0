"""Goodness of fit of integer samples to the certified probability mass functions of
:mod:`reference.samplers.pmf`, with rigorous false-alarm bounds: what the sampler audits run on a user's draws
(and the verification runs on the project's own samplers).

Two kinds of test:

* **Goodness of fit** (:func:`fit_to_distribution`, :func:`fit_to_counts`). Sub-tests, combined by the union
  bound:

  - Pearson's chi-square over cells pooled so every expected count is >= ``min_expected`` (default 5): one
    cell per integer ``x`` in a central range ``[lo, hi]``, and *both tails pooled into one cell*
    (``x < lo`` or ``x > hi``; extreme central cells are moved into it while its expectation is below
    ``min_expected``). Its p-value is **not** taken from the chi-square distribution: that approximation is
    far too light in the upper tail at the levels used here: by exact enumeration of the multinomial with
    n = 3000 and cell probabilities (0.5, 0.49, 0.01) — expected counts 1500, 1470, 30, all far above 5 — the
    probability that X² exceeds the 1e-9 quantile of chi-square(2) (41.45) is 2.0e-8, twenty times the
    nominal level. Instead a rigorous bound is used: with the counts Poissonised (independent
    ``Poisson(n p_i)``), the exact distribution of the statistic is computed by convolution on a grid, rounding
    every cell's contribution *up*; and ``P_multinomial(A) <= P_Poisson(A) / P[Poisson(n) = n]`` with
    ``1 / P[Poisson(n) = n] <= sqrt(2πn) e^{1/(12n)}`` (Stirling). The asymptotic p-value is shown in
    ``detail`` for comparison only.
  - an exact two-sided binomial test per cell (every integer of ``[lo, hi]``, the left tail and the right
    tail as separate cells, whatever their expectation): ``O ~ Binomial(n, p)`` exactly under the null, so
    this part's false-alarm bound is rigorous (p-values from scipy's incomplete beta function);
  - for the discrete distributions, the largest ``|x|`` seen, ``m``: ``P[max_i |X_i| >= m] <= 2 n P[X >= m]``
    (certified tail), which catches rare impossible values (say a 40 from ``N_Z(0, 2)``) that the pooled
    tail cell cannot.

  ``p_value = min(1, parts · min(p_pearson, p_binomial, ...))`` with ``p_binomial = min(1, cells · min p_cell)``
  (union bound over the parts; rigorous up to binary64 rounding in evaluating the bounds).
* **Moments** (:func:`moments_of_distribution`): the sample mean and mean square against 0 and the certified
  variance, with *rigorous* Chernoff bounds: with ``M`` chosen so that ``n P[|X| > M] <= alpha/100``, on the
  event that no draw exceeds ``M`` the sums equal those of a variable with the (finite) pmf truncated at
  ``M`` (the cut mass moved to 0), whose moment generating function is computed exactly from the pmf; the
  bound ``P[S >= s] <= exp(inf_λ (-λ s + n log E e^{λ W}))`` (and the lower one) then holds for every λ,
  so an inexact numerical minimisation only makes it conservative. ``p = n P[|X| > M] + 2 min(p_mean,
  p_square)`` with each ``p_· = 2 min(upper bound, lower bound)``. Rigorous up to binary64 rounding in
  evaluating the bound (relative errors ~1e-13 in an exponent of at most a few hundred).

Every statistical check is seeded (exact samplers: :class:`~reference.core.randomness.SeededRandomBits` ``(seed)``;
numeric: ``numpy.random.default_rng(seed)``), takes its sample size as a parameter so the claims registry can
run a larger budget than the tests, and returns a frozen dataclass with ``holds`` and ``summary()``. Under
the null hypothesis (the sampler draws from the stated pmf) ``holds`` is False with probability at most
``false_alarm``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Literal

import numpy as np
from scipy import optimize, special, stats

from reference.core.certified import CertifiedReal
from reference.core.exact_text import message_value
from reference.core.options import check_choice
from reference.core.statistical_check import StatisticalCheck
from reference.core.statistical_check import check_alpha as check_alpha
from reference.core.units import units_hint
from reference.core.validate import RationalLike, check_positive_int, positive_fraction
from reference.samplers import pmf as discrete

#: Default false-alarm probability of one statistical check.
DEFAULT_ALPHA = 1e-9
#: Pearson's rule of thumb: every pooled chi-square cell has an expected count of at least this.
MIN_EXPECTED = 5.0
#: The Pearson test's rigorous bound is computed only when the chi-square approximation's p-value is below this
#: many times the level (above it the bound is taken as 1, still a valid bound)
PEARSON_GATE = 1e4

#: The sampled law, spelled as everywhere in the project (the command line, the laws, the linear audits).
Kind = Literal["discrete-laplace", "discrete-gaussian"]
Layer = Literal["exact", "numeric"]
KINDS: tuple[Kind, ...] = ("discrete-laplace", "discrete-gaussian")
LAYERS: tuple[Layer, ...] = ("exact", "numeric")


def check_kind(kind: object) -> Kind:
    """The kind, in the project's one spelling (``discrete-laplace``, ``discrete-gaussian``); anything else is
    refused in one line naming ``kind`` and what it accepts.

    Args:
        kind: anything: accepted when it is ``"discrete-laplace"`` or ``"discrete-gaussian"``.
    """
    if kind == "discrete-laplace":
        return "discrete-laplace"
    if kind == "discrete-gaussian":
        return "discrete-gaussian"
    raise ValueError(f"kind must be one of {', '.join(KINDS)}; got {kind!r}")


def check_layer(layer: object) -> Layer:
    """``layer`` as ``"exact"`` or ``"numeric"`` (an error naming ``layer`` otherwise).

    Args:
        layer: anything: accepted when it is ``"exact"`` or ``"numeric"``.
    """
    return check_choice(layer, "layer", LAYERS)


# --------------------------------------------------------------------------------------------------------
# The distributions under test (certified pmf values, as floats for the statistics)
# --------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Distribution:
    """A symmetric distribution on the integers: certified pmf, upper tail ``P[X >= m]`` and variance."""

    label: str
    pmf: Callable[[int], CertifiedReal]
    tail: Callable[[int], CertifiedReal]
    variance: CertifiedReal

    def probability(self, x: int) -> float:
        """``P[X = x]``.

        Args:
            x: the point, an integer.
        """
        return as_float(self.pmf(abs(x)))

    def at_least(self, m: int) -> float:
        """``P[X >= m]``.

        Args:
            m: the threshold, an integer.
        """
        return as_float(self.tail(m))

    def at_most(self, m: int) -> float:
        """``P[X <= m] = P[X >= -m]`` (symmetry).

        Args:
            m: the threshold, an integer.
        """
        return as_float(self.tail(-m))


def as_float(value: CertifiedReal) -> float:
    """The float nearest the enclosure's midpoint.

    Args:
        value: a :class:`~reference.core.certified.CertifiedReal`.
    """
    return float(value.midpoint)


@lru_cache(maxsize=64)
def distribution_of(kind: Kind, parameter: Fraction) -> Distribution:
    if kind == "discrete-gaussian":
        return Distribution(
            f"N_Z(0, {parameter})",
            lru_cache(maxsize=None)(lambda x: discrete.discrete_gaussian_pmf(x, parameter)),
            lru_cache(maxsize=None)(lambda m: discrete.discrete_gaussian_tail(m, parameter)),
            discrete.discrete_gaussian_variance(parameter),
        )
    return Distribution(
        f"discrete Laplace(scale {parameter})",
        lru_cache(maxsize=None)(lambda x: discrete.discrete_laplace_pmf(x, parameter)),
        lru_cache(maxsize=None)(lambda m: discrete.discrete_laplace_tail(m, parameter)),
        discrete.discrete_laplace_variance(parameter),
    )




# --------------------------------------------------------------------------------------------------------
# Goodness of fit
# --------------------------------------------------------------------------------------------------------


def binomial_two_sided(observed: int, trials: int, probability: float) -> float:
    """Exact two-sided binomial p-value ``min(1, 2 min(P[O <= observed], P[O >= observed]))``.

    Args:
        observed: the observed count, an integer in [0, trials].
        trials: the number of trials, an integer >= 0.
        probability: the success probability, a float in [0, 1].
    """
    low = float(stats.binom.cdf(observed, trials, probability))
    high = float(stats.binom.sf(observed - 1, trials, probability))
    return min(1.0, 2.0 * min(low, high))


def central_range(dist: Distribution, samples: int, min_expected: float) -> tuple[int, int]:
    """The integers ``lo..hi`` around 0 whose expected counts are all >= ``min_expected`` (pmf decreases in ``|x|``).

    Args:
        dist: the :class:`Distribution`.
        samples: the number of samples, an integer >= 1.
        min_expected: the smallest expected count a cell may have, a positive number.
    """
    if samples * dist.probability(0) < min_expected:
        raise ValueError(
            f"samples must be large enough that the expected count of 0 is >= {min_expected}; got {message_value(samples)}"
        )
    hi = 0
    while samples * dist.probability(hi + 1) >= min_expected:
        hi += 1
    return -hi, hi


def pearson_tail_bound(expected: Sequence[float], statistic: float, samples: int, steps: int = 1000) -> float:
    """A rigorous upper bound on ``P[X² >= statistic]`` for Pearson's ``X² = Σ (O_i - E_i)² / E_i`` when the
    counts ``O`` are multinomial with ``samples`` trials and expected counts ``expected`` (summing to ``samples``).

    Poissonise: with independent ``O_i ~ Poisson(E_i)``, each contribution ``(O_i - E_i)² / E_i`` is rounded
    *up* to a multiple of ``h = statistic / steps`` (so the event can only grow) and capped at ``statistic``;
    the distribution of the sum of the rounded contributions is computed exactly by convolution (arrays of
    ``steps + 1`` cells; mass at or beyond ``statistic`` kept in the last cell). The multinomial is the
    Poisson law conditioned on ``Σ O_i = n``, so ``P_mult(A) <= P_Pois(A) / P[Poisson(n) = n]`` and
    ``1 / P[Poisson(n) = n] <= sqrt(2πn) exp(1/(12n))``. Exact up to binary64 rounding.

    Args:
        expected: the expected counts E_i > 0, summing to ``samples``.
        statistic: the observed X² >= 0.
        samples: n, the number of trials, an integer >= 1.
        steps: the rounding grid's cells, an integer >= 1 (default 1000).
    """
    if statistic <= 0:
        return 1.0
    count = check_positive_int(steps, "steps")
    width = statistic / count
    total = np.zeros(count + 1)
    total[0] = 1.0
    for mean in expected:
        if mean <= 0:
            raise ValueError(f"expected counts must be > 0, got {mean!r}")
        reach = math.sqrt(statistic * mean)
        counts = np.arange(max(0, math.floor(mean - reach)), math.ceil(mean + reach) + 1)
        masses = stats.poisson.pmf(counts, mean)
        contribution = (counts - mean) ** 2 / mean
        index = np.minimum(np.ceil(contribution / width * (1 + 1e-12)), count).astype(np.int64)
        cell = np.bincount(index, weights=masses, minlength=count + 1)[: count + 1]
        # counts outside the enumerated range contribute more than `statistic`: the last cell
        cell[count] += float(stats.poisson.sf(counts[-1], mean))
        if counts[0] > 0:
            cell[count] += float(stats.poisson.cdf(counts[0] - 1, mean))
        total = np.convolve(total, cell)
        total[count] += float(np.sum(total[count + 1 :]))
        total = total[: count + 1]
    factor = math.sqrt(2.0 * math.pi * samples) * math.exp(1.0 / (12.0 * samples))
    return min(1.0, float(total[count]) * factor)


def fit_from_cells(
    name: str,
    samples: int,
    alpha: float,
    pooled: Sequence[tuple[str, int, float]],
    fine: Sequence[tuple[str, int, float]],
    extra: Sequence[tuple[str, float]] = (),
    extra_detail: str = "",
) -> StatisticalCheck:
    """Combine Pearson's chi-square on ``pooled`` cells (rigorous p-value bound), exact binomial tests on
    ``fine`` cells and any ``extra`` (description, p-value) sub-tests by the union bound. Cells are (label,
    observed, probability).

    Args:
        name: a label for the check's report.
        samples: the number of samples, an integer >= 1.
        alpha: the false-alarm probability of the whole check, in (0, 1).
        pooled: the chi-square's cells as (label, observed count, probability) triples.
        fine: the per-cell binomial tests' cells as (label, observed count, probability) triples.
        extra: further (description, p-value) sub-tests (default none).
        extra_detail: a line added to the report (default empty).
    """
    bounded = "rigorous"
    if len(pooled) >= 2:
        statistic = sum((o - samples * p) ** 2 / (samples * p) for _, o, p in pooled)
        dof = len(pooled) - 1
        asymptotic = float(stats.chi2.sf(statistic, dof))
        if asymptotic > PEARSON_GATE * alpha:
            # 1 is a valid p-value bound: the false-alarm bound holds, and the rigorous bound (which is above the
            # true p, itself near the approximation) could reach the level only if the approximation were off by
            # a factor of PEARSON_GATE; the convolution it costs is skipped
            pearson_p, bounded = 1.0, "rigorous bound not computed, p <= 1"
        else:
            pearson_p = pearson_tail_bound([samples * p for _, _, p in pooled], statistic, samples)
    else:
        statistic, dof, asymptotic, pearson_p = 0.0, 0, 1.0, 1.0
    observed = np.array([o for _, o, _ in fine], dtype=np.float64)
    probability = np.array([p for _, _, p in fine], dtype=np.float64)
    p_values = np.minimum(1.0, 2.0 * np.minimum(stats.binom.cdf(observed, samples, probability),
                                                stats.binom.sf(observed - 1, samples, probability)))
    cell_p = [(label, float(p_value), o, samples * p) for (label, o, p), p_value in zip(fine, p_values)]
    worst = min(cell_p, key=lambda item: item[1])
    binomial_p = min(1.0, len(cell_p) * worst[1])
    parts = [("Pearson", pearson_p), ("binomial", binomial_p), *extra]
    combined = min(1.0, len(parts) * min(p for _, p in parts))
    pearson_text = f"rigorous p <= {pearson_p:.3g}" if bounded == "rigorous" else bounded
    detail = (
        f"Pearson chi-square {statistic:.6g} on {len(pooled)} pooled cells ({pearson_text}; "
        f"chi-square({dof}) approximation {asymptotic:.3g}); exact binomial over {len(cell_p)} cells: most "
        f"significant {worst[0]} (observed {worst[2]}, expected {worst[3]:.4g}, p = {worst[1]:.3g})"
    )
    for label, p in extra:
        detail += f"; {label}: p = {p:.3g}"
    if extra_detail:
        detail += f"; {extra_detail}"
    return StatisticalCheck.by_p_value(name=name, statistic=statistic, p_value=combined, false_alarm=alpha,
                                       samples=samples, detail=detail)


def fit_to_distribution(
    values: np.ndarray | Sequence[int],
    kind: Kind,
    parameter: RationalLike,
    alpha: float = DEFAULT_ALPHA,
    min_expected: float = MIN_EXPECTED,
    name: str = "",
) -> StatisticalCheck:
    """Goodness of fit of integer ``values`` to the discrete Laplace (``parameter`` = scale) or discrete Gaussian
    (``parameter`` = σ²) pmf: pooled chi-square and per-cell exact binomial tests (module docstring).

    Usable on samples from any implementation (what the sampler audit does).

    Args:
        values: the integer samples, a sequence or integer array.
        kind: ``"discrete-laplace"`` or ``"discrete-gaussian"``.
        parameter: the scale t (discrete Laplace) or σ² (discrete Gaussian), > 0, exact (int, Fraction or str such as
            ``"1/3"``; not float).
        alpha: the false-alarm probability, a real number in (0, 1) (default 10^-9).
        min_expected: the smallest expected count of a pooled chi-square cell, a positive number (default 5).
        name: a label for the check's report (default empty).
    """
    chosen = check_kind(kind)
    value = positive_fraction(parameter, "scale" if chosen == "discrete-laplace" else "sigma_squared")
    level = check_alpha(alpha)
    if not (isinstance(min_expected, (int, float)) and min_expected > 0):
        raise ValueError(f"min_expected must be a positive number, got {min_expected!r}")
    data = np.asarray(values)
    if data.ndim != 1 or data.size < 1 or not np.issubdtype(data.dtype, np.integer):
        raise ValueError("values must be a non-empty 1-D sequence of integers")
    counts = {int(v): int(c) for v, c in zip(*np.unique(data, return_counts=True))}
    return fit_to_counts(counts, chosen, value, level, float(min_expected), name)


def fit_to_counts(
    counts: dict[int, int], kind: str, parameter: RationalLike, alpha: float = DEFAULT_ALPHA,
    min_expected: float = MIN_EXPECTED, name: str = "",
) -> StatisticalCheck:
    """:func:`fit_to_distribution` from the histogram ``counts`` (value -> how often it was drawn), its
    sufficient statistic: the same tests, so the same verdict and p-value as on the values themselves.

    Args:
        counts: the histogram: a dict from each value drawn to how often, non-negative integers.
        kind: the law, ``"discrete-laplace"`` or ``"discrete-gaussian"`` (typed ``str`` as callers pass a computed
            name; any other string is refused in one line naming ``kind``).
        parameter: the scale t (discrete Laplace) or σ² (discrete Gaussian), > 0, exact (int, Fraction or str such as
            ``"1/3"``; not float).
        alpha: the false-alarm probability, a real number in (0, 1) (default 10^-9).
        min_expected: the smallest expected count of a pooled chi-square cell, a positive number (default 5).
        name: a label for the check's report (default empty).
    """
    chosen = check_kind(kind)
    value = positive_fraction(parameter, "scale" if chosen == "discrete-laplace" else "sigma_squared")
    level = check_alpha(alpha)
    if not (isinstance(min_expected, (int, float)) and min_expected > 0):
        raise ValueError(f"min_expected must be a positive number, got {min_expected!r}")
    samples = sum(counts.values())
    if samples < 1:
        raise ValueError("counts must hold at least one draw")
    dist = distribution_of(chosen, value)
    lo, hi = central_range(dist, samples, float(min_expected))
    left_observed = sum(c for v, c in counts.items() if v < lo)
    right_observed = sum(c for v, c in counts.items() if v > hi)
    left_p, right_p = dist.at_most(lo - 1), dist.at_least(hi + 1)
    central = [(f"x = {x}", counts.get(x, 0), dist.probability(x)) for x in range(lo, hi + 1)]
    fine = [(f"x < {lo}", left_observed, left_p), *central, (f"x > {hi}", right_observed, right_p)]
    # pool: both tails in one cell; move the extreme central cells into it while its expectation is too small
    tail_observed, tail_p = left_observed + right_observed, left_p + right_p
    pooled = list(central)
    while pooled and samples * tail_p < min_expected:
        index = 0 if pooled[0][2] <= pooled[-1][2] else len(pooled) - 1
        _, observed, probability = pooled.pop(index)
        tail_observed += observed
        tail_p += probability
    pooled.append((f"tails beyond [{lo}, {hi}] pooled", tail_observed, tail_p))
    # the largest |x| seen: P[max_i |X_i| >= m] <= n P[|X| >= m] = 2 n P[X >= m] (union bound)
    largest = max(abs(v) for v, c in counts.items() if c)
    extreme_p = min(1.0, 2.0 * samples * float(dist.tail(largest).upper)) if largest > 0 else 1.0
    extra = [(f"largest |x| = {largest}", extreme_p)]
    # exact integer moments, so the detail does not depend on how the draws were split or ordered
    mean = Fraction(sum(v * c for v, c in counts.items()), samples)
    variance = Fraction(sum(v * v * c for v, c in counts.items()), samples) - mean * mean
    detail = (f"sample mean {float(mean):.5g}, sample variance {float(variance):.6g} vs "
              f"{as_float(dist.variance):.6g}")
    hint = units_hint(float(variance), as_float(dist.variance), name="the declared variance")
    if hint is not None:
        detail += f"; {hint}"
    return fit_from_cells(name or f"fit to {dist.label}", samples, level, pooled, fine, extra, detail)










# --------------------------------------------------------------------------------------------------------
# Moments with rigorous Chernoff bounds
# --------------------------------------------------------------------------------------------------------


def _chernoff(total: float, samples: int, weights: np.ndarray, log_probabilities: np.ndarray, upper: bool) -> float:
    """Chernoff bound on ``P[Σ W_i >= total]`` (``upper``) or ``P[Σ W_i <= total]`` for i.i.d. ``W`` with the given
    finite pmf (values ``weights``, log-probabilities ``log_probabilities``)."""
    mean = float(np.sum(np.exp(log_probabilities) * weights))
    target = total / samples
    if (upper and target <= mean) or (not upper and target >= mean):
        return 1.0
    sign = 1.0 if upper else -1.0
    spread = float(np.max(np.abs(weights))) or 1.0

    def exponent(step: float) -> float:
        lam = sign * step
        return float(-lam * total + samples * special.logsumexp(log_probabilities + lam * weights))

    high = 1.0 / spread
    while exponent(2 * high) < exponent(high) and high < 1e6 / spread:
        high *= 2
    result = optimize.minimize_scalar(exponent, bounds=(0.0, 2 * high), method="bounded")
    best = min(float(result.fun), exponent(high), 0.0)
    return math.exp(best)


def _truncation(dist: Distribution, samples: int, alpha: float) -> tuple[int, float]:
    """The smallest ``M`` (by doubling, then bisection) with ``n P[|X| > M] <= alpha/100``, and that mass."""

    def excess(m: int) -> float:
        return samples * 2.0 * float(dist.tail(m + 1).upper)

    high = 1
    while excess(high) > alpha / 100:
        high *= 2
    low = high // 2
    while high - low > 1:
        middle = (low + high) // 2
        if excess(middle) > alpha / 100:
            low = middle
        else:
            high = middle
    return high, excess(high)


def moments_of_distribution(
    values: np.ndarray | Sequence[int],
    kind: Kind,
    parameter: RationalLike,
    alpha: float = DEFAULT_ALPHA,
    name: str = "",
) -> StatisticalCheck:
    """The sample mean (against 0) and mean square (against the certified variance) of integer ``values``
    under the discrete Laplace / discrete Gaussian pmf, with rigorous Chernoff bounds (module docstring).

    Args:
        values: the integer samples, a sequence or integer array.
        kind: ``"discrete-laplace"`` or ``"discrete-gaussian"``.
        parameter: the scale t (discrete Laplace) or σ² (discrete Gaussian), > 0, exact (int, Fraction or str such as
            ``"1/3"``; not float).
        alpha: the false-alarm probability, a real number in (0, 1) (default 10^-9).
        name: a label for the check's report (default empty).
    """
    chosen = check_kind(kind)
    value = positive_fraction(parameter, "scale" if chosen == "discrete-laplace" else "sigma_squared")
    level = check_alpha(alpha)
    data = np.asarray(values)
    if data.ndim != 1 or data.size < 1 or not np.issubdtype(data.dtype, np.integer):
        raise ValueError("values must be a non-empty 1-D sequence of integers")
    samples = int(data.size)
    dist = distribution_of(chosen, value)
    bound, cut = _truncation(dist, samples, level)
    support = np.arange(-bound, bound + 1)
    probabilities = np.array([dist.probability(int(x)) for x in support])
    probabilities[bound] += 1.0 - float(np.sum(probabilities))  # the cut mass, moved to 0
    logs = np.log(np.maximum(probabilities, 1e-300))
    total, square = float(np.sum(data, dtype=np.float64)), float(np.sum(data.astype(np.float64) ** 2))
    supports = (support.astype(np.float64), support.astype(np.float64) ** 2)
    mean_p = min(1.0, 2.0 * min(_chernoff(total, samples, supports[0], logs, up) for up in (True, False)))
    square_p = min(1.0, 2.0 * min(_chernoff(square, samples, supports[1], logs, up) for up in (True, False)))
    combined = min(1.0, cut + 2.0 * min(mean_p, square_p))
    variance = float(dist.variance.midpoint)
    fourth = float(np.sum(probabilities * supports[1] ** 2))
    z_mean = total / math.sqrt(samples * variance)
    z_square = (square - samples * variance) / math.sqrt(samples * max(fourth - variance**2, 1e-300))
    detail = (
        f"mean {total / samples:.5g} (Chernoff p = {mean_p:.3g}); mean square {square / samples:.6g} vs certified "
        f"variance {dist.variance.decimal(16, rounded='up')} (Chernoff p = {square_p:.3g}); truncation at |x| <= {bound} "
        f"(excess mass {cut:.2g})"
    )
    statistic = max(abs(z_mean), abs(z_square))
    return StatisticalCheck.by_p_value(name=name or f"moments of {dist.label}", statistic=statistic, p_value=combined,
                                       false_alarm=level, samples=samples, detail=detail)




# --------------------------------------------------------------------------------------------------------
# Exhaustive enumeration of the bit strings
# --------------------------------------------------------------------------------------------------------









# --------------------------------------------------------------------------------------------------------
# Certified facts about the discrete Gaussian (CKS Corollary 9, quoted as InfTDA Corollary 1)
# --------------------------------------------------------------------------------------------------------




