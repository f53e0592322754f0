"""CIP paper, Theorem 3.3: under Noise = σZ, Z ~ N(0, C_depth), every node of the binary tree (leaf or
internal) has distribution N(0, σ²), for every depth; with Proposition B.1(3) (row sums of C_l are 2^-l).

Method, for all depths:

* Row sums (Proposition B.1(3)). Each row of C_{l+1} is a row of C_l followed (or preceded) by 2^l entries
  equal to -2^-e(l) (Definition 3.1, e(l) = 2l + 1), so all row sums of C_{l+1} equal
  r_{l+1} = r_l - 2^l * 2^-e(l) if all row sums of C_l equal r_l. Base r_0 = 1 (C_0 = (1)) and r_1 = 1/2
  (exact, from C_1). The claim r_l = 2^-l is checked against base and recurrence symbolically in l
  (induction) and the recurrence is also solved with ``sympy.rsolve``.
* Blocks. By Definition 3.1 the two diagonal blocks of C_{i+1} are C_i; so, by induction on depth - h, the
  principal submatrix of C_depth on the leaves below a node of height h is C_h.
* Variance. The node's value is the sum of the leaves below it: Var = σ² 1ᵀ C_h 1 = σ² * (sum of the 2^h row
  sums) = σ² 2^h 2^-h = σ², symbolically in h. A centred linear image of a Gaussian is Gaussian, so the node
  is N(0, σ²).

``prove(exponent=...)`` takes the off-diagonal exponent of Definition 3.1. With the OCR rendering's
exponent 2^l + 1 the row-sum induction FAILS (the renderings agree for l = 1, 2, i.e. up to C_3, and differ
from C_4 on: under the OCR reading r_4 = 1/8 - 2^3/2^9 = 7/64 and the root of the depth-4 tree has
variance 16 * 7/64 = 7/4, not 1).
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from ...core.proof import SANITY, ProofRecord, is_zero, print_record
from ...core.proof_links import mutation, proves
from .common import PAPER, Exponent, definition_exponent, ocr_exponent, off_diagonal_entry

STATEMENT = (
    "For every depth and every node of the tree, the sum of the leaf noises below it is N(0, σ²) when the "
    "leaf noise is N(0, σ² C_depth); and every row sum of C_l is 2^-l (Proposition B.1(3))."
)


def record_row_sums(record: ProofRecord, exponent: Exponent = definition_exponent) -> None:
    """Record the proof, for all l >= 0, that every row sum of C_l equals 2^-l."""
    l = sp.Symbol("l", integer=True, positive=True)
    r = sp.Function("r")
    claimed = sp.Integer(2) ** (-l)
    increment = 2**l * off_diagonal_entry(l, exponent)  # 2^l entries of -2^-e(l) appended to each row
    c1 = [[Fraction(1), Fraction(-1, 2)], [Fraction(-1, 2), Fraction(1)]]
    c1_row_sums = {sum(row, Fraction(0)) for row in c1}
    record.step("row sums, base (exact): r_0 = 1 (C_0 = (1)) and r_1 = 1 - 1/2 = 1/2 (C_1)", c1_row_sums == {Fraction(1, 2)})
    record.step("row sums, base: the claim 2^-l equals 1 at l = 0 and 1/2 at l = 1",
                claimed.subs(l, 0) == 1 and claimed.subs(l, 1) == sp.Rational(1, 2))
    record.step(
        f"row sums, induction step (symbolic in l): r_(l+1) = r_l + 2^l * (-2^-({exponent(l)})) "
        "is satisfied by r_l = 2^-l",
        is_zero(claimed.subs(l, l + 1) - (claimed + increment)),
    )
    try:
        solution = sp.rsolve(r(l + 1) - r(l) - increment, r(l), {r(1): sp.Rational(1, 2)})
    except (ValueError, NotImplementedError):
        solution = None
    record.step(
        f"row sums, rsolve: the recurrence with r_1 = 1/2 solves to {solution} = 2^-l",
        solution is not None and is_zero(solution - claimed),
    )


@proves("CIP", "Theorem 3.3", mutations=(mutation("OCR exponent 2^i + 1", exponent=ocr_exponent),))
def prove(exponent: Exponent = definition_exponent, sanity: bool = True) -> ProofRecord:
    """Prove Theorem 3.3 for all depths (raise ProofFailure if a step fails)."""
    record = ProofRecord(PAPER, "Theorem 3.3 + Proposition B.1(3)", STATEMENT)
    record_row_sums(record, exponent)

    # the diagonal blocks of C_{i+1} are C_i: read off Definition 3.1's block form
    i = sp.Symbol("i", integer=True, positive=True)
    C_i, J_i = sp.symbols("C_i J_i", commutative=False)
    c_next = [[C_i, off_diagonal_entry(i, exponent) * J_i], [off_diagonal_entry(i, exponent) * J_i, C_i]]
    record.step(
        "blocks: the diagonal blocks of C_(i+1) in Definition 3.1 are C_i, so (induction on depth - h) the "
        "leaves below a node of height h carry the principal submatrix C_h",
        c_next[0][0] == C_i and c_next[1][1] == C_i,
    )

    h = sp.Symbol("h", integer=True, nonnegative=True)
    sigma = sp.Symbol("sigma", positive=True)
    row_sum = sp.Integer(2) ** (-h)
    rows = sp.Integer(2) ** h
    variance = sigma**2 * rows * row_sum  # σ² 1ᵀ C_h 1 = σ² * (2^h rows, each summing to 2^-h)
    record.step(
        "variance of a node of height h (symbolic in h, σ): σ² 1ᵀ C_h 1 = σ² * 2^h * 2^-h = σ²; the node value "
        "is a linear image of the centred Gaussian leaf vector, hence N(0, σ²)",
        is_zero(variance - sigma**2),
    )
    if sanity:
        from reference.cip.exact import matrix as cip_matrix

        record.step(
            SANITY + "node_variances(depth) are all 1 for every node, depths 0..6",
            all(set(cip_matrix.node_variances(depth).values()) == {1} for depth in range(0, 7)),
        )
    return record


if __name__ == "__main__":
    print_record(prove())
