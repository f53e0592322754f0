"""CipTwoByTwo.v computes the Python objects: CIP Appendix D.3's 2 x 2 example.

Coq evaluates its construction (coefficient vectors on X, Y, Z, W with entries a + b√3 printed as pairs of
rationals): the cells' coefficients, the Gram matrix of the cells and the squared norms of the nine rectangles
(cells, row sums, column sums, total). They are compared with the coefficients printed in the paper, with the
cell covariance of Algorithm 4 at depths (1, 1) (``reference.cip.exact.two_dim.covariance``, built from its own
construction) and with C_1 ⊗ C_1 multiplied out here from ``reference.cip.exact.matrix.covariance(1)``, and with
the rectangle variances of ``reference.cip.exact.two_dim.rectangle_variances``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from reference_verification.coq import Build, run_snippet
from reference_verification.coq_text import parse_coq_value

from reference.cip.exact import matrix as cip_matrix
from reference.cip.exact import two_dim as cip_two_dim

HEADER = """From mathcomp Require Import all_ssreflect ssralg ssrint rat.
From Reference Require Import CipTwoByTwo.
Local Open Scope ring_scope.
Definition frac (q : rat) := (numq q, denq q).
Definition fq3 (x : q3) := (frac x.1, frac x.2).
"""

#: The paper's printed cells: coefficients on (X, Y, Z, W) as (rational part, coefficient of √3).
QUARTER, ZERO = Fraction(1, 4), Fraction(0)
PRINTED = [
    [(QUARTER, ZERO), (ZERO, QUARTER), (ZERO, QUARTER), (3 * QUARTER, ZERO)],
    [(QUARTER, ZERO), (ZERO, -QUARTER), (ZERO, QUARTER), (-3 * QUARTER, ZERO)],
    [(QUARTER, ZERO), (ZERO, QUARTER), (ZERO, -QUARTER), (-3 * QUARTER, ZERO)],
    [(QUARTER, ZERO), (ZERO, -QUARTER), (ZERO, -QUARTER), (3 * QUARTER, ZERO)],
]
#: Equation (2): X0 = X/2 + (√3/2) Y, X1 = X/2 − (√3/2) Y.
HALF = Fraction(1, 2)
EQUATION_2 = [[(HALF, ZERO), (ZERO, HALF), (ZERO, ZERO), (ZERO, ZERO)],
              [(HALF, ZERO), (ZERO, -HALF), (ZERO, ZERO), (ZERO, ZERO)]]


def _q3(pair: Any) -> tuple[Fraction, Fraction]:
    """a + b√3 as Coq prints the pair of fractions ((a_num, a_den), (b_num, b_den)): ``(a_num, a_den, (b_num, b_den))``."""
    a_num, a_den, (b_num, b_den) = pair
    return Fraction(a_num, a_den), Fraction(b_num, b_den)


def test_two_by_two_agrees_with_python(coq_build: Build) -> None:
    commands = [
        "Eval vm_compute in [seq [seq fq3 c | c <- u] | u <- cells].",
        "Eval vm_compute in [seq [seq fq3 (gram a b) | b <- cells] | a <- cells].",
        # rectangles: row i (the 2 cells of row i), column j, total, as (row node, column node) of the trees
        "Eval vm_compute in [seq fq3 (gram u u) | u <- row_sums ++ column_sums ++ [:: total]].",
        "Eval vm_compute in [seq [seq fq3 c | c <- u] | u <- column_sums].",
        "Eval vm_compute in fq3 (gram X0 X1).",
    ]
    printed = run_snippet(coq_build, HEADER + "\n".join(commands) + "\n", "CipTwoByTwo")
    values: list[Any] = [parse_coq_value(chunk) for chunk in printed.split("\n     = ") if chunk.strip()]
    assert len(values) == len(commands), printed[:500]
    cells, gram, sums, columns, cross = values

    assert [[_q3(c) for c in cell] for cell in cells] == PRINTED
    assert [[_q3(c) for c in column] for column in columns] == EQUATION_2
    assert _q3(cross) == (-HALF, ZERO)

    coq_gram = [[_q3(entry) for entry in row] for row in gram]
    assert all(root == 0 for row in coq_gram for _, root in row)  # every covariance is rational
    one_dim = cip_matrix.covariance(1)
    kron = [[one_dim[i // 2][j // 2] * one_dim[i % 2][j % 2] for j in range(4)] for i in range(4)]
    construction = cip_two_dim.covariance(1, 1)
    for i in range(4):
        for j in range(4):
            assert coq_gram[i][j][0] == kron[i][j] == construction[i][j]
    assert [list(row) for row in one_dim] == [[1, -HALF], [-HALF, 1]]

    rectangles = cip_two_dim.rectangle_variances(1, 1)
    whole, first, second = (0, 0), (1, 0), (1, 1)
    expected = [rectangles[first, whole], rectangles[second, whole], rectangles[whole, first],
                rectangles[whole, second], rectangles[whole, whole]]
    assert [_q3(pair) for pair in sums] == [(value, ZERO) for value in expected]
    assert all(value == 1 for value in rectangles.values()) and len(rectangles) == 9
