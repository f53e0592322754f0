"""ρ-zCDP and RDP claims: decided exactly both ways where the divergences are exact, inconclusive where only a bound
is known, on the linear audit, the Gaussian calibration audit and the command line."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from reference.audit.linear.audit import audit_linear_noise
from reference.audit.linear.renyi import DEFAULT_ORDERS, audit_gaussian_renyi, parse_rdp_text, rdp_points
from reference.cli.main import main
from reference.testing import assert_linear_mechanism_private

PREFIX = [[1, 0, 0], [1, 1, 0], [1, 1, 1]]


def test_gaussian_rdp_exact_both_ways() -> None:
    # σ = 2, Δ² = 1: RDP(α) = α/8 exactly
    exact = [(alpha, alpha / 8) for alpha in DEFAULT_ORDERS]
    assert audit_gaussian_renyi(sigma=2, sensitivity_squared=1, rdp=exact).verdict == "holds"
    undercount = [(alpha, value * Fraction(98, 100)) for alpha, value in exact]  # a 2% undercount
    found = audit_gaussian_renyi(sigma=2, sensitivity_squared=1, rdp=undercount)
    assert found.verdict == "fails" and found.order == DEFAULT_ORDERS[0]
    assert "relative excess 2.04e-02, rtol = 0" in found.reason
    assert audit_gaussian_renyi(sigma=2, sensitivity_squared=1, rho=Fraction(1, 8)).verdict == "holds"
    assert audit_gaussian_renyi(sigma=2, sensitivity_squared=1, rho=Fraction(1, 8) * (1 - Fraction(1, 10**12))
                                ).verdict == "fails"
    # a function of α (as accountants give it), read at the default orders; a float is read exactly
    assert audit_gaussian_renyi(sigma=2, sensitivity_squared=1, rdp=lambda alpha: alpha / 8).verdict == "holds"
    assert audit_gaussian_renyi(sigma=2, sensitivity_squared=1, rdp=lambda alpha: alpha / 8.0001).verdict == "fails"


def test_curve_input_checks() -> None:
    assert parse_rdp_text("2:0.5, 4:1") == ((2, Fraction(1, 2)), (4, 1))
    with pytest.raises(ValueError, match="alpha must be > 1"):
        rdp_points([(1, 1)])
    with pytest.raises(ValueError, match="alpha:value pairs"):
        parse_rdp_text("2=0.5")


def test_discrete_gaussian_exact_at_integer_orders_only() -> None:
    # identity noise matrix, unique integer shifts: ρ = 1/(2σ²) per input, exact at integer α
    verdict = audit_linear_noise(PREFIX, PREFIX, "discrete-gaussian", scale=1)
    assert verdict.rho == Fraction(1, 2)
    assert verdict.renyi_verdict(rdp=[(2, Fraction(99, 100))]).verdict == "fails"
    assert verdict.renyi_verdict(rdp=[(Fraction(3, 2), Fraction(74, 100))]).verdict == "inconclusive"
    assert verdict.renyi_verdict(rdp=[(Fraction(3, 2), Fraction(3, 4))]).verdict == "holds"
    assert verdict.renyi_verdict(rho=Fraction(49, 100)).verdict == "fails"


def test_laplace_claims_from_epsilon_bound() -> None:
    verdict = audit_linear_noise(PREFIX, PREFIX, "laplace", scale=1)  # ε = 1 exactly
    assert verdict.renyi_verdict(rho=Fraction(1, 2)).verdict == "holds"  # ε-DP implies ε²/2-zCDP
    assert verdict.renyi_verdict(rho=Fraction(1, 4)).verdict == "inconclusive"
    assert verdict.renyi_verdict(rdp=[(64, 1)]).verdict == "holds"


def test_not_private_fails_any_claim() -> None:
    verdict = audit_linear_noise([[1], [1], [1]], PREFIX, "gaussian", scale=1)
    assert verdict.renyi_verdict(rho=100).verdict == "fails"


def test_assertion_message_names_the_order() -> None:
    # B = W: the strategy is the identity, Δ² = 1, RDP(α) = α/2
    with pytest.raises(AssertionError, match=r"the claim fails: .*at alpha = 2: certified RDP\(alpha = 2\) = 1, claimed 1/2 \(= 0.5\), "
                       r"relative excess 1.00e\+00, rtol = 0"):
        assert_linear_mechanism_private(PREFIX, PREFIX, "gaussian", scale=1, rdp=[(2, Fraction(1, 2))])
    assert assert_linear_mechanism_private(PREFIX, PREFIX, "gaussian", scale=1, rho=Fraction(1, 2)).rho == Fraction(1, 2)


def test_cli_rho_and_rdp(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "calibration", "--mechanism", "gaussian", "--sigma", "2", "--sensitivity-squared", "1",
                 "--rdp", "2:0.25,4:0.49", "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["verdict"] == "fails" and out["order"] == "4"
    assert main(["audit", "calibration", "--mechanism", "gaussian", "--sigma", "2", "--sensitivity-squared", "1",
                 "--rho", "1/8", "--json"]) == 0
