"""Benchmark of probing a user's continual counter for its exact noise map, against calling the user's function
itself in the same run.

    python benchmarks/bench_probe.py [--quick] [--fast-only] [--json] [--repeats N] [--end-to-end] [--clock cpu]

The user's counter is the binary mechanism on a Fenwick tree: one noise draw per Fenwick node (T draws), output
t adds the draws of the Fenwick nodes tiling [1, t] (T log T non-zeros). Versions, as users write them:

* ``fast``: a scipy.sparse matrix times the draws (``B @ z``: microseconds per call, the hardest baseline),
  probed one draw per call (``inputs="float64"``), in batches (``batch=True``: draws × probes per call) and in
  sparse batches (``unit_blocks="sparse"``: scipy.sparse probe columns, a sparse result);
* ``loop``: numpy, one fancy-indexed sum per output (a Python loop of T per call);
* ``exact``: plain Python on the tuple of Fractions (``inputs="exact"``).

Probes: :func:`probe_linear_columns` (sparse exact columns; ``columns+read``: and its columns read once, a dict per
column, as the exact audit reads them) and, for comparison, :func:`probe_linear_map` (the dense Matrix). Baselines, measured alternately with the probe (median of ``--repeats`` pairs):

* one draw per call: T calls of the same function at seeded random draws;
* batch: the same function on T seeded random probe columns, in calls of the width the probe uses
  (:func:`batch_width`: one call of T columns up to T = 1,024);
* sparse (``unit_blocks="sparse"``): the same function on T seeded random sparse probe columns (one stored
  entry each, at a random row), in calls of the width the probe uses (one call up to T = 65,536).

Reported: seconds (wall clock; ``--clock cpu``: this process's CPU time, which a loaded machine inflates far less),
the ratio probe / baseline, and the load average before and after. Goals: the sparse probe
within 2x of its baseline in both modes. ``--end-to-end``: also ``assert_prefix_counter`` (probe + exact audit)
at T = 256, 512 and 1,024 against T calls. Nothing is asserted: this script reports.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout's reference, as documented above

from reference.audit.linear.probe_linear import batch_width, probe_linear_columns, probe_linear_map
from reference.testing import assert_prefix_counter


def fenwick_nodes(step: int) -> list[int]:
    """0-based draws of the Fenwick nodes tiling [1, step]."""
    nodes = []
    while step > 0:
        nodes.append(step - 1)
        step -= step & -step
    return nodes


def fenwick_sparse(horizon: int) -> Any:
    rows, cols = [], []
    for step in range(1, horizon + 1):
        for node in fenwick_nodes(step):
            rows.append(step - 1)
            cols.append(node)
    return scipy.sparse.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(horizon, horizon))


def fast_counter(horizon: int) -> Callable[[Any], Any]:
    matrix = fenwick_sparse(horizon)

    def noise(draws: Any) -> Any:
        return matrix @ draws  # a numpy array for numpy draws, a sparse matrix for sparse ones

    return noise


def exact_counter(horizon: int) -> Callable[[Sequence[Fraction]], list[Fraction]]:
    tiles = [fenwick_nodes(step) for step in range(1, horizon + 1)]

    def noise(draws: Sequence[Fraction]) -> list[Fraction]:
        return [sum((draws[node] for node in tile), Fraction(0)) for tile in tiles]

    return noise


def loop_counter(horizon: int) -> Callable[[np.ndarray], np.ndarray]:
    tiles = [np.array(fenwick_nodes(step)) for step in range(1, horizon + 1)]

    def noise(draws: np.ndarray) -> np.ndarray:
        return np.stack([draws[tile].sum(axis=0) for tile in tiles])

    return noise


CLOCK: list[Callable[[], float]] = [time.perf_counter]  # time.process_time with --clock cpu


def timed(work: Callable[[], Any]) -> float:
    clock = CLOCK[0]
    start = clock()
    work()
    return clock() - start


def one_at_a_time_baseline(function: Callable[[Any], Any], horizon: int, exact: bool) -> Callable[[], None]:
    rng = random.Random(1)
    if exact:
        points: list[Any] = [tuple(Fraction(rng.randint(-9, 9)) for _ in range(horizon)) for _ in range(horizon)]
    else:  # a pool of 64 points, cycled (T points of T draws would be T² floats)
        generator = np.random.default_rng(1)
        pool = [generator.standard_normal(horizon) for _ in range(min(64, horizon))]
        points = [pool[index % len(pool)] for index in range(horizon)]

    def run() -> None:
        for point in points:
            function(point)

    return run


def batch_baseline(function: Callable[[Any], Any], horizon: int) -> Callable[[], None]:
    width = batch_width(horizon, 8)
    generator = np.random.default_rng(1)
    blocks = [generator.standard_normal((horizon, min(width, horizon - start)))
              for start in range(0, horizon, width)]

    def run() -> None:
        for block in blocks:
            function(block)

    return run


def sparse_batch_baseline(function: Callable[[Any], Any], horizon: int) -> Callable[[], None]:
    width = batch_width(horizon, 8, "sparse")
    generator = np.random.default_rng(1)
    blocks = []
    for start in range(0, horizon, width):
        columns = min(width, horizon - start)  # one stored entry per column, at a random row
        blocks.append(scipy.sparse.csc_array((generator.standard_normal(columns),
                                              generator.integers(0, horizon, columns), np.arange(columns + 1)),
                                             shape=(horizon, columns)))

    def run() -> None:
        for block in blocks:
            function(block)

    return run


def measure(horizon: int, version: str, mode: str, probe: str, repeats: int) -> dict[str, Any]:
    """Median seconds of the probe and of its baseline, measured alternately."""
    batch = mode in ("batch", "sparse")
    if version == "exact":
        function: Any = exact_counter(horizon)
        base = one_at_a_time_baseline(function, horizon, exact=True)
        inputs = "exact"
    else:
        function = fast_counter(horizon) if version == "fast" else loop_counter(horizon)
        base = (sparse_batch_baseline(function, horizon) if mode == "sparse" else batch_baseline(function, horizon)
                if batch else one_at_a_time_baseline(function, horizon, False))
        inputs = "float64"
    if probe == "assert_prefix_counter":
        def work() -> Any:
            return assert_prefix_counter(function, draws=horizon, horizon=horizon, noise="gaussian", scale=10,
                                         rho=10, inputs="float64", batch=batch)
    else:
        probing = probe_linear_map if probe == "dense" else probe_linear_columns

        def probed() -> Any:
            if mode == "sparse":
                return probe_linear_columns(function, draws=horizon, inputs="float64", batch=True,
                                            unit_blocks="sparse")
            return probing(function, draws=horizon, inputs=inputs, batch=batch)  # type: ignore[arg-type]

        def work() -> Any:
            result = probed()
            # "columns+read": the exact columns read once, as the audit reads them (a dict per column, the reader's)
            return result.columns(False) if probe == "columns+read" else result
    probe_times, base_times = [], []
    for _ in range(repeats):
        base_times.append(timed(base))
        probe_times.append(timed(work))
    probe_seconds, base_seconds = statistics.median(probe_times), statistics.median(base_times)
    return {"horizon": horizon, "version": version, "mode": mode, "probe": probe,
            "probe_seconds": round(probe_seconds, 4), "baseline_seconds": round(base_seconds, 4),
            "ratio": round(probe_seconds / base_seconds, 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="T = 1,024 only")
    parser.add_argument("--fast-only", dest="fast_only", action="store_true",
                        help="only the rows of the fast (scipy.sparse) counter: a run of seconds, not minutes")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--repeats", type=int, default=5, help="alternating pairs per row (default 5)")
    parser.add_argument("--end-to-end", dest="end_to_end", action="store_true",
                        help="also time assert_prefix_counter (probe + exact audit) at T = 256, 512, 1,024")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="wall-clock seconds (default) or this process's CPU seconds")
    args = parser.parse_args()
    CLOCK[0] = time.process_time if args.clock == "cpu" else time.perf_counter
    load_before = os.getloadavg()[0]
    plan: list[tuple[int, str, str, str, int]] = [
        (1024, "fast", "one", "columns", args.repeats), (1024, "fast", "batch", "columns", args.repeats),
        (1024, "fast", "one", "columns+read", args.repeats), (1024, "fast", "batch", "columns+read", args.repeats),
        (1024, "fast", "sparse", "columns", args.repeats),
        (1024, "fast", "one", "dense", args.repeats), (1024, "fast", "batch", "dense", args.repeats),
        (1024, "loop", "one", "columns", 3), (1024, "exact", "one", "columns", 3),
    ]
    if args.fast_only:
        plan = [entry for entry in plan if entry[1] == "fast"]
    if not args.quick:
        plan += [(10_000, "fast", "one", "columns", 3), (10_000, "fast", "batch", "columns", 3),
                 (10_000, "fast", "sparse", "columns", 3), (100_000, "fast", "sparse", "columns", 3)]
    if args.end_to_end:
        plan += [(horizon, "fast", "batch", "assert_prefix_counter", 1) for horizon in (256, 512, 1024)]
    rows = []
    for entry in plan:
        rows.append(measure(*entry))
        if not args.json:
            print(f"measured: {rows[-1]}", flush=True)
    load_after = os.getloadavg()[0]
    if args.json:
        print(json.dumps({"rows": rows, "load_before": load_before, "load_after": load_after,
                          "cores": os.cpu_count(), "python": platform.python_version()}, indent=2))
        return
    print(f"load average before: {load_before:.2f}, after: {load_after:.2f} on {os.cpu_count()} cores; "
          f"clock: {args.clock}")
    print(f"{'T':>7}  {'function':<8} {'mode':<6} {'probe':<22} {'probe s':>9} {'baseline s':>11} {'ratio':>7}")
    for row in rows:
        print(f"{row['horizon']:>7}  {row['version']:<8} {row['mode']:<6} {row['probe']:<22} "
              f"{row['probe_seconds']:>9.4f} {row['baseline_seconds']:>11.4f} {row['ratio']:>7.3f}")


if __name__ == "__main__":
    main()
