"""Benchmark of the numeric KARY mechanisms (reference.kary.counters), as ratios against same-process baselines.

    python benchmarks/bench_kary.py [--quick] [--mse-only]

* ``algorithm_2_batch`` for T = 10**7 (``--quick``: 10**6) at arities 3, 4 (Appendix C's even variant), 5 and
  19, against drawing the noise
  values it uses (``reference.samplers.numeric.laplace`` of the same count); best of ``repeats`` runs each;
* ``OnlineCounter.step`` cost per step at T = 10**4, 10**5, 10**6 (``--quick``: up to 10**5), its peak
  live-noise count against Lemma 4.12's h(k − 1)/2, and the peak Python memory of the run (tracemalloc, at
  T = 10**4 and 10**5 only, since tracing slows the run);
* the exact ε²·MSE of Algorithm 2 by the digit programme (``reference.kary.mse.algorithm_2_mse_digit_programme``) at
  T = 10**12 for arities 3, 4 and 19, against enumerating the first 10**4 horizons' noise counts in the same run
  and against the loop that only writes T's base-k digits (the floor of any digit-by-digit programme; median of 11
  alternating pairs, each side the best of 3 batches of 500 calls), with the 1-minute load average before and
  after, and the first call's cost (it builds the arity's cached tables); ``--mse-only`` runs this part alone.

Nothing is asserted: this script reports.
"""

from __future__ import annotations

import argparse
import os
import time
import tracemalloc
from collections.abc import Callable

import numpy as np

from reference.kary import digit_mass
from reference.kary.counters import OnlineCounter, algorithm_2_batch
from reference.kary.mse import algorithm_2_mse_digit_programme, algorithm_2_total_noise_count
from reference.kary.noise_indices import algorithm_2_used_indices
from reference.samplers import numeric as samplers


def _best(action: Callable[[], object], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - start)
    return best


def _digits(arity: int, horizon: int) -> list[int]:
    """The base-k digits of T, least significant first: the floor any digit-by-digit programme pays."""
    out = []
    while horizon:
        horizon, digit = divmod(horizon, arity)
        out.append(digit)
    return out


def _online(arity: int, horizon: int) -> OnlineCounter:
    """Run a counter over a bit pattern generated on the fly (so the stream itself is never stored)."""
    counter = OnlineCounter(arity, 1.0, horizon, rng=1)
    for time_step in range(horizon):
        counter.step((time_step * 2654435761 >> 13) & 1)
    return counter


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="smaller sizes")
    parser.add_argument("--mse-only", action="store_true", help="only the exact ε²·MSE digit programme")
    args = parser.parse_args(argv)
    if not args.mse_only:
        _counters(args.quick)
    _digit_programme()
    return 0


def _counters(quick: bool) -> None:
    horizon = 10**6 if quick else 10**7
    repeats = 3
    stream = np.random.default_rng(0).integers(0, 2, horizon)
    print(f"algorithm_2_batch, T = {horizon} (best of {repeats}):")
    for arity in (3, 4, 5, 19):
        count = int(np.count_nonzero(algorithm_2_used_indices(arity, horizon)))

        def draw(count: int = count) -> object:
            return samplers.laplace(1.0, size=count, rng=1)

        def batch_run(arity: int = arity) -> object:
            return algorithm_2_batch(stream, arity, 1.0, rng=1)

        baseline = _best(draw, repeats)
        batch = _best(batch_run, repeats)
        print(
            f"  arity {arity:2d}: {count} noise values drawn in {baseline:.3f} s; batch {batch:.3f} s; "
            f"ratio {batch / baseline:.2f}"
        )
    lengths = (10**4, 10**5) if quick else (10**4, 10**5, 10**6)
    print("OnlineCounter (arity 3, 4 and 19):")
    for arity in (3, 4, 19):
        for length in lengths:
            start = time.perf_counter()
            counter = _online(arity, length)
            seconds = time.perf_counter() - start
            bound = counter.height * (arity // 2)
            line = (
                f"  arity {arity:2d}, T = {length:>8d}: {1e6 * seconds / length:.2f} us/step; peak live "
                f"{counter.max_live_count} (h·⌊k/2⌋ = {bound}); draws {counter.draws}"
            )
            if length <= 10**5:
                tracemalloc.start()
                _online(arity, length)
                peak = tracemalloc.get_traced_memory()[1]
                tracemalloc.stop()
                line += f"; traced peak memory {peak / 1024:.1f} KiB"
            print(line)


#: Alternating (digit loop, programme) pairs, and calls per timed batch, for the digit-programme ratio.
PAIRS = 11
BATCH = 500


def _digit_programme() -> None:
    repeats = 3
    load_before = os.getloadavg()[0]
    print("exact ε²·MSE by the digit programme at T = 10**12 (best of 3), against enumerating T = 10**4 and against "
          f"the loop writing T's base-k digits (median of {PAIRS} alternating pairs, each side the best of 3 batches of "
          f"{BATCH} calls):")
    for arity in (3, 4, 19):
        digit_mass._plan.cache_clear()
        start = time.perf_counter()
        algorithm_2_mse_digit_programme(arity, 10**12)
        first = time.perf_counter() - start

        def enumerate_small(arity: int = arity) -> object:
            return algorithm_2_total_noise_count(arity, 10**4)

        def one_call(arity: int = arity) -> object:
            return algorithm_2_mse_digit_programme(arity, 10**12)

        def digit_loop(arity: int = arity) -> object:
            return [_digits(arity, 10**12) for _ in range(BATCH)]

        def many_calls(arity: int = arity) -> object:
            return [algorithm_2_mse_digit_programme(arity, 10**12) for _ in range(BATCH)]

        baseline = _best(enumerate_small, repeats)
        programme = _best(one_call, repeats)
        pairs = []
        for _ in range(PAIRS):  # alternating, each side the best of 3 batches: a busy core's pauses drop out
            loop = _best(digit_loop, 3)
            calls = _best(many_calls, 3)
            pairs.append(calls / loop)
        pairs.sort()
        print(f"  arity {arity:2d}: {1e6 * programme:.1f} us (ratio to the enumeration {programme / baseline:.2e}; "
              f"to the digit loop {pairs[PAIRS // 2]:.1f}x, pairs {pairs[0]:.1f}-{pairs[-1]:.1f}x; "
              f"first call {1e3 * first:.1f} ms)")
    print(f"  load average (1 min) {load_before:.1f} before, {os.getloadavg()[0]:.1f} after")


if __name__ == "__main__":
    raise SystemExit(main())
