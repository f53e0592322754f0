"""Small files with one purpose: no module of the library (``reference/``) or of the verification
(``verification/``) is longer than :data:`MAX_LINES` lines. A module that grows past it is split by purpose (the
names it shares made public, or its importers pointed at the new module), not exempted here.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The longest module allowed, in lines.
MAX_LINES = 600
FOLDERS = ("reference", "verification")


def long_modules(root: Path, limit: int = MAX_LINES) -> list[str]:
    """``path: lines`` for every ``.py`` file under the folders longer than ``limit`` lines."""
    found = []
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*.py")):
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > limit:
                found.append(f"{path.relative_to(root)}: {lines} lines")
    return found


def test_no_module_is_longer_than_the_limit() -> None:
    assert long_modules(ROOT) == []


def test_the_check_finds_a_planted_long_module(tmp_path: Path) -> None:
    (tmp_path / "reference").mkdir()
    (tmp_path / "verification" / "deep").mkdir(parents=True)
    (tmp_path / "reference" / "short.py").write_text("x = 1\n" * MAX_LINES, encoding="utf-8")
    (tmp_path / "verification" / "deep" / "long.py").write_text("x = 1\n" * (MAX_LINES + 1), encoding="utf-8")
    assert long_modules(tmp_path) == [f"{Path('verification/deep/long.py')}: {MAX_LINES + 1} lines"]
