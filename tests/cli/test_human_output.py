"""Every command's output without ``--json`` reads like a tool's: aligned ``key: value`` lines, lists and nested
values as indented lines, exact fractions with their decimal beside them, and nothing printed as Python prints it
(no ``None``, ``True``, ``[{``, ``{'`` or ``['``). The commands are every documented one of docs/cli.md (run
through ``main``, in a folder holding the inputs that page makes first), so a new command is covered when it is
documented."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from reference.cli.human_layout import human_lines
from reference.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
CLI_PAGE = ROOT / "docs" / "cli.md"
#: Documented commands left out here: the report (minutes), a function audit (imports a module the page writes)
#: and a sample of 2**20 leaves (seconds of drawing; the 16-leaf sample is run).
SKIPPED = ("reference report", "sampler-function", "--depth 20")
PYTHON_REPR = re.compile(r"\bNone\b|\bTrue\b|\bFalse\b|\[\{|\{'|\['")
KEY_LINE = re.compile(r"^(?P<indent>(?: {2}|- )*)(?P<key>[^\s:-][^:]*?):(?P<gap> +)(?P<value>\S.*)$")


def _documented_commands() -> tuple[list[str], list[list[str]]]:
    """The page's input-making lines and its ``reference ...`` lines (as argument lists, without ``reference``)."""
    text = CLI_PAGE.read_text(encoding="utf-8")
    inputs = [line for line in text.splitlines() if line.startswith("printf ")]
    commands = []
    for line in text.splitlines():
        if line.startswith("reference ") and not any(skip in line for skip in SKIPPED):
            words = shlex.split(line.split("||")[0].split("#")[0])
            commands.append([word for word in words[1:] if word != "--json"])
    return inputs, commands


INPUTS, COMMANDS = _documented_commands()


@pytest.fixture(scope="module")
def inputs_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("inputs")
    for line in INPUTS:  # printf 'text' > name
        text, name = re.fullmatch(r"printf '(.*)' > (\S+)", line).groups()  # type: ignore[union-attr]
        (folder / name).write_text(text.encode().decode("unicode_escape"), encoding="utf-8")
    return folder


