"""Exact statistics of all ranges of C_depth: the O(depth) closed-form total (and mean) at depth 24, against the
O(n²) column recurrence at a depth it can reach, and the maximum by the halves' convex-hull sweep.

    python benchmarks/bench_ranges.py [--recurrence-depth 12] [--maximum-depth 20]

Reported (CPU seconds, this process): ``total_range_variance(24)`` (all 1.4·10^14 ranges' total and mean, exact);
``all_range_statistics(d)`` (every range, O(4^d)) at ``--recurrence-depth`` as the baseline, with the per-range cost
and what it would take at depth 24 at that rate; ``range_maxima(--maximum-depth)`` (maximum and maximisers,
O(2^d) per depth). The load average is printed. Nothing is asserted: this script reports.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reference.cip.exact.range_maximum import range_maxima
from reference.cip.exact.ranges import all_range_statistics, total_range_variance


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--recurrence-depth", type=int, default=12)
    parser.add_argument("--maximum-depth", type=int, default=20)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()}; cores: {os.cpu_count()}")
    start = time.process_time()
    total = total_range_variance(24)
    closed = time.process_time() - start
    count = (1 << 24) * ((1 << 24) + 1) // 2
    print(f"closed form, depth 24: total {float(total):.6e}, mean {float(total / count):.6f} over {count:.3e} "
          f"ranges, exact, {closed * 1e3:.2f} ms CPU")
    depth = args.recurrence_depth
    start = time.process_time()
    stats = all_range_statistics(depth)
    recurrence = time.process_time() - start
    per_range = recurrence / stats.count
    print(f"recurrence (baseline), depth {depth}: {recurrence:.2f} s CPU for {stats.count:.3e} ranges "
          f"({per_range * 1e9:.1f} ns a range; depth 24 at that rate: {per_range * count / 3600:.0f} h); the two "
          f"totals agree at depth {depth}: {stats.total_variance == total_range_variance(depth)}")
    start = time.process_time()
    maxima = range_maxima(args.maximum_depth)
    hull = time.process_time() - start
    swept = sum((1 << d) * ((1 << d) + 1) // 2 for d in range(args.maximum_depth + 1))
    print(f"maximum by halves, depths 0..{args.maximum_depth}: {hull:.2f} s CPU (goal <= 10 s); depth "
          f"{args.maximum_depth}: {float(maxima[-1].max_variance):.6f} at {list(maxima[-1].maximisers)}; CPU / the "
          f"recurrence over the same depths' {swept:.3e} ranges at its rate = {hull / (per_range * swept):.2e}")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
