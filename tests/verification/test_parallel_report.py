"""The report's tasks in parallel processes: the same outcomes, in the same order, as in one process."""

from __future__ import annotations

from pathlib import Path

import pytest

from reference.cli.main import main
from reference.core.claims import Budget
from reference.verification.parallel import default_jobs, run_tasks
from reference.verification.report import build_registry


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
