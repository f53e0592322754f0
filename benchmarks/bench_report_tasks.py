"""CPU time of every task of the report (claims, audit cases, plots; not the Coq compilation), one after another.

    python benchmarks/bench_report_tasks.py [--quick] [--limit 10]

Runs each task in this process as the report's workers do (``reference_verification.parallel``), printing its CPU
seconds (``time.process_time``), wall seconds and the process's peak RSS so far, then the total and every task
over ``--limit`` seconds of CPU (the goal: none over 10 s). Run from a checkout (the checkout's verification is made
importable as the test suite makes it). The load average is printed. Nothing is asserted: this script reports.
"""

from __future__ import annotations

import argparse
import os
import resource
import runpy
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
runpy.run_path(str(ROOT / "verification" / "checkout.py"))["importable_checkout"](ROOT)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="the quick budget (report --quick)")
    parser.add_argument("--limit", type=float, default=10.0, help="flag tasks over this many seconds of CPU")
    args = parser.parse_args()
    from reference_verification import parallel
    from reference_verification.audits import audit_case_count

    print(f"load average before: {os.getloadavg()}; cores: {os.cpu_count()}; budget: {'quick' if args.quick else 'full'}")
    start = time.process_time()
    registry = parallel._registry()
    tasks = [("claim", index) for index in range(len(registry.claims))]
    tasks += [("audit", index) for index in range(audit_case_count() or 0)]
    tasks += [("plot", index) for index in range(len(parallel.available_plots()))]
    directory = tempfile.mkdtemp()
    over = []
    for task in tasks:
        cpu, wall = time.process_time(), time.perf_counter()
        parallel._run_task(*task, args.quick, directory)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
        label = parallel._label(*task, registry)
        print(f"{cpu:8.2f} s CPU {wall:8.2f} s wall {peak:6d} MB peak  {label}", flush=True)
        if cpu > args.limit:
            over.append(f"{label} ({cpu:.1f} s)")
    total = time.process_time() - start
    print(f"total: {total:.1f} s of CPU for {len(tasks)} tasks (registry built once; the Coq compilation is not "
          f"included); over {args.limit:g} s: {', '.join(over) or 'none'}")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
