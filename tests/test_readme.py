"""Every code block of the README runs as written, against the package as it is laid out now.

Python blocks: each block runs on its own, in a fresh namespace (a reader may start at any section, so a name
one block uses must be defined in that block), statement by statement as the interactive interpreter runs it:
the value of each expression statement is shown, so each shown value must be short enough to read.

Command blocks: every ``python -m reference ...`` line runs (through ``main``, the function behind
``python -m reference``), as written and with its optional ``[...]`` parts, in a fresh folder holding the input
files the README names (written here with the contents their commands expect) and must give its documented exit
status. Two lines are left to CI: ``pip install`` (``.ci/run`` installs from scratch) and ``report`` (``.ci/run``
runs it on the quick budget; the full budget takes minutes).
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import re
import shlex
from pathlib import Path

import numpy as np
import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
TEXT = README.read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", TEXT, flags=re.DOTALL)
SHELL_BLOCKS = re.findall(r"```sh\n(.*?)```", TEXT, flags=re.DOTALL)
COMMAND_LINES = [
    line for block in SHELL_BLOCKS for line in block.splitlines() if line.startswith("python -m reference ")
]
COMMANDS = [line.split("  #", 1)[0].strip() for line in COMMAND_LINES]
#: An exit status the README states in a line's comment ("# fails, exit 1"), by command.
STATED_EXIT = {
    line.split("  #", 1)[0].strip(): {int(found)}
    for line in COMMAND_LINES
    if "  #" in line and (found := (re.findall(r"exit (\d)", line.split("  #", 1)[1]) or [None])[0]) is not None
}
#: The longest value a README line may show: a value a reader can take in (a 256×256 matrix of Fractions, about
#: a million characters, is not).
LONGEST_SHOWN = 2000
#: The most a README command may print on the terminal (the largest, ``cascade matrix --depth 3 --json``, prints
#: about 2,000 characters; ``cascade sample --depth 20`` without ``--out`` would print millions).
LONGEST_PRINTED = 10_000


def _run_like_the_interpreter(block: str, name: str) -> list[str]:
    """Run ``block`` statement by statement in a fresh namespace; return what the interpreter would show
    (the repr of each expression statement's value other than None, and everything printed)."""
    namespace: dict[str, object] = {"__name__": "__main__"}
    shown: list[str] = []
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        for statement in ast.parse(block, filename=name).body:
            if isinstance(statement, ast.Expr):
                value = eval(compile(ast.Expression(statement.value), name, "eval"), namespace)
                if value is not None:
                    shown.append(repr(value))
            else:
                exec(compile(ast.Module([statement], type_ignores=[]), name, "exec"), namespace)
    return [*shown, printed.getvalue()]


def test_the_readme_has_a_python_tour_and_commands() -> None:
    assert len(BLOCKS) >= 4
    assert len(COMMANDS) >= 20


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("number", range(1, len(BLOCKS) + 1))
def test_python_block_runs_on_its_own(number: int) -> None:
    name = f"README.md python block {number}"
    try:
        shown = _run_like_the_interpreter(BLOCKS[number - 1], name)
    except Exception as error:  # name the block, so a broken line of the tour is easy to find
        pytest.fail(f"{name} raised {type(error).__name__}: {error}")
    longest = max(shown, key=len)
    assert len(longest) <= LONGEST_SHOWN, f"{name} shows a value of {len(longest):,} characters: {longest[:80]}…"


def _variants(command: str) -> list[list[str]]:
    """The command's words without its optional ``[...]`` parts, and with all of them."""
    bare = shlex.split(re.sub(r"\[[^\]]*\]", "", command))[3:]
    full = shlex.split(command.replace("[", "").replace("]", ""))[3:]
    return [bare] if full == bare else [bare, full]


def _write_inputs(folder: Path, command: str) -> None:
    """The input files ``command`` reads, as a user would bring them (noise drawn from the right design)."""
    from reference.cip.numeric.cascade import cascade_leaves
    from reference.kary.counters import algorithm_1
    from reference.samplers import numeric
    from reference.tda.calibration import inftda_sigma_squared
    from reference.tda.data import default_dataset, expand_records, prefix_counts, write_csv

    rng = np.random.default_rng(11)
    size = 3  # B.json is the identity on 3 cells, W.json the 3 prefix sums; Laplace(3) noise of variance 18
    (folder / "B.json").write_text(json.dumps([[str(int(i == j)) for j in range(size)] for i in range(size)]))
    (folder / "W.json").write_text(json.dumps([[str(int(j <= i)) for j in range(size)] for i in range(size)]))
    (folder / "C.json").write_text(json.dumps([[str(18 * int(i == j)) for j in range(size)] for i in range(size)]))
    (folder / "stream.txt").write_text("1 0 1 1 0 1 0 0 1 1\n")
    hierarchy, records = default_dataset(size=500, seed=4)
    write_csv(folder / "records.csv", hierarchy, expand_records(prefix_counts(records, hierarchy), hierarchy))
    runs = 200
    if "--mechanism cascade" in command:
        noise = np.array([cascade_leaves(10, sigma=2.5, rng=rng) for _ in range(runs)])
    elif "--mechanism kary" in command:  # Algorithm 1 on an all-zero stream outputs its noise alone
        noise = np.array([algorithm_1(np.zeros(15, dtype=np.int64), 4, 1, rng=rng) for _ in range(runs)])
    else:
        noise = rng.laplace(0.0, 3.0, size=(runs, size))
    np.save(folder / "noise.npy", noise)
    np.save(folder / "draws.npy", numeric.discrete_gaussian(9, 2000, rng))
    np.save(folder / "level.npy", numeric.discrete_gaussian(inftda_sigma_squared(5, rho="1/2", contributions=2), 2000, rng))


def _expected(command: str) -> set[int]:
    """Documented exit statuses: 0 done or holds, 1 fails, 3 too few runs to decide (2 bad input never)."""
    if command in STATED_EXIT and "audit samplers" not in command:
        return STATED_EXIT[command]
    if "--mechanism gaussian --sigma 3 " in command:
        return {1}  # the README's failing example: δ(1) = 2.1e-4 > 1e-5
    if command.startswith("python -m reference audit samplers"):
        return {0, 3}  # samples drawn from the right design: holds, or too few runs for the tests
    return {0}


#: Lines the README marks as long ("# long: not run by the tests"): parsed, not run.
LONG = {line.split("  #", 1)[0].strip() for line in COMMAND_LINES if "  # long" in line}


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize(
    "command", [c for c in COMMANDS if not c.startswith("python -m reference report") and c not in LONG]
)
def test_command_runs_as_written(command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from reference.cli.main import main

    monkeypatch.chdir(tmp_path)
    _write_inputs(tmp_path, command)
    for words in _variants(command):
        printed, errors = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(errors):
            try:
                status = main(words)
            except SystemExit as stop:  # argparse refusing the words
                pytest.fail(f"README command does not parse (exit {stop.code}): {' '.join(words)}")
        assert status in _expected(command), f"exit {status}: {' '.join(words)}: {errors.getvalue().strip()}"
        # a terminal is not a file: large results go to --out
        length = len(printed.getvalue())
        assert length <= LONGEST_PRINTED, f"{' '.join(words)} prints {length:,} characters"


def test_report_command_parses() -> None:
    from reference.cli.main import build_parser

    for command in COMMANDS:
        if command.startswith("python -m reference report") or command in LONG:  # parsed, not run
            for words in _variants(command):
                build_parser().parse_args([word.replace("DIR", "out") for word in words])
