"""Calling a user's function: whatever it does, it cannot speak for the audit.

An audit, probe or testing helper that calls code it was given (a sampler target, a height function, a σ
calibrator, a noise function) calls it through :func:`call_user`. Whatever escapes the call — any exception, and
also ``SystemExit`` (``sys.exit(0)`` inside the function would otherwise end the command with status 0, read by
any CI as "holds") and a ``KeyboardInterrupt`` raised by the function itself — becomes one
:class:`UserCodeError` (a ``ValueError``: the command line's bad-input exit 2) whose message names the function
and what it raised. A real signal (SIGINT typed at the terminal, SIGTERM from a CI timeout) is told apart from a
function raising the same exception: a handler notes that the signal arrived, and the signal then propagates as
before (the command stops, its workers with it).

**Limits** (:class:`CallLimits`). In the main thread of a POSIX process each call gets

* a time limit, :data:`DEFAULT_SECONDS` per call unless changed (``ITIMER_REAL``: a function sleeping or looping
  in Python is stopped when the limit passes; a single long call into C code is stopped when it returns to
  Python), and
* a memory limit, :data:`DEFAULT_MEMORY_BYTES` of address space beyond what the process holds when the call
  starts (``RLIMIT_AS``, restored after the call): an allocation beyond it raises ``MemoryError`` inside the
  function, reported as one line.

A caller making thousands of calls of a fast function may ask for a watchdog thread to keep the time limit
instead of a timer armed per call (``UserFunction(..., watchdog=True)``; :mod:`reference.core.call_watchdog`) and for
one memory cap for the whole block (``block_memory_bytes``, sized by the caller to still leave each call at least
its limit).

Elsewhere (another thread, a platform without ``setitimer``/``RLIMIT_AS``) the call runs without them; the
exceptions are still caught. ``None`` for either limit turns it off.
"""

from __future__ import annotations

import importlib
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from reference.core.call_watchdog import CallWatch, start_watch, stop_watch

#: Seconds one call of a user's function may take (the testing helpers' and probes' default).
DEFAULT_SECONDS = 60.0
#: Bytes of address space one call may add to the process (the testing helpers' and probes' default): 4 GiB.
DEFAULT_MEMORY_BYTES = 4 << 30
#: The largest time limit accepted (a day): ``setitimer`` takes a float, and a week-long call is a hang.
MAX_SECONDS = 86_400.0


class UserCodeError(ValueError):
    """A user's function raised, exited, ran past its time limit or its memory limit: one line naming it."""


@dataclass(frozen=True)
class CallLimits:
    """Per-call limits for a user's function (module docstring); ``None`` turns a limit off."""

    seconds: float | None = DEFAULT_SECONDS
    memory_bytes: int | None = DEFAULT_MEMORY_BYTES


#: No limit at all: for targets that legitimately run long (a sampler drawing millions of values per call).
UNLIMITED = CallLimits(None, None)


def check_limits(seconds: object = DEFAULT_SECONDS, memory_bytes: object = DEFAULT_MEMORY_BYTES, *,
                 seconds_name: str = "seconds", memory_name: str = "memory_bytes") -> CallLimits:
    """The limits a caller asked for, validated (``ValueError`` naming the parameter).

    Args:
        seconds: anything the caller passed as the time limit of one call: accepted when it is an int or float in (0,
            86,400] seconds, or None (no limit); default DEFAULT_SECONDS = 60.
        memory_bytes: anything the caller passed as the memory one call may add: accepted when it is an integer number
            of bytes >= 2**20, or None (no limit); default DEFAULT_MEMORY_BYTES = 4 GiB.
        seconds_name: the public name of the time limit, as a refusal names it (default ``"seconds"``;
            ``"call_seconds"`` in the testing helpers).
        memory_name: the public name of the memory limit, as a refusal names it (default ``"memory_bytes"``).
    """
    if seconds is not None:
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds) \
                or not 0 < seconds <= MAX_SECONDS:
            raise ValueError(f"{seconds_name} must be a number of seconds in (0, {MAX_SECONDS:g}] or None, "
                             f"got {seconds!r}")
        seconds = float(seconds)
    if memory_bytes is not None and (isinstance(memory_bytes, bool) or not isinstance(memory_bytes, int)
                                     or memory_bytes < 1 << 20):
        raise ValueError(f"{memory_name} must be an integer number of bytes >= 2**20 or None, got {memory_bytes!r}")
    return CallLimits(seconds, memory_bytes)


