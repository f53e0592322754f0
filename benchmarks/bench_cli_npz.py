"""Benchmark of ``audit linear-noise`` on sparse ``.npz`` files: the command line at the sizes the library reaches.

    python benchmarks/bench_cli_npz.py [--horizons 10000 100000] [--float-horizon 20000]

The mechanism is the binary counter on a Fenwick tree over T steps in its differenced form (a unimodular row
operation: the same privacy): B = D·F (F the 0/1 Fenwick tiling, D the first differences; about 2T stored
entries) and W = I, saved by ``scipy.sparse.save_npz`` in a temporary directory (not timed). Measured:

* **Gaussian, integer files**: the whole command (a child process: start-up, header checks, reading, the exact
  audit) in CPU seconds, against one float sparse LU of B (``scipy.sparse.linalg.splu``, this process) — the
  baseline of a float solver of the same problem;
* **Laplace, float64 files** (B and W times 0.1, a float-built strategy): the command, which reads the pair on the
  dyadic path (one power of two makes both integer), against the same audit in a child process that reads the
  files as exact rationals (``load_matrix_columns``: one Fraction per stored float entry, the path a float file
  took before).

Printed with the load average before and after; nothing is asserted: this script reports.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import scipy.sparse
import scipy.sparse.linalg

ROOT = Path(__file__).resolve().parents[1]


def fenwick_differenced(horizon: int) -> scipy.sparse.csr_matrix:
    rows, cols = [], []
    for step in range(1, horizon + 1):
        node = step
        while node > 0:
            rows.append(step - 1)
            cols.append(node - 1)
            node -= node & -node
    tiling = scipy.sparse.csr_matrix((np.ones(len(rows), dtype=np.int64), (rows, cols)), shape=(horizon, horizon))
    difference = (scipy.sparse.eye(horizon, dtype=np.int64, format="csr")
                  - scipy.sparse.eye(horizon, k=-1, dtype=np.int64, format="csr"))
    return (difference @ tiling).tocsr()


def child_cpu(arguments: list[str]) -> tuple[float, int, str]:
    """CPU seconds, exit status and the last output line of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(arguments, cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    lines = (done.stdout.strip() or done.stderr.strip()).splitlines()
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done.returncode, \
        next((line for line in lines if line.startswith("epsilon:") or line.startswith("rho:")), lines[-1])


def command(noise: Path, workload: Path, kind: str, horizon: int) -> list[str]:
    claim = ["--rho", "1"] if kind == "gaussian" else ["--epsilon", "5"]
    return [sys.executable, "-m", "reference", "audit", "linear-noise", "--noise-matrix", str(noise), "--workload",
            str(workload), "--noise", kind, "--scale", "10", *claim, "--max-sparse-dimension", str(horizon)]


def rational_child(noise: Path, workload: Path, horizon: int) -> list[str]:
    code = ("from reference.audit.linear.audit import audit_linear_noise, load_matrix_columns\n"
            "from reference.audit.linear.size_limits import SizeLimits\n"
            f"limits = SizeLimits(sparse_dimension={horizon}, text_entries=10**8)\n"
            f"b = load_matrix_columns({str(noise)!r}, 'noise_matrix', limits)\n"
            f"w = load_matrix_columns({str(workload)!r}, 'workload', limits)\n"
            "verdict = audit_linear_noise(b, w, 'laplace', scale=10, size_limits=limits)\n"
            "print('epsilon:', verdict.epsilon)\n")
    return [sys.executable, "-c", code]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--horizons", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--float-horizon", dest="float_horizon", type=int, default=20_000)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()}; cores: {os.cpu_count()}")
    with tempfile.TemporaryDirectory() as folder:
        directory = Path(folder)
        for horizon in args.horizons:
            noise = fenwick_differenced(horizon)
            scipy.sparse.save_npz(directory / "B.npz", noise)
            scipy.sparse.save_npz(directory / "W.npz", scipy.sparse.identity(horizon, dtype=np.int64, format="csr"))
            start = time.process_time()
            scipy.sparse.linalg.splu(noise.astype(np.float64).tocsc())
            lu = time.process_time() - start
            cpu, status, line = child_cpu(command(directory / "B.npz", directory / "W.npz", "gaussian", horizon))
            print(f"T = {horizon:,} gaussian, integer .npz ({noise.nnz:,} stored): command {cpu:.2f} s CPU "
                  f"(exit {status}; {line.strip()}), one float sparse LU {lu:.3f} s, ratio {cpu / max(lu, 1e-9):.1f}")
        horizon = args.float_horizon
        noise = fenwick_differenced(horizon).astype(np.float64) * 0.1
        scipy.sparse.save_npz(directory / "Bf.npz", noise)
        scipy.sparse.save_npz(directory / "Wf.npz", scipy.sparse.identity(horizon, format="csr") * 0.1)
        dyadic, status, line = child_cpu(command(directory / "Bf.npz", directory / "Wf.npz", "laplace", horizon))
        rational, _, twin_line = child_cpu(rational_child(directory / "Bf.npz", directory / "Wf.npz",
                                                                    horizon))
        print(f"T = {horizon:,} laplace, float64 .npz ({noise.nnz:,} stored): command (dyadic) {dyadic:.2f} s CPU "
              f"(exit {status}; {line.strip()}), rational reading {rational:.2f} s CPU ({twin_line.strip()}), "
              f"ratio {dyadic / rational:.2f}")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
