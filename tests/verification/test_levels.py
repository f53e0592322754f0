"""Proof levels are computed from the run: the status, this run's Coq verdicts and the tests that tie a Coq file
to the Python objects; the strongest evidence decides, and nothing claims "machine-checked" without Coq."""

from __future__ import annotations

from pathlib import Path

from reference_verification.core.claims import Budget, Claim, CoqTheorem, Method, Outcome, Result, Status
from reference_verification.levels import Level, level_counts, proof_levels, tied_coq_files
from reference_verification.proof_pass import PROOF_STEPS, step_errors
from reference_verification.report import build_registry

WHOLE = CoqTheorem("KaryDigits.v", "standard_digits", "the whole entry", whole=True)
PART = CoqTheorem("KarySums.v", "lemma_3_5_sum", "an ingredient")


def _result(number: str, method: Method, status: Status, *, coq: tuple[CoqTheorem, ...] = (),
            depends_on: tuple[str, ...] = ()) -> Result:
    def check(_: Budget) -> Outcome:
        return Outcome(status, "")

    proof = "reference_verification.kary.proofs.lemma_4_5.prove" if method is Method.PROOF else None
    claim = Claim("KARY", number, "a statement", method, check, implements=("reference.kary.digits.digits",),
                  proof=proof, coq=coq, depends_on=depends_on)
    return Result(claim, Outcome(status, ""), 0.0)


def test_a_closed_tied_whole_theorem_makes_an_entry_machine_checked() -> None:
    results = [_result("A", Method.EXHAUSTIVE, Status.VERIFIED, coq=(WHOLE,))]
    closed = proof_levels(results, {WHOLE: "closed"}, frozenset({"KaryDigits.v"}))
    assert closed["KARY A"].level is Level.MACHINE_CHECKED
    # not compiled here, or not tied by a test, or only an ingredient: the finite evidence decides
    assert proof_levels(results, {WHOLE: "not compiled here"}, frozenset({"KaryDigits.v"}))["KARY A"].level is Level.VERIFIED
    assert proof_levels(results, {WHOLE: "closed"}, frozenset())["KARY A"].level is Level.VERIFIED
    part = [_result("B", Method.EXHAUSTIVE, Status.VERIFIED, coq=(PART,))]
    assert proof_levels(part, {PART: "closed"}, frozenset({"KarySums.v"}))["KARY B"].level is Level.VERIFIED


def test_a_proof_resting_on_a_verified_entry_reaches_only_verified_unless_coq_lifts_it() -> None:
    base = _result("A", Method.EXHAUSTIVE, Status.VERIFIED, coq=(WHOLE,))
    proof = _result("B", Method.PROOF, Status.CONDITIONAL, depends_on=("KARY A",))
    without = proof_levels([base, proof], {}, frozenset({"KaryDigits.v"}))
    assert without["KARY B"].level is Level.VERIFIED
    lifted = proof_levels([base, proof], {WHOLE: "closed"}, frozenset({"KaryDigits.v"}))
    assert lifted["KARY B"].level is Level.PROOF_PROGRAM


def test_refuted_and_not_checkable_stay_whatever_coq_says() -> None:
    results = [
        _result("A", Method.EXHAUSTIVE, Status.REFUTED, coq=(WHOLE,)),
        _result("B", Method.NONE, Status.NOT_CHECKABLE),
        _result("C", Method.PROOF, Status.PROVED),
    ]
    levels = proof_levels(results, {WHOLE: "closed"}, frozenset({"KaryDigits.v"}))
    assert [levels[f"KARY {n}"].level for n in "ABC"] == [Level.REFUTED, Level.NOT_CHECKABLE, Level.PROOF_PROGRAM]
    counts = level_counts(results, levels)["KARY"]
    assert counts["refuted"] == counts["not checkable"] == counts["proof program"] == 1 and counts["total"] == 3


def test_the_ties_are_read_from_the_coq_tests() -> None:
    tied = tied_coq_files(Path(__file__).resolve().parents[1] / "coq")
    assert tied is not None
    assert {"KaryDigits.v", "IntOpt.v", "CipMatrix.v", "CipRangeAll.v", "KaryDigitCount.v"} <= tied


def test_the_registry_marks_whole_theorems_only_where_coq_states_the_entry() -> None:
    whole = {claim.key for claim in build_registry().claims for theorem in claim.coq if theorem.whole}
    assert {"KARY Definition 3.2", "TDA IntOpt", "CIP Lemma 3.14"} <= whole
    assert "KARY Lemma 3.5" not in whole  # Coq proves the digit count; the step to the MSE is not in Coq
    # Theorem 1.1: Coq proves the digit count at every horizon; the rescaling and the log(T)³ limit are not in Coq
    assert "KARY Theorem 1.1" not in whole
    theorem_1_1 = next(claim for claim in build_registry().claims if claim.key == "KARY Theorem 1.1")
    assert {theorem.name for theorem in theorem_1_1.coq} >= {"digit_count_level", "digit_count_at_height"}


def test_every_proof_step_names_an_entry_or_a_reason() -> None:
    keys = {claim.key for claim in build_registry().claims}
    assert step_errors(PROOF_STEPS, keys) == []
    assert {step.paper for step in PROOF_STEPS} == {"CIP", "KARY", "TDA"}
