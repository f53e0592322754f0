"""What several KARY sections share: the paper's name and the adapters from checks to outcomes."""

from __future__ import annotations

from collections.abc import Callable

from reference.core.verdict import VerdictResult

from ...core.claims import Budget, Outcome, Status, proved_by
from ...core.proof import ProofRecord

PAPER = "KARY"


#: A verification check's result (the verdict protocol).
Checked = VerdictResult


def from_check(
    run: Callable[[], Checked], *, corrected: str | None = None, counterexample: str | None = None
) -> Callable[[Budget], Outcome]:
    """A registry check from a verification check: VERIFIED when it passes, REFUTED otherwise."""

    def check(_: Budget) -> Outcome:
        result = run()
        if result.verdict == "holds":
            return Outcome(Status.VERIFIED, result.summary())
        return Outcome(Status.REFUTED, result.summary(), counterexample=counterexample, corrected=corrected)

    return check


def verified(run: Callable[[], Checked], note: str = "") -> Callable[[Budget], Outcome]:
    def check(_: Budget) -> Outcome:
        result = run()
        return Outcome(Status.VERIFIED if result.verdict == "holds" else Status.REFUTED, result.summary() + note)

    return check


def proof_and_check(program: Callable[[], object], run: Callable[[], Checked]) -> Callable[[Budget], Outcome]:
    def check(_: Budget) -> Outcome:
        proof = proved_by(program)  # type: ignore[arg-type]
        result = run()
        if proof.status is Status.PROVED and result.verdict == "holds":
            return Outcome(Status.PROVED, f"{proof.detail} Cross-check: {result.summary()}")
        return Outcome(Status.REFUTED, f"{proof.detail} {result.summary()}")

    return check



def after_proof(
    program: Callable[[], ProofRecord],
    run: Callable[[], Checked],
    *,
    corrected: str | None = None,
    counterexample: str | None = None,
) -> Callable[[Budget], Outcome]:
    """Run a proof program, then a verification check whose verdict is the entry's (the program's failure wins).

    For entries whose wording, not their mathematics, is in question: the program establishes the identity for
    every parameter, and the check decides which reading of the printed sentence that identity supports.
    """
    judged = from_check(run, corrected=corrected, counterexample=counterexample)

    def check(budget: Budget) -> Outcome:
        proof = proved_by(program)
        if proof.status is not Status.PROVED:
            return proof
        return judged(budget)

    return check
