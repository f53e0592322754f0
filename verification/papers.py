"""The papers the verification checks: one row each, and every part that goes paper by paper iterates this table.

The registry (:mod:`reference_verification.registry`) assembles each row's claims from
``verification/<package>/claims``; the links (:mod:`reference_verification.links`) collect each row's proof
programs from ``verification/<package>/proofs``; the coverage (:mod:`reference_verification.completeness`) scans
each row's renderings for numbered statements and the prose scan (:mod:`reference_verification.prose`) its one
prose rendering; the report names each row's title; the coverage test runs once per row. A new paper is one row
here and a package ``verification/<package>/`` with ``claims/`` and ``proofs/`` (see ``docs/architecture.md``).

The rendering files are those in ``shared/papers`` (its README says which file is which); the line numbers of the
prose index refer to the prose rendering.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

#: How a rendering sets its headings: Markdown (``**Theorem 3.3.**``) or the HTML-to-text dump (one per line).
Style = Literal["markdown", "lines"]


@dataclass(frozen=True)
class Paper:
    """One paper: its tag, its title, the package of its checks, and the renderings its index is read from.

    ``key`` tags every registry entry, index entry and prose sentence of the paper ("CIP"); ``package`` is the
    folder under ``verification/`` whose ``claims`` package defines ``<package>_claims()`` and whose ``proofs``
    package holds the proof programs; ``renderings`` maps each rendering scanned for numbered statements to its
    heading style (several renderings are united, so that an OCR slip in one heading does not drop a statement);
    ``prose_rendering`` is the one rendering scanned for quantitative prose sentences."""

    key: str
    title: str
    package: str
    renderings: Mapping[str, Style]
    prose_rendering: str


PAPERS: tuple[Paper, ...] = (
    Paper(
        key="CIP",
        title="Dharangutte, Gao, Gong, Wang — Differentially Private Range Queries with Correlated Input Perturbation",
        package="cip",
        renderings=MappingProxyType({"001_1581112b44073f81.txt": "markdown", "000_3c5ccf0a3828863e.txt": "lines"}),
        prose_rendering="000_3c5ccf0a3828863e.txt",
    ),
    Paper(
        key="KARY",
        title="Andersson, Pagh, Steiner, Torkamani — Count on Your Elders: Laplace vs Gaussian Noise",
        package="kary",
        renderings=MappingProxyType({"004_3b502d20f0048b9c.txt": "lines"}),
        prose_rendering="004_3b502d20f0048b9c.txt",
    ),
    Paper(
        key="TDA",
        title="Boninsegna — InfTDA: A Simple TopDown Mechanism for Hierarchical Differentially Private Counting "
        "Queries",
        package="tda",
        renderings=MappingProxyType({"003_93c23309e1011ec5.txt": "lines"}),
        prose_rendering="003_93c23309e1011ec5.txt",
    ),
)

#: The papers' tags, in the table's order (the report's order).
PAPER_KEYS: tuple[str, ...] = tuple(paper.key for paper in PAPERS)
