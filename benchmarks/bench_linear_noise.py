"""Benchmark of ``audit linear-noise`` (the command line, .npy inputs) against one float LP of the same problem.

    python benchmarks/bench_linear_noise.py [--horizons 2000 10000] [--noises laplace discrete-laplace]

The mechanism is KARY Algorithm 2 (arity 3) at horizon T, its 0/1 noise matrix B (T × draws) and the prefix
workload W (T × T), both saved as int8 ``.npy`` files in a temporary directory (not timed). Measured per T:

* ``float LP`` (baseline, this process): one HiGHS solve of min ‖u‖₁ subject to B u = W e_1 (sparse [B, −B]);
* ``in-process`` (this process, after a warm-up that imports everything): reading the two files and
  :func:`reference.audit.linear.audit.audit_linear_noise`, CPU seconds, and the ratio to the float LP;
* ``audit`` (a child process, the whole command: start-up, reading, exact audit, certified LP): wall seconds, CPU
  seconds and peak resident memory (``getrusage`` of the child), and the ratio CPU / float LP;
* ``refusal``: the same command on an ``.npy`` whose header claims 50,000 × 50,005 entries (the entries are not
  even on disk): wall seconds to the one-line refusal.

The goals: T = 2,000 ≤ 5 s and T = 10,000 ≤ 60 s on two cores, memory ~ non-zeros, ≤ 20× the float LP; the
refusal < 1 s. The machine's load average is printed before and after (the machine is shared). Nothing is
asserted: this script reports.
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from reference.audit.samples.design_audit import kary_noise_array  # noqa: E402

ARITY = 3


def write_matrices(directory: Path, horizon: int) -> None:
    """B and W as int8 .npy files (run in a child process: building B takes gigabytes at T = 10,000, which would
    otherwise stay in this process's peak memory)."""
    np.save(directory / f"B{horizon}.npy", kary_noise_array(ARITY, horizon, 2).astype(np.int8))
    np.save(directory / f"W{horizon}.npy", np.tril(np.ones((horizon, horizon), dtype=np.int8)))


def _write(directory: Path, horizon: int) -> tuple[Path, Path, np.ndarray]:
    code = (f"import sys; sys.path.insert(0, {str(ROOT / 'benchmarks')!r}); import bench_linear_noise as b; "
            f"from pathlib import Path; b.write_matrices(Path({str(directory)!r}), {horizon})")
    subprocess.run([sys.executable, "-c", code], check=True, env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)})
    b_path, w_path = directory / f"B{horizon}.npy", directory / f"W{horizon}.npy"
    return b_path, w_path, np.load(b_path)


def _float_lp_seconds(noise: np.ndarray, repeats: int = 3) -> float:
    from scipy.optimize import linprog
    from scipy.sparse import csc_matrix, hstack

    positive = csc_matrix(noise.astype(np.float64))
    constraint = hstack([positive, -positive], format="csc")
    target = np.ones(noise.shape[0])  # W e_1: the first input reaches every prefix sum
    cost = np.ones(constraint.shape[1])
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        solved = linprog(cost, A_eq=constraint, b_eq=target, bounds=(0, None), method="highs")
        best = min(best, time.process_time() - start)
        assert solved.status == 0
    return best


def _in_process_seconds(b_path: Path, w_path: Path, kind: str) -> tuple[float, object]:
    from reference.audit.linear.audit import audit_linear_noise, load_matrix_columns

    start = time.process_time()
    verdict = audit_linear_noise(load_matrix_columns(b_path, "noise_matrix"), load_matrix_columns(w_path, "workload"),
                                 kind, scale=1)
    return time.process_time() - start, getattr(verdict, "epsilon", None)


def _run(arguments: list[str]) -> tuple[float, float, int, str]:
    """Wall seconds, CPU seconds, peak RSS (MB, GNU time's %M: getrusage's children maximum would carry this
    process's own peak across the exec) and the output lines of one command-line run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with tempfile.NamedTemporaryFile("r") as report:
        done = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", report.name, sys.executable, "-m", "reference",
                               *arguments], capture_output=True, text=True, cwd=ROOT,
                              env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}, check=False)
        peak_kb = int(report.read().strip().splitlines()[-1])
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, peak_kb // 1024, (done.stdout + done.stderr).strip()


def _pick(output: str, *keys: str) -> str:
    lines = [line for line in output.splitlines() if line.split(":")[0] in keys]
    return "; ".join(lines) if lines else output.splitlines()[-1][:160]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--horizons", type=int, nargs="+", default=[2000, 10000])
    parser.add_argument("--noises", nargs="+", default=["laplace", "discrete-laplace"])
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()}; cores: {os.cpu_count()}")
    with tempfile.TemporaryDirectory() as temporary:
        directory = Path(temporary)
        warm_b, warm_w, _ = _write(directory, 40)
        for kind in args.noises:
            _in_process_seconds(warm_b, warm_w, kind)  # imports scipy, flint, ... outside the timings
        for horizon in args.horizons:
            b_path, w_path, noise = _write(directory, horizon)
            baseline = _float_lp_seconds(noise)
            print(f"T = {horizon}: B {noise.shape[0]}x{noise.shape[1]}, {int(np.count_nonzero(noise))} non-zeros; "
                  f"float LP (one HiGHS solve, CPU) {baseline:.3f} s")
            for kind in args.noises:
                seconds, epsilon = _in_process_seconds(b_path, w_path, kind)
                print(f"  {kind:17s} in-process CPU {seconds:6.2f} s, CPU / float LP = {seconds / baseline:6.1f}x "
                      f"[epsilon {epsilon}]")
                wall, cpu, rss, output = _run(["audit", "linear-noise", "--noise-matrix", str(b_path), "--workload",
                                               str(w_path), "--noise", kind, "--scale", "1", "--epsilon", "1"])
                print(f"  {kind:17s} audit wall {wall:6.2f} s, CPU {cpu:6.2f} s, peak RSS {rss} MB, "
                      f"CPU / float LP = {cpu / baseline:5.1f}x   [{_pick(output, 'epsilon_upper', 'rank')}]")
        huge = directory / "huge.npy"
        with huge.open("wb") as handle:
            np.lib.format.write_array_header_1_0(handle, {"descr": "<i8", "fortran_order": False,
                                                          "shape": (50000, 50005)})
        wall, cpu, _, output = _run(["audit", "linear-noise", "--noise-matrix", str(huge), "--workload", str(huge),
                                     "--noise", "laplace", "--scale", "1"])
        print(f"refusal of a 50000x50005 .npy (header only): wall {wall:.2f} s, CPU {cpu:.2f} s: {output[:200]}")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
