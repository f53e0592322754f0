"""Load the checkout's ``verification/`` folder as ``reference_verification`` before any test imports it, and
mark the slow tests.

The slow tests are listed by node id in ``tests/slow_tests.txt`` (measured: each takes more than a couple of
seconds on a shared two-core machine) and marked ``slow`` here; the default run (``pyproject.toml``: ``-m 'not
slow'``) leaves them out and CI runs everything (``-m "slow or not slow"``). A listed id that no longer names a
collected test fails the run, so the list cannot go stale silently. A test can also carry ``@pytest.mark.slow``
itself.
"""

from __future__ import annotations

import os
import runpy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent
# the checkout's verification/ importable as reference_verification, first on sys.path and PYTHONPATH, with the
# entry point of its `report` command: tests, their worker processes and their subprocesses all use this copy
runpy.run_path(str(ROOT / "verification" / "checkout.py"))["importable_checkout"](ROOT)

# No timed assertions: hypothesis's per-example deadline fails tests on a busy machine (it did, at 26 s for an
# example that takes milliseconds on an idle one), so it is off for the whole suite.
settings.register_profile("reference", deadline=None)
settings.load_profile("reference")

SLOW_LIST = Path(__file__).resolve().parent / "tests" / "slow_tests.txt"
# The slow list's rule in CPU time (wall time on a shared machine says more about the neighbours than the test):
# a test whose setup + call + teardown takes at least CPU_RULE seconds of CPU, its own and that of the processes
# it waited for, is listed. --check-slow-list fails the run when a test not listed takes CPU_MARGIN times that:
# a loaded machine slows a test's CPU time far less than its wall time (caches, clock), and the margin keeps a
# test near the rule from turning CI red while a test that belongs in the list by a wide margin still does.
CPU_RULE = 1.0
CPU_MARGIN = 3.0


def _listed() -> set[str]:
    lines = SLOW_LIST.read_text(encoding="utf-8").splitlines() if SLOW_LIST.is_file() else []
    return {line.strip() for line in lines if line.strip() and not line.startswith("#")}


@pytest.hookimpl(tryfirst=True)  # before -m deselects by marker
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    listed = _listed()
    seen = set()
    for item in items:
        # an entry names one test, every parametrisation of a test function (no brackets: ids of long parameters
        # differ between pytest versions), or every test of a file
        names = (item.nodeid, item.nodeid.split("[", 1)[0], item.nodeid.split("::", 1)[0])
        found = [name for name in names if name in listed]
        if found:
            item.add_marker(pytest.mark.slow)
            seen.update(found)
    # only a run that collected the whole suite can tell a stale entry from a deselected file
    whole = sorted(map(str, config.args)) in ([], sorted(config.getini("testpaths")))
    stale = sorted(listed - seen) if whole and not config.option.keyword else []
    if stale:
        raise pytest.UsageError(f"tests/slow_tests.txt lists tests that do not exist: {', '.join(stale[:5])}")

_CPU_START = pytest.StashKey[float]()
_SLOW_FOUND: list[tuple[float, str]] = []  # (CPU seconds, node id) of the tests not listed that pass the rule


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--check-slow-list", action="store_true",
        help=f"fail the run when a test not in tests/slow_tests.txt takes more than {CPU_RULE * CPU_MARGIN:g} s of "
        f"CPU (the list's rule is {CPU_RULE:g} s; CI passes this option)",
    )


def _forkserver_cpu_seconds() -> float:
    """CPU time of multiprocessing's forkserver while it runs, with that of the children it forked and reaped.

    The forkserver is this process's child, but it is waited for only when it stops (at exit, after the last
    test), so the calls a test forks from it (the fuzz harness's isolated calls) would not reach ``os.times``
    here: read from ``/proc`` instead (Linux; elsewhere 0, and those tests' CPU goes unseen as before).
    """
    from multiprocessing import forkserver

    pid = getattr(getattr(forkserver, "_forkserver", None), "_forkserver_pid", None)
    if not isinstance(pid, int):
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    # after ")": state is field 3 of proc(5), so utime, stime, cutime, cstime (fields 14-17) are at 11..14 here
    return sum(int(field) for field in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def _cpu_seconds() -> float:
    """CPU time of this process, of the child processes it has waited for (a test's subprocesses) and of the
    forkserver's calls."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system + _forkserver_cpu_seconds()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    if item.config.getoption("check_slow_list"):
        item.stash[_CPU_START] = _cpu_seconds()
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome: Any = yield
    if call.when == "teardown" and _CPU_START in item.stash:
        report = outcome.get_result()
        # user_properties travel from an xdist worker to the controller with the report
        report.user_properties.append(("cpu_seconds", _cpu_seconds() - item.stash[_CPU_START]))
        report.user_properties.append(("listed_slow", item.get_closest_marker("slow") is not None))


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    properties = dict(report.user_properties)
    if report.when == "teardown" and "cpu_seconds" in properties and not properties["listed_slow"]:
        seconds = properties["cpu_seconds"]
        assert isinstance(seconds, float)
        if seconds >= CPU_RULE:
            _SLOW_FOUND.append((seconds, report.nodeid))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    over = [found for found in _SLOW_FOUND if found[0] > CPU_RULE * CPU_MARGIN]
    if over and session.config.getoption("check_slow_list") and not hasattr(session.config, "workerinput"):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, exitstatus: int, config: pytest.Config) -> None:
    if not _SLOW_FOUND:
        return
    terminalreporter.section("tests not in tests/slow_tests.txt over its rule")
    for seconds, nodeid in sorted(_SLOW_FOUND, reverse=True):
        verdict = "FAILS the check" if seconds > CPU_RULE * CPU_MARGIN else "over the rule, within the margin"
        terminalreporter.write_line(f"{seconds:7.2f} s of CPU  {nodeid}  ({verdict})")
