"""Proof levels are computed from the run: the status, this run's Coq verdicts and the tests that tie a Coq file
to the Python objects; the strongest evidence decides, and nothing claims "machine-checked" without Coq."""

from __future__ import annotations

from pathlib import Path

import pytest
from reference_verification.core.claims import (
    Budget,
    Claim,
    CoqTheorem,
    Method,
    Outcome,
    Result,
    Status,
    resolve_conditions,
    undeclared_programs,
)
from reference_verification.levels import Level, level_counts, proof_levels, tied_coq_files
from reference_verification.proof_pass import PROOF_STEPS, step_errors
from reference_verification.report import build_registry

WHOLE = CoqTheorem("KaryDigits.v", "standard_digits", "the whole entry", whole=True)
PART = CoqTheorem("KarySums.v", "lemma_3_5_sum", "an ingredient")


def _result(number: str, method: Method, status: Status, *, coq: tuple[CoqTheorem, ...] = (),
            depends_on: tuple[str, ...] = (), cites: tuple[str, ...] = (), programs: tuple[str, ...] = ()) -> Result:
    def check(_: Budget) -> Outcome:
        return Outcome(status, "")

    proof = f"reference_verification.kary.proofs.program_{number.lower()}.prove" if method is Method.PROOF else None
    claim = Claim("KARY", number, "a statement", method, check, implements=("reference.kary.digits.digits",),
                  proof=proof, coq=coq, depends_on=depends_on, cites=cites)
    return Result(claim, Outcome(status, ""), 0.0, programs or ((proof,) if proof else ()))


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
    assert without["KARY B"].level is Level.CONDITIONAL and "KARY A (verified)" in without["KARY B"].detail
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
    # Theorem 1.1: Coq proves the digit count at every horizon and ε²·MSE = 2h²S(T)/T given Laplace's variance;
    # that variance (an integral), independence and the log(T)³ limit are not in Coq
    assert "KARY Theorem 1.1" not in whole
    theorem_1_1 = next(claim for claim in build_registry().claims if claim.key == "KARY Theorem 1.1")
    assert {theorem.name for theorem in theorem_1_1.coq} >= {"digit_count_level", "digit_count_at_height",
                                                             "algorithm_2_mse_identity", "theorem_1_1_mse"}
    assert not any(theorem.whole for theorem in theorem_1_1.coq)
    # Coq counts the live noise values, not the space in bits; and proves the nodes' variance, not Gaussianity
    assert "KARY Lemma 4.12" not in whole and "CIP Theorem 3.3" not in whole
    # Proposition B.1's four parts, each a whole theorem: unit diagonal, sign pattern, row sums, definiteness
    b1 = next(claim for claim in build_registry().claims if claim.key == "CIP Proposition B.1")
    assert {theorem.name for theorem in b1.coq if theorem.whole} >= {
        "covariance_unit_diagonal", "covariance_off_diagonal_negative", "covariance_row_sum",
        "covariance_positive_definite"}


def test_every_proof_step_names_an_entry_or_a_reason() -> None:
    keys = {claim.key for claim in build_registry().claims}
    assert step_errors(PROOF_STEPS, keys) == []
    assert {step.paper for step in PROOF_STEPS} == {"CIP", "KARY", "TDA"}


def test_a_cited_result_makes_a_proof_conditional_and_the_condition_propagates() -> None:
    """A proof resting on a result of another paper is "proved, conditional" (status and level), naming it; a
    proof resting on that proof is conditional on the same citation."""
    cited = "CKS 2020, Theorem 14 (a stand-in citation)"
    base = _result("A", Method.PROOF, Status.PROVED, cites=(cited,))
    above = _result("B", Method.PROOF, Status.PROVED, depends_on=("KARY A",))
    plain = _result("C", Method.PROOF, Status.PROVED)
    resolved = {result.claim.key: result for result in resolve_conditions([base, above, plain])}
    assert resolved["KARY A"].outcome.status is Status.CONDITIONAL and cited in resolved["KARY A"].outcome.detail
    assert resolved["KARY B"].outcome.status is Status.CONDITIONAL and cited in resolved["KARY B"].outcome.detail
    assert resolved["KARY C"].outcome.status is Status.PROVED
    levels = proof_levels(list(resolved.values()), {}, frozenset())
    assert levels["KARY A"].level is Level.CONDITIONAL and cited in levels["KARY A"].detail
    assert levels["KARY B"].level is Level.CONDITIONAL and "KARY A (proved, conditional)" in levels["KARY B"].detail
    assert levels["KARY C"].level is Level.PROOF_PROGRAM


