"""Signal tests: kill a command that starts worker processes and count the processes that outlive it.

The command runs in its own session (so the test can clean up whatever survives); once it has started its
workers, the signal goes to the *main process only* — as a CI timeout's SIGTERM/SIGKILL or ``kill -INT`` does,
not to the whole group as a terminal's Ctrl-C would. Descendants are read from ``/proc`` (pid, parent, start
time, so a reused pid is not mistaken for a survivor) while the main process lives; after the signal, each one
still running (not a zombie) once the grace period is over is a survivor. The grace period is a liveness bound,
not a performance claim: a clean shutdown takes well under a second.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

#: Seconds allowed for the workers to stop after the signal (they poll their parent every 0.25 s).
GRACE_SECONDS = 30.0
#: Seconds allowed for a command to start its workers.
START_SECONDS = 120.0
ROOT = Path(__file__).resolve().parents[2]


def _stat(pid: int) -> tuple[int, str, int] | None:
    """(parent pid, state, start time in clock ticks) of ``pid``, or None if it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()  # after "pid (command) ": state, ppid, ...; starttime is 22nd
    return int(fields[1]), fields[0], int(fields[19])


def descendants(root: int) -> set[tuple[int, int]]:
    """(pid, start time) of every live descendant of ``root``."""
    children: dict[int, list[tuple[int, int]]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            found = _stat(int(entry))
            if found is not None and found[1] != "Z":
                children.setdefault(found[0], []).append((int(entry), found[2]))
    result: set[tuple[int, int]] = set()
    frontier = [root]
    while frontier:
        for child in children.get(frontier.pop(), []):
            if child not in result:
                result.add(child)
                frontier.append(child[0])
    return result


def alive(process: tuple[int, int]) -> bool:
    found = _stat(process[0])
    return found is not None and found[2] == process[1] and found[1] != "Z"


@dataclass(frozen=True)
class SignalOutcome:
    """What a signal to a command's main process left behind."""

    command: str
    signal_name: str
    workers_seen: int
    survivors: int
    main_exit: int | None


def kill_and_count(argv: list[str], number: int, *, workers: int, settle: float = 3.0) -> SignalOutcome:
    """Start ``python -m reference argv``, wait until it has ``workers`` worker processes (plus ``settle``
    seconds of work), send signal ``number`` to the main process and count the descendants still alive after
    the grace period (then kill them, so that the test leaves nothing behind)."""
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}
    main = subprocess.Popen([sys.executable, "-m", "reference", *argv], cwd=ROOT, env=environment,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                            preexec_fn=_default_interrupt)
    seen: set[tuple[int, int]] = set()
    try:
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline and main.poll() is None:
            seen |= descendants(main.pid)
            if sum(1 for pid, _ in seen if b"spawn_main" in _cmdline(pid)) >= workers:
                break
            time.sleep(0.2)
        time.sleep(settle)
        seen |= descendants(main.pid)
        if main.poll() is not None:
            raise RuntimeError(f"the command ended (exit {main.returncode}) before it could be signalled")
        os.kill(main.pid, number)
        try:
            main.wait(GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            main.kill()  # a main process that ignores the signal is a failure of its own, counted below
            main.wait()
            seen.add((main.pid, -1))
        deadline = time.monotonic() + GRACE_SECONDS
        while time.monotonic() < deadline and any(alive(process) for process in seen):
            time.sleep(0.2)
        survivors = [process for process in seen if alive(process)] + [p for p in seen if p[1] == -1]
        return SignalOutcome(" ".join(argv), signal.Signals(number).name, len(seen), len(survivors),
                             main.returncode)
    finally:
        for process in seen:
            if alive(process):  # the same process (pid and start time), never a pid reused since
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(process[0], signal.SIGKILL)
        if main.poll() is None:
            main.kill()
            main.wait()


def _default_interrupt() -> None:
    """In the child before ``exec``: SIGINT back to its default disposition. A harness started in the
    background by a shell without job control (``cmd &`` in a script) ignores SIGINT, and an ignored signal is
    inherited: the command would then rightly ignore the SIGINT under test and count as its own survivor."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


#: The commands that start worker processes, with the number of workers each starts.
def worker_commands(folder: Path) -> list[tuple[list[str], int]]:
    return [
        (["audit", "sampler-function", "--target", "examples.batched_samplers:cascade_depth_6", "--mechanism",
          "cascade", "--depth", "6", "--sigma", "1", "--runs", "20000000", "--seed", "1", "--workers", "2",
          "--max-seconds", "86400"], 2),
        (["report", "--quick", "--jobs", "2", "--out", str(folder / "report")], 2),
    ]


SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGKILL)


def run_signal_campaign(folder: Path, progress: bool = False) -> list[SignalOutcome]:
    """Every worker-starting command × SIGTERM, SIGINT, SIGKILL."""
    outcomes = []
    for argv, workers in worker_commands(folder):
        for number in SIGNALS:
            outcome = kill_and_count(argv, number, workers=workers)
            outcomes.append(outcome)
            if progress:
                print(f"  {outcome.signal_name} to `reference {outcome.command[:60]}...`: "
                      f"{outcome.workers_seen} descendants, {outcome.survivors} survived", flush=True)
    return outcomes


# ------------------------------------------------------------------------- signals at any moment of the start-up


def session_members(session: int) -> set[tuple[int, int]]:
    """(pid, start time) of every live process of ``session``: the command runs in a session of its own, and its
    workers (each in a process group of its own) stay in it even once orphaned and re-parented, so a worker
    started after the signal — or whose parent died before it was seen — is still found."""
    members: set[tuple[int, int]] = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            text = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2:].split()  # state, ppid, pgrp, session, ...; starttime is the 20th
        if int(fields[3]) == session and fields[0] != "Z":
            members.add((int(entry), int(fields[19])))
    return members


#: When the signal is sent: seconds after the command starts (before and during the interpreter's imports), when
#: the first worker process appears (the pool's start-up, its workers still importing), and after start-up.
OFFSETS: tuple[float | str, ...] = (0.05, 0.5, 1.5, "first worker", "all workers")


def signal_at(argv: list[str], number: int, offset: float | str, *, workers: int) -> SignalOutcome:
    """Start ``python -m reference argv`` in a session of its own, send ``number`` to its main process at
    ``offset`` (:data:`OFFSETS`) and count the session's processes still alive after the grace period (then kill
    them). ``workers_seen`` is how many worker processes had appeared when the signal was sent."""
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}
    started = time.monotonic()
    main = subprocess.Popen([sys.executable, "-m", "reference", *argv], cwd=ROOT, env=environment,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                            preexec_fn=_default_interrupt)
    seen: set[tuple[int, int]] = set()
    try:
        wanted = 1 if offset == "first worker" else workers if offset == "all workers" else None
        deadline = started + (START_SECONDS if wanted else float(offset))
        while time.monotonic() < deadline and main.poll() is None:
            seen |= session_members(main.pid)
            if wanted and sum(1 for pid, _ in seen if b"spawn_main" in _cmdline(pid)) >= wanted:
                break
            time.sleep(0.01)
        if main.poll() is not None:
            raise RuntimeError(f"the command ended (exit {main.returncode}) before it could be signalled")
        spawned = sum(1 for pid, _ in seen if b"spawn_main" in _cmdline(pid))
        os.kill(main.pid, number)
        stop = time.monotonic() + GRACE_SECONDS
        while time.monotonic() < stop and main.poll() is None:
            seen |= session_members(main.pid)
            time.sleep(0.05)
        if main.poll() is None:  # a main process that does not stop is a survivor of its own
            main.kill()
            main.wait()
            seen.add((main.pid, -1))
        seen |= session_members(main.pid)
        stop = time.monotonic() + GRACE_SECONDS
        while time.monotonic() < stop and session_members(main.pid):
            time.sleep(0.2)
        survivors = session_members(main.pid) | {process for process in seen if process[1] == -1}
        seen |= survivors
        return SignalOutcome(" ".join(argv), f"{signal.Signals(number).name} at {offset}", spawned,
                             len(survivors), main.returncode)
    finally:
        for process in seen | session_members(main.pid):
            if alive(process):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(process[0], signal.SIGKILL)
        if main.poll() is None:
            main.kill()
            main.wait()