def load_function(spec: object, name: str) -> Callable[..., Any]:
    """The function named ``package.module:function`` (``ValueError`` naming the option or parameter ``name``
    when it is not of that form, cannot be imported or is not callable).

    A module in the working folder is found as ``python -m`` finds it, also from the ``reference`` console script
    (whose ``sys.path`` does not hold the folder); spawned workers inherit the path.

    Args:
        spec: anything the caller was given: accepted when it is a string ``package.module:function`` naming an
            importable callable (the module is searched in the working folder too).
        name: the option or parameter the spec came from (``"--target"``, ``"target"``), named in every refusal.
    """
    if not isinstance(spec, str) or spec.count(":") != 1 or not all(spec.split(":")):
        raise ValueError(f"{name} must be 'package.module:function', got {spec!r}")
    module_name, attribute = spec.split(":")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.append(os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise ValueError(f"{name}: module {module_name!r} cannot be imported: {error}") from None
    function: Callable[..., Any] | None = getattr(module, attribute, None)
    if not callable(function):
        raise ValueError(f"{name}: {attribute!r} is not a function of module {module_name!r}")
    return function


def function_name(function: Callable[..., Any]) -> str:
    """``module.qualified_name`` of a function (its ``repr`` cut short for other callables).

    Args:
        function: the user's function or other callable (a ``functools.partial``, an object with ``__call__``).
    """
    module = getattr(function, "__module__", None)
    name = getattr(function, "__qualname__", None) or getattr(function, "__name__", None)
    if isinstance(name, str):
        return f"{module}.{name}" if isinstance(module, str) and module not in ("builtins", "__main__") else name
    text = repr(function)
    return text if len(text) <= 60 else text[:57] + "..."


def _first_line(error: BaseException) -> str:
    try:
        text = str(error)
    except Exception:  # a user's exception whose __str__ fails: its type is enough
        text = ""
    line = text.splitlines()[0] if text.strip() else ""
    if len(line) > 200:
        line = line[:197] + "..."
    return f"{type(error).__name__}: {line}" if line else type(error).__name__


class _TimeLimitReached(BaseException):
    """Raised by the alarm inside the user's function (a BaseException: ``except Exception`` there does not
    swallow it)."""


def _forward(number: int, previous: Any, frame: Any) -> None:
    """What the handler in place before the calls would have done with the signal."""
    if callable(previous):
        previous(number, frame)
    elif previous == signal.SIG_IGN:
        return
    elif number == signal.SIGINT:
        raise KeyboardInterrupt
    else:  # the default action (terminate): re-deliver with the default handler
        signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), number)


def _expired(number: int, frame: Any) -> None:
    raise _TimeLimitReached


