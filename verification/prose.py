"""The papers' unnumbered quantitative sentences: constants in the prose, "factor", "at most", complexity claims.

A numbered statement has a heading the index finds (:mod:`reference_verification.completeness`); a sentence such
as "this is a constant improvement by more than a factor 4" has none. :func:`prose_sentences` finds them in one
rendering per paper by the words and symbols that make a sentence quantitative (:data:`QUANTITATIVE`), outside the
bibliography, and the committed index lists them by line and sentence, so that the comparison runs in a fresh
clone. :data:`reference_verification.prose_claims.PROSE_CLAIMS` gives each listed sentence the registry entry that
checks it, or the reason it is not checked; :func:`prose_coverage_markdown` is the report's section.

The HTML-to-text renderings write every formula three times (symbols, LaTeX source, spoken form); the sentence
is kept with its LaTeX source and spoken tokens removed, which leaves the words and most numbers.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .papers import PAPERS
from .prose_claims import PROSE_CLAIMS

#: One rendering per paper for the prose scan, from the table of papers: the HTML-to-text dumps (line numbers
#: refer to these files).
PROSE_SOURCES: dict[str, str] = {paper.key: paper.prose_rendering for paper in PAPERS}
#: Words and symbols that make a sentence quantitative (a comparison factor, a bound, an asymptotic rate, a
#: printed decimal constant).
QUANTITATIVE = re.compile(
    r"\bfactors?\b|\bfactor-\d|\bat most\b|\bat least\b|\btwice\b|\bO\(|Θ\(|Ω\(|≈|\b\d+\.\d{2,}\b", re.IGNORECASE
)
#: The same in a formula's LaTeX source (``\\Theta(``, ``O(``), matched on the sentence before cleaning.
QUANTITATIVE_LATEX = re.compile(
    r"\\Theta\b|\\Omega\b|\\approx\b|(?<![A-Za-z])O\(|\{O\}\(|\\mathcal\{O\}|\bthere are \d|possible [^.]{0,40}queries"
)
#: A statement number ("Lemma 3.14", "Definitions 3.10") reads as a decimal; it is not a constant.
_STATEMENT_NUMBER = re.compile(
    r"(?:Definition|Lemma|Theorem|Proposition|Corollary|Remark|Proof|Section|Figure|Table|Algorithm)s? "
    r"[A-Z]?\.?\d+(?:\.\d+)*(?:,? (?:and )?\d+(?:\.\d+)*)*"
)
#: Tokens of a formula's LaTeX source and of its spoken form in the HTML-to-text renderings.
_LATEX = re.compile(r"\S*\\[a-zA-Z]+\S*")
_SPOKEN = re.compile(
    r"\S*(?:italic_|start_POSTSUBSCRIPT|end_POSTSUBSCRIPT|start_POSTSUPERSCRIPT|end_POSTSUPERSCRIPT|start_ARG|"
    r"end_ARG|roman_|bold_|divide|start_OPFUNCTION|end_OPFUNCTION|blackboard_|caligraphic_|sansserif_|over\^)\S*"
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
#: Shortest cleaned sentence kept (shorter ones are headings or formula debris).
MIN_LENGTH = 30
#: Characters of a sentence kept in the index (enough to recognise it; the line number locates it).
KEPT = 200


def clean(sentence: str) -> str:
    """The sentence without LaTeX source and spoken-form tokens, whitespace collapsed."""
    return re.sub(r"\s+", " ", _SPOKEN.sub("", _LATEX.sub("", sentence))).strip()


def prose_sentences(text: str) -> list[dict[str, Any]]:
    """Each quantitative sentence as ``{"id": "line L.S", "text": …}`` (sentence S of line L, both from 1),
    skipping the bibliography (from a line ``References`` to the next line starting ``Appendix``)."""
    found: list[dict[str, Any]] = []
    in_bibliography = False
    for line_number, line in enumerate(text.split("\n"), 1):
        if line.strip() == "References":
            in_bibliography = True
        elif line.startswith("Appendix"):
            in_bibliography = False
        if in_bibliography:
            continue
        for sentence_number, sentence in enumerate(_SENTENCE_END.split(line), 1):
            kept = clean(sentence)
            without_numbers = _STATEMENT_NUMBER.sub("", kept)
            quantitative = QUANTITATIVE.search(without_numbers) or QUANTITATIVE_LATEX.search(sentence)
            if len(kept) >= MIN_LENGTH and quantitative:
                found.append({"id": f"line {line_number}.{sentence_number}", "text": kept[:KEPT]})
    return found


def prose_coverage_markdown(index: dict[str, Any], statuses: Mapping[str, Mapping[str, str]]) -> list[str]:
    """The report's section: every indexed prose sentence with the entry that checks it (and that entry's
    status) or the reason it is not checked.

    ``index`` is the committed statement index; ``statuses`` maps a paper to {registry number: status}."""
    out = [
        "Quantitative prose (every unnumbered sentence with a factor, a bound, a rate or a printed constant, as listed",
        "in the committed index; each is checked by the entry named or not checked for the reason given):",
        "",
    ]
    for paper, entry in index["papers"].items():
        sentences = entry.get("prose", [])
        checked = unchecked = 0
        lines: list[str] = []
        missing: list[str] = []
        for sentence in sentences:
            verdict = PROSE_CLAIMS.get((paper, sentence["id"]))
            if verdict is None:
                missing.append(sentence["id"])
                continue
            number, why = verdict
            status = statuses.get(paper, {}).get(number or "")
            if number is not None and status is not None:
                checked += 1
                lines.append(f"  - {sentence['id']} «{sentence['text'][:90]}…»: with {number} ({status}) — {why}")
            elif number is not None:
                missing.append(f"{sentence['id']} (names {number}, which is not in the registry)")
            else:
                unchecked += 1
                lines.append(f"  - {sentence['id']} «{sentence['text'][:90]}…»: not checked — {why}")
        head = f"- {paper}: {len(sentences)} quantitative sentences, {checked} with an entry, {unchecked} with a "
        head += "reason why not"
        head += f"; MISSING: {', '.join(missing)}" if missing else "; none missing"
        out += [head, *lines]
    return out
