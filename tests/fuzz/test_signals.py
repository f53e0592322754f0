"""No worker process outlives a command killed by SIGTERM, SIGINT or SIGKILL (to its main process only)."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from tests.fuzz.signals import OFFSETS, SIGNALS, kill_and_count, signal_at, worker_commands

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc (Linux)")


@pytest.mark.parametrize("number", SIGNALS, ids=lambda number: signal.Signals(number).name)
@pytest.mark.parametrize("which", [0, 1], ids=["sampler-function --workers 2", "report --jobs 2"])
def test_no_worker_survives_a_signal_to_the_main_process(tmp_path: Path, which: int, number: int) -> None:
    argv, workers = worker_commands(tmp_path)[which]
    outcome = kill_and_count(argv, number, workers=workers)
    assert outcome.workers_seen >= workers  # the test saw the workers it is about
    assert outcome.survivors == 0, outcome


def test_the_count_sees_a_survivor(tmp_path: Path) -> None:
    """The check is not blind: a command whose child ignores its parent's death is counted as a survivor."""
    import subprocess
    import sys

    from tests.fuzz.signals import alive, descendants

    parent = subprocess.Popen([sys.executable, "-c", "import subprocess, sys, time; "
                               "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']); "
                               "time.sleep(60)"], start_new_session=True)
    try:
        found: set[tuple[int, int]] = set()
        for _ in range(200):
            found = descendants(parent.pid)
            if found:
                break
            import time

            time.sleep(0.05)
        parent.kill()
        parent.wait()
        assert found and all(alive(process) for process in found)
    finally:
        import os

        for process in found:
            if alive(process):
                os.kill(process[0], signal.SIGKILL)


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT], ids=lambda number: signal.Signals(number).name)
@pytest.mark.parametrize("offset", OFFSETS, ids=str)
@pytest.mark.parametrize("which", [0, 1], ids=["sampler-function --workers 2", "report --jobs 2"])
def test_no_process_survives_a_signal_at_any_moment(tmp_path: Path, which: int, offset: float | str,
                                                    number: int) -> None:
    """Before the pool starts (during the interpreter's imports), while its workers are still starting (the
    signal as soon as the first one appears, or as soon as all have) and after: nothing of the command's session
    outlives it, and the main process itself stops."""
    argv, workers = worker_commands(tmp_path)[which]
    outcome = signal_at(argv, number, offset, workers=workers)
    assert outcome.survivors == 0, outcome
    if offset == "first worker":
        assert outcome.workers_seen >= 1  # the signal did arrive during the pool's start-up
    assert outcome.main_exit not in (0, None), outcome  # stopped by the signal, never "holds"
