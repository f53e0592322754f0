"""Gaussian σ calibration side by side: each library's σ for (ε, δ)-DP at Δ = 1 on a 40-point grid.

    python benchmarks/peers/gaussian_sigma.py [--points N]

Ground truth: ``reference.privacy.gaussian.sigma_exact`` (certified enclosure [sigma_below, sigma] of the
smallest σ, relative width 1e-12), cross-checked against the Balle–Wang δ(ε, σ) solved for σ by
``mpmath.findroot`` at 50 digits. A library's σ is unsafe when the certified δ(ε) at that σ (the float read
exactly) is certainly above δ; "excess" is σ/σ* − 1 against the certified sufficient σ*. The note gives the
largest δ(ε)/δ at an unsafe σ. Time: the library's total over the grid / ``sigma_exact``'s total, each route
warmed up once on the first point before its timed pass (wall clock: read it with the load printed beside it).
"""

from __future__ import annotations

import argparse
import contextlib
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
    GAUSSIAN_GRID,
    Row,
    Run,
    Verdict,
    agrees,
    bisect_float,
    mp_gaussian_delta,
    mp_root_in_log,
    mp_value,
    optional_import,
    print_table,
    record_table,
    report_cross_check,
    run_on_grid,
    summarise,
    timed,
)

from reference.privacy.gaussian import ExactSigma, gaussian_delta, sigma_exact

Point = tuple[Fraction, Fraction]
Calibrator = Callable[[Point], float]


def mp_sigma(epsilon: Fraction, delta: Fraction) -> mpmath.mpf:
    """The smallest σ with δ(ε, σ) = δ at Δ = 1 by mpmath.findroot at 50 digits (independent of the project)."""
    with mpmath.workdps(DIGITS):
        eps, target = mp_value(epsilon), mp_value(delta)
        # in log δ, so that the root is found to 50 relative digits even where δ is 1e-15
        return mp_root_in_log(lambda sigma: mpmath.log(mp_gaussian_delta(eps, sigma, mpmath.mpf(1))) - mpmath.log(target))


def cross_check(grid: tuple[Point, ...], truths: list[ExactSigma], roots: list[mpmath.mpf]) -> list[str]:
    """Points where the mpmath root is outside the project's certified enclosure [sigma_below, sigma]."""
    return [
        f"epsilon={float(e):g}, delta={float(d):g}: mpmath {mpmath.nstr(root, 20)} vs [{float(t.sigma_below)!r}, {float(t.sigma)!r}]"
        for (e, d), t, root in zip(grid, truths, roots)
        if not agrees(root, t.enclosure)
    ]


def judge_sigma(point: Point, root: mpmath.mpf, sigma: float | Fraction) -> Verdict:
    """Unsafe iff the certified δ(ε) at the library's σ (a float read exactly) is certainly above δ; the
    excess is σ/σ* − 1 against the 50-digit root σ*; ``worst`` is δ(ε)/δ − 1 at that σ."""
    epsilon, delta = point
    if not sigma > 0:
        return Verdict(True, -1.0, math.inf)
    exact = Fraction(sigma)
    reached = gaussian_delta(epsilon=epsilon, sigma=exact, sensitivity_squared=1)
    with mpmath.workdps(DIGITS):
        excess = float(mp_value(exact) / root - 1)
    return Verdict(reached.certainly_gt(delta), excess, float(reached.upper / delta - 1))


