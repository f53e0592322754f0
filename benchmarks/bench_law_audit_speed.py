"""Speed of the whole-law sample audit against one numpy pass over the same data, in the same run.

    python benchmarks/bench_law_audit_speed.py [--values N] [--repeats R]

Draws ``N`` (default 10**7) discrete Gaussian values at σ² = 100 (by inverse transform on the float pmf over
±20σ: a benchmark input, not an exact sampler) and times, in CPU seconds (least of ``R`` repeats):

* the baseline: one numpy pass, ``np.sum(np.square(x))``;
* :func:`reference.audit.samples.law_audit.audit_samples` on the int64 array (the counts by one ``bincount``);
* the same audit on the values as float64 (checked to be integers, then counted).

Printed: the seconds and the ratios to the baseline, with the load average. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from reference.audit.samples.law_audit import audit_samples
from reference.audit.samples.laws import DiscreteGaussian


def _least(function: object, repeats: int) -> float:
    assert callable(function)
    best = float("inf")
    for _ in range(repeats):
        started = time.process_time()
        function()
        best = min(best, time.process_time() - started)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--values", type=int, default=10**7)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    support = np.arange(-200, 201)
    weights = np.exp(-support.astype(float) ** 2 / 200.0)
    values = np.random.default_rng(1).choice(support, size=args.values, p=weights / weights.sum()).astype(np.int64)
    floats = values.astype(np.float64)
    law = DiscreteGaussian(100)
    verdict = audit_samples(values, law).verdict
    baseline = _least(lambda: np.sum(np.square(values)), args.repeats)
    integer = _least(lambda: audit_samples(values, law), args.repeats)
    real = _least(lambda: audit_samples(floats, law), args.repeats)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{args.values:,} discrete Gaussian values, sigma^2 = 100 (verdict {verdict}; load {load:.2f})")
    print(f"{'one numpy pass (sum of squares)':40} {baseline:8.4f} s   1.0x")
    print(f"{'whole-law audit, int64 input':40} {integer:8.4f} s {integer / baseline:6.1f}x")
    print(f"{'whole-law audit, float64 input':40} {real:8.4f} s {real / baseline:6.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