def test_a_check_that_runs_an_undeclared_entrys_program_crashes() -> None:
    """Entry B's check ran entry A's proof program: unless B declares A (or an entry resting on A), B is "check
    crashed", naming A; declared directly or through another entry, it resolves."""
    program_a = "reference_verification.kary.proofs.program_a.prove"
    program_b = "reference_verification.kary.proofs.program_b.prove"
    base = _result("A", Method.PROOF, Status.PROVED)
    hidden = _result("B", Method.PROOF, Status.PROVED, programs=(program_b, program_a))
    assert undeclared_programs([base, hidden]) == {"KARY B": ["KARY A"]}
    crashed = resolve_conditions([base, hidden])[1]
    assert crashed.outcome.status is Status.ERROR and "KARY A" in crashed.outcome.detail
    declared = _result("B", Method.PROOF, Status.PROVED, depends_on=("KARY A",), programs=(program_b, program_a))
    middle = _result("M", Method.PROOF, Status.PROVED, depends_on=("KARY A",))
    through = _result("B", Method.PROOF, Status.PROVED, depends_on=("KARY M",), programs=(program_b, program_a))
    assert undeclared_programs([base, declared]) == {} and undeclared_programs([base, middle, through]) == {}
    assert resolve_conditions([base, declared])[1].outcome.status is Status.PROVED


def test_the_dependencies_the_papers_proofs_rest_on_are_declared() -> None:
    """KARY Lemma 5.5 rests on Lemmas 5.4 and A.2 (certified numeric, so it is conditional); TDA Theorem 1's privacy
    on the brute-force level sensitivity and on the cited discrete Gaussian zCDP and composition theorems."""
    claims = {claim.key: claim for claim in build_registry().claims}
    assert {"KARY Lemma 5.4", "KARY Lemma A.2"} <= set(claims["KARY Lemma 5.5"].depends_on)
    privacy = claims["TDA Theorem 1 (privacy)"]
    assert "TDA Algorithm 1 (sensitivity √2)" in privacy.depends_on
    assert any("CKS" in cited for cited in privacy.cites) and any("Bun" in cited for cited in privacy.cites)
    for claim in claims.values():
        for needed in claim.depends_on:
            assert needed in claims, f"{claim.key} rests on {needed}, which is not in the registry"


def test_an_installed_report_run_from_a_checkout_is_tied_by_its_tests(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # the README's main job runs the installed verification (Coq sources in the package) from the checkout:
    # the checkout's tests tie the installed sources exactly when both hold the same files
    from reference_verification import levels

    installed = tmp_path / "site" / "reference_verification" / "coq_sources"
    checkout = tmp_path / "checkout"
    for folder in (installed, checkout / "proofs" / "coq"):
        folder.mkdir(parents=True)
        (folder / "_CoqProject").write_text("-Q . Reference\n")
        (folder / "A.v").write_text("Theorem a : True. Proof. exact I. Qed.\n")
    (checkout / "tests" / "coq").mkdir(parents=True)
    monkeypatch.setattr(levels, "proofs_directory", lambda: installed)
    monkeypatch.chdir(checkout)
    assert levels.tests_directory() == checkout / "tests" / "coq"
    (checkout / "proofs" / "coq" / "A.v").write_text("Theorem a : True. Proof. trivial. Qed.\n")
    assert levels.tests_directory() is None  # other sources: not tied
