"""CipCascade.v computes the Python objects: Algorithm 1's values as linear forms in its draws.

Coq evaluates ``split_coef`` (the coefficient of node (l, p) on draw d, Y's coefficient counted in units of √3/2;
``node_split`` proves the real coefficient is that times √3/2 for d >= 1) for every node of depths 0..4. The values
are compared with

* the numeric sampler's linear map: ``reference.cip.numeric.cascade.cascade_tree`` run on unit draws (a scripted
  generator), whose draw order the Coq numbering copies (0 = X_root, 2^l + q = Y at node (l, q)), within a few
  float roundings;
* the exact layer: the Gram matrix of the coefficient vectors under unit-variance draws, computed here in Fractions
  (x_a x_b + 3/4 Σ y_a y_b), equals ``reference.cip.exact.cascade.node_covariance`` (built from Algorithm 1's
  covariance recursion, not from coefficients) on all nodes, and ``reference.cip.exact.matrix.covariance``
  (Definition 3.1) on the leaves: Proposition 3.5 and the node variances, evaluated;
* Equation (2): the depth-1 forms are X/2 ± (√3/2)Y, with variances 1, covariance −1/2 and sum X.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from reference_verification.cip.checks.cascade import ScriptedGenerator
from reference_verification.coq import Build, run_snippet
from reference_verification.coq_text import parse_coq_value

from reference.cip.exact import cascade as cip_cascade
from reference.cip.exact import matrix as cip_matrix
from reference.cip.numeric.cascade import cascade_tree

HEADER = """From mathcomp Require Import all_ssreflect ssralg ssrint rat.
From Reference Require Import CipCascade.
Local Open Scope ring_scope.
Definition frac (q : rat) := (numq q, denq q).
"""

DEPTHS = (0, 1, 2, 3, 4)
#: Variance of a draw in the split representation: X_root has 1, a Y counted in units of √3/2 has 3/4.
Y_VARIANCE = Fraction(3, 4)

Forms = list[list[Fraction]]


def _coq_forms(coq_build: Build, depth: int) -> Forms:
    """Coq's coefficient vectors of all 2^(depth+1) − 1 nodes in level order, on the 2^depth draws."""
    command = (f"Eval vm_compute in [seq [seq [seq frac (split_coef l p d) | d <- iota 0 (2 ^ {depth})] "
               f"| p <- iota 0 (2 ^ l)] | l <- iota 0 {depth + 1}].")
    printed = run_snippet(coq_build, HEADER + command + "\n", f"CipCascade{depth}")
    levels = parse_coq_value(printed)
    forms: Forms = []
    for level, row in enumerate(levels):  # type: ignore[arg-type]
        assert len(row) == 2**level
        forms.extend([Fraction(numerator, denominator) for numerator, denominator in form] for form in row)
    return forms


def _gram(forms: Forms) -> list[list[Fraction]]:
    def dot(first: list[Fraction], second: list[Fraction]) -> Fraction:
        rest = sum((a * b for a, b in zip(first[1:], second[1:])), Fraction(0))
        return first[0] * second[0] + Y_VARIANCE * rest

    return [[dot(first, second) for second in forms] for first in forms]


def _numeric_map(depth: int) -> np.ndarray:
    """The sampler's map from its 2^depth standard normals to all node values (σ = 1), one column per draw."""
    draws = 1 << depth
    columns = []
    for draw in range(draws):
        unit = np.zeros(draws)
        unit[draw] = 1.0
        script = ScriptedGenerator(unit)
        columns.append(cascade_tree(depth, 1.0, script))
        assert script.used == draws
    return np.column_stack(columns)


@pytest.mark.parametrize("depth", DEPTHS)
def test_coefficients_are_the_samplers_linear_map(coq_build: Build, depth: int) -> None:
    forms = _coq_forms(coq_build, depth)
    weights = np.array([1.0] + [math.sqrt(3) / 2] * ((1 << depth) - 1))
    coq_map = np.array([[float(value) for value in form] for form in forms]) * weights
    numeric = _numeric_map(depth)
    assert coq_map.shape == numeric.shape == ((2 << depth) - 1, 1 << depth)
    # a few roundings per entry along a root-to-leaf path of at most `depth` splits
    assert np.max(np.abs(coq_map - numeric)) <= 8 * (depth + 2) * np.finfo(float).eps


@pytest.mark.parametrize("depth", DEPTHS)
def test_gram_matrix_is_the_exact_covariance(coq_build: Build, depth: int) -> None:
    gram = _gram(_coq_forms(coq_build, depth))
    nodes = cip_cascade.node_covariance(depth)
    assert [tuple(row) for row in gram] == [tuple(row) for row in nodes]
    assert all(gram[index][index] == 1 for index in range(len(gram)))  # every node has variance σ² (σ = 1)
    first = (1 << depth) - 1
    leaves = [tuple(row[first:]) for row in gram[first:]]
    assert leaves == [tuple(row) for row in cip_matrix.covariance(depth)]  # Proposition 3.5, evaluated


def test_depth_one_is_equation_2(coq_build: Build) -> None:
    _, left, right = _coq_forms(coq_build, 1)
    # X/2 ± (√3/2) Y: the Y coefficient ±1 in units of √3/2
    assert left == [Fraction(1, 2), Fraction(1)] and right == [Fraction(1, 2), Fraction(-1)]
    gram = _gram([left, right])
    assert gram == [[1, Fraction(-1, 2)], [Fraction(-1, 2), 1]]
    assert [a + b for a, b in zip(left, right)] == [1, 0]  # X0 + X1 = X
    # Algorithm 1's law at any variances (Var X, Var Y) = (vx, vy): Var X0 = vx/4 + 3/4 vy, Cov = vx/4 − 3/4 vy
    for vx, vy in ((Fraction(2), Fraction(5)), (Fraction(1, 3), Fraction(7))):
        def cov(first: list[Fraction], second: list[Fraction]) -> Fraction:
            return first[0] * second[0] * vx + first[1] * second[1] * Y_VARIANCE * vy  # noqa: B023

        assert cov(left, left) == cov(right, right) == vx / 4 + Fraction(3, 4) * vy
        assert cov(left, right) == vx / 4 - Fraction(3, 4) * vy
