"""Command line: ``reference COMMAND ...``, the console script (``python -m reference`` too, but not safely).

Prefer the console script: ``python -m`` searches the working folder first, so a ``reference.py`` there would run
instead (and exit 0).

Every command takes ``--json``. Exact rationals are printed as ``"p/q"`` strings, reals as decimal strings
with at least 15 significant digits. Bad input gives one line on stderr naming the parameter and a non-zero
exit status (2), never a traceback. This module only wires the command groups together; each group lives in
its own module (``calibrate``, ``audit``, ``kary``, ``inftda``, ``cascade``); ``report`` comes from the verification
of the papers through an entry point (:mod:`reference.cli.plugins`).
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Sequence
from fractions import Fraction

from reference.cli import audit, calibrate, cascade, inftda, kary, plugins
from reference.cli.common import (
    EXIT_DEFECT,
    CommandError,
    Parser,
    apply_input_types,
    check_output_options,
    emit,
    exit_status,
)
from reference.core.certified_errors import EnclosureRangeError, UndecidedComparisonError
from reference.core.verdict import EXIT_BAD_INPUT

GROUPS = (calibrate, audit, kary, inftda, cascade)


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser (public so that the README's examples can be tested against it)."""
    return _parser(with_plugins=True)[0]


def _parser(*, with_plugins: bool) -> tuple[argparse.ArgumentParser, frozenset[str]]:
    """The parser, with the plugins' commands or only the library's own, and the names of its commands."""
    parser = Parser(prog="reference", description=__doc__.splitlines()[0] if __doc__ else None)
    from reference.core.version import VERSION

    parser.add_argument("--version", action="version", version=f"reference {VERSION} (distribution exact-dp-reference)")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    if with_plugins:
        plugins.register(commands)  # `report`, from the verification of the papers (an entry point)
    for module in GROUPS:
        module.register(commands)
    apply_input_types(parser)
    return parser, frozenset(commands.choices or ())


def _option_of(args: argparse.Namespace, filename: object) -> str:
    """The option whose value is ``filename`` (to name it in an OS error), or "a file"."""
    if filename is None:
        return "a file"
    named = [key for key, value in vars(args).items() if isinstance(value, str) and value]
    for key in named:
        if str(filename) == getattr(args, key):
            return "--" + key.replace("_", "-")
    for key in named:
        if str(filename).startswith(getattr(args, key)) or getattr(args, key).startswith(str(filename)):
            return "--" + key.replace("_", "-")
    return "a file"


#: Longest error message printed (a message quoting a huge number is cut, not spread over the terminal).
MAX_MESSAGE = 400


def _fail(message: str, status: int = EXIT_BAD_INPUT) -> int:
    if len(message) > MAX_MESSAGE:
        message = message[: MAX_MESSAGE - 3] + "..."
    print(f"reference: error: {message}", file=sys.stderr)
    return status


def _extreme_options(argv: Sequence[str]) -> str:
    """The options typed with a number far from 1 (outside [1e-6, 1e6] in magnitude), as "--name value" text:
    what an out-of-range refusal from deep inside a computation should point the user at."""
    from reference.core.validate import parse_rational_text

    found = []
    # "--option=value" is one word: split it so both spellings are seen
    words = [part for word in argv for part in (word.split("=", 1) if word.startswith("--") else [word])]
    for option, value in itertools.pairwise(words):
        if not option.startswith("--"):
            continue
        try:
            number = abs(parse_rational_text(value, option))
        except (ValueError, TypeError):
            continue
        if number != 0 and not Fraction(1, 10**6) <= number <= 10**6:
            found.append(f"{option} {value}")
    return "; check " + ", ".join(found) if found else ""


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status (0 holds / done, 1 fails, 2 bad input, 3 inconclusive, 70 a defect).

    Args:
        argv: the command line after the program name, such as ``["calibrate", "gaussian", "--sensitivity", "1", ...]``
            (None, the default: ``sys.argv[1:]``).
    """
    # inputs are bounded (MAX_NUMBER_DIGITS, MAX_DECIMAL_EXPONENT), so exact outputs stay near 10**4 digits:
    # printing them is milliseconds, and Python's default guard of 4300 digits would only refuse valid results
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(max(sys.get_int_max_str_digits(), 200_000))
    typed = list(sys.argv[1:] if argv is None else argv)
    # a command of the library itself needs no plugin: the entry points (importlib.metadata and a scan of every
    # installed distribution, about 10 ms) are read only for another command word, --help or --version (a plugin
    # never parses a library command's word: the full parser adds the library's commands after the plugins', and
    # argparse refuses (3.11+) or replaces (3.10) the plugin's parser of that name)
    parser, own = _parser(with_plugins=False)
    if next((word for word in typed if not word.startswith("-")), None) not in own:
        missing = plugins.refusal(typed)
        if missing is not None:
            return _fail(missing)
        parser = build_parser()
    args = parser.parse_args(argv)
    try:
        check_output_options(args)
        result = args.handler(args)
        status = exit_status(result)
        emit(result, args.json)
    except UndecidedComparisonError as exc:  # extreme parameters: say so, never a traceback
        first = str(exc).splitlines()[0] if str(exc) else "a certified comparison"
        return _fail(f"not certified at the working precision (the parameters are too extreme for it): {first}"
                     + _extreme_options(typed))
    except EnclosureRangeError as exc:  # a refusal from deep inside: name the options that led there
        return _fail(str(exc).splitlines()[0] + _extreme_options(typed))
    except OverflowError as exc:  # a float conversion deep inside ("too large for a float"): name the options
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return _fail(f"a value is too large for this computation ({first})" + _extreme_options(typed))
    except (ValueError, TypeError, CommandError) as exc:
        return _fail(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
    except BrokenPipeError:  # the reader went away (``| head``): nothing more to say
        sys.stderr.close()
        return 0
    except OSError as exc:
        return _fail(f"{_option_of(args, exc.filename)}: cannot use {exc.filename!r}: {exc.strerror or exc}")
    except RecursionError:
        return _fail("an input file is nested too deeply to read")
    except MemoryError:
        return _fail("out of memory: the parameters need more memory than this machine has", EXIT_DEFECT)
    except KeyboardInterrupt:
        print("reference: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        return _fail(f"internal error ({type(exc).__name__}: {exc}); please report it", EXIT_DEFECT)
    return status


if __name__ == "__main__":
    sys.exit(main())
