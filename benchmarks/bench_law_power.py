"""How close the sample audits come to the statistical limit: runs for 99% power against a 1% scale error.

    python benchmarks/bench_law_power.py [--alpha A] [--error R]

For each law, the runs the audit needs to detect a relative scale error ``R`` (default 1%) with probability 99%
at its own false-alarm probability ``A`` (default 1e-6, split over the audit's tests as the audit splits it),
beside the runs the Neyman–Pearson likelihood-ratio test needs for the same simple alternative (scale × (1 + R),
one-sided, at the whole ``A``): no test can need fewer. The audit's runs are for both directions (1 ± R), its
scale test two-sided at its Bonferroni share. Counts, not times: the load is printed for the record only.

Laws: the discrete Gaussian at σ² in {1, 10², 10⁶}, the discrete Laplace (t = 2), a Gaussian design (3 outputs,
whitened: 6 property groups) and Cascade Sampling at depth 10 (the streamed audit: pooled scale test at A/4).
"""

from __future__ import annotations

import argparse
import os
from fractions import Fraction

from reference.audit.samples.cascade_stream import stream_levels
from reference.audit.samples.law_checks import GROUPS
from reference.audit.samples.laws import DiscreteGaussian, DiscreteLaplace, Gaussian, ScalarLaw
from reference.audit.samples.report import cascade_scale_power
from reference.audit.samples.scale_test import ScaleTest, lrt_runs, runs_needed


def _scalar(law: ScalarLaw, share: float, error: float, alpha: float, per_run: int = 1) -> tuple[int, int]:
    audit = ScaleTest(law, share).values_needed(error, per_run)
    assert audit is not None
    return audit, lrt_runs(law, error, alpha, per_run)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--alpha", type=float, default=1e-6)
    parser.add_argument("--error", type=float, default=0.01)
    args = parser.parse_args(argv)
    alpha, error = args.alpha, args.error
    rows: list[tuple[str, str, int, int]] = []
    scalar_share = alpha / GROUPS
    for sigma_squared in (1, 100, 10**6):
        audit, limit = _scalar(DiscreteGaussian(Fraction(sigma_squared)), scalar_share, error, alpha)
        rows.append((f"discrete Gaussian, sigma^2 = {sigma_squared:g}", "Chernoff, alpha/4", audit, limit))
    audit, limit = _scalar(DiscreteLaplace(Fraction(2)), scalar_share, error, alpha)
    rows.append(("discrete Laplace, t = 2", "Chernoff, alpha/4", audit, limit))
    audit, limit = _scalar(Gaussian(Fraction(1)), alpha / (GROUPS + 2), error, alpha, per_run=3)
    rows.append(("Gaussian design, 3 outputs (whitened)", "chi-square, alpha/6", audit, limit))
    leaves = 1 << 10
    per_test, pooled = stream_levels(10, alpha)  # the streamed audit's levels: a node test's, the pooled test's
    cascade = runs_needed(lambda runs: cascade_scale_power(runs, leaves, per_test, pooled) <= error)
    assert cascade is not None
    rows.append(("Cascade Sampling, depth 10 (streamed)", "chi-square, alpha/4", cascade,
                 lrt_runs(Gaussian(Fraction(1)), error, alpha, per_run=leaves)))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"runs for 99% power against a {error:g} relative scale error, alpha = {alpha:g} (load {load:.2f})")
    print(f"{'law':42} {'audit scale test':22} {'audit runs':>12} {'LRT runs':>12} {'ratio':>7}")
    for name, test, audit, limit in rows:
        print(f"{name:42} {test:22} {audit:>12,} {limit:>12,} {audit / limit:>7.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
