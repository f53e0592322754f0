"""Shared fixture of the Coq tests: one compilation of ``proofs/coq`` per test session.

Without ``coqc`` the tests that need Coq are skipped with the install command as the reason — except under
``CI=true``, where a missing Coq is a failure: CI installs it, so its absence means the proofs were not checked.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from reference_verification.coq import INSTALL_COMMAND, Build, compile_all, coq_missing


def require_coqc() -> None:
    """Skip (locally) or fail (under CI=true) when coqc is missing."""
    missing = coq_missing()
    if missing is None:
        return
    message = f"{missing}: install Coq with Mathematical Components ({INSTALL_COMMAND})"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true but {message}; the machine-checked proofs were not checked")
    pytest.skip(message)


@pytest.fixture(scope="session")
def coqc_installed() -> None:
    """Skip (locally) or fail (under CI=true) when coqc is missing."""
    require_coqc()


@pytest.fixture(scope="session")
def coq_build(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Build]:
    """Every file of proofs/coq compiled once, in a temporary directory."""
    require_coqc()
    directory: Path = tmp_path_factory.mktemp("coq-build")
    build = compile_all(build_directory=directory)
    yield build
    shutil.rmtree(directory, ignore_errors=True)
