"""A watchdog thread keeping the per-call time limit of a block of many fast calls of a user's function.

:class:`reference.core.user_code.UserFunction` arms ``ITIMER_REAL`` per call by default, which costs a clock read and
a system call per call (about 1 µs on a virtual machine: as much as a fast function itself). For a block of
thousands of such calls (a probe's unit draws) the limit is kept instead by one thread, started once per process
and idle between blocks: each call only notes its start (:attr:`CallWatch.running`); the thread sleeps until the
running call's deadline — ``seconds`` after its start, or ``seconds`` from now when no call runs (a call starting
meanwhile has a later deadline) — and if that same call still runs, marks it (:attr:`CallWatch.doomed`) and sends
``SIGALRM`` to the main thread, again every 50 ms until the call returns to Python. The block's alarm handler stops
the call when it is the one marked. A function that disarms ``ITIMER_REAL`` itself cannot disarm this thread.

The thread sends only while holding the lock that :func:`stop_watch` takes: once it returns, no signal follows for
that block, so the block may give the ``SIGALRM`` handler back.
"""

from __future__ import annotations

import os
import signal
import threading
import time

#: Seconds between repeated signals to a call found overdue that has not yet returned to Python.
RESEND_SECONDS = 0.05


class CallWatch:
    """What a watched block shares with the watchdog: the per-call limit, the running call's start (a float
    object per call, None between calls) and the start of the call found overdue (kept alive by this reference,
    so identity tells the calls apart).

    Args:
        seconds: the time limit of one call, positive.
    """

    __slots__ = ("doomed", "running", "seconds")

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.running: float | None = None
        self.doomed: float | None = None

    def overdue(self) -> bool:
        """True when the running call is the one the watchdog found past its deadline (read by the alarm)."""
        doomed = self.doomed
        return doomed is not None and doomed is self.running


class _Watchdog:
    """The thread and the one block it watches (a process-wide singleton: see :func:`start_watch`)."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.condition = threading.Condition()
        self.watched: CallWatch | None = None
        self.thread = threading.Thread(target=self._run, name="reference-call-watchdog", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        main = threading.main_thread().ident
        wait: float | None = None
        with self.condition:
            while True:
                self.condition.wait(wait)
                watch = self.watched
                if watch is None:
                    wait = None
                    continue
                running = watch.running
                if running is None:
                    wait = watch.seconds
                    continue
                left = running + watch.seconds - time.monotonic()
                if left > 0:
                    wait = left
                    continue
                watch.doomed = running
                if main is not None:
                    signal.pthread_kill(main, signal.SIGALRM)
                wait = min(watch.seconds, RESEND_SECONDS)


_WATCHDOG: list[_Watchdog] = []


def start_watch(seconds: float) -> CallWatch | None:
    """Watch the calls of a block (call from the main thread, with the block's ``SIGALRM`` handler installed);
    None when another block is already watched (the caller then keeps its own per-call timer).

    Args:
        seconds: the time limit of one call, positive.
    """
    if not _WATCHDOG or _WATCHDOG[0].pid != os.getpid():  # first use, or a forked child (the thread is not there)
        _WATCHDOG[:] = [_Watchdog()]
    dog = _WATCHDOG[0]
    with dog.condition:
        if dog.watched is not None:
            return None
        watch = CallWatch(seconds)
        dog.watched = watch
        dog.condition.notify()
    return watch


def stop_watch(watch: CallWatch) -> None:
    """Stop watching a block: when this returns, the watchdog sends no further signal for it.

    Args:
        watch: what :func:`start_watch` returned for the block.
    """
    dog = _WATCHDOG[0]
    with dog.condition:
        if dog.watched is watch:
            dog.watched = None
            dog.condition.notify()
