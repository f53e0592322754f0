"""Speed against the libraries users pick instead, as ratios measured in one run.

    python benchmarks/bench_peer_speed.py [--quick]

1. Certified Gaussian σ: ``reference.privacy.gaussian.sigma_exact`` (exact rationals in, a certified enclosure
   out) against dp_accounting's ``gaussian_mechanism.get_sigma_gaussian`` (floats, uncertified) on a grid of
   40 (ε, δ) points: ε in 8 log-spaced values from 0.01 to 20, δ in {1e-3, 1e-6, 1e-9, 1e-12, 1e-15}, Δ = 1.
   Both receive the same decimal numbers (the project as strings, parsed exactly; the peer as floats). The grid
   is timed in alternating passes (project, peer, project, ...) and the fastest pass of each is kept.
2. Exact discrete Gaussian ``N_Z(0, σ²)``: ``reference.samplers.exact.discrete_gaussian`` (``size=n``) against
   OpenDP's vector Gaussian measurement on integers (``make_gaussian`` over ``vector_domain(atom_domain(T=int))``,
   an exact discrete Gaussian with OS randomness), samples per second at σ = 1, 10, 100, 1000. The project is
   timed with OS entropy (``SystemRandomBits``, like OpenDP) and with ``SeededRandomBits``, and with its CDF
   table cold (built inside the timed call) and warm (cached).

A peer that is not importable is skipped with the reason printed (``pip install dp-accounting opendp``; they
are not dependencies of the project). Nothing is asserted: this script reports. A ratio below 1 means the
project is faster (time ratio) or slower (throughput ratio); each line says which.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from fractions import Fraction

from reference.core.randomness import SeededRandomBits, SystemRandomBits
from reference.privacy.gaussian import sigma_exact
from reference.samplers import exact
from reference.samplers.inversion import inversion_table

EPSILONS = ("0.01", "0.0296", "0.0877", "0.26", "0.77", "2.28", "6.75", "20")
DELTAS = ("1e-3", "1e-6", "1e-9", "1e-12", "1e-15")
GRID = [(epsilon, delta) for epsilon in EPSILONS for delta in DELTAS]
SIGMAS = (1, 10, 100, 1000)


def _seconds(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def _calibration(passes: int) -> None:
    print(f"1. certified Gaussian sigma on {len(GRID)} (epsilon, delta) points, sensitivity 1, best of {passes} passes")
    try:
        from dp_accounting.gaussian_mechanism import get_sigma_gaussian
    except ImportError as reason:  # a peer, not a dependency
        print(f"   dp_accounting skipped: {reason}")
        get_sigma_gaussian = None

    def ours() -> list[Fraction]:
        return [sigma_exact(epsilon=epsilon, delta=delta, sensitivity_squared=1).sigma for epsilon, delta in GRID]

    floats = [(float(epsilon), float(delta)) for epsilon, delta in GRID]
    ours()  # imports and first-call costs out of the timing
    best_ours = best_peer = float("inf")
    for _ in range(passes):
        best_ours = min(best_ours, _seconds(ours))
        if get_sigma_gaussian is not None:
            best_peer = min(best_peer, _seconds(lambda: [get_sigma_gaussian(e, d) for e, d in floats]))
    per_point = best_ours / len(GRID)
    print(f"   reference sigma_exact (certified)      {per_point * 1e3:8.3f} ms per point")
    if get_sigma_gaussian is None:
        return
    peer_point = best_peer / len(GRID)
    print(f"   dp_accounting get_sigma_gaussian       {peer_point * 1e3:8.3f} ms per point")
    print(f"   time ratio reference / dp_accounting:  {best_ours / best_peer:.3f}  (goal: at most 1.0)")


def _opendp_sampler(sigma: int) -> Callable[[list[int]], object] | str:
    try:
        import opendp.prelude as dp
    except ImportError as reason:
        return f"opendp skipped: {reason}"
    dp.enable_features("contrib")
    measurement = dp.m.make_gaussian(dp.vector_domain(dp.atom_domain(T=int)), dp.l2_distance(T=int), scale=float(sigma))
    return measurement  # type: ignore[no-any-return]


def _sampling(count: int) -> None:
    print(f"2. exact discrete Gaussian, {count} samples per call (samples per second; ratio > 1: reference faster)")
    for sigma in SIGMAS:
        s2 = Fraction(sigma * sigma)
        peer = _opendp_sampler(sigma)
        if isinstance(peer, str):
            print(f"   {peer}")
            peer_rate = None
        else:
            zeros = [0] * count
            peer(zeros)  # warm-up
            peer_rate = count / min(_seconds(lambda p=peer, z=zeros: p(z)) for _ in range(2))
        inversion_table.cache_clear()
        cold = count / _seconds(lambda s=s2: exact.discrete_gaussian(s, source=SystemRandomBits(), size=count))
        warm = count / min(_seconds(lambda s=s2: exact.discrete_gaussian(s, source=SystemRandomBits(), size=count)) for _ in range(2))
        seeded = count / _seconds(lambda s=s2: exact.discrete_gaussian(s, source=SeededRandomBits(1), size=count))
        line = f"   sigma {sigma:5d}: reference {cold:12,.0f}/s cold, {warm:12,.0f}/s warm (OS bits), {seeded:12,.0f}/s seeded"
        if peer_rate is not None:
            line += f"; opendp {peer_rate:10,.0f}/s; ratio cold {cold / peer_rate:6.2f}, warm {warm / peer_rate:6.2f}"
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="fewer passes and samples")
    args = parser.parse_args()
    _calibration(passes=3 if args.quick else 7)
    _sampling(count=20_000 if args.quick else 100_000)


if __name__ == "__main__":
    main()
