"""The Gaussian calibrations at extreme parameters against the same call at ordinary ones, as ratios in one run.

    python benchmarks/bench_gaussian_extremes.py [--repeats 3]

Each extreme call (δ = 1e-10000, a gap Δ/σ of 1e-5000, ε = 1e300, δ a hair below 1) is timed in alternation with
its baseline, the same function at ordinary parameters (pairs, median of the ratios of CPU time), so a change of
load between the two halves of a pair is all that can bias a ratio. The goal: an extreme call costs a small
multiple of an ordinary one, never the thousands of certified steps (or the 17,000-bit evaluations) that made
them take 20-30 s. Nothing is asserted: it reports.
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
sys.path[:0] = [str(ROOT)]

from reference.audit.calibration import audit_gaussian  # noqa: E402
from reference.privacy.gaussian import check_gaussian, gaussian_epsilon, sigma_exact  # noqa: E402

CASES: list[tuple[str, Callable[[], object], Callable[[], object]]] = [
    ("gaussian_epsilon(delta=1e-10000, sigma=2, sensitivity_squared=1e-10000)",
     lambda: gaussian_epsilon(delta="1e-10000", sigma=2, sensitivity_squared="1e-10000"),
     lambda: gaussian_epsilon(delta="1e-6", sigma=2, sensitivity_squared=1)),
    ("audit_gaussian(epsilon=1/2, delta=1e-10000, sigma=1, sensitivity_squared=1e-15000)",
     lambda: audit_gaussian(epsilon=Fraction(1, 2), delta="1e-10000", sigma=1,
                            sensitivity_squared=Fraction(1, 10**15000)),
     lambda: audit_gaussian(epsilon=Fraction(1, 2), delta="1e-6", sigma=5, sensitivity_squared=1)),
    ("check_gaussian(epsilon=1e300, delta=1e-300, sigma=1, sensitivity_squared=1)",
     lambda: check_gaussian(epsilon=10**300, delta="1e-300", sigma=1, sensitivity_squared=1),
     lambda: check_gaussian(epsilon=1, delta="1e-6", sigma=5, sensitivity_squared=1)),
    ("sigma_exact(epsilon=1/2, delta=1 - 1e-100, sensitivity_squared=1)",
     lambda: sigma_exact(epsilon="1/2", delta=1 - Fraction(1, 10**100), sensitivity_squared=1),
     lambda: sigma_exact(epsilon="1/2", delta="1e-6", sensitivity_squared=1)),
]


def seconds(call: Callable[[], object]) -> float:
    start = time.process_time()
    call()
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeats", type=int, default=3)
    repeats = parser.parse_args().repeats
    print(f"load average before: {os.getloadavg()}; cores: {os.cpu_count()}")
    print("| call | ms (CPU, median) | × the same call at ordinary parameters (median of pairs) |")
    print("|---|---|---|")
    for label, extreme, ordinary in CASES:
        ordinary()  # warm-up: imports and caches
        ratios, own = [], []
        for _ in range(repeats):
            base = seconds(ordinary)
            this = seconds(extreme)
            ratios.append(this / base)
            own.append(this)
        print(f"| `{label}` | {1000 * statistics.median(own):.1f} | {statistics.median(ratios):.1f} |")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
