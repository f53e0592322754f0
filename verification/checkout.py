"""Make a source checkout's ``verification/`` importable as ``reference_verification``, as an install makes it.

For the test suite and the documentation build of a checkout (``conftest.py`` and ``docs/conf.py`` load this
file by path; it imports only the standard library). An install maps ``verification/`` to the package
``reference_verification`` and declares its ``report`` command as an entry point; a checkout has neither, so
this makes a small folder holding a link ``reference_verification`` → ``verification/`` and a distribution
record with the same entry point, and puts it first on ``sys.path`` and on ``PYTHONPATH`` (so that worker
processes and commands started by the tests see the checkout's copy, never an older installed one).
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from pathlib import Path

ENTRY_POINTS = "[reference.commands]\nreport = reference_verification.cli:register\n"
METADATA = "Metadata-Version: 2.1\nName: exact-dp-reference-checkout\nVersion: 0\n"


def importable_checkout(root: Path) -> Path:
    """The folder that makes ``root/verification`` importable as ``reference_verification``, made if needed and
    put first on ``sys.path`` and ``PYTHONPATH``."""
    verification = (root / "verification").resolve()
    key = hashlib.sha256(str(verification).encode()).hexdigest()[:16]
    folder = Path(tempfile.gettempdir()) / f"reference-checkout-{key}"
    record = folder / "exact_dp_reference_checkout-0.dist-info"
    record.mkdir(parents=True, exist_ok=True)
    for name, text in (("METADATA", METADATA), ("entry_points.txt", ENTRY_POINTS)):
        path = record / name
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            scratch = path.with_suffix(f".{os.getpid()}")
            scratch.write_text(text, encoding="utf-8")
            scratch.replace(path)  # atomic: parallel test workers may write it at once
    link = folder / "reference_verification"
    if not (link.is_symlink() and link.resolve() == verification):
        scratch_link = folder / f"reference_verification.{os.getpid()}"
        scratch_link.unlink(missing_ok=True)
        scratch_link.symlink_to(verification, target_is_directory=True)
        scratch_link.replace(link)
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    paths = os.environ.get("PYTHONPATH", "").split(os.pathsep)
    if str(folder) not in paths:
        os.environ["PYTHONPATH"] = os.pathsep.join([str(folder), *[path for path in paths if path]])
    return folder
