"""KaryMse.v computes the Python objects: Algorithms 1 and 2's noise counts and ε²·MSE = (1/T) Σ_t 2h² n(t).

Coq evaluates its definitions (``Eval vm_compute``; rationals as numerator/denominator pairs) for several arities
and horizons at each algorithm's height, and the values are compared with the Python exact layer: the number of
vertices (Algorithm 1) or noise values (Algorithm 2) output t sums with ``algorithm_1_vertices`` and
``algorithm_2_noise_indices``, the scaled MSE with ``algorithm_1_mse`` and ``algorithm_2_mse`` (which count by digit
sums, not by walks), and at the lemmas' horizons with ``lemma_3_5_closed_form`` and ``lemma_4_7_closed_form`` (the
proved identities, evaluated).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from reference_verification.coq import Build, run_snippet
from reference_verification.coq_text import parse_coq_value

from reference.kary.digits import algorithm_2_noise_indices, height_for_horizon
from reference.kary.mse import algorithm_1_mse, algorithm_2_mse, lemma_3_5_closed_form, lemma_4_7_closed_form
from reference.kary.tree import algorithm_1_vertices

HEADER = """From mathcomp Require Import all_ssreflect ssralg ssrint rat.
From Reference Require Import KaryUsedVertices KaryAlgorithm2 KaryMse.
Local Open Scope ring_scope.
Definition frac (q : rat) := (numq q, denq q).
Definition table (arity height horizon : nat) :=
  ([seq size (vertices_of arity arity.-1 height t) | t <- iota 1 horizon],
   frac (algorithm_1_scaled_mse arity height horizon)).
Definition table_2 (arity height horizon : nat) :=
  ([seq size (noise_indices arity (arity %/ 2) height t) | t <- iota 1 horizon],
   frac (algorithm_2_scaled_mse arity height horizon)).
"""

#: (arity, horizon): full trees (k^h − 1) and truncated ones, T = 1.
CASES = [(2, 1), (2, 3), (2, 7), (2, 12), (3, 8), (3, 20), (3, 26), (4, 15), (5, 24), (5, 30), (7, 48)]


@pytest.fixture(scope="module")
def coq_tables(coq_build: Build) -> dict[tuple[int, int], object]:
    commands = [f"Eval vm_compute in table {arity} {height_for_horizon(arity, horizon, offset=False)} {horizon}."
                for arity, horizon in CASES]
    printed = run_snippet(coq_build, HEADER + "\n".join(commands) + "\n", "KaryMseTables")
    values = [parse_coq_value(chunk) for chunk in printed.split("\n     = ") if chunk.strip()]
    assert len(values) == len(CASES), printed[:500]
    return dict(zip(CASES, values))


@pytest.mark.parametrize(("arity", "horizon"), CASES)
def test_vertex_counts_and_scaled_mse_agree(coq_tables: dict[tuple[int, int], object], arity: int,
                                           horizon: int) -> None:
    counts, (numerator, denominator) = coq_tables[(arity, horizon)]  # type: ignore[misc]
    height = height_for_horizon(arity, horizon, offset=False)
    assert counts == [len(algorithm_1_vertices(t, arity, height)) for t in range(1, horizon + 1)]
    scaled = Fraction(numerator, denominator)
    assert scaled == algorithm_1_mse(arity, horizon)
    assert scaled == Fraction(2 * height**2 * sum(counts), horizon)
    if horizon == arity**height - 1:  # the lemma's horizon: the proved identity, evaluated
        assert scaled == lemma_3_5_closed_form(arity, height)


#: (odd arity, horizon) for Algorithm 2: full trees ((k^h − 1)/2) and truncated ones.
CASES_2 = [(3, 1), (3, 4), (3, 9), (3, 13), (5, 2), (5, 12), (5, 20), (7, 3), (7, 24), (9, 40)]


@pytest.fixture(scope="module")
def coq_tables_2(coq_build: Build) -> dict[tuple[int, int], object]:
    commands = [f"Eval vm_compute in table_2 {arity} {height_for_horizon(arity, horizon, offset=True)} {horizon}."
                for arity, horizon in CASES_2]
    printed = run_snippet(coq_build, HEADER + "\n".join(commands) + "\n", "KaryMseTables2")
    values = [parse_coq_value(chunk) for chunk in printed.split("\n     = ") if chunk.strip()]
    assert len(values) == len(CASES_2), printed[:500]
    return dict(zip(CASES_2, values))


@pytest.mark.parametrize(("arity", "horizon"), CASES_2)
def test_noise_counts_and_scaled_mse_of_algorithm_2_agree(coq_tables_2: dict[tuple[int, int], object], arity: int,
                                                          horizon: int) -> None:
    counts, (numerator, denominator) = coq_tables_2[(arity, horizon)]  # type: ignore[misc]
    height = height_for_horizon(arity, horizon, offset=True)
    assert counts == [len(algorithm_2_noise_indices(t, arity, height)) for t in range(1, horizon + 1)]
    scaled = Fraction(numerator, denominator)
    assert scaled == algorithm_2_mse(arity, horizon)
    assert scaled == Fraction(2 * height**2 * sum(counts), horizon)
    if horizon == (arity**height - 1) // 2:  # the lemma's horizon: the proved identity, evaluated
        assert scaled == lemma_4_7_closed_form(arity, height)
