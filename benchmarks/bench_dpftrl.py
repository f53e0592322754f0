"""Benchmark of the participation audit at DP-FTRL sizes, against one float LU of the same strategy.

    python benchmarks/bench_dpftrl.py [--steps 2048]

The release is a noisy strategy ``C x + z`` (noise matrix the identity, Gaussian σ = 1; DP-FTRL's prefix sums
are post-processing of it), C lower-triangular Toeplitz with positive decreasing integer coefficients:

* ``banded``: band 64, coefficients 64, 63, ..., 1;
* ``dense``: coefficients ⌊4096/(d + 1)⌋ (at least 1) on every subdiagonal d.

Each is audited under min-separation b = 128 with k = 16 and b = 256 with k = 8, signed and vector
contributions (:func:`reference.audit.linear.audit.audit_linear_noise`, in this process after a warm-up, CPU
seconds). The baseline, measured in the same run: one ``scipy.linalg.lu_factor`` of C in float64 (CPU seconds,
best of three), and one ``scipy.sparse.linalg.splu`` of C as a sparse matrix. Printed: the audit's CPU
seconds, its ratios to both, and the relative width of the certified Δ² bracket (0 when exact). ``--float-built``
audits C / 3 computed in float64 instead (read exactly: the dyadic path scales it to int64 by a power of two).
Then a pseudo-inverse reconstruction: B = pinv(H) of a binary tree over 256 leaves
in float64, read exactly, W = I, Gaussian, against one float LU of B Bᵀ. The load average is printed before and after (the machine is shared). Nothing is
asserted: this script reports.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from reference.audit.linear.audit import audit_linear_noise  # noqa: E402
from reference.audit.linear.participation import min_separation  # noqa: E402

SHAPES = ((128, 16), (256, 8))
MODELS = ("signed", "vector")


def strategy(kind: str, steps: int) -> np.ndarray:
    """The lower-triangular Toeplitz strategy of the module docstring, as int64."""
    if kind == "banded":
        coefficients = [64 - offset for offset in range(64)]
    else:
        coefficients = [max(1, 4096 // (offset + 1)) for offset in range(steps)]
    matrix = np.zeros((steps, steps), dtype=np.int64)
    for offset, value in enumerate(coefficients[:steps]):
        matrix[np.arange(offset, steps), np.arange(0, steps - offset)] = value
    return matrix


def lu_seconds(matrix: np.ndarray, repeats: int = 3) -> float:
    from scipy.linalg import lu_factor

    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        lu_factor(matrix.astype(np.float64))
        best = min(best, time.process_time() - start)
    return best


def splu_seconds(matrix: np.ndarray, repeats: int = 3) -> float:
    """One scipy.sparse.linalg.splu (SuperLU) of C as a sparse float64 matrix (the conversion not timed)."""
    from scipy import sparse
    from scipy.sparse.linalg import splu

    compressed = sparse.csc_matrix(matrix.astype(np.float64))
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        splu(compressed)
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2048)
    parser.add_argument("--float-built", action="store_true",
                        help="C / 3 in float64 (a strategy built in floats, read exactly: the dyadic path)")
    parser.add_argument("--kinds", nargs="+", default=["banded", "dense"])
    parser.add_argument("--no-pinv", action="store_true", help="skip the pseudo-inverse reconstruction")
    args = parser.parse_args()
    steps = args.steps
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    identity = np.eye(steps, dtype=np.int64)
    audit_linear_noise(np.eye(8, dtype=np.int64), strategy("banded", 8), "gaussian", scale=1,
                       participation=min_separation(separation=2, times=2, contribution="vector"))  # warm-up
    print(f"{'strategy':8} {'b,k':>7} {'model':6} {'audit s':>8} {'LU s':>7} {'ratio':>7} {'splu s':>7} "
          f"{'/splu':>6} {'bracket':>9}")
    for kind in args.kinds:
        matrix = strategy(kind, steps)
        baseline, sparse_baseline = lu_seconds(matrix), splu_seconds(matrix)
        given = matrix / 3.0 if args.float_built else matrix
        for separation, times in SHAPES:
            for model in MODELS:
                scheme = min_separation(separation=separation, times=times, contribution=model)  # type: ignore[arg-type]
                start = time.process_time()
                try:
                    verdict = audit_linear_noise(identity, given, "gaussian", scale=1, participation=scheme)
                except ValueError as refusal:
                    print(f"{kind:8} {f'{separation},{times}':>7} {model:6} refused: {refusal}")
                    continue
                seconds = time.process_time() - start
                found = verdict.pattern_maximum
                assert found is not None
                width = float(found.upper / found.lower - 1)
                print(f"{kind:8} {f'{separation},{times}':>7} {model:6} {seconds:8.2f} {baseline:7.3f} "
                      f"{seconds / baseline:7.1f} {sparse_baseline:7.3f} {seconds / sparse_baseline:6.1f} "
                      f"{width:9.1e}")
    if not args.no_pinv:
        pseudo_inverse(256)
    print(f"load average after: {os.getloadavg()[0]:.1f}")


def pseudo_inverse(leaves: int) -> None:
    """A pseudo-inverse reconstruction: B = pinv(H) (H a binary tree's 0/1 matrix over ``leaves`` leaves) computed
    in float64 and read exactly, W = I, Gaussian; against one float LU of B Bᵀ."""
    from scipy.linalg import lu_factor

    rows: list[list[float]] = []
    size = leaves
    while size >= 1:
        rows.extend([float(start <= j < start + size) for j in range(leaves)] for start in range(0, leaves, size))
        size //= 2
    noise = np.linalg.pinv(np.array(rows))
    start = time.process_time()
    lu_factor(noise @ noise.T)
    baseline = max(time.process_time() - start, 1e-6)
    start = time.process_time()
    verdict = audit_linear_noise(noise, np.eye(leaves, dtype=np.int64), "gaussian", scale=1)
    seconds = time.process_time() - start
    found = verdict.pattern_maximum
    width = 0.0 if found is None else float(found.upper / found.lower - 1)
    print(f"pinv(tree) n = {leaves}, W = I: audit {seconds:.2f} s, LU of B B^T {baseline:.4f} s, ratio "
          f"{seconds / baseline:.0f}, Delta^2 bracket width {width:.1e}")


if __name__ == "__main__":
    main()
