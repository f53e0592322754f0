"""The ``report`` command, added to the library's command line through the entry point ``reference.commands``.

``reference report`` reruns every paper's claims and writes the report (:func:`report.run_report`).
"""

from __future__ import annotations

import argparse
from typing import Any

from reference.cli.common import CommandError, Subcommands, add_command, nonnegative_int


def _cmd_report(args: argparse.Namespace) -> dict[str, Any]:
    if args.jobs is not None and args.jobs < 1:
        raise CommandError(f"--jobs must be a positive integer, got {args.jobs}")
    from . import report  # the whole verification loads only when the command runs

    summary: dict[str, Any] = report.run_report(out_dir=args.out, quick=args.quick, progress=not args.json,
                                                jobs=args.jobs)
    return summary


def register(commands: Subcommands) -> None:
    """Add ``report`` to the top-level commands."""
    command = add_command(commands, "report", _cmd_report, "rerun the claims registry and write the report")
    command.add_argument("--out", default="reference-report", help="output directory (default: reference-report)")
    command.add_argument("--quick", action="store_true", help="smaller budgets (as the tests use)")
    command.add_argument("--jobs", type=nonnegative_int, help="worker processes (default: all cores)")
