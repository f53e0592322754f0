"""Where a report comes from: the package version, the git commit of the checkout, the date, and the versions of
Python and of the libraries and tools whose arithmetic the results rest on (numpy, python-flint, sympy, mpmath,
scipy, Coq). Written into ``report.md`` and ``claims.json`` so that a report read later can be reproduced."""

from __future__ import annotations

import datetime
import importlib.metadata
import platform
import shutil
import subprocess
from pathlib import Path

import reference

from .coq import coq_version

#: Bumped whenever a field of ``claims.json`` changes meaning or disappears (adding a field does not bump it).
SCHEMA_VERSION = 1

#: The distributions whose versions are recorded, by distribution name.
LIBRARIES = ("numpy", "python-flint", "sympy", "mpmath", "scipy", "matplotlib")


def _distribution_version(name: str) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def git_commit() -> str | None:
    """The commit of the checkout ``reference`` runs from (with ``+dirty`` for uncommitted changes), or ``None``
    for an installed package or when git is missing."""
    root = Path(reference.__file__).resolve().parent.parent
    git = shutil.which("git")
    if git is None or not (root / ".git").exists():
        return None
    try:
        head = subprocess.run([git, "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=30)
        dirty = subprocess.run([git, "status", "--porcelain", "--untracked-files=no"], cwd=root,
                               capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    if head.returncode != 0:
        return None
    return head.stdout.strip() + ("+dirty" if dirty.returncode == 0 and dirty.stdout.strip() else "")


def provenance() -> dict[str, str | None]:
    """The provenance fields, as JSON-ready strings (``None`` where a value is not available here)."""
    found: dict[str, str | None] = {
        "package": "exact-dp-reference",
        "version": reference.__version__,
        "git_commit": git_commit(),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "python": platform.python_version(),
    }
    found.update({name: _distribution_version(name) for name in LIBRARIES})
    found["coq"] = coq_version() or None
    return found


def provenance_markdown(fields: dict[str, str | None]) -> list[str]:
    """The report's provenance section as Markdown lines (a two-column table)."""
    out = ["| what | value |", "|---|---|"]
    out += [f"| {key.replace('_', ' ')} | {value if value is not None else 'not available here'} |"
            for key, value in fields.items()]
    return out
