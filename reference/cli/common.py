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
import os
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NoReturn, TypeAlias

from reference.cli.human_layout import human_lines
from reference.core.exact_text import message_value
from reference.core.json_form import jsonable
from reference.core.validate import parse_integer_text, parse_rational_text
from reference.core.verdict import EXIT_BAD_INPUT, EXIT_STATUS

#: A defect of this program (an exception no input should cause); the fuzz harness counts these.
EXIT_DEFECT = 70

#: A command's handler: parsed arguments in, a JSON-able result out (its ``verdict`` sets the exit code through
#: :data:`EXIT_STATUS`; a result without a verdict may set ``exit_status`` itself, as the report does).
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
        """Exit with status 2 after one line on stderr, ``<prog>: error: <message>``, without argparse's usage
        block.

        Args:
            message: argparse's description of what is wrong with the command line, printed after ``<prog>: error:`` on
                one line of stderr (exit status 2).
        """
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")


def exit_status(result: dict[str, Any]) -> int:
    """The exit status of a handler's result: from its verdict (:data:`EXIT_STATUS`), else its ``exit_status``
    (the report's CI signal), else 0; a result with a verdict gets its ``exit_status`` written in.

    Args:
        result: the JSON-able dictionary a command's handler returned; its ``verdict`` (``"holds"``, ``"fails"``,
            ``"inconclusive"``) or else its ``exit_status`` key decides the status (written into it when a verdict is
            there).
    """
    if not isinstance(result, dict):
        return 0
    if "verdict" in result:
        result["exit_status"] = EXIT_STATUS[result["verdict"]]
    return int(result.get("exit_status", 0))


def group(commands: Subcommands, name: str, text: str) -> Subcommands:
    """A command group (``calibrate``, ``kary``, ...) whose subcommands are chosen by ``what``.

    Args:
        commands: the subcommands of the parser the group is added to (what ``add_subparsers`` returned).
        name: the group's command word, such as ``"calibrate"`` or ``"kary"``.
        text: the group's help text, shown by ``reference --help``.
    """
    return commands.add_parser(name, help=text).add_subparsers(dest="what", required=True, parser_class=Parser)


def add_command(commands: Subcommands, name: str, handler: Handler, text: str) -> Parser:
    """A command with its handler and the ``--json`` option every command takes.

    Args:
        commands: the subcommands of the group (or of the top parser) the command is added to.
        name: the command word, such as ``"cascade"``.
        handler: the function that takes the parsed ``argparse.Namespace`` and returns the JSON-able result (set as the
            Namespace's ``handler``).
        text: the command's help and description text.
    """
    command = commands.add_parser(name, help=text, description=text)
    command.add_argument("--json", action="store_true", help="print JSON")
    command.set_defaults(handler=handler)
    return command


def add_epsilon(parser: Parser, *, required: bool = False, text: str | None = None) -> None:
    """``--epsilon``: a privacy parameter ε, an exact rational such as ``1/2`` or ``0.5``.

    Args:
        parser: the command's parser (from :func:`add_command`) the option is added to.
        required: whether the command refuses to run without the option (default False).
        text: the option's help text (None: the generic "ε, an exact rational (e.g. 1/2 or 0.5)").
    """
    parser.add_argument("--epsilon", required=required, help=text or "ε, an exact rational (e.g. 1/2 or 0.5)")


def add_delta(parser: Parser, *, required: bool = False, default: str | None = None, text: str | None = None) -> None:
    """``--delta``: a privacy parameter δ, an exact rational such as ``1e-6``.

    Args:
        parser: the command's parser (from :func:`add_command`) the option is added to.
        required: whether the command refuses to run without the option (default False).
        default: the text ``args.delta`` holds when the option is not given (None, the default: absent, as pure DP).
        text: the option's help text (None: the generic "δ, an exact rational (e.g. 1e-6)").
    """
    parser.add_argument("--delta", required=required, default=default, help=text or "δ, an exact rational (e.g. 1e-6)")


def add_seed(parser: Parser, *, required: bool = False) -> None:
    """``--seed``: a non-negative integer seed (without it, operating-system entropy where allowed).

    Args:
        parser: the command's parser (from :func:`add_command`) the option is added to.
        required: whether the command refuses to run without the option (default False); when False, an absent
            ``--seed`` means operating-system entropy.
    """
    text = "seed (a non-negative integer)" if required else "seed (default: operating-system entropy)"
    parser.add_argument("--seed", type=nonnegative_int, required=required, help=text)


