"""Benchmark of the exact maxima over participation patterns (the one depth-first walk of
:mod:`reference.audit.linear.pattern_walk`), against a brute force over the same patterns in the same run.

    python -m benchmarks.bench_pattern_walk [--quick] [--json]     (from a checkout)

Scheme: any ``records`` of ``inputs`` steps (every subset of at most ``records`` inputs is a pattern), integer
matrices from a seeded generator. Four maxima, each by its public entry point (the enumeration path, within
``SizeLimits().enumeration_work``, :mod:`reference.audit.linear.size_limits`):

* counts, quadratic: ``max_quadratic`` — max over S of 1_Sᵀ Q 1_S;
* counts, l1: ``max_l1`` — max over S of ‖M 1_S‖₁;
* signed, quadratic: ``max_pattern_quadratic`` with signed contributions — max over S and signs s of sᵀ Q_S s;
* signed, l1: ``max_pattern_l1`` with signed contributions — max over S and s of ‖M_S s‖₁.

Baseline: ``itertools.combinations`` over the same patterns (and ``itertools.product`` over the signs, the first
fixed to +1), each value summed afresh. Reported: seconds (the least of three runs, CPU time), the ratio walk /
baseline, whether the two maxima agree, and the load average before and after. Nothing is asserted: this script
reports.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import os
import random
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from reference.audit.linear.contribution import max_pattern_l1, max_pattern_quadratic
from reference.audit.linear.participation import any_records
from reference.audit.linear.pattern_maxima import max_l1, max_quadratic


def least_cpu_seconds(work: Callable[[], Fraction], repeats: int = 3) -> tuple[float, Fraction]:
    times, value = [], Fraction(0)
    for _ in range(repeats):
        start = time.process_time()
        value = work()
        times.append(time.process_time() - start)
    return min(times), value


def patterns(inputs: int, records: int) -> list[tuple[int, ...]]:
    return [subset for size in range(1, records + 1) for subset in itertools.combinations(range(inputs), size)]


def brute_quadratic(quadratic: Sequence[Sequence[int]], every: list[tuple[int, ...]], signed: bool) -> Fraction:
    best = None
    for pattern in every:
        for rest in itertools.product((1, -1), repeat=len(pattern) - 1) if signed else [(1,) * (len(pattern) - 1)]:
            signs = (1, *rest)
            value = sum(si * sj * quadratic[i][j] for i, si in zip(pattern, signs) for j, sj in zip(pattern, signs))
            best = value if best is None else max(best, value)
    return Fraction(best or 0)


def brute_l1(columns: Sequence[Sequence[int]], every: list[tuple[int, ...]], signed: bool) -> Fraction:
    rows = len(columns[0])
    best = None
    for pattern in every:
        for rest in itertools.product((1, -1), repeat=len(pattern) - 1) if signed else [(1,) * (len(pattern) - 1)]:
            signs = (1, *rest)
            value = sum(abs(sum(s * columns[j][r] for j, s in zip(pattern, signs))) for r in range(rows))
            best = value if best is None else max(best, value)
    return Fraction(best or 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="smaller instances")
    parser.add_argument("--json", action="store_true", help="print one JSON record")
    args = parser.parse_args()
    rng = random.Random(2)
    inputs = 24 if args.quick else 40
    half = [[rng.randint(-5, 5) for _ in range(inputs)] for _ in range(inputs)]
    quadratic = [[half[i][j] + half[j][i] for j in range(inputs)] for i in range(inputs)]
    columns = [[rng.randint(-3, 3) for _ in range(6)] for _ in range(inputs)]
    small = 24 if args.quick else 30

    def square(size: int) -> list[list[int]]:
        return [row[:size] for row in quadratic[:size]]

    # (name, records, inputs, the walk's maximum, the brute force's maximum over the given patterns)
    plan: list[tuple[str, int, int, Callable[[int, int], Fraction],
                     Callable[[int, list[tuple[int, ...]]], Fraction]]] = [
        ("counts quadratic", 4, inputs,
         lambda records, size: max_quadratic(any_records(records=records), square(size), 1).upper,
         lambda size, every: brute_quadratic(square(size), every, False)),
        ("counts l1", 4, inputs,
         lambda records, size: max_l1(any_records(records=records), columns[:size], 1).upper,
         lambda size, every: brute_l1(columns[:size], every, False)),
        ("signed quadratic", 4, small,
         lambda records, size: max_pattern_quadratic(any_records(records=records, contribution="signed"),
                                                     square(size), 1).upper,
         lambda size, every: brute_quadratic(square(size), every, True)),
        ("signed l1", 3, small,
         lambda records, size: max_pattern_l1(any_records(records=records, contribution="signed"),
                                              columns[:size], 1).upper,
         lambda size, every: brute_l1(columns[:size], every, True)),
    ]
    load_before = os.getloadavg()
    rows: list[dict[str, Any]] = []
    for name, records, size, walk, brute in plan:
        every = patterns(size, records)
        walk_seconds, walk_value = least_cpu_seconds(functools.partial(walk, records, size))
        brute_seconds, brute_value = least_cpu_seconds(functools.partial(brute, size, every), repeats=1)
        rows.append({"case": f"{name}, any:{records} over {size} inputs ({len(every):,} patterns)",
                     "walk_seconds": round(walk_seconds, 4), "baseline_seconds": round(brute_seconds, 4),
                     "ratio": round(walk_seconds / brute_seconds, 3) if brute_seconds else None,
                     "agree": walk_value == brute_value})
    load_after = os.getloadavg()
    if args.json:
        print(json.dumps({"rows": rows, "load_before": load_before, "load_after": load_after}))
        return
    print(f"load average before: {load_before[0]:.2f}")
    for row in rows:
        print(f"{row['case']}: walk {row['walk_seconds']:.3f} s, brute force {row['baseline_seconds']:.3f} s, "
              f"ratio {row['ratio']}, maxima agree: {row['agree']}")
    print(f"load average after: {load_after[0]:.2f}")


if __name__ == "__main__":
    main()