class UserFunction:
    """A user's function made safe to call many times (module docstring): use as a context manager, which
    installs the signal bookkeeping, the alarm handler and the memory limit once for all the calls, and call
    the object itself as the function. Outside a ``with`` block (or off the main thread) the calls still turn
    whatever escapes into :class:`UserCodeError`, without the limits.

    Args:
        function: the user's function, called with whatever arguments the object is called with.
        role: what the function is to the caller, named first in every refusal (``"target"``, ``"calibrator"``,
            ``"height function"``).
        limits: the per-call :class:`CallLimits` (seconds and bytes of added address space; None in either turns it
            off); applied only inside a ``with`` block on the main thread (default: 60 s and 4 GiB).
        block_memory_bytes: None (default): the memory cap is set per call, at what the process holds when the
            call starts plus ``limits.memory_bytes``. A number of bytes: the cap is set once for the whole ``with``
            block, at what the process holds when the block starts plus this many bytes (three system calls fewer
            per call, for a caller making thousands of calls of a fast function whose own memory between the calls
            is bounded: it sizes this as that bound plus ``limits.memory_bytes``). Ignored when
            ``limits.memory_bytes`` is None.
        watchdog: False (default): each call arms its own deadline on ``ITIMER_REAL`` (a clock read and a
            system call per call). True: the time limit is kept by a watchdog thread
            (:mod:`reference.core.call_watchdog`, started once per process), which sleeps until the running call's
            deadline and then stops it with ``SIGALRM`` (the same one-line refusal, at the same deadline); each call
            only notes its start. For a caller making thousands of calls of a fast function; a function that
            disarms ``ITIMER_REAL`` itself cannot disarm the watchdog. A block inside another watched block keeps
            the per-call timer. Ignored when ``limits.seconds`` is None.
    """

    def __init__(self, function: Callable[..., Any], *, role: str, limits: CallLimits = CallLimits(),
                 block_memory_bytes: int | None = None, watchdog: bool = False) -> None:
        self.function = function
        self.role = role
        self.limits = limits
        self.block_memory_bytes = None if limits.memory_bytes is None else block_memory_bytes
        self.watchdog = watchdog and limits.seconds is not None
        self._watch: CallWatch | None = None  # set for a watched block (reference.core.call_watchdog)
        self._restore_block: Callable[[], None] | None = None
        self._signalled = False
        self._active = False
        self._saved: dict[int, Any] = {}
        self._previous_timer = (0.0, 0.0)
        self._deadline: float | None = None
        # set by __enter__ for the calls of the block (read once per call instead of recomputed): the alarm is
        # installed, a limit applies per call, the seconds of the limit
        self._timed = False
        self._per_call = False
        self._noted_only = False
        self._seconds = 0.0

    def __enter__(self) -> UserFunction:
        if threading.current_thread() is not threading.main_thread() or self._active:
            return self

        def noted(number: int, frame: Any) -> None:
            self._signalled = True
            _forward(number, self._saved[number], frame)

        for number in (signal.SIGINT, signal.SIGTERM):
            self._saved[number] = signal.signal(number, noted)
        if self.limits.seconds is not None and hasattr(signal, "setitimer"):
            self._saved[signal.SIGALRM] = signal.signal(signal.SIGALRM, self._alarm)
            # an outer alarm (a caller's own limit) is suspended while the calls run, and given back after
            self._previous_timer = signal.setitimer(signal.ITIMER_REAL, 0)
            self._started = time.monotonic()
        self._seconds = float(self.limits.seconds or 0)
        if self.watchdog and signal.SIGALRM in self._saved and hasattr(signal, "pthread_kill"):
            # before the memory cap: the thread (started once per process) holds its stack
            self._watch = start_watch(self._seconds)
        watched = self._watch is not None
        if self.block_memory_bytes is not None:
            self._restore_block = _limit_memory(self.block_memory_bytes)
        self._active = True
        self._timed = signal.SIGALRM in self._saved and not watched
        self._per_call = self._timed or self.limits.memory_bytes is not None
        # nothing to set per call but the start: the watchdog keeps the time, the block's cap (or none) the memory
        self._noted_only = watched and (self.block_memory_bytes is not None or self.limits.memory_bytes is None)
        return self

    def _alarm(self, number: int, frame: Any) -> None:
        """The alarm: past the running call's deadline, stop it; before it (a timer left armed by an earlier
        call), wait for the rest; between calls, nothing (the next call arms the timer again). From the watchdog:
        stop the running call if it is the one found overdue."""
        if self._watch is not None:
            if self._watch.overdue():
                raise _TimeLimitReached
            return
        deadline = self._deadline
        if deadline is None:
            return
        left = deadline - time.monotonic()
        if left <= 0:
            raise _TimeLimitReached
        signal.setitimer(signal.ITIMER_REAL, left)

    def __exit__(self, *exc: object) -> None:
        if not self._active:
            return
        self._active = False
        self._timed = self._per_call = self._noted_only = False
        if self._watch is not None:  # stopped before the handlers are given back: no signal after them
            stop_watch(self._watch)
            self._watch = None
        if self._restore_block is not None:
            self._restore_block()
            self._restore_block = None
        if signal.SIGALRM in self._saved:
            signal.setitimer(signal.ITIMER_REAL, 0)
        for number, handler in self._saved.items():
            signal.signal(number, handler)
        self._saved = {}
        if self._previous_timer[0] > 0:
            left = self._previous_timer[0] - (time.monotonic() - self._started)
            signal.setitimer(signal.ITIMER_REAL, max(left, 1e-3), self._previous_timer[1])

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            if self._noted_only:  # the common case of a watched block (set by __enter__)
                watch = self._watch
                watch.running = time.monotonic()  # type: ignore[union-attr]
                try:
                    return self.function(*args, **kwargs)
                finally:
                    watch.running = None  # type: ignore[union-attr]
            if self._per_call:  # inside the block, with a limit (set by __enter__)
                # the memory cap is set per call (not for the block, unless the caller asked for a block cap): the
                # caller's own work between calls is not charged to the user's function
                restore = (_unlimited if self._restore_block is not None
                           else _limit_memory(self.limits.memory_bytes))
                if self._timed:
                    # a deadline per call; the timer is armed only when it is not (a timer left by an earlier call
                    # fires before this deadline, and the alarm waits for the rest): two system calls fewer per call
                    seconds = self._seconds
                    self._deadline = time.monotonic() + seconds
                    if signal.getitimer(signal.ITIMER_REAL)[0] == 0:
                        signal.setitimer(signal.ITIMER_REAL, seconds)
                elif self._watch is not None:  # watched, with a memory cap per call
                    self._watch.running = time.monotonic()
                try:
                    return self.function(*args, **kwargs)
                finally:
                    self._deadline = None
                    if self._watch is not None:
                        self._watch.running = None
                    restore()
            return self.function(*args, **kwargs)
        except BaseException as error:
            refusal = self._refusal(error)
            if refusal is None:
                raise
            raise refusal from None

    def _refusal(self, error: BaseException) -> UserCodeError | None:
        """The one line for what escaped a call, or None when it goes on as it is (a real SIGINT / SIGTERM: the
        command stops as it would anyway; a nested call's refusal: already one line naming its function)."""
        if isinstance(error, _TimeLimitReached):
            return UserCodeError(f"{self.role} {function_name(self.function)} did not return within the time limit "
                                 f"of {self.limits.seconds:g} s per call (call_seconds)")
        if isinstance(error, MemoryError):
            limit = "" if self.limits.memory_bytes is None else \
                f" of {self.limits.memory_bytes / (1 << 30):.3g} GiB (call_memory_bytes)"
            return UserCodeError(f"{self.role} {function_name(self.function)} ran out of memory{limit}")
        if self._signalled and isinstance(error, (KeyboardInterrupt, SystemExit)):
            return None
        if isinstance(error, UserCodeError):
            return None
        return UserCodeError(f"{self.role} {function_name(self.function)} raised {_first_line(error)}")

    def one_argument(self) -> Callable[[Any], Any]:
        """The guarded function for calls with one positional argument, valid inside this ``with`` block: in a
        watched block with one memory cap for the block (or none), a closure that only notes each call's start
        (a third of the cost of calling the object, for a caller's loop of thousands of calls); otherwise the
        object itself. The same limits, the same refusals."""
        if not self._noted_only or self._watch is None:
            return self
        function, watch, clock, refusal_of = self.function, self._watch, time.monotonic, self._refusal

        def call(argument: Any) -> Any:
            try:
                watch.running = clock()
                try:
                    return function(argument)
                finally:
                    watch.running = None
            except BaseException as error:
                refusal = refusal_of(error)
                if refusal is None:
                    raise
                raise refusal from None

        return call


