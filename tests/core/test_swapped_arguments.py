"""The exact numbers of an audit cannot be swapped silently: passed by position they are refused, passed by name
the Gaussian check and the Gaussian audit answer the same question and say which one they answered."""

from __future__ import annotations

from fractions import Fraction

import pytest

from reference import audit_gaussian
from reference.privacy.gaussian import check_gaussian


@pytest.mark.parametrize("oracle", [check_gaussian, audit_gaussian])
def test_positional_exact_numbers_are_a_type_error(oracle: object) -> None:
    with pytest.raises(TypeError, match="positional argument"):
        oracle(3, "1/2", "1/100", "1/4")  # type: ignore[operator]


def test_named_exact_numbers_give_one_stated_claim() -> None:
    named = {"sigma": 3, "epsilon": "1/2", "delta": "1/100", "sensitivity_squared": "1/4"}
    checked = check_gaussian(**named)
    audited = audit_gaussian(**named)
    # both read the same (ε, δ) at the same σ and Δ², and say so
    assert (checked.sigma, checked.epsilon, checked.delta, checked.sensitivity_squared) == (
        Fraction(3), Fraction(1, 2), Fraction(1, 100), Fraction(1, 4)
    )
    assert audited.claim == "(1/2, 1/100)-DP" and audited.details["sigma"] == "3"
    assert audited.details["sigma_exact_certificate"]["sensitivity_squared"] == "1/4"
    assert checked.summary().startswith("(1/2, 1/100)-DP holds at sigma=3.0")
    # σ = 3 is more than enough for Δ² = 1/4 at (1/2, 1/100): both hold, with the same certified δ(ε)
    assert checked.holds and audited.holds
    assert checked.delta_at_sigma is not None and audited.delta_at_epsilon is not None
    assert checked.delta_at_sigma.upper >= audited.delta_at_epsilon.lower
    assert audited.delta_at_epsilon.upper >= checked.delta_at_sigma.lower


def test_the_old_reading_of_the_audit_is_a_different_claim() -> None:
    # what audit_gaussian(3, "1/2", "1/100", "1/4") used to ask: (1/100, 1/4)-DP at Δ² = 1/2 — now it must be said
    old_reading = audit_gaussian(sigma=3, sensitivity_squared="1/2", epsilon="1/100", delta="1/4")
    assert old_reading.claim == "(1/100, 1/4)-DP" and old_reading.claim != audit_gaussian(
        sigma=3, epsilon="1/2", delta="1/100", sensitivity_squared="1/4"
    ).claim
