"""The units tests of reference.audit.units on their own: which ratio names which error, and silence elsewhere."""

from __future__ import annotations

from fractions import Fraction

import pytest

from reference.audit.units import covariance_units_line, number


@pytest.mark.parametrize(("noise", "scale", "ratio", "question"), [
    # measured second moments of σ = 3 noise drawn with standard deviation 9 (σ² used as σ): 81/9 = 9, measured 8.9
    ("gaussian", Fraction(3), Fraction(8.9), "a variance passed as a standard deviation?"),
    # drawn with variance 3 (σ used as σ²): 3/9 = 1/3, measured 0.34
    ("gaussian", Fraction(3), Fraction(0.34), "a standard deviation passed as a variance?"),
    # Laplace b = 1/4 drawn at scale 4: variance 32 against 1/8, ratio 256 = 1/b⁴
    ("laplace", Fraction(1, 4), Fraction(250), "a rate 1/b"),
])
def test_named_errors(noise: str, scale: Fraction, ratio: Fraction, question: str) -> None:
    line = covariance_units_line(ratio, noise, scale, whose="the samples' second moments")
    assert line is not None and question in line and line.startswith("the samples' second moments is")


@pytest.mark.parametrize(("noise", "scale", "ratio"), [
    ("gaussian", Fraction(3), Fraction(1)),  # right units
    ("gaussian", Fraction(3), Fraction(5)),  # a scale error, not a units one
    ("gaussian", Fraction(21, 20), Fraction(21, 20) ** 2),  # σ² near 1: the units cannot be told apart
    ("laplace", Fraction(1, 4), Fraction(4)),
])
def test_silent_without_a_units_story(noise: str, scale: Fraction, ratio: Fraction) -> None:
    assert covariance_units_line(ratio, noise, scale, whose="x") is None


def test_number_drops_trailing_zeros() -> None:
    assert (number(Fraction(1, 2)), number(Fraction(1, 3)), number(Fraction(5))) == ("0.5", "0.333333", "5")
