"""The report as a reader meets it: a headline with the counts, a table of contents whose links resolve, the
provenance, the coverage lists last, the HTML page with the plots inline, and one line when the plots are skipped."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from reference_verification.coq import NOT_ATTEMPTED, Evidence
from reference_verification.core.claims import Budget, Claim, CoqTheorem, Method, Outcome, Result, Status
from reference_verification.html import markdown_to_html
from reference_verification.provenance import SCHEMA_VERSION, provenance
from reference_verification.report import PLOTS_SKIPPED, failure_reasons, headline, markdown_report


def _result(number: str, status: Status, implements: str) -> Result:
    claim = Claim("KARY", number, f"statement {number}", Method.EXHAUSTIVE, lambda budget: Outcome(status, "d"),
                  implements=(implements,))
    return Result(claim, Outcome(status, "found", "n = 3" if status is Status.REFUTED else None), 0.5)


RESULTS = [
    _result("Lemma 1", Status.VERIFIED, "reference.kary.tree.vertices"),
    _result("Theorem 2", Status.REFUTED, "reference.kary.counters.algorithm_2"),
    _result("Remark 3", Status.REFUTED, "reference.kary.digits.offset_digits"),
]


def test_the_headline_counts_and_names_what_matters_to_implementers() -> None:
    text = "\n".join(headline(RESULTS))
    assert "3 statements" in text and "0 proved" in text and "1 verified" in text and "2 false as printed" in text
    # a refuted statement about a counter matters to implementers; one about digit notation does not
    assert "KARY Theorem 2" in text and "KARY Remark 3" not in text


def test_a_coq_failure_leads_the_headline_and_the_exit_reason_once() -> None:
    """A file that does not compile: the headline and the summary's last line say which theorem, which file and
    Coq's message, once; the theorems after it are counted as not attempted, without repeating the message."""
    failing = CoqTheorem("KaryAlgorithm2.v", "updates_bound", "a statement")
    later = CoqTheorem("KaryDigitCount.v", "level_total", "a statement")
    message = "KaryAlgorithm2.v fails under coq: Error: the goal is not provable"
    coq = {failing: Evidence(failing, "does not compile", message),
           later: Evidence(later, NOT_ATTEMPTED, "KaryDigitCount.v was not compiled: KaryAlgorithm2.v, before it, "
                                                 "does not compile")}
    lines = headline(RESULTS, coq)
    assert lines[0].startswith("**Coq FAILED: updates_bound does not compile") and "1 not attempted" in lines[0]
    assert "\n".join(lines).count("the goal is not provable") == 1
    (reason,) = failure_reasons(0, [], coq)
    assert reason.count("the goal is not provable") == 1 and reason == lines[0].strip("*")
    assert failure_reasons(0, [], {}) == [] and failure_reasons(2, ["case"], {}) == [
        "2 checks crashed", "audit cases without their designed verdict: case"]
    closed = {failing: Evidence(failing, "closed", "compiled")}
    assert not headline(RESULTS, closed)[0].startswith("**Coq") and failure_reasons(0, [], closed) == []


def test_contents_links_resolve_and_coverage_comes_last() -> None:
    text = markdown_report(RESULTS, [], 1.0, Budget(quick=True), provenance={"version": "9.9"})
    anchors = set(re.findall(r'<a id="([^"]+)"></a>', text))
    contents = text.split("## Contents")[1].split("<a id=")[0]
    links = re.findall(r"\]\(#([^)]+)\)", contents)
    assert links and set(links) <= anchors
    assert text.index("## Coverage of the papers") > text.index("## All entries")
    assert text.index("**3 statements") < text.index("## Contents") < text.index("## Summary")
    assert "| version | 9.9 |" in text


def test_skipped_plots_are_said_in_one_line() -> None:
    text = markdown_report(RESULTS, [], 1.0, Budget(quick=True), plots_skipped=True)
    assert text.count(PLOTS_SKIPPED) == 1 and "exact-dp-reference[report]" in PLOTS_SKIPPED


def test_provenance_names_versions_and_is_json() -> None:
    fields = provenance()
    for key in ("version", "date", "python", "numpy", "python-flint", "coq", "git_commit"):
        assert key in fields
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", str(fields["date"]))
    assert json.loads(json.dumps({"schema_version": SCHEMA_VERSION, "provenance": fields}))["schema_version"] >= 1


def test_the_html_page_embeds_the_plots_and_renders_tables(tmp_path: Path) -> None:
    png = b"\x89PNG\r\n\x1a\n" + b"0" * 16
    (tmp_path / "plot.png").write_bytes(png)
    markdown = "# Title\n\n| a | b \\| c |\n|---|---|\n| 1 | **2** |\n\n- one\n  - two\n\n![a plot](plot.png)\n"
    page = markdown_to_html(markdown, tmp_path, "t")
    assert "<h1>Title</h1>" in page and "<td><strong>2</strong></td>" in page and "<th>b | c</th>" in page
    assert 'src="data:image/png;base64,iVBORw0KGgo' in page
    assert page.count("<ul>") == 2 and "<li>two</li>" in page


@pytest.mark.parametrize("plots_skipped", [False, True])
def test_the_contents_list_every_section_in_order(plots_skipped: bool) -> None:
    """The report is composed of one function per section; whatever it composes, each level-2 heading after the
    contents has exactly one contents entry, in the same order and with the same title, and each section's
    anchor comes just before its heading."""
    text = markdown_report(RESULTS, [("plot.png", "a plot")], 1.0, Budget(quick=True), plots_skipped=plots_skipped)
    contents = text.split("## Contents")[1].split("<a id=")[0]
    listed = re.findall(r"^- \[([^\]]+)\]\(#([^)]+)\)$", contents, flags=re.MULTILINE)
    headings = re.findall(r'^<a id="([^"]+)"></a>\n## (.+)$', text, flags=re.MULTILINE)
    assert [(title, anchor) for anchor, title in headings if anchor != "contents"] == listed
    assert {"What the checks refute", "KARY: details", "Plots"} <= {title for title, _ in listed}
