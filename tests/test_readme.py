"""The README's Python tour runs as printed, against the package as it is laid out now."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.DOTALL)


def test_the_readme_has_a_python_tour() -> None:
    assert len(BLOCKS) >= 4


@pytest.mark.filterwarnings("ignore")
def test_every_python_block_runs_in_order() -> None:
    namespace: dict[str, object] = {}
    for number, block in enumerate(BLOCKS, 1):
        try:
            exec(compile(block, f"README.md python block {number}", "exec"), namespace)
        except Exception as error:  # name the block, so a broken line of the tour is easy to find
            pytest.fail(f"README python block {number} raised {type(error).__name__}: {error}")


def test_every_command_line_of_the_readme_parses() -> None:
    import shlex

    from reference.cli.main import build_parser

    parser = build_parser()
    commands = [
        line.split("#", 1)[0]
        for line in README.read_text(encoding="utf-8").splitlines()
        if line.startswith("python -m reference ")
    ]
    assert len(commands) >= 20
    for command in commands:
        words = shlex.split(re.sub(r"\[[^\]]*\]", "", command))[3:]  # optional parts in [...] left out
        if "&&" in words:
            words = words[: words.index("&&")]
        try:
            parser.parse_args(words)
        except SystemExit as stop:
            pytest.fail(f"README command does not parse (exit {stop.code}): {command}")
