"""KaryDigitCount.v counts the Python objects: the per-level offset-digit totals and S(T) behind Theorem 1.1.

Coq evaluates its definitions (``Eval vm_compute``) for odd arities and horizons, at Algorithm 2's height and at a
taller tree; the printed values are read back and compared with the Python exact layer (``offset_digits``,
``height_for_horizon``, ``algorithm_2_mse_digit_programme``), so the digit count as proved speaks about the digits
and the ε²·MSE = 2h²S(T)/T the oracle computes. The proved bounds are then evaluated on those values.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from reference_verification.coq import Build, run_snippet
from reference_verification.coq_text import parse_coq_value

from reference.kary import digits as kary_digits
from reference.kary.mse import algorithm_2_mse_digit_programme

HEADER = """From mathcomp Require Import all_ssreflect.
From Reference Require Import KaryHeight KaryDigitCount.
(* at a height (Algorithm 2's for T when extra = 0): F, the height, each level's digit total and S(T) *)
Definition table (arity horizon extra : nat) :=
  let h := height arity (arity %/ 2) horizon + extra in
  (window_l1 arity, h, [seq level_sum arity h l horizon | l <- iota 0 h], digit_sum arity h horizon).
"""

#: (arity, horizon, levels above Algorithm 2's height): full trees ((k^h − 1)/2), truncated ones, T = 1, taller trees.
CASES = [(3, 1, 0), (3, 4, 0), (3, 13, 0), (3, 40, 0), (3, 29, 1), (5, 12, 0), (5, 37, 0), (5, 20, 2), (7, 24, 0),
         (7, 50, 0), (9, 40, 0), (11, 60, 1)]


@pytest.fixture(scope="module")
def coq_tables(coq_build: Build) -> dict[tuple[int, int, int], object]:
    commands = [f"Eval vm_compute in table {arity} {horizon} {extra}." for arity, horizon, extra in CASES]
    printed = run_snippet(coq_build, HEADER + "\n".join(commands) + "\n", "KaryDigitCountTables")
    values = [parse_coq_value(chunk) for chunk in printed.split("\n     = ") if chunk.strip()]
    assert len(values) == len(CASES), printed[:500]
    return dict(zip(CASES, values))


@pytest.mark.parametrize(("arity", "horizon", "extra"), CASES)
def test_digit_totals_agree_with_python(
    coq_tables: dict[tuple[int, int, int], object], arity: int, horizon: int, extra: int
) -> None:
    mass, height, levels, total = coq_tables[(arity, horizon, extra)]  # type: ignore[misc]
    half = arity // 2
    assert mass == sum(abs(a) for a in range(-half, half + 1)) == half * (half + 1)
    minimal = kary_digits.height_for_horizon(arity=arity, horizon=horizon, offset=True)
    assert height == minimal + extra
    vectors = [kary_digits.offset_digits(t, arity, height) for t in range(1, horizon + 1)]
    assert levels == [sum(abs(vector[level]) for vector in vectors) for level in range(height)]
    assert total == sum(levels) == sum(abs(d) for vector in vectors for d in vector)
    if extra == 0:
        # Theorem 1.1's quantity: ε²·MSE of Algorithm 2 is 2h²S(T)/T
        assert Fraction(2 * height**2 * total, horizon) == algorithm_2_mse_digit_programme(arity, horizon)
    # the proved bounds, evaluated: one level, all levels, and at Algorithm 2's height
    for level, level_total in enumerate(levels):
        assert abs(arity * level_total - mass * horizon) <= arity * mass * arity**level
    assert (arity - 1) * abs(arity * total - height * mass * horizon) <= arity * mass * (arity**height - 1)
    if extra == 0:
        assert abs(arity * total - height * mass * horizon) <= arity**2 * (half + 1) * horizon
