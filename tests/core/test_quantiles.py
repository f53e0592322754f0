"""The scipy.special tails and quantiles against scipy.stats (the reference they must reproduce) on many points."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from reference.core import quantiles


def _points(count: int, seed: int) -> list[tuple[float, float]]:
    """(probability, degrees of freedom) pairs: probabilities down to 1e-30, degrees of freedom up to 10^8."""
    rng = np.random.default_rng(seed)
    return [(float(rng.random()) ** float(rng.integers(1, 30)), float(rng.integers(1, 10 ** int(rng.integers(1, 9)))))
            for _ in range(count)]


def test_continuous_laws_equal_scipy_stats() -> None:
    for probability, dof in _points(600, 1):
        value = dof * (0.5 + probability)
        assert quantiles.chi_square_ppf(probability, dof) == stats.chi2.ppf(probability, dof)
        assert quantiles.chi_square_isf(probability, dof) == stats.chi2.isf(probability, dof)
        assert quantiles.chi_square_cdf(value, dof) == stats.chi2.cdf(value, dof)
        assert quantiles.chi_square_sf(value, dof) == stats.chi2.sf(value, dof)
        assert quantiles.gamma_ppf(probability, dof / 3) == stats.gamma.ppf(probability, dof / 3)
        assert quantiles.gamma_isf(probability, dof / 3) == stats.gamma.isf(probability, dof / 3)
        assert quantiles.gamma_cdf(value, dof) == stats.gamma.cdf(value, dof)
        assert quantiles.gamma_sf(value, dof) == stats.gamma.sf(value, dof)
        assert quantiles.normal_ppf(probability) == stats.norm.ppf(probability)
        assert quantiles.normal_isf(probability) == stats.norm.isf(probability)
        assert quantiles.normal_cdf(8 * probability - 4) == stats.norm.cdf(8 * probability - 4)
        assert quantiles.normal_sf(8 * probability - 4) == stats.norm.sf(8 * probability - 4)
        assert quantiles.student_sf(5 * probability, 5) == stats.t.sf(5 * probability, 5)


def test_binomial_tails_match_scipy_stats() -> None:
    rng = np.random.default_rng(2)
    for _ in range(600):
        trials = int(rng.integers(1, 10 ** int(rng.integers(1, 9))))
        success = float(rng.random()) ** float(rng.integers(1, 6))
        spread = math.sqrt(trials * success * (1 - success))
        count = int(np.clip(round(trials * success + 3 * spread * rng.normal()), -1, trials + 1))
        # the upper tail is the same function; the lower tail is the same quantity by another compiled routine
        assert quantiles.binomial_sf(count, trials, success) == stats.binom.sf(count, trials, success)
        assert quantiles.binomial_cdf(count, trials, success) == pytest.approx(
            stats.binom.cdf(count, trials, success), rel=1e-9, abs=1e-300)


def test_binomial_quantiles_equal_scipy_stats() -> None:
    rng = np.random.default_rng(3)
    for _ in range(600):
        trials = int(rng.integers(1, 10 ** int(rng.integers(1, 9))))
        success = float(rng.random()) ** float(rng.integers(1, 6))
        probability = float(rng.random()) ** float(rng.integers(1, 30))
        assert quantiles.binomial_ppf(probability, trials, success) == stats.binom.ppf(probability, trials, success)
        if probability > 1e-10:  # below, scipy.stats takes the upper quantile as ppf(1 − q): 1 − q rounds to 1
            assert quantiles.binomial_isf(probability, trials, success) == stats.binom.isf(
                probability, trials, success)


def test_binomial_quantiles_meet_their_definition_in_the_far_tail() -> None:
    # where scipy.stats cannot answer (q < 1e-16), the quantile is still the smallest count meeting its condition
    for trials, success, probability in [(396, 0.041, 1e-17), (25_780_312, 0.76, 2e-19), (1000, 0.5, 1e-30)]:
        high = quantiles.binomial_isf(probability, trials, success)
        assert stats.binom.sf(high, trials, success) <= probability < stats.binom.sf(high - 1, trials, success)
        low = quantiles.binomial_ppf(probability, trials, success)
        assert stats.binom.cdf(low - 1, trials, success) < probability <= stats.binom.cdf(low, trials, success)


def test_bad_probability_is_refused() -> None:
    with pytest.raises(ValueError, match="probability"):
        quantiles.binomial_ppf(1.5, 10, 0.5)
    with pytest.raises(ValueError, match="probability"):
        quantiles.binomial_isf(math.nan, 10, 0.5)
