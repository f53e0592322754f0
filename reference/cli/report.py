"""``reference report``: rerun every paper's claims and write the report."""

from __future__ import annotations

import argparse
from typing import Any

from reference.cli.common import Subcommands, add_command


def _cmd_report(args: argparse.Namespace) -> dict[str, Any]:
    from reference.verification.report import run_report

    summary = run_report(out_dir=args.out, quick=args.quick, progress=not args.json)
    return summary


def register(commands: Subcommands) -> None:
    """Add ``report`` to the top-level commands."""
    report = add_command(commands, "report", _cmd_report, "rerun the claims registry and write the report")
    report.add_argument("--out", default="reference-report", help="output directory (default: reference-report)")
    report.add_argument("--quick", action="store_true", help="smaller budgets (as the tests use)")
