"""Certified σ against the tolerance asked for: the cost per decimal digit, as ratios in one run.

    python benchmarks/bench_sigma_tolerance.py [--repeats 5]

``sigma_exact`` on the comparison grid (40 (ε, δ) points, ε 0.01–20, δ 1e-3–1e-15, Δ = 1) at tolerances 1e-8
to 1e-100; the baseline is the tolerance 1e-8, timed in alternation with each other tolerance (pairs, median of
the ratios of CPU time), so a change of load between the two halves of a pair is all that can bias a ratio.
The goal: no cliff, cost at most linear in the digits asked for — the ratio at 1e-d stays at or below d/8, i.e.
the last column ("× 1e-8 per × digits") stays at or below 1. Every answer is checked to have the asked width (a
certified bracket). A last line times autodp's uncertified ``ana_gaussian_calibrator`` on the same grid in
alternation with the project at its default tolerance 1e-12 (skipped when autodp is not installed). Nothing is
asserted: it reports, with the load average before and after.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks" / "peers")]

from peers_common import GAUSSIAN_GRID  # noqa: E402  (the shared grid, beside the peer comparisons)

from reference.privacy.gaussian import sigma_exact  # noqa: E402

DIGITS = (8, 12, 20, 30, 40, 60, 100)
BASELINE = 8


def grid_seconds(digits: int) -> float:
    """CPU seconds of the grid at tolerance 1e-digits; each answer's width is checked after the clock stops (a
    Fraction product per point, which is not part of the calibration)."""
    tolerance = Fraction(1, 10**digits)
    start = time.process_time()
    results = [sigma_exact(epsilon=epsilon, delta=delta, sensitivity_squared=1, tolerance=tolerance)
               for epsilon, delta in GAUSSIAN_GRID]
    seconds = time.process_time() - start
    for (epsilon, delta), result in zip(GAUSSIAN_GRID, results):
        if result.sigma_below != result.sigma * (1 - tolerance):
            raise AssertionError(f"width is not the tolerance at epsilon={epsilon}, delta={delta}")
    return seconds


def autodp_seconds() -> float | None:
    """CPU seconds of autodp's calibrator on the grid (as floats), or None when autodp is not installed."""
    try:
        from autodp.calibrator_zoo import ana_gaussian_calibrator
        from autodp.mechanism_zoo import GaussianMechanism
    except ImportError:
        return None
    floats = [(float(epsilon), float(delta)) for epsilon, delta in GAUSSIAN_GRID]
    start = time.process_time()
    for epsilon, delta in floats:
        ana_gaussian_calibrator()(GaussianMechanism, epsilon, delta).params["sigma"]
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeats", type=int, default=5)
    repeats = parser.parse_args().repeats
    print(f"load average before: {os.getloadavg()}; cores: {os.cpu_count()}")
    grid_seconds(BASELINE)  # warm-up: imports and caches
    print(f"| tolerance | µs per σ (CPU, median) | × tolerance 1e-{BASELINE} (median of pairs) | digits / {BASELINE} "
          f"| × 1e-{BASELINE} per × digits |")
    print("|---|---|---|---|---|")
    for digits in DIGITS:
        ratios, own = [], []
        for _ in range(repeats):
            base = grid_seconds(BASELINE)
            this = grid_seconds(digits)
            ratios.append(this / base)
            own.append(this)
        per_sigma = 1e6 * statistics.median(own) / len(GAUSSIAN_GRID)
        ratio = statistics.median(ratios)
        print(f"| 1e-{digits} | {per_sigma:.1f} | {ratio:.2f} | {digits / BASELINE:.2f} | {ratio / (digits / BASELINE):.2f} |")
    if autodp_seconds() is None:
        print("autodp skipped: not importable (pip install autodp; a peer, not a dependency)")
    else:
        pairs = []
        for _ in range(repeats):
            ours = grid_seconds(12)
            theirs = autodp_seconds()
            assert theirs is not None
            pairs.append(ours / theirs)
        print(f"sigma_exact (tolerance 1e-12) / autodp ana_gaussian_calibrator, same grid, CPU: "
              f"{statistics.median(pairs):.3f} (median of {repeats} pairs; range {min(pairs):.3f}-{max(pairs):.3f})")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
