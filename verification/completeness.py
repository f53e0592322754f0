"""Coverage of the claims registry: every numbered statement of the papers has an entry, or a stated reason.

The numbered statements (Definition, Lemma, Theorem, …, Algorithm, Claim, Observation, and numbered equations)
are listed in a committed index, ``statement_index.json`` next to this module, so that the comparison with the
registry runs in a fresh clone where the paper texts are absent. The index is generated from the paper texts by
``python -m reference_verification.index_statements``; when the texts are present, the report and the tests also
check that the committed index is what the texts give today.

Headings are read in each rendering's style: the Markdown rendering of the CIP paper sets them in bold or italics
(``**Theorem 3.3.**``, ``*Remark 2.4.*``, ``**Algorithm 1:**``) and tags equations ``\\quad (3)$$``; the
HTML-to-text renderings put each heading on a line of its own (``Lemma 3.3.``, ``Lemma 5.4 (Simplified …).``,
``Algorithm 2 k-ary Tree Mechanism …``) and end a numbered display with its tag, ``… (3)``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from .core.claims import Result
from .papers import PAPERS
from .prose import PROSE_SOURCES, prose_coverage_markdown, prose_sentences
from .unregistered import CHECKED_ELSEWHERE

KINDS = ("Definition", "Theorem", "Lemma", "Proposition", "Corollary", "Remark", "Algorithm", "Claim", "Observation")
_NUMBER = r"([A-Z]\.[0-9]+|[0-9]+(?:\.[0-9]+)?)"
_HEADING = re.compile(r"\*\*?(" + "|".join(KINDS) + r") " + _NUMBER)
_LINE_HEADING = re.compile(r"^(" + "|".join(KINDS) + r") " + _NUMBER + r"(?:\.| \(|$| [A-Za-z])", re.M)
#: Markdown: ``$$ … \quad (3)$$``; HTML-to-text: a display line ending in its tag ``(3)``.
_MARKDOWN_EQUATION = re.compile(r"\\quad \(([0-9]+)\)\s*\$\$")
_LINE_EQUATION = re.compile(r"\s\(([0-9]+)\)[ \t]*$", re.M)
#: A registry number naming statements: ``Lemma B.2``, ``Definitions 3.10–3.12``, ``Equation (2)``.
_ENTRY = re.compile(r"^(" + "|".join(KINDS) + r")s? ([A-Z]\.[0-9]+|[0-9]+(?:\.[0-9]+)?)(?:–([A-Z]?\.?[0-9.]+))?")
_EQUATION_ENTRY = re.compile(r"^Equations? \(([0-9]+)\)")

#: The renderings scanned per paper and their style, from the table of papers (file names in shared/papers; its
#: README says which is which). The CIP paper is scanned in two renderings and their statements united, so that
#: an OCR slip in one heading does not drop a statement.
PAPER_SOURCES: dict[str, dict[str, str]] = {paper.key: dict(paper.renderings) for paper in PAPERS}
INDEX_FILE = "statement_index.json"


def papers_directory() -> Path | None:
    """``$REFERENCE_PAPERS``, or ``shared/papers`` beside the repository's directory, if it exists."""
    override = os.environ.get("REFERENCE_PAPERS")
    candidates = [Path(override)] if override else []
    repository = Path(__file__).resolve().parents[2]
    candidates.append(repository.parent / "shared" / "papers")
    return next((path for path in candidates if path.is_dir()), None)


def numbered_statements(text: str, style: str = "markdown") -> set[str]:
    """Every numbered statement in a rendering's text: ``Kind N.M`` headings and ``Equation (N)`` tags."""
    heading, equation = (_HEADING, _MARKDOWN_EQUATION) if style == "markdown" else (_LINE_HEADING, _LINE_EQUATION)
    found = {f"{kind} {number}" for kind, number in heading.findall(text)}
    return found | {f"Equation ({number})" for number in equation.findall(text)}


def statement_order(statement: str) -> tuple[int, tuple[tuple[int, int | str], ...]]:
    """Sort key: kind in the order of ``KINDS`` (equations last), then the number part by part (3.9 < 3.10)."""
    kind, _, number = statement.partition(" ")
    rank = KINDS.index(kind) if kind in KINDS else len(KINDS)
    parts = number.strip("()").split(".")
    return rank, tuple((0, int(part)) if part.isdigit() else (1, part) for part in parts)


def _expand(kind: str, first: str, last: str | None) -> set[str]:
    if not last:
        return {f"{kind} {first}"}
    prefix, _, start = first.rpartition(".")
    end = last.rpartition(".")[2]
    return {f"{kind} {prefix + '.' if prefix else ''}{value}" for value in range(int(start), int(end) + 1)}


def registered_statements(numbers: list[str]) -> set[str]:
    """The numbered statements a list of registry numbers names (ranges expanded; ``Theorem 1 (utility)`` names
    ``Theorem 1``); numbers such as ``Section 5 timings`` name none."""
    covered: set[str] = set()
    for number in numbers:
        match = _ENTRY.match(number)
        if match:
            covered |= _expand(match.group(1), match.group(2), match.group(3))
        equation = _EQUATION_ENTRY.match(number)
        if equation:
            covered.add(f"Equation ({equation.group(1)})")
    return covered


