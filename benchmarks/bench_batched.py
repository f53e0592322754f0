"""Benchmark of the batched samplers: each against drawing the same number of standard normals, same run.

    python benchmarks/bench_batched.py [--quick] [--runs R] [--depth D] [--block B]

* Cascade Sampling, ``R`` runs (default 10^4) × ``2**D`` leaves (default 2^16), drawn in blocks of ``B`` runs
  (default 256: 128 MiB of output per block, so the whole 5 GiB batch is never held at once); the baseline draws
  the same blocks with one ``Generator.standard_normal((B, 2**D))`` call each;
* KARY Algorithms 1 (arity 2, 4) and 2 (arity 3, 5) with Laplace noise on an all-zero stream, discrete Laplace
  and discrete Gaussian: ``runs × size`` against the same count of normals.

Every line is ``seconds, ns per value, ratio to the normals``; the best of ``--repeat`` (default 5) timings each,
baseline and sampler measured alternately in the same process (each sampler's ratio is to the normals timed
between its own repeats). Times are this process's CPU seconds (``time.process_time``; the work is
single-threaded), which other jobs on a shared machine disturb far less than the wall clock. Nothing is
asserted: this script reports.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

import numpy as np

from reference.cip.numeric.cascade_runs import cascade_leaves_runs
from reference.kary.counters_runs import algorithm_1_runs, algorithm_2_runs
from reference.samplers.numeric_runs import discrete_gaussian_runs, discrete_laplace_runs


def _best(action: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        action()
        best = min(best, time.process_time() - start)
    return best


def _paired(baseline: Callable[[], object], action: Callable[[], object], repeat: int) -> tuple[float, float]:
    """(best baseline, best action) over ``repeat`` alternating timings."""
    pairs = [(_best(baseline, 1), _best(action, 1)) for _ in range(repeat)]
    return min(pair[0] for pair in pairs), min(pair[1] for pair in pairs)


def _report(name: str, values: int, seconds: float, baseline: float) -> dict[str, float]:
    print(f"{name:<58} {seconds:8.2f} s  {1e9 * seconds / values:6.2f} ns/value  {seconds / baseline:5.2f}x normals")
    return {"seconds": round(seconds, 2), "ns_per_value": round(1e9 * seconds / values, 1),
            "ratio": round(seconds / baseline, 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="1,024 runs × 2^14 leaves, smaller others")
    parser.add_argument("--runs", type=int, default=10_000)
    parser.add_argument("--depth", type=int, default=16)
    parser.add_argument("--block", type=int, default=256)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--record", action="store_true", help="store the results in docs/measurements/scaling.json")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()[0]
    print(f"load average before: {os.getloadavg()}; cores: {os.cpu_count()}")
    runs, depth = (1_024, 14) if args.quick else (args.runs, args.depth)
    leaves, block = 1 << depth, min(args.block, runs)
    values = runs * leaves

    def normals() -> None:
        generator = np.random.default_rng(1)
        for start in range(0, runs, block):
            generator.standard_normal((min(block, runs - start), leaves))

    def cascade() -> None:
        for start in range(0, runs, block):
            cascade_leaves_runs(depth, 1.0, min(block, runs - start), 7, start)

    baseline, seconds = _paired(normals, cascade, args.repeat)
    print(f"cascade: {runs:,} runs × 2^{depth} leaves = {values:.3g} values in blocks of {block} runs")
    _report("standard normals (baseline)", values, baseline, baseline)
    samplers = {"batched Cascade Sampling": _report("batched Cascade Sampling", values, seconds, baseline)}

    runs_small, horizon, size = (200, 1_000, 1_000) if args.quick else (1_000, 10_000, 10_000)
    count = runs_small * horizon
    zeros = np.zeros(horizon, dtype=np.int64)
    def small_normals() -> None:
        np.random.default_rng(1).standard_normal((runs_small, horizon))

    print(f"\nKARY and discrete samplers: {runs_small:,} runs × {horizon:,} values")
    cases: list[tuple[str, Callable[[], object]]] = [
        ("KARY Algorithm 1, arity 2, Laplace", lambda: algorithm_1_runs(zeros, 2, 1.0, runs_small, 3)),
        ("KARY Algorithm 1, arity 4, Laplace", lambda: algorithm_1_runs(zeros, 4, 1.0, runs_small, 3)),
        ("KARY Algorithm 2, arity 3, Laplace", lambda: algorithm_2_runs(zeros, 3, 1.0, runs_small, 3)),
        ("KARY Algorithm 2, arity 5, Laplace", lambda: algorithm_2_runs(zeros, 5, 1.0, runs_small, 3)),
        ("discrete Laplace, scale 10", lambda: discrete_laplace_runs(10, size, runs_small, 3)),
        ("discrete Gaussian, sigma^2 = 100", lambda: discrete_gaussian_runs(100, size, runs_small, 3)),
    ]
    for name, action in cases:
        baseline, seconds = _paired(small_normals, action, args.repeat)
        samplers[name] = _report(f"{name} (normals: {1e9 * baseline / count:.1f} ns)", count, seconds, baseline)
    print(f"load average after: {os.getloadavg()}")
    if args.record:
        from measurement_record import record_run  # beside this script

        record_run("scaling", "bench_batched", {"runs": runs, "depth": depth, "block": block, "small_runs": runs_small,
                                                "horizon": horizon, "samplers": samplers}, load_before)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
