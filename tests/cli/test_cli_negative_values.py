"""Every option that takes a value accepts one that starts with a minus sign: comma lists, fractions, exponents.

argparse's default reads a token such as ``-5,-5`` as an unknown option; the command line's parser reads every
token that starts with a minus sign and a digit as a value. Checked end to end for the commands that take comma
lists and, for every value-taking option of every command, at the parser.
"""

from __future__ import annotations

import argparse
import json

import pytest

from reference.cli.main import build_parser, main

NEGATIVE_TOKENS = ("-5,-5", "-1/2", "-1e-6", "-1,1;2,-3", "-.5", "-0")


def _leaf_parsers(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    found: list[tuple[tuple[str, ...], argparse.ArgumentParser]] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                found.extend(_leaf_parsers(child, (*path, name)))
    return found or [(path, parser)]


def test_intopt_accepts_negative_entries(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inftda", "intopt", "--values", "-5,-5", "--total", "1", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["values"] == [-5, -5]
    assert sum(result["projection"]) == 1 and min(result["projection"]) >= 0
    # the nearest non-negative integer vector with sum 1 to (−5, −5) in ℓ∞ is at distance 6 (one entry 1, one 0)
    assert result["chebyshev_distance"] == 6


def test_intopt_negative_entries_anywhere(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inftda", "intopt", "--values", "-2,7,-1", "--total", "4", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["values"] == [-2, 7, -1]
    assert sum(result["projection"]) == 4


def test_vectors_accept_negative_entries() -> None:
    parser = build_parser()
    args = parser.parse_args(
        ["audit", "calibration", "--mechanism", "laplace", "--scale", "2", "--epsilon", "1", "--vectors", "-1,1;2,-3"]
    )
    assert args.vectors == "-1,1;2,-3"


@pytest.mark.parametrize("token", NEGATIVE_TOKENS)
def test_every_value_option_reads_a_negative_token_as_its_value(token: str) -> None:
    leaves = _leaf_parsers(build_parser())
    assert len(leaves) > 10
    for path, parser in leaves:
        for action in parser._actions:
            if not action.option_strings or action.nargs == 0:
                continue  # positional, flag or --help
            assert parser._parse_optional(token) is None, (path, action.option_strings, token)


def test_unknown_options_are_still_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["inftda", "intopt", "--values", "1,2", "--total", "1", "-x"])
    assert stop.value.code == 2
    assert "-x" in capsys.readouterr().err
