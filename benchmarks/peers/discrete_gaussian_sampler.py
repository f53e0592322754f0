"""Exact discrete Gaussian sampler throughput side by side, each sample set tested against the exact pmf.

    python benchmarks/peers/discrete_gaussian_sampler.py [--samples N]

The project's ``reference.samplers.exact.discrete_gaussian`` (CKS Algorithm 3 on seeded random bits) against
OpenDP's integer ``make_gaussian`` on a vector domain (one call for the whole vector) and Tumult Core's
``AddDiscreteGaussianNoise`` (one call per draw); both use OS randomness and take no seed. Each sample set is
fitted to the exact pmf of N_Z(0, σ²) by ``reference_verification.samplers.checks``'s goodness-of-fit test (Pearson
chi-square on pooled cells with a rigorous p-value bound, combined with exact per-cell binomial tests by the
union bound): a fit is rejected when p <= FALSE_ALARM, so each test raises a
false alarm with probability at most FALSE_ALARM, and the whole table at most FALSE_ALARM × its rows.
Throughput is samples per second of wall time; "× project" is the library's throughput over the project's.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from peers_common import optional_import, record_table, timed  # the shared module sits beside this script

from reference.core.randomness import SeededRandomBits
from reference.samplers.exact import discrete_gaussian
from reference.samplers.fit import fit_to_distribution

#: σ² of the three sample sets (σ = 1, 10, 100: exact as floats, which OpenDP's scale is).
SIGMA_SQUARED = (Fraction(1), Fraction(100), Fraction(10_000))
FALSE_ALARM = 1e-3
SEED = 2024
MIN_SAMPLES = 2_000
Sampler = Callable[[Fraction, int], list[int]]


def project_sampler(sigma_squared: Fraction, samples: int) -> list[int]:
    return discrete_gaussian(sigma_squared, source=SeededRandomBits(SEED), size=samples)


def peers() -> list[tuple[str, Sampler]]:
    routes: list[tuple[str, Sampler]] = []
    opendp = optional_import("opendp.prelude", "opendp")
    if opendp is not None:
        opendp.enable_features("contrib")
        space = opendp.vector_domain(opendp.atom_domain(T=int)), opendp.l2_distance(T=int)

        def opendp_sampler(sigma_squared: Fraction, samples: int) -> list[int]:
            scale = float(sigma_squared) ** 0.5
            return list(opendp.m.make_gaussian(*space, scale=scale)([0] * samples))

        routes.append(("opendp make_gaussian, vector of integers", opendp_sampler))
    tumult = optional_import("tmlt.core.measurements.noise_mechanisms", "Tumult Core")
    if tumult is not None:

        def tumult_sampler(sigma_squared: Fraction, samples: int) -> list[int]:  # a scalar measurement, called per draw
            noise = tumult.AddDiscreteGaussianNoise(sigma_squared=sigma_squared)
            return [int(noise(0)) for _ in range(samples)]

        routes.append(("Tumult Core AddDiscreteGaussianNoise, one call per draw", tumult_sampler))
    print("skip dp_accounting, autodp, prv_accountant: no discrete Gaussian sampler")
    return routes


def measure(library: str, sampler: Sampler, samples: int, baseline: dict[Fraction, float]) -> list[str]:
    """One Markdown row per σ²: throughput, ratio against ``baseline`` (filled in by the project's run) and fit."""
    rows = []
    for sigma_squared in SIGMA_SQUARED:
        values, seconds = timed(partial(sampler, sigma_squared, samples))
        rate = samples / seconds
        baseline.setdefault(sigma_squared, rate)
        fit = fit_to_distribution(np.asarray(values, dtype=np.int64), "discrete-gaussian", sigma_squared, alpha=FALSE_ALARM)
        verdict = "fits" if fit.holds else "REJECTED"
        rows.append(
            f"| {library} | {sigma_squared} | {rate:,.0f} | {rate / baseline[sigma_squared]:.2f} | {fit.p_value:.2g} | {verdict} |"
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--samples", type=int, default=20_000, help="draws per library and σ²")
    parser.add_argument("--record", action="store_true", help="store the table in docs/measurements/peers.json")
    args = parser.parse_args(argv)
    samples = args.samples
    load_before = os.getloadavg()[0]
    if samples < MIN_SAMPLES:  # the fit needs an expected count >= 5 at 0, where P[0] is about 0.004 at σ² = 1e4
        parser.error(f"--samples must be at least {MIN_SAMPLES} for the goodness-of-fit test, got {samples}")
    baseline: dict[Fraction, float] = {}
    rows = measure("reference exact discrete_gaussian (seeded)", project_sampler, samples, baseline)
    for library, sampler in peers():
        rows += measure(library, sampler, samples, baseline)
    title = f"Exact discrete Gaussian N_Z(0, σ²), {samples:,} draws per row; fit false-alarm probability {FALSE_ALARM:g} per row"
    table = ["| library | σ² | samples/s | × project | fit p | fit |", "|---|---|---|---|---|---|", *rows]
    print(f"\n{title}\n")
    print("\n".join(table))
    if args.record:
        record_table("discrete_gaussian_sampler", title, table, "", load_before)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
