"""The discrete-Gaussian calibration audit at σ in the thousands, against one discrete-Gaussian δ(ε) evaluation
at the same σ, measured in the same run.

    python benchmarks/bench_discrete_gaussian_calibration.py [--sigmas 1000,2437,5000]

Per σ (σ² = σ·σ, Δ = 1000 and Δ = 1, ε = 1/2, δ = 1e-6): CPU seconds of one
:func:`reference.privacy.discrete_gaussian_profile.discrete_gaussian_delta` (the baseline: one certified lattice
sum) and of one :func:`reference.audit.calibration.audit_discrete_gaussian` (δ(ε), and the smallest ε certified
to relative width 1e-22: a Newton search on the same lattice sum with its derivative, then two certified
evaluations), and their ratio. The audit's goal: at most 1 s per point. The load average is printed. Nothing is
asserted: this script reports.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reference.audit.calibration import audit_discrete_gaussian
from reference.privacy.discrete_gaussian_profile import discrete_gaussian_delta

EPSILON = Fraction(1, 2)
DELTA = Fraction(1, 10**6)


def _cpu(function: Callable[[], object]) -> float:
    start = time.process_time()
    function()
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sigmas", default="1000,2437,5000")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()}; cores: {os.cpu_count()}; CPU seconds (process time)")
    for sigma in (int(text) for text in args.sigmas.split(",")):
        for sensitivity in (1000, 1):
            s2 = Fraction(sigma * sigma)
            baseline = _cpu(partial(discrete_gaussian_delta, epsilon=EPSILON, sigma_squared=s2, sensitivity=sensitivity))
            audit = _cpu(partial(audit_discrete_gaussian, epsilon=EPSILON, delta=DELTA, sigma_squared=s2,
                                 sensitivity=sensitivity))
            print(f"sigma {sigma:>6}, Delta {sensitivity:>4}: one delta(epsilon) {baseline:7.3f} s, calibration audit "
                  f"{audit:7.3f} s, audit/delta {audit / baseline:6.1f}x")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
