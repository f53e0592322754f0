"""An assertion message of reference.testing leads with one line and lists at most a few points."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from reference.testing import assert_calibration_safe
from reference.testing.messages import MAX_POINTS, points_message


def test_points_beyond_the_limit_are_counted() -> None:
    assert points_message("bad at 5 points", ["a", "b", "c", "d", "e"]) == \
        "bad at 5 points\n  a\n  b\n  c\n  ... and 2 more"
    assert points_message("bad at 1 point", ["a"]) == "bad at 1 point\n  a"


def half_sigma(*, epsilon: Fraction, delta: Fraction, sensitivity_squared: Fraction) -> float:
    """Half the classical σ: unsafe at every grid point (σ/σ* < 1 wherever the classical σ is near σ*)."""
    return 0.5 * math.sqrt(2 * float(sensitivity_squared) * math.log(1.25 / float(delta))) / float(epsilon)


def test_an_unsafe_calibrator_fails_with_one_line_then_a_few_points() -> None:
    grid = [(Fraction(1, denominator), Fraction(1, 10**6)) for denominator in range(2, 10)]
    with pytest.raises(AssertionError) as caught:
        assert_calibration_safe(half_sigma, grid)
    lines = str(caught.value).splitlines()
    assert lines[0] == "unsafe at 8 of 8 grid points (rtol = 0)"
    assert len(lines) == 1 + MAX_POINTS + 1 and lines[-1] == f"  ... and {8 - MAX_POINTS} more"
    assert all(line.startswith("  (epsilon=1/") for line in lines[1:-1])