def add_subtraction(parser: Parser, *, default: bool, what: str = "Algorithm 2 (with subtraction)") -> None:
    """``--subtraction`` / ``--no-subtraction``: KARY's Algorithm 2 switch, one spelling for every command.

    Args:
        parser: the command's parser (from :func:`add_command`) the option is added to.
        default: the value of ``args.subtraction`` when neither spelling is given: True for Algorithm 2, False for
            Algorithm 1.
        what: what ``--subtraction`` turns on, for the help text (default ``"Algorithm 2 (with subtraction)"``).
    """
    chosen = "on" if default else "off"
    parser.add_argument(
        "--subtraction",
        action=argparse.BooleanOptionalAction,
        default=default,
        help=f"{what}; --no-subtraction for Algorithm 1 (default: {chosen})",
    )


def nonnegative_int(text: str) -> int:
    """An argparse type: a non-negative integer in ASCII digits (no ``٣``, ``１２`` or ``1_000``).

    Args:
        text: the option's value as typed on the command line.
    """
    try:
        value = parse_integer_text(text, "the value")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer: {exc}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {message_value(value)}")
    return value


def signed_int(text: str) -> int:
    """An argparse type: an integer in ASCII digits with an optional sign.

    Args:
        text: the option's value as typed on the command line.
    """
    try:
        return parse_integer_text(text, "the value")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"expected an integer: {exc}") from None


def rational(text: str) -> str:
    """An argparse type: an exact rational (ASCII decimal, ``p/q``, scientific notation), checked here and
    passed on as the text the library reads with the same rules.

    Args:
        text: the option's value as typed on the command line: an ASCII decimal, ``p/q`` or scientific notation
            (surrounding whitespace is dropped).
    """
    try:
        parse_rational_text(text, "the value")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text.strip()


#: Options whose value is an exact rational, in every command that has them.
RATIONAL_OPTIONS = frozenset({
    "epsilon", "delta", "rho", "sigma", "sigma_squared", "scale", "l1", "l2", "l2_squared", "sensitivity",
    "sensitivity_squared", "alpha", "total",
})


def apply_input_types(parser: argparse.ArgumentParser) -> None:
    """Give every rational option of every command the one number reader (so no command can forget it).

    Args:
        parser: the top-level parser; every command below it (through its subparsers, recursively) is visited.
    """
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                apply_input_types(sub)
        elif action.dest in RATIONAL_OPTIONS and action.type is None:
            action.type = rational


#: Most entries a comma-separated list option takes (longer inputs belong in a file).
MAX_LIST_ENTRIES = 100_000


def _entries(text: str, option: str, example: str) -> list[str]:
    entries = [entry.strip() for entry in text.split(",")]
    if len(entries) > MAX_LIST_ENTRIES:
        raise CommandError(f"{option} has {len(entries)} entries; at most {MAX_LIST_ENTRIES} are accepted")
    if any(not entry for entry in entries):
        raise CommandError(f"{option} must be comma-separated entries with none empty (e.g. '{example}'), got {text!r}")
    return entries


def integer_list(text: str, option: str) -> list[int]:
    """A comma-separated list of ASCII integers (negative entries as typed), every entry present.

    Args:
        text: the option's value as typed, such as ``"3,-1,5"`` (at most MAX_LIST_ENTRIES = 100,000 entries, none
            empty).
        option: the option's name as the user typed it (``"--values"``), named in the refusal.
    """
    try:
        return [parse_integer_text(entry, option) for entry in _entries(text, option, "3,-1,5")]
    except ValueError as exc:
        raise CommandError(str(exc)) from None


def vectors_option(text: str | None) -> list[list[str]] | None:
    """``--vectors "1,1,1;2,0"``: neighbouring-difference vectors separated by ';', entries by ','; each entry an
    exact rational.

    Args:
        text: the value of ``--vectors`` as typed, such as ``"1,1,1;2,0"`` (None: the option was not given, and None is
            returned).
    """
    if text is None:
        return None
    vectors = [_entries(part, "--vectors", "1,1,1;2") for part in text.split(";")]
    for vector in vectors:
        for entry in vector:
            try:
                parse_rational_text(entry, "--vectors entry")
            except ValueError as exc:
                raise CommandError(str(exc)) from None
    return vectors


