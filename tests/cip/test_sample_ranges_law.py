"""The exact law of CIP Appendix E.5's range sampler (``sample_ranges_law``) against the count of ranges and the
numeric sampler's draws."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from reference.cip.exact import errors as cip_exact_errors
from reference.cip.numeric import errors as cip_numeric_errors


@pytest.mark.parametrize("length", [1, 2, 3, 7, 20])
def test_law_is_uniform_on_the_ranges(length: int) -> None:
    """Every range [first, last] (counted by ``range_bounds``, independently of the scheme) has 1/#ranges."""
    law = cip_exact_errors.sample_ranges_law(length)
    bounds = list(cip_exact_errors.range_bounds(length))
    assert sorted(law) == bounds
    assert set(law.values()) == {Fraction(1, len(bounds))}
    assert sum(law.values()) == 1


def test_numeric_draws_follow_the_law() -> None:
    """Chi-square of 30000 seeded draws of ``sample_ranges`` (n = 5) against the exact law; false-alarm probability
    1e-9 (the seed is fixed, so the outcome is too)."""
    length, draws = 5, 30000
    law = cip_exact_errors.sample_ranges_law(length)
    ranges = cip_numeric_errors.sample_ranges(length, draws, rng=20261128)
    keys = sorted(law)
    observed = np.array([np.sum((ranges[:, 0] == first) & (ranges[:, 1] == last)) for first, last in keys])
    expected = np.array([float(law[key]) * draws for key in keys])
    assert observed.sum() == draws
    assert stats.chisquare(observed, expected).pvalue > 1e-9


@pytest.mark.parametrize("length", [0, -1, 513, 2.5, "3", True])
def test_bad_length(length: object) -> None:
    with pytest.raises((ValueError, TypeError), match="length"):
        cip_exact_errors.sample_ranges_law(length)  # type: ignore[arg-type]
