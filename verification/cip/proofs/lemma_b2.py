"""CIP paper, Lemma B.2 (block recursion for C_j^-1), with Proposition B.1(3) and facts 1-3 of its proof.

Statement proved, for every K >= 1 (n = 2^K leaves, J_K the all-ones 2^K x 2^K matrix):

1. ``J_K C_K = C_K J_K = 2^-K J_K`` (equivalently Proposition B.1(3): every row sum of C_K is 2^-K, since
   entry (i, j) of C_K J_K is row sum i and C_K is symmetric);
2. ``J_K J_K = 2^K J_K``;
3. ``J_K C_K^-1 = C_K^-1 J_K = 2^K J_K``;
4. ``C_1^-1 = [[4/3, 2/3], [2/3, 4/3]]`` and
   ``C_{K+1}^-1 = [[C_K^-1 + J_K/3, 2J_K/3], [2J_K/3, C_K^-1 + J_K/3]]``.

Method: induction on K.

* Base case K = 1, exactly with Fractions (2 x 2 matrices).
* Induction step, symbolically for a symbolic positive integer K: C = C_K, Cinv = C_K^-1 and J = J_K are
  noncommutative sympy symbols; 2^K is the commutative power ``2**K``. The induction hypothesis is a set of
  rewrite rules (C Cinv = Cinv C = I, J C = C J = 2^-K J, J J = 2^K J, J Cinv = Cinv J = 2^K J). C_{K+1} is
  the 2 x 2 block matrix of Definition 3.1 (off-diagonal blocks -J / 2^(2K+1)), the claimed inverse is the
  block matrix above; both block products C_{K+1} M and M C_{K+1} are reduced by the rules to the block
  identity, so M = C_{K+1}^-1. Facts 1-3 at K+1 are shown the same way with J_{K+1} = [[J, J], [J, J]] and
  2^(K+1) = 2 * 2^K. Every rewrite replaces a product by an equal one under the hypothesis, so a block that
  reduces to its target equals it.

``prove`` takes the claimed coefficients (1/3, 2/3) and the off-diagonal exponent of Definition 3.1 as
parameters, so that the program can be shown to FAIL on a false claim (e.g. J/4 instead of J/3, or the OCR
exponent 2^K + 1).

Findings on the printed proof (Appendix B):

* In the computation of the off-diagonal blocks the printed proof writes "B = D"; it means B = C (the two
  off-diagonal blocks; A = D are the diagonal blocks). A typo; the computation itself is right
  (4 * 2^(-K-1)/3 - 2^(-K-1) - 2^(-K-1)/3 = 0).
* Fact 3 at level K follows from fact 1 at the same level alone (multiply J C = 2^-K J by C^-1 on the
  right); the printed proof derives it from fact 4. Both routes are checked here.
* The recursion also holds from C_0 = (1): [[1 + 1/3, 2/3], [2/3, 1 + 1/3]] is exactly the printed C_1^-1.
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from ...core.proof import SANITY, ProofRecord, print_record
from ...core.proof_links import mutation, proves
from .common import (
    PAPER,
    Block,
    Exponent,
    WordRewriter,
    block_matmul,
    blocks_equal,
    definition_exponent,
    fraction_matmul,
    fraction_matrix,
    ocr_exponent,
    off_diagonal_entry,
)

STATEMENT = (
    "For every depth K >= 1: J_K C_K = C_K J_K = 2^-K J_K (row sums 2^-K, Prop. B.1(3)), J_K J_K = 2^K J_K, "
    "J_K C_K^-1 = 2^K J_K, C_1^-1 = [[4/3, 2/3], [2/3, 4/3]] and "
    "C_{K+1}^-1 = [[C_K^-1 + J_K/3, 2J_K/3], [2J_K/3, C_K^-1 + J_K/3]]."
)


C1_INVERSE = fraction_matrix([[Fraction(4, 3), Fraction(2, 3)], [Fraction(2, 3), Fraction(4, 3)]])


def _base_case(record: ProofRecord) -> None:
    c1 = fraction_matrix([[1, Fraction(-1, 2)], [Fraction(-1, 2), 1]])
    c1_inverse = C1_INVERSE
    j1 = fraction_matrix([[1, 1], [1, 1]])
    identity = fraction_matrix([[1, 0], [0, 1]])
    half_j1 = [[Fraction(1, 2) * x for x in row] for row in j1]
    two_j1 = [[2 * x for x in row] for row in j1]
    record.step(
        "base K=1 (exact): C_1 @ [[4/3,2/3],[2/3,4/3]] = I and [[4/3,2/3],[2/3,4/3]] @ C_1 = I",
        fraction_matmul(c1, c1_inverse) == identity and fraction_matmul(c1_inverse, c1) == identity,
    )
    record.step(
        "base K=1 (exact), fact 1 / Prop. B.1(3): J_1 C_1 = C_1 J_1 = J_1/2 (row sums 1/2)",
        fraction_matmul(j1, c1) == half_j1 and fraction_matmul(c1, j1) == half_j1,
    )
    record.step("base K=1 (exact), fact 2: J_1 J_1 = 2 J_1", fraction_matmul(j1, j1) == two_j1)
    record.step(
        "base K=1 (exact), fact 3: J_1 C_1^-1 = C_1^-1 J_1 = 2 J_1",
        fraction_matmul(j1, c1_inverse) == two_j1 and fraction_matmul(c1_inverse, j1) == two_j1,
    )


def _induction_step(record: ProofRecord, diagonal: Fraction, off_diagonal: Fraction, exponent: Exponent) -> None:
    K = sp.Symbol("K", integer=True, positive=True)
    C, Cinv, J = sp.symbols("C Cinv J", commutative=False)
    t = sp.Integer(2) ** K  # 2^K, commutative
    one, zero = sp.Integer(1), sp.Integer(0)

    # fact 3 at level K from fact 1 at level K: rewrite J*C*Cinv two ways
    by_inverse = WordRewriter({(C, Cinv): (one, ())}).reduce(J * C * Cinv)
    by_fact_1 = WordRewriter({(J, C): (1 / t, (J,))}).reduce(J * C * Cinv)
    record.step(
        "fact 3 at K follows from fact 1 at K: J C Cinv = J (C Cinv = I) and = 2^-K J Cinv (J C = 2^-K J), "
        "hence J Cinv = 2^K J; symmetrically Cinv J = 2^K J",
        by_inverse == J and sp.expand(by_fact_1 - J * Cinv / t) == 0,
    )

    hypothesis = WordRewriter(
        {
            (C, Cinv): (one, ()),
            (Cinv, C): (one, ()),
            (J, C): (1 / t, (J,)),
            (C, J): (1 / t, (J,)),
            (J, J): (t, (J,)),
            (J, Cinv): (t, (J,)),
            (Cinv, J): (t, (J,)),
        }
    )
    a, b = sp.Rational(diagonal.numerator, diagonal.denominator), sp.Rational(
        off_diagonal.numerator, off_diagonal.denominator
    )
    c = off_diagonal_entry(K, exponent)  # -1/2^(2K+1) under Definition 3.1
    c_next: Block = [[C, c * J], [c * J, C]]
    claimed: Block = [[Cinv + a * J, b * J], [b * J, Cinv + a * J]]
    identity: Block = [[one, zero], [zero, one]]
    record.step(
        "induction step (symbolic in K; C_(K+1) = [[C, -J/2^e(K)], [-J/2^e(K), C]], "
        f"e(K) = {exponent(K)} read from Definition 3.1): "
        f"C_(K+1) @ [[Cinv + {diagonal} J, {off_diagonal} J], "
        f"[{off_diagonal} J, Cinv + {diagonal} J]] reduces to the block identity under the hypothesis "
        "(diagonal blocks A = D: I + CJ/3 - (2/3) 2^(-2K-1) JJ = I; off-diagonal blocks B = C: "
        "(2/3) CJ - 2^(-2K-1) J Cinv - 2^(-2K-1)/3 JJ = 0)",
        blocks_equal(hypothesis, block_matmul(c_next, claimed), identity),
    )
    record.step(
        "induction step (symbolic in K): the claimed matrix is also a left inverse, M @ C_(K+1) = I; "
        "so M = C_(K+1)^-1 (fact 4 at K+1)",
        blocks_equal(hypothesis, block_matmul(claimed, c_next), identity),
    )

    j_next: Block = [[J, J], [J, J]]
    t_next = 2 * t  # 2^(K+1)
    record.step(
        "induction step, fact 1 at K+1 (= Prop. B.1(3) at K+1: row sums of C_(K+1) are 2^-(K+1)): "
        "J_(K+1) C_(K+1) = C_(K+1) J_(K+1) = 2^-(K+1) J_(K+1), with J_(K+1) = [[J, J], [J, J]]",
        blocks_equal(hypothesis, block_matmul(j_next, c_next), [[x / t_next for x in row] for row in j_next])
        and blocks_equal(hypothesis, block_matmul(c_next, j_next), [[x / t_next for x in row] for row in j_next]),
    )
    record.step(
        "induction step, fact 2 at K+1: J_(K+1) J_(K+1) = 2^(K+1) J_(K+1)",
        blocks_equal(hypothesis, block_matmul(j_next, j_next), [[x * t_next for x in row] for row in j_next]),
    )
    record.step(
        "induction step, fact 3 at K+1: J_(K+1) C_(K+1)^-1 = C_(K+1)^-1 J_(K+1) = 2^(K+1) J_(K+1)",
        blocks_equal(hypothesis, block_matmul(j_next, claimed), [[x * t_next for x in row] for row in j_next])
        and blocks_equal(hypothesis, block_matmul(claimed, j_next), [[x * t_next for x in row] for row in j_next]),
    )


def _remark_from_c0(record: ProofRecord, diagonal: Fraction, off_diagonal: Fraction) -> None:
    c1_inverse = C1_INVERSE
    record.step(
        "remark (exact): the claimed recursion applied to C_0^-1 = (1) gives the printed C_1^-1, "
        f"[[1 + {diagonal}, {off_diagonal}], [{off_diagonal}, 1 + {diagonal}]] = [[4/3, 2/3], [2/3, 4/3]]",
        [[1 + diagonal, off_diagonal], [off_diagonal, 1 + diagonal]] == c1_inverse,
    )


def _sanity(record: ProofRecord) -> None:
    from reference.cip.exact import matrix as cip_matrix

    agree = all(
        cip_matrix.inverse_by_lemma_b2(depth) == cip_matrix.inverse_by_elimination(depth) for depth in range(0, 6)
    )
    record.step(SANITY + "inverse_by_lemma_b2 == inverse_by_elimination for depths 0..5", agree)
    sums = all(
        all(s == Fraction(1, 2**depth) for s in cip_matrix.row_sums(depth)) for depth in range(0, 7)
    )
    record.step(SANITY + "row sums of C_depth are 2^-depth for depths 0..6", sums)


@proves(
    "CIP",
    "Lemma B.2",
    mutations=(
        mutation("diagonal blocks C⁻¹ + J/4", diagonal_coefficient=Fraction(1, 4)),
        mutation("off-diagonal blocks J/3", off_diagonal_coefficient=Fraction(1, 3)),
        mutation("OCR exponent 2^i + 1", exponent=ocr_exponent),
    ),
)
def prove(
    diagonal_coefficient: Fraction = Fraction(1, 3),
    off_diagonal_coefficient: Fraction = Fraction(2, 3),
    exponent: Exponent = definition_exponent,
    sanity: bool = True,
) -> ProofRecord:
    """Prove Lemma B.2 with facts 1-3 (Proposition B.1(3)) for all K; raise ProofFailure if a step fails.

    ``diagonal_coefficient`` / ``off_diagonal_coefficient`` are the claimed multiples of J in the recursion
    (1/3 and 2/3 in the paper); ``exponent`` is e(i) in Definition 3.1's off-diagonal -J_i / 2^e(i).
    """
    record = ProofRecord(PAPER, "Lemma B.2 + Proposition B.1(3)", STATEMENT)
    _base_case(record)
    _induction_step(record, Fraction(diagonal_coefficient), Fraction(off_diagonal_coefficient), exponent)
    _remark_from_c0(record, Fraction(diagonal_coefficient), Fraction(off_diagonal_coefficient))
    if sanity:
        _sanity(record)
    # what Corollary B.3 reads off: the diagonal blocks of C_(K+1)^-1 are C_K^-1 + (this) J
    record.conclude("diagonal_coefficient", sp.Rational(diagonal_coefficient.numerator, diagonal_coefficient.denominator))
    return record


if __name__ == "__main__":
    print_record(prove())
