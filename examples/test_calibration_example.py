"""Worked example (calibration audit): check a σ calibrator over a grid with ``reference.testing``.

``optimistic_sigma`` is a deliberately unsafe calibrator written for this example: the classical
Δ·sqrt(2 ln(1.25/δ))/ε with the factor 2 under the root dropped, the kind of slip that passes a unit test which
compares the implementation with itself. The audit checks every grid point against the exact Gaussian privacy
profile and lists the unsafe ones; the project's own ``sigma_exact`` passes everywhere.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from reference.privacy.gaussian import sigma_exact
from reference.testing import assert_calibration_safe

GRID = [(Fraction(e), Fraction(1, 10**k)) for e in ("1/10", "1/2", "1", "4") for k in (3, 6, 9)]


def optimistic_sigma(*, epsilon: Fraction, delta: Fraction, sensitivity_squared: Fraction) -> float:
    """The unsafe calibrator under test (floats, as a typical implementation)."""
    return math.sqrt(float(sensitivity_squared) * math.log(1.25 / float(delta))) / float(epsilon)


def test_the_optimistic_calibrator_is_caught_with_its_unsafe_points() -> None:
    with pytest.raises(AssertionError, match=r"unsafe at \d+ of 12 grid points") as caught:
        assert_calibration_safe(optimistic_sigma, GRID)
    assert "sigma/sigma* - 1 in [-" in str(caught.value)  # σ below the smallest safe one, in scientific notation


def test_the_exact_calibration_is_safe_everywhere() -> None:
    verdicts = assert_calibration_safe(lambda **named: sigma_exact(**named).sigma, GRID)
    assert len(verdicts) == len(GRID) and all(v.holds for v in verdicts)
