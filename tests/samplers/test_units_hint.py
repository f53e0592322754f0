"""The discrete samplers' fit names a units error: samples of variance σ⁴ offered as σ² (a variance passed as a
standard deviation), and the reverse."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from reference.core.randomness import SeededRandomBits
from reference.core.units import units_hint
from reference.samplers import exact
from reference.samplers.fit import fit_to_distribution


def test_variance_passed_as_standard_deviation_is_named() -> None:
    # a user meant σ = 4 (σ² = 16) but drew with σ² = 16 while declaring σ² = 4: variance ≈ 16 = 4²
    samples = np.asarray(exact.discrete_gaussian(Fraction(16), source=SeededRandomBits(5), size=4000), dtype=np.int64)
    fit = fit_to_distribution(samples, "discrete-gaussian", 4)
    assert fit.verdict == "fails"
    assert "a variance passed as a standard deviation?" in fit.summary()
    # the right declaration: no hint
    assert "passed as" not in fit_to_distribution(samples, "discrete-gaussian", 16).summary()


def test_hint_rule() -> None:
    assert units_hint(16.5, 4) is not None and "variance passed as a standard deviation" in str(units_hint(16.5, 4))
    assert "standard deviation passed as a variance" in str(units_hint(2.05, 4))
    assert units_hint(4.1, 4) is None
    assert units_hint(1.0, 1.05) is None  # σ² near 1: the three cannot be told apart
