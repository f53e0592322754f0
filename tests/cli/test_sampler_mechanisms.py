"""``audit samplers`` and ``audit sampler-function`` accept the same mechanisms, from one table."""

from __future__ import annotations

import argparse

import pytest

from reference.cli.main import build_parser, main
from reference.cli.sampler_mechanisms import KARY_ALGORITHMS, SAMPLER_MECHANISMS


def _command(*path: str) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = build_parser()
    for name in path:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        parser = sub.choices[name]
    return parser


def _choices(parser: argparse.ArgumentParser, option: str) -> list[object]:
    action = next(a for a in parser._actions if option in a.option_strings)
    return list(action.choices or [])


def test_both_sampler_audits_take_the_same_mechanisms_and_algorithms() -> None:
    samples, function = _command("audit", "samplers"), _command("audit", "sampler-function")
    assert _choices(samples, "--mechanism") == _choices(function, "--mechanism") == list(SAMPLER_MECHANISMS)
    assert _choices(samples, "--algorithm") == _choices(function, "--algorithm") == list(KARY_ALGORITHMS)
    assert {"gaussian", "laplace", "tda-level", "cascade", "kary", "design", "discrete-gaussian",
            "discrete-laplace"} == set(SAMPLER_MECHANISMS)


def test_every_mechanism_of_the_command_line_is_a_law_of_the_python_api() -> None:
    from reference.audit.samples.laws import LAW_NAMES

    assert set(LAW_NAMES) == set(SAMPLER_MECHANISMS)
    assert KARY_ALGORITHMS == (1, 2, 3)


@pytest.mark.parametrize("command", ["samplers", "sampler-function"])
def test_a_missing_or_foreign_option_is_named_the_same_way(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    common = ["audit", command, "--mechanism", "tda-level", "--attributes", "3"]
    extra = ["--samples", "none.npy"] if command == "samplers" else ["--target", "m:f", "--runs", "10", "--seed", "1"]
    assert main([*common, *extra]) == 2
    assert "--mechanism tda-level needs --rho" in capsys.readouterr().err
    assert main([*common, "--rho", "1/2", "--sigma", "2", *extra]) == 2
    assert "--sigma do(es) not apply to --mechanism tda-level" in capsys.readouterr().err


def test_sampler_function_audits_inftda_level_noise(capsys: pytest.CaptureFixture[str]) -> None:
    # d = 9 attributes at ρ = 2: σ² = d/ρ = 9/2, which the example's sampler draws; at ρ = 1 (σ² = 9) it fails
    common = ["audit", "sampler-function", "--target", "examples.batched_samplers:discrete_gaussian_9_over_2",
              "--mechanism", "tda-level", "--attributes", "9", "--runs", "2000", "--seed", "1", "--json"]
    assert main([*common, "--rho", "2"]) == 0
    assert '"verdict": "holds"' in capsys.readouterr().out
    assert main([*common, "--rho", "1"]) == 1
    assert '"verdict": "fails"' in capsys.readouterr().out
