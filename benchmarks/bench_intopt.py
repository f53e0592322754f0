"""Benchmark of IntOpt: the printed loop against the fast version, in the same process.

    python benchmarks/bench_intopt.py [--quick] [--json]

For d = 10**3, 10**4, 10**5 (``--quick``: 10**3, 10**4) and three input families:

* ``dense``: true counts uniform in 0..100, plus integer noise round(N(0, 10**2)), c = sum of true counts
  (the InfTDA use);
* ``sparse``: 90% of the true counts are 0, the rest uniform in 1..20, same noise, c = sum of true counts;
* ``spike``: x = (M, 0, ..., 0) with M = 100 and c = 0 (about 100 * d iterations), the family on which the paper's "O(c) steps" fails.

Reported: median seconds of each (interleaved repeats), the ratio literal / fast, the literal loop's iteration
count and iterations / d (the number of passes). Nothing is asserted: this script reports.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

from reference.tda.intopt import intopt_literal_with_count, intopt_with_count


def _real(value: float) -> str:
    return f"{value:.17g}"


def make_input(family: str, dim: int, seed: int) -> tuple[list[int], int]:
    """One input of the named family (see the module docstring)."""
    gen = np.random.default_rng(seed)
    if family == "spike":
        return [100] + [0] * (dim - 1), 0
    if family == "dense":
        true = gen.integers(0, 101, size=dim)
    elif family == "sparse":
        true = np.where(gen.random(dim) < 0.9, 0, gen.integers(1, 21, size=dim))
    else:
        raise ValueError(f"family must be dense, sparse or spike, got {family!r}")
    noise = np.rint(gen.normal(0.0, 10.0, size=dim)).astype(np.int64)
    return [int(v) for v in true + noise], int(true.sum())


def _time(function: Callable[[], object]) -> float:
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def measure(family: str, dim: int, repeats: int) -> dict[str, str]:
    """Median times of literal and fast IntOpt on one input, their ratio and the iteration count."""
    values, total = make_input(family, dim, seed=dim)
    literal: list[float] = []
    fast: list[float] = []
    for _ in range(repeats):
        literal.append(_time(lambda: intopt_literal_with_count(values, total)))
        fast.append(_time(lambda: intopt_with_count(values, total)))
    trace = intopt_literal_with_count(values, total)
    same = trace == intopt_with_count(values, total)
    lit, fst = statistics.median(literal), statistics.median(fast)
    return {
        "family": family,
        "d": str(dim),
        "c": str(total),
        "literal_seconds": _real(lit),
        "fast_seconds": _real(fst),
        "ratio_literal_over_fast": _real(lit / fst),
        "iterations": str(trace.iterations),
        "iterations_over_d": _real(trace.iterations / dim),
        "identical": str(same),
    }


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print a table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="only d = 10**3 and 10**4")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    dims = [10**3, 10**4] if args.quick else [10**3, 10**4, 10**5]
    rows = []
    for dim in dims:
        for family in ("dense", "sparse", "spike"):
            rows.append(measure(family, dim, repeats=3 if dim < 10**5 else 1))
    if args.json:
        print(json.dumps({"python": sys.version.split()[0], "machine": platform.machine(), "rows": rows}, indent=2))
        return
    header = (
        f"{'family':7} {'d':>7} {'c':>9} {'literal s':>10} {'fast s':>9} {'ratio':>8} {'iterations':>11} {'it/d':>7}"
    )
    print(header)
    for row in rows:
        print(
            f"{row['family']:7} {row['d']:>7} {row['c']:>9} {float(row['literal_seconds']):10.4f} "
            f"{float(row['fast_seconds']):9.4f} {float(row['ratio_literal_over_fast']):8.1f} "
            f"{row['iterations']:>11} {float(row['iterations_over_d']):7.1f}  identical={row['identical']}"
        )


if __name__ == "__main__":
    main()
