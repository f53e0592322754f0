"""Benchmark of the Laplace linear-noise audit on a hierarchical range mechanism with its consistency step.

    python benchmarks/bench_hierarchical.py [--leaves 4096] [--branching 16] [--float-weights [--rational]]

The mechanism (a benchmark suite's hierarchical histogram): a tree of the given branching over the leaves, every
node's count plus an independent Laplace draw of one scale b, then the consistency step (least squares over the
tree), which releases x̂ = (AᵀA)⁻¹Aᵀ(A x + z) with A the nodes × leaves 0/1 matrix. The consistency map is a
dense rational matrix; the release is audited in the equivalent form T x̂ = AᵀA x + Aᵀ z with T = AᵀA
(invertible: one release is an invertible linear function of the other, so both have the same privacy loss).
That is ``audit_linear_noise(Aᵀ, AᵀA, "laplace", scale=1)``: the noise matrix Aᵀ given as a scipy.sparse matrix,
the workload AᵀA as an int64 array (dense: every pair of leaves shares the root), ker Aᵀ of dimension
nodes − leaves, so ε comes from the certified ℓ1 LP over the draw shifts (exact when its two bounds meet). The
expected ε is the number of levels (a shift A e_j touches one node per level; the LP says whether a cheaper one
exists).

The baseline, measured in the same run: one float LP of the same problem (scipy's HiGHS, min ‖u‖₁ with
Aᵀu = AᵀA e_0, for one input), CPU seconds. Printed: the audit's CPU seconds and ε, the LP's seconds and the
ratio, and the load average before and after (the machine is shared). Nothing is asserted: this script reports.

``--float-weights``: a float-built strategy, as a budget split optimised in floats gives: level l of the tree
weighted by w_l = (1 + l/(levels − 1))/3 in float64 (A_w = diag(w) A), audited as ``audit_linear_noise(A_wᵀ,
A_wᵀA_w, "laplace", scale=1)`` with both matrices float64 (read exactly: every entry the binary rational it is).
The audit scales them by one power of two to int64 (``reference.audit.linear.dyadic``); ``--rational`` instead
passes them as exact rational column matrices (one Fraction per float entry: the path a float matrix took
before), for the comparison. The baseline is the same float LP on the weighted problem.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from scipy import sparse

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from reference.audit.linear.audit import audit_linear_noise, column_matrix  # noqa: E402
from reference.audit.linear.size_limits import SizeLimits  # noqa: E402


def tree(leaves: int, branching: int) -> sparse.csr_matrix:
    """The nodes × leaves 0/1 matrix: blocks of leaves/branching^level leaves at every level, the root first."""
    rows: list[int] = []
    cols: list[int] = []
    node, size = 0, leaves
    while size >= 1:
        for start in range(0, leaves, size):
            rows.extend([node] * size)
            cols.extend(range(start, start + size))
            node += 1
        size //= branching
    return sparse.csr_matrix((np.ones(len(rows), dtype=np.int64), (rows, cols)), shape=(node, leaves))


def lp_seconds(noise: sparse.csc_matrix, target: np.ndarray) -> float:
    """One float LP min ‖u‖₁ s.t. noise u = target (u = u⁺ − u⁻), CPU seconds."""
    from scipy.optimize import linprog

    draws = noise.shape[1]
    equality = sparse.hstack([noise, -noise]).tocsc()
    start = time.process_time()
    result = linprog(np.ones(2 * draws), A_eq=equality, b_eq=target, bounds=(0, None), method="highs")
    seconds = time.process_time() - start
    print(f"float LP: status {result.status}, min |u|_1 = {result.fun:.6f}")
    return seconds


def weighted(strategy: sparse.csr_matrix, leaves: int, branching: int) -> sparse.csr_matrix:
    """diag(w) A: the nodes of level l (root 0) weighted by the float64 w_l = (1 + l/(levels − 1))/3."""
    sizes = []
    size = leaves
    while size >= 1:
        sizes.append(leaves // size)  # nodes on this level
        size //= branching
    levels = len(sizes)
    weights = np.linspace(1.0, 2.0, levels) / 3.0
    per_node = np.repeat(weights, sizes)
    return sparse.csr_matrix(sparse.diags(per_node) @ strategy)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--leaves", type=int, default=4096)
    parser.add_argument("--branching", type=int, default=16)
    parser.add_argument("--float-weights", action="store_true", help="a float64 per-level weighted strategy")
    parser.add_argument("--rational", action="store_true", help="with --float-weights: read as exact rationals")
    arguments = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    audit_linear_noise(tree(16, 4).T.tocsc(), (tree(16, 4).T @ tree(16, 4)).toarray(), "laplace", scale=1)  # warm-up
    strategy = tree(arguments.leaves, arguments.branching)
    noise: Any = strategy.T.tocsc()
    workload: Any = np.asarray((strategy.T @ strategy).toarray(), dtype=np.int64)
    limits = SizeLimits()
    if arguments.float_weights:
        strategy = weighted(strategy.astype(np.float64), arguments.leaves, arguments.branching)
        noise = strategy.T.tocsc()
        workload = np.asarray((strategy.T @ strategy).toarray(), dtype=np.float64)
        limits = SizeLimits(text_entries=max(SizeLimits().text_entries, 2 * workload.size))
    nodes, leaves = strategy.shape
    baseline = lp_seconds(noise.astype(np.float64), workload[:, 0].astype(np.float64))
    start = time.process_time()
    if arguments.rational:
        noise = column_matrix(noise, "noise_matrix", limits)
        workload = column_matrix(workload, "workload", limits)
    verdict = audit_linear_noise(noise, workload, "laplace", scale=1, size_limits=limits)
    seconds = time.process_time() - start
    assert verdict.epsilon is not None
    lower = verdict.epsilon if verdict.epsilon_lower is None else verdict.epsilon_lower
    mode = ("float-weighted, read as rationals" if arguments.rational else "float-weighted, scaled to int64"
            ) if arguments.float_weights else "0/1 tree"
    print(f"{mode}: leaves {leaves}, nodes {nodes}, kernel {verdict.kernel_dimension}: audit {seconds:.1f} s CPU, "
          f"epsilon in [{float(lower)!r}, {float(verdict.epsilon)!r}] (relative width "
          f"{float((verdict.epsilon - lower) / verdict.epsilon):.1e}, exact: {verdict.epsilon_exact}); one float LP "
          f"{baseline:.3f} s; ratio {seconds / baseline:.0f}")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
