"""docs/measurements/test-suite.md is written by benchmarks/measure_test_suite.py from its JSON record: the page
is exactly what the record renders to (no hand edits), and a timing taken when the suite had another size is said
to be stale."""

from __future__ import annotations

import json
from typing import Any

from benchmarks.measure_test_suite import DATA, PAGE, render


def test_the_page_is_the_rendering_of_its_record() -> None:
    assert PAGE.read_text(encoding="utf-8") == render(json.loads(DATA.read_text(encoding="utf-8")))


def test_every_number_is_dated_with_its_commit_and_stale_timings_are_named() -> None:
    run = {"command": "python -m pytest", "wall_seconds": 100, "cpu_seconds": 90, "load": "1.0–2.0",
           "date": "2026-01-01 00:00 UTC", "commit": "abc1234", "tests": 10, "slowest": []}
    data: dict[str, Any] = {"counts": {"default": 12, "slow": 3, "full": 15, "date": "2026-02-02 00:00 UTC",
                                       "commit": "def5678"}, "runs": {"default": run}}
    page = render(data)
    assert "collected 2026-02-02 00:00 UTC, commit def5678" in page and "runs 12 tests" in page
    assert "| 2026-01-01 00:00 UTC, abc1234 | 10 |" in page
    assert "The timings of the default run(s) were measured when the suite had a different" in page
    assert "| full | not measured yet" in page


def test_the_setup_page_is_the_rendering_of_its_record_and_times_the_readme_commands() -> None:
    """docs/measurements/setup.md is written from setup.json; what it times are the README's two set-up lines,
    which CI runs verbatim too."""
    from pathlib import Path

    from benchmarks import measure_setup

    commands = measure_setup.setup_commands(measure_setup.README.read_text(encoding="utf-8"))
    ci = (Path(measure_setup.ROOT) / ".ci" / "run").read_text(encoding="utf-8")
    assert all(command in ci for command in commands)
    if measure_setup.DATA.exists():
        data = json.loads(measure_setup.DATA.read_text(encoding="utf-8"))
        assert measure_setup.PAGE.read_text(encoding="utf-8") == measure_setup.render(data)
        for record in data.values():
            assert [run["command"] for run in record["runs"]] == commands