#: (process id, descriptor, page size) of /proc/self/statm, kept open: re-reading it with ``pread`` costs a tenth of opening
#: it per call (a probe calls a fast function thousands of times). A forked child opens its own.
_STATM: list[tuple[int, int, int]] = []


def _address_space() -> int:
    """The address space the process holds now, in bytes (Linux: the first field of /proc/self/statm)."""
    pid = os.getpid()
    if not _STATM or _STATM[0][0] != pid:
        _STATM[:] = [(pid, os.open("/proc/self/statm", os.O_RDONLY), os.sysconf("SC_PAGE_SIZE"))]
    _, descriptor, page = _STATM[0]
    return int(os.pread(descriptor, 256, 0).split()[0]) * page


def _unlimited() -> None:
    """Nothing to restore."""


def _limit_memory(memory_bytes: int | None) -> Callable[[], None]:
    """Cap the address space at what the process holds now plus ``memory_bytes``; return the undo."""
    if memory_bytes is None:
        return lambda: None
    try:
        import resource

        held = _address_space()
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    except (ImportError, OSError, ValueError, AttributeError):  # not Linux: no memory limit (module docstring)
        return lambda: None
    wanted = held + memory_bytes
    if hard != resource.RLIM_INFINITY:
        wanted = min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft <= wanted:
        return lambda: None  # already limited at least as tightly
    try:
        resource.setrlimit(resource.RLIMIT_AS, (wanted, hard))
    except (ValueError, OSError):
        return lambda: None

    def restore() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))

    return restore


