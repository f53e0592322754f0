"""Run one call in a child process with a time and a memory limit, and classify how it ended.

Children are forked from a forkserver that has already imported the package, so a call costs milliseconds,
not an interpreter start. The child sets ``RLIMIT_AS`` (address space) before the call; the parent kills it
when the time limit passes. Outcomes:

* ``ok`` / ``refused`` — the call ended normally (for the command line: exit 0/1/3, or exit 2 with a message);
* ``traceback`` — an exception the public surface does not promise (for the command line: any uncaught
  exception; for the API: anything but ``ValueError``/``TypeError``);
* ``memory`` — ``MemoryError`` or death by a signal (the memory limit turns a blow-up into one of these);
* ``hang`` — still running at the time limit.
"""

from __future__ import annotations

import io
import multiprocessing
import os
import resource
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

GIB = 1 << 30
OUTPUT_LIMIT = 4_000  # characters of stdout/stderr kept per call


@dataclass(frozen=True)
class Outcome:
    """How one isolated call ended."""

    kind: str  # "ok" | "refused" | "traceback" | "memory" | "hang"
    exit_status: int | None
    stdout: str
    stderr: str
    seconds: float


def _child(target: Callable[..., Any], payload: Any, memory_bytes: int, connection: Connection) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    import contextlib

    out, err = io.StringIO(), io.StringIO()
    kind, status = "ok", None
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            kind, status = target(payload)
    except MemoryError:
        kind = "memory"
    except BaseException:
        kind = "traceback"
        err.write(traceback.format_exc())
    try:
        connection.send((kind, status, out.getvalue()[-OUTPUT_LIMIT:], err.getvalue()[-OUTPUT_LIMIT:]))
    except MemoryError:
        connection.send(("memory", None, "", ""))
    connection.close()


class Isolator:
    """Forks isolated calls of ``target(payload) -> (kind, exit_status)`` from a preloaded forkserver."""

    def __init__(self, preload: list[str], *, seconds: float, memory_bytes: int) -> None:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
        os.environ.setdefault("OMP_NUM_THREADS", "1")
        self.context = multiprocessing.get_context("forkserver")
        self.context.set_forkserver_preload(preload)
        self.seconds = seconds
        self.memory_bytes = memory_bytes

    def run(self, target: Callable[..., Any], payload: Any) -> Outcome:
        receiver, sender = self.context.Pipe(duplex=False)
        process = self.context.Process(target=_child, args=(target, payload, self.memory_bytes, sender), daemon=True)
        start = time.perf_counter()
        process.start()
        sender.close()
        result = None
        if receiver.poll(self.seconds):
            try:
                result = receiver.recv()
            except EOFError:
                result = None
        elapsed = time.perf_counter() - start
        if result is None and process.is_alive() and elapsed >= self.seconds:
            process.kill()
            process.join()
            return Outcome("hang", None, "", "", elapsed)
        process.join(5)
        if process.is_alive():
            process.kill()
            process.join()
        if result is None:  # died without a word: a signal (the memory limit, a crash)
            return Outcome("memory", process.exitcode, "", f"child ended by exit code {process.exitcode}", elapsed)
        kind, status, out, err = result
        return Outcome(kind, status, out, err, elapsed)
