"""The documented command form cannot be shadowed: with a ``reference.py`` in the working folder (one line,
``x=1``), ``python -m reference ...`` runs that file and exits 0 — a silent pass — while the console script
``reference ...``, which the README and docs/cli.md use, still runs the audit and exits 1 on a failing claim."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.console_script import ROOT, write_console_script

#: σ = 3 for Δ² = 1 at (ε, δ) = (1, 1e-5) fails: the smallest σ is about 3.73 (README: exit 1).
FAILING_AUDIT = ["audit", "calibration", "--mechanism", "gaussian", "--sigma", "3", "--sensitivity-squared", "1",
                 "--epsilon", "1", "--delta", "1e-5"]
DOCUMENTS = ("README.md", "docs/cli.md", "docs/validating.md", "docs/index.md")


@pytest.fixture
def shadowed_folder(tmp_path: Path) -> Path:
    (tmp_path / "reference.py").write_text("x=1\n", encoding="utf-8")
    return tmp_path


def _environment(bin_dir: Path) -> dict[str, str]:
    # the checkout on PYTHONPATH stands in for the installed package; the working folder is not on it
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
            "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}


def test_the_console_script_is_not_shadowed_by_a_local_reference_py(shadowed_folder: Path, tmp_path_factory:
                                                                     pytest.TempPathFactory) -> None:
    bin_dir = tmp_path_factory.mktemp("bin")
    write_console_script(bin_dir)
    done = subprocess.run(["reference", *FAILING_AUDIT], cwd=shadowed_folder, env=_environment(bin_dir),
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 1, done.stderr
    assert "fails" in done.stdout


def test_python_dash_m_is_shadowed_which_is_why_the_docs_do_not_use_it(shadowed_folder: Path) -> None:
    """The reason the docs use the console script: the same command through ``python -m`` does nothing."""
    done = subprocess.run([sys.executable, "-m", "reference", *FAILING_AUDIT], cwd=shadowed_folder,
                          env=_environment(shadowed_folder), capture_output=True, text=True, timeout=300, check=False)
    assert (done.returncode, done.stdout) == (0, "")


@pytest.mark.parametrize("document", DOCUMENTS)
def test_the_documents_run_the_console_script(document: str) -> None:
    text = (ROOT / document).read_text(encoding="utf-8")
    shadowable = [line for line in text.splitlines() if re.match(r"\s*python3? -m reference\s", line)]
    assert not shadowable, f"{document} runs the shadowable form: {shadowable[0]!r}"
