"""Benchmark of InfTDA's numeric path (reference.tda.mechanism.inftda_numeric), reported as ratios.

    python benchmarks/bench_inftda.py [--quick]

1. Time: the default dataset (reference.tda.data.default_dataset, d = 6, 8640 leaves) with 10**6 records
   (10**5 with ``--quick``): ``prefix_counts`` and ``inftda_numeric`` (ρ = 1), each against a baseline
   measured in the same process, ``numpy.sort`` of as many int64 values as there are records.
2. Memory: tracemalloc peak of ``inftda_numeric`` (numpy allocations are traced) against the number of
   non-zero nodes of the true tree and of the output, for growing n on the default dataset and on a sparse
   hierarchy with a huge universe (6 attributes × 40 categories, 40**6 ≈ 4.1e9 leaves), where memory follows
   the released nodes × |X_level|, not the universe.

Nothing is asserted: this script reports.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc
from collections.abc import Callable
from functools import partial

import numpy as np

from reference.tda.data import Hierarchy, PrefixTree, default_dataset, prefix_counts
from reference.tda.mechanism import inftda_numeric


def _timed(action: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    result = action()
    return time.perf_counter() - start, result


def _peak(action: Callable[[], object]) -> tuple[int, object]:
    tracemalloc.start()
    result = action()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak, result


def _sparse(size: int, seed: int) -> tuple[Hierarchy, np.ndarray]:
    categories = 40
    hierarchy = Hierarchy.build([f"a{i}" for i in range(6)], [[f"c{j}" for j in range(categories)]] * 6)
    gen = np.random.default_rng(seed)
    weights = 1.0 / np.arange(1, categories + 1) ** 2
    records = gen.choice(categories, size=(size, 6), p=weights / weights.sum())
    return hierarchy, records.astype(np.int64)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    size = 10**5 if args.quick else 10**6
    hierarchy, records = default_dataset(size=size, seed=0)
    baseline, _ = _timed(lambda: np.sort(np.random.default_rng(1).integers(0, 2**40, size)))
    count_time, tree = _timed(lambda: prefix_counts(records, hierarchy))
    assert isinstance(tree, PrefixTree)
    release_time, released = _timed(lambda: inftda_numeric(tree, hierarchy, 1.0, 2))
    assert isinstance(released, PrefixTree)
    print(f"default dataset, n = {size}, d = 6, {len(tree)} true non-zero nodes, {len(released)} released")
    print(f"  baseline numpy.sort of {size} int64: {baseline:.4f} s")
    print(f"  prefix_counts:  {count_time:.3f} s  ({count_time / baseline:.1f} x baseline)")
    print(f"  inftda_numeric: {release_time:.3f} s  ({release_time / baseline:.1f} x baseline)")
    print(f"  total: {count_time + release_time:.3f} s (target for 10**6 records: under 10 s)")

    print("peak memory of inftda_numeric (tracemalloc) vs non-zero nodes")
    print(f"  {'dataset':>8} {'n':>8} {'true nodes':>11} {'released':>9} {'peak KiB':>9} {'bytes/node':>10}")
    sizes = [10**3, 10**4, 10**5] if args.quick else [10**3, 10**4, 10**5, 10**6]
    for name, make in (("default", default_dataset), ("sparse", _sparse)):
        for n in sizes:
            shape, rows = make(n, 0)
            true_tree = prefix_counts(rows, shape)
            peak, out = _peak(partial(inftda_numeric, true_tree, shape, 1.0, 3))
            assert isinstance(out, PrefixTree)
            nodes = max(len(true_tree), len(out))
            print(f"  {name:>8} {n:>8} {len(true_tree):>11} {len(out):>9} {peak / 1024:>9.0f} {peak / nodes:>10.0f}")


if __name__ == "__main__":
    main()
