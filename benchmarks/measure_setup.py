"""Time the README's two set-up commands, verbatim, from a fresh clone in a fresh virtual environment.

    python benchmarks/measure_setup.py --label idle            # on an otherwise idle machine
    python benchmarks/measure_setup.py --label loaded --hog 2  # with two busy-looping processes beside it

The commands are read from the README's set-up block (the lines that start with ``python -m pip install``), so
what is timed is what a new user types: the install with its extra and the main job (``reference report``), then
the install with the test tools and the default test run. Each runs in a clone of the checkout's ``HEAD`` (the
commit is recorded), in a new venv, with a new empty Coq build cache (a fresh machine compiles the proofs once).
``--hog N`` starts ``N`` processes that spin for the whole measurement (stopped at the end, also on an error or an
interrupt), so "loaded" is a stated condition, not whatever else the machine was doing; the load average before
and after each command is recorded too. Times: wall clock and CPU (user + system of the child processes). The
result is kept in docs/measurements/setup.json under its label and docs/measurements/setup.md is written from it
(do not edit by hand). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.measure_test_suite import commit, load, stamp

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "docs" / "measurements" / "setup.json"
PAGE = ROOT / "docs" / "measurements" / "setup.md"
README = ROOT / "README.md"


def setup_commands(readme: str) -> list[str]:
    """The README's set-up commands: the ``python -m pip install`` lines of the first ``sh`` block after the
    ``## Set-up`` heading (``ValueError`` if there are not exactly two)."""
    section = readme.split("## Set-up", 1)[-1]
    block = re.search(r"```sh\n(.*?)```", section, re.DOTALL)
    lines = [] if block is None else [line.strip() for line in block.group(1).splitlines()]
    commands = [line for line in lines if line.startswith("python -m pip install")]
    if len(commands) != 2:
        raise ValueError(f"the README's set-up block must hold two 'python -m pip install' lines, got {commands}")
    return commands


def _timed(command: str, cwd: Path, environment: dict[str, str]) -> dict[str, Any]:
    before_load = load()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(["bash", "-c", command], cwd=cwd, env=environment, capture_output=True, text=True,
                          check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = done.stdout.strip().splitlines()
    failed = [line[:200] for line in lines if line.startswith(("FAILED ", "ERROR "))][:20]
    return {"command": command, "wall_seconds": round(wall), "cpu_seconds": round(cpu),
            "load": f"{before_load}–{load()}", "exit_status": done.returncode,
            "last_line": (lines or [""])[-1][:200], "failed": failed}


def measure(hogs: int) -> dict[str, Any]:
    """Run both commands (module docstring) and return their records."""
    commands = setup_commands(README.read_text(encoding="utf-8"))
    # the commands get a terminal's SIGINT disposition, even when this script was started in the background (a
    # non-interactive shell starts background jobs with SIGINT ignored, which the children would inherit)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(hogs)]
    try:
        with tempfile.TemporaryDirectory() as scratch:
            checkout = Path(scratch) / "checkout"
            subprocess.run(["git", "clone", "--quiet", str(ROOT), str(checkout)], check=True)
            measured = {**stamp(), "commit": subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=checkout,
                                                            capture_output=True, text=True, check=True).stdout.strip()}
            venv = Path(scratch) / "venv"
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
            environment = {**os.environ, "VIRTUAL_ENV": str(venv), "PATH": f"{venv / 'bin'}:{os.environ['PATH']}",
                           "REFERENCE_COQ_CACHE": str(Path(scratch) / "coq-cache")}
            for name in ("PYTHONPATH", "PYTEST_ADDOPTS", "CI"):
                environment.pop(name, None)
            records = [_timed(command, checkout, environment) for command in commands]
            levels = report_levels(checkout / "reference-report" / "claims.json")
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()
    return {"hog_processes": hogs, "cores": os.cpu_count(), "runs": records, "levels": levels, **measured}


def report_levels(claims: Path) -> dict[str, Any]:
    """What the main job's report concluded, to compare an idle and a loaded run: the number of statements per
    level and per status, and the level of every statement (``paper number`` → level); empty when no report."""
    if not claims.is_file():
        return {}
    results = json.loads(claims.read_text(encoding="utf-8"))["claims"]
    by_statement = {f"{claim['paper']} {claim['number']}": claim["level"] for claim in results}
    counts: dict[str, int] = {}
    statuses: dict[str, int] = {}
    for claim in results:
        counts[claim["level"]] = counts.get(claim["level"], 0) + 1
        statuses[claim["status"]] = statuses.get(claim["status"], 0) + 1
    return {"per_level": dict(sorted(counts.items())), "per_status": dict(sorted(statuses.items())),
            "statements": by_statement}


def render(data: dict[str, Any]) -> str:
    lines = [
        "# The README's set-up commands: how long they take",
        "",
        "Written by `python benchmarks/measure_setup.py` from `setup.json` (do not edit by hand). Each command is",
        "the README's, verbatim, from a fresh clone in a fresh virtual environment with an empty Coq build cache",
        "(the proofs compile once); \"loaded\" runs beside busy-looping processes (`--hog`). Wall clock and CPU",
        "(user + system of the child processes); the load average before–after each command.",
        "",
        "| condition | command | measured | wall clock | CPU | load | exit |",
        "|---|---|---|---|---|---|---|",
    ]
    for label in sorted(data):
        record = data[label]
        condition = f"{label} ({record['cores']} cores, {record['hog_processes']} hog processes)"
        for run in record["runs"]:
            lines.append(f"| {condition} | `{run['command']}` | {record['date']}, {record['commit']} | "
                         f"{run['wall_seconds']:,} s | {run['cpu_seconds']:,} s | {run['load']} | "
                         f"{run['exit_status']} |")
    records = [data[label] for label in sorted(data)]
    if len(records) == 2 and all(record.get("levels") for record in records):
        same = records[0]["levels"]["statements"] == records[1]["levels"]["statements"]
        lines += ["", "The report's levels per statement in the two conditions: "
                  + ("identical" if same else "**different**") + "; per level: "
                  + "; ".join(f"{label} {data[label]['levels']['per_level']}" for label in sorted(data)) + "."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--label", required=True, choices=["idle", "loaded"])
    parser.add_argument("--hog", type=int, default=0, help="busy-looping processes beside the commands")
    args = parser.parse_args(argv)
    if args.hog < 0:
        parser.error(f"--hog must be a non-negative integer, got {args.hog}")
    if commit().endswith("uncommitted changes"):
        print("note: uncommitted changes are not measured (the clone is of HEAD)", file=sys.stderr)
    data: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8")) if DATA.exists() else {}
    data[args.label] = measure(args.hog)
    DATA.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    PAGE.write_text(render(data), encoding="utf-8")
    for run in data[args.label]["runs"]:
        print(f"{run['command']}: {run['wall_seconds']} s wall, {run['cpu_seconds']} s CPU, load {run['load']}, "
              f"exit {run['exit_status']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
