"""Sphinx configuration: the documentation site, built from ``docs/`` with
``python -m sphinx -W -b html docs docs/_build/html`` (warnings are errors) and its examples run with
``python -m sphinx -W -b doctest docs docs/_build/doctest``."""

from __future__ import annotations

import re
import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# the checkout's verification/ as reference_verification, as the tests load it (verification/checkout.py)
runpy.run_path(str(ROOT / "verification" / "checkout.py"))["importable_checkout"](ROOT)

import reference  # noqa: E402

project = "exact-dp-reference"
author = "The exact-dp-reference maintainers"
copyright = "2026, The exact-dp-reference maintainers"
release = reference.__version__
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",
    "sphinx.ext.doctest",
    "sphinx.ext.viewcode",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
templates_path = ["_templates"]
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]

autosummary_generate = True
autosummary_imported_members = False
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_preserve_defaults = True
# a method without a docstring stays without one (numpy's docstrings, inherited by a test double, are not ours)
autodoc_inherit_docstrings = False
napoleon_google_docstring = True
napoleon_numpy_docstring = True
# The docstrings are written for people reading the source: plain text with ``code`` and :func: roles. Sphinx's
# reader is stricter about some constructs (a bare * in a formula); those are reported, not hidden: see
# suppress_warnings below for the only kinds silenced, and why.
suppress_warnings = [
    # dataclass fields and NamedTuple members documented both by the class docstring and by attribute comments
    "autodoc.duplicate_object",
]
nitpicky = False

html_theme = "alabaster"
html_title = f"exact-dp-reference {release}"

# Each public name is documented once, in the module that defines it: the top-level package's re-exports (and any
# module's imports) are not documented again, which would make every cross-reference to them ambiguous.
autodoc_default_options["ignore-module-all"] = True

_LITERAL = re.compile(r"(``.*?``)")


def _plain_bars(app: object, what: str, name: str, obj: object, options: object, lines: list[str]) -> None:
    """The docstrings write absolute values and norms as |x| and ‖x‖, as the papers do; reStructuredText would
    read |x| as a substitution reference. Escape the bars outside ``literal`` text (tables in docstrings use
    ``=`` rulers, never bars)."""
    for index, line in enumerate(lines):
        parts = _LITERAL.split(line)
        lines[index] = "".join(part if part.startswith("``") else part.replace("|", "\\|") for part in parts)


def setup(app: object) -> None:
    app.connect("autodoc-process-docstring", _plain_bars)  # type: ignore[attr-defined]
