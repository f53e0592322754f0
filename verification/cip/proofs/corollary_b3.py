"""CIP paper, Corollary B.3: every diagonal entry of C_j^-1 equals 1 + j/3, for every j >= 1 (and j = 0).

Method: from Lemma B.2 (proved by ``verification/cip/proofs/lemma_b2.py``, run first). The diagonal blocks of C_j^-1 are
C_{j-1}^-1 + J_{j-1}/3 and J_{j-1} has ones on its diagonal, so if every diagonal entry of C_{j-1}^-1 equals
d_{j-1}, every diagonal entry of C_j^-1 equals d_j = d_{j-1} + 1/3 (the invariant "all diagonal entries are
equal" is preserved). Base d_1 = 4/3 from the printed C_1^-1 (exact). The recurrence is solved with
``sympy.rsolve`` and the claimed closed form is checked against the solution and, independently, against the
recurrence and the base case (induction), symbolically in j. ``prove(claimed_slope=...)`` takes the claimed
slope (1/3) so that a false claim, e.g. 1 + j/2, makes the program FAIL.

Finding: the printed statement reads "For any positive integer k, the diagonal entries of C_j^-1 all equal to
1 + j/3": the quantifier names k, the matrix j (one variable meant). The proof of Theorem 3.9 uses it as
1 + k/3 with n = 2^k.
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from ...core.proof import SANITY, ProofRecord, established, is_zero, premise, print_record
from ...core.proof_links import mutation, proves
from .common import PAPER

STATEMENT = "For every depth j >= 0, every diagonal entry of C_j^-1 equals 1 + j/3."


@proves("CIP", "Corollary B.3", mutations=(mutation("diagonal 1 + j/2", claimed_slope=Fraction(1, 2)),))
def prove(claimed_slope: Fraction = Fraction(1, 3), sanity: bool = True) -> ProofRecord:
    """Prove Corollary B.3 for all j; the claim is ``1 + claimed_slope * j``. Raises ProofFailure on failure."""
    from . import lemma_b2 as cip_lemma_b2

    record = ProofRecord(PAPER, "Corollary B.3", STATEMENT)
    lemma = cip_lemma_b2.prove(sanity=False)
    record.step(f"Lemma B.2 holds for all depths (reference_verification.cip.proofs.lemma_b2: {len(lemma.steps)} steps)", established(lemma, cip_lemma_b2.prove))

    j = sp.Symbol("j", integer=True, positive=True)
    d = sp.Function("d")
    slope = sp.Rational(claimed_slope.numerator, claimed_slope.denominator)
    claimed = 1 + slope * j

    # the diagonal recursion read off Lemma B.2's conclusion: diag(C_{j-1}^-1 + c J) = d_{j-1} + c * J_ii
    lemma_diagonal_coefficient = premise(lemma, PAPER, "Lemma B.2 + Proposition B.1(3)", "diagonal_coefficient")
    j_diagonal_entry = sp.ones(2, 2)[0, 0]  # J is the all-ones matrix
    increment = lemma_diagonal_coefficient * j_diagonal_entry
    record.step(
        f"recursion from Lemma B.2 (its conclusion: diagonal blocks C_(j-1)^-1 + {lemma_diagonal_coefficient} J): "
        f"diagonal entries of C_j^-1 are those of C_(j-1)^-1 plus {lemma_diagonal_coefficient} * J_ii = plus "
        f"{increment}, so all equal d_j = d_(j-1) + {increment} if all of C_(j-1)^-1's equal d_(j-1)",
        bool(increment.is_positive) and not increment.free_symbols,
    )
    diagonal_1 = {cip_lemma_b2.C1_INVERSE[0][0], cip_lemma_b2.C1_INVERSE[1][1]}
    record.step("base (exact): the diagonal of C_1^-1 = [[4/3, 2/3], [2/3, 4/3]] is all 4/3", diagonal_1 == {Fraction(4, 3)})
    base = sp.Rational(4, 3)
    record.step(
        f"induction (symbolic in j): the claim 1 + {claimed_slope} j equals 4/3 at j = 1",
        claimed.subs(j, 1) == base,
    )
    record.step(
        f"induction (symbolic in j): the claim 1 + {claimed_slope} j satisfies d_j - d_(j-1) - 1/3 = 0",
        is_zero(claimed - claimed.subs(j, j - 1) - increment),
    )
    solution = sp.rsolve(d(j) - d(j - 1) - increment, d(j), {d(1): base})
    record.step(
        f"rsolve: the recurrence with d_1 = 4/3 has the unique solution {solution}, equal to the claim",
        solution is not None and is_zero(solution - claimed),
    )
    record.step(
        "depth 0: C_0 = (1), C_0^-1 = (1) = 1 + 0/3 (and Lemma B.2's recursion from C_0^-1 gives the printed "
        "C_1^-1, proved in cip_lemma_b2)",
        claimed.subs(j, 0) == 1,
    )
    record.conclude("diagonal", sp.Lambda(j, claimed))
    if sanity:
        from reference.cip.exact import matrix as cip_matrix

        record.step(
            SANITY + "diag(inverse_by_elimination(depth)) == 1 + depth/3 for depths 0..6",
            all(
                set(cip_matrix.precision_diagonal(depth)) == {1 + Fraction(depth, 3)} for depth in range(0, 7)
            ),
        )
    return record


if __name__ == "__main__":
    print_record(prove())
