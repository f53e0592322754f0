"""KARY Appendix C: even arity (the noise-count recursion, Claim 1 and the even/odd factor)."""

from __future__ import annotations

from fractions import Fraction

from reference.core.claims import Claim, Method
from reference.kary.checks import constants
from reference.kary.checks import threshold as thresholds
from reference.kary.claims.common import PAPER, after_proof, from_check
from reference.kary.proofs import appendix_c_factor as kary_appendix_c_factor


def claims() -> list[Claim]:
    """The entries of this part of KARY, in the paper's order."""
    M = Method
    c = Claim
    return [
        c(
            PAPER,
            "Appendix C recursion",
            "the recursion for the total noise count of the even-arity variant (Proof C.2)",
            M.EXHAUSTIVE,
            from_check(thresholds.appendix_c_recursion_check),
            implements=("reference.kary.mse.appendix_c_recursion", "reference.kary.mse.algorithm_2_total_noise_count"),
        ),
        c(
            PAPER,
            "Claim 1 (Appendix C)",
            "even k: the average noise count is kh/(4(1 − 1/k^h)) + o(h²)/… (lower-order term o(h²))",
            M.PROOF,
            from_check(
                thresholds.claim_1_check,
                counterexample=f"k = 4 (the smallest even arity it is stated for): the excess over the leading term is "
                f"exactly (k − 2)h²/(2(k − 1)) = {Fraction(4 - 2, 2 * (4 - 1))}·h², which is not o(h²)",
                corrected="the extra term is exactly (k − 2)h²/(2(k − 1)), of order h² for every even k >= 4; "
                "Corollary C.3's leading constant is unaffected",
            ),
            implements=("reference.kary.mse.claim_1_leading_term", "reference.kary.mse.appendix_c_recursion"),
            proof="reference.kary.proofs.appendix_c.prove",
        ),
        c(
            PAPER,
            "Appendix C factor",
            "the even-arity error is worse than the odd case by a factor 1 − 1/k²",
            M.PROOF,
            after_proof(
                kary_appendix_c_factor.prove,
                constants.check_even_odd_factor,
                corrected="even/odd = 1/(1 − 1/k²) > 1: the odd case is (1 − 1/k²) times the even one",
                counterexample="any k: k/(2 log(k)³) ÷ k(1 − 1/k²)/(2 log(k)³) = k²/(k² − 1) ≠ 1 − 1/k²",
            ),
            implements=("reference.kary.constants.leading_constant_corollary_c3", "reference.kary.constants.leading_constant_corollary_4_9"),
            proof="reference.kary.proofs.appendix_c_factor.prove",
        ),
    ]
