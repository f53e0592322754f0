"""Worker processes that share the machine's cores instead of oversubscribing them.

numpy's BLAS (OpenBLAS here) starts one thread per core in every process; ``N`` worker processes on ``N`` cores
then run ``N²`` threads, and a matrix product waits on threads that have no core (measured: a 108 × 100 Gram
matrix fifteen times slower on two busy cores than with one thread). :func:`worker_environment` sets the usual
thread-count variables to 1 — unless the user has set them — while worker processes are being started; a spawned
process reads them when it imports numpy. The parent process keeps its own setting.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

#: The variables numpy's BLAS and OpenMP runtimes read at start-up.
THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


@contextmanager
def worker_environment() -> Iterator[None]:
    """Within the block, processes started get one BLAS / OpenMP thread each (module docstring)."""
    saved = {name: os.environ.get(name) for name in THREAD_VARIABLES}
    for name in THREAD_VARIABLES:
        os.environ.setdefault(name, "1")
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
