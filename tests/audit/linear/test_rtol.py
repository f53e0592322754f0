"""Claims with a relative tolerance on a strategy built in floating point: the exact audit of the float matrix is
off the intended value by rounding; ``rtol`` absorbs that, and a real under-noising still fails."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from reference.audit.linear.audit import audit_linear_noise
from reference.testing import assert_linear_mechanism_private

STEPS = 8


def toeplitz_coefficients(steps: int) -> list[Fraction]:
    """A lower-triangular Toeplitz strategy C with c_k = 1/(k + 1): not dyadic, so B = W C⁻¹ in floats is
    rounded (the square root of the prefix matrix, c_k = binom(2k, k)/4^k, is dyadic and solves exactly)."""
    return [Fraction(1, k + 1) for k in range(steps)]


def float_noise_matrix(steps: int) -> np.ndarray:
    """B = W C⁻¹ computed in floats, as a DP-FTRL library would (W the prefix matrix, C the strategy)."""
    coefficients = [float(c) for c in toeplitz_coefficients(steps)]
    strategy = np.array([[coefficients[i - j] if i >= j else 0.0 for j in range(steps)] for i in range(steps)])
    prefix = np.tril(np.ones((steps, steps)))
    return np.asarray(np.linalg.solve(strategy.T, prefix.T).T)


def intended_sensitivity_squared(steps: int) -> Fraction:
    """The exact strategy's Δ²: the largest squared column norm of C, its first column Σ_k c_k²."""
    return sum((c * c for c in toeplitz_coefficients(steps)), Fraction(0))


def test_float_strategy_true_claim_holds_with_rtol_and_under_noising_fails() -> None:
    noise = float_noise_matrix(STEPS)
    prefix = np.tril(np.ones((STEPS, STEPS), dtype=np.int64))
    true_rho = intended_sensitivity_squared(STEPS) / 2  # σ = 1
    exact = audit_linear_noise(noise, prefix, "gaussian", scale=1)
    assert exact.l2_sensitivity_squared is not None
    drift = abs(exact.l2_sensitivity_squared / intended_sensitivity_squared(STEPS) - 1)
    assert 0 < drift < Fraction(1, 10**13)  # the float matrix is not the intended one, by rounding only
    verdict = assert_linear_mechanism_private(noise, prefix, "gaussian", scale=1, rho=true_rho, rtol=1e-12)
    assert verdict.renyi_verdict(rho=true_rho).verdict == "holds"
    assert "(rtol = 1.00e-12)" in verdict.excess_text(rho=true_rho)
    # without the tolerance the verdict follows the sign of the rounding
    at_zero = exact.renyi_verdict(rho=true_rho).verdict
    assert at_zero == ("holds" if exact.l2_sensitivity_squared <= intended_sensitivity_squared(STEPS) else "fails")
    # 2% under-noising: σ = 0.99, σ² = 0.9801 makes ρ 1/0.9801 − 1 = 2.03% larger than claimed
    with pytest.raises(AssertionError, match=r"relative excess (in \[)?2\.03e-02.* \(rtol = 1\.00e-12\)"):
        assert_linear_mechanism_private(noise, prefix, "gaussian", scale=Fraction(99, 100), rho=true_rho,
                                        rtol=1e-12)
    # (ε, δ) claims: δ(ε) may exceed δ by rtol, no more
    delta = exact.delta(1).upper
    assert exact.verdict_on(epsilon=1, delta=delta * (1 - Fraction(1, 10**6))) == "fails"
    assert exact.verdict_on(epsilon=1, delta=delta * (1 - Fraction(1, 10**6)), rtol=Fraction(1, 10**5)) == "holds"
    with pytest.raises(ValueError, match=r"rtol must be in \[0, 1\)"):
        audit_linear_noise(noise, prefix, "gaussian", scale=1, rtol=2)


def test_laplace_rtol_on_epsilon() -> None:
    # W = B = [[3]] read from floats, b = 1: ε = 3 exactly; a claim 3 (1 − 1e-13) holds within rtol 1e-12 only
    verdict = audit_linear_noise(np.array([[1.0]]), np.array([[3.0]]), "laplace", scale=1, rtol=1e-12)
    claim = Fraction(3) * (1 - Fraction(1, 10**13))
    assert verdict.verdict_on(epsilon=claim) == "holds" and verdict.verdict_on(epsilon=claim, rtol=0) == "fails"
    low, high = verdict.relative_excess(epsilon=claim) or (None, None)
    assert low == high == 3 / claim - 1


def test_cli_rtol_with_a_float_npy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from reference.cli.main import main

    np.save(tmp_path / "B.npy", float_noise_matrix(STEPS))
    np.save(tmp_path / "W.npy", np.tril(np.ones((STEPS, STEPS), dtype=np.int64)))
    true_rho = intended_sensitivity_squared(STEPS) / 2
    argv = ["audit", "linear-noise", "--noise-matrix", str(tmp_path / "B.npy"), "--workload", str(tmp_path / "W.npy"),
            "--noise", "gaussian", "--json", "--rho", f"{true_rho.numerator}/{true_rho.denominator}", "--rtol",
            "1e-12"]
    assert main([*argv, "--scale", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rtol"] == "1/1000000000000" and "relative excess" in out["excess"]
    assert main([*argv, "--scale", "99/100"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert Fraction(out["relative_excess"][0]) > Fraction(2, 100)
    assert main([*argv[:-1], "2", "--scale", "1"]) == 2


def test_per_draw_laplace_scales(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # one input released twice, with draws of scales b·1 and b·2 (b = 1): the privacy loss adds up,
    # ε = 1/1 + 1/2 = 3/2; with equal scales it would be 2
    noise, workload = [[1, 0], [0, 1]], [[1], [1]]
    verdict = audit_linear_noise(noise, workload, "laplace", scale=1, draw_scales=[1, 2])
    assert verdict.epsilon == Fraction(3, 2) and verdict.epsilon_exact
    assert audit_linear_noise(noise, workload, "laplace", scale=1).epsilon == 2
    # a tree of two levels with a budget split: the root (scale 2b) over two leaves (scale b); the workload
    # reads both leaves: ε = max over inputs of 1/2 + 1/1 = 3/2 at b = 1
    tree = [[1, 1], [1, 0], [0, 1]]
    assert audit_linear_noise([[1, 0, 0], [0, 1, 0], [0, 0, 1]], tree, "laplace", scale=1,
                              draw_scales=[2, 1, 1]).epsilon == Fraction(3, 2)
    with pytest.raises(ValueError, match="draw_scales is supported for laplace"):
        audit_linear_noise(noise, workload, "gaussian", scale=1, draw_scales=[1, 2])
    with pytest.raises(ValueError, match="draw_scales has 1 entries"):
        audit_linear_noise(noise, workload, "laplace", scale=1, draw_scales=[1])
    from reference.cli.main import main

    (tmp_path / "B.json").write_text(json.dumps(noise))
    (tmp_path / "W.json").write_text(json.dumps(workload))
    (tmp_path / "s.json").write_text(json.dumps([[1, 2]]))
    argv = ["audit", "linear-noise", "--noise-matrix", str(tmp_path / "B.json"), "--workload", str(tmp_path / "W.json"),
            "--noise", "laplace", "--scale", "1", "--epsilon", "3/2", "--json"]
    assert main([*argv, "--draw-scales", str(tmp_path / "s.json")]) == 0
    assert json.loads(capsys.readouterr().out)["epsilon"] == "3/2"
    assert main(argv) == 1
