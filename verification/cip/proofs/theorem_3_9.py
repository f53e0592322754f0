"""CIP paper, Theorem 3.9: X + N(0, σ² C_depth), n = 2^depth, is (ε, δ)-DP for add/remove neighbours when
ε ∈ (0, 1], δ ∈ (0, 1/2] and σ² >= (2/ε² + 2 log2(n)/(3ε²)) log(2/δ) = Θ(log n log(2/δ)/ε²).

Method: Theorem 3.8 (``verification/cip/proofs/theorem_3_8.py``) needs max_i (C^-1)_ii; Corollary B.3
(``verification/cip/proofs/corollary_b3.py``) gives every diagonal entry of C_depth^-1 as 1 + depth/3, so the maximum is
1 + depth/3 = 1 + log2(n)/3 (log2(2^depth) = depth exactly). Substituting, sympy shows symbolically that
2 (1 + log2(n)/3) log(2/δ)/ε² = (2/ε² + 2 log2(n)/(3ε²)) log(2/δ), and the Θ claim from the limit of the
ratio to log(n) log(2/δ)/ε² as n -> ∞ (2/(3 log 2), finite and positive). The bound and the diagonal are the
conclusions of the two programs' records (``premise``: the record must be that entry's), so a program that ran
some other entry, or a diagonal nobody proved, fails the proof. ``prove(claimed_coefficient=...)`` takes the
coefficient 2/3 of log2(n)/ε² so that a wrong constant makes the program FAIL; ``corollary_program`` replaces
Corollary B.3's program (the mutation test passes a wrong one).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import sympy as sp

from ...core.proof import ProofRecord, is_zero, premise, print_record
from ...core.proof_links import mutation, proves
from .common import PAPER

STATEMENT = (
    "For every depth (n = 2^depth), ε ∈ (0, 1], δ ∈ (0, 1/2]: X + N(0, σ² C_depth) is (ε, δ)-DP for add/remove "
    "neighbours when σ² >= (2/ε² + 2 log2(n)/(3ε²)) log(2/δ); this is Θ(log n log(2/δ)/ε²)."
)


def corollary_b3_replaced_by_one_half(sanity: bool = False) -> ProofRecord:
    """A stand-in for Corollary B.3's record that concludes the diagonal 1 + j/2 with no proof behind it (for the
    mutation test: Theorem 3.9 must take the diagonal from the corollary, so a different value must fail it)."""
    j = sp.Symbol("j", integer=True, positive=True)
    record = ProofRecord(PAPER, "Corollary B.3", "a stand-in: every diagonal entry of C_j^-1 equals 1 + j/2")
    record.steps.append("(no step: a typed-in conclusion)")
    record.conclude("diagonal", sp.Lambda(j, 1 + j / 2))
    return record


def theorem_3_8_instead_of_corollary_b3(sanity: bool = False) -> ProofRecord:
    """Another entry's program in the corollary's place (for the mutation test)."""
    from . import theorem_3_8 as cip_theorem_3_8

    return cip_theorem_3_8.prove(sanity=sanity)


@proves(
    "CIP",
    "Theorem 3.9",
    mutations=(
        mutation("log2(n)/(3ε²) coefficient 1/3", claimed_coefficient=Fraction(1, 3)),
        mutation("the Corollary B.3 step runs Theorem 3.8's program", corollary_program=theorem_3_8_instead_of_corollary_b3),
        mutation("Corollary B.3's diagonal typed in as 1 + j/2", corollary_program=corollary_b3_replaced_by_one_half),
    ),
)
def prove(
    claimed_coefficient: Fraction = Fraction(2, 3), corollary_program: Callable[..., ProofRecord] | None = None
) -> ProofRecord:
    """Prove Theorem 3.9 from Theorem 3.8 and Corollary B.3 (raise ProofFailure if a step fails): the σ² bound and
    the diagonal are taken from the two programs' conclusions (:func:`premise`), not typed in."""
    from . import corollary_b3 as cip_corollary_b3
    from . import theorem_3_8 as cip_theorem_3_8

    record = ProofRecord(PAPER, "Theorem 3.9", STATEMENT)
    theorem = cip_theorem_3_8.prove(sanity=False)
    sigma_squared = premise(theorem, PAPER, "Theorem 3.8", "sigma_squared")
    record.step(
        f"Theorem 3.8 (reference_verification.cip.proofs.theorem_3_8, {len(theorem.steps)} steps) concludes: "
        f"σ² >= {sigma_squared.expr} (largest_diagonal = max_i (C^-1)_ii) gives (ε, δ)-DP",
        len(sigma_squared.variables) == 3,
    )
    corollary = (corollary_program or cip_corollary_b3.prove)(sanity=False)
    diagonal = premise(corollary, PAPER, "Corollary B.3", "diagonal")
    record.step(
        f"Corollary B.3 (reference_verification.cip.proofs.corollary_b3, {len(corollary.steps)} steps) concludes: "
        f"every diagonal entry of C_depth^-1 is {diagonal.expr} (j = depth), so the maximum is that value",
        len(diagonal.variables) == 1,
    )

    depth = sp.Symbol("depth", integer=True, nonnegative=True)
    n = sp.Symbol("n", positive=True)
    eps, delta = sp.symbols("epsilon delta", positive=True)
    log_term = sp.log(2 / delta)
    record.step("n = 2^depth: log2(n) = depth exactly", is_zero(sp.log(2**depth, 2) - depth))
    max_diagonal = diagonal(sp.log(n, 2))  # all diagonal entries are equal, so this is the maximum
    theorem_3_8_bound = sigma_squared(max_diagonal, eps, delta)
    coefficient = sp.Rational(claimed_coefficient.numerator, claimed_coefficient.denominator)
    claimed = (2 / eps**2 + coefficient * sp.log(n, 2) / eps**2) * log_term
    record.step(
        f"Theorem 3.8's σ² bound at the largest diagonal, {theorem_3_8_bound}, equals the claimed "
        f"(2/ε² + {claimed_coefficient} log2(n)/ε²) log(2/δ) (symbolic in n, ε, δ)",
        is_zero(theorem_3_8_bound - claimed),
    )
    ratio_limit = sp.limit(claimed / (sp.log(n) * log_term / eps**2), n, sp.oo)
    record.step(
        f"Θ: the bound over log(n) log(2/δ)/ε² tends to {ratio_limit} as n -> ∞ (finite, positive), and both "
        "are positive for n >= 2",
        bool(ratio_limit.is_positive) and bool(ratio_limit.is_finite),
    )
    return record


if __name__ == "__main__":
    print_record(prove())
