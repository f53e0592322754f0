"""Coverage of the registry against the committed index of the papers' numbered statements.

These tests run in a fresh clone without the paper texts: the index is package data. Only the regeneration test
needs the texts, and it says so when it skips.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from reference_verification.completeness import (
    PAPER_SOURCES,
    committed_index,
    coverage,
    coverage_markdown,
    index_freshness,
    indexed_statements,
    numbered_statements,
    papers_directory,
    registered_statements,
    scan_papers,
)
from reference_verification.index_statements import main as index_main
from reference_verification.papers import PAPER_KEYS as PAPERS
from reference_verification.registry import build_registry
from reference_verification.unregistered import CHECKED_ELSEWHERE


@cache
def registry_numbers(paper: str) -> list[str]:
    return [claim.number for claim in build_registry().claims if claim.paper == paper]


def test_scanner_reads_both_heading_styles() -> None:
    markdown = "**Theorem 3.3.** x *Remark 2.4.* y **Algorithm 1:** z **Lemma B.2.** w\n$$a = b. \\quad (3)$$\n"
    assert numbered_statements(markdown) == {"Theorem 3.3", "Remark 2.4", "Algorithm 1", "Lemma B.2", "Equation (3)"}
    lines = "Lemma 5.4 (Simplified version).\nClaim 1.\nx = y (2)\nSee Lemma 3.3. and (1) in text.\nObservation 1\n"
    assert numbered_statements(lines, "lines") == {"Lemma 5.4", "Claim 1", "Equation (2)", "Observation 1"}


def test_registry_numbers_name_statements() -> None:
    assert registered_statements(["Definitions 3.10–3.12", "Lemma B.2", "Equation (2)", "Theorem 1 (utility)"]) == {
        "Definition 3.10",
        "Definition 3.11",
        "Definition 3.12",
        "Lemma B.2",
        "Equation (2)",
        "Theorem 1",
    }
    assert registered_statements(["Section 5 timings", "Appendix E.2 constant"]) == set()


def test_index_lists_each_paper() -> None:
    # statements read off the papers by hand: the last appendix lemma of CIP, KARY's only claim, TDA's observation
    assert {"Lemma B.5", "Algorithm 4", "Equation (7)"} <= set(indexed_statements("CIP"))
    assert {"Claim 1", "Definition C.1", "Lemma 6.4"} <= set(indexed_statements("KARY"))
    assert {"Observation 1", "Definition 4", "Corollary 1"} <= set(indexed_statements("TDA"))
    assert set(committed_index()["papers"]) == set(PAPERS)


@pytest.mark.parametrize("paper", PAPERS)
def test_every_indexed_statement_is_registered_or_explained(paper: str) -> None:
    found = coverage(paper, registry_numbers(paper))
    assert found.missing == (), f"{paper}: no entry and no reason for {found.missing}"
    assert found.unknown == (), f"{paper}: the registry names statements the index lacks: {found.unknown}"
    assert len(found.registered) + len(found.elsewhere) == len(found.indexed) > 0


def test_reasons_point_at_real_entries() -> None:
    for (paper, statement), (entry, reason) in CHECKED_ELSEWHERE.items():
        assert statement in indexed_statements(paper), (paper, statement)
        assert entry in registry_numbers(paper), (paper, statement, entry)
        # a reason for a statement that now has its own entry is stale
        assert statement not in registered_statements(registry_numbers(paper)), (paper, statement)
        assert reason


def test_coverage_is_not_vacuous() -> None:
    numbers = [n for n in registry_numbers("KARY") if n != "Lemma 4.12"]
    assert coverage("KARY", numbers).missing == ("Lemma 4.12",)
    assert coverage("KARY", [*numbers, "Lemma 4.12", "Lemma 9.9"]).unknown == ("Lemma 9.9",)


def test_report_section_names_the_outcome() -> None:
    from reference_verification.core.claims import Outcome, Status

    class Entry:  # the attributes coverage_markdown reads from a result
        def __init__(self, paper: str, number: str) -> None:
            self.claim = type("Claim", (), {"paper": paper, "number": number})
            self.outcome = Outcome(Status.VERIFIED, "d")

    results = [Entry(paper, number) for paper in PAPERS for number in registry_numbers(paper)]
    text = "\n".join(coverage_markdown(results))  # type: ignore[arg-type]
    # numbered statements and quantitative prose sentences, for each paper
    assert text.count("none missing") == 2 * len(PAPERS) and "MISSING" not in text


def test_script_regenerates_the_committed_index() -> None:
    folder = papers_directory()
    if index_freshness(folder) is None:
        pytest.skip("the paper texts are not here (set REFERENCE_PAPERS to the folder holding them)")
    assert folder is not None
    assert scan_papers(folder) == committed_index()
    assert index_main(["--papers", str(folder), "--check"]) == 0


def test_a_changed_text_makes_the_index_stale(tmp_path: Path) -> None:
    # texts written here, in each rendering's style: the index they give is not the committed one
    for sources in PAPER_SOURCES.values():
        for name, style in sources.items():
            heading = "**Lemma 9.9.** text\n" if style == "markdown" else "Lemma 9.9.\ntext\n"
            (tmp_path / name).write_text(heading, encoding="utf-8")
    assert scan_papers(tmp_path)["papers"]["KARY"]["statements"] == ["Lemma 9.9"]
    assert index_freshness(tmp_path) == (False, tmp_path)
    assert index_main(["--papers", str(tmp_path), "--check"]) == 1


def test_the_script_refuses_a_folder_without_the_texts(tmp_path: Path) -> None:
    assert index_main(["--papers", str(tmp_path), "--check"]) == 2
