"""Commands that other installed packages add to the command line, found through entry points.

A distribution adds commands by declaring, in the entry-point group :data:`GROUP`, a function that takes the
top-level subcommands and registers its own. The verification of the papers (installed beside the library by
``pip install .``) adds ``report`` this way, so the library never names it, never looks for it by path, and a
package that happens to be called like a folder of the source tree cannot stand in for it.

When no installed distribution adds ``report``, the command still exists and says in one line how to get it.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from reference.cli.common import CommandError, Subcommands, add_command

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

#: The entry-point group of command plugins: ``name = "package.module:register"``.
GROUP = "reference.commands"

#: Commands the documentation promises; each is registered by a plugin or answered by a refusal naming the install.
EXPECTED = ("report",)


def _plugins() -> dict[str, EntryPoint]:
    """One entry point per command name: the first found on ``sys.path`` (a source checkout placed before an
    installed copy wins, as imports do)."""
    from importlib.metadata import entry_points  # on first use: a library command never reads the entry points

    found: dict[str, EntryPoint] = {}
    for entry in entry_points(group=GROUP):
        found.setdefault(entry.name, entry)
    return found


def missing_message(command: str) -> str:
    """The one line that answers a command no installed plugin provides.

    Args:
        command: the command word the user typed (one of ``EXPECTED``, such as ``"report"``).
    """
    return (f"the {command} command comes with the verification of the papers, which is not installed: run "
            "`python -m pip install .` in the source checkout (it installs the library and its verification together)")


def _broken_message(command: str, error: ImportError) -> str:
    return (f"the {command} command's package cannot be imported ({error}); reinstall with "
            "`python -m pip install .`")


def refusal(argv: Sequence[str]) -> str | None:
    """The refusal for a command line whose command is expected but not provided, or whose plugin cannot be
    imported (checked before parsing, so that the command's own options are not called unknown), else None.

    Args:
        argv: the command line after the program name, as typed (its first word that is not an option is the command).
    """
    words = [word for word in argv if not word.startswith("-")]
    if not words:
        return None
    provided = _plugins()
    if words[0] in EXPECTED and words[0] not in provided:
        return missing_message(words[0])
    if words[0] in provided:
        try:
            provided[words[0]].load()
        except ImportError as error:
            return _broken_message(words[0], error)
    return None


def _missing(args: argparse.Namespace) -> dict[str, Any]:
    raise CommandError(missing_message(args.command))


def register(commands: Subcommands) -> None:
    """Add every plugin's commands, and a one-line refusal for each expected command no plugin provides.

    Args:
        commands: the top-level subcommands (what ``add_subparsers`` returned in
            :func:`reference.cli.main.build_parser`) the group is added to.
    """
    provided = _plugins()
    for name, entry in provided.items():
        try:
            add = entry.load()
        except ImportError:  # a stale or broken install: every other command still works; this one says why
            add_command(commands, name, _missing, "cannot be imported: reinstall with `python -m pip install .`")
            continue
        add(commands)
    for name in EXPECTED:
        if name not in provided:
            add_command(commands, name, _missing, "not installed: needs the verification of the papers")
