"""report.html is rendered by markdown-it-py: table cells with escaped bars read as bars (no literal ``\\|``),
the report's raw anchors pass through, code spans keep their text, and PNG plots are embedded."""

from __future__ import annotations

from pathlib import Path

from reference_verification.html import markdown_to_html


def test_an_escaped_bar_in_a_cell_is_a_bar(tmp_path: Path) -> None:
    markdown = "| claim | found |\n|---|---|\n| x \\| y | `a \\| b` |\n"
    page = markdown_to_html(markdown, tmp_path, "t")
    assert "\\|" not in page
    assert "<td>x | y</td>" in page and "<td><code>a | b</code></td>" in page


def test_anchors_headings_and_emphasis(tmp_path: Path) -> None:
    markdown = '<a id="kary-1"></a>\n\n## KARY *Lemma* 1\n\nText with `1 < 2` and **bold** & more.\n'
    page = markdown_to_html(markdown, tmp_path, "a <title>")
    assert '<a id="kary-1"></a>' in page and "<h2>KARY <em>Lemma</em> 1</h2>" in page
    assert "<code>1 &lt; 2</code>" in page and "<strong>bold</strong> &amp; more" in page
    assert "<title>a &lt;title&gt;</title>" in page


def test_a_missing_image_keeps_its_name(tmp_path: Path) -> None:
    page = markdown_to_html("![a plot](absent.png)\n", tmp_path, "t")
    assert 'src="absent.png"' in page and 'alt="a plot"' in page