def read_stream(path: str) -> Any:
    """A 0/1 stream from a .npy file or a text file of 0/1 values separated by whitespace or commas.

    Args:
        path: the value of ``--input``: a ``.npy`` file (read by its checked header) or a text file of 0/1 values
            separated by whitespace or commas.
    """
    import numpy as np

    from reference.core.input_files import read_regular_bytes
    from reference.core.npy_files import load_npy_bytes

    try:
        # a FIFO, a device, a link to one, or a file over the size bound is refused before a byte is read
        data = read_regular_bytes(path, name="--input")
        if path.endswith(".npy"):
            # the header is checked against the bytes first: a forged shape is refused, never allocated
            return load_npy_bytes(data, "--input")
        text = data.decode("utf-8").replace(",", " ").split()
        if not text:
            raise ValueError(f"--input: {path!r} holds no value (a stream needs at least one 0/1 value)")
    except UnicodeDecodeError:
        raise CommandError(f"--input: {path!r} is not UTF-8 text") from None
    except ValueError as exc:
        raise CommandError(str(exc).splitlines()[0] if str(exc) else f"--input: cannot read {path!r}") from None
    try:
        return np.array([int(token) for token in text], dtype=np.int64)
    except (ValueError, OverflowError):  # a word, or an integer past int64 ("too large to convert to C long")
        raise CommandError(f"--input: {path!r} must hold 0/1 values separated by whitespace or commas") from None




@contextmanager
def option_names(names: dict[str, str]) -> Iterator[None]:
    """Refusals of a library call that name its parameters (``l2_sensitivity_squared``) name the options the
    user typed instead (``--l2-squared``): ``names`` maps each parameter to its option; longer names first, so
    ``l2_sensitivity_squared`` is not read as ``l2_sensitivity`` + ``_squared``.

    Args:
        names: library parameter name -> the option the user typed for it, such as
            ``{"l2_sensitivity_squared": "--l2-squared"}``.
    """
    try:
        yield
    except CommandError:
        raise
    except ValueError as exc:
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        for name in sorted(names, key=len, reverse=True):
            message = re.sub(rf"\b{re.escape(name)}\b", names[name], message)
        raise CommandError(message) from None


