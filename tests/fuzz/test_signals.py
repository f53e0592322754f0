"""No worker process outlives a command killed by SIGTERM, SIGINT or SIGKILL (to its main process only)."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from tests.fuzz.signals import SIGNALS, kill_and_count, worker_commands

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
