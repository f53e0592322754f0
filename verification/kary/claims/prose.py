"""KARY's unnumbered quantitative sentences that can be checked (the coverage scan lists the others, each with
the reason it is not checked)."""

from __future__ import annotations

from reference.core.certified import CertifiedReal

from ...core.claims import Budget, Claim, Method, Outcome, Status, proved_by
from ..proofs import prose as kary_prose
from .common import PAPER

#: Largest arity of the digit sweep per budget (quick, full) and its width (every value of 3 digits).
TOP_ARITY = (20, 40)
WIDTH = 3


def check_subtraction_factor(budget: Budget) -> Outcome:
    """The program gives the factor at every arity; at the two optima (k = 17 without, 19 with subtraction) the
    certified constants give the factor the two best mechanisms differ by."""
    from reference.kary.constants import leading_constant_corollary_4_9, leading_constant_theorem_3_7

    proof = proved_by(kary_prose.prove_subtraction_factor)
    if proof.status is not Status.PROVED:
        return proof
    without, with_subtraction = leading_constant_theorem_3_7(17), leading_constant_corollary_4_9(19)
    factor = CertifiedReal(without.lower / with_subtraction.upper, without.upper / with_subtraction.lower)
    return Outcome(
        Status.PROVED,
        f"{proof.detail} Between the optima (k = 17 without, k = 19 with subtraction) the factor lies in "
        f"{factor.bounds(7)} (certified constants): 'roughly 2', below 2.",
    )


def check_vertices_per_level(budget: Budget) -> Outcome:
    """Largest |digit| over every value representable in WIDTH digits: k − 1 for the standard digits (one
    vertex per level in the binary tree), ⌈(k − 1)/2⌉ for the offset digits of Algorithm 2 (odd k: Definition
    3.8; even k: Definition C.1)."""
    from reference.kary import digits as kary_digits

    arities = range(2, budget.pick(*TOP_ARITY) + 1)
    for arity in arities:
        standard = max(max(kary_digits.digits(v, arity, WIDTH)) for v in range(arity**WIDTH))
        if arity % 2:
            bound = (arity**WIDTH - 1) // 2
            values = [kary_digits.offset_digits(v, arity, WIDTH) for v in range(-bound, bound + 1)]
        else:
            # Definition C.1's range: [−(k/2 − 1)(k^w − 1)/(k − 1), k(k^w − 1)/(2(k − 1))]
            spread = (arity**WIDTH - 1) // (arity - 1)
            low, high = -(arity // 2 - 1) * spread, arity * spread // 2
            values = [kary_digits.even_offset_digits(v, arity, WIDTH) for v in range(low, high + 1)]
        offset = max(abs(d) for vector in values for d in vector)
        expected_offset = -(-(arity - 1) // 2)  # ⌈(k − 1)/2⌉
        if standard != arity - 1 or offset != expected_offset:
            return Outcome(
                Status.REFUTED,
                f"arity {arity}: at most {standard} vertices per level without subtraction (claimed k − 1 = "
                f"{arity - 1}), {offset} with (claimed ⌈(k − 1)/2⌉ = {expected_offset})",
                counterexample=f"arity {arity}, width {WIDTH}",
                corrected=f"{standard} and {offset}",
            )
    return Outcome(
        Status.VERIFIED,
        f"for every arity {arities.start}..{arities.stop - 1} and every value of {WIDTH} digits: at most k − 1 "
        "vertices per level without subtraction (so 1 in the binary tree, attained), at most ⌈(k − 1)/2⌉ with "
        "subtraction (attained; (k − 1)/2 for odd k)",
    )


def claims() -> list[Claim]:
    """The checkable prose sentences of KARY, in the paper's order."""
    M = Method
    c = Claim
    return [
        c(
            PAPER,
            "Section 1 (subtraction factor 2)",
            "subtraction gives 'roughly, a factor-2 reduction in the mean squared error' ('another factor 2 "
            "improvement')",
            M.PROOF,
            check_subtraction_factor,
            implements=("reference.kary.constants.leading_constant_theorem_3_7",
                        "reference.kary.constants.leading_constant_corollary_4_9"),
            proof="reference_verification.kary.proofs.prose.prove_subtraction_factor",
        ),
        c(
            PAPER,
            "Section 3 (vertices per level)",
            "a prefix sum adds at most k − 1 vertices per level (at most 1 in the binary tree); with subtraction "
            "it combines at most ⌈(k − 1)/2⌉ ((k − 1)/2 for odd k)",
            M.EXHAUSTIVE,
            check_vertices_per_level,
            implements=("reference.kary.digits.digits", "reference.kary.digits.offset_digits",
                        "reference.kary.digits.even_offset_digits"),
        ),
        c(
            PAPER,
            "Section 5 (Laplace variance)",
            "the variance of Laplace noise is twice the square of its scale",
            M.PROOF,
            lambda _: proved_by(kary_prose.prove_laplace_variance),
            implements=("reference.samplers.numeric.laplace",),
            proof="reference_verification.kary.proofs.prose.prove_laplace_variance",
        ),
    ]
