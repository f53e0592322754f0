"""KARY leading constants: the arities that minimise Theorem 3.7's, Corollary 4.9's and Corollary C.3's."""

from __future__ import annotations

from collections.abc import Callable

from ...core.claims import Budget, Claim, Method, Outcome, Status, proved_by
from ..checks import constants
from ..proofs import argmin as kary_argmin
from .common import PAPER, Checked


def _argmin(
    program: Callable[[], object], value_check: Callable[[], Checked], corrected: str | None = None
) -> Callable[[Budget], Outcome]:
    """Proof of the minimiser over all admissible arities, plus the quoted decimal."""

    def check(_: Budget) -> Outcome:
        proof = proved_by(program)  # type: ignore[arg-type]
        quoted = value_check()
        if proof.status is not Status.PROVED:
            return proof
        if quoted.verdict == "holds":
            return Outcome(Status.PROVED, f"{proof.detail} Quoted value: {quoted.summary()}")
        return Outcome(
            Status.REFUTED,
            f"the minimiser is proved ({proof.detail}) but the quoted value is neither the rounding nor the "
            "truncation of the certified value: "
            f"{quoted.summary()}",
            counterexample=quoted.summary(),
            corrected=corrected or f"the certified value: {quoted.summary()}",
        )

    return check


def claims() -> list[Claim]:
    """The entries of this part of KARY, in the paper's order."""
    M = Method
    c = Claim
    return [
        c(
            PAPER,
            "Theorem 3.7 (constant)",
            "the leading constant (k − 1)/log(k)³ of Theorem 3.7 is minimised at k = 17, where it is ≈ 0.234",
            M.PROOF,
            _argmin(kary_argmin.prove_theorem_3_7, constants.check_theorem_3_7_value),
            implements=("reference.kary.constants.leading_constant_theorem_3_7", "reference.kary.constants.certified_argmin"),
            proof="reference_verification.kary.proofs.argmin.prove_theorem_3_7",
        ),
        c(
            PAPER,
            "Corollary 4.9 (constant)",
            "the leading constant k(1 − 1/k²)/(2 log(k)³) is minimised over odd k at k = 19, giving 0.1236",
            M.PROOF,
            _argmin(kary_argmin.prove_corollary_4_9, constants.check_corollary_4_9_value),
            implements=("reference.kary.constants.leading_constant_corollary_4_9", "reference.kary.constants.certified_argmin"),
            proof="reference_verification.kary.proofs.argmin.prove_corollary_4_9",
        ),
        c(
            PAPER,
            "Corollary C.3 (constant)",
            "the even-arity leading constant k/(2 log(k)³) is minimised at k = 20, giving 0.1238",
            M.PROOF,
            _argmin(kary_argmin.prove_corollary_c3, constants.check_corollary_c3_value),
            implements=("reference.kary.constants.leading_constant_corollary_c3", "reference.kary.constants.certified_argmin"),
            proof="reference_verification.kary.proofs.argmin.prove_corollary_c3",
        ),
    ]
