"""CipNodeVariance.v and CipPositiveDefinite.v compute the Python objects: node variances and the form xᵀ C_D x.

Coq evaluates its definitions (``Eval vm_compute``; rationals printed as numerator/denominator pairs) for depths
0..3 and the values are compared with the Python exact layer: ``node_variances`` (sums over the dense C_depth),
the diagonal of Cascade Sampling's node covariance, and xᵀ C_depth x on seeded rational vectors, whose proved lower
bound 2^−D‖x‖² is the smallest eigenvalue of the Python ``spectrum``.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from reference_verification.coq import Build, run_snippet
from reference_verification.coq_text import parse_coq_value

from reference.cip.exact import cascade as cip_cascade
from reference.cip.exact import matrix as cip_matrix

HEADER = """From mathcomp Require Import all_ssreflect ssralg ssrint rat.
From Reference Require Import CipMatrix CipNodeVariance CipPositiveDefinite.
Local Open Scope ring_scope.
Definition frac (q : rat) := (numq q, denq q).
Definition vec (xs : seq rat) := fun k => nth 0 xs k.
"""

DEPTHS = (0, 1, 2, 3)


def _evaluate(coq_build: Build, commands: list[str], name: str) -> list[object]:
    printed = run_snippet(coq_build, HEADER + "\n".join(commands) + "\n", name)
    values = [parse_coq_value(chunk) for chunk in printed.split("\n     = ") if chunk.strip()]
    assert len(values) == len(commands), printed[:500]
    return values


def _fraction(pair: object) -> Fraction:
    numerator, denominator = pair  # type: ignore[misc]
    return Fraction(numerator, denominator)


@pytest.mark.parametrize("depth", DEPTHS)
def test_node_variances_agree_with_python(coq_build: Build, depth: int) -> None:
    """Every node's variance as Coq sums C_D's block equals the Python dense sum and Cascade Sampling's."""
    (table,) = _evaluate(coq_build, [
        f"Eval vm_compute in [seq [seq frac (node_variance {depth} l p) | p <- iota 0 (2 ^ l)] | l <- iota 0 {depth + 1}]."
    ], f"CipNodes{depth}")
    python = cip_matrix.node_variances(depth)
    cascade = cip_cascade.node_covariance(depth)
    for level, row in enumerate(table):  # type: ignore[arg-type]
        assert len(row) == 2**level
        for position, pair in enumerate(row):
            value = _fraction(pair)
            assert value == python[(level, position)]
            assert value == cascade[2**level - 1 + position][2**level - 1 + position]
            assert value == 1  # the proved theorem, evaluated


def _vectors(depth: int) -> list[list[Fraction]]:
    """The all-ones vector (the bound's equality case), one alternating in sign, and seeded rational vectors (small
    entries: Coq's rationals compute with unary naturals)."""
    size = 2**depth
    generator = random.Random(20261125 + depth)
    vectors = [[Fraction(1)] * size, [Fraction((-1) ** index) for index in range(size)]]
    for _ in range(4):
        vectors.append([Fraction(generator.randint(-3, 3), generator.randint(1, 3)) for _ in range(size)])
    return vectors


def _coq_vector(vector: list[Fraction]) -> str:
    return "[:: " + "; ".join(f"(({value.numerator})%:~R / ({value.denominator})%:~R)" for value in vector) + "]"


@pytest.mark.parametrize("depth", DEPTHS)
def test_quadratic_form_agrees_with_python(coq_build: Build, depth: int) -> None:
    """xᵀ C_D x computed by Coq equals the Python value; it is at least 2^−D‖x‖² with equality at the all-ones
    vector, and 2^−D is the smallest eigenvalue of the Python spectrum."""
    vectors = _vectors(depth)
    values = _evaluate(coq_build, [
        f"Eval vm_compute in frac (quad_computed {depth} (vec {_coq_vector(vector)}))." for vector in vectors
    ], f"CipQuad{depth}")
    matrix = cip_matrix.covariance(depth)
    size = 2**depth
    bound = Fraction(1, size)
    for vector, pair in zip(vectors, values):
        python = sum((vector[i] * matrix[i][j] * vector[j] for i in range(size) for j in range(size)), Fraction(0))
        assert _fraction(pair) == python
        assert python >= bound * sum(value * value for value in vector)
    assert _fraction(values[0]) == bound * size  # the all-ones vector attains the bound
    assert min(cip_matrix.spectrum(depth)) == bound
    assert cip_matrix.is_positive_definite(depth)
