"""Neighbouring relations, user-level contributions and draw variances in the linear-noise audit."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from reference.audit.linear.audit import audit_linear_noise
from reference.cip.sensitivity import cascade_sensitivity_squared
from reference.cli.main import main

IDENTITY = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]


def test_laplace_epsilon_per_relation_and_contributions() -> None:
    # identity release with Lap(2): a unit change costs 1/2, a substitution (two units) 1, m records m times that
    assert audit_linear_noise(IDENTITY, IDENTITY, "laplace", scale=2).epsilon == Fraction(1, 2)
    assert audit_linear_noise(IDENTITY, IDENTITY, "laplace", scale=2, neighbours="substitution").epsilon == 1
    three = audit_linear_noise(IDENTITY, IDENTITY, "laplace", scale=2, contributions=3)
    assert three.epsilon == Fraction(3, 2) and three.epsilon_exact and three.contributions == 3


def test_gaussian_sensitivity_per_relation_and_contributions() -> None:
    assert audit_linear_noise(IDENTITY, IDENTITY, "gaussian", scale=1).l2_sensitivity_squared == 1
    substitution = audit_linear_noise(IDENTITY, IDENTITY, "gaussian", scale=1, neighbours="substitution")
    assert substitution.l2_sensitivity_squared == 2  # ‖e_i − e_j‖² = 2
    both = audit_linear_noise(IDENTITY, IDENTITY, "gaussian", scale=1, neighbours="substitution", contributions=2)
    assert both.l2_sensitivity_squared == 8  # ‖2(e_i − e_j)‖² = 8
    assert both.rho == 4


def test_integer_noise_with_contributions() -> None:
    verdict = audit_linear_noise(IDENTITY, IDENTITY, "discrete-laplace", scale=3, contributions=2)
    assert verdict.epsilon == Fraction(2, 3) and verdict.epsilon_exact


@pytest.mark.parametrize("relation", ["add_remove", "substitution"])
def test_a_cascade_with_draw_variances_matches_the_cip_oracle(relation: str) -> None:
    # depth 1: X0 = X/2 + Y', X1 = X/2 − Y' with Var X = 1, Var Y' = 3/4 (Equation (2)); covariance C_1
    cascade = [[Fraction(1, 2), 1], [Fraction(1, 2), -1]]
    verdict = audit_linear_noise(cascade, [[1, 0], [0, 1]], "gaussian", scale=1, draw_variances=[1, "3/4"],
                                 neighbours=relation)
    assert verdict.l2_sensitivity_squared == cascade_sensitivity_squared(1, relation) == Fraction(4, 3)


def test_bad_relation_and_contributions_are_one_line_errors(capsys: pytest.CaptureFixture[str], tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match="neighbours"):
        audit_linear_noise(IDENTITY, IDENTITY, "laplace", scale=1, neighbours="swap")
    with pytest.raises(ValueError, match="contributions"):
        audit_linear_noise(IDENTITY, IDENTITY, "laplace", scale=1, contributions=0)
    with pytest.raises(ValueError, match="two inputs"):
        audit_linear_noise([[1]], [[1]], "laplace", scale=1, neighbours="substitution")
    (tmp_path / "B.json").write_text(json.dumps([["1/2", "1"], ["1/2", "-1"]]), encoding="utf-8")
    (tmp_path / "W.json").write_text(json.dumps([[1, 0], [0, 1]]), encoding="utf-8")
    (tmp_path / "d.json").write_text(json.dumps([["1", "3/4"]]), encoding="utf-8")
    argv = ["audit", "linear-noise", "--noise-matrix", str(tmp_path / "B.json"), "--workload", str(tmp_path / "W.json"),
            "--noise", "gaussian", "--scale", "1", "--draw-variances", str(tmp_path / "d.json"),
            "--neighbours", "substitution", "--json"]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["l2_sensitivity_squared"] == "4/3"


def _float_cascade(draws):  # type: ignore[no-untyped-def]
    """Depth-2 Cascade Sampling written as a user would, with the normal draws passed in (root, then splits)."""
    import math

    half_root3 = math.sqrt(3.0) / 2.0
    root = draws[0]
    left, right = root / 2 + half_root3 * draws[1], root / 2 - half_root3 * draws[1]
    return [left / 2 + half_root3 * draws[2], left / 2 - half_root3 * draws[2],
            right / 2 + half_root3 * draws[3], right / 2 - half_root3 * draws[3]]


@pytest.mark.parametrize("relation", ["add_remove", "substitution"])
def test_a_float_cascade_is_recovered_exactly_and_audited(relation: str) -> None:
    from reference.audit.linear.probe import probe_float_noise_matrix

    probed = probe_float_noise_matrix(_float_cascade, 4)
    assert probed.draw_variances == (Fraction(1, 16), Fraction(3, 16), Fraction(3, 4), Fraction(3, 4))
    identity = [[int(i == j) for j in range(4)] for i in range(4)]
    verdict = audit_linear_noise(probed.matrix, identity, "gaussian", scale=1, draw_variances=probed.draw_variances,
                                 neighbours=relation)
    assert verdict.l2_sensitivity_squared == cascade_sensitivity_squared(2, relation)


def test_probing_refuses_what_it_cannot_represent() -> None:
    import math

    from reference.audit.linear.probe import probe_float_noise_matrix

    with pytest.raises(ValueError, match="not linear"):
        probe_float_noise_matrix(lambda z: [z[0] * z[0], z[1]], 2)
    with pytest.raises(ValueError, match="column 1 is not sqrt"):  # entries 1 and π: π/1 is no small rational
        probe_float_noise_matrix(lambda z: [z[0] + z[1], math.pi * z[1]], 2)
