"""Benchmark of the streamed cascade sample audit: time and peak memory against one block of runs, same process.

    python benchmarks/bench_sampler_audit.py [--quick] [--depth D] [--runs N]

Writes ``runs`` Cascade Sampling draws of depth ``depth`` (default 20 and 1,000 runs: 8 GiB of float64 in a
temporary ``.npy``, written run by run through a memory map) and audits them with
:func:`reference.audit.samples.cascade_stream.audit_cascade_stream`. Reported: the seconds to sample and to audit, the
audit's time per run against the sampler's (a ratio in one run), and the audit's peak traced memory (tracemalloc)
against one block of runs (``block_runs × 2**depth × 8`` bytes). ``--quick``: depth 14, 256 runs. Nothing is
asserted: this script reports.
"""

from __future__ import annotations

import argparse
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np

from reference.audit.samples.cascade_stream import DEFAULT_BLOCK_RUNS, audit_cascade_stream
from reference.cip.numeric.cascade import cascade_leaves


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="depth 14, 256 runs")
    parser.add_argument("--depth", type=int, default=20)
    parser.add_argument("--runs", type=int, default=1000)
    args = parser.parse_args(argv)
    depth, runs = (14, 256) if args.quick else (args.depth, args.runs)
    import scipy.stats  # noqa: F401  (imported before measuring memory: the import is not the audit's)

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "leaves.npy"
        start = time.perf_counter()
        rng = np.random.default_rng(20261124)
        out = np.lib.format.open_memmap(path, mode="w+", dtype=np.float64, shape=(runs, 1 << depth))
        for run in range(runs):
            out[run] = cascade_leaves(depth, 1.0, rng)
        out.flush()
        del out
        sampling = time.perf_counter() - start
        tracemalloc.start()
        start = time.perf_counter()
        report = audit_cascade_stream(path, depth, sigma=1.0, alpha=1e-6)
        auditing = time.perf_counter() - start
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    block = DEFAULT_BLOCK_RUNS * (1 << depth) * 8
    print(f"depth {depth}, runs {runs}: verdict {'holds' if report.holds else 'fails'}")
    print(f"sampling {sampling:.1f} s, audit {auditing:.1f} s, audit / sampling {auditing / sampling:.2f}")
    print(f"audit peak traced memory {peak / 2**20:.1f} MiB = {peak / block:.2f} x one block ({block / 2**20:.0f} MiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
