"""``report.html``: the Markdown report rendered as one self-contained HTML page, the plots inline.

The Markdown is rendered by markdown-it-py (CommonMark with GitHub's pipe tables; raw HTML such as the report's
``<a id=...>`` anchors passes through), so a table cell's ``\\|`` is a bar, an emphasis or a code span follows the
specification, and nothing is parsed by hand here. PNG images found beside the report are embedded as ``data:``
URIs, so the page can be mailed or archived alone.
"""

from __future__ import annotations

import base64
import html
from pathlib import Path

from markdown_it import MarkdownIt

_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 72rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.45; }
table { border-collapse: collapse; margin: 0.5rem 0; font-size: 0.9rem; }
th, td { border: 1px solid #ccc; padding: 0.2rem 0.4rem; vertical-align: top; }
th { background: #f3f3f3; }
code { background: #f6f6f6; padding: 0 0.2rem; }
img { max-width: 100%; }
"""


def _embedded(source: str, directory: Path) -> str:
    """A PNG named relative to the report, as a ``data:`` URI; anything else unchanged."""
    path = directory / source
    if "://" not in source and path.suffix.lower() == ".png" and path.is_file():
        return "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode("ascii")
    return source


def markdown_to_html(markdown: str, directory: Path, title: str) -> str:
    """The HTML page of ``markdown``; images are read from ``directory`` and embedded."""
    parser = MarkdownIt("commonmark", {"html": True}).enable("table")
    tokens = parser.parse(markdown)
    for token in tokens:
        for child in token.children or []:
            if child.type == "image":
                child.attrSet("src", _embedded(str(child.attrGet("src") or ""), directory))
    body = parser.renderer.render(tokens, parser.options, {})
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>"
            f"<style>{_STYLE}</style></head><body>\n{body}</body></html>\n")
