"""Numbered statements of the papers that have no registry entry of their own, each with the entry that checks
it and why: a numbered equation inside a definition, a statement or a proof is checked with that statement.

Keys are (paper, statement as in the index); values are (the registry number of the entry that checks it, the
reason). Each paper's rows live in its ``verification/<package>/paper_text.py``; this gathers them, paper by paper
in the order of the table of papers. The tests require each named entry to exist in the registry and each key to
be in the index.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from .papers import PAPERS, Paper


def _paper_text(paper: Paper) -> ModuleType:
    """The paper's ``verification/<package>/paper_text.py`` (imported by name from the table of papers)."""
    return importlib.import_module(f"{__package__}.{paper.package}.paper_text")


CHECKED_ELSEWHERE: dict[tuple[str, str], tuple[str, str]] = {
    key: value for paper in PAPERS for key, value in _paper_text(paper).CHECKED_ELSEWHERE.items()
}
