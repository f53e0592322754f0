"""The report's Audits section: every planted fault caught, every correction passing, each with its exit status."""

from __future__ import annotations

import pytest
from reference_verification.audits import AuditCase, audits_markdown, run_audit_cases


@pytest.fixture(scope="module")
def cases() -> list[AuditCase]:
    found = run_audit_cases()
    assert found is not None, "examples/ must be importable from the checkout's root (pytest runs there)"
    return found


def test_every_case_has_its_designed_verdict(cases: list[AuditCase]) -> None:
    assert [case.name for case in cases if case.outcome not in ("caught", "passes")] == []
    faults = [case for case in cases if case.expected == "fails"]
    assert len(faults) >= 6 and all(case.exit_status == 1 for case in faults)
    assert all(case.exit_status == 0 for case in cases if case.expected == "holds")


def test_the_findings_say_what_is_wrong(cases: list[AuditCase]) -> None:
    found = {case.name: case.found for case in cases}
    assert found["KARY: end-of-block test off by one (kernel in B)"].startswith("epsilon = 10/3 exactly")
    assert found["KARY: Laplace scale from sensitivity h - 1"].startswith("epsilon = 3/2 exactly")  # h = 3
    assert "mod 2" in found["KARY: integer noise doubled (parity leak)"]
    assert "outside the noise span" in found["KARY: noise keyed by level (shared between vertices)"]


def test_a_verdict_against_the_design_is_flagged_in_the_section() -> None:
    missed = AuditCase("planted", "x.py", "audit linear-noise", "fails", "holds", "epsilon = 1", 0.0)
    alarm = AuditCase("correct", "y.py", "audit linear-noise", "holds", "inconclusive", "bounds", 0.0)
    assert (missed.outcome, alarm.outcome, alarm.exit_status) == ("MISSED", "FALSE ALARM", 3)
    text = "\n".join(audits_markdown([missed, alarm]))
    assert "NOT as designed: planted, correct." in text


def test_a_report_without_the_audits_says_so() -> None:
    text = "\n".join(audits_markdown(None))
    assert "## Audits" in text and "were not run in this report" in text


def test_the_planted_implementations_are_installed_with_the_verification() -> None:
    """The audited implementations import from the verification package, not from the checkout's examples/."""
    from reference_verification.audits import _examples

    assert _examples("correct_kary").__name__ == "reference_verification.planted.correct_kary"


def test_the_section_lists_the_coq_theorems_behind_the_audits_with_this_runs_verdicts() -> None:
    from reference_verification.coq import LIBRARY_AXIOMS_ONLY, Evidence
    from reference_verification.coq_audit_theorems import AUDIT_THEOREMS

    checked, unchecked = AUDIT_THEOREMS[0], AUDIT_THEOREMS[1]
    text = "\n".join(audits_markdown(None, {checked: Evidence(checked, LIBRARY_AXIOMS_ONLY, "")}))
    assert f"`{checked.name}` (`proofs/coq/DiscreteLaplacePrivacy.v`)" in text
    assert f"**{LIBRARY_AXIOMS_ONLY} in this run**" in text
    assert f"`{unchecked.name}`" in text and "**not checked in this run**" in text
