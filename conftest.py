"""Load the checkout's ``verification/`` folder as ``reference_verification`` before any test imports it, and
mark the slow tests.

The slow tests are listed by node id in ``tests/slow_tests.txt`` (measured: each takes more than a couple of
seconds on a shared two-core machine) and marked ``slow`` here; the default run (``pyproject.toml``: ``-m 'not
slow'``) leaves them out and CI runs everything (``-m "slow or not slow"``). A listed id that no longer names a
collected test fails the run, so the list cannot go stale silently. A test can also carry ``@pytest.mark.slow``
itself.
"""

from __future__ import annotations

import runpy
from pathlib import Path

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
