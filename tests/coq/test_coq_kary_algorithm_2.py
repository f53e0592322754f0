"""KaryAlgorithm2.v computes the Python objects: Algorithm 2's noise indices, Algorithm 3's signed vertices, the
relabelling between them, the noise lifetimes, the live noise values and the incremental updates.

Coq evaluates its definitions (``Eval vm_compute``) on a grid of arities and horizons at Algorithm 2's height; the
printed values are read back and compared with the Python exact layer (``algorithm_2_noise_indices``,
``algorithm_3_signed_vertices``, ``algorithm_2_vertex``, ``noise_lifetime``, ``live_noise_count``), so
Propositions 4.3 and 4.10 and Lemmas 4.12 and 4.14 (with KaryDistinctNoise.v's D <= kT) as proved speak about the
objects the oracle computes.
"""

from __future__ import annotations

import pytest
from reference_verification.coq import Build, run_snippet
from reference_verification.coq_text import parse_coq_value

from reference.kary import digits as kary_digits
from reference.kary import noise_indices
from reference.kary import tree as kary_tree

HEADER = """From mathcomp Require Import all_ssreflect ssralg ssrint.
From Reference Require Import KaryHeight KaryUsedVertices KaryAlgorithm2.
(* at Algorithm 2's height for T (top digit k/2): for t = 1..T the noise indices, the signed vertices, the noise
   index of each vertex and the number of live values; then the updates and the number of distinct values *)
Definition table (arity horizon : nat) :=
  let top := arity %/ 2 in let h := height arity top horizon in
  (h, [seq (noise_indices arity top h t, signed_vertices_of arity top h t,
            map (noise_index arity top) (vertices_of arity top h t), size (live arity top h horizon t))
      | t <- iota 1 horizon],
   updates arity top h horizon, size (used_indices arity top h horizon)).
"""

#: (arity, horizon): odd arities (Definition 3.8) and even ones (Definition C.1), full and truncated trees.
CASES = [(3, 4), (3, 13), (3, 10), (5, 12), (5, 40), (7, 24), (9, 30), (2, 7), (4, 10), (6, 21)]


@pytest.fixture(scope="module")
def coq_tables(coq_build: Build) -> dict[tuple[int, int], object]:
    commands = [f"Eval vm_compute in table {arity} {horizon}." for arity, horizon in CASES]
    printed = run_snippet(coq_build, HEADER + "\n".join(commands) + "\n", "KaryAlgorithm2Tables")
    values = [parse_coq_value(chunk) for chunk in printed.split("\n     = ") if chunk.strip()]
    assert len(values) == len(CASES), printed[:500]
    return dict(zip(CASES, values))


def _python_updates(arity: int, horizon: int, height: int) -> int:
    """Additions and removals of an incremental noise sum over t = 1..T (time 0 uses no noise value)."""
    before: set[int] = set()
    total = 0
    for t in range(1, horizon + 1):
        now = set(kary_digits.algorithm_2_noise_indices(time=t, arity=arity, height=height))
        total += len(now - before) + len(before - now)
        before = now
    return total


@pytest.mark.parametrize(("arity", "horizon"), CASES)
def test_algorithm_2_objects_agree_with_python(
    coq_tables: dict[tuple[int, int], object], arity: int, horizon: int
) -> None:
    height, rows, updates, distinct = coq_tables[(arity, horizon)]  # type: ignore[misc]
    assert height == kary_digits.height_for_horizon(arity=arity, horizon=horizon, offset=True)
    times_using: dict[int, list[int]] = {}
    for t, (indices, signed, relabelled, live) in enumerate(rows, start=1):
        python_indices = kary_digits.algorithm_2_noise_indices(time=t, arity=arity, height=height)
        assert tuple(indices) == python_indices, (arity, horizon, t)
        python_signed = kary_tree.algorithm_3_signed_vertices(time=t, arity=arity, height=height)
        assert [(1 if added else -1, level, index) for added, (level, index) in signed] == list(python_signed)
        # Proposition 4.3 evaluated: Algorithm 2's index of each of Algorithm 3's vertices, and its sign, are the
        # Python algorithm_2_vertex of that index
        assert relabelled == indices
        for p, (added, (level, index)) in zip(indices, signed):
            assert noise_indices.algorithm_2_vertex(index=p, arity=arity) == (level, index, 1 if added else -1)
        for p in indices:
            times_using.setdefault(p, []).append(t)
        rows[t - 1] = live  # type: ignore[index]
    lives = rows
    # Proposition 4.10: the times using each value are one interval, Python's noise_lifetime
    for p, times in times_using.items():
        assert times == list(range(times[0], times[-1] + 1)), (arity, horizon, p)
        assert noise_indices.noise_lifetime(index=p, arity=arity, horizon=horizon) == (times[0], times[-1])
    simulation = noise_indices.live_noise_count(arity=arity, horizon=horizon)
    # Lemma 4.12: the most values alive at once, and the proved bound h * top (h(k − 1)/2 for odd k)
    assert max(lives) == simulation.maximum_live  # type: ignore[type-var]
    assert distinct == simulation.distinct_indices == len(times_using)
    assert simulation.maximum_live <= height * (arity // 2) == simulation.proof_bound
    # Lemma 4.14: the updates, each value added once and removed at most once
    assert updates == _python_updates(arity, horizon, height)
    assert updates <= 2 * distinct
    # Lemma 4.14's count (KaryDistinctNoise.v): every index the Python walk uses lies in [1, capacity(h)], so
    # D <= capacity(h(T)) <= kT, and the updates are at most 2kT
    capacity = kary_digits.offset_capacity(arity, height)
    assert all(1 <= p <= capacity for p in times_using), (arity, horizon)
    assert distinct <= capacity <= arity * horizon
    assert updates <= 2 * arity * horizon
