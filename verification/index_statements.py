"""Regenerate the committed index of the papers' numbered statements from the paper texts.

``python -m reference_verification.index_statements [--papers DIR] [--check]``: reads the renderings named in
:data:`reference_verification.completeness.PAPER_SOURCES` from ``DIR`` (default ``$REFERENCE_PAPERS`` or
``shared/papers`` beside the repository) and writes ``statement_index.json`` next to this module; with
``--check`` writes nothing and exits 1 when the committed index differs from what the texts give.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .completeness import (
    INDEX_FILE,
    PAPER_SOURCES,
    index_json,
    papers_directory,
    scan_papers,
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m reference_verification.index_statements",
        description="Regenerate the index of the papers' numbered statements from the paper texts.",
    )
    parser.add_argument(
        "--papers", type=Path, help="folder with the paper texts (default: $REFERENCE_PAPERS or ../shared/papers)"
    )
    parser.add_argument("--check", action="store_true", help="compare with the committed index instead of writing it")
    options = parser.parse_args(argv)
    folder = options.papers or papers_directory()
    if folder is None:
        print("--papers: the folder holding the paper texts ($REFERENCE_PAPERS is unset and no ../shared/papers "
              "is beside the repository)", file=sys.stderr)
        return 2
    names = [name for sources in PAPER_SOURCES.values() for name in sources]
    absent = [name for name in names if not (folder / name).is_file()]
    if absent:
        print(f"--papers: a folder holding {', '.join(names)}; {folder} lacks {', '.join(absent)}", file=sys.stderr)
        return 2
    text = index_json(scan_papers(folder))
    target = Path(__file__).resolve().parent / INDEX_FILE
    if options.check:
        current = target.read_text(encoding="utf-8") if target.is_file() else ""
        if current != text:
            print(f"{target} differs from the index the texts in {folder} give; regenerate it", file=sys.stderr)
            return 1
        print(f"{target} matches the texts in {folder}")
        return 0
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
