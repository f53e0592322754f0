"""Whole-law tests of i.i.d. values against one scalar law, and their power against named alternatives.

Four property groups, each at the level ``share`` it is given (the caller splits its ``alpha`` over them):

1. **scale** — the Neyman–Pearson statistic of a scale alternative, two-sided
   (:class:`reference.audit.samples.scale_test.ScaleTest`): the most powerful test of a wrong scale;
2. **distribution (Kolmogorov–Smirnov)** — ``D = sup |F_n − F|`` against the exact CDF (continuous laws:
   ``scipy.stats``; discrete laws: the pmf summed), p-value ``2 exp(−2 n D²)`` (Massart's DKW bound: rigorous for
   every law, discrete ones included). Its power against any alternative ``G`` is rigorous too: with
   ``Δ = sup |G − F|`` and ``d`` the critical distance, ``D >= Δ − sup |F_n − G|``, so the test rejects with
   probability at least ``1 − 2 exp(−2 n (Δ − d)²)``;
3. **omnibus** — continuous laws: Cramér–von Mises against the exact CDF (``scipy.stats.cramervonmises``);
   discrete laws: the certified-pmf goodness of fit of :func:`reference.samplers.fit.fit_to_counts` (Pearson with
   a rigorous bound, exact binomial cells, the largest value) when the samples are numerous enough for its cells
   (``n P[X = 0] >= 5``), else "not applicable" (the other groups still decide);
4. **tails** — exact two-sided binomial tests of the counts beyond the central ``1 − p`` quantile of ``|X|`` for
   ``p`` in :data:`TAIL_PROBABILITIES` (while ``n p >= 20``), and the largest ``|x|``:
   ``P[max |X_i| >= m] <= n P[|X| >= m]``. Heavy tails raise these counts, light tails lower them.

The named alternatives (:func:`alternatives`) have the claimed law's variance and differ in family (Laplace for
Gaussian and back, uniform, a scale mixture, the rounded continuous law in place of the discrete one), in the tails
(Student t with 5 degrees of freedom) or in the mean (shifted by a tenth of the standard deviation).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from reference.audit.samples.laws import DiscreteGaussian, DiscreteLaplace, Gaussian, Laplace, ScalarLaw
from reference.audit.samples.report import PowerLine, PropertyCheck
from reference.audit.samples.scale_test import POWER, ScaleTest, discrete_support, statistic_weight

#: Tail probabilities whose counts are tested (each while the expected count is at least 20).
TAIL_PROBABILITIES = (1e-2, 1e-3, 1e-4, 1e-5)
#: Groups :func:`law_checks` returns (the caller's Bonferroni split).
GROUPS = 4


def _stats() -> Any:
    from scipy import stats

    return stats


def standard_deviation(law: ScalarLaw) -> float:
    """The law's standard deviation (binary64).

    Args:
        law: the claimed scalar law (:class:`Gaussian`, :class:`Laplace`, :class:`DiscreteGaussian` or :class:`DiscreteLaplace`).

    Returns:
        σ for a Gaussian, √2 b for a Laplace law; for a discrete law the square root of its second moment over
        the integers within about 40 times its scale (√σ² or t), in binary64.
    """
    if isinstance(law, Gaussian):
        return float(law.sigma)
    if isinstance(law, Laplace):
        return math.sqrt(2.0) * float(law.scale)
    support, mass, _ = discrete_support(law, 40.0)
    return math.sqrt(float(np.sum(mass * support * support)))


def law_cdf(law: ScalarLaw) -> Callable[[np.ndarray], np.ndarray]:
    """``x ↦ P[X <= x]`` (binary64).

    Args:
        law: the claimed scalar law (:class:`Gaussian`, :class:`Laplace`, :class:`DiscreteGaussian` or :class:`DiscreteLaplace`).

    Returns:
        The CDF, applied elementwise to a float array (a discrete law's CDF steps at the integers).
    """
    stats = _stats()
    if isinstance(law, Gaussian):
        return lambda x: np.asarray(stats.norm.cdf(x, scale=float(law.sigma)))
    if isinstance(law, Laplace):
        return lambda x: np.asarray(stats.laplace.cdf(x, scale=float(law.scale)))
    support, mass, outside = discrete_support(law, 40.0)
    cumulative = np.cumsum(mass) + outside / 2.0

    def cdf(x: np.ndarray) -> np.ndarray:
        index = np.searchsorted(support, np.floor(x), side="right") - 1
        return np.where(index < 0, 0.0, cumulative[np.clip(index, 0, len(cumulative) - 1)])

    return cdf


@dataclass(frozen=True)
class Alternative:
    """A named alternative law, by its CDF (on the reals; integer-valued for a discrete claim) and its tail
    ``P[|X| > q]``."""

    name: str
    cdf: Callable[[np.ndarray], np.ndarray]


def alternatives(law: ScalarLaw, shift: float = 0.1) -> list[Alternative]:
    """The named alternatives of the module docstring, each with the claimed law's variance (the shift aside).

    Args:
        law: the claimed scalar law (:class:`Gaussian`, :class:`Laplace`, :class:`DiscreteGaussian` or :class:`DiscreteLaplace`).
        shift: the mean shift of the last alternative, in standard deviations (default 0.1); for a discrete law
            the shift is rounded to a whole number of units, at least 1.

    Returns:
        The alternatives: other families of the same variance, heavy tails, and the shifted claim.
    """
    stats = _stats()
    sd = standard_deviation(law)
    discrete = isinstance(law, (DiscreteGaussian, DiscreteLaplace))

    def rounded(cdf: Callable[[np.ndarray], np.ndarray]) -> Callable[[np.ndarray], np.ndarray]:
        return (lambda x: cdf(np.floor(x) + 0.5)) if discrete else cdf

    gaussian = rounded(lambda x: np.asarray(stats.norm.cdf(x, scale=sd)))
    laplace = rounded(lambda x: np.asarray(stats.laplace.cdf(x, scale=sd / math.sqrt(2.0))))
    uniform = rounded(lambda x: np.asarray(stats.uniform.cdf(x, loc=-sd * math.sqrt(3.0), scale=2 * sd * math.sqrt(3.0))))
    heavy = rounded(lambda x: np.asarray(stats.t.cdf(x, 5, scale=sd * math.sqrt(3.0 / 5.0))))
    if isinstance(law, (Gaussian, DiscreteGaussian)):
        mixture = rounded(lambda x: 0.5 * np.asarray(stats.norm.cdf(x, scale=sd * math.sqrt(0.5)))
                          + 0.5 * np.asarray(stats.norm.cdf(x, scale=sd * math.sqrt(1.5))))
        named = [("Laplace of the same variance", laplace), ("uniform of the same variance", uniform),
                 ("scale mixture of Gaussians (variances 0.5 and 1.5 of the claim)", mixture)]
    else:
        mixture = rounded(lambda x: 0.5 * np.asarray(stats.laplace.cdf(x, scale=sd * math.sqrt(0.25)))
                          + 0.5 * np.asarray(stats.laplace.cdf(x, scale=sd * math.sqrt(0.75))))
        named = [("Gaussian of the same variance", gaussian), ("uniform of the same variance", uniform),
                 ("scale mixture of Laplaces (variances 0.5 and 1.5 of the claim)", mixture)]
    if isinstance(law, DiscreteGaussian):
        named.append(("rounded continuous Gaussian of the same sigma^2", rounded(
            lambda x: np.asarray(stats.norm.cdf(x, scale=math.sqrt(float(law.sigma_squared)))))))
    if isinstance(law, DiscreteLaplace):
        named.append(("rounded continuous Laplace of the same scale", rounded(
            lambda x: np.asarray(stats.laplace.cdf(x, scale=float(law.scale))))))
    named.append(("heavy tails (Student t, 5 dof, same variance)", heavy))
    offset = max(1.0, round(shift * sd)) if discrete else shift * sd
    base = law_cdf(law)
    named.append((f"mean shifted by {offset:.3g} ({offset / sd:.3g} sd)", lambda x: base(x - offset)))
    return [Alternative(name, cdf) for name, cdf in named]


def sup_distance(law: ScalarLaw, other: Callable[[np.ndarray], np.ndarray]) -> float:
    """``sup |G − F|`` on a fine grid (integers for a discrete claim): a lower estimate of the supremum, which
    only makes the runs needed larger.

    Args:
        law: the claimed scalar law (:class:`Gaussian`, :class:`Laplace`, :class:`DiscreteGaussian` or :class:`DiscreteLaplace`), whose CDF is F.
        other: G, the alternative's CDF, applied elementwise to a float array.

    Returns:
        The largest ``|G − F|`` on the grid (±12 standard deviations; for a discrete law the integers within
        12 standard deviations + 20, thinned to at most 400,001 points).
    """
    sd = standard_deviation(law)
    if isinstance(law, (DiscreteGaussian, DiscreteLaplace)):
        reach = min(12.0 * sd + 20.0, 2e6)
        grid = np.arange(-math.ceil(reach), math.ceil(reach) + 1, dtype=np.float64)
        if grid.size > 400_001:
            grid = np.unique(np.round(np.linspace(-reach, reach, 400_001)))
    else:
        grid = np.linspace(-12.0 * sd, 12.0 * sd, 48_001)
    return float(np.max(np.abs(other(grid) - law_cdf(law)(grid))))


def ks_power(distance: float, values: int, level: float) -> float:
    """Rigorous lower bound on the Kolmogorov–Smirnov group's detection probability (module docstring).

    Args:
        distance: Δ = sup |G − F| of the alternative, in [0, 1].
        values: n, the number of i.i.d. values tested, an integer >= 1.
        level: the group's false-alarm probability, in (0, 1).

    Returns:
        ``1 − 2 exp(−2 n (Δ − d)²)`` (d the critical distance), or 0 when Δ <= d.
    """
    critical = math.sqrt(math.log(2.0 / level) / (2.0 * values))
    if distance <= critical:
        return 0.0
    return max(0.0, 1.0 - 2.0 * math.exp(-2.0 * values * (distance - critical) ** 2))


def ks_runs(distance: float, level: float, per_run: int) -> int | None:
    """The fewest runs at which :func:`ks_power` reaches 99%.

    Args:
        distance: Δ = sup |G − F| of the alternative, in [0, 1].
        level: the group's false-alarm probability, in (0, 1).
        per_run: the values each run contributes, an integer >= 1.

    Returns:
        The runs, or ``None`` when Δ <= 0 or more than 10^13 runs are needed.
    """
    if distance <= 0:
        return None
    needed = ((math.sqrt(math.log(2.0 / level) / 2.0) + math.sqrt(math.log(2.0 / (1 - POWER)) / 2.0)) / distance) ** 2
    runs = math.ceil(needed / per_run)
    return runs if runs <= 10**13 else None


def _ks_statistic(values: np.ndarray, law: ScalarLaw, counts: np.ndarray | None) -> float:
    """``sup |F_n − F|``: continuous laws from the values, discrete laws from the histogram (sorted distinct
    ``values`` and their ``counts``)."""
    stats = _stats()
    if isinstance(law, Gaussian):
        return float(stats.kstest(values, "norm", args=(0, float(law.sigma))).statistic)
    if isinstance(law, Laplace):
        return float(stats.kstest(values, "laplace", args=(0, float(law.scale))).statistic)
    assert counts is not None
    # discrete: both CDFs step at the integers, so the supremum is taken there (just below and at each value)
    empirical = np.cumsum(counts) / float(np.sum(counts))
    cdf = law_cdf(law)
    at = np.abs(empirical - cdf(values))
    below = np.abs(np.concatenate(([0.0], empirical[:-1])) - cdf(values - 1))
    return float(max(np.max(at), np.max(below)))


def _tail_cells(law: ScalarLaw, values: int) -> list[tuple[float, float]]:
    """(threshold q, P[|X| > q]) for the tail probabilities tested at ``values`` draws."""
    stats = _stats()
    cells = []
    for probability in TAIL_PROBABILITIES:
        if values * probability < 20:
            break
        if isinstance(law, Gaussian):
            q = float(stats.norm.isf(probability / 2.0, scale=float(law.sigma)))
            cells.append((q, probability))
        elif isinstance(law, Laplace):
            q = float(law.scale) * math.log(1.0 / probability)
            cells.append((q, probability))
        else:
            support, mass, outside = discrete_support(law, 40.0)
            beyond = np.cumsum(mass[::-1])[::-1] + outside / 2.0  # P[X >= support[i]]
            positive = support >= 0
            index = int(np.argmax((2.0 * beyond <= probability) & positive))
            q = float(support[index] - 1)  # |X| > q  ⇔  |X| >= support[index]
            cells.append((q, 2.0 * float(beyond[index])))
    return cells


def _tail_probability(law: ScalarLaw, limit: float) -> float:
    """``P[|X| >= limit]``."""
    stats = _stats()
    if isinstance(law, Gaussian):
        return float(2.0 * stats.norm.sf(limit, scale=float(law.sigma)))
    if isinstance(law, Laplace):
        return math.exp(-limit / float(law.scale))
    cdf = law_cdf(law)
    return float(2.0 * (1.0 - cdf(np.array([math.ceil(limit) - 1.0]))[0]))


def law_checks(values: np.ndarray, law: ScalarLaw, share: float, what: str = "values") -> list[PropertyCheck]:
    """The four groups of the module docstring on ``values`` (1-D, i.i.d. under the claim), each at ``share``.

    Args:
        values: the values, a 1-D real array, i.i.d. under the claim (for a discrete law, integers: float
            values are cast, those beyond ±2^53 clipped).
        law: the claimed scalar law (:class:`Gaussian`, :class:`Laplace`, :class:`DiscreteGaussian` or :class:`DiscreteLaplace`).
        share: the false-alarm probability of each group, in (0, 1) (the caller's ``alpha`` over :data:`GROUPS`).
        what: what the values are, for the details (default ``"values"``, e.g. ``"recovered draws"``).

    Returns:
        The scale, Kolmogorov–Smirnov, omnibus and tails checks, in that order.
    """
    if isinstance(law, (Gaussian, Laplace)):
        return _checks(values, None, law, share, what)
    # values beyond ±2^53 are far in the tails (where the tail group sees them); clipped so the cast is exact
    integers = values if values.dtype == np.int64 else np.clip(values, -2.0**53, 2.0**53).astype(np.int64)
    points, counts = distinct_counts(integers)
    return _checks(points, counts, law, share, what)


#: Values counted per ``bincount`` call: a chunk and its shifted copy stay within a core's cache.
COUNT_CHUNK = 1 << 16


def distinct_counts(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values of an int64 array, increasing, and their counts: by ``bincount`` chunk by chunk
    (:data:`COUNT_CHUNK` values, each shifted by its own minimum into a buffer that stays in cache) when the range
    is at most a few times the count (a discrete law's draws: one pass), else by sorting.

    Args:
        values: a 1-D int64 array (may be empty).

    Returns:
        (distinct values, increasing; their counts), both int64 arrays.
    """
    if values.size == 0:
        return values, values
    limit = max(1 << 20, 4 * values.size)  # the widest table counted; wider ranges are sorted
    table = np.zeros(0, dtype=np.int64)
    offset = 0
    shifted = np.empty(min(COUNT_CHUNK, values.size), dtype=np.int64)
    for start in range(0, values.size, COUNT_CHUNK):
        chunk = values[start:start + COUNT_CHUNK]
        low, high = int(chunk.min()), int(chunk.max())
        first, last = (low, high) if table.size == 0 else (min(offset, low), max(offset + table.size - 1, high))
        if last - first >= limit:
            return np.unique(values, return_counts=True)
        if table.size == 0 or first < offset or last >= offset + table.size:  # widen the table to [first, last]
            wider = np.zeros(last - first + 1, dtype=np.int64)
            wider[offset - first:offset - first + table.size] = table
            table, offset = wider, first
        buffer = shifted[:chunk.size]
        np.subtract(chunk, low, out=buffer)
        counted = np.bincount(buffer)
        table[low - offset:low - offset + counted.size] += counted
    present = np.flatnonzero(table)
    return present + offset, table[present]


def histogram_checks(histogram: Mapping[int, int], law: DiscreteGaussian | DiscreteLaplace, share: float,
                     what: str = "values") -> list[PropertyCheck]:
    """:func:`law_checks` of a discrete law from the histogram of the values (value → count), its sufficient
    statistic: the same tests, the same verdict.

    Args:
        histogram: value → number of draws of it (integers; zero counts are ignored).
        law: the claimed discrete law.
        share: the false-alarm probability of each group, in (0, 1).
        what: what the values are, for the details (default ``"values"``).

    Returns:
        The four checks, as :func:`law_checks` gives them for the values themselves.

    Raises:
        ValueError: ``histogram`` holds no draw.
    """
    items = sorted((int(value), int(count)) for value, count in histogram.items() if count)
    if not items:
        raise ValueError("histogram must hold at least one value")
    points = np.array([value for value, _ in items], dtype=np.int64)
    counts = np.array([count for _, count in items], dtype=np.int64)
    return _checks(points, counts, law, share, what)


def _checks(points: np.ndarray, counts: np.ndarray | None, law: ScalarLaw, share: float,
            what: str) -> list[PropertyCheck]:
    """The four groups on the values (``counts`` None) or on distinct values and their counts."""
    n = int(points.size if counts is None else np.sum(counts))
    weights = statistic_weight(law, points.astype(np.float64))
    checks: list[PropertyCheck] = []
    scale = ScaleTest(law, share)
    total = float(np.sum(weights if counts is None else weights * counts))
    p = scale.p_value(total, n)
    ratio = total / n
    low, high = scale.critical(n)
    kind = "x^2/sigma^2" if isinstance(law, (Gaussian, DiscreteGaussian)) else "|x|/b"
    failures = () if p > share else (f"scale {'too large' if ratio > high else 'too small'}: mean {kind} "
                                     f"{ratio:.8g} outside [{low:.8g}, {high:.8g}] (p = {p:.3g})",)
    checks.append(PropertyCheck("scale", p > share, share, 1, ratio, failures,
                                f"Neyman-Pearson scale statistic: mean {kind} over {n} {what} = {ratio:.8g}, "
                                f"acceptance [{low:.8g}, {high:.8g}], p = {p:.3g}"))
    distance = _ks_statistic(points, law, counts)
    ks_p = min(1.0, 2.0 * math.exp(-2.0 * n * distance * distance))
    failures = () if ks_p > share else (f"the empirical distribution is {distance:.4g} from the claimed CDF "
                                        f"(p <= {ks_p:.3g})",)
    checks.append(PropertyCheck("distribution (Kolmogorov-Smirnov)", ks_p > share, share, 1, distance, failures,
                                f"sup |F_n - F| = {distance:.4g} over {n} {what}; DKW p <= {ks_p:.3g}"))
    checks.append(_omnibus(points, counts, n, law, share, what))
    checks.append(_tails(points, counts, n, law, share))
    return checks


def _omnibus(points: np.ndarray, counts: np.ndarray | None, n: int, law: ScalarLaw, share: float,
             what: str) -> PropertyCheck:
    stats = _stats()
    if isinstance(law, (Gaussian, Laplace)):
        name = "norm" if isinstance(law, Gaussian) else "laplace"
        spread = float(law.sigma) if isinstance(law, Gaussian) else float(law.scale)
        result = stats.cramervonmises(points, name, args=(0, spread))
        p = float(result.pvalue)
        failures = () if p > share else (f"Cramér-von Mises statistic {float(result.statistic):.4g} (p = {p:.3g})",)
        return PropertyCheck("distribution (Cramér-von Mises)", p > share, share, 1, float(result.statistic), failures,
                             f"Cramér-von Mises against the exact CDF over {n} {what}: "
                             f"{float(result.statistic):.4g}, p = {p:.3g}")
    from fractions import Fraction

    from reference.samplers.fit import MIN_EXPECTED, fit_to_counts

    assert counts is not None
    _, mass, _ = discrete_support(law, 40.0)
    if n * float(mass[len(mass) // 2]) < MIN_EXPECTED:
        return PropertyCheck("distribution (certified pmf)", True, share, 0, 0.0, (),
                             f"not applicable: {n} {what} give an expected count of 0 below "
                             f"{MIN_EXPECTED:g} (the scale, Kolmogorov-Smirnov and tail tests decide)")
    kind = "discrete-gaussian" if isinstance(law, DiscreteGaussian) else "discrete-laplace"
    parameter = law.sigma_squared if isinstance(law, DiscreteGaussian) else law.scale
    fit = fit_to_counts({int(v): int(c) for v, c in zip(points, counts)}, kind, Fraction(parameter), share)
    failures = () if fit.holds else (f"pmf fit: {fit.detail}",)
    return PropertyCheck("distribution (certified pmf)", fit.holds, share, 1, fit.statistic, failures,
                         f"p = {fit.p_value:.3g}; {fit.detail}")


def _tails(points: np.ndarray, counts: np.ndarray | None, n: int, law: ScalarLaw, share: float) -> PropertyCheck:
    stats = _stats()
    magnitude = np.abs(points.astype(np.float64))
    tests: list[tuple[str, float]] = []
    for q, probability in _tail_cells(law, n):
        beyond = magnitude > q
        observed = int(np.count_nonzero(beyond) if counts is None else np.sum(counts[beyond]))
        p = min(1.0, 2.0 * min(float(stats.binom.cdf(observed, n, probability)),
                               float(stats.binom.sf(observed - 1, n, probability))))
        tests.append((f"|x| > {q:.6g}: {observed} draws, expected {n * probability:.4g}", p))
    largest = float(np.max(magnitude)) if magnitude.size else 0.0
    largest_p = min(1.0, n * _tail_probability(law, largest)) if largest > 0 else 1.0
    tests.append((f"largest |x| = {largest:.6g}", largest_p))
    worst = min(tests, key=lambda item: item[1])
    combined = min(1.0, len(tests) * worst[1])
    failures = () if combined > share else (f"{worst[0]} (p = {worst[1]:.3g})",)
    return PropertyCheck("tails", combined > share, share, len(tests), worst[1], failures,
                         f"{len(tests)} tail tests; most significant: {worst[0]} (p = {worst[1]:.3g})")


def law_power(law: ScalarLaw, values: int, per_run: int, share: float,
              smallest_deviation: float) -> list[PowerLine]:
    """The detection probability of :func:`law_checks` at ``values`` values (``per_run`` a run) against a scale
    error of ``± smallest_deviation`` and every alternative of :func:`alternatives`, and the runs for 99%.

    Args:
        law: the claimed scalar law (:class:`Gaussian`, :class:`Laplace`, :class:`DiscreteGaussian` or :class:`DiscreteLaplace`).
        values: n, the number of values the checks see, an integer >= 1.
        per_run: the values each run contributes, an integer >= 1 (converts values needed into runs needed).
        share: the false-alarm probability of each group, in (0, 1).
        smallest_deviation: the relative scale error r > 0 to detect (σ or b off by a factor 1 ± r).

    Returns:
        One power line for the scale error (the worse of ±r), then one per named alternative.
    """
    stats = _stats()
    scale = ScaleTest(law, share)
    exact = isinstance(law, (Gaussian, Laplace))
    lines = [PowerLine(
        f"scale off by ±{smallest_deviation:.3g} (relative)",
        min(scale.power(values, smallest_deviation), scale.power(values, -smallest_deviation)),
        scale.values_needed(smallest_deviation, per_run),
        "exact law of the scale statistic" if exact else "normal approximation at the alternative")]
    cells = _tail_cells(law, values)
    for alternative in alternatives(law):
        distance = sup_distance(law, alternative.cdf)
        probability = ks_power(distance, values, share)
        needed = ks_runs(distance, share, per_run)
        method = "rigorous lower bound (Kolmogorov-Smirnov, DKW)"
        if "tails" in alternative.name and cells:
            # the tail counts see heavy tails sooner: exact binomial power of the first tail cell
            q, probability_null = cells[-1]
            other = float(1.0 - alternative.cdf(np.array([q]))[0] + alternative.cdf(np.array([-q - 1e-12]))[0])
            level = share / (len(cells) + 1)
            upper = float(stats.binom.isf(level / 2.0, values, probability_null))
            tail_power = float(stats.binom.sf(upper, values, other))
            if tail_power > probability:
                probability, method = tail_power, "exact binomial power of the tail count beyond " + f"{q:.4g}"
        lines.append(PowerLine(alternative.name, probability, needed, method))
    return lines
