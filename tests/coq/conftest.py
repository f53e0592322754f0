"""Shared fixture of the Coq tests: one compilation of ``proofs/coq`` per source hash, shared with the report
(``cached_build``: ``$REFERENCE_COQ_CACHE``, else the user's cache folder; CI points it at a fresh folder, so CI
compiles from scratch).

Without ``coqc`` the tests that need Coq are skipped with the install command as the reason — except under
``CI=true``, where a missing Coq is a failure: CI installs it, so its absence means the proofs were not checked.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest
from reference_verification.coq import INSTALL_COMMAND, Build, cached_build, coq_missing


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
def coq_build() -> Iterator[Build]:
    """Every file of proofs/coq compiled (once per source hash: read from the cache when it holds these sources)."""
    require_coqc()
    build = cached_build()
    yield build
    if build.temporary:
        shutil.rmtree(build.directory, ignore_errors=True)
