"""Speed against the libraries users pick instead, as ratios measured in one run.

    python benchmarks/bench_peer_speed.py [--quick]

1. Certified Gaussian σ: ``reference.privacy.gaussian.sigma_exact`` (exact rationals in, a certified enclosure
   out, default tolerance 1e-12) against autodp's ``ana_gaussian_calibrator`` and dp_accounting's
   ``gaussian_mechanism.get_sigma_gaussian`` (floats, uncertified) on the 40-point comparison grid of
   ``benchmarks/peers/gaussian_sigma.py``: ε in {0.01, 0.05, 0.1, 0.5, 1, 2, 5, 20}, δ in {1e-3, 1e-6, 1e-9,
   1e-12, 1e-15}, Δ = 1. The project receives the exact Fractions (and, on a second line, the same numbers as
   decimal strings it parses exactly); the peers the same numbers as floats. The grid is timed in CPU time in
   alternating passes (project, autodp, dp_accounting, project, ...); each ratio is the median over the passes
   of project time / peer time within a pass, so a change of load between passes cannot bias it. The load
   average is printed before and after. The Mills' ratio cells (``reference.privacy.mills_ratio``: Taylor models
   built at their fifth request and kept) make repeated calibrations cheaper than one-off ones, so a last set of
   alternating passes times a one-off grid: the cells (and the record of requests) are dropped before each
   project pass, which then takes Arb's erfc throughout and builds none (no cell is asked five times in one grid).
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
import os
import statistics
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks" / "peers")]

from peers_common import GAUSSIAN_GRID  # noqa: E402  (the grid of the peer comparison, shared)

from reference.core.randomness import SeededRandomBits, SystemRandomBits  # noqa: E402
from reference.privacy.gaussian import sigma_exact  # noqa: E402
from reference.privacy.mills_ratio import forget_cells  # noqa: E402
from reference.samplers import exact  # noqa: E402
from reference.samplers.inversion import inversion_table  # noqa: E402

SIGMAS = (1, 10, 100, 1000)


def _seconds(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def _calibration(passes: int) -> None:
    print(f"1. certified Gaussian sigma on {len(GAUSSIAN_GRID)} (epsilon, delta) points, sensitivity 1, "
          f"{passes} alternating passes (CPU time)")
    routes: dict[str, Callable[[], object]] = {}
    texts = [(str(epsilon), str(delta)) for epsilon, delta in GAUSSIAN_GRID]
    routes["reference sigma_exact (certified)"] = lambda: [
        sigma_exact(epsilon=epsilon, delta=delta, sensitivity_squared=1).sigma for epsilon, delta in GAUSSIAN_GRID]
    routes["reference sigma_exact, string inputs"] = lambda: [
        sigma_exact(epsilon=epsilon, delta=delta, sensitivity_squared="1").sigma for epsilon, delta in texts]
    floats = [(float(epsilon), float(delta)) for epsilon, delta in GAUSSIAN_GRID]
    try:
        from autodp.calibrator_zoo import ana_gaussian_calibrator
        from autodp.mechanism_zoo import GaussianMechanism

        routes["autodp ana_gaussian_calibrator"] = lambda: [
            ana_gaussian_calibrator()(GaussianMechanism, e, d).params["sigma"] for e, d in floats]
    except ImportError as reason:  # a peer, not a dependency
        print(f"   autodp skipped: {reason}")
    try:
        from dp_accounting.gaussian_mechanism import get_sigma_gaussian

        routes["dp_accounting get_sigma_gaussian"] = lambda: [get_sigma_gaussian(e, d) for e, d in floats]
    except ImportError as reason:
        print(f"   dp_accounting skipped: {reason}")
    for action in routes.values():  # imports and first-call costs out of the timing
        action()
    seconds: dict[str, list[float]] = {name: [] for name in routes}
    for _ in range(passes):
        for name, action in routes.items():
            seconds[name].append(_cpu_seconds(action))
    project = seconds["reference sigma_exact (certified)"]
    for name, times in seconds.items():
        print(f"   {name:40s} {1e6 * statistics.median(times) / len(GAUSSIAN_GRID):8.1f} us per point (CPU, median)")
    for name, times in seconds.items():
        if name.startswith("reference"):
            continue
        ratios = [ours / theirs for ours, theirs in zip(project, times)]
        strings = [ours / theirs for ours, theirs in zip(seconds["reference sigma_exact, string inputs"], times)]
        print(f"   time ratio reference / {name}: {statistics.median(ratios):.3f} (median of {passes} passes; "
              f"range {min(ratios):.3f}-{max(ratios):.3f}; with string inputs {statistics.median(strings):.3f}; "
              "goal: at most 1.0)")
    peer = "autodp ana_gaussian_calibrator"
    if peer in routes:
        cells = forget_cells()
        one_off = []
        for _ in range(passes):
            forget_cells()
            ours = _cpu_seconds(routes["reference sigma_exact (certified)"])
            one_off.append(ours / _cpu_seconds(routes[peer]))
        print(f"   one-off grids (Mills' ratio cells dropped before each project pass; the warm passes used {cells} "
              f"cells): time ratio reference / {peer}: {statistics.median(one_off):.3f} (median of {passes} passes; "
              f"range {min(one_off):.3f}-{max(one_off):.3f})")


def _cpu_seconds(action: Callable[[], object]) -> float:
    start = time.process_time()
    action()
    return time.process_time() - start


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
    parser.add_argument("--calibration-only", action="store_true", help="section 1 only")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()}; cores: {os.cpu_count()}")
    _calibration(passes=5 if args.quick else 15)
    if not args.calibration_only:
        _sampling(count=20_000 if args.quick else 100_000)
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
