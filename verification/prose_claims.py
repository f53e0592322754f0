"""Each quantitative prose sentence of the papers (listed in the committed index by
:mod:`reference_verification.prose`): the registry entry that checks it and how, or ``None`` and the reason it
is not checked. Keys are (paper, sentence id as in the index: "line L.S" of the rendering the scan reads). Each
paper's rows live in its ``verification/<package>/paper_text.py``; this gathers them in the order of the table of
papers.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from .papers import PAPERS, Paper


def _paper_text(paper: Paper) -> ModuleType:
    """The paper's ``verification/<package>/paper_text.py`` (imported by name from the table of papers)."""
    return importlib.import_module(f"{__package__}.{paper.package}.paper_text")


PROSE_CLAIMS: dict[tuple[str, str], tuple[str | None, str]] = {
    key: value for paper in PAPERS for key, value in _paper_text(paper).PROSE_CLAIMS.items()
}
