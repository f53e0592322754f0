"""zCDP → (ε, δ) conversion side by side: each library's ε for ρ-zCDP at δ, on a 40-point (ρ, δ) grid.

    python benchmarks/peers/zcdp_conversion.py [--points N]

Ground truth: ``reference.privacy.zcdp.epsilon_from_rho_tight`` (certified enclosure of the tight conversion,
Canonne, Kamath & Steinke 2020, Corollary 13), cross-checked against that infimum over the Rényi order found
by ``mpmath.findroot`` on ``mpmath.diff`` of the objective at 50 digits. An ε is unsafe when it is certainly
below the exact ε of the Gaussian mechanism with σ² = 1/(2ρ) (``gaussian_epsilon``), itself ρ-zCDP: no
conversion from ρ alone may go below it. "below tight" counts values under the tight conversion's certified
lower end (not provably unsafe, but not backed by that conversion). Excess: ε/ε_tight − 1.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import mpmath

sys.path.insert(0, str(Path(__file__).resolve().parent))
from peers_common import (  # the shared module sits beside this script
    DELTAS,
    DIGITS,
    Row,
    Run,
    Verdict,
    agrees,
    mp_root_in_log,
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
from reference.privacy.gaussian import gaussian_epsilon
from reference.privacy.zcdp import epsilon_from_rho_tight

RHOS = tuple(Fraction(text) for text in ("1/10000", "1/1000", "1/100", "1/10", "1/2", "1", "5", "20"))
GRID = tuple((rho, delta) for rho in RHOS for delta in DELTAS)
Point = tuple[Fraction, Fraction]
Converter = Callable[[Point], float]


def mp_tight_epsilon(rho: Fraction, delta: Fraction) -> mpmath.mpf:
    """inf over α > 1 of αρ + (log(1/δ) + (α−1) log(1 − 1/α) − log α)/(α − 1), at the root of its numerical
    derivative (``mpmath.diff``) in t = α − 1: the formula as printed, not the project's closed-form derivative."""
    with mpmath.workdps(DIGITS):
        budget, log_inverse = mp_value(rho), -mpmath.log(mp_value(delta))

        def objective(t: mpmath.mpf) -> mpmath.mpf:
            alpha = 1 + t
            return alpha * budget + (log_inverse + t * mpmath.log(1 - 1 / alpha) - mpmath.log(alpha)) / t

        # the objective decreases, then increases in t: the negated derivative is positive below the optimum
        order = mp_root_in_log(lambda t: -mpmath.diff(objective, t))
        return max(objective(order), mpmath.mpf(0))


def judge_epsilon(floor: CertifiedReal, tight: CertifiedReal, exact: mpmath.mpf, epsilon: float | Fraction) -> Verdict:
    """Unsafe below the Gaussian's exact ε (certified lower end); flagged below the tight conversion."""
    value = Fraction(epsilon)
    with mpmath.workdps(DIGITS):
        excess = float(mp_value(value) / exact - 1)
    return Verdict(floor.certainly_gt(value), excess, flagged=tight.certainly_gt(value))


def below_tight(verdicts: list[Verdict]) -> str:
    count = sum(v.flagged and not v.unsafe for v in verdicts)
    return f"below tight at {count}" if count else ""


def peers() -> list[tuple[str, Converter]]:
    routes: list[tuple[str, Converter]] = []
    dpa = optional_import("dp_accounting", "dp_accounting")
    rdp = optional_import("dp_accounting.rdp", "dp_accounting RDP") if dpa is not None else None
    if dpa is not None and rdp is not None:
        def dpa_epsilon(p: Point) -> float:
            accountant = rdp.RdpAccountant()
            accountant.compose(dpa.ZCDpEvent(float(p[0])))
            return float(accountant.get_epsilon(float(p[1])))

        routes.append(("dp_accounting RdpAccountant + ZCDpEvent", dpa_epsilon))
    autodp = optional_import("autodp.mechanism_zoo", "autodp")
    if autodp is not None:
        routes.append(("autodp zCDP_Mechanism get_approxDP", lambda p: autodp.zCDP_Mechanism(float(p[0]), 0).get_approxDP(float(p[1]))))
    opendp = optional_import("opendp.prelude", "opendp")
    if opendp is not None:
        opendp.enable_features("contrib", "honest-but-curious")  # the latter for a measurement with a given ρ

        def opendp_epsilon(p: Point) -> float:
            measurement = opendp.m.make_user_measurement(
                opendp.atom_domain(T=float, nan=False), opendp.absolute_distance(T=float),
                opendp.zero_concentrated_divergence(), function=lambda x: x, privacy_map=lambda _: float(p[0]),
            )
            return float(opendp.c.make_zCDP_to_approxDP(measurement).map(1.0).epsilon(float(p[1])))

        routes.append(("opendp make_zCDP_to_approxDP", opendp_epsilon))
    skip("prv_accountant", "accounts privacy random variables of named mechanisms; it takes no ρ")
    skip(
        "Tumult Core",
        "RhoZCDPToApproxDP is a yes/no relation that sympy-solves the simple conversion (Bun-Steinke Prop. 1.3) "
        "for each (ε, δ); one call at ε = 62469/2000000 took 168 s here, so ε(ρ) is not searched",
    )
    return routes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--points", type=int, default=len(GRID), help="use the first N grid points")
    parser.add_argument("--record", action="store_true", help="store the table in docs/measurements/peers.json")
    args = parser.parse_args(argv)
    grid = GRID[: args.points]
    load_before = os.getloadavg()[0]
    tights: list[CertifiedReal] = []
    _, project_seconds = timed(
        lambda: tights.extend(epsilon_from_rho_tight(rho=rho, delta=delta) for rho, delta in grid)
    )
    exact = [mp_tight_epsilon(rho, delta) for rho, delta in grid]
    disagreements = [
        f"rho={float(r):g}, delta={float(d):g}: mpmath {mpmath.nstr(value, 20)} vs [{float(t.lower)!r}, {float(t.upper)!r}]"
        for (r, d), t, value in zip(grid, tights, exact)
        if not agrees(value, t)
    ]
    status = report_cross_check("epsilon_from_rho_tight", disagreements, len(grid))
    # the Gaussian mechanism with σ = 1 at Δ² = 2ρ is exactly ρ-zCDP: its exact ε is a floor for every conversion
    floors = [
        gaussian_epsilon(delta=delta, sigma=1, sensitivity_squared=2 * rho, tolerance=Fraction(1, 10**9))
        for rho, delta in grid
    ]

    def judge(index: int, epsilon: float | Fraction) -> Verdict:
        return judge_epsilon(floors[index], tights[index], exact[index], epsilon)

    project: Run[Point] = Run("reference epsilon_from_rho_tight (certified)", [t.upper for t in tights], project_seconds)
    rows: list[Row] = [summarise(project, judge, project_seconds)]
    for library, converter in peers():
        rows.append(summarise(run_on_grid(library, converter, grid), judge, project_seconds, extra_note=below_tight))
    title = f"zCDP → (ε, δ), {len(grid)} (ρ, δ) points (ρ 1e-4–20, δ 1e-3–1e-15)"
    table = print_table(title, rows, "ε/ε_tight − 1")
    summary = f"project: {1000 * project_seconds / len(grid):.2f} ms per certified conversion"
    print(f"\n{summary}")
    if args.record:
        record_table("zcdp_conversion", title, table, summary, load_before)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