def call_user(function: Callable[..., Any], /, *args: Any, role: str, limits: CallLimits = CallLimits(),
              **kwargs: Any) -> Any:
    """One call of ``function(*args, **kwargs)`` under :class:`UserFunction`: anything it raises
    (``SystemExit`` and ``KeyboardInterrupt`` included, a real signal excepted), a time or memory limit reached,
    becomes one :class:`UserCodeError` naming ``role`` (e.g. "target") and the function.

    Args:
        function: the user's function, called once as ``function(*args, **kwargs)``.
        role: what the function is to the caller, named first in every refusal (``"target"``, ``"calibrator"``,
            ``"height function"``).
        limits: the per-call :class:`CallLimits` (seconds and bytes of added address space; None in either turns it
            off); default: 60 s and 4 GiB.
    """
    with UserFunction(function, role=role, limits=limits) as guarded:
        return guarded(*args, **kwargs)


# ------------------------------------------------------------------------- a user's values, checked at the boundary


def _bad_value_text(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def user_real(function: Callable[..., Any], *args: Any, role: str, limits: CallLimits = UNLIMITED) -> float:
    """``function(*args)`` as one finite real number (int or float; a numpy scalar or 0-d array too): anything
    else — an array, NaN, ±inf, a complex, a string — is one :class:`UserCodeError` naming the function, its
    arguments and what it returned.

    Args:
        function: the user's function, called once as ``function(*args)``.
        role: what the function is to the caller, named first in every refusal (``"target"``, ``"calibrator"``,
            ``"height function"``).
        limits: the per-call :class:`CallLimits` (seconds and bytes of added address space; None in either turns it
            off); default :data:`UNLIMITED`, no limit.
    """
    value = call_user(function, *args, role=role, limits=limits)
    return checked_real(value, function, args, role)


def checked_real(value: object, function: Callable[..., Any], args: tuple[Any, ...], role: str) -> float:
    """A value a user's function returned, as one finite real number (:func:`user_real`).

    Args:
        value: anything the user's function returned: accepted when it is a real number (int, float, a numpy scalar or
            0-d array; not a bool) and finite.
        function: the function that returned ``value``, named in the refusal.
        args: the positional arguments it was called with, shown in the refusal.
        role: what the function is to the caller, named first in every refusal (``"target"``, ``"calibrator"``,
            ``"height function"``).
    """
    import numbers

    import numpy as np

    if isinstance(value, np.ndarray) and value.shape == ():
        value = value[()]
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise UserCodeError(f"{role} {function_name(function)} must return a real number, got "
                            f"{_bad_value_text(value)} for {_bad_value_text(args)[1:-1].rstrip(',')}")
    if isinstance(value, numbers.Integral):
        return int(value)  # an integer noise value stays an integer (exact and discrete counters)
    number = float(value)
    if not math.isfinite(number):
        raise UserCodeError(f"{role} {function_name(function)} returned {number!r} for "
                            f"{_bad_value_text(args)[1:-1].rstrip(',')}: a noise value must be finite")
    return number


def user_array(function: Callable[..., Any], argument: Any, *, role: str, shape: tuple[int, ...],
               limits: CallLimits = UNLIMITED) -> Any:
    """``function(argument)`` as a float64 array of exactly ``shape`` with finite entries: a wrong shape, a
    non-real dtype or the first NaN / ±inf is one :class:`UserCodeError` naming the function (and the index).

    Args:
        function: the user's function, called once as ``function(argument)``.
        argument: its one argument (passed as it is).
        role: what the function is to the caller, named first in every refusal (``"target"``, ``"calibrator"``,
            ``"height function"``).
        shape: the exact shape the returned array must have, such as ``(draws,)``.
        limits: the per-call :class:`CallLimits` (seconds and bytes of added address space; None in either turns it
            off); default :data:`UNLIMITED`, no limit.
    """
    import numpy as np

    returned = call_user(function, argument, role=role, limits=limits)
    name = function_name(function)
    try:
        values = np.asarray(returned)
    except (ValueError, TypeError, OverflowError):
        raise UserCodeError(f"{role} {name} must return an array of real numbers of shape {shape}, got a "
                            f"{type(returned).__name__} numpy cannot read as one") from None
    if values.dtype.kind not in "iuf":
        raise UserCodeError(f"{role} {name} must return real numbers, got dtype {values.dtype}")
    if values.shape != shape:
        raise UserCodeError(f"{role} {name} must return an array of shape {shape} (one value per index), got "
                            f"shape {values.shape}")
    values = values.astype(np.float64)
    finite = np.isfinite(values)
    if not finite.all():
        first = int(np.flatnonzero(~finite.reshape(-1))[0])
        raise UserCodeError(f"{role} {name} returned {float(values.reshape(-1)[first])!r} at position {first}: noise "
                            "values must be finite")
    return values
