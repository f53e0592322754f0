"""The command line's one table from verdicts to exit statuses, over a real command for every verdict.

holds → 0, fails → 1, inconclusive → 3, bad usage → 2: the numbers a CI job reads, written out here so a
change of the table fails this test rather than passing silently.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reference.cli.main import main
from reference.core.verdict import EXIT_BAD_INPUT, EXIT_STATUS, VERDICTS

EXPECTED = {"holds": 0, "fails": 1, "inconclusive": 3}


def test_the_table_has_every_verdict_and_the_documented_numbers() -> None:
    assert EXIT_STATUS == EXPECTED and set(EXIT_STATUS) == set(VERDICTS)
    assert EXIT_BAD_INPUT == 2 and EXIT_BAD_INPUT not in EXIT_STATUS.values()


#: W x + B z with B = [[1, 1, 0], [0, 1, 1]], W = I: discrete Laplace of scale 2 is certified <= 1/2-DP and no
#: lower bound is known (a kernel), so a claim of 1/4 is inconclusive; continuous Laplace has ε = 1/2 exactly.
CASES = [
    ("laplace", "1/2", "holds"),
    ("laplace", "1/3", "fails"),
    ("discrete-laplace", "1/4", "inconclusive"),
]


@pytest.mark.parametrize(("noise", "epsilon", "verdict"), CASES)
def test_each_verdict_sets_its_exit_status(tmp_path: Path, capsys: pytest.CaptureFixture[str], noise: str,
                                           epsilon: str, verdict: str) -> None:
    (tmp_path / "B.json").write_text(json.dumps([[1, 1, 0], [0, 1, 1]]))
    (tmp_path / "W.json").write_text(json.dumps([[1, 0], [0, 1]]))
    status = main(["audit", "linear-noise", "--noise-matrix", str(tmp_path / "B.json"), "--workload",
                   str(tmp_path / "W.json"), "--noise", noise, "--scale", "2", "--epsilon", epsilon, "--json"])
    printed = json.loads(capsys.readouterr().out)
    assert printed["verdict"] == verdict
    assert status == EXPECTED[verdict] == printed["exit_status"]


def test_every_verdict_is_exercised() -> None:
    assert {verdict for _, _, verdict in CASES} == set(VERDICTS)


def test_bad_usage_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["audit", "calibration", "--mechanism", "gaussian", "--sigma", "3", "--epsilon", "1/2",
                   "--delta", "1e-6"])  # no --sensitivity-squared
    assert status == 2 and "sensitivity-squared" in capsys.readouterr().err
