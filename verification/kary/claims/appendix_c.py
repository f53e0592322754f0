"""KARY Appendix C: even arity (the noise-count recursion, Claim 1 and the even/odd factor)."""

from __future__ import annotations

from fractions import Fraction

from ...core.claims import Budget, Claim, CoqTheorem, Method, Outcome, Status, proved_by
from ..checks import constants
from ..checks import threshold as thresholds
from ..proofs import appendix_c as kary_appendix_c
from ..proofs import appendix_c_count as kary_appendix_c_count
from ..proofs import appendix_c_factor as kary_appendix_c_factor
from .common import PAPER, after_proof, proof_and_check


def check_claim_1(budget: Budget) -> Outcome:
    """The program proves the exact excess (k − 2)h²/(2(k − 1)) for every even k, h: Claim 1's "o(h²)" is false
    for every even k >= 4. The exact counts at small k, h are a cross-check beside it."""
    proof = proved_by(kary_appendix_c.prove)
    if proof.status is not Status.PROVED:
        return Outcome(Status.ERROR, f"the program that derives the excess failed: {proof.detail}")
    cross = thresholds.claim_1_check(max_height=budget.pick(6, 10))
    consistent = cross.recursion_exact and cross.excess_matches_symbolic
    return Outcome(
        Status.REFUTED if consistent else Status.ERROR,
        f"{proof.detail} Cross-check ({'agrees' if consistent else 'DISAGREES'}): {cross.summary()}",
        counterexample=f"k = 4 (the smallest even arity it is stated for): the excess over the leading term is "
        f"exactly (k − 2)h²/(2(k − 1)) = {Fraction(4 - 2, 2 * (4 - 1))}·h² at every h, which is not o(h²)",
        corrected="the extra term is exactly (k − 2)h²/(2(k − 1)), of order h² for every even k >= 4; "
        "Corollary C.3's leading constant is unaffected",
    )


def claims() -> list[Claim]:
    """The entries of this part of KARY, in the paper's order."""
    M = Method
    c = Claim
    return [
        c(
            PAPER,
            "Appendix C recursion",
            "the recursion for the total noise count of the even-arity variant (Proof C.2)",
            M.PROOF,
            proof_and_check(kary_appendix_c_count.prove, thresholds.appendix_c_recursion_check),
            implements=("reference.kary.mse.appendix_c_recursion", "reference.kary.mse.algorithm_2_total_noise_count"),
            proof="reference_verification.kary.proofs.appendix_c_count.prove",
            coq=(
                CoqTheorem(
                    "KaryAppendixC.v",
                    "appendix_c_recursion_exact",
                    "for every even k >= 2, every h >= 0 and T_h with 2(k − 1)T_h = k(k^h − 1): the number of noise "
                    "values Algorithm 2 (digits −k/2 + 1 .. k/2, noise_indices) adds over t = 1..T_h, summed, is the "
                    "printed recursion c_h = ((k + 2)/4 + k(h − 1)/4)(k/2)k^(h−1) + c_(h−1), c_0 = 0, over the "
                    "rationals (positive_l1_step: split by the highest digit; appendix_c_scaled: 8c_h = "
                    "Σ_(l=1..h) (kl + 2)k^l)",
                    whole=True,
                ),
            ),
        ),
        c(
            PAPER,
            "Claim 1 (Appendix C)",
            "even k: the average noise count is kh/(4(1 − 1/k^h)) + o(h²)/… (lower-order term o(h²))",
            M.PROOF,
            check_claim_1,
            implements=("reference.kary.mse.claim_1_leading_term", "reference.kary.mse.appendix_c_recursion"),
            proof="reference_verification.kary.proofs.appendix_c.prove",
            depends_on=("KARY Appendix C recursion",),
        ),
        c(
            PAPER,
            "Appendix C factor",
            "the even-arity error is worse than the odd case by a factor 1 − 1/k²",
            M.PROOF,
            after_proof(
                kary_appendix_c_factor.prove,
                constants.check_even_odd_factor,
                corrected="worse by a factor 1/(1 − 1/k²) = k²/(k² − 1): the odd case is (1 − 1/k²) times the even one",
                counterexample="k = 4: even/odd = (4/(2 log(4)³)) ÷ (4(15/16)/(2 log(4)³)) = 16/15, while the printed "
                "factor is 1 − 1/16 = 15/16 < 1 (for every k >= 2 the ratio is k²/(k² − 1) ≠ 1 − 1/k²)",
            ),
            implements=("reference.kary.constants.leading_constant_corollary_c3", "reference.kary.constants.leading_constant_corollary_4_9"),
            proof="reference_verification.kary.proofs.appendix_c_factor.prove",
        ),
    ]
