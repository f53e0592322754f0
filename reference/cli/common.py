"""What every command group shares: the parser class, the options declared once, input readers and output.

``--json`` is added to every command by :func:`add_command`; ``--epsilon``, ``--delta``, ``--seed`` and
``--subtraction`` are declared here once (:func:`add_epsilon`, :func:`add_delta`, :func:`add_seed`,
:func:`add_subtraction`) and attached by each command that takes them, with its own help text and requirement.
A :class:`CommandError` (or a ``ValueError``/``TypeError`` from the library) becomes one line on stderr and exit
status 2 in :func:`reference.cli.main.main`.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from typing import Any, NoReturn, TypeAlias

from reference.core.json_form import jsonable

EXIT_BAD_INPUT = 2

#: A command's handler: parsed arguments in, a JSON-able result out (``exit_status`` in it sets the exit code).
Handler: TypeAlias = Callable[[argparse.Namespace], dict[str, Any]]
#: What ``add_subparsers`` returns (argparse keeps the class private).
Subcommands: TypeAlias = "argparse._SubParsersAction[Parser]"


class CommandError(Exception):
    """A user error detected by a command; printed as one line."""


#: A token that starts with a minus sign followed by a digit (or by a point and a digit) is a value, never an
#: option: no option of this command line starts so. argparse's own rule accepts only a lone negative number, so
#: ``--values -5,-5``, ``--epsilon -1/2`` or ``--vectors -1,1;2`` would otherwise read as an unknown option.
NEGATIVE_VALUE = re.compile(r"^-\.?\d")


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are a single line, not usage plus message, and which reads every token
    starting with a negative number (a list such as ``-5,-5``, a fraction, an exponent) as a value."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._negative_number_matcher = NEGATIVE_VALUE

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")


def group(commands: Subcommands, name: str, text: str) -> Subcommands:
    """A command group (``calibrate``, ``kary``, ...) whose subcommands are chosen by ``what``."""
    return commands.add_parser(name, help=text).add_subparsers(dest="what", required=True, parser_class=Parser)


def add_command(commands: Subcommands, name: str, handler: Handler, text: str) -> Parser:
    """A command with its handler and the ``--json`` option every command takes."""
    command = commands.add_parser(name, help=text, description=text)
    command.add_argument("--json", action="store_true", help="print JSON")
    command.set_defaults(handler=handler)
    return command


def add_epsilon(parser: Parser, *, required: bool = False, text: str | None = None) -> None:
    """``--epsilon``: a privacy parameter ε, an exact rational such as ``1/2`` or ``0.5``."""
    parser.add_argument("--epsilon", required=required, help=text or "ε, an exact rational (e.g. 1/2 or 0.5)")


def add_delta(parser: Parser, *, required: bool = False, default: str | None = None, text: str | None = None) -> None:
    """``--delta``: a privacy parameter δ, an exact rational such as ``1e-6``."""
    parser.add_argument("--delta", required=required, default=default, help=text or "δ, an exact rational (e.g. 1e-6)")


def add_seed(parser: Parser, *, required: bool = False) -> None:
    """``--seed``: a non-negative integer seed (without it, operating-system entropy where allowed)."""
    text = "seed (a non-negative integer)" if required else "seed (default: operating-system entropy)"
    parser.add_argument("--seed", type=nonnegative_int, required=required, help=text)


def add_subtraction(parser: Parser, *, default: bool, what: str = "Algorithm 2 (with subtraction)") -> None:
    """``--subtraction`` / ``--no-subtraction``: KARY's Algorithm 2 switch, one spelling for every command."""
    chosen = "on" if default else "off"
    parser.add_argument(
        "--subtraction",
        action=argparse.BooleanOptionalAction,
        default=default,
        help=f"{what}; --no-subtraction for Algorithm 1 (default: {chosen})",
    )


def nonnegative_int(text: str) -> int:
    """An argparse type: a non-negative integer."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {value}")
    return value


def vectors_option(text: str | None) -> list[list[str]] | None:
    """``--vectors "1,1,1;2,0"``: neighbouring-difference vectors separated by ';', entries by ','."""
    if text is None:
        return None
    vectors = [[entry.strip() for entry in part.split(",") if entry.strip()] for part in text.split(";")]
    if not vectors or any(not vector for vector in vectors):
        raise CommandError("--vectors must be comma-separated entries, vectors separated by ';' (e.g. '1,1,1;2')")
    return vectors


def read_stream(path: str) -> Any:
    """A 0/1 stream from a .npy file or a text file of 0/1 values separated by whitespace or commas."""
    import numpy as np

    try:
        if path.endswith(".npy"):
            return np.load(path)
        with open(path, encoding="utf-8") as handle:
            text = handle.read().replace(",", " ").split()
    except OSError as exc:
        raise CommandError(f"--input: cannot read {path!r}: {exc.strerror}") from None
    try:
        return np.array([int(token) for token in text], dtype=np.int64)
    except ValueError:
        raise CommandError(f"--input: {path!r} must hold 0/1 values separated by whitespace or commas") from None




def emit(result: dict[str, Any], as_json: bool) -> None:
    """Print a command's result: JSON with ``--json``, else one ``key: value`` line per entry (long values elided)."""
    payload = jsonable(result)
    if as_json:
        json.dump(payload, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return
    for key, value in payload.items():
        if isinstance(value, dict) and "decimal" in value:
            value = f"{value['decimal']} (certified interval: use --json)"
        elif isinstance(value, dict):
            compact = json.dumps(value, ensure_ascii=False)
            value = compact if len(compact) <= 400 else "{...} (use --json)"
        if isinstance(value, list) and value and isinstance(value[0], list) and len(value) > 8:
            value = f"[{len(value)} x {len(value[0])} matrix; use --json to print it]"
        elif isinstance(value, list) and len(value) > 16:
            value = f"[{len(value)} values; use --json or --out to get them]"
        print(f"{key}: {value}")
