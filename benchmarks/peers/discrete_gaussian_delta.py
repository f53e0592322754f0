"""Discrete Gaussian δ(ε) side by side: each library's δ for q + N_Z(0, σ²), Δ = 1, on a 40-point (σ, ε) grid.

    python benchmarks/peers/discrete_gaussian_delta.py [--points N]

Ground truth: ``reference.privacy.discrete_gaussian_profile.discrete_gaussian_delta`` (certified enclosure of
the exact hockey-stick divergence, Canonne, Kamath & Steinke 2020, Theorem 7), cross-checked against the
direct sum Σ_y max(0, p(y) − e^ε p(y − 1)) over the normalised pmf in mpmath at 50 digits. A δ is unsafe when
it is certainly below the true δ(ε); excess: δ/δ_true − 1. (A δ from a zCDP bound is safe but loose.)
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import mpmath

sys.path.insert(0, str(Path(__file__).resolve().parent))
from peers_common import (  # the shared module sits beside this script
    DIGITS,
    Row,
    Run,
    Verdict,
    agrees,
    mp_value,
    optional_import,
    print_table,
    record_table,
    report_cross_check,
    run_on_grid,
    skip,
    summarise,
    timed,
)

from reference.core.certified import CertifiedReal
from reference.privacy.discrete_gaussian_profile import discrete_gaussian_delta

SIGMAS = tuple(Fraction(text) for text in ("1/2", "1", "2", "4", "8"))
EPSILONS = tuple(Fraction(text) for text in ("1/100", "1/20", "1/10", "1/4", "1/2", "1", "2", "4"))
GRID = tuple((sigma, epsilon) for sigma in SIGMAS for epsilon in EPSILONS)
Point = tuple[Fraction, Fraction]  # (σ, ε): σ a standard-deviation scale, σ² = its square, exact
Profile = Callable[[Point], float]


def mp_delta(sigma: Fraction, epsilon: Fraction) -> mpmath.mpf:
    """Σ_y max(0, p(y) − e^ε p(y − 1)) with p(y) = exp(−y²/(2σ²))/Z, both sums over |y| <= Y, where the
    omitted mass, below exp(−(Y − εσ²)²/(2σ²)) < 1e-300 · the smallest δ here, is far beyond 50 digits."""
    with mpmath.workdps(DIGITS):
        scale, eps = mp_value(sigma * sigma), mp_value(epsilon)
        bound = math.ceil(float(epsilon * sigma * sigma) + 40 * float(sigma) + 40)
        weight = [mpmath.exp(-mpmath.mpf(y * y) / (2 * scale)) for y in range(-bound - 1, bound + 1)]
        total = mpmath.fsum(weight[1:])
        growth = mpmath.exp(eps)
        gaps = (weight[i] - growth * weight[i - 1] for i in range(1, len(weight)))  # y = i − bound − 1
        return mpmath.fsum(gap for gap in gaps if gap > 0) / total


def judge_delta(truth: CertifiedReal, exact: mpmath.mpf, delta: float | Fraction) -> Verdict:
    value = Fraction(delta)
    with mpmath.workdps(DIGITS):
        excess = float(mp_value(value) / exact - 1)
    return Verdict(truth.certainly_gt(value), excess)


def peers() -> list[tuple[str, Profile]]:
    routes: list[tuple[str, Profile]] = []
    pld = optional_import("dp_accounting.pld", "dp_accounting")
    if pld is not None:
        from dp_accounting.pld import privacy_loss_distribution, privacy_loss_mechanism

        routes.append((
            "dp_accounting DiscreteGaussianPrivacyLoss",
            lambda p: privacy_loss_mechanism.DiscreteGaussianPrivacyLoss(float(p[0])).get_delta_for_epsilon(float(p[1])),
        ))
        routes.append((
            "dp_accounting PLD from_discrete_gaussian_mechanism",
            lambda p: privacy_loss_distribution.from_discrete_gaussian_mechanism(float(p[0])).get_delta_for_epsilon(float(p[1])),
        ))
    opendp = optional_import("opendp.prelude", "opendp")
    if opendp is not None:
        opendp.enable_features("contrib")

        def opendp_delta(p: Point) -> float:  # its integer Gaussian is zCDP; δ(ε) from its zCDP → approxDP conversion
            gaussian = opendp.m.make_gaussian(opendp.atom_domain(T=int), opendp.absolute_distance(T=int), scale=float(p[0]))
            return float(opendp.c.make_zCDP_to_approxDP(gaussian).map(1).delta(float(p[1])))

        routes.append(("opendp make_gaussian (integers, zCDP) + make_zCDP_to_approxDP", opendp_delta))
    skip("autodp", "its DiscreteGaussianMechanism is its zCDP mechanism (ρ = 1/(2σ²), ε from δ only): see the zCDP comparison")
    skip("prv_accountant", "has no discrete Gaussian privacy random variable")
    skip("Tumult Core", "AddDiscreteGaussianNoise is accounted as ρ-zCDP with the simple conversion: see the zCDP comparison")
    return routes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--points", type=int, default=len(GRID), help="use the first N grid points")
    parser.add_argument("--record", action="store_true", help="store the table in docs/measurements/peers.json")
    args = parser.parse_args(argv)
    grid = GRID[: args.points]
    load_before = os.getloadavg()[0]
    truths: list[CertifiedReal] = []
    _, project_seconds = timed(
        lambda: truths.extend(
            discrete_gaussian_delta(epsilon=eps, sigma_squared=sigma * sigma, sensitivity=1) for sigma, eps in grid
        )
    )
    exact = [mp_delta(sigma, eps) for sigma, eps in grid]
    disagreements = [
        f"sigma={float(s):g}, epsilon={float(e):g}: mpmath {mpmath.nstr(value, 20)} vs [{float(t.lower)!r}, {float(t.upper)!r}]"
        for (s, e), t, value in zip(grid, truths, exact)
        if not agrees(value, t)
    ]
    status = report_cross_check("discrete_gaussian_delta", disagreements, len(grid))

    def judge(index: int, delta: float | Fraction) -> Verdict:
        return judge_delta(truths[index], exact[index], delta)

    project: Run[Point] = Run("reference discrete_gaussian_delta (certified)", [t.upper for t in truths], project_seconds)
    rows: list[Row] = [summarise(project, judge, project_seconds)]
    for library, profile in peers():
        rows.append(summarise(run_on_grid(library, profile, grid), judge, project_seconds))
    title = f"Discrete Gaussian δ(ε), Δ = 1, {len(grid)} (σ, ε) points (σ 0.5–8, ε 0.01–4)"
    table = print_table(title, rows, "δ/δ_true − 1")
    summary = f"project: {1000 * project_seconds / len(grid):.2f} ms per certified δ(ε)"
    print(f"\n{summary}")
    if args.record:
        record_table("discrete_gaussian_delta", title, table, summary, load_before)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
