"""Calibration audits in the user's terms: a relative tolerance on the claim, σ or σ² for every Gaussian-family
mechanism, and the discrete Laplace."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from reference.audit.calibration import (
    audit_discrete_gaussian,
    audit_discrete_laplace,
    audit_gaussian,
    audit_laplace,
)
from reference.cli.main import main


def test_discrete_laplace_pure_epsilon_is_sensitivity_over_scale() -> None:
    # P[x] ∝ exp(-|x|/t): the loss (|x - Δ| - |x|)/t reaches Δ/t at x = 0, so ε = Δ/t exactly (here 3/2)
    t, delta_shift = Fraction(2), 3
    ratio_at_zero = (abs(0 - delta_shift) - abs(0)) / t
    assert ratio_at_zero == Fraction(3, 2)
    assert audit_discrete_laplace(scale=t, sensitivity=delta_shift, epsilon=Fraction(3, 2)).holds
    below = audit_discrete_laplace(scale=t, sensitivity=delta_shift, epsilon=Fraction(147, 100))
    assert not below.holds and below.claim_check is not None
    # 1.5/1.47 - 1 = 3/147 = 2.04e-02
    assert "relative excess 2.04e-02 in epsilon, rtol = 0" in below.summary()
    assert audit_discrete_laplace(scale=t, sensitivity=delta_shift, epsilon=Fraction(147, 100), rtol="0.03").holds
    with pytest.raises(ValueError, match="sensitivity must be a positive integer"):
        audit_discrete_laplace(scale=2, sensitivity=0, epsilon=1)
    # (ε, δ): below ε = Δ/t the exact δ(ε) decides; Δ = 1, t = 2, ε = 1/4: only y <= 0 contributes,
    # δ = (1 − e^{ε − Δ/t})/(1 + e^{−1/t}) (derived by summing the geometric tail by hand)
    import math

    expected = (1 - math.exp(0.25 - 0.5)) / (1 + math.exp(-0.5))
    approximate = audit_discrete_laplace(scale=2, sensitivity=1, epsilon=Fraction(1, 4), delta=Fraction(14, 100))
    assert approximate.delta_at_epsilon is not None
    assert abs(float(approximate.delta_at_epsilon.midpoint) - expected) < 1e-15
    assert approximate.holds and expected <= 0.14
    assert not audit_discrete_laplace(scale=2, sensitivity=1, epsilon=Fraction(1, 4), delta=Fraction(1, 10)).holds


def test_rtol_on_calibration_claims() -> None:
    # Laplace, pure: ε = Δ1/b = 1/(1 - 1e-15) exceeds a claim of 1 by about 1e-15, a float rounding
    scale = 1 - Fraction(1, 10**15)
    strict = audit_laplace(scale=scale, epsilon=1, delta=0, sensitivity_vectors=[[1]])
    assert not strict.holds
    assert audit_laplace(scale=scale, epsilon=1, delta=0, sensitivity_vectors=[[1]], rtol=1e-12).holds
    # discrete Gaussian zCDP: ρ = Δ²/(2σ²) = 1/20 against a claim 2% lower fails with rtol 1e-12
    assert not audit_discrete_gaussian(sigma_squared=10, sensitivity=1, rho=Fraction(49, 1000), rtol=1e-12).holds
    assert audit_discrete_gaussian(sigma_squared=10, sensitivity=1, rho=Fraction(49, 1000), rtol="0.03").holds


def test_sigma_or_sigma_squared_for_every_gaussian() -> None:
    by_sigma = audit_gaussian(sigma=3, sensitivity_squared=1, epsilon=1, delta="1e-5")
    by_variance = audit_gaussian(sigma_squared=9, sensitivity_squared=1, epsilon=1, delta="1e-5")
    assert by_sigma.delta_at_epsilon == by_variance.delta_at_epsilon
    # σ² = 2 is no rational square: audited as σ = 1 at Δ²/σ², the same profile as σ = 1, Δ² = 1/2
    irrational = audit_gaussian(sigma_squared=2, sensitivity_squared=1, epsilon=1, delta="1e-5")
    scaled = audit_gaussian(sigma=1, sensitivity_squared=Fraction(1, 2), epsilon=1, delta="1e-5")
    assert irrational.delta_at_epsilon == scaled.delta_at_epsilon and irrational.holds == scaled.holds
    assert audit_discrete_gaussian(sigma=3, sensitivity=1, rho=Fraction(1, 18)).holds  # σ² = 9: ρ = 1/18
    assert not audit_discrete_gaussian(sigma=3, sensitivity=1, rho=Fraction(1, 19)).holds
    with pytest.raises(ValueError, match="exactly one of sigma"):
        audit_gaussian(sigma=3, sigma_squared=9, sensitivity_squared=1, epsilon=1, delta="1e-5")


def test_cli(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["audit", "calibration", "--mechanism", "discrete-laplace", "--scale", "2", "--sensitivity", "1"]
    assert main([*base, "--epsilon", "1/2", "--json"]) == 0
    capsys.readouterr()
    assert main([*base, "--epsilon", "0.49", "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["claim_check"]["verdict"] == "fails" and out["claim_check"]["quantity"] == "epsilon"
    assert main([*base, "--epsilon", "0.49", "--rtol", "0.03", "--json"]) == 0
    capsys.readouterr()
    assert main([*base, "--epsilon", "0.49", "--rtol", "2"]) == 2  # a tolerance of 200% is no claim
    assert "--rtol" in capsys.readouterr().err
    gaussian = ["audit", "calibration", "--mechanism", "gaussian", "--sigma-squared", "9", "--sensitivity-squared", "1"]
    assert main([*gaussian, "--rho", "1/18", "--json"]) == 0
    capsys.readouterr()
    assert main([*gaussian, "--rho", "1/19", "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["claim_check"]["rtol"] == "0"
    assert main(["audit", "calibration", "--mechanism", "discrete-gaussian", "--sigma", "3", "--sensitivity", "1",
                 "--rho", "1/18"]) == 0
