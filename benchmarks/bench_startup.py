"""Start-up cost of ``import reference`` and of the command line, against ``import numpy`` in the same run.

    python benchmarks/bench_startup.py [--repeats 7]

Each command runs in a fresh interpreter ``repeats`` times (interleaved); reported: the median CPU seconds (user
+ system, from ``getrusage`` of the children) and wall seconds, and the ratio to ``python -c "import numpy"``
(the baseline) and to an empty interpreter. The goals: ``import reference`` and a CLI call ≤ 0.25 s CPU and
≤ 0.4 s wall on a quiet machine. The machine's load average is printed. Nothing is asserted: this script reports.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "import numpy (baseline)": [sys.executable, "-c", "import numpy"],
    "import reference": [sys.executable, "-c", "import reference"],
    "reference kary digits": [sys.executable, "-m", "reference", "kary", "digits", "--arity", "3", "--value", "10",
                              "--width", "4"],
    "reference calibrate gaussian": [sys.executable, "-m", "reference", "calibrate", "gaussian", "--epsilon", "1",
                                     "--delta", "1e-5", "--sensitivity", "1"],
}


def _once(command: list[str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)})
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()}; cores: {os.cpu_count()}")
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in COMMANDS}
    for _ in range(args.repeats):
        for name, command in COMMANDS.items():
            samples[name].append(_once(command))
    cpu = {name: statistics.median(c for c, _ in runs) for name, runs in samples.items()}
    wall = {name: statistics.median(w for _, w in runs) for name, runs in samples.items()}
    baseline = cpu["import numpy (baseline)"]
    for name in COMMANDS:
        print(f"{name:30s} CPU {cpu[name]:.3f} s  wall {wall[name]:.3f} s  CPU / import numpy = "
              f"{cpu[name] / baseline:.2f}x  (minus the empty interpreter: {cpu[name] - cpu['python -c pass']:.3f} s)")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
