"""Benchmark of numeric Cascade Sampling, as ratios against baselines measured in the same process.

    python benchmarks/bench_cascade.py [--quick] [--json]

* time of ``cascade_leaves(depth, 1.0, gen)`` / time of ``gen.standard_normal(2**depth)`` (same generator
  type, same count of normals; median of a few interleaved repeats), for 2**22 and 2**25 leaves
  (``--quick``: 2**18 and 2**20);
* peak traced memory of ``cascade_leaves`` / size of its output array (``tracemalloc`` sees numpy's buffers);
* ``StreamingCascade.next_noise`` cost per element at lengths 10**4, 10**5, 10**6 (``--quick``: up to 10**5),
  to show that it is flat (O(1) amortised).

Nothing is asserted: this script reports. JSON reals are decimal strings with 17 significant digits.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
import tracemalloc

import numpy as np

from reference.cip.numeric.cascade import cascade_leaves
from reference.cip.numeric.streaming import StreamingCascade


def _real(value: float) -> str:
    return f"{value:.17g}"


def time_leaves(depth: int, repeats: int, seed: int = 0) -> dict[str, float]:
    """Median seconds of the baseline and of cascade_leaves, interleaved so drift hits both alike."""
    gen = np.random.default_rng(seed)
    n = 1 << depth
    baseline: list[float] = []
    cascade: list[float] = []
    for _ in range(repeats):
        start = time.perf_counter()
        normals = gen.standard_normal(n)
        baseline.append(time.perf_counter() - start)
        del normals
        start = time.perf_counter()
        leaves = cascade_leaves(depth, 1.0, gen)
        cascade.append(time.perf_counter() - start)
        del leaves
    base, mine = statistics.median(baseline), statistics.median(cascade)
    return {"baseline_s": base, "cascade_s": mine, "ratio": mine / base}


def peak_memory(depth: int) -> dict[str, float]:
    """Peak traced bytes during one call, over the output's size (baseline: drawing the normals)."""
    gen = np.random.default_rng(1)
    tracemalloc.start()
    normals = gen.standard_normal(1 << depth)
    _, base_peak = tracemalloc.get_traced_memory()
    del normals
    tracemalloc.reset_peak()
    leaves = cascade_leaves(depth, 1.0, gen)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    size = leaves.nbytes
    return {"output_bytes": size, "peak_bytes": peak, "ratio": peak / size, "baseline_ratio": base_peak / size}


def streaming_cost(length: int, seed: int = 0) -> dict[str, float]:
    """Seconds per element over the first ``length`` elements, and the state size at the end."""
    stream = StreamingCascade(1.0, seed)
    step = stream.next_noise
    start = time.perf_counter()
    for _ in range(length):
        step()
    elapsed = time.perf_counter() - start
    return {"per_element_s": elapsed / length, "pending": len(stream.pending), "depth": stream.depth}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="smaller sizes and fewer repeats")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    depths = (18, 20) if args.quick else (22, 25)
    repeats = 3 if args.quick else 5
    lengths = (10**4, 10**5) if args.quick else (10**4, 10**5, 10**6)

    timing = {depth: time_leaves(depth, repeats) for depth in depths}
    memory = {depth: peak_memory(depth) for depth in depths}
    stream = {length: streaming_cost(length) for length in lengths}

    if args.json:
        report = {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "repeats": repeats,
            "cascade_leaves": [
                {
                    "depth": depth,
                    "leaves": 1 << depth,
                    "baseline_seconds": _real(timing[depth]["baseline_s"]),
                    "cascade_seconds": _real(timing[depth]["cascade_s"]),
                    "time_ratio": _real(timing[depth]["ratio"]),
                    "peak_bytes": int(memory[depth]["peak_bytes"]),
                    "output_bytes": int(memory[depth]["output_bytes"]),
                    "memory_ratio": _real(memory[depth]["ratio"]),
                    "baseline_memory_ratio": _real(memory[depth]["baseline_ratio"]),
                }
                for depth in depths
            ],
            "streaming": [
                {
                    "length": length,
                    "seconds_per_element": _real(stream[length]["per_element_s"]),
                    "pending_at_end": int(stream[length]["pending"]),
                    "depth_at_end": int(stream[length]["depth"]),
                }
                for length in lengths
            ],
        }
        json.dump(report, sys.stdout, indent=2)
        print()
        return 0

    print(f"python {platform.python_version()}, numpy {np.__version__}, median of {repeats} repeats")
    print(f"{'leaves':>10} {'normals s':>10} {'cascade s':>10} {'time ratio':>10} {'mem ratio':>10}")
    for depth in depths:
        t, m = timing[depth], memory[depth]
        print(
            f"{'2**' + str(depth):>10} {t['baseline_s']:10.4f} {t['cascade_s']:10.4f} {t['ratio']:10.3f} "
            f"{m['ratio']:10.4f}"
        )
    print(f"{'stream len':>10} {'us/element':>10} {'pending':>10} {'depth':>10}")
    for length in lengths:
        s = stream[length]
        print(f"{length:>10} {s['per_element_s'] * 1e6:10.3f} {int(s['pending']):>10} {int(s['depth']):>10}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
