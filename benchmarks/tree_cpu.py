"""CPU time of a command and of every process it starts, orphans included; its largest process's peak memory.

    python benchmarks/tree_cpu.py -- python -m reference report --quick
    python benchmarks/tree_cpu.py --hogs 2 -- python -m pytest -p no:cacheprovider

``/usr/bin/time`` and ``getrusage(RUSAGE_CHILDREN)`` count a process's own CPU and that of the descendants it
waited for. A process its parent never waits for is missed: a multiprocessing forkserver (and everything forked
from it) outlives the interpreter that started it and is reaped by init, so a test suite whose campaigns run in
a forkserver looks 2x cheaper than it is. Here this process becomes a child subreaper (Linux ``prctl``), so
orphaned descendants are re-parented to it and reaped by it, and their CPU is counted too.
It waits until every descendant has ended (a process that never ends keeps it waiting).

``--hogs N`` runs N busy loops (``python -c "while True: pass"``) beside the command, to measure under load; they
are stopped (by their own process ids) when the command ends, and their CPU is not counted. The load average
(``os.getloadavg``) is printed before and after. Nothing is asserted: this script reports. Linux only.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import resource
import subprocess
import sys
import time

PR_SET_CHILD_SUBREAPER = 36  # linux/prctl.h


def become_subreaper() -> None:
    """Make orphaned descendants this process's children (so that their CPU reaches its RUSAGE_CHILDREN)."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER) failed")


def reap_all() -> None:
    """Wait for every remaining descendant (orphans re-parented here included)."""
    while True:
        try:
            os.wait()
        except ChildProcessError:
            return


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hogs", type=int, default=0, help="busy loops to run beside the command (load)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the command, after --")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("a command is needed, after --")
    become_subreaper()
    # the hogs are started in a process of their own, waited for first, so their CPU can be subtracted
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.hogs)]
    if hogs:
        time.sleep(30)  # let the 1-minute load average climb before the command starts
    print(f"load average before: {os.getloadavg()}; cores: {os.cpu_count()}; hogs: {args.hogs}", flush=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    status = subprocess.run(command, check=False).returncode
    wall = time.perf_counter() - start
    load_after = os.getloadavg()
    for hog in hogs:
        hog.kill()
    hog_user = hog_system = 0.0
    for hog in hogs:
        # os.wait4 gives this one process's own rusage, so the hogs' CPU is taken out of the command's
        _, _, usage = os.wait4(hog.pid, 0)
        hog.returncode = -9
        hog_user, hog_system = hog_user + usage.ru_utime, hog_system + usage.ru_stime
    reap_all()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    user = after.ru_utime - before.ru_utime - hog_user
    system = after.ru_stime - before.ru_stime - hog_system
    hog_cpu = hog_user + hog_system
    print(f"command: {' '.join(command)}")
    print(f"exit status {status}; wall {wall:.1f} s; CPU {user + system:.1f} s (user {user:.1f} s + system "
          f"{system:.1f} s, every descendant, orphans included; the hogs' {hog_cpu:.0f} s left out); "
          f"peak RSS of the largest process {after.ru_maxrss // 1024} MB")
    print(f"load average after: {load_after}", flush=True)


if __name__ == "__main__":
    main()
