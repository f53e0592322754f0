"""The vocabulary of each paper's ``paper_text`` tables (``verification/<package>/paper_text.py``): a printed
proof's step (:class:`ProofStep`, made with :func:`checked_step` or :func:`unchecked_step`) and the reasons several
papers share for leaving a sentence unchecked."""

from __future__ import annotations

from dataclasses import dataclass

#: Why a sentence citing another paper's result is not checked.
OTHER_WORK = "a result of other work, cited; nothing of this paper's to compute"
#: Why a sentence inside a proof is checked with the statement it proves.
PROOF_OF = "a step of its proof, checked with the statement"


@dataclass(frozen=True)
class ProofStep:
    """One displayed step of a printed proof: checked by the registry entry ``checked_by`` ("PAPER number"), or
    not checked, for the stated ``reason``."""

    paper: str
    proof: str
    step: str
    checked_by: str | None = None
    reason: str | None = None


def checked_step(paper: str, proof: str, step: str, entry: str) -> ProofStep:
    """A step checked by the registry entry ``entry`` (its number) of ``paper``."""
    return ProofStep(paper, proof, step, checked_by=f"{paper} {entry}")


def unchecked_step(paper: str, proof: str, step: str, reason: str) -> ProofStep:
    """A step no computation here checks, for the stated ``reason``."""
    return ProofStep(paper, proof, step, reason=reason)
