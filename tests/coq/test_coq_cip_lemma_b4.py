"""CipLemmaB4.v computes the Python objects: the covariance of noise sums over disjoint leaf sets.

Coq evaluates ``set_covariance`` (Σ_(i ∈ S1, j ∈ S2) C_D(i, j), CipMatrix.v's ``cov``; rationals printed as
numerator/denominator pairs) for seeded disjoint leaf lists at depths 0..3, and the values are compared with the same
double sum over the Python exact layer's C_depth (``reference.cip.exact.matrix.covariance``) and over the leaf
covariance of Cascade Sampling (``reference.cip.exact.cascade.leaf_covariance``); the proved signs (<= 0, and < 0
for two non-empty lists) are evaluated on them, beside a positive sum over overlapping lists (the disjointness
hypothesis is needed).
"""

from __future__ import annotations

import random
from fractions import Fraction

from reference_verification.coq import Build, run_snippet
from reference_verification.coq_text import parse_coq_value

from reference.cip.exact import cascade as cip_cascade
from reference.cip.exact import matrix as cip_matrix

HEADER = """From mathcomp Require Import all_ssreflect ssralg ssrint rat.
From Reference Require Import CipMatrix CipLemmaB4.
Local Open Scope ring_scope.
Definition frac (q : rat) := (numq q, denq q).
"""


def _cases() -> list[tuple[int, list[int], list[int]]]:
    generator = random.Random(20261128)
    cases: list[tuple[int, list[int], list[int]]] = [(0, [0], []), (1, [0], [1]), (2, [0, 1], [2, 3]), (2, [0], [0])]
    for _ in range(16):
        depth = generator.randint(1, 3)
        leaves = list(range(2**depth))
        generator.shuffle(leaves)
        cut = generator.randint(1, len(leaves) - 1)
        first = leaves[:cut][: generator.randint(1, cut)]
        second = leaves[cut:][: generator.randint(1, len(leaves) - cut)]
        cases.append((depth, first, second))
    return cases


def _coq_nats(values: list[int]) -> str:
    return "[:: " + "; ".join(f"{value}%N" for value in values) + "]"


def _double_sum(matrix: object, first: list[int], second: list[int]) -> Fraction:
    return sum((matrix[i][j] for i in first for j in second), Fraction(0))  # type: ignore[index]


def test_set_covariances_agree_with_python(coq_build: Build) -> None:
    cases = _cases()
    commands = [f"Eval vm_compute in frac (set_covariance {depth} {_coq_nats(first)} {_coq_nats(second)})."
                for depth, first, second in cases]
    printed = run_snippet(coq_build, HEADER + "\n".join(commands) + "\n", "CipLemmaB4Cases")
    values = [parse_coq_value(chunk) for chunk in printed.split("\n     = ") if chunk.strip()]
    assert len(values) == len(cases), printed[:500]
    for (depth, first, second), (numerator, denominator) in zip(cases, values):  # type: ignore[misc]
        value = Fraction(numerator, denominator)
        assert value == _double_sum(cip_matrix.covariance(depth), first, second)
        assert value == _double_sum(cip_cascade.leaf_covariance(depth), first, second)
        if not set(first) & set(second):  # the proved signs, evaluated
            assert value <= 0
            assert value < 0 or not first or not second
    assert Fraction(*values[3]) == 1  # type: ignore[misc]  # overlapping lists: the diagonal entry, positive
