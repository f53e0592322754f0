"""The exact discrete Gaussian at every decade of σ² from 1e-2 to 1e12, against OpenDP's sampler (when installed)
and numpy's normals (always), measured in the same run.

    python benchmarks/bench_discrete_gaussian.py [--count 20000] [--low -2] [--high 12] [--pairs 5]

Per σ²: :func:`reference.samplers.exact.discrete_gaussian` draws per second with OS entropy
(``SystemRandomBits``, what a release uses) and seeded (``SeededRandomBits``), its certified table's build time
where it has one (first call; cached after), OpenDP's ``make_gaussian`` on integers (its exact discrete Gaussian,
scale σ) and ``numpy.random.Generator.standard_normal`` (a floating-point baseline, not exact). The goal: the
reference ≥ 10× OpenDP at every σ². Without OpenDP the column is skipped with the reason
(``pip install opendp``). The ratio to OpenDP is the median over ``pairs`` alternating pairs (reference, then
OpenDP, in CPU time: both run in this process), so a change of load hits both halves of a pair. The load average
is printed. Nothing is asserted: this script reports.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reference.core.randomness import SeededRandomBits, SystemRandomBits
from reference.samplers import exact
from reference.samplers.inversion import inversion_table


def _seconds(function: Callable[[], object]) -> float:
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def _cpu(function: Callable[[], object]) -> float:
    start = time.process_time()
    function()
    return time.process_time() - start


def _opendp(sigma: float) -> Callable[[list[int]], object] | str:
    try:
        import opendp.prelude as dp
    except ImportError as reason:
        return f"skipped ({reason}; pip install opendp)"
    dp.enable_features("contrib")
    return dp.m.make_gaussian(dp.vector_domain(dp.atom_domain(T=int)), dp.l2_distance(T=int),  # type: ignore[no-any-return]
                              scale=sigma)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20_000)
    parser.add_argument("--low", type=int, default=-2, help="smallest decade of sigma^2 (exponent)")
    parser.add_argument("--high", type=int, default=12, help="largest decade of sigma^2 (exponent)")
    parser.add_argument("--pairs", type=int, default=5, help="alternating pairs for the ratio to OpenDP")
    args = parser.parse_args()
    count = args.count
    print(f"load average before: {os.getloadavg()}; cores: {os.cpu_count()}; {count} draws per call, best of 2")
    generator = np.random.default_rng(0)
    worst: float | None = None
    for exponent in range(args.low, args.high + 1):
        s2 = Fraction(10) ** exponent
        inversion_table.cache_clear()
        build = _seconds(lambda s=s2: inversion_table(s))
        has_table = inversion_table(s2) is not None
        system = count / min(_seconds(lambda s=s2: exact.discrete_gaussian(s, source=SystemRandomBits(), size=count))
                             for _ in range(2))
        seeded = count / min(_seconds(lambda s=s2: exact.discrete_gaussian(s, source=SeededRandomBits(1), size=count))
                             for _ in range(2))
        normals = count / min(_seconds(lambda: generator.standard_normal(count)) for _ in range(2))
        peer = _opendp(math.sqrt(float(s2)))
        line = (f"sigma^2 1e{exponent:<3d} {'table ' + format(build, '.2f') + ' s' if has_table else 'blocked     '}: "
                f"reference {system:11,.0f}/s OS bits, {seeded:11,.0f}/s seeded; numpy normals {normals:13,.0f}/s "
                f"(reference/normals {system / normals:.4f})")
        if isinstance(peer, str):
            line += f"; opendp {peer}"
        else:
            zeros = [0] * count
            peer(zeros)
            rate = count / min(_seconds(lambda p=peer, z=zeros: p(z)) for _ in range(2))
            pairs = []
            for _ in range(args.pairs):
                ours = _cpu(lambda s=s2: exact.discrete_gaussian(s, source=SystemRandomBits(), size=count))
                theirs = _cpu(lambda p=peer, z=zeros: p(z))
                pairs.append(theirs / ours)
            ratio = statistics.median(pairs)
            worst = ratio if worst is None else min(worst, ratio)
            line += f"; opendp {rate:10,.0f}/s; reference/opendp {ratio:7.2f}x (CPU, median of {args.pairs} pairs)"
        print(line, flush=True)
    if worst is not None:
        print(f"smallest reference/opendp ratio over the decades: {worst:.2f}x (goal >= 10)")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
