"""The scale test of a whole-law audit: the likelihood-ratio statistic of a scale alternative, its false-alarm
bound and its power.

For every law of :mod:`reference.audit.samples.laws` a scale change ``b → b (1 + r)`` changes the log likelihood
ratio only through one sum, the *Neyman–Pearson statistic* ``S = Σ w(x_i)``: ``w(x) = x²/σ²`` for the Gaussian
families (continuous and discrete), ``w(x) = |x|/b`` for the Laplace families. So the most powerful test of a
scale alternative is a test on ``S``, and this module tests ``S`` two-sided:

* continuous Gaussian: ``S ~ chi-square(n)`` exactly (and ``(1 + r)² chi-square(n)`` under the alternative);
* continuous Laplace: ``|x|/b ~ Exp(1)``, so ``S ~ Gamma(n)`` exactly (``(1 + r) Gamma(n)`` under the alternative);
* discrete laws: a rigorous Chernoff bound. With ``M`` chosen so that ``n P[|X| > M] <= level / 100``, on the
  event that no draw exceeds ``M`` the sum equals that of ``w`` under the pmf truncated at ``M``; its cumulant
  generating function ``K(λ)`` is computed from the pmf (binary64, ``logsumexp``), and
  ``P[S >= n t] <= exp(-n I(t))`` with the rate ``I(t) = sup_λ (λ t − K(λ))`` (likewise below). The critical
  values solve ``n I(t) = log(2 / level')`` through the parametrisation ``t = K'(λ)``, ``I = λ K'(λ) − K(λ)``.
  The power is the normal approximation of ``S`` at the alternative (its mean and variance from the
  alternative's pmf): stated as an approximation, and checked by seeded simulation in the tests.

:func:`lrt_runs` gives the Neyman–Pearson test's own runs (one-sided, at the whole ``alpha``) for a simple scale
alternative: the statistical limit the audit's runs are compared with (benchmarks/bench_law_power.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from reference.audit.samples.laws import DiscreteGaussian, DiscreteLaplace, Gaussian, Laplace, ScalarLaw

# the tails scipy.stats evaluates, from scipy.special (importing scipy.stats costs about a second)
from reference.core import quantiles as tails

#: The detection probability a stated power is computed for.
POWER = 0.99
#: Runs beyond which "runs needed" is not searched (reported as more than this).
MAX_RUNS = 10**13
#: Spreads (σ or t) of an alternative's pmf summed for its moments, Gaussian and Laplace: the mass beyond, times
#: ``w(x)``, is below e^-60 of what is kept (x²/2σ² = 72 at 12σ; |x|/t = 64 at 64t, the weight's growth included)
MOMENT_REACH = {"gaussian": 12.0, "laplace": 64.0}
_SQRT2 = math.sqrt(2.0)




@lru_cache(maxsize=32)
def discrete_support(law: DiscreteGaussian | DiscreteLaplace, reach: float) -> tuple[np.ndarray, np.ndarray, float]:
    """The integers ``-M..M`` (``M`` the ``reach`` in units of the scale, at least 8), their pmf and the mass
    beyond ``M`` (binary64, normalised over a range twice as wide, beyond which the mass is below ``2**-52`` of
    what is kept)."""
    spread = math.sqrt(float(law.sigma_squared)) if isinstance(law, DiscreteGaussian) else float(law.scale)
    limit = max(8, math.ceil(reach * spread) + 2)
    wide = np.arange(-2 * limit, 2 * limit + 1, dtype=np.float64)
    if isinstance(law, DiscreteGaussian):
        log_mass = -wide * wide / (2.0 * float(law.sigma_squared))
    else:
        log_mass = -np.abs(wide) / float(law.scale)
    mass = np.exp(log_mass - np.max(log_mass))
    mass /= float(np.sum(mass))
    keep = slice(limit, 3 * limit + 1)
    return wide[keep], mass[keep], float(np.sum(mass[:limit]) + np.sum(mass[3 * limit + 1:]))


def statistic_weight(law: ScalarLaw, values: np.ndarray) -> np.ndarray:
    """``w(x)`` of the Neyman–Pearson scale statistic (module docstring), in units of the claimed scale.

    Args:
        law: the claimed scalar law (:class:`Gaussian`, :class:`Laplace`, :class:`DiscreteGaussian` or :class:`DiscreteLaplace`).
        values: the values x, a float array of any shape.

    Returns:
        ``x² / σ²`` (Gaussian laws; σ² the discrete Gaussian's parameter) or ``|x| / b`` (Laplace laws), elementwise
        (``inf`` where x² overflows).
    """
    with np.errstate(over="ignore"):  # a value beyond the float range squared: inf, which the test rejects
        if isinstance(law, (Gaussian, DiscreteGaussian)):
            variance = float(law.sigma) ** 2 if isinstance(law, Gaussian) else float(law.sigma_squared)
            return np.asarray(np.square(values) / variance)
        return np.asarray(np.abs(values) / float(law.scale))


def _logsumexp(values: np.ndarray) -> float:
    top = float(np.max(values))
    return top + math.log(float(np.sum(np.exp(values - top))))


@lru_cache(maxsize=32)
def _folded(law: DiscreteGaussian | DiscreteLaplace, level: float) -> tuple[np.ndarray, np.ndarray, float]:
    """The pmf of ``|X|`` up to ``M`` with ``MAX_RUNS · P[|X| > M] <= level / 100`` (as ``w(|x|)`` and log mass), and
    ``P[|X| > M]``."""
    tail = level / (100.0 * MAX_RUNS)
    reach = math.sqrt(2.0 * math.log(2.0 / tail)) + 1.0 if isinstance(law, DiscreteGaussian) else math.log(
        2.0 / tail) + 1.0
    support, mass, outside = discrete_support(law, reach)
    half = support >= 0
    folded = np.where(support[half] > 0, 2.0 * mass[half], mass[half])
    keep = folded > 0
    return statistic_weight(law, support[half][keep]), np.log(folded[keep]), outside


@dataclass(frozen=True)
class ScaleTest:
    """The two-sided test of ``S = Σ w(x)`` over ``n`` values of ``law`` at ``level`` (module docstring)."""

    law: ScalarLaw
    level: float

    # ------------------------------------------------------------------------------ the law of S / n

    def _cgf(self, values: int) -> tuple[np.ndarray, np.ndarray, float]:
        """Weights ``w`` (of ``x >= 0``), their log pmf (``x`` and ``−x`` together) and the truncated mass
        ``n P[|X| > M]`` (discrete laws; ``M`` fixed for up to :data:`MAX_RUNS` values at this level)."""
        assert isinstance(self.law, (DiscreteGaussian, DiscreteLaplace))
        weight, log_mass, outside = _folded(self.law, self.level)
        return weight, log_mass, values * outside

    def _side(self, values: int, share: float, upper: bool) -> float:
        """The critical value of ``S / n`` on one side at level ``share`` (``±inf`` when none can be reached)."""
        if isinstance(self.law, Gaussian):
            return (tails.chi_square_isf if upper else tails.chi_square_ppf)(share, values) / values
        if isinstance(self.law, Laplace):
            return (tails.gamma_isf if upper else tails.gamma_ppf)(share, values) / values
        from scipy import optimize

        weight, log_mass, _ = self._cgf(values)
        target = math.log(1.0 / share) / values
        sign = 1.0 if upper else -1.0

        def rate(step: float) -> float:
            lam = sign * step
            tilted = log_mass + lam * weight
            normaliser = _logsumexp(tilted)
            slope = float(np.sum(np.exp(tilted - normaliser) * weight))
            return lam * slope - normaliser - target

        high = 1.0
        while rate(high) < 0:
            high *= 2.0
            if high > 1e9:
                return math.inf if upper else -math.inf
        step = float(optimize.brentq(rate, 0.0, high, xtol=1e-13, rtol=1e-11))
        tilted = log_mass + sign * step * weight
        return float(np.sum(np.exp(tilted - _logsumexp(tilted)) * weight))

    def critical(self, values: int) -> tuple[float, float]:
        """The acceptance interval of ``S / n`` (each side at ``level / 2``, the truncation's mass taken off).

        Args:
            values: n, the number of values summed, an integer >= 1.

        Returns:
            (lower, upper) critical values of the mean weight ``S / n``.
        """
        return _critical(self, values)

    def _critical(self, values: int) -> tuple[float, float]:
        """The acceptance interval of ``S / n`` (each side at ``level / 2``, the truncation's mass taken off)."""
        share = self.level / 2.0
        if isinstance(self.law, (DiscreteGaussian, DiscreteLaplace)):
            share -= self._cgf(values)[2] / 2.0
        return self._side(values, share, False), self._side(values, share, True)

    def p_value(self, total: float, values: int) -> float:
        """A valid p-value of the observed ``S = total`` (two-sided).

        Args:
            total: the observed statistic ``S = Σ w(x)`` (:func:`statistic_weight` summed), >= 0.
            values: n, the number of values summed, an integer >= 1.

        Returns:
            The p-value, in [0, 1] (exact for the continuous laws, a Chernoff bound plus the truncated mass for the
            discrete ones).
        """
        if isinstance(self.law, Gaussian):
            low, high = tails.chi_square_cdf(total, values), tails.chi_square_sf(total, values)
            return min(1.0, 2.0 * min(low, high))
        if isinstance(self.law, Laplace):
            low, high = tails.gamma_cdf(total, values), tails.gamma_sf(total, values)
            return min(1.0, 2.0 * min(low, high))
        from scipy import optimize

        weight, log_mass, truncated = self._cgf(values)
        mean = total / values
        expected = float(np.sum(np.exp(log_mass) * weight))
        sign = 1.0 if mean > expected else -1.0
        if mean == expected:
            return 1.0
        if mean >= float(np.max(weight)) or mean <= float(np.min(weight)):
            return min(1.0, truncated)  # beyond the truncated support: only the truncation explains it

        def slope(step: float) -> float:
            tilted = log_mass + sign * step * weight
            return float(np.sum(np.exp(tilted - _logsumexp(tilted)) * weight)) - mean

        high = 1.0
        while sign * slope(high) < 0:
            high *= 2.0
        step = float(optimize.brentq(lambda s: sign * slope(s), 0.0, high, xtol=1e-14, rtol=1e-12))
        exponent = sign * step * mean - _logsumexp(log_mass + sign * step * weight)
        return min(1.0, 2.0 * math.exp(-values * exponent) + truncated)

    # ------------------------------------------------------------------------------ power

    def power(self, values: int, relative_error: float) -> float:
        """The probability of rejecting when the scale is ``(1 + relative_error)`` times the claimed one (exact
        for the continuous laws, the normal approximation for the discrete ones).

        Args:
            values: n, the number of values tested, an integer >= 1.
            relative_error: r, the relative scale error of the alternative (the scale is ``1 + r`` times the claim;
                negative for a smaller scale; ``r <= −1`` gives probability 1).

        Returns:
            The rejection probability, in [0, 1].
        """
        factor = 1.0 + relative_error
        if factor <= 0:
            return 1.0
        low, high = self.critical(values)
        if isinstance(self.law, Gaussian):
            return (tails.chi_square_sf(values * high / factor**2, values)
                    + tails.chi_square_cdf(values * low / factor**2, values))
        if isinstance(self.law, Laplace):
            return tails.gamma_sf(values * high / factor, values) + tails.gamma_cdf(values * low / factor, values)
        assert isinstance(self.law, (DiscreteGaussian, DiscreteLaplace))
        mean, variance = self.alternative_moments(factor)
        spread = math.sqrt(variance / values)
        if spread == 0:
            return 1.0 if not low <= mean <= high else 0.0
        # the normal law's upper and lower tails through erfc (no scipy call: the bisections call this often)
        return 0.5 * (math.erfc((high - mean) / spread / _SQRT2) + math.erfc((mean - low) / spread / _SQRT2))

    def alternative_moments(self, factor: float) -> tuple[float, float]:
        """Mean and variance of ``w(X)`` (claimed units) when the scale is ``factor`` times the claimed one.

        Args:
            factor: the alternative's scale over the claimed one (σ² times ``factor²``, or the scale ``t`` times
                ``factor``), > 0.

        Returns:
            (mean, variance) of ``w(X)``, binary64.
        """
        assert isinstance(self.law, (DiscreteGaussian, DiscreteLaplace))
        gaussian = isinstance(self.law, DiscreteGaussian)
        claimed = float(self.law.sigma_squared) if isinstance(self.law, DiscreteGaussian) else float(self.law.scale)
        spread = (math.sqrt(claimed) if gaussian else claimed) * factor  # the alternative's σ or t
        # beyond MOMENT_REACH spreads the pmf times w(x) is below e^-60 of its peak: the moments do not see it
        limit = max(8, math.ceil(MOMENT_REACH["gaussian" if gaussian else "laplace"] * spread) + 2)
        support = np.arange(-limit, limit + 1, dtype=np.float64)
        log_mass = -support * support / (2.0 * spread * spread) if gaussian else -np.abs(support) / spread
        mass = np.exp(log_mass - np.max(log_mass))
        mass /= float(np.sum(mass))
        weight = support * support / claimed if gaussian else np.abs(support) / claimed
        mean = float(np.dot(mass, weight))
        return mean, float(np.dot(mass, (weight - mean) ** 2))

    def detected_error(self, values: int) -> float:
        """The smallest relative scale error ``r`` detected with probability :data:`POWER` both as ``1 + r`` and
        ``1 − r`` (bisection; ``inf`` when not even ``r`` = 1 is).

        Args:
            values: n, the number of values tested, an integer >= 1.

        Returns:
            r, within 2^-40.
        """
        if min(self.power(values, 1.0), self.power(values, -0.5)) < POWER:
            return math.inf
        low, high = 0.0, 1.0
        for _ in range(40):
            middle = (low + high) / 2
            if min(self.power(values, middle), self.power(values, -middle)) >= POWER:
                high = middle
            else:
                low = middle
        return high

    def values_needed(self, relative_error: float, per_run: int = 1) -> int | None:
        """The fewest runs (of ``per_run`` values; to within 1%) at which both ``1 ± relative_error`` are
        detected with probability :data:`POWER` (``None`` beyond :data:`MAX_RUNS`).

        Args:
            relative_error: r > 0, the relative scale error to detect both ways.
            per_run: the values each run contributes, an integer >= 1 (default 1: values, not runs).

        Returns:
            The runs needed, or ``None``.
        """
        return runs_needed(lambda runs: min(self.power(runs * per_run, relative_error),
                                            self.power(runs * per_run, -relative_error)) >= POWER)


@lru_cache(maxsize=4096)
def _critical(test: ScaleTest, values: int) -> tuple[float, float]:
    return test._critical(values)


def runs_needed(detected: Callable[[int], bool], start: int = 2) -> int | None:
    """The fewest runs (to within 1%) for which ``detected(runs)`` holds, monotone in the runs (doubling, then
    bisection); ``None`` beyond :data:`MAX_RUNS`.

    Args:
        detected: whether the deviation is detected at a run count; monotone (once true, true for more runs).
        start: the first run count tried, an integer >= 1 (default 2).

    Returns:
        A run count at most 1% above the fewest at which ``detected`` holds, or ``None``.
    """
    assert callable(detected)
    high = start
    while not detected(high):
        high *= 2
        if high > MAX_RUNS:
            return None
    low = high // 2
    while high - low > max(1, low // 100):
        middle = (low + high) // 2
        low, high = (low, middle) if detected(middle) else (middle, high)
    return high


def lrt_runs(law: ScalarLaw, relative_error: float, alpha: float, per_run: int = 1) -> int:
    """The runs the Neyman–Pearson test of ``law`` against the simple alternative ``scale × (1 + relative_error)``
    needs for power :data:`POWER` at level ``alpha`` (one-sided on ``S``; exact for the continuous laws, the
    normal approximation of ``S`` under both laws for the discrete ones).

    Args:
        law: the claimed scalar law (:class:`Gaussian`, :class:`Laplace`, :class:`DiscreteGaussian` or :class:`DiscreteLaplace`).
        relative_error: r, the alternative's relative scale error (scale ``1 + r`` times the claim), > 0.
        alpha: the test's false-alarm probability, in (0, 1).
        per_run: the values each run contributes, an integer >= 1 (default 1).

    Returns:
        The runs needed for power 99%.
    """
    factor = 1.0 + relative_error

    def detected(runs: int) -> bool:
        values = runs * per_run
        if isinstance(law, Gaussian):
            return tails.chi_square_sf(tails.chi_square_isf(alpha, values) / factor**2, values) >= POWER
        if isinstance(law, Laplace):
            return tails.gamma_sf(tails.gamma_isf(alpha, values) / factor, values) >= POWER
        test = ScaleTest(law, alpha)
        mean0, variance0 = test.alternative_moments(1.0)
        mean1, variance1 = test.alternative_moments(factor)
        cut = mean0 + tails.normal_isf(alpha) * math.sqrt(variance0 / values)
        return tails.normal_sf((cut - mean1) / math.sqrt(variance1 / values)) >= POWER

    found = runs_needed(detected, 1)
    assert found is not None
    return found
