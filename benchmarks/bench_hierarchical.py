"""Benchmark of the Laplace linear-noise audit on a hierarchical range mechanism with its consistency step.

    python benchmarks/bench_hierarchical.py [--leaves 4096] [--branching 16]

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
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np
from scipy import sparse

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from reference.audit.linear.audit import audit_linear_noise  # noqa: E402


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--leaves", type=int, default=4096)
    parser.add_argument("--branching", type=int, default=16)
    arguments = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    audit_linear_noise(tree(16, 4).T.tocsc(), (tree(16, 4).T @ tree(16, 4)).toarray(), "laplace", scale=1)  # warm-up
    strategy = tree(arguments.leaves, arguments.branching)
    noise = strategy.T.tocsc()
    workload = np.asarray((strategy.T @ strategy).toarray(), dtype=np.int64)
    nodes, leaves = strategy.shape
    baseline = lp_seconds(noise, workload[:, 0].astype(np.float64))
    start = time.process_time()
    verdict = audit_linear_noise(noise, workload, "laplace", scale=1)
    seconds = time.process_time() - start
    print(f"leaves {leaves}, nodes {nodes}, kernel {verdict.kernel_dimension}: audit {seconds:.1f} s CPU, epsilon "
          f"{verdict.epsilon} (lower {verdict.epsilon_lower}); one float LP {baseline:.3f} s; ratio "
          f"{seconds / baseline:.0f}")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
