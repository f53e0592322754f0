"""Hypothesis strategies for the parameters of each mechanism (exact rationals where the oracle wants them).

Needs ``hypothesis`` (the ``test`` extra). Sizes are kept small by default so that exact oracles stay fast.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

from reference.core.options import Parity, check_option


def epsilons(low: Fraction = Fraction(1, 100), high: Fraction = Fraction(10)) -> st.SearchStrategy[Fraction]:
    """ε in [low, high] as short exact rationals.

    Args:
        low: the smallest ε drawn, an exact rational (default 1/100; values <= 0 are never drawn).
        high: the largest ε drawn, an exact rational >= ``low`` (default 10).
    """
    return st.fractions(min_value=low, max_value=high, max_denominator=1000).filter(lambda value: value > 0)


def deltas(low_exponent: int = 12, high_exponent: int = 2) -> st.SearchStrategy[Fraction]:
    """δ = 10**-k for k in [high_exponent, low_exponent] (exact).

    Args:
        low_exponent: the largest k, so the smallest δ = 10**-low_exponent (default 12).
        high_exponent: the smallest k, so the largest δ = 10**-high_exponent (default 2; at most ``low_exponent``).
    """
    return st.integers(min_value=high_exponent, max_value=low_exponent).map(lambda k: Fraction(1, 10**k))


def depths(maximum: int = 8) -> st.SearchStrategy[int]:
    """CIP depth D (n = 2**D leaves).

    Args:
        maximum: the largest depth drawn, an integer >= 0 (default 8: 256 leaves); depths start at 0.
    """
    return st.integers(min_value=0, max_value=maximum)


def arities(parity: Parity = "any", maximum: int = 21) -> st.SearchStrategy[int]:
    """KARY arity k >= 2 (odd ones start at 3), of the requested parity.

    Args:
        parity: ``"any"`` (default), ``"odd"`` (3, 5, ...) or ``"even"`` (2, 4, ...); anything else is a ValueError.
        maximum: the largest arity drawn, an integer >= 2 (>= 3 for odd; default 21).
    """
    check_option(parity, "parity", Parity)
    values = st.integers(min_value=2, max_value=maximum)
    if parity == "odd":
        return values.filter(lambda k: k % 2 == 1 and k >= 3)
    if parity == "even":
        return values.filter(lambda k: k % 2 == 0)
    return values


def horizons(maximum: int = 200) -> st.SearchStrategy[int]:
    """Stream length T >= 1.

    Args:
        maximum: the largest T drawn, an integer >= 1 (default 200).
    """
    return st.integers(min_value=1, max_value=maximum)


def hierarchies(max_attributes: int = 3, max_categories: int = 3) -> st.SearchStrategy[tuple[int, ...]]:
    """TDA category counts |X_1|, ..., |X_d| (each >= 2, as the paper asks).

    Args:
        max_attributes: the most attributes d drawn, an integer >= 1 (default 3); at least one is drawn.
        max_categories: the most categories per attribute, an integer >= 2 (default 3).
    """
    return st.lists(st.integers(min_value=2, max_value=max_categories), min_size=1, max_size=max_attributes).map(tuple)


def rhos(low: Fraction = Fraction(1, 100), high: Fraction = Fraction(10)) -> st.SearchStrategy[Fraction]:
    """A zCDP budget ρ > 0 as a short exact rational.

    Args:
        low: the smallest ρ drawn, an exact rational (default 1/100; values <= 0 are never drawn).
        high: the largest ρ drawn, an exact rational >= ``low`` (default 10).
    """
    return st.fractions(min_value=low, max_value=high, max_denominator=1000).filter(lambda value: value > 0)
