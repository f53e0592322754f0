"""docs/cli.md against the parser: its "Every command and option" section lists every subcommand of
``build_parser()`` with every option it takes, and nothing the parser does not have. A new command or option
fails this test with the line to add."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from reference.cli.main import build_parser

CLI_DOC = Path(__file__).resolve().parents[2] / "docs" / "cli.md"
SECTION = "## Every command and option"
#: The options every command takes (stated once in the section's preamble).
COMMON = {"--help", "--json"}


def parser_commands() -> dict[str, list[str]]:
    """``"audit calibration"`` -> its long options (sorted), for every leaf command of the parser."""
    found: dict[str, list[str]] = {}

    def walk(parser: argparse.ArgumentParser, path: list[str]) -> None:
        subparsers = [action for action in parser._actions if isinstance(action, argparse._SubParsersAction)]
        if not subparsers:
            options = {option for action in parser._actions for option in action.option_strings
                       if option.startswith("--")}
            found[" ".join(path)] = sorted(options - COMMON)
            return
        for name, child in subparsers[0].choices.items():
            walk(child, [*path, name])

    walk(build_parser(), [])
    return found


def expected_line(command: str, options: list[str]) -> str:
    shown = ", ".join(f"`{option}`" for option in options) if options else "(no options)"
    return f"- `{command}`: {shown}"


def documented() -> dict[str, list[str]]:
    text = CLI_DOC.read_text(encoding="utf-8")
    assert SECTION in text, f"docs/cli.md has no section {SECTION!r}"
    body = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    found: dict[str, list[str]] = {}
    for match in re.finditer(r"^- `([a-z0-9 -]+)`: (.*)$", body, re.MULTILINE):
        found[match.group(1)] = re.findall(r"`(--[a-z0-9-]+)`", match.group(2))
    return found


def test_every_command_and_option_is_documented() -> None:
    actual, listed = parser_commands(), documented()
    missing = [expected_line(command, options) for command, options in actual.items()
               if sorted(listed.get(command, [])) != options]
    stale = [command for command in listed if command not in actual]
    assert not missing, "docs/cli.md's section lacks or misstates:\n" + "\n".join(missing)
    assert not stale, f"docs/cli.md lists commands the parser does not have: {stale}"


def test_every_command_has_an_example_or_a_mention() -> None:
    # each command is also named in the page's prose or examples, above the reference section
    text = CLI_DOC.read_text(encoding="utf-8").split(SECTION, 1)[0]
    absent = [command for command in parser_commands() if command not in text]
    assert not absent, f"docs/cli.md never shows these commands outside the reference section: {absent}"
