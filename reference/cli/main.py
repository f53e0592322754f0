"""Command line: ``python -m reference COMMAND ...`` (also installed as the ``reference`` console script).

Every command takes ``--json``. Exact rationals are printed as ``"p/q"`` strings, reals as decimal strings
with at least 15 significant digits. Bad input gives one line on stderr naming the parameter and a non-zero
exit status (2), never a traceback. This module only wires the command groups together; each group lives in
its own module (:mod:`reference.cli.report`, ``calibrate``, ``audit``, ``kary``, ``inftda``, ``cascade``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from reference.cli import audit, calibrate, cascade, inftda, kary, report
from reference.cli.common import EXIT_BAD_INPUT, CommandError, Parser, emit

GROUPS = (report, calibrate, audit, kary, inftda, cascade)


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser (public so that the README's examples can be tested against it)."""
    parser = Parser(prog="reference", description=__doc__.splitlines()[0] if __doc__ else None)
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for module in GROUPS:
        module.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result = args.handler(args)
    except (ValueError, TypeError, CommandError, OverflowError) as exc:
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        print(f"reference: error: {message}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("reference: interrupted", file=sys.stderr)
        return 130
    emit(result, args.json)
    return int(result.get("exit_status", 0)) if isinstance(result, dict) else 0


if __name__ == "__main__":
    sys.exit(main())
