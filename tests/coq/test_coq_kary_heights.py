"""KaryHeight.v and KaryUsedVertices.v compute the Python objects: heights, capacities, walks, R's rows and columns.

Coq evaluates its definitions (``Eval vm_compute``) on a grid of arities and horizons; the printed values are read
back and compared with the Python exact layer (``height_for_horizon``, ``capacity``, the vertices of Algorithms 1
and 3, ``used_vertices``, ``sensitivities``), so the theorems speak about the objects the oracle computes.
"""

from __future__ import annotations

import pytest
from reference_verification.coq import Build, run_snippet
from reference_verification.coq_text import parse_coq_value

from reference.kary import digits as kary_digits
from reference.kary import tree as kary_tree

HEADER = """From mathcomp Require Import all_ssreflect ssralg ssrint.
From Reference Require Import KaryHeight KaryUsedVertices.
"""

ARITIES = (2, 3, 4, 5, 6, 7)
#: Horizons 1..HORIZONS for the heights (every height jump up to arity 7, height 3 or more).
HORIZONS = 120


def _top(arity: int, subtraction: bool) -> int:
    """The largest digit: k − 1 for standard digits (Algorithm 1), k // 2 for offset digits (Algorithm 3)."""
    return arity // 2 if subtraction else arity - 1


def _evaluate(coq_build: Build, commands: list[str], name: str) -> list[object]:
    printed = run_snippet(coq_build, HEADER + "\n".join(commands) + "\n", name)
    values = [parse_coq_value(chunk) for chunk in printed.split("\n     = ") if chunk.strip()]
    assert len(values) == len(commands), printed[:500]
    return values


def test_heights_and_capacities_agree_with_python(coq_build: Build) -> None:
    """[height] is the Python height_for_horizon on every (arity, T), and [capacity] is the Python capacity."""
    cases = [(arity, sub) for arity in ARITIES for sub in (False, True)]
    commands = []
    for arity, sub in cases:
        top = _top(arity, sub)
        commands.append(f"Eval vm_compute in [seq height {arity} {top} t | t <- iota 1 {HORIZONS}].")
        tallest = kary_digits.height_for_horizon(arity, HORIZONS, offset=sub)
        commands.append(f"Eval vm_compute in [seq capacity {arity} {top} h | h <- iota 1 {tallest}].")
    values = _evaluate(coq_build, commands, "KaryHeights")
    for index, (arity, sub) in enumerate(cases):
        heights, capacities = values[2 * index], values[2 * index + 1]
        assert heights == [kary_digits.height_for_horizon(arity, t, offset=sub) for t in range(1, HORIZONS + 1)]
        tallest = kary_digits.height_for_horizon(arity, HORIZONS, offset=sub)
        assert capacities == [kary_tree.capacity(arity, h, subtraction=sub) for h in range(1, tallest + 1)]
        # the proved characterisation, read on the printed values: T fits at h(T), not at h(T) − 1
        for t, h in zip(range(1, HORIZONS + 1), heights):  # type: ignore[call-overload]
            assert t <= capacities[h - 1] and (h == 1 or capacities[h - 2] < t)  # type: ignore[index]


#: (arity, horizon, subtraction): standard and offset digits, odd and even arity, full and truncated trees.
USED_CASES = [
    (2, 7, False), (2, 5, True), (3, 8, False), (3, 4, True), (3, 13, True), (3, 10, True),
    (4, 15, False), (4, 10, True), (5, 24, False), (5, 12, True), (6, 20, True), (7, 24, True),
]


@pytest.mark.parametrize(("arity", "horizon", "subtraction"), USED_CASES)
def test_used_vertices_agree_with_python(coq_build: Build, arity: int, horizon: int, subtraction: bool) -> None:
    """Per output the walk visits Python's vertices in Python's order; the used set, every column count of R and
    the ℓ1 sensitivity (proved equal to the height) are Python's."""
    top = _top(arity, subtraction)
    height = kary_digits.height_for_horizon(arity, horizon, offset=subtraction)
    walks, used, columns, l1, coq_height, taller = _evaluate(coq_build, [
        f"Eval vm_compute in [seq vertices_of {arity} {top} {height} t | t <- iota 1 {horizon}].",
        f"Eval vm_compute in used {arity} {top} {height} {horizon}.",
        f"Eval vm_compute in [seq column_count {arity} {top} {height} {horizon} l | l <- iota 1 {horizon}].",
        f"Eval vm_compute in l1_sensitivity {arity} {top} (height {arity} {top} {horizon}) {horizon}.",
        f"Eval vm_compute in height {arity} {top} {horizon}.",
        f"Eval vm_compute in l1_sensitivity {arity} {top} (height {arity} {top} {horizon} + 1) {horizon}.",
    ], f"KaryUsed{arity}x{horizon}{int(subtraction)}")
    assert coq_height == height
    for t, walk in zip(range(1, horizon + 1), walks):  # type: ignore[call-overload]
        if subtraction:
            python = [(level, index) for _, level, index in kary_tree.algorithm_3_signed_vertices(t, arity, height)]
        else:
            python = list(kary_tree.algorithm_1_vertices(t, arity, height))
        assert [tuple(vertex) for vertex in walk] == python, (t, walk, python)
    python_used = kary_tree.used_vertices(arity, height, subtraction=subtraction, horizon=horizon)
    assert sorted(tuple(vertex) for vertex in used) == list(python_used)  # type: ignore[attr-defined]
    found = kary_tree.sensitivities(arity, height, subtraction=subtraction, horizon=horizon)
    assert tuple(columns) == found.column_counts  # type: ignore[call-overload]
    assert l1 == found.l1 == height
    # one level taller (the Python accepts any height that holds T): the top level is unused, ℓ1 stays h(T)
    assert taller == kary_tree.sensitivities(arity, height + 1, subtraction=subtraction, horizon=horizon).l1 == height
