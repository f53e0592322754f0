"""Certified comparisons decide from the exact endpoints and raise only when the threshold is inside;
printed bounds are rounded outward (the printed interval still encloses the value)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.core.certified import CertifiedReal, UndecidedComparisonError, format_directed

THIRD = CertifiedReal(Fraction(1, 3), Fraction(1, 2))


def test_decided_comparisons() -> None:
    assert THIRD < 1 and THIRD <= "1/2" and THIRD > "1/4" and Fraction(1, 3) <= THIRD
    assert not (THIRD > 1) and not (THIRD < "1/3") and not (THIRD >= "0.6")


@pytest.mark.parametrize("threshold", ["0.4", Fraction(5, 12)])
def test_a_threshold_inside_the_enclosure_is_undecided(threshold: str | Fraction) -> None:
    for compare in (THIRD.__lt__, THIRD.__le__, THIRD.__gt__, THIRD.__ge__):
        with pytest.raises(UndecidedComparisonError, match="undecided"):
            compare(threshold)


def test_float_is_the_nearest_float_to_the_midpoint() -> None:
    assert float(THIRD) == 5 / 12
    assert float(CertifiedReal.exact(Fraction(1, 10))) == 0.1


def test_directed_rounding_examples() -> None:
    assert format_directed(Fraction(1, 3), 3, upward=True) == "0.334"
    assert format_directed(Fraction(1, 3), 3, upward=False) == "0.333"
    assert format_directed(Fraction(-1, 3), 3, upward=True) == "-0.333"
    assert format_directed(Fraction(-1, 3), 3, upward=False) == "-0.334"
    assert format_directed(Fraction(9999, 10000), 3, upward=True) == "1.00"


@given(
    st.fractions(min_value=Fraction(-10**9), max_value=Fraction(10**9)).filter(lambda v: v != 0),
    st.integers(1, 20),
)
def test_directed_rounding_is_on_the_promised_side(value: Fraction, digits: int) -> None:
    up = Fraction(format_directed(value, digits, upward=True))
    down = Fraction(format_directed(value, digits, upward=False))
    assert down <= value <= up
    # and within one unit in the last printed place
    assert up - down <= abs(value) * Fraction(2, 10 ** (digits - 1))


def test_bounds_enclose() -> None:
    wide = CertifiedReal(Fraction(0), Fraction(1, 3))
    text = wide.bounds(4)
    low, high = (Fraction(part) for part in text.strip("[]").split(", "))
    assert low <= wide.lower and high >= wide.upper
    assert wide.as_json("up")["decimal"] is None and str(wide) == wide.bounds()


def test_the_errors_are_one_class_each_wherever_imported_from() -> None:
    # the command line catches them from the flint-free module; the certified code raises them from its own
    from reference.core import certified, certified_errors

    with pytest.raises(certified_errors.UndecidedComparisonError):
        _ = THIRD < "2/5"  # 2/5 lies inside [1/3, 1/2]
    assert certified.EnclosureRangeError is certified_errors.EnclosureRangeError
    assert issubclass(certified_errors.EnclosureRangeError, ValueError)