def scan_papers(directory: Path) -> dict[str, Any]:
    """The index as generated from the paper texts in ``directory`` (every source file must be there)."""
    papers: dict[str, Any] = {}
    for paper, sources in PAPER_SOURCES.items():
        found: set[str] = set()
        digests = {}
        for name, style in sources.items():
            data = (directory / name).read_bytes()
            digests[name] = hashlib.sha256(data).hexdigest()
            found |= numbered_statements(data.decode("utf-8"), style)
        prose = prose_sentences((directory / PROSE_SOURCES[paper]).read_text(encoding="utf-8"))
        papers[paper] = {"sources": digests, "statements": sorted(found, key=statement_order), "prose": prose}
    return {
        "generated_by": "python -m reference_verification.index_statements (do not edit by hand)",
        "papers": papers,
    }


def index_json(index: dict[str, Any]) -> str:
    """The index as written to disk (stable: a regeneration from the same texts gives the same bytes)."""
    return json.dumps(index, indent=2, ensure_ascii=False) + "\n"


def committed_index() -> dict[str, Any]:
    """The committed index (package data, present in every install)."""
    text = resources.files("reference_verification").joinpath(INDEX_FILE).read_text(encoding="utf-8")
    index: dict[str, Any] = json.loads(text)
    return index


def indexed_statements(paper: str) -> tuple[str, ...]:
    """The numbered statements of ``paper`` in the committed index (empty for an unknown paper)."""
    entry = committed_index()["papers"].get(paper)
    return tuple(entry["statements"]) if entry else ()


def index_freshness(directory: Path | None = None) -> tuple[bool, Path] | None:
    """Whether the committed index equals the one the paper texts give now, and where the texts are;
    ``None`` when the texts are not available here."""
    folder = directory or papers_directory()
    if folder is None:
        return None
    names = [name for sources in PAPER_SOURCES.values() for name in sources]
    if not all((folder / name).is_file() for name in names):
        return None
    return scan_papers(folder) == committed_index(), folder


@dataclass(frozen=True)
class Coverage:
    """How the registry covers a paper's indexed statements.

    ``registered``: indexed statements with an entry of their own; ``elsewhere``: statement -> (entry, reason)
    for those checked within another entry; ``missing``: neither; ``unknown``: statements the registry names
    that the index lacks (a mistyped number, or a stale index)."""

    paper: str
    indexed: tuple[str, ...]
    registered: tuple[str, ...]
    elsewhere: dict[str, tuple[str, str]]
    missing: tuple[str, ...]
    unknown: tuple[str, ...]


def coverage(paper: str, registry_numbers: list[str]) -> Coverage:
    """Coverage of ``paper``'s indexed statements by the registry numbers and the stated reasons."""
    indexed = indexed_statements(paper)
    named = registered_statements(registry_numbers)
    elsewhere = {
        statement: CHECKED_ELSEWHERE[(paper, statement)]
        for statement in indexed
        if statement not in named and (paper, statement) in CHECKED_ELSEWHERE
    }
    return Coverage(
        paper=paper,
        indexed=indexed,
        registered=tuple(s for s in indexed if s in named),
        elsewhere=elsewhere,
        missing=tuple(s for s in indexed if s not in named and s not in elsewhere),
        unknown=tuple(sorted(named - set(indexed), key=statement_order)),
    )


def coverage_markdown(results: Sequence[Result]) -> list[str]:
    """The coverage section: every numbered statement in the committed index, against the registry."""
    out = [
        "Coverage (every numbered statement of the papers, as listed in the committed index",
        "`verification/statement_index.json`, compared with the registry):",
        "",
    ]
    for paper in dict.fromkeys(r.claim.paper for r in results):
        found = coverage(paper, [r.claim.number for r in results if r.claim.paper == paper])
        if not found.indexed:
            out.append(f"- {paper}: NOT INDEXED (no numbered statements listed for this paper)")
            continue
        line = f"- {paper}: {len(found.indexed)} numbered statements, {len(found.registered)} with an entry of their"
        line += " own"
        if found.elsewhere:
            line += f", {len(found.elsewhere)} checked within another entry"
        line += f"; MISSING: {', '.join(found.missing)}" if found.missing else "; none missing"
        if found.unknown:
            line += f"; the registry names statements the index lacks: {', '.join(found.unknown)}"
        out.append(line)
        out += [f"  - {name}: within {entry} — {why}" for name, (entry, why) in found.elsewhere.items()]
    statuses: dict[str, dict[str, str]] = {}
    for result in results:
        statuses.setdefault(result.claim.paper, {})[result.claim.number] = result.outcome.status.value
    out += ["", *prose_coverage_markdown(committed_index(), statuses), ""]
    fresh = index_freshness()
    if fresh is None:
        out.append("- the paper texts are not available here (set REFERENCE_PAPERS); the committed index is used as is")
    elif fresh[0]:
        out.append(f"- the committed index is what the paper texts in {fresh[1]} give today")
    else:
        out.append(
            f"- STALE INDEX: the paper texts in {fresh[1]} give another index; "
            "regenerate it with `python -m reference_verification.index_statements`"
        )
    return out