def _human(argv: list[str], folder: Path, capsys: pytest.CaptureFixture[str],
           monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.chdir(folder)
    status = main(argv)
    assert status in (0, 1, 3), f"{argv}: exit {status}: {capsys.readouterr().err}"
    return capsys.readouterr().out


def _misaligned(lines: list[str]) -> list[str]:
    """Lines whose value does not start in the column of the other values of their block (the entries of one
    mapping: the lines of one indentation between two lines of a smaller one)."""
    columns: dict[int, int] = {}  # indentation -> the value column of the block open at it
    wrong = []
    for line in lines:
        indent = len(line) - len(line.lstrip(" -"))
        for deeper in [level for level in columns if level > indent]:
            del columns[deeper]
        match = KEY_LINE.match(line)
        if match is None:
            continue
        column = match.start("value")
        if line.lstrip(" ").startswith("- "):  # a list item opens a new mapping
            columns[indent] = column
        elif columns.setdefault(indent, column) != column:
            wrong.append(line)
    return wrong


@pytest.mark.parametrize("argv", COMMANDS, ids=[" ".join(argv[:2]) + f" #{n}" for n, argv in enumerate(COMMANDS)])
def test_a_documented_command_prints_the_one_human_layout(argv: list[str], inputs_folder: Path,
                                                         capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    out = _human(argv, inputs_folder, capsys, monkeypatch)
    lines = out.splitlines()
    assert lines, f"{argv} printed nothing"
    reprs = [line for line in lines if PYTHON_REPR.search(line)]
    assert not reprs, f"{argv} prints a Python repr: {reprs[:3]}"
    assert KEY_LINE.match(lines[0]) or lines[0].endswith(":"), f"{argv}: the first line is no `key: value`"
    for line in lines:  # each line: a `key: value`, a key above its indented value, or an indented entry
        assert KEY_LINE.match(line) or line.rstrip().endswith(":") or line.startswith(" "), f"{argv}: {line!r}"
    assert not _misaligned(lines), f"{argv}: values out of column: {_misaligned(lines)[:3]}"


def test_the_documented_set_is_representative() -> None:
    groups = {tuple(argv[:2]) for argv in COMMANDS}
    for expected in [("calibrate", "gaussian"), ("audit", "calibration"), ("audit", "linear-noise"),
                     ("audit", "samplers"), ("kary", "vertices"), ("inftda", "run"), ("cascade", "ranges")]:
        assert expected in groups


def test_calibrate_gaussian_prints_the_recommended_sigma_first_and_names_it(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    argv = ["calibrate", "gaussian", "--sensitivity", "1", "--epsilon", "1/2", "--delta", "1e-6"]
    lines = _human(argv, tmp_path, capsys, monkeypatch).splitlines()
    assert lines[0].startswith("recommended_sigma:") and lines[1].split(":", 1)[1].strip().startswith("sigma_exact")
    exact = next(line for line in lines if line.startswith("sigma_exact:"))
    assert lines[0].split(":", 1)[1].strip() == exact.split(":", 1)[1].strip()
    classical = next(line for line in lines if line.startswith("sigma_classical:"))
    # the classical σ = sqrt(2 ln(1.25e6))/(1/2) = 10.5976...: larger than the recommended one
    assert float(classical.split()[1]) > float(lines[0].split()[1])


def test_the_layout_of_each_kind_of_value() -> None:
    payload = {
        "third": "1/3", "millionth": "1/1000000", "whole": "7", "absent": None, "flag": True,
        "certified": {"lower": "1/3", "upper": "1/2", "decimal": "0.50000000000000000000", "rounded": "up"},
        "enclosure": {"lower": "1/3", "upper": "2/3"},
        "digits": [2, 1, 0], "nothing": [], "rows": [[1, 0], [-1, 1]],
        "checks": [{"property": "marginals", "failures": []}],
        "huge": "1" * 30 + "/" + "3" * 30,
    }
    lines = human_lines(json.loads(json.dumps(payload)))
    assert lines == [
        "third:     1/3 ≈ 0.33333333333333333",
        "millionth: 1/1000000 = 0.000001",
        "whole:     7",
        "flag:      yes",
        "certified: 0.50000000000000000000 (rounded up)",
        "enclosure: in [0.33333333333333333, 0.66666666666666667] (an enclosure, rounded outward)",
        "digits:    2, 1, 0",
        "nothing:   none",
        "rows:",
        "   1  0",
        "  -1  1",
        "checks:",
        "  - property: marginals",
        "    failures: none",
        "huge:      ≈ 0.33333333333333333 (an exact fraction of 61 characters: use --json)",
    ]


def test_a_rounding_direction_joins_its_value() -> None:
    assert human_lines({"sigma": "8.05", "sigma_rounded": "up", "paper_rounded": "up"}) == ["sigma: 8.05 (rounded up)"]


def test_the_gaussian_audit_takes_either_spelling_of_the_sensitivity(capsys: pytest.CaptureFixture[str]) -> None:
    claim = ["audit", "calibration", "--mechanism", "gaussian", "--sigma", "6", "--epsilon", "1", "--delta", "1e-5"]
    assert main([*claim, "--sensitivity", "2", "--json"]) == 1
    by_delta = json.loads(capsys.readouterr().out)
    assert main([*claim, "--sensitivity-squared", "4", "--json"]) == 1
    assert json.loads(capsys.readouterr().out) == by_delta  # Δ = 2 is Δ² = 4


@pytest.mark.parametrize(("argv", "named"), [
    (["calibrate", "gaussian", "--sensitivity-squared", "4", "--epsilon", "1", "--delta", "1e-5"], "--sensitivity"),
    (["audit", "calibration", "--mechanism", "gaussian", "--sigma", "6", "--sensitivity", "2",
      "--sensitivity-squared", "4", "--epsilon", "1", "--delta", "1e-5"], "--sensitivity-squared"),
    (["audit", "calibration", "--mechanism", "gaussian", "--sigma", "6", "--epsilon", "1", "--delta", "1e-5"],
     "--sensitivity"),
])
def test_a_refused_sensitivity_names_the_accepted_spelling(argv: list[str], named: str,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and named in error
