"""Benchmark of ``audit sampler-function`` on the project's own batched Cascade Sampling: 1 worker against 2.

    python benchmarks/bench_sampler_function.py [--quick] [--depth D] [--runs R] [--chunk-runs C] [--block-runs B]

Audits ``examples.batched_samplers:cascade_depth_20`` (depth 20, σ = 1; ``--depth`` other than 20 uses
``cascade_depth_6``) for ``R`` runs (default 10^4) with 1 worker (Dask's synchronous scheduler, in this process)
and with 2 local worker processes, same seed. Reported, all measured in this run:

* throughput (values per second) of each, and its ratio 2 workers / 1 worker (the 2-worker time includes starting
  the worker processes);
* that the two verdicts and the SHA-256 of the exact statistics are identical;
* the cost per block: sampling alone (the batched sampler, one chunk) and the full per-block work, in ns per value;
* peak memory: with 1 worker, the peak traced allocation (tracemalloc) in this process, against one chunk's draws and
  one block's; with 2 workers, the largest peak resident set of a worker process (includes the interpreter).

The 2-worker ratio is printed beside this machine's parallel capacity at the time, measured in the same run: two
concurrent CPU-bound processes against one (2.0 on two idle cores; other processes sharing the cores lower it).

``--quick``: 256 runs at depth 20 (blocks of 16 runs). Nothing is asserted: this script reports.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

# the targets live in examples/ at the repository root: importable when the script runs as documented
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reference.audit.cascade_stream import CascadeMoments
from reference.audit.sampler_function import audit_sampler_function
from reference.audit.sampler_target import Mechanism
from reference.cip.numeric.cascade_runs import cascade_leaves_runs


def _spin(seed: int) -> float:
    """A fixed CPU-bound job (normals), its wall seconds: the calibration of how many cores are really free."""
    start = time.perf_counter()
    generator = np.random.default_rng(seed)
    for _ in range(30):
        generator.standard_normal(1 << 22)
    return time.perf_counter() - start


def _capacity() -> float:
    """Throughput of two concurrent spins over one spin alone (2.0 on two idle cores; less when other processes
    share the cores): the best the 2-worker audit could do on this machine now."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        list(pool.map(_spin, [0, 1]))  # start the workers first
        alone = pool.submit(_spin, 2).result()
        start = time.perf_counter()
        list(pool.map(_spin, [3, 4]))
        together = time.perf_counter() - start
    return 2 * alone / together


def _cpu_seconds() -> float:
    """CPU seconds of this process and of its finished children."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="256 runs")
    parser.add_argument("--depth", type=int, default=20, choices=[6, 20])
    parser.add_argument("--runs", type=int, default=10_000)
    parser.add_argument("--chunk-runs", type=int, default=4, help="runs per call of the target (default 4)")
    parser.add_argument("--block-runs", type=int, default=64, help="runs per block (default 64)")
    args = parser.parse_args(argv)
    runs = 256 if args.quick else args.runs
    if args.quick:
        args.block_runs = 16
    depth = args.depth
    leaves = 1 << depth
    target = f"examples.batched_samplers:cascade_depth_{depth}"
    sigma = 1.0 if depth == 20 else 2.0
    mechanism = Mechanism("cascade", depth=depth, sigma=sigma)
    chunk_bytes, block_bytes = args.chunk_runs * leaves * 8, args.block_runs * leaves * 8
    print(f"audit sampler-function, cascade depth {depth}: {runs:,} runs × 2^{depth} = {runs * leaves:.3g} values; "
          f"chunks of {args.chunk_runs} runs ({chunk_bytes / 2**20:.0f} MiB), blocks of {args.block_runs} runs "
          f"({block_bytes / 2**20:.0f} MiB)")

    # the per-block cost: one chunk sampled, then sampled and folded into the statistics (best of 3, warm-up first)
    moments = CascadeMoments(depth, sigma)
    moments.add(cascade_leaves_runs(depth, sigma, args.chunk_runs, 1))
    sampled = folded = float("inf")
    for repeat in range(3):
        start = time.perf_counter()
        draws = cascade_leaves_runs(depth, sigma, args.chunk_runs, 2 + repeat)
        middle = time.perf_counter()
        moments.add(draws)
        sampled, folded = min(sampled, middle - start), min(folded, time.perf_counter() - start)
    values = args.chunk_runs * leaves
    print(f"per chunk: sampling {1e9 * sampled / values:.1f} ns/value, sampling + statistics "
          f"{1e9 * folded / values:.1f} ns/value")
    print(f"load average before the runs: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores (other processes "
          "share them: compare the CPU-time throughputs too)")

    results = {}
    for workers in (1, 2):
        if workers == 1:
            tracemalloc.start()
        start, cpu = time.perf_counter(), _cpu_seconds()
        result = audit_sampler_function(target, mechanism, runs, 2026, workers=workers,
                                        chunk_runs=args.chunk_runs, block_runs=args.block_runs)
        seconds, cpu = time.perf_counter() - start, _cpu_seconds() - cpu
        print(f"{workers} worker(s): CPU time {cpu:.1f} s in all processes, {runs * leaves / cpu:.3g} values per CPU second")
        if workers == 1:
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            print(f"1 worker:  {seconds:7.1f} s, {runs * leaves / seconds:.3g} values/s; peak traced memory "
                  f"{peak / 2**20:.0f} MiB = {peak / chunk_bytes:.2f} x one chunk = {peak / block_bytes:.2f} x one block")
        else:
            child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
            print(f"2 workers: {seconds:7.1f} s, {runs * leaves / seconds:.3g} values/s; largest worker peak RSS "
                  f"{child / 2**20:.0f} MiB = {child / block_bytes:.2f} x one block (interpreter included)")
        results[workers] = (seconds, result["verdict"], result["statistics_sha256"])
    print(f"throughput 2 workers / 1 worker: {results[1][0] / results[2][0]:.2f}x (this machine's parallel capacity "
          f"now, two CPU-bound processes against one: {_capacity():.2f}x)")
    same = results[1][1:] == results[2][1:]
    print(f"verdict {results[1][1]}; identical verdict and statistics digest: {same}")
    per_value = folded / values
    print(f"estimate for 10^12 values on 100 workers at this per-block cost: "
          f"{1e12 * per_value / 100 / 60:.1f} min (perfect scaling, no transfer; see README 'Scaling')")
    return 0 if np.isfinite(per_value) else 1


if __name__ == "__main__":
    raise SystemExit(main())
