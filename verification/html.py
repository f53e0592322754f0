"""``report.html``: the Markdown report rendered as one self-contained HTML page, the plots inline.

The report's Markdown uses a small subset (headings, paragraphs, bullet lists, pipe tables, images, anchors,
``**bold**``, ``*italic*``, ```code```, links), so it is rendered here rather than by a Markdown package the core
install would have to pull in. Images are embedded as ``data:`` URIs, so the page can be mailed or archived alone.
"""

from __future__ import annotations

import base64
import html
import re
from pathlib import Path

_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 72rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.45; }
table { border-collapse: collapse; margin: 0.5rem 0; font-size: 0.9rem; }
th, td { border: 1px solid #ccc; padding: 0.2rem 0.4rem; vertical-align: top; }
th { background: #f3f3f3; }
code { background: #f6f6f6; padding: 0 0.2rem; }
img { max-width: 100%; }
"""

_ANCHOR = re.compile(r'^<a id="[^"<>]*"></a>$')


def _inline(text: str) -> str:
    """Escape, then render code spans, links, bold and italics (code spans first, so that their text stays as is)."""
    parts = re.split(r"(`[^`]*`)", text)
    out = []
    for part in parts:
        if len(part) >= 2 and part.startswith("`") and part.endswith("`"):
            out.append(f"<code>{html.escape(part[1:-1])}</code>")
            continue
        escaped = html.escape(part, quote=False)
        escaped = re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", lambda m: f'<a href="{html.escape(m.group(2))}">{m.group(1)}</a>',
                         escaped)
        escaped = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", escaped)
        escaped = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<em>\1</em>", escaped)
        out.append(escaped)
    return "".join(out)


def _cells(line: str) -> list[str]:
    """The cells of a pipe-table row (``\\|`` is a literal bar inside a cell)."""
    text = line.strip()
    text = text[1:] if text.startswith("|") else text
    text = text[:-1] if text.endswith("|") and not text.endswith("\\|") else text
    cells = re.split(r"(?<!\\)\|", text)
    return [cell.strip().replace("\\|", "|") for cell in cells]


def _image(line: str, directory: Path) -> str | None:
    match = re.fullmatch(r"!\[([^\]]*)\]\(([^)]+)\)", line.strip())
    if match is None:
        return None
    caption, name = match.groups()
    path = directory / name
    source = name
    if path.is_file() and path.suffix.lower() == ".png":
        source = "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode("ascii")
    return f'<p><img alt="{html.escape(caption)}" src="{source}"></p>'


def markdown_to_html(markdown: str, directory: Path, title: str) -> str:
    """The HTML page of ``markdown``; images are read from ``directory`` and embedded."""
    body: list[str] = []
    lines = markdown.splitlines()
    index = 0
    paragraph: list[str] = []

    def flush() -> None:
        if paragraph:
            body.append(f"<p>{_inline(' '.join(paragraph))}</p>")
            paragraph.clear()

    while index < len(lines):
        line = lines[index]
        stripped = line.strip()
        heading = re.match(r"^(#{1,6}) (.*)$", line)
        if not stripped:
            flush()
        elif _ANCHOR.match(stripped):
            flush()
            body.append(stripped)
        elif heading:
            flush()
            level = len(heading.group(1))
            body.append(f"<h{level}>{_inline(heading.group(2))}</h{level}>")
        elif (image := _image(line, directory)) is not None:
            flush()
            body.append(image)
        elif stripped.startswith("|") and index + 1 < len(lines) and re.fullmatch(r"\|[-|: ]+\|?", lines[index + 1].strip()):
            flush()
            header = _cells(line)
            rows = []
            index += 2
            while index < len(lines) and lines[index].strip().startswith("|"):
                rows.append(_cells(lines[index]))
                index += 1
            body.append("<table><thead><tr>" + "".join(f"<th>{_inline(c)}</th>" for c in header) + "</tr></thead><tbody>")
            body += ["<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in row) + "</tr>" for row in rows]
            body.append("</tbody></table>")
            continue
        elif re.match(r"^\s*- ", line):
            flush()
            items: list[tuple[int, str]] = []
            while index < len(lines) and (match := re.match(r"^(\s*)- (.*)$", lines[index])):
                items.append((len(match.group(1)), match.group(2)))
                index += 1
            depth_stack: list[int] = []
            for indent, text in items:
                if not depth_stack or indent > depth_stack[-1]:
                    body.append("<ul>")
                    depth_stack.append(indent)
                while depth_stack and indent < depth_stack[-1]:
                    body.append("</ul>")
                    depth_stack.pop()
                body.append(f"<li>{_inline(text)}</li>")
            body += ["</ul>"] * len(depth_stack)
            continue
        else:
            paragraph.append(stripped)
        index += 1
    flush()
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>"
            f"<style>{_STYLE}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")
