"""The report's tasks in parallel processes: the same outcomes, in the same order, as in one process."""

from __future__ import annotations

from pathlib import Path

import pytest
from reference_verification.core.claims import Budget
from reference_verification.parallel import default_jobs, run_tasks
from reference_verification.report import build_registry

from reference.cli.main import main


def test_two_processes_give_the_single_process_results(tmp_path: Path) -> None:
    registry = build_registry()
    chosen = {("claim", i) for i in range(0, len(registry.claims), 15)} | {("audit", 0), ("plot", 0)}
    lines: list[str] = []
    outputs = []
    for jobs in (1, 2):
        directory = tmp_path / f"jobs-{jobs}"
        directory.mkdir()
        results, audits, plots, coq = run_tasks(registry, Budget(quick=True), directory, jobs, lines.append,
                                                select=chosen.__contains__)
        assert coq is None  # not asked for
        assert len(results) == len([task for task in chosen if task[0] == "claim"])
        outputs.append(([(r.claim.number, r.outcome) for r in results],
                        [(case.name, case.verdict, case.found) for case in audits or []], plots))
        assert (directory / plots[0][0]).is_file()
    assert outputs[0] == outputs[1]
    assert sum(line.startswith("[") for line in lines) == 2 * len(chosen)  # one progress line per task, per run
    assert default_jobs() >= 1


def test_bad_jobs_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["report", "--quick", "--jobs", "0", "--out", str(tmp_path)]) == 2
    assert "--jobs" in capsys.readouterr().err


def test_the_report_shows_a_proof_on_a_verified_entry_as_conditional(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a two-entry registry: a proof that depends on an entry that is only verified; the report's task runner
    # must give "proved, conditional", as run_registry does
    import reference_verification.parallel as parallel
    import reference_verification.plots as plots
    from reference_verification.core.claims import Claim, Method, Outcome, Registry, Status

    base = Claim("X", "1", "s", Method.EXHAUSTIVE, lambda _: Outcome(Status.VERIFIED, "d"), implements=("x",))
    top = Claim("X", "2", "s", Method.PROOF, lambda _: Outcome(Status.PROVED, "d"), implements=("x",), proof="p",
                depends_on=("X 1",))
    registry = Registry()
    registry.extend([base, top])
    canned = {0: Outcome(Status.VERIFIED, "d"), 1: Outcome(Status.PROVED, "d")}
    monkeypatch.setattr(parallel, "_run_task", lambda kind, index, quick, directory: (canned[index], 0.0, ()))
    monkeypatch.setattr(parallel, "audit_case_count", lambda: 0)
    monkeypatch.setattr(plots, "PLOTS", [])
    results = run_tasks(registry, Budget(quick=True), tmp_path, 1, lambda line: None).results
    assert [r.outcome.status for r in results] == [Status.VERIFIED, Status.CONDITIONAL]
