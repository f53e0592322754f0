"""Benchmark of the participation audit's negative-Gram path at DP-FTRL sizes, against one float LU.

    python benchmarks/bench_negative_gram.py [--steps 2048]

The strategies of ``bench_dpftrl.py`` have non-negative Gram matrices, where counts, signed and vector
contributions agree. Here every third coefficient of a lower-triangular Toeplitz strategy C is negated, so
``CᵀC`` has negative entries that no choice of signs makes non-negative (not a balanced matrix) between inputs one
user may share — the path where signed contributions are maximised over signs and vector contributions are
bracketed by the semidefinite bound:

* ``dense``: coefficients ±⌊4096/(d + 1)⌋ (at least 1 in size) on every subdiagonal d, minus where d ≡ 0 mod 3;
* ``banded``: band 256, coefficients ±(256 − d), minus where d ≡ 0 mod 3 (its Gram matrix reaches distance 255:
  beyond the separation 128, inside 256, where the negative path is not taken).

The release is ``C x + z`` (noise matrix the identity, Gaussian σ = 1), audited under min-separation b = 128 with
k = 16 and b = 256 with k = 8, signed and vector contributions, in this process after a warm-up (CPU seconds).
The baseline, measured in the same run: one ``scipy.linalg.lu_factor`` of C in float64 (CPU seconds, best of
three). Printed: the audit's CPU seconds, its ratio to the LU, the relative width of the certified Δ² bracket (0
when exact) and the method named by the verdict. The load average is printed before and after (the machine is
shared). Nothing is asserted: this script reports.
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
    """The signed lower-triangular Toeplitz strategy of the module docstring, as int64."""
    if kind == "banded":
        sizes = [256 - offset for offset in range(256)]
    else:
        sizes = [max(1, 4096 // (offset + 1)) for offset in range(steps)]
    coefficients = [size if offset % 3 else -size for offset, size in enumerate(sizes)]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2048)
    steps = parser.parse_args().steps
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    identity = np.eye(steps, dtype=np.int64)
    audit_linear_noise(np.eye(8, dtype=np.int64), strategy("dense", 8), "gaussian", scale=1,
                       participation=min_separation(separation=2, times=2, contribution="vector"))  # warm-up
    print(f"{'strategy':8} {'b,k':>7} {'model':6} {'negative':>9} {'audit s':>8} {'LU s':>7} {'ratio':>6} "
          f"{'bracket':>8}  method")
    for kind in ("dense", "banded"):
        matrix = strategy(kind, steps)
        negative = int(np.count_nonzero(matrix.T @ matrix < 0))
        baseline = lu_seconds(matrix)
        for separation, times in SHAPES:
            for model in MODELS:
                scheme = min_separation(separation=separation, times=times, contribution=model)  # type: ignore[arg-type]
                start = time.process_time()
                verdict = audit_linear_noise(identity, matrix, "gaussian", scale=1, participation=scheme)
                seconds = time.process_time() - start
                found = verdict.pattern_maximum
                assert found is not None
                width = float(found.upper / found.lower - 1)
                print(f"{kind:8} {f'{separation},{times}':>7} {model:6} {negative:9} {seconds:8.2f} {baseline:7.3f} "
                      f"{seconds / baseline:6.0f} {width:8.1e}  {found.method[:90]}")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
