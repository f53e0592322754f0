"""Benchmark of the samplers, as ratios against baselines measured in the same process.

    python benchmarks/bench_samplers.py [--quick]

* numeric samplers (``reference.samplers.numeric``) against ``Generator.standard_normal`` of the same count;
* exact samplers (``reference.samplers.exact``, seeded bits) against drawing the same count of 64-bit words with
  ``random.Random.getrandbits`` — the floor for any pure-Python bit-level sampler. ``discrete_gaussian`` is the
  certified-table inversion (vectorised; its table built in the first call for each σ², which is timed), and
  ``discrete_gaussian_rejection`` its pure-Python twin (CKS Algorithm 3). OpenDP's sampler is compared in
  ``bench_peer_speed.py``.

Nothing is asserted: this script reports.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from reference.core.randomness import SeededRandomBits
from reference.samplers import exact
from reference.samplers import numeric as numeric


def _seconds(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    count = 10**5 if args.quick else 10**6
    generator = np.random.default_rng(1)
    baseline = _seconds(lambda: generator.standard_normal(count))
    print(f"numeric samplers, {count} samples each; baseline standard_normal: {baseline:.4f} s")
    numeric_cases: list[tuple[str, Callable[[], object]]] = [
        ("laplace(1)", lambda: numeric.laplace(1, size=count, rng=generator)),
        ("discrete_laplace(1)", lambda: numeric.discrete_laplace(1, size=count, rng=generator)),
        ("discrete_gaussian(1)", lambda: numeric.discrete_gaussian(1, size=count, rng=generator)),
        ("discrete_gaussian(100)", lambda: numeric.discrete_gaussian(100, size=count, rng=generator)),
    ]
    for name, action in numeric_cases:
        seconds = _seconds(action)
        print(f"  {name:34s} {seconds:8.4f} s  ratio {seconds / baseline:6.2f}")

    small = 2000 if args.quick else 20000
    words = random.Random(2)
    floor = _seconds(lambda: [words.getrandbits(64) for _ in range(small)])
    print(f"exact samplers, {small} samples each; baseline getrandbits(64): {floor:.4f} s")
    source = SeededRandomBits(3)
    exact_cases: list[tuple[str, Callable[[], object]]] = [
        ("bernoulli_exp_minus(1/2)", lambda: exact.bernoulli_exp_minus(Fraction(1, 2), source=source, size=small)),
        ("discrete_laplace(1)", lambda: exact.discrete_laplace(Fraction(1), source=source, size=small)),
        ("discrete_gaussian(1)", lambda: exact.discrete_gaussian(Fraction(1), source=source, size=small)),
        ("discrete_gaussian(100)", lambda: exact.discrete_gaussian(Fraction(100), source=source, size=small)),
        ("discrete_gaussian_rejection(1)", lambda: exact.discrete_gaussian_rejection(Fraction(1), source=source, size=small)),
        ("discrete_gaussian_rejection(100)", lambda: exact.discrete_gaussian_rejection(Fraction(100), source=source, size=small)),
    ]
    for name, action in exact_cases:
        seconds = _seconds(action)
        print(f"  {name:34s} {seconds:8.4f} s  ratio {seconds / floor:6.2f}  ({small / seconds:,.0f} samples/s)")


if __name__ == "__main__":
    main()