def peers() -> list[tuple[str, Calibrator]]:
    """Every peer route that imports here (a skip line for the others)."""
    routes: list[tuple[str, Calibrator]] = []
    dpa = optional_import("dp_accounting", "dp_accounting")
    if dpa is not None:
        rdp, pld = optional_import("dp_accounting.rdp", "dp_accounting RDP"), optional_import("dp_accounting.pld", "dp_accounting PLD")
        routes.append(("dp_accounting get_sigma_gaussian", lambda p: dpa.get_sigma_gaussian(float(p[0]), float(p[1]))))
        if pld is not None:
            from dp_accounting.pld import accountant, common

            routes.append((
                "dp_accounting pld get_smallest_gaussian_noise",
                lambda p: accountant.get_smallest_gaussian_noise(common.DifferentialPrivacyParameters(float(p[0]), float(p[1]))),
            ))

        def calibrated_with(accountant_class: object) -> Calibrator:  # the accountant's own search for σ
            return lambda p: float(dpa.calibrate_dp_mechanism(accountant_class, dpa.GaussianDpEvent, float(p[0]), float(p[1])))

        for module, maker in ((rdp, "RdpAccountant"), (pld, "PLDAccountant")):
            if module is not None:
                routes.append((f"dp_accounting {maker} + calibrate_dp_mechanism", calibrated_with(getattr(module, maker))))
    autodp = optional_import("autodp.calibrator_zoo", "autodp")
    if autodp is not None:
        from autodp.mechanism_zoo import GaussianMechanism

        routes.append(("autodp ana_gaussian_calibrator", lambda p: autodp.ana_gaussian_calibrator()(GaussianMechanism, float(p[0]), float(p[1])).params["sigma"]))
        # the generic calibrator needs search bounds; (0, 100) as in autodp's own examples
        routes.append((
            "autodp generalized_eps_delta_calibrator, bounds (0, 100)",
            lambda p: autodp.generalized_eps_delta_calibrator()(GaussianMechanism, float(p[0]), float(p[1]), [0, 100]).params["sigma"],
        ))
    opendp = optional_import("opendp.prelude", "opendp")
    if opendp is not None:
        opendp.enable_features("contrib")
        space = opendp.atom_domain(T=float, nan=False), opendp.absolute_distance(T=float)

        def opendp_sigma(p: Point) -> float:  # its Gaussian is zCDP; the (ε, δ) map is its zCDP → approxDP conversion
            def chain(scale: float) -> object:
                gaussian = opendp.m.make_gaussian(*space, scale=scale)
                return opendp.c.make_fix_delta(opendp.c.make_zCDP_to_approxDP(gaussian), float(p[1]))

            return float(opendp.binary_search_param(chain, d_in=1.0, d_out=(float(p[0]), float(p[1]))))

        routes.append(("opendp make_gaussian (zCDP) + binary_search_param", opendp_sigma))
    prv = optional_import("prv_accountant", "prv_accountant")
    if prv is not None:
        from prv_accountant.privacy_random_variables import GaussianMechanism as PrvGaussian

        def prv_sigma(p: Point) -> float:  # smallest σ whose certified upper ε bound is <= ε
            def holds(sigma: float) -> bool:
                accountant = prv.PRVAccountant(
                    prvs=[PrvGaussian(noise_multiplier=sigma)], max_self_compositions=[1],
                    eps_error=float(p[0]) / 100, delta_error=float(p[1]) / 100,
                )
                return bool(accountant.compute_epsilon(delta=float(p[1]), num_self_compositions=[1])[2] <= float(p[0]))

            return bisect_float(holds, 0.5, 1.0, relative=1e-4)

        routes.append(("prv_accountant PRVAccountant (upper ε, errors 1%) + bisection to 1e-4", prv_sigma))
    tumult = optional_import("tmlt.core.measurements.converters", "Tumult Core")
    if tumult is not None:
        from tmlt.core.domains.numpy_domains import NumpyFloatDomain
        from tmlt.core.measurements.noise_mechanisms import AddGaussianNoise

        def tumult_sigma(p: Point) -> float:  # Tumult's zCDP Gaussian through its (exact, sympy) zCDP → approxDP relation
            def holds(sigma: float) -> bool:
                noise = AddGaussianNoise(input_domain=NumpyFloatDomain(), sigma_squared=Fraction(sigma) ** 2)
                return bool(tumult.RhoZCDPToApproxDP(noise).privacy_relation(1, p))

            return bisect_float(holds, 0.5, 1.0, relative=1e-4)

        routes.append(("Tumult Core AddGaussianNoise + RhoZCDPToApproxDP, bisection to 1e-4", tumult_sigma))
    return routes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--points", type=int, default=len(GAUSSIAN_GRID), help="use the first N grid points")
    parser.add_argument("--record", action="store_true", help="store the table in docs/measurements/peers.json")
    args = parser.parse_args(argv)
    grid = GAUSSIAN_GRID[: args.points]
    load_before = os.getloadavg()[0]
    print(f"load average before: {os.getloadavg()}; cores: {os.cpu_count()}")
    truths: list[ExactSigma] = []
    # every route warmed up once on the first point (lazy imports, caches) before its timed pass
    sigma_exact(epsilon=grid[0][0], delta=grid[0][1], sensitivity_squared=1)
    _, project_seconds = timed(
        lambda: truths.extend(sigma_exact(epsilon=e, delta=d, sensitivity_squared=1) for e, d in grid)
    )
    roots = [mp_sigma(e, d) for e, d in grid]
    status = report_cross_check("sigma_exact", cross_check(grid, truths, roots), len(grid))

    def judge(index: int, sigma: float | Fraction) -> Verdict:
        return judge_sigma(grid[index], roots[index], sigma)

    project: Run[Point] = Run("reference sigma_exact (certified)", [t.sigma for t in truths], project_seconds)
    rows: list[Row] = [summarise(project, judge, project_seconds)]
    for library, calibrator in peers():
        with contextlib.suppress(Exception):  # a refusal shows in the timed pass, where it is reported
            calibrator(grid[0])
        rows.append(summarise(run_on_grid(library, calibrator, grid), judge, project_seconds, "δ(ε)/δ − 1 up to"))
    title = f"Gaussian σ calibration, Δ = 1, {len(grid)} (ε, δ) points (ε 0.01–20, δ 1e-3–1e-15)"
    table = print_table(title, rows, "σ/σ* − 1")
    summary = f"project: {1000 * project_seconds / len(grid):.2f} ms per certified σ"
    print(f"\n{summary}")
    if args.record:
        record_table("gaussian_sigma", title, table, summary, load_before)
    print(f"load average after: {os.getloadavg()}")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
