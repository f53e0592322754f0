"""floor(log10(x)) of exact rationals, against the digit count of a decimal expansion (derived independently)."""

from __future__ import annotations

import random
from fractions import Fraction

from reference.core.validate import floor_log10


def by_digits(value: Fraction) -> int:
    """floor(log10(value)) from the integer part's digits (>= 1) or the leading zeros after the point (< 1)."""
    whole = value.numerator // value.denominator
    if whole:
        return len(str(whole)) - 1
    zeros, scaled = 0, value
    while scaled < 1:
        scaled *= 10
        zeros += 1
    return -zeros


def test_floor_log10_matches_the_digit_count() -> None:
    generator = random.Random(7)
    for _ in range(2000):
        value = Fraction(generator.randint(1, 10 ** generator.randint(1, 80)), generator.randint(1, 10 ** generator.randint(1, 80)))
        assert floor_log10(value) == by_digits(value)
    for value in (Fraction(1), Fraction(10), Fraction(1, 10), Fraction(99, 10), Fraction(10**400 - 1), Fraction(10**400)):
        assert floor_log10(value) == by_digits(value)


def test_floor_log10_of_a_million_bit_denominator() -> None:
    # 2**-(2**20) = 10**(-(2**20) log10 2) and (2**20) log10 2 = 315652.8...: floor is -315653
    assert floor_log10(Fraction(1, 1 << (1 << 20))) == -315653
