"""Calibration audit: verdicts against independent evaluations of the privacy profiles."""

from __future__ import annotations

import math

import mpmath
import pytest

from reference.audit.calibration import audit_discrete_gaussian, audit_gaussian, audit_laplace, audit_laplace_l2
from reference.cli.main import main


def gaussian_delta_mp(epsilon: float, sigma: float, sensitivity: float) -> float:
    mpmath.mp.dps = 40
    a = mpmath.mpf(sensitivity) / (2 * sigma)
    b = mpmath.mpf(epsilon) * sigma / sensitivity
    return float(mpmath.ncdf(a - b) - mpmath.e**epsilon * mpmath.ncdf(-a - b))


@pytest.mark.parametrize(("sigma", "holds"), [("4.5", True), ("3", False)])
def test_gaussian_verdict_matches_profile(sigma: str, holds: bool) -> None:
    verdict = audit_gaussian(sigma=sigma, sensitivity_squared=1, epsilon=1, delta="1e-5")
    independent = gaussian_delta_mp(1.0, float(sigma), 1.0)
    assert verdict.holds is holds is (independent <= 1e-5)
    assert verdict.delta_at_epsilon is not None
    assert float(verdict.delta_at_epsilon.midpoint) == pytest.approx(independent, rel=1e-9)


def test_laplace_pure_is_exact() -> None:
    # Lap(b) with ‖v‖₁ = 3 is exactly (3/b)-DP and no better
    assert audit_laplace(scale=6, epsilon="1/2", delta=0, sensitivity_vectors=[[1, 2]]).holds
    assert not audit_laplace(scale=6, epsilon="49/100", delta=0, sensitivity_vectors=[[1, 2]]).holds


def test_laplace_one_dimension_closed_form() -> None:
    # d = 1, shift a = v/b: δ(ε) = 1 − exp((ε − a)/2) for ε < a (derived by hand from the privacy loss law)
    verdict = audit_laplace(scale=1, epsilon="1/2", delta="1/10", sensitivity_vectors=[[1]])
    expected = 1 - math.exp((0.5 - 1.0) / 2)
    assert verdict.delta_at_epsilon is not None
    assert float(verdict.delta_at_epsilon.midpoint) == pytest.approx(expected, rel=1e-12)
    assert verdict.holds is (expected <= 0.1)


def test_laplace_l2_uses_the_all_equal_vector() -> None:
    # Δ1 = 8, Δ2² = 8: the all-ones vector of length 8; at scale 10 the pure ε is 0.8 < 1, so δ(1) = 0
    verdict = audit_laplace_l2(scale=10, l1_sensitivity=8, l2_sensitivity_squared=8, epsilon=1, delta="1e-6")
    assert verdict.holds and verdict.delta_at_epsilon is not None and verdict.delta_at_epsilon.upper == 0
    with pytest.raises(ValueError, match="sensitivity_vectors"):
        audit_laplace_l2(
            scale=10, l1_sensitivity=3, l2_sensitivity_squared=2, epsilon=1, delta="1e-6"
        )  # 9/2 is not an integer length


def test_discrete_gaussian_claims() -> None:
    # ρ = Δ²/(2σ²) = 1/20 exactly for σ² = 10, Δ = 1
    assert audit_discrete_gaussian(sigma_squared=10, sensitivity=1, rho="1/20").holds
    assert not audit_discrete_gaussian(sigma_squared=10, sensitivity=1, rho="1/21").holds
    # a tiny claimed δ fails, a generous one holds
    assert not audit_discrete_gaussian(sigma_squared=10, sensitivity=1, epsilon="1/10", delta="1e-9").holds
    assert audit_discrete_gaussian(sigma_squared=10, sensitivity=1, epsilon=2, delta="1/10").holds


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="sensitivity"):
        audit_discrete_gaussian(sigma_squared=10, sensitivity=0, rho="1")
    with pytest.raises(ValueError, match="sensitivity_vectors"):
        audit_laplace(scale=1, epsilon=1, delta=0, sensitivity_vectors=[])
    with pytest.raises(TypeError, match="epsilon"):
        audit_gaussian(sigma=1, sensitivity_squared=1, epsilon=0.5, delta="1e-5")
    with pytest.raises(ValueError, match="rho"):
        audit_discrete_gaussian(sigma_squared=10, sensitivity=1)


def test_audit_cli(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["audit", "calibration", "--mechanism", "gaussian", "--sigma", "3", "--sensitivity-squared", "1"]
    assert main([*argv, "--epsilon", "1", "--delta", "1e-5", "--json"]) == 1  # the claim fails: exit 1
    assert '"verdict": "fails"' in capsys.readouterr().out
    assert main(["calibrate", "laplace", "--l1", "3", "--epsilon", "1/2", "--json"]) == 0
    assert '"scale": "6"' in capsys.readouterr().out


def test_discrete_gaussian_rho_claim_with_a_rational_sensitivity(capsys: pytest.CaptureFixture[str]) -> None:
    # InfTDA, 3 records per user, d = 3, ρ = 1/2: Δ² = 2·3² = 18 per level; the √(2m) calibration uses σ² = 9
    argv = ["audit", "calibration", "--mechanism", "discrete-gaussian", "--sensitivity-squared", "18", "--rho", "1/6"]
    assert main([*argv, "--sigma-squared", "9", "--json"]) == 1  # 18/(2·9) = 1 > 1/6
    capsys.readouterr()
    assert main([*argv, "--sigma-squared", "54", "--json"]) == 0  # 18/(2·54) = 1/6
    capsys.readouterr()
    assert main([*argv[:-2], "--epsilon", "1", "--delta", "1e-6", "--sigma-squared", "54"]) == 2  # (ε, δ) needs Δ
    assert "rho" in capsys.readouterr().err