@contextmanager
def reading(option: str, path: str) -> Iterator[None]:
    """Read an input file for ``option``: every OS, encoding, format and shape error becomes one line naming
    the option and the file (the one loader policy of every command).

    Args:
        option: the option the file was given to (``"--noise-matrix"``), named in every refusal.
        path: the file's path as the user typed it (an empty or blank path is refused at once).
    """
    if not path.strip():
        raise CommandError(f"{option} must name a file, got an empty string")
    try:
        yield
    except CommandError:
        raise
    except OSError as exc:
        raise CommandError(f"{option}: cannot read {path!r}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise CommandError(f"{option}: {path!r} is not UTF-8 text") from None
    except RecursionError:
        raise CommandError(f"{option}: {path!r} is nested too deeply") from None
    except (ValueError, TypeError, EOFError, KeyError, IndexError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise CommandError(f"{option}: {path!r}: {first}") from None


#: The largest --max-seconds accepted (a day): a larger budget is a typo or a hang by request.
MAX_TIME_LIMIT = 86_400


def time_limit(text: str) -> int:
    """An argparse type: ``--max-seconds``, a non-negative integer of at most :data:`MAX_TIME_LIMIT`.

    Args:
        text: the value of ``--max-seconds`` as typed.
    """
    value = nonnegative_int(text)
    if value > MAX_TIME_LIMIT:
        raise argparse.ArgumentTypeError(f"at most {MAX_TIME_LIMIT} seconds (a day) are accepted, got {message_value(value)}")
    return value


def add_time_limit(parser: Parser, default: int = 20) -> None:
    """``--max-seconds``: refuse work estimated to take longer (the estimate is printed with the refusal).

    Args:
        parser: the command's parser (from :func:`add_command`) the option is added to.
        default: the limit when ``--max-seconds`` is not given, in seconds (default 20).
    """
    parser.add_argument(
        "--max-seconds", type=time_limit, default=default,
        help=f"refuse work estimated to take longer than this on two cores (default {default}, at most a day)",
    )


def refuse_if_costly(what: str, estimate: float, limit: float, unit: str, flag: str) -> None:
    """Cost before work: refuse when the estimate exceeds the limit, saying both and the flag that raises it.

    A time estimate (measured on idle cores) is scaled by the machine's load — the run-queue length per core,
    between 1 and MAX_LOAD_FACTOR — since a command on a shared machine gets only its share of a core: a
    limit of 20 s must hold where the command runs, not where it was measured.

    Args:
        what: the work, as the refusal names it (cut to 150 characters when longer than 160).
        estimate: its estimated cost in ``unit`` (a time measured on idle cores, scaled here by the machine's load).
        limit: the largest cost accepted, in ``unit`` (the value of the option ``flag``).
        unit: the unit of ``estimate`` and ``limit``, as the refusal prints it: ``"seconds"`` (then scaled by the
            load) or any other unit, compared as given.
        flag: the option that raises the limit, named in the refusal (``"--max-seconds"``).
    """
    factor = load_factor() if unit == "seconds" else 1.0
    if estimate * factor > limit:
        if len(what) > 160:  # a huge horizon in the description: keep the line readable
            what = what[:150] + "..."
        shared = f" (on this machine, loaded {factor:.1f} times its cores)" if factor > 1 else ""
        raise CommandError(
            f"{what} is estimated at {estimate * factor:.3g} {unit}{shared}, over the limit of {limit:g} {unit}; "
            f"raise it with {flag} if you mean it"
        )


#: Largest slow-down a time estimate is scaled by for a loaded machine.
MAX_LOAD_FACTOR = 4.0


def load_factor() -> float:
    """The one-minute load average per core, clamped to [1, MAX_LOAD_FACTOR] (1 where it is unknown)."""
    try:
        load = os.getloadavg()[0] / (os.cpu_count() or 1)
    except (OSError, AttributeError):
        return 1.0
    return min(max(load, 1.0), MAX_LOAD_FACTOR)


def refuse_foreign(
    args: argparse.Namespace, owners: dict[str, set[str]], defaults: dict[str, object] | None = None
) -> None:
    """Refuse options that belong to another ``--mechanism`` than the one chosen (a user who gives ``--sigma``
    to a Laplace audit meant something by it: say so rather than ignore it). ``defaults``: values that mean
    "not given" for options with a default.

    Args:
        args: the parsed command line; ``args.mechanism`` is the ``--mechanism`` chosen and each owned option is read as
            its ``dest`` attribute.
        owners: mechanism -> the ``dest`` names of the options that belong to it (every mechanism of ``--mechanism``
            must be a key).
        defaults: ``dest`` name -> the value that means "not given" for an option with a default (None: only None means
            not given).
    """
    unset = defaults or {}
    owned = set().union(*owners.values()) - owners[args.mechanism]
    given = [name for name in sorted(owned) if getattr(args, name) not in (None, unset.get(name))]
    if given:
        names = ", ".join(f"--{name.replace('_', '-')}" for name in given)
        raise CommandError(f"{names} do(es) not apply to --mechanism {args.mechanism}")


def check_output_options(args: argparse.Namespace) -> None:
    """Refuse an unusable ``--out`` before any work: a report folder, or a file whose folder exists (and of the
    type the command writes, when its parser sets ``out_suffix``).

    Args:
        args: the parsed command line; reads ``args.out`` (absent or None: nothing to check), ``args.command``
            (``"report"`` wants a folder) and ``args.out_suffix`` (the file type a command writes, when its parser sets
            it).
    """
    import os

    out = getattr(args, "out", None)
    if out is None:
        return
    if not out.strip():
        raise CommandError("--out must be a path, got an empty string")
    folder_wanted = args.command == "report"
    if folder_wanted:
        if os.path.exists(out) and not os.path.isdir(out):
            raise CommandError(f"--out must be a folder for the report, and {out!r} is a file")
        try:
            os.makedirs(out, exist_ok=True)
        except OSError as exc:
            raise CommandError(f"--out: cannot create the folder {out!r}: {exc.strerror or exc}") from None
        parent = out
    else:
        if os.path.isdir(out):
            raise CommandError(f"--out must be a file path, and {out!r} is a folder")
        suffix = getattr(args, "out_suffix", None)  # the file type a command writes (set_defaults)
        if suffix is not None and not out.endswith(suffix):
            raise CommandError(f"--out must name a {suffix} file")
        parent = os.path.dirname(os.path.abspath(out))
        if not os.path.isdir(parent):
            raise CommandError(f"--out: the folder {parent!r} does not exist")
    if not os.access(parent, os.W_OK):
        raise CommandError(f"--out: the folder {parent!r} is not writable")


def emit(result: dict[str, Any], as_json: bool) -> None:
    """Print a command's result: JSON with ``--json``, else the human layout of
    :func:`~reference.cli.human_layout.human_lines`.

    Args:
        result: the JSON-able dictionary a command's handler returned (Fractions and tuples are converted by
            :func:`~reference.core.json_form.jsonable`).
        as_json: True (``--json``): print indented JSON; False: print the human layout.
    """
    payload = jsonable(result)
    if as_json:
        json.dump(payload, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return
    for line in human_lines(payload):
        print(line)
