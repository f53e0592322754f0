"""Benchmark of the whole ``audit sampler-function`` command (start-up, imports, planning, the audit) against the
sampler alone, each in a child process, in the same run.

    python benchmarks/bench_sampler_command.py [--runs R] [--repeats N]

The target is ``examples.batched_samplers:cascade_depth_20`` (the project's batched Cascade Sampling, depth 20,
σ = 1; 2^20 values per run). Measured alternately, ``--repeats`` times (default 3), as CPU seconds of the child
(``getrusage``):

* **the sampler alone** (baseline): a child that imports numpy and the target and calls it for the same runs, one
  run per call (the command's chunks at depth 20), with a seeded generator;
* **the command**: ``python -m reference audit sampler-function --target ... --runs R --seed 1`` (one worker).

Printed: the medians, the ratio command / sampler alone (goal ≤ 1.5), the command's import time of
``scipy.stats`` and Dask (the self times of the package and its submodules in ``-X importtime`` of one more
run: 0 when not imported), and the load average before and after. Nothing is asserted: this script reports.

The project's sources (``reference/``, ``examples/``) are byte-compiled once first (``compileall``, as installing the
package does), so neither child pays for compiling them when ``PYTHONDONTWRITEBYTECODE`` is set; ``--no-compile``
measures without that step.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = "examples.batched_samplers:cascade_depth_20"


def child_cpu(arguments: list[str]) -> float:
    """CPU seconds (user + system) of one child process running ``arguments``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(arguments, cwd=ROOT, check=True, stdout=subprocess.DEVNULL,
                   env={**os.environ, "PYTHONPATH": str(ROOT)})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def sampler_alone(runs: int) -> list[str]:
    code = ("import numpy as np\nfrom examples.batched_samplers import cascade_depth_20\n"
            f"generator = np.random.default_rng(1)\nfor _ in range({runs}):\n    cascade_depth_20(generator, 1)\n")
    return [sys.executable, "-c", code]


def command(runs: int) -> list[str]:
    return [sys.executable, "-m", "reference", "audit", "sampler-function", "--target", TARGET, "--mechanism",
            "cascade", "--depth", "20", "--sigma", "1", "--runs", str(runs), "--seed", "1", "--max-seconds", "3600"]


def import_seconds(runs: int) -> dict[str, float]:
    """Cumulative import seconds of scipy.stats and dask in one run of the command (0 when not imported)."""
    result = subprocess.run([sys.executable, "-X", "importtime", *command(runs)[1:]], cwd=ROOT, check=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    found = {"scipy.stats": 0.0, "scipy.special": 0.0, "dask": 0.0, "distributed": 0.0}
    for line in result.stderr.splitlines():
        parts = line.split("|")
        if len(parts) != 3 or not parts[0].split(":")[-1].strip().isdigit():
            continue
        module = parts[2].strip()
        for prefix in found:  # the self times of the package and its submodules
            if module == prefix or module.startswith(prefix + "."):
                found[prefix] += int(parts[0].split(":")[-1]) / 1e6
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=32, help="runs of the depth-20 sampler (default 32)")
    parser.add_argument("--repeats", type=int, default=3, help="alternating pairs (default 3)")
    parser.add_argument("--no-compile", action="store_true",
                        help="do not byte-compile reference/ and examples/ first (each child may compile them)")
    args = parser.parse_args()
    if not args.no_compile:
        import compileall

        for folder in ("reference", "examples"):
            compileall.compile_dir(ROOT / folder, quiet=1)
    load_before = os.getloadavg()
    alone, whole = [], []
    for _ in range(args.repeats):
        alone.append(child_cpu(sampler_alone(args.runs)))
        whole.append(child_cpu(command(args.runs)))
    imports = import_seconds(args.runs)
    load_after = os.getloadavg()
    print(f"load average before: {load_before}, after: {load_after}; cores: {os.cpu_count()}")
    print(f"byte-compiled first: {not args.no_compile}")
    print(f"runs: {args.runs} at depth 20 ({args.runs * 2 ** 20:,} values); repeats: {args.repeats}")
    print(f"sampler alone, CPU s (median): {statistics.median(alone):.2f}  ({', '.join(f'{t:.2f}' for t in alone)})")
    print(f"whole command, CPU s (median): {statistics.median(whole):.2f}  ({', '.join(f'{t:.2f}' for t in whole)})")
    print(f"ratio command / sampler alone: {statistics.median(whole) / statistics.median(alone):.3f}")
    print("imports in the command (cumulative s): " + ", ".join(f"{name} {seconds:.3f}"
                                                               for name, seconds in imports.items()))


if __name__ == "__main__":
    main()
