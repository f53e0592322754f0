"""Benchmark of the exact CIP layer, with a baseline measured in the same process.

    python benchmarks/bench_exact.py [--quick] [--json]

* exact all-range statistics (max, argmax, total over all n(n+1)/2 ranges) at depth 14 (``--quick``: 12),
  against the baseline of the same loop shape in floats: for each of the n columns one ``numpy.cumsum`` of a
  float vector as long as the column (n(n+1)/2 elements in all);
* exact inversion of C_depth by elimination at depth 10 (``--quick``: 8), including building the exact matrix
  and the ``C @ X == I`` certificate, against the baseline ``numpy.linalg.inv`` of the float image.

The targets are absolute (each under a minute on two cores); the ratios show what exactness costs.
Nothing is asserted: this script reports.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from reference.cip.exact import matrix as cip_matrix
from reference.cip.exact import ranges as cip_ranges


def _seconds(action: object) -> float:
    start = time.perf_counter()
    action()  # type: ignore[operator]
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    range_depth = 12 if args.quick else 14
    inverse_depth = 8 if args.quick else 10

    n = 1 << range_depth
    ones = np.ones(n)

    def float_columns() -> None:
        for b in range(n):
            np.cumsum(ones[: b + 1])  # result discarded: only the pass over the column is timed

    baseline_ranges = _seconds(float_columns)
    stats_holder: list[cip_ranges.RangeStatistics] = []
    exact_ranges = _seconds(lambda: stats_holder.append(cip_ranges.all_range_statistics(range_depth)))
    stats = stats_holder[0]

    m = 1 << inverse_depth
    float_matrix = np.array(
        [
            [float(cip_matrix.covariance_entry_from_height(cip_matrix.lca_height(i, j))) for j in range(m)]
            for i in range(m)
        ]
    )
    baseline_inverse = _seconds(lambda: np.linalg.inv(float_matrix))
    exact_inverse = _seconds(lambda: cip_matrix.inverse_by_elimination(inverse_depth))

    rows = {
        "all_range_statistics": {
            "depth": range_depth,
            "ranges": stats.count,
            "seconds": exact_ranges,
            "baseline_seconds": baseline_ranges,
            "ratio": exact_ranges / baseline_ranges,
            "max_variance": str(stats.max_variance),
            "argmax": list(stats.argmax),
        },
        "inverse_by_elimination": {
            "depth": inverse_depth,
            "size": m,
            "seconds": exact_inverse,
            "baseline_seconds": baseline_inverse,
            "ratio": exact_inverse / baseline_inverse,
        },
    }
    if args.json:
        print(
            json.dumps(
                {
                    k: {kk: (f"{vv:.6g}" if isinstance(vv, float) else vv) for kk, vv in v.items()}
                    for k, v in rows.items()
                },
                indent=2,
            )
        )
        return
    print(f"{'task':26s} {'size':>22s} {'exact s':>9s} {'baseline s':>11s} {'ratio':>8s}")
    r = rows["all_range_statistics"]
    print(
        f"{'all-range statistics':26s} {f'depth {range_depth} ({stats.count} ranges)':>22s} {exact_ranges:9.2f} "
        f"{baseline_ranges:11.3f} {r['ratio']:8.1f}"
    )
    print(
        f"{'inverse by elimination':26s} {f'depth {inverse_depth} ({m}x{m})':>22s} {exact_inverse:9.2f} "
        f"{baseline_inverse:11.3f} {exact_inverse / baseline_inverse:8.1f}"
    )


if __name__ == "__main__":
    main()
