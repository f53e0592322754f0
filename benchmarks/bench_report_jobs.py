"""Benchmark of ``report --jobs``: the report with 1 and with N worker processes, same run, and their ratio.

    python benchmarks/bench_report_jobs.py [--full] [--jobs N]

Runs ``python -m reference report --quick --jobs J --json`` (``--full``: without ``--quick``) for J = 1 then
J = N (default 2), each in a fresh interpreter (so imports and worker start-up are counted), into temporary
directories; prints each wall-clock time, the ratio N/1 and the machine's load average before and after, and
checks that report.md and claims.json are the same for both but for the measured times. The CPU seconds of each
run (the report, its workers and ``coqc``) show how many cores it kept busy. Also measures the
machine's capacity in the same run: the wall time of two CPU-bound processes (a pure-numpy loop) against one, so
that a ratio measured while other jobs share the cores can be read against what two processes could get.
With ``--schedule`` it instead profiles the schedule: every task (claims, audit cases, plots, the Coq check) run
once in this process, its CPU seconds measured (``coqc`` included), and the pool's first-free-worker order
replayed on N idle workers for two submit orders: the Coq check after the pool (as before) and first (as now).
That is a model — CPU seconds on idle cores, worker start-up measured once — for a machine whose cores other
jobs share, where the wall clock cannot show it.
Nothing is asserted: this script reports (exit 1 only if the outputs differ).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: Times in the report: "(1.2 s)", "| 0.3 |" table cells, "in 12.3 s", "seconds": 1.2 in the JSON.
_TIMES = [re.compile(r"\d+\.\d+ s\b"), re.compile(r"\| \d+\.\d+ \|"), re.compile(r'"seconds": \d+(\.\d+)?'),
          re.compile(r"\d+(\.\d+)? (seconds|minutes)")]

_SPIN = "import numpy as np\nx = np.random.default_rng(0).standard_normal(1 << 16)\nfor _ in range(6000): x = np.sin(x)\n"


def _normalised(text: str) -> str:
    for pattern in _TIMES:
        text = pattern.sub("<time>", text)
    return text


def _cpu() -> float:
    """CPU seconds of the finished child processes (and their waited-for descendants: workers, coqc)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _report(jobs: int, quick: bool, out: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one report run."""
    command = [sys.executable, "-m", "reference", "report", "--jobs", str(jobs), "--out", str(out), "--json"]
    cpu, start = _cpu(), time.perf_counter()
    subprocess.run([*command, *(["--quick"] if quick else [])], check=False, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return time.perf_counter() - start, _cpu() - cpu


def _spin(processes: int) -> float:
    start = time.perf_counter()
    running = [subprocess.Popen([sys.executable, "-c", _SPIN]) for _ in range(processes)]
    for process in running:
        process.wait()
    return time.perf_counter() - start


def _task_costs(quick: bool, directory: Path) -> list[tuple[tuple[str, int], float]]:
    """Every report task in report order (the Coq check last) with its CPU seconds, run in this process."""
    from reference_verification import parallel
    from reference_verification.audits import audit_case_count
    from reference_verification.plots import PLOTS
    from reference_verification.report import build_registry

    root = str(Path(__file__).resolve().parents[1])  # examples/ (the audit cases) lives at the checkout's root
    if root not in sys.path:
        sys.path.insert(0, root)
    registry = build_registry()
    tasks = [("claim", i) for i in range(len(registry.claims))]
    tasks += [("audit", i) for i in range(audit_case_count() or 0)] + [("plot", i) for i in range(len(PLOTS))]
    costs = []
    for kind, index in [*tasks, ("coq", 0)]:
        start = time.process_time() + _cpu()
        parallel._run_task(kind, index, quick, str(directory))
        costs.append(((kind, index), time.process_time() + _cpu() - start))
    return costs


def _makespan(costs: list[float], workers: int, startup: float) -> float:
    """Wall time of the pool handing each task, in order, to the first free worker (all start after start-up)."""
    free = [startup] * workers
    for cost in costs:
        index = free.index(min(free))
        free[index] += cost
    return max(free)


def _schedule(quick: bool, jobs: int) -> dict[str, float]:
    code = "from reference_verification.report import build_registry; build_registry()"
    before = _cpu()
    subprocess.run([sys.executable, "-c", code], check=True)
    startup = _cpu() - before
    with tempfile.TemporaryDirectory() as temporary:
        costs = _task_costs(quick, Path(temporary))
    coq = costs[-1][1]
    others = [cost for _, cost in costs[:-1]]
    single = startup + sum(others) + coq
    print(f"worker start-up {startup:.1f} s CPU; {len(others)} tasks {sum(others):.1f} s CPU (longest "
          f"{max(others):.1f} s); Coq check {coq:.1f} s CPU")
    # the parent imports and builds the registry before it spawns the workers, which then do the same
    after = startup + _makespan(others, jobs, startup) + coq
    first = startup + _makespan([coq, *others], jobs, startup)
    print(f"one process: {single:.1f} s; {jobs} workers, Coq after the pool: {after:.1f} s ({after / single:.2f}); "
          f"Coq first: {first:.1f} s ({first / single:.2f}) [model: CPU seconds on idle cores]")
    return {"startup": round(startup, 1), "tasks": len(others), "tasks_cpu": round(sum(others), 1),
            "longest": round(max(others), 1), "coq": round(coq, 1), "ratio_coq_after": round(after / single, 2),
            "ratio_coq_first": round(first / single, 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--full", action="store_true", help="the full budgets (default: --quick)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--schedule", action="store_true", help="profile the schedule instead (module docstring)")
    parser.add_argument("--record", action="store_true", help="store the results in docs/measurements/scaling.json")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()[0]
    key = "bench_report_jobs " + ("--schedule" if args.schedule else "--full" if args.full else "--quick")
    if args.schedule:
        schedule = _schedule(not args.full, args.jobs)
        if args.record:
            _record(key, {"jobs": args.jobs, **schedule}, load_before)
        return 0
    print(f"load average before: {load_before:.2f}")
    one, two = _spin(1), _spin(2)
    print(f"capacity: 2 CPU-bound processes took {two:.2f} s against {one:.2f} s for one: "
          f"{2 * one / two:.2f}x the throughput of one")
    with tempfile.TemporaryDirectory() as temporary:
        base = Path(temporary)
        single, single_cpu = _report(1, not args.full, base / "jobs-1")
        print(f"report --jobs 1: {single:.1f} s wall, {single_cpu:.1f} s CPU (busy cores {single_cpu / single:.2f})")
        parallel, parallel_cpu = _report(args.jobs, not args.full, base / f"jobs-{args.jobs}")
        print(f"report --jobs {args.jobs}: {parallel:.1f} s wall, {parallel_cpu:.1f} s CPU "
              f"(busy cores {parallel_cpu / parallel:.2f})")
        print(f"ratio --jobs {args.jobs} / --jobs 1: {parallel / single:.2f} wall clock")
        same = True
        for name in ("report.md", "claims.json"):
            texts = [_normalised((base / f"jobs-{j}" / name).read_text(encoding="utf-8")) for j in (1, args.jobs)]
            if texts[0] != texts[1]:
                same = False
                print(f"{name} differs beyond the measured times")
        if same:
            print("report.md and claims.json identical but for the measured times")
        statuses = json.loads((base / "jobs-1" / "claims.json").read_text(encoding="utf-8"))
        print(f"claims: {len(statuses) if isinstance(statuses, list) else len(statuses.get('claims', []))}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    if args.record:
        _record(key, {"jobs": args.jobs, "seconds_1": round(single, 1), "seconds_n": round(parallel, 1),
                      "capacity": round(2 * one / two, 2), "busy_cores_n": round(parallel_cpu / parallel, 2),
                      "identical": same}, load_before)
    return 0 if same else 1


def _record(key: str, values: dict[str, object], load_before: float) -> None:
    from measurement_record import record_run  # beside this script

    record_run("scaling", key, values, load_before)


if __name__ == "__main__":
    raise SystemExit(main())
