"""Benchmark of the exact linear-noise audits against one floating-point LP of the same size, in the same process.

    python benchmarks/bench_audit.py [--quick] [--json]

The mechanism is KARY Algorithm 2 (arity 3) at horizon T (``--quick``: smaller T), noise matrix B (T × draws,
0/1) and prefix workload W:

* ``float LP``: one HiGHS solve of min ‖u‖₁ subject to B u = W e_1 (sparse constraint matrix) — the baseline;
* ``exact epsilon``: :func:`reference.audit.linear.laplace_lp.max_shift_norm` over every add/remove difference, i.e. the
  certified exact Laplace ε of the release (sparse elimination for every primal, then as few certified LPs as
  the bounds need), from the exact dense B and the shifts W e_j (``reading W``: also reading them off the dense
  exact W inside the timing);
* ``whole audit``: :func:`reference.audit.linear.audit.audit_linear_noise` with Laplace noise (validation, rank,
  minimum-norm strategy, Gaussian quantities and the exact ε);
* ``lattice``: :func:`reference.audit.linear.lattice.lattice_audit` on B (every shift in the lattice) and on 2B (the
  parity leak), at the larger horizon.

Reported: median seconds (interleaved repeats) and each ratio to the float LP of the same horizon. Nothing is
asserted: this script reports.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from reference.audit.linear import elimination as sparse
from reference.audit.linear.audit import audit_linear_noise
from reference.audit.linear.covariance import kary_prefix_workload
from reference.audit.linear.laplace_lp import max_shift_norm
from reference.audit.linear.lattice import lattice_audit
from reference.audit.samples.design_audit import kary_noise_matrix
from reference.core.linalg import Matrix
from reference.kary.digits import height_for_horizon

ARITY = 3


def kary_matrices(horizon: int) -> tuple[Matrix, Matrix, int]:
    """B (outputs × draws), W (prefix sums) and the height h of Algorithm 2 at this horizon."""
    workload = [[Fraction(x) for x in row] for row in kary_prefix_workload(horizon)]
    return kary_noise_matrix(ARITY, horizon, 2), workload, height_for_horizon(ARITY, horizon, offset=True)


def _time(function: Callable[[], object]) -> float:
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def _float_lp(matrix: Matrix, workload: Matrix) -> Callable[[], object]:
    from scipy.optimize import linprog
    from scipy.sparse import csc_matrix, hstack

    dense = csc_matrix(np.array([[float(x) for x in row] for row in matrix]))
    constraint = hstack([dense, -dense], format="csc")
    target = np.array([float(row[0]) for row in workload])
    cost = np.ones(constraint.shape[1])
    return lambda: linprog(cost, A_eq=constraint, b_eq=target, bounds=(0, None), method="highs")


def _exact_epsilon(matrix: Matrix, workload: Matrix, *, read_workload: bool) -> Callable[[], object]:
    """The certified max over e_j of min ‖u‖₁ (B u = W e_j); the shifts W e_j are read from the dense W inside the
    timing only with ``read_workload`` (the float LP's right-hand side is built outside its timing)."""
    prepared = [dict(column) for column in sparse.sparse_columns(workload)]

    def no_fallback(k: int) -> sparse.Sparse:
        raise AssertionError(f"the elimination left a remainder on target {k}")

    def run() -> object:
        targets = [dict(column) for column in sparse.sparse_columns(workload)] if read_workload else prepared
        return max_shift_norm(matrix, targets, no_fallback)

    return run


def measure(horizon: int, repeats: int, lattice_horizon: int) -> dict[str, object]:
    """Median seconds of each stage and the ratios to the float LP."""
    matrix, workload, height = kary_matrices(horizon)
    jobs: dict[str, Callable[[], object]] = {
        "float LP": _float_lp(matrix, workload),
        "exact epsilon": _exact_epsilon(matrix, workload, read_workload=False),
        "exact epsilon, reading W": _exact_epsilon(matrix, workload, read_workload=True),
        "whole audit": lambda: audit_linear_noise(matrix, workload, "laplace", scale=height),
    }
    times: dict[str, list[float]] = {name: [] for name in jobs}
    for _ in range(repeats):
        for name, job in jobs.items():
            times[name].append(_time(job))
    lower, upper = max_shift_norm(matrix, [dict(c) for c in sparse.sparse_columns(workload)],
                                  lambda k: {})  # the value, for the record
    big_matrix, big_workload, _ = kary_matrices(lattice_horizon)
    doubled = [[2 * x for x in row] for row in big_matrix]
    lattice_jobs: dict[str, Callable[[], object]] = {
        "float LP (lattice T)": _float_lp(big_matrix, big_workload),
        "lattice, correct": lambda: lattice_audit(big_matrix, big_workload),
        "lattice, parity leak": lambda: lattice_audit(doubled, big_workload),
    }
    for name in lattice_jobs:
        times[name] = []
    for _ in range(max(1, repeats // 2)):
        for name, job in lattice_jobs.items():
            times[name].append(_time(job))
    median = {name: statistics.median(values) for name, values in times.items()}
    return {
        "horizon": horizon,
        "draws": len(matrix[0]),
        "epsilon_times_scale": f"{lower}..{upper}" if lower != upper else str(lower),
        "lattice_horizon": lattice_horizon,
        "seconds": {name: f"{value:.4f}" for name, value in median.items()},
        "ratio to float LP": {
            "exact epsilon": f"{median['exact epsilon'] / median['float LP']:.1f}",
            "exact epsilon, reading W": f"{median['exact epsilon, reading W'] / median['float LP']:.1f}",
            "whole audit": f"{median['whole audit'] / median['float LP']:.1f}",
            "lattice, correct": f"{median['lattice, correct'] / median['float LP (lattice T)']:.1f}",
            "lattice, parity leak": f"{median['lattice, parity leak'] / median['float LP (lattice T)']:.1f}",
        },
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="T = 200 and lattice T = 500, one repeat")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    horizon, lattice_horizon, repeats = (200, 500, 1) if args.quick else (500, 2000, 3)
    result = {"python": sys.version.split()[0], "machine": platform.machine(),
              **measure(horizon, repeats, lattice_horizon)}
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
