"""The README and the command-line reference run verbatim: every ```python block is executed, every ```sh block
runs in bash (``set -e``) in an empty folder, in order, with ``python`` the interpreter running the tests, this
checkout first on ``PYTHONPATH`` and ``reference`` the console script pip would install for it
(``tests/console_script.py``). The two set-up commands install packages and run the whole report, so they are
not run here: they must appear verbatim in ``.ci/run``, which runs them."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.console_script import write_console_script

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
FENCE = re.compile(r"^```(\w+)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
SETUP_MARK = "python -m pip install"
#: The README's budget (issue: a short README, the rest in docs/).
MAX_README_LINES = 200


def blocks(path: Path, language: str) -> list[str]:
    """The fenced blocks of ``path`` in ``language``, in order."""
    return [body for lang, body in FENCE.findall(path.read_text(encoding="utf-8")) if lang == language]


def run_shell(script: str, folder: Path) -> subprocess.CompletedProcess[str]:
    """Run ``script`` in bash with ``set -euo pipefail`` in ``folder``; ``python`` is this interpreter and
    ``reference`` its console script."""
    bin_dir = folder / ".bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "python").unlink(missing_ok=True)
    (bin_dir / "python").symlink_to(sys.executable)
    write_console_script(bin_dir)
    # a user's shell: not the options CI gives this project's own pytest run (PYTEST_ADDOPTS names options, such
    # as --check-slow-list, that only this repository's conftest defines)
    inherited = {key: value for key, value in os.environ.items() if key != "PYTEST_ADDOPTS"}
    environment = {**inherited, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
                   "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}
    return subprocess.run(["bash", "-c", "set -euo pipefail\n" + script], cwd=folder, env=environment,
                          capture_output=True, text=True, timeout=1800, check=False)


def test_the_readme_is_short() -> None:
    assert len(README.read_text(encoding="utf-8").splitlines()) <= MAX_README_LINES


def test_the_setup_commands_are_what_ci_runs() -> None:
    setup = [body for body in blocks(README, "sh") if SETUP_MARK in body]
    assert len(setup) == 1, "one block holds the set-up commands"
    lines = [line for line in setup[0].splitlines() if line.strip()]
    assert len(lines) == 2
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    for line in lines:
        assert line in ci, f"{line!r} is not run verbatim by .ci/run"


@pytest.mark.parametrize("index", range(len(blocks(README, "python"))))
def test_readme_python_block_runs(index: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    source = blocks(README, "python")[index]
    exec(compile(source, f"README.md python block {index + 1}", "exec"), {"__name__": "readme"})


@pytest.mark.slow
@pytest.mark.parametrize("document", ["README.md", "docs/cli.md", "docs/validating.md"])
def test_shell_blocks_run_in_order(document: str, tmp_path: Path) -> None:
    """Each document's shell blocks, one after another in one empty folder (a block may use a file an earlier
    block made, as a reader following the page would)."""
    scripts = [body for body in blocks(ROOT / document, "sh") if SETUP_MARK not in body]
    assert scripts, f"{document} has no shell block"
    for number, script in enumerate(scripts, start=1):
        done = run_shell(script, tmp_path)
        assert done.returncode == 0, f"{document} shell block {number} failed:\n{script}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"


def test_the_shell_blocks_are_well_formed() -> None:
    """Fast check of what the slow test runs: every command line of the README is a real command (no usage
    brackets such as [--nodes], no placeholders)."""
    for document in ("README.md", "docs/cli.md"):
        for script in blocks(ROOT / document, "sh"):
            for line in script.splitlines():
                assert not re.search(r"\s\[--", line), f"{document}: usage brackets in {line!r}"
                assert "FILE" not in line and "..." not in line, f"{document}: a placeholder in {line!r}"
