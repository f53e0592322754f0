"""Time-based cost estimates against measured seconds, in the same run.

    nice python benchmarks/bench_estimates.py [--quick] [--json]

The commands that refuse work by a time estimate (``cascade matrix``, ``cascade ranges``, ``kary matrices``)
estimate seconds on idle cores from a formula measured once (12 s at depth 10, tripling per depth; 5 s at depth
15, quadrupling per depth; 3.4 s at T = 400, growing with T²). Here each formula is evaluated next to the work
it prices, on sizes a few steps below the documented limits, and the ratio measured / estimated is printed
together with the machine's one-minute load per core (the factor ``refuse_if_costly`` scales estimates by).
A ratio near 1 on an idle machine means the formula still prices the code; above 1 means the limit of 20 s
is no longer safe. Nothing is asserted: this script reports. The size-based estimates (vertices, lattice
terms, values, entries, bytes) are checked exactly by ``tests/core/test_cost_estimates.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from collections.abc import Callable
from functools import partial

from reference.cip.exact import matrix as cip_matrix
from reference.cip.exact.ranges import all_range_statistics
from reference.cli.cascade import estimated_matrix_seconds, estimated_ranges_seconds
from reference.cli.common import load_factor
from reference.cli.kary import estimated_matrices_seconds
from reference.kary import tree as kary_tree


def _seconds(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def _cascade_matrix(depth: int) -> None:
    # what `cascade matrix` computes: C, its inverse by elimination, and the Lemma B.2 check
    cip_matrix.covariance(depth)
    inverse = cip_matrix.inverse_by_elimination(depth)
    assert inverse == cip_matrix.inverse_by_lemma_b2(depth)


def _kary_matrices(arity: int, height: int) -> None:
    # what `kary matrices` computes (Algorithm 1's matrices at the tree's capacity)
    kary_tree.strategy_matrix(arity, height, subtraction=False)
    kary_tree.reconstruction_matrix(arity, height, subtraction=False)
    kary_tree.check_factorization(arity, height, subtraction=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes (about ten seconds in all)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    matrix_depths = [6, 7] if args.quick else [7, 8, 9]
    range_depths = [10, 11] if args.quick else [12, 13, 14]
    kary_shapes = [(3, 4), (3, 5)] if args.quick else [(3, 5), (2, 8), (7, 3)]
    rows: list[dict[str, object]] = []
    for depth in matrix_depths:
        rows.append({"estimate": "cascade matrix", "size": f"depth {depth}",
                     "estimated_s": estimated_matrix_seconds(depth), "measured_s": _seconds(partial(_cascade_matrix, depth))})
    for depth in range_depths:
        rows.append({"estimate": "cascade ranges", "size": f"depth {depth}", "estimated_s": estimated_ranges_seconds(depth),
                     "measured_s": _seconds(partial(all_range_statistics, depth))})
    for arity, height in kary_shapes:
        horizon = arity**height - 1
        rows.append({"estimate": "kary matrices", "size": f"arity {arity}, height {height} (T = {horizon})",
                     "estimated_s": estimated_matrices_seconds(horizon),
                     "measured_s": _seconds(partial(_kary_matrices, arity, height))})
    load = os.getloadavg()[0] / (os.cpu_count() or 1)
    for row in rows:
        row["measured_over_estimated"] = float(row["measured_s"]) / float(row["estimated_s"])  # type: ignore[arg-type]
    if args.json:
        print(json.dumps({"machine": platform.platform(), "cores": os.cpu_count(), "load_per_core": load,
                          "load_factor": load_factor(), "rows": rows}, indent=2))
        return
    print(f"machine: {platform.platform()}, {os.cpu_count()} cores, load per core {load:.2f} "
          f"(estimates are scaled by {load_factor():.2f} before a refusal)")
    print(f"{'estimate':16} {'size':34} {'estimated s':>12} {'measured s':>11} {'ratio':>7}")
    for row in rows:
        print(f"{row['estimate']:16} {row['size']:34} {float(row['estimated_s']):12.3g} "  # type: ignore[arg-type]
              f"{float(row['measured_s']):11.3g} {float(row['measured_over_estimated']):7.2f}")  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
