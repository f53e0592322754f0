"""Every command's ``--json`` output has a JSON Schema (reference.cli.schemas), and every documented command's
output validates against it; the schemas reject what a reader must never receive (a float where an exact rational
is promised, a verdict with another verdict's exit status, a required key missing)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from reference.cli.main import build_parser, main
from reference.cli.schemas import COMMANDS, output_schema
from tests.cli.test_human_output import COMMANDS as DOCUMENTED
from tests.cli.test_human_output import inputs_folder  # noqa: F401 (a fixture)


def _commands(parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()) -> list[str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return [name for key, sub in action.choices.items() for name in _commands(sub, (*prefix, key))]
    return [" ".join(prefix)]


def _errors(command: str, document: object) -> list[str]:
    validator = Draft202012Validator(output_schema(command))
    return [f"{'/'.join(map(str, error.absolute_path))}: {error.message}" for error in validator.iter_errors(document)]


def test_every_command_has_a_valid_schema() -> None:
    assert sorted(_commands(build_parser())) == sorted(COMMANDS)
    for command in COMMANDS:
        Draft202012Validator.check_schema(output_schema(command))


def _json(argv: list[str], folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> object:
    monkeypatch.chdir(folder)
    assert main([*argv, "--json"]) in (0, 1, 3), capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("argv", DOCUMENTED, ids=[" ".join(argv[:2]) + f" #{n}" for n, argv in enumerate(DOCUMENTED)])
def test_a_documented_command_output_validates(argv: list[str], inputs_folder: Path,  # noqa: F811
                                               capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    command = " ".join(argv[:2])
    assert _errors(command, _json(argv, inputs_folder, capsys, monkeypatch)) == []


def test_the_height_audit_output_validates(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "my_height.py").write_text("def height(horizon):\n    return 1\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    document = _json(["audit", "height", "--function", "my_height:height", "--arity", "3"], tmp_path, capsys,
                     monkeypatch)
    assert _errors("audit height", document) == []


@pytest.mark.parametrize(("command", "document"), [
    ("kary mse", {"arity": 3, "horizon": 10, "algorithm": "x", "height": 3, "mse_times_epsilon_squared": 0.5,
                  "mse_times_epsilon_squared_decimal": "0.5", "mse_times_epsilon_squared_decimal_rounded": "up"}),
    ("audit calibration", {"verdict": "holds", "summary": "s", "exit_status": 1}),
    ("audit calibration", {"verdict": "maybe", "summary": "s", "exit_status": 0}),
    ("cascade ranges", {"depth": 2}),
    ("calibrate gaussian", {}),
])
def test_a_schema_refuses_a_malformed_document(command: str, document: object) -> None:
    assert _errors(command, document)


def test_an_unknown_command_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(ValueError, match="command must be one of report, calibrate cascade"):
        output_schema("calibrate nothing")
