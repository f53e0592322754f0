"""The proof programs of KARY Proposition 4.10 / Lemma 4.12 (space) and Lemma 4.14 (time) run, and fail on a
wrong constant; the bound they prove is compared with an independent count of balanced digits."""

from __future__ import annotations

import pytest
import sympy as sp
from reference_verification.core.proof import ProofFailure
from reference_verification.kary.proofs import lemma_4_12, lemma_4_14

ARITY = sp.Symbol("k", integer=True, positive=True)
HEIGHT = sp.Symbol("h", integer=True, positive=True)


def test_lemma_4_12_program_proves_the_printed_bound() -> None:
    record = lemma_4_12.prove()
    assert any(step.startswith("attained") for step in record.steps)


def test_lemma_4_12_program_fails_on_a_bound_above_the_tight_one() -> None:
    # h(k + 1)/2 is a valid upper bound but not the tight one: t = (k^h − 1)/2 keeps only h(k − 1)/2 values
    with pytest.raises(ProofFailure, match="attained"):
        lemma_4_12.prove(HEIGHT * (ARITY + 1) / 2)


def test_lemma_4_12_program_fails_on_a_bound_one_smaller() -> None:
    with pytest.raises(ProofFailure, match="stored"):
        lemma_4_12.prove(HEIGHT * (ARITY - 1) / 2 - 1)


def test_lemma_4_14_program_proves_and_fails_on_a_smaller_capacity_factor() -> None:
    assert lemma_4_14.prove().steps
    # (k^h − 1)/2 <= (k − 1)T fails at T = (k^(h−1) + 1)/2 once h >= 3: e.g. k = 3, h = 3: 13 > 2·5
    with pytest.raises(ProofFailure, match="capacity"):
        lemma_4_14.prove(ARITY - 1)
    with pytest.raises(ProofFailure, match="total"):  # a factor k² would not give O(kT)
        lemma_4_14.prove(ARITY**2)


def _balanced_digits(value: int, arity: int, height: int) -> list[int]:
    """Offset digits in −(k − 1)/2..(k − 1)/2 by repeated division (independent of reference.kary.digits)."""
    half = (arity - 1) // 2
    digits = []
    for _ in range(height):
        remainder = (value + half) % arity - half
        digits.append(remainder)
        value = (value - remainder) // arity
    assert value == 0
    return digits


@pytest.mark.parametrize(("arity", "height"), [(3, 1), (3, 4), (5, 3), (7, 2), (9, 3)])
def test_the_proved_bound_is_the_largest_digit_mass(arity: int, height: int) -> None:
    capacity = (arity**height - 1) // 2
    masses = [sum(map(abs, _balanced_digits(t, arity, height))) for t in range(1, capacity + 1)]
    assert max(masses) == height * (arity - 1) // 2 == masses[-1]
