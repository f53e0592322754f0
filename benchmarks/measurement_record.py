"""The measurement records behind docs/measurements/scaling.md and peers.md: one JSON file per page, one entry per
benchmark run, written by the benchmark itself when it is run with ``--record``.

An entry carries what the page needs and where it came from: the command, the UTC date, the commit (short hash,
"+ uncommitted changes" when the tree differed), the load average before the run and the values the benchmark
measured. ``benchmarks/render_measurements.py`` writes the pages from these files only; a test checks that the
committed pages are exactly its output, so a page cannot say what its record does not.
"""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
MEASUREMENTS = ROOT / "docs" / "measurements"


def record_path(page: str) -> Path:
    """The JSON record of ``page`` ("scaling" or "peers")."""
    return MEASUREMENTS / f"{page}.json"


def commit() -> str:
    """The commit measured: short hash, with "+ uncommitted changes" when the tree differs from it."""
    def git(*arguments: str) -> str:
        return subprocess.run(["git", *arguments], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()

    dirty = git("status", "--porcelain", "--untracked-files=no")
    return git("rev-parse", "--short", "HEAD") + (" + uncommitted changes" if dirty else "")


def load_record(page: str, path: Path | None = None) -> dict[str, Any]:
    """The record of ``page`` (``{"runs": {}}`` when there is none yet)."""
    target = path or record_path(page)
    if not target.exists():
        return {"runs": {}}
    data: dict[str, Any] = json.loads(target.read_text(encoding="utf-8"))
    return data


def record_run(page: str, key: str, values: dict[str, Any], load_before: float, path: Path | None = None) -> None:
    """Store one benchmark run under ``key`` in the record of ``page`` (replacing the previous run of that key), with
    the command that was run (this process's arguments), the date, the commit and the load before the run."""
    target = path or record_path(page)
    data = load_record(page, target)
    script = Path(sys.argv[0]).resolve()
    shown = script.relative_to(ROOT) if script.is_relative_to(ROOT) else Path(sys.argv[0])
    arguments = [argument for argument in sys.argv[1:] if argument != "--record"]
    data["runs"][key] = {
        "command": " ".join(["python", shown.as_posix(), *arguments]),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": commit(),
        "load": round(load_before, 1),
        "cores": os.cpu_count(),
        "source": "recorded by the benchmark (--record)",
        "values": values,
    }
    target.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"recorded {key} in {target.relative_to(ROOT) if target.is_relative_to(ROOT) else target}; "
          "rewrite the pages with: python benchmarks/render_measurements.py")
