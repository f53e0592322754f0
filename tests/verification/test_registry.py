"""The claims registry on its quick budget: every check runs, and the verdicts match what independent
reasoning (written out in each test) says about the paper's statements."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from reference.core.claims import Budget, Claim, Method, Outcome, Result, Status, exhaustive, run_claim
from reference.verification.report import build_registry, markdown_report, run_registry, terminal_table


@cache
def quick_results() -> dict[str, Result]:
    results = run_registry(build_registry(), Budget(quick=True))
    return {f"{r.claim.paper} {r.claim.number}": r for r in results}


def status(key: str) -> Status:
    return quick_results()[key].outcome.status


def test_no_check_crashes() -> None:
    crashed = {k: r.outcome.detail for k, r in quick_results().items() if r.outcome.status is Status.ERROR}
    assert not crashed


def test_every_status_comes_with_evidence() -> None:
    for key, result in quick_results().items():
        assert result.outcome.detail, key
        if result.outcome.status is Status.REFUTED:
            # every refuted entry names its smallest counterexample and what holds instead
            assert result.outcome.counterexample, key
            assert result.outcome.corrected, key


@pytest.mark.parametrize(
    "key",
    ["CIP Lemma B.2", "CIP Corollary B.3", "CIP Theorem 3.3", "CIP Proposition 3.5", "CIP Theorem 3.9"],
)
def test_statements_with_proof_programs_are_proved(key: str) -> None:
    assert status(key) is Status.PROVED


def test_proposition_3_13_is_refuted() -> None:
    # Independent reasoning: for W = the single root node (depth 0), err_2/m = σ² but err^∞ = E|N(0, σ²)|
    # = sqrt(2/π)σ < σ, so sqrt(err_2/m) <= err^∞ fails.
    assert status("CIP Proposition 3.13") is Status.REFUTED
    assert "depth 0" in str(quick_results()["CIP Proposition 3.13"].outcome.counterexample)


def test_printed_algorithm_2_is_refuted() -> None:
    # Independent reasoning: with k = 1 the printed loop "1 <= i <= k − 1" is empty, so the new leaves
    # X_10, X_11 are never assigned.
    assert status("CIP Algorithm 2") is Status.REFUTED
    assert "k = 1" in str(quick_results()["CIP Algorithm 2"].outcome.counterexample)


def test_corollary_c2_is_refuted() -> None:
    # Independent reasoning: nodal err_2 = (2n − 1)σ², which is Θ(n log n) with σ² = Θ(log n), not Θ(n² log n).
    assert status("CIP Corollary C.2") is Status.REFUTED


def test_paper_timings_are_not_checkable() -> None:
    assert status("CIP Section 5 timings") is Status.NOT_CHECKABLE


def test_exhaustive_reports_first_failure() -> None:
    outcome = exhaustive(range(10), lambda x: x < 4, lambda x: f"x = {x}", "0..9")
    assert outcome.status is Status.REFUTED and outcome.counterexample == "x = 4"


def test_crashing_check_is_an_error_not_a_verdict() -> None:
    def broken(_: Budget) -> Outcome:
        raise RuntimeError("boom")

    result = run_claim(Claim("X", "1", "s", Method.NONE, broken), Budget(quick=True))
    assert result.outcome.status is Status.ERROR and "boom" in result.outcome.detail


def test_report_renders(tmp_path: Path) -> None:
    results = list(quick_results().values())
    text = markdown_report(results, [("plot.png", "a plot")], 1.0, Budget(quick=True))
    assert "## Summary" in text and "Proposition 3.13" in text and "![a plot](plot.png)" in text
    table = terminal_table(results)
    assert len(table.splitlines()) == len(results) + 2
