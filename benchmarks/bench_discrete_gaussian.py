"""The exact discrete Gaussian at every decade of σ² from 1e-2 to 1e12, against OpenDP's sampler (when installed)
and numpy's normals (always), measured in the same run.

    python benchmarks/bench_discrete_gaussian.py [--count 20000] [--low -2] [--high 12] [--pairs 5] [--repeats 10]
    python benchmarks/bench_discrete_gaussian.py --exponents 4,6,8,9,10,11,12     (the goals' decades only)

Per σ²: :func:`reference.samplers.exact.discrete_gaussian` draws per second with OS entropy
(``SystemRandomBits``, what a release uses) and seeded (``SeededRandomBits``), its certified table's build time
where it has one (first call; cached after), OpenDP's ``make_gaussian`` on integers (its exact discrete Gaussian,
scale σ) and ``numpy.random.Generator.standard_normal`` (a floating-point baseline, not exact). The goals: the
reference ≥ 100× OpenDP below σ² = 10⁸ (the inversion table) and ≥ 30× from 10⁸ on (the blocked sampler); the
last lines give the smallest ratio on each side against its goal. Without OpenDP the column is skipped with the
reason (``pip install opendp``). The ratio to OpenDP is the median over ``pairs`` alternating pairs (reference,
then OpenDP, in CPU time: both run in this process), so a change of load hits both halves of a pair; the
reference's half is the mean of ``repeats`` calls (one call is a few milliseconds, OpenDP's about 0.2 s). The
load average (1 minute) is printed before, on every line and after. Nothing is asserted: this script reports.
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
from functools import partial
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reference.core.randomness import RandomBits, SeededRandomBits, SystemRandomBits
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


def _seeded() -> SeededRandomBits:
    return SeededRandomBits(1)


def _draws(sigma_squared: Fraction, count: int, source: Callable[[], RandomBits]) -> object:
    return exact.discrete_gaussian(sigma_squared, source=source(), size=count)


def _repeated(sigma_squared: Fraction, count: int, repeats: int) -> object:
    return [exact.discrete_gaussian(sigma_squared, source=SystemRandomBits(), size=count) for _ in range(repeats)]


def _opendp(sigma: float) -> Callable[[list[int]], object] | str:
    try:
        import opendp.prelude as dp
    except ImportError as reason:
        return f"skipped ({reason}; pip install opendp)"
    dp.enable_features("contrib")
    return dp.m.make_gaussian(dp.vector_domain(dp.atom_domain(T=int)), dp.l2_distance(T=int),
                              scale=sigma)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20_000)
    parser.add_argument("--low", type=int, default=-2, help="smallest decade of sigma^2 (exponent)")
    parser.add_argument("--high", type=int, default=12, help="largest decade of sigma^2 (exponent)")
    parser.add_argument("--pairs", type=int, default=5, help="alternating pairs for the ratio to OpenDP")
    parser.add_argument("--repeats", type=int, default=10, help="reference calls per half pair (their mean)")
    parser.add_argument("--exponents", default=None,
                        help="comma-separated decades of sigma^2 (exponents), instead of --low..--high")
    args = parser.parse_args()
    count, repeats = args.count, args.repeats
    exponents = ([int(part) for part in args.exponents.split(",")] if args.exponents
                 else list(range(args.low, args.high + 1)))
    print(f"load average before: {os.getloadavg()}; cores: {os.cpu_count()}; {count} draws per call, best of 2")
    generator = np.random.default_rng(0)
    worst: dict[bool, float] = {}  # the smallest ratio below 1e8 (False) and from 1e8 on (True)
    for exponent in exponents:
        s2 = Fraction(10) ** exponent
        inversion_table.cache_clear()
        build = _seconds(partial(inversion_table, s2))
        has_table = inversion_table(s2) is not None
        system = count / min(_seconds(partial(_draws, s2, count, SystemRandomBits))
                             for _ in range(2))
        seeded = count / min(_seconds(partial(_draws, s2, count, _seeded))
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
            call: Callable[[list[int]], object] = peer
            call(zeros)
            rate = count / min(_seconds(partial(call, zeros)) for _ in range(2))
            pairs = []
            for _ in range(args.pairs):
                ours = _cpu(partial(_repeated, s2, count, repeats)) / repeats
                theirs = _cpu(partial(call, zeros))
                pairs.append(theirs / ours)
            ratio = statistics.median(pairs)
            large = exponent >= 8
            worst[large] = min(worst.get(large, ratio), ratio)
            line += (f"; opendp {rate:10,.0f}/s; reference/opendp {ratio:7.2f}x (CPU, median of {args.pairs} pairs; "
                     f"load {os.getloadavg()[0]:.1f})")
        print(line, flush=True)
    for large, goal, where in ((False, 100, "below 1e8"), (True, 30, "from 1e8 on")):
        if large in worst:
            met = "met" if worst[large] >= goal else "NOT met"
            print(f"smallest reference/opendp ratio {where}: {worst[large]:.2f}x (goal >= {goal}: {met})")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
