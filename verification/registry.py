"""The claims registry: every paper's entries, assembled paper by paper from the table of papers.

Each row of :data:`~reference_verification.papers.PAPERS` names a package ``verification/<package>/`` whose
``claims`` package defines ``<package>_claims()``, the paper's entries in the paper's order. The registry is its
own module, below everything that runs or reports on it (the report, the Coq check, the parallel run), so that
none of them imports another to reach it.
"""

from __future__ import annotations

import importlib

from .core.claims import Claim, Registry
from .papers import PAPERS, Paper


def paper_claims(paper: Paper) -> list[Claim]:
    """The entries of one paper (``verification/<package>/claims``'s ``<package>_claims()``)."""
    module = importlib.import_module(f"{__package__}.{paper.package}.claims")
    claims: list[Claim] = getattr(module, f"{paper.package}_claims")()
    return claims


def build_registry() -> Registry:
    """Every registered claim, paper by paper in the table's order."""
    registry = Registry()
    for paper in PAPERS:
        claims = paper_claims(paper)
        strays = sorted({claim.paper for claim in claims} - {paper.key})
        if strays:
            raise ValueError(f"verification/{paper.package}/claims registers entries of {', '.join(strays)}, not {paper.key}")
        registry.extend(claims)
    return registry
