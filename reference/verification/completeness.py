"""Coverage of the claims registry: every numbered statement in a paper's text has an entry.

The statement headings are found in the paper's text (for the CIP paper its Markdown rendering, where
headings are set in bold or italics: ``**Theorem 3.3.**``, ``*Remark 2.4.*``, ``**Algorithm 1:**``) and compared
with the registry's numbers, where an entry such as ``Definitions 3.10–3.12`` covers 3.10, 3.11 and 3.12.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

KINDS = ("Definition", "Theorem", "Lemma", "Proposition", "Corollary", "Remark", "Algorithm", "Claim", "Observation")
_HEADING = re.compile(r"\*\*?(" + "|".join(KINDS) + r") ([A-Z]\.[0-9]+|[0-9]+(?:\.[0-9]+)?)")
#: HTML-to-text renderings (000, 003, 004) put each statement heading on a line of its own: "Lemma 3.3." or
#: "Lemma 5.4 (Simplified version …)."; algorithm listings are "Algorithm 2 k-ary Tree Mechanism …".
_LINE_HEADING = re.compile(
    r"^(" + "|".join(KINDS) + r") ([A-Z]\.[0-9]+|[0-9]+(?:\.[0-9]+)?)(?:\.| \(|$| [A-Za-z])", re.M
)
_ENTRY = re.compile(r"^(" + "|".join(KINDS) + r")s? ([A-Z]\.[0-9]+|[0-9]+(?:\.[0-9]+)?)(?:–([A-Z]?\.?[0-9.]+))?")

#: The rendering whose headings are scanned, per paper key (file names in shared/papers), and its heading style.
PAPER_FILES = {
    "CIP": "001_1581112b44073f81.txt",
    "KARY": "004_3b502d20f0048b9c.txt",
    "TDA": "003_93c23309e1011ec5.txt",
}
_STYLES = {"CIP": _HEADING, "KARY": _LINE_HEADING, "TDA": _LINE_HEADING}


def papers_directory() -> Path | None:
    """``$REFERENCE_PAPERS``, or ``../shared/papers`` next to the repository, if it exists."""
    override = os.environ.get("REFERENCE_PAPERS")
    candidates = [Path(override)] if override else []
    candidates.append(Path(__file__).resolve().parent.parent.parent / "shared" / "papers")
    return next((path for path in candidates if path.is_dir()), None)


def numbered_statements(text: str, pattern: re.Pattern[str] = _HEADING) -> set[str]:
    """Every ``Kind N.M`` heading in the text (``pattern``: the rendering's heading style)."""
    return {f"{kind} {number}" for kind, number in pattern.findall(text)}


def _expand(kind: str, first: str, last: str | None) -> set[str]:
    if not last:
        return {f"{kind} {first}"}
    prefix, _, start = first.rpartition(".")
    end = last.rpartition(".")[2]
    return {f"{kind} {prefix + '.' if prefix else ''}{value}" for value in range(int(start), int(end) + 1)}


def registered_statements(numbers: list[str]) -> set[str]:
    """The statements a list of registry numbers covers (ranges expanded)."""
    covered: set[str] = set()
    for number in numbers:
        match = _ENTRY.match(number)
        if match:
            covered |= _expand(match.group(1), match.group(2), match.group(3))
    return covered


@dataclass(frozen=True)
class Coverage:
    """Which numbered statements of a paper's text have a registry entry."""

    paper: str
    found: tuple[str, ...]
    missing: tuple[str, ...]
    source: str


def coverage(paper: str, registry_numbers: list[str], directory: Path | None = None) -> Coverage | None:
    """Coverage of ``paper`` by the registry numbers; ``None`` when the paper's text is not available."""
    folder = directory or papers_directory()
    if folder is None or paper not in PAPER_FILES or not (folder / PAPER_FILES[paper]).is_file():
        return None
    found = numbered_statements((folder / PAPER_FILES[paper]).read_text(encoding="utf-8"), _STYLES[paper])
    covered = registered_statements(registry_numbers)
    return Coverage(paper, tuple(sorted(found)), tuple(sorted(found - covered)), PAPER_FILES[paper])
