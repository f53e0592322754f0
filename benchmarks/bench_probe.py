"""Benchmark of probing a user's continual counter for its exact noise map, against calling the user's function
once per output, in the same run.

    python benchmarks/bench_probe.py [--quick] [--json]

The user's counter is the binary mechanism on a Fenwick tree: one noise draw per Fenwick node (T draws), output
t adds the draws of the Fenwick nodes tiling [1, t]. Three versions, as users write them:

* ``exact``: plain Python on the tuple of Fractions (:func:`probe_linear_map` ``inputs="exact"``);
* ``float64 one at a time``: numpy, a 1-D array of draws (``inputs="float64"``);
* ``float64 batch``: numpy vectorised over a last axis of probes (``inputs="float64", batch=True``: every unit
  draw in a few calls).

Baseline: T calls of the same function at seeded random draws (one call per output). Reported: seconds, the
ratio probing / baseline, and the load average before and after. Goals: T = 1,024 in <= 2 s and T = 10,000 in
<= 30 s with batches; otherwise <= 1.5x the baseline.

``--end-to-end``: also ``assert_prefix_counter`` on the batched counter (probe, then the exact Gaussian audit of
the T × T release against a ρ claim) at T = 256, 512 and 1,024, with the same baseline. Nothing is asserted:
this script reports.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from reference.audit.linear.probe_linear import probe_linear_map
from reference.testing import assert_prefix_counter


def fenwick_nodes(step: int) -> list[int]:
    """0-based draws of the Fenwick nodes tiling [1, step]."""
    nodes = []
    while step > 0:
        nodes.append(step - 1)
        step -= step & -step
    return nodes


def exact_counter(horizon: int) -> Callable[[Sequence[Fraction]], list[Fraction]]:
    tiles = [fenwick_nodes(step) for step in range(1, horizon + 1)]

    def noise(draws: Sequence[Fraction]) -> list[Fraction]:
        return [sum((draws[node] for node in tile), Fraction(0)) for tile in tiles]

    return noise


def float_counter(horizon: int) -> Callable[[np.ndarray], np.ndarray]:
    tiles = [np.array(fenwick_nodes(step)) for step in range(1, horizon + 1)]

    def noise(draws: np.ndarray) -> np.ndarray:
        return np.stack([draws[tile].sum(axis=0) for tile in tiles])

    return noise


def timed(work: Callable[[], Any]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def baseline(function: Callable[[Any], Any], horizon: int, make: Callable[[random.Random], Any]) -> float:
    rng = random.Random(1)
    points = [make(rng) for _ in range(horizon)]
    start = time.perf_counter()
    for point in points:
        function(point)
    return time.perf_counter() - start


def measure(horizon: int, modes: Sequence[str]) -> list[dict[str, Any]]:
    rows = []
    for mode in modes:
        if mode == "assert_prefix_counter":  # probe + the exact audit, end to end
            function: Any = float_counter(horizon)
            base = baseline(function, horizon, lambda rng: np.array([rng.gauss(0, 1) for _ in range(horizon)]))
            probe = timed(lambda f=function: assert_prefix_counter(
                f, draws=horizon, horizon=horizon, noise="gaussian", scale=10, rho=10, inputs="float64", batch=True))
        elif mode == "exact":
            function = exact_counter(horizon)
            base = baseline(function, horizon,
                            lambda rng: tuple(Fraction(rng.randint(-9, 9)) for _ in range(horizon)))
            probe = timed(lambda f=function: probe_linear_map(f, draws=horizon))
        else:
            function = float_counter(horizon)
            base = baseline(function, horizon, lambda rng: np.array([rng.gauss(0, 1) for _ in range(horizon)]))
            batch = mode == "float64 batch"
            probe = timed(lambda f=function, b=batch: probe_linear_map(f, draws=horizon, inputs="float64", batch=b))
        rows.append({"horizon": horizon, "mode": mode, "probe_seconds": round(probe, 3),
                     "baseline_seconds": round(base, 3), "ratio": round(probe / base, 3)})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="T = 256 and 1,024 only")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--end-to-end", dest="end_to_end", action="store_true",
                        help="also time assert_prefix_counter (probe + exact audit) at T = 256, 512, 1,024")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    plan: list[tuple[int, list[str]]] = [(256, ["exact", "float64 one at a time", "float64 batch"]),
                                         (1024, ["exact", "float64 one at a time", "float64 batch"])]
    if not args.quick:
        plan.append((10_000, ["float64 batch"]))
    if args.end_to_end:
        plan += [(horizon, ["assert_prefix_counter"]) for horizon in (256, 512, 1024)]
    rows = [row for horizon, modes in plan for row in measure(horizon, modes)]
    load_after = os.getloadavg()[0]
    if args.json:
        print(json.dumps({"rows": rows, "load_before": load_before, "load_after": load_after,
                          "cores": os.cpu_count(), "python": platform.python_version()}, indent=2))
        return
    print(f"load average before: {load_before:.2f}, after: {load_after:.2f} on {os.cpu_count()} cores")
    print(f"{'T':>6}  {'mode':<22} {'probe s':>9} {'T calls s':>10} {'ratio':>7}")
    for row in rows:
        print(f"{row['horizon']:>6}  {row['mode']:<22} {row['probe_seconds']:>9.3f} {row['baseline_seconds']:>10.3f} "
              f"{row['ratio']:>7.3f}")


if __name__ == "__main__":
    main()
