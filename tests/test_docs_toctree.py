"""The site's sidebar lists each page once: every page of docs/ is in exactly one toctree of the index (a glob
toctree beside an explicit one listed every page twice)."""

from __future__ import annotations

import re
from pathlib import Path

DOCS = Path(__file__).resolve().parent.parent / "docs"
TOCTREE = re.compile(r"^```\{toctree\}\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def _entries(body: str) -> list[str]:
    return [line.strip() for line in body.splitlines() if line.strip() and not line.startswith(":")]


def test_every_page_is_listed_once() -> None:
    listed = [entry for body in TOCTREE.findall((DOCS / "index.md").read_text(encoding="utf-8"))
              for entry in _entries(body)]
    assert "*" not in listed, "a glob toctree repeats the pages the explicit one lists"
    assert len(listed) == len(set(listed)), f"listed twice: {sorted({e for e in listed if listed.count(e) > 1})}"
    pages = {path.relative_to(DOCS).with_suffix("").as_posix() for path in DOCS.glob("*.md")} | {"api-reference"}
    pages -= {"index"}
    top = {entry for entry in listed if "/" not in entry}
    assert pages - top == set(), f"pages in no toctree: {sorted(pages - top)}"
