"""Benchmark of the exact Gaussian linear audit on a sparse counter, against one compiled sparse LU of the same matrix.

    python benchmarks/bench_gaussian_linear.py [--horizons 10000 100000] [--repeats 3]

The mechanism is the binary tree counter at horizon T: output t adds the dyadic nodes that partition the steps
0..t (B is T × T, about (T log₂ T)/2 non-zeros), released for the prefix workload. Two shapes, in this process
after a warm-up, CPU seconds (best of ``--repeats``):

* ``prefix form``: B as a scipy.sparse int8 matrix and W the prefix sums, given by a :class:`ColumnMatrix` whose
  first differences are the identity (the T² / 2 entries of W are never formed); the audit works on the first
  differences P B (2T non-zeros) and P W = I;
* ``difference form``: the same release given as P B and I (scipy.sparse int8).

Each is :func:`reference.audit.linear.audit.audit_linear_noise` with Gaussian noise (σ = 1), exact Δ², and the
baselines measured in the same run: one ``scipy.sparse.linalg.splu`` (SuperLU, float64, COLAMD) of the B given,
and one of P B, the matrix the audit factors. Printed: the seconds, both ratios, Δ², the verdict's method and
the machine's load average (os.getloadavg) before and after: the machine is shared. Nothing is asserted: this
script reports.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import cast

import numpy as np
from scipy import sparse
from scipy.sparse.linalg import splu

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from reference.audit.linear.audit import audit_linear_noise  # noqa: E402
from reference.audit.linear.column_matrix import ColumnMatrix  # noqa: E402
from reference.audit.linear.elimination import Sparse  # noqa: E402
from reference.audit.linear.size_limits import SizeLimits  # noqa: E402
from reference.core.linalg import Matrix  # noqa: E402


class PrefixWorkload(ColumnMatrix):
    """The T × T prefix-sum workload held by its first differences (the identity)."""

    def __init__(self, horizon: int) -> None:
        self.rows = self.cols = horizon

    def nonzeros(self, differenced: bool) -> int:
        return self.rows if differenced else self.rows * (self.rows + 1) // 2

    def columns(self, differenced: bool) -> list[Sparse]:
        if not differenced:
            raise ValueError("the prefix workload is held by its first differences only")
        return [cast(Sparse, {j: 1}) for j in range(self.cols)]  # ints stand for Fractions (elimination.py)

    def dense(self) -> Matrix:
        raise ValueError("the prefix workload is held by its first differences only")

    def used_columns(self) -> list[int]:
        return list(range(self.cols))


def tree_counter(horizon: int) -> sparse.csc_matrix:
    """The binary tree counter's noise matrix (T × nodes used, int8)."""
    steps = np.arange(horizon)
    lengths = steps + 1
    rows, keys = [], []
    for level in range(int(horizon).bit_length()):
        has = (lengths >> level) & 1 == 1
        # the node at this level covers [start, start + 2^level), start = the length with its low bits cleared
        start = (lengths >> (level + 1)) << (level + 1)
        rows.append(steps[has])
        keys.append(level * (horizon + 1) + (start[has] >> level))
    row, key = np.concatenate(rows), np.concatenate(keys)
    _, column = np.unique(key, return_inverse=True)
    return sparse.csc_matrix((np.ones(row.size, dtype=np.int8), (row, column)), shape=(horizon, int(column.max()) + 1))


def first_differences(matrix: sparse.csc_matrix) -> sparse.csc_matrix:
    horizon = matrix.shape[0]
    difference = sparse.eye(horizon, format="csr", dtype=np.int64) - sparse.eye(horizon, k=-1, format="csr",
                                                                                  dtype=np.int64)
    result = sparse.csc_matrix(difference @ matrix.astype(np.int64))
    result.eliminate_zeros()
    return result.astype(np.int8)


def best_seconds(action: Callable[[], object], repeats: int) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeats):
        start = time.process_time()
        result = action()
        best = min(best, time.process_time() - start)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--horizons", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"load average before: {tuple(round(x, 2) for x in os.getloadavg())}; cores: {os.cpu_count()}")
    audit_linear_noise(tree_counter(64), PrefixWorkload(64), "gaussian", scale=1)  # imports outside the timings
    print(f"{'T':>7} {'shape':16} {'audit s':>8} {'LU(B) s':>8} {'LU(PB) s':>9} {'/LU(B)':>7} {'/LU(PB)':>8}  "
          "Delta^2  method")
    for horizon in args.horizons:
        limits = SizeLimits(sparse_dimension=max(20_000, horizon))
        noise = tree_counter(horizon)
        differenced = first_differences(noise)
        identity = sparse.identity(horizon, format="csc", dtype=np.int8)
        lu_differenced, _ = best_seconds(partial(splu, sparse.csc_matrix(differenced, dtype=np.float64)), args.repeats)
        for shape, given, workload in (("prefix form", noise, PrefixWorkload(horizon)),
                                       ("difference form", differenced, identity)):
            lu_given, _ = best_seconds(partial(splu, sparse.csc_matrix(given, dtype=np.float64)), args.repeats)
            seconds, verdict = best_seconds(
                partial(audit_linear_noise, given, workload, "gaussian", scale=1, size_limits=limits), args.repeats)
            explanation = verdict.explanation  # type: ignore[attr-defined]
            method = ("substitution, certified" if "substitution" in explanation else
                      "compiled LU, certified" if "float sparse LU" in explanation else "elimination")
            print(f"{horizon:>7} {shape:16} {seconds:8.3f} {lu_given:8.4f} {lu_differenced:9.4f} "
                  f"{seconds / lu_given:7.1f} {seconds / lu_differenced:8.1f}  "
                  f"{verdict.l2_sensitivity_squared}  {method}")  # type: ignore[attr-defined]
    print(f"load average after: {tuple(round(x, 2) for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
