"""docs/measurements/scaling.md and peers.md are written by benchmarks/render_measurements.py from the records the
benchmarks write with ``--record``: the committed pages are exactly the rendering of the committed records (no
hand edits, no number without a recorded run), every recorded command is a script of the repository with options
it accepts, and what a benchmark records is what the renderer reads."""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
sys.path.insert(0, str(BENCHMARKS / "peers"))

import measurement_record  # noqa: E402
import render_measurements  # noqa: E402


@pytest.mark.parametrize("page", sorted(render_measurements.PAGES))
def test_the_committed_page_is_the_rendering_of_its_record(page: str) -> None:
    committed = render_measurements.PAGES[page].read_text(encoding="utf-8")
    assert committed == render_measurements.rendered(page), (
        f"docs/measurements/{page}.md is not the rendering of {page}.json: "
        "run python benchmarks/render_measurements.py")


@pytest.mark.parametrize("page", sorted(render_measurements.PAGES))
def test_every_recorded_command_is_a_script_here_with_options_it_defines(page: str) -> None:
    runs = measurement_record.load_record(page)["runs"]
    assert runs, f"{page}.json records no run"
    for run in runs.values():
        words = run["command"].split()
        assert words[0] == "python" and (BENCHMARKS.parent / words[1]).is_file(), run["command"]
        script = (BENCHMARKS.parent / words[1]).read_text(encoding="utf-8")
        for option in (word for word in words[2:] if word.startswith("--")):
            assert f'"{option}"' in script, f"{words[1]} defines no option {option}"
        assert {"date", "commit", "load", "source", "values"} <= run.keys()


def test_a_recorded_run_carries_its_command_date_and_commit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", [str(BENCHMARKS / "bench_report_jobs.py"), "--schedule", "--record"])
    record = tmp_path / "scaling.json"
    values = {"jobs": 2, "startup": 1.5, "tasks": 7, "tasks_cpu": 9.25, "longest": 3.0, "coq": 4.0,
              "ratio_coq_after": 0.81, "ratio_coq_first": 0.57}
    measurement_record.record_run("scaling", "bench_report_jobs --schedule", values, 2.34, record)
    run = measurement_record.load_record("scaling", record)["runs"]["bench_report_jobs --schedule"]
    assert run["command"] == "python benchmarks/bench_report_jobs.py --schedule"
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", run["date"]) and re.match(r"[0-9a-f]{7,}", run["commit"])
    assert run["load"] == 2.3 and run["values"] == values
    page = render_measurements.render_scaling({"runs": {"bench_report_jobs --schedule": run}})
    assert "7 tasks 9.25 s (longest 3.0 s)" in page and "**0.81×**" in page and "**0.57×**" in page


def test_a_peer_table_recorded_by_its_script_is_what_the_page_shows(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    peers_common = importlib.import_module("peers_common")  # benchmarks/peers/, put on the path above

    monkeypatch.setattr(measurement_record, "MEASUREMENTS", tmp_path)
    monkeypatch.setattr(sys, "argv", [str(BENCHMARKS / "peers" / "gaussian_sigma.py"), "--points", "3", "--record"])
    row = peers_common.Row("some library", 3, 1, 1, 0.5, 0.25, 2.0, "fails at 1: ValueError")
    table = peers_common.table_lines([row], "σ/σ* − 1")
    peers_common.record_table("gaussian_sigma", "a title", table, "project: 1.00 ms per certified σ", 0.5)
    record = measurement_record.load_record("peers", tmp_path / "peers.json")
    page = render_measurements.render_peers(record)
    assert "| some library | 1 / 2 | 0.5 | 0.25 | 2 | fails at 1: ValueError |" in page
    assert "`python benchmarks/peers/gaussian_sigma.py --points 3`" in page and "Project: 1.00 ms" in page


def test_the_power_figures_follow_the_code() -> None:
    """The page's power figures are computed, not typed: the per-node figure is the exact chi-square power the
    audit's own function gives, about 7% at depth 20, 10^4 runs, α = 10^-6 (the pooled test sees 100× less)."""
    from reference.audit.samples.power import cascade_deviation_detected

    per_node = cascade_deviation_detected(20, 10**4, 1e-6)
    assert 0.05 < per_node < 0.09
    assert f"detect a {100 * per_node:.2g}% scale error at 10^4 runs" in " ".join(render_measurements._power_lines())
