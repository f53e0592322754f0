"""Worker processes that share the machine's cores instead of oversubscribing them.

numpy's BLAS (OpenBLAS here) starts one thread per core in every process; ``N`` worker processes on ``N`` cores
then run ``N²`` threads, and a matrix product waits on threads that have no core (measured: a 108 × 100 Gram
matrix fifteen times slower on two busy cores than with one thread). :func:`worker_environment` sets the usual
thread-count variables to 1 — unless the user has set them — while worker processes are being started; a spawned
process reads them when it imports numpy. The parent process keeps its own setting.

:func:`signals_as_exit` turns SIGTERM into ``SystemExit`` so that the clean-up of a
:class:`reference.core.worker_pool.WorkerPool` (the pool every command that starts workers uses) runs; the pool
has its own module, so that a command that starts no worker does not import ``multiprocessing``.
"""

from __future__ import annotations

import os
import signal
import threading
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


@contextmanager
def signals_as_exit() -> Iterator[None]:
    """Within the block (main thread only), SIGTERM raises ``SystemExit(143)`` so that the clean-up of a
    :class:`~reference.core.worker_pool.WorkerPool` runs; SIGINT already raises ``KeyboardInterrupt``. Elsewhere it does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminate(number: int, frame: object) -> None:
        raise SystemExit(128 + number)

    saved = signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, saved)
