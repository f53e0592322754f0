"""``reference report``: rerun every paper's claims and write the report."""

from __future__ import annotations

import argparse
import importlib
from typing import Any

from reference.cli.common import CommandError, Subcommands, add_command, nonnegative_int


def _cmd_report(args: argparse.Namespace) -> dict[str, Any]:
    from reference.crossing import VerificationMissing, verification_package

    try:  # the one crossing from the library into the verification package (reference/crossing.py)
        run_report = importlib.import_module(f"{verification_package().__name__}.report").run_report
    except VerificationMissing as error:
        raise CommandError(str(error)) from None

    if args.jobs is not None and args.jobs < 1:
        raise CommandError(f"--jobs must be a positive integer, got {args.jobs}")
    summary: dict[str, Any] = run_report(out_dir=args.out, quick=args.quick, progress=not args.json, jobs=args.jobs)
    return summary


def register(commands: Subcommands) -> None:
    """Add ``report`` to the top-level commands."""
    report = add_command(commands, "report", _cmd_report, "rerun the claims registry and write the report")
    report.add_argument("--out", default="reference-report", help="output directory (default: reference-report)")
    report.add_argument("--quick", action="store_true", help="smaller budgets (as the tests use)")
    report.add_argument("--jobs", type=nonnegative_int, help="worker processes (default: all cores)")
