"""The limits of a user's function: the time limit is per call (many fast calls whose total passes the limit run, a slow call
after fast ones is stopped, and an outer alarm is given back after the block); a memory cap for a whole block holds for
every call and is given back."""

from __future__ import annotations

import signal
import threading
import time

import pytest

from reference.core.user_code import CallLimits, UserCodeError, UserFunction


@pytest.mark.parametrize("watchdog", [False, True])
def test_many_fast_calls_pass_and_a_late_slow_call_is_stopped(watchdog: bool) -> None:
    def step(seconds: float) -> float:
        time.sleep(seconds)
        return seconds

    with UserFunction(step, role="function", limits=CallLimits(0.2, None), watchdog=watchdog) as guarded:
        started = time.monotonic()
        for _ in range(12):  # 0.6 s in all, 0.05 s each: three times the per-call limit, never one call over it
            guarded(0.05)
        assert time.monotonic() - started > 0.4
        stopped = time.monotonic()
        with pytest.raises(UserCodeError, match=r"did not return within the time limit of 0\.2 s per call"):
            guarded(5.0)
        # stopped at the limit of this call, not at a deadline left by an earlier one, nor late
        assert 0.15 < time.monotonic() - stopped < 1.5
        guarded(0.01)  # the next call runs with its own deadline


def test_an_outer_alarm_is_suspended_and_given_back() -> None:
    fired: list[int] = []
    previous = signal.signal(signal.SIGALRM, lambda number, frame: fired.append(number))
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.6)
        with UserFunction(lambda: time.sleep(0.05), role="function", limits=CallLimits(0.2, None)) as guarded:
            for _ in range(3):
                guarded()
        assert fired == []  # suspended during the block
        time.sleep(0.8)
        assert fired == [signal.SIGALRM]  # and given back (what was left of it) after
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_a_block_memory_cap_stops_a_greedy_call_and_is_given_back() -> None:
    import numpy as np

    def greedy() -> None:
        np.empty(1 << 33, dtype=np.uint8)  # 8 GiB of address space

    with UserFunction(greedy, role="function", limits=CallLimits(None, 1 << 28),
                      block_memory_bytes=1 << 29) as guarded:
        with pytest.raises(UserCodeError, match=r"ran out of memory of 0\.25 GiB \(call_memory_bytes\)"):
            guarded()
        with pytest.raises(UserCodeError, match="ran out of memory"):  # the cap holds for every call of the block
            guarded()
    np.empty(1 << 30, dtype=np.uint8)  # after the block: no cap (1 GiB of address space, never touched)


def test_a_function_disarming_the_timer_does_not_escape_the_watchdog() -> None:
    def disarming(seconds: float) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)  # a library's own timeout handling, say
        time.sleep(seconds)

    threads = threading.active_count()
    handler = signal.getsignal(signal.SIGALRM)
    with UserFunction(disarming, role="function", limits=CallLimits(0.2, None), watchdog=True) as guarded:
        guarded(0.01)
        started = time.monotonic()
        with pytest.raises(UserCodeError, match=r"did not return within the time limit of 0\.2 s per call"):
            guarded(5.0)
        assert 0.15 < time.monotonic() - started < 1.5
        guarded(0.01)  # the next call runs (and is watched) again
        with pytest.raises(UserCodeError, match="time limit"):
            guarded(5.0)
    # the watchdog stopped with the block, the handler given back
    assert threading.active_count() == threads
    assert signal.getsignal(signal.SIGALRM) is handler


def test_a_watched_block_keeps_the_memory_cap_of_each_call() -> None:
    import numpy as np

    def greedy() -> None:
        np.empty(1 << 33, dtype=np.uint8)  # 8 GiB of address space

    for block in (None, 1 << 29):  # a cap per call, or one for the block
        with UserFunction(greedy, role="function", limits=CallLimits(30.0, 1 << 28), block_memory_bytes=block,
                          watchdog=True) as guarded:
            for _ in range(2):
                with pytest.raises(UserCodeError, match=r"ran out of memory of 0\.25 GiB \(call_memory_bytes\)"):
                    guarded()


def test_the_one_argument_call_keeps_every_limit_and_refusal() -> None:
    import numpy as np

    def step(seconds: float) -> float:
        if seconds < 0:
            raise RuntimeError("negative")
        if seconds > 100:
            np.empty(1 << 33, dtype=np.uint8)  # 8 GiB of address space
        time.sleep(seconds)
        return seconds

    with UserFunction(step, role="function", limits=CallLimits(0.2, 1 << 28), block_memory_bytes=1 << 29,
                      watchdog=True) as guarded:
        call = guarded.one_argument()
        assert call is not guarded  # the fast closure of a watched block with a block cap
        assert [call(0.01) for _ in range(3)] == [0.01] * 3
        with pytest.raises(UserCodeError, match=r"^function .*step raised RuntimeError: negative$"):
            call(-1.0)
        with pytest.raises(UserCodeError, match=r"ran out of memory of 0\.25 GiB"):
            call(1000.0)
        started = time.monotonic()
        with pytest.raises(UserCodeError, match=r"did not return within the time limit of 0\.2 s per call"):
            call(5.0)
        assert 0.15 < time.monotonic() - started < 1.5
    with UserFunction(step, role="function", limits=CallLimits(0.2, 1 << 28)) as guarded:
        assert guarded.one_argument() is guarded  # per-call limits: the object itself
