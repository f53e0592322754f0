"""Regenerate docs/measurements/test-suite.md: how many tests the suite has and what running it costs.

    python benchmarks/measure_test_suite.py            # counts only (collection, about a minute)
    python benchmarks/measure_test_suite.py --run      # also time the default run and the full run (long)

The measurement is kept in docs/measurements/test-suite.json and the page is written from it, so every number on
the page carries the date and commit it was measured at: a counts-only run updates the counts and leaves the
timings with their own (older) date and commit, said on the page. Times are wall clock and CPU (user + system of
the child processes, ``getrusage``; this process is a child subreaper, so orphans such as a multiprocessing
forkserver and its calls are counted too: ``tree_cpu.py``), with the load average before and after: on the shared development machine
they are upper bounds for idle cores, not a benchmark. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from tree_cpu import become_subreaper, reap_all  # noqa: E402  (beside this script)

DATA = ROOT / "docs" / "measurements" / "test-suite.json"
PAGE = ROOT / "docs" / "measurements" / "test-suite.md"
DEFAULT = ["-m", "pytest", "-p", "no:cacheprovider"]
FULL = [*DEFAULT, "-m", "slow or not slow", "-n", "2", "--durations=25"]


def commit() -> str:
    """The commit measured: short hash, with "+ uncommitted changes" when the tree differs from it."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.strip()
    return head + (" + uncommitted changes" if dirty else "")


def stamp() -> dict[str, str]:
    return {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "commit": commit()}


def load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def collected(extra: list[str]) -> tuple[int, int]:
    """(selected, deselected) tests of ``pytest --collect-only`` with ``extra`` options."""
    done = subprocess.run([sys.executable, *DEFAULT, "--collect-only", *extra], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    tail = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    selected = re.search(r"(\d+)(?:/\d+)? tests? collected", tail) or re.search(r"(\d+) tests? collected", tail)
    deselected = re.search(r"(\d+) deselected", tail)
    if selected is None:
        raise SystemExit(f"cannot read the collection summary: {tail!r}\n{done.stderr[-2000:]}")
    total = int(selected.group(1))
    dropped = int(deselected.group(1)) if deselected else 0
    # "2304/2520 tests collected (216 deselected)": the first number is what runs
    return total, dropped


def timed(arguments: list[str]) -> dict[str, Any]:
    """Run pytest with ``arguments``; its wall clock, CPU seconds, load before/after and slowest tests."""
    before_load = load()
    become_subreaper()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, *arguments], cwd=ROOT, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    reap_all()  # the orphans re-parented here (a forkserver outlives pytest): their CPU reaches RUSAGE_CHILDREN
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    slowest = re.findall(r"^(\d+\.\d+)s call\s+(\S+)$", done.stdout, re.MULTILINE)[:25]
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    return {"command": "python " + " ".join(arguments), "wall_seconds": round(wall), "cpu_seconds": round(cpu),
            "load": f"{before_load}–{load()}", "exit_status": done.returncode, "summary": summary,
            "slowest": [[round(float(seconds)), name] for seconds, name in slowest], **stamp()}


def render(data: dict[str, Any]) -> str:
    counts = data["counts"]
    lines = [
        "# The test suite: size and running time",
        "",
        "Written by `python benchmarks/measure_test_suite.py` from `test-suite.json` (do not edit by hand); each",
        "number carries the date and commit it was measured at. Times are on the shared two-core development",
        "machine, with the load average before–after: upper bounds for two idle cores, not a benchmark.",
        "",
        f"**Counts** (collected {counts['date']}, commit {counts['commit']}): the default run "
        f"(`python -m pytest`) runs {counts['default']:,} tests and leaves out the {counts['slow']:,} marked slow "
        f"(`tests/slow_tests.txt`); the full run (`-m \"slow or not slow\"`, what CI runs) has {counts['full']:,}.",
        "",
        "| run | command | measured | tests then | wall clock | CPU | load |",
        "|---|---|---|---|---|---|---|",
    ]
    for name in ("default", "full"):
        run = data["runs"].get(name)
        if run is None:
            lines.append(f"| {name} | not measured yet: `python benchmarks/measure_test_suite.py --run` | | | | | |")
            continue
        lines.append(f"| {name} | `{run['command']}` | {run['date']}, {run['commit']} | {run['tests']:,} | "
                     f"{run['wall_seconds']:,} s | {run['cpu_seconds']:,} s | {run['load']} |")
    stale = [name for name, run in data["runs"].items() if run and run["tests"] != counts[name]]
    if stale:
        lines += ["", f"The timings of the {' and '.join(stale)} run(s) were measured when the suite had a different "
                  "number of tests than it has now (the counts above): rerun with `--run` to bring them up to date."]
    full = data["runs"].get("full")
    if full and full.get("slowest"):
        lines += ["", f"The slowest tests of the full run ({full['date']}, call phase):", "", "| seconds | test |",
                  "|---|---|"]
        lines += [f"| {seconds} | `{name}` |" for seconds, name in full["slowest"]]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--run", action="store_true", help="also time the default and the full run (long)")
    args = parser.parse_args()
    data: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8")) if DATA.exists() else {"runs": {}}
    default, slow = collected([])
    full, _ = collected(["-m", "slow or not slow"])
    data["counts"] = {"default": default, "slow": slow, "full": full, **stamp()}
    if args.run:
        data["runs"]["default"] = {**timed(DEFAULT), "tests": default}
        data["runs"]["full"] = {**timed(FULL), "tests": full}
    DATA.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    PAGE.write_text(render(data), encoding="utf-8")
    print(f"wrote {PAGE.relative_to(ROOT)}: {default} default tests, {full} in the full run")


if __name__ == "__main__":
    main()
