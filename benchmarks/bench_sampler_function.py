"""Benchmark of ``audit sampler-function`` on the project's own batched Cascade Sampling: the audit against its floor,
and 1 worker against 2.

    python benchmarks/bench_sampler_function.py [--quick] [--depth D] [--runs R] [--chunk-runs C] [--block-runs B]
                                                [--memory]

Audits ``examples.batched_samplers:cascade_depth_20`` (depth 20, σ = 1; ``--depth`` other than 20 uses
``cascade_depth_6``) for ``R`` runs (default 10^4) with 1 worker (Dask's synchronous scheduler, in this process)
and with 2 local worker processes, same seed. Reported, all measured in this run:

* **the floor and the ratio**: the floor is what any audit of these runs must at least do — draw the same number
  of standard normals, chunk by chunk with the audit's chunk seeds and chunk sizes, and make one reduction pass
  over them (the column sums of the squares, ``einsum``). It is measured just before and just after the
  1-worker audit (CPU seconds of this process); the ratio is the audit's CPU time per value over the faster of
  the two floors (the conservative choice), printed with both floors and the machine's load;
* the cost per chunk: the target alone (the user's function: here the project's batched sampler, which is more
  than normals) and the target plus the statistics, in ns per value;
* throughput (values per second) of 1 and 2 workers, and the ratio 2 workers / 1 worker beside this machine's
  parallel capacity at the time (two concurrent CPU-bound processes against one: 2.0 on two idle cores);
* that the two verdicts and the SHA-256 of the exact statistics are identical;
* with ``--memory``, one more 1-worker audit under tracemalloc (it slows allocation, so it is not the timed one):
  the peak traced allocation against one chunk's draws and one block's; with 2 workers, the largest peak
  resident set of a worker process (includes the interpreter).

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

from reference.audit.samples.cascade_stream import CascadeMoments
from reference.audit.samples.sampler_function import audit_sampler_function
from reference.audit.samples.target import Mechanism, chunk_seed
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


def _floor(runs: int, chunk_runs: int, columns: int, seed: int) -> float:
    """CPU seconds of the floor: the audit's normals (same chunks, same chunk seeds) and one reduction pass."""
    start = time.process_time()
    totals = np.zeros(columns)
    for chunk, first in enumerate(range(0, runs, chunk_runs)):
        draws = chunk_seed(seed, chunk).standard_normal((min(chunk_runs, runs - first), columns))
        totals += np.einsum("ij,ij->j", draws, draws)
    return time.process_time() - start


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
    parser.add_argument("--memory", action="store_true", help="one more 1-worker audit under tracemalloc")
    parser.add_argument("--record", action="store_true", help="store the results in docs/measurements/scaling.json")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()[0]
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
        start = time.process_time()
        draws = cascade_leaves_runs(depth, sigma, args.chunk_runs, 2 + repeat)
        middle = time.process_time()
        moments.add(draws)
        sampled, folded = min(sampled, middle - start), min(folded, time.process_time() - start)
    values = args.chunk_runs * leaves
    print(f"per chunk (CPU, best of 3): the target alone {1e9 * sampled / values:.1f} ns/value, the target + the "
          f"statistics {1e9 * folded / values:.1f} ns/value (statistics {1e9 * (folded - sampled) / values:.1f})")
    print(f"load average before the runs: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores (other processes "
          "share them: compare the CPU-time throughputs too)")

    seed = 2026
    audit_sampler_function("examples.batched_samplers:cascade_depth_6", Mechanism("cascade", depth=6, sigma=2.0),
                           64, seed)  # warm-up: the lazy imports (scipy, dask) are not the audit's work per value
    results = {}
    measured: dict[str, object] = {"runs": runs, "depth": depth, "chunk_runs": args.chunk_runs,
                                   "block_runs": args.block_runs, "target_ns": round(1e9 * sampled / values, 1),
                                   "statistics_ns": round(1e9 * (folded - sampled) / values, 1)}
    for workers in (1, 2):
        if workers == 1:
            floor_before = _floor(runs, args.chunk_runs, leaves, seed)
        start, cpu = time.perf_counter(), _cpu_seconds()
        result = audit_sampler_function(target, mechanism, runs, seed, workers=workers,
                                        chunk_runs=args.chunk_runs, block_runs=args.block_runs)
        seconds, cpu = time.perf_counter() - start, _cpu_seconds() - cpu
        print(f"{workers} worker(s): {seconds:7.1f} s, {runs * leaves / seconds:.3g} values/s; CPU time {cpu:.1f} s in "
              f"all processes, {runs * leaves / cpu:.3g} values per CPU second")
        if workers == 1:
            floor_after = _floor(runs, args.chunk_runs, leaves, seed)
            floor = min(floor_before, floor_after)
            print(f"floor (the same {runs * leaves:.3g} normals in the same chunks + one reduction pass), CPU: "
                  f"{1e9 * floor_before / (runs * leaves):.2f} ns/value before the audit, "
                  f"{1e9 * floor_after / (runs * leaves):.2f} ns/value after")
            print(f"audit, 1 worker, CPU: {1e9 * cpu / (runs * leaves):.2f} ns/value = {cpu / floor:.2f}x the floor "
                  f"(the faster of the two; load average now {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores)")
        else:
            child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
            print(f"2 workers: largest worker peak RSS {child / 2**20:.0f} MiB = {child / block_bytes:.2f} x one block "
                  "(interpreter included)")
            measured["worker_rss_mib"] = round(child / 2**20)
        measured[f"seconds_{workers}"] = round(seconds, 1)
        results[workers] = (seconds, result["verdict"], result["statistics_sha256"])
    if args.memory:
        tracemalloc.start()
        audit_sampler_function(target, mechanism, runs, seed, workers=1, chunk_runs=args.chunk_runs,
                               block_runs=args.block_runs)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        measured["traced_peak_mib"] = round(peak / 2**20)
        print(f"1 worker under tracemalloc: peak traced memory {peak / 2**20:.0f} MiB = {peak / chunk_bytes:.2f} x "
              f"one chunk = {peak / block_bytes:.2f} x one block")
    capacity = _capacity()
    print(f"throughput 2 workers / 1 worker: {results[1][0] / results[2][0]:.2f}x (this machine's parallel capacity "
          f"now, two CPU-bound processes against one: {capacity:.2f}x)")
    same = results[1][1:] == results[2][1:]
    measured.update(capacity=round(capacity, 2), identical=same)
    print(f"verdict {results[1][1]}; identical verdict and statistics digest: {same}")
    per_value = folded / values
    print(f"estimate for 10^12 values on 100 workers at this per-block cost: "
          f"{1e12 * per_value / 100 / 60:.1f} min (perfect scaling, no transfer; see README 'Scaling')")
    if args.record:
        from measurement_record import record_run  # beside this script

        record_run("scaling", "bench_sampler_function", measured, load_before)
    return 0 if np.isfinite(per_value) else 1


if __name__ == "__main__":
    raise SystemExit(main())
