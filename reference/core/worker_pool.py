"""The process pool every command that starts workers uses (the report's ``--jobs``, the sampler-function audit's
``--workers``): its workers stop when the command is interrupted, terminated or killed. Apart from
:mod:`reference.core.processes` (the workers' thread settings, SIGTERM as an exit), so that importing those does not
import ``multiprocessing`` and ``concurrent.futures.process`` (about 15 ms) for a command run in one process.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from types import TracebackType
from typing import Any

#: How often a worker checks that the process that started it is still alive (seconds).
PARENT_POLL_SECONDS = 0.25


def _watch_parent(parent: int) -> None:
    """Kill this worker's process group (itself and whatever it started, such as ``coqc``) once ``parent`` is
    gone: a parent killed by SIGKILL (a CI timeout) runs no clean-up, and its orphans are re-parented to PID 1."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os.killpg(os.getpgrp(), signal.SIGKILL)


def _start_worker(parent: int, initializer: Callable[..., object] | None, initargs: tuple[Any, ...]) -> None:
    # its own process group: the pool can stop the worker and its descendants together, and a SIGINT typed at
    # the terminal reaches the main process only (which then stops the pool), not every worker half-way
    os.setpgrp()
    if os.getppid() != parent:  # orphaned before it even started
        os.killpg(os.getpgrp(), signal.SIGKILL)
    threading.Thread(target=_watch_parent, args=(parent,), name="watch-parent", daemon=True).start()
    if initializer is not None:
        initializer(*initargs)


class WorkerPool(ProcessPoolExecutor):
    """A ``spawn`` process pool whose workers never outlive the command that started them.

    * A worker checks every :data:`PARENT_POLL_SECONDS` that its parent is alive and, if not, kills its own
      process group (the parent was killed by SIGKILL, or by SIGTERM with no handler).
    * Leaving a ``with`` block by an exception (``KeyboardInterrupt`` from SIGINT, ``SystemExit`` from SIGTERM
      under :func:`reference.core.processes.signals_as_exit`, any error) or calling :meth:`release` while one propagates cancels the
      queued tasks and kills the workers' process groups at once, instead of waiting for running tasks.

    Args:
        workers: the number of worker processes, an integer >= 1 (each is started by ``spawn`` and leads its own process
            group).
        initializer: a picklable function each worker calls once at start-up, after its parent watch is set up (None,
            the default: none).
        initargs: the arguments passed to ``initializer`` (default: none).
    """

    def __init__(self, workers: int, *, initializer: Callable[..., object] | None = None,
                 initargs: tuple[Any, ...] = ()) -> None:
        super().__init__(workers, mp_context=multiprocessing.get_context("spawn"), initializer=_start_worker,
                         initargs=(os.getpid(), initializer, initargs))

    def stop(self) -> None:
        """Cancel what is queued and kill every worker with its descendants, without waiting for tasks."""
        processes = list((getattr(self, "_processes", None) or {}).values())
        for process in processes:
            with contextlib.suppress(ProcessLookupError, PermissionError, TypeError):
                os.killpg(process.pid, signal.SIGKILL)  # the worker leads its own group (_start_worker)
            # a worker still starting (importing, before _start_worker made it a group leader) has no group yet:
            # killed by its pid, else it would finish starting and wait for tasks while the interpreter's exit
            # waits for it
            with contextlib.suppress(ProcessLookupError, PermissionError, TypeError, ValueError, AttributeError):
                process.kill()
        self.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.join(5)

    def release(self) -> None:
        """At the end of the work: :meth:`stop` while an exception propagates (called from a ``finally``),
        else an orderly shutdown."""
        if sys.exc_info()[0] is not None:
            self.stop()
        else:
            self.shutdown()

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 trace: TracebackType | None) -> bool | None:
        if kind is not None:
            self.stop()
            return False
        return super().__exit__(kind, value, trace)
