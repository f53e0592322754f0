"""Every requested comparison that disagrees, and every test too weak to see a stated deviation, is reported:
a verdict "fails" or "inconclusive", never a pass."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from reference_verification.planted.variance_for_std_cascade import faulty_cascade_samples

from reference.cli.main import main
from reference.privacy.gaussian import sigma_exact
from reference.testing import assert_calibration_safe, assert_samples_match


def run_json(capsys: pytest.CaptureFixture[str], *argv: str, status: int) -> dict[str, object]:
    assert main([*argv, "--json"]) == status
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_oracle_covariance_mismatch_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # B = I (Laplace b = 1) has covariance 2 I; the oracle says 2 on the diagonal and 1 off it
    (tmp_path / "B.json").write_text("[[1, 0], [0, 1]]")
    (tmp_path / "C.json").write_text('[[2, 1], [1, 2]]')
    out = run_json(capsys, "audit", "linear-noise", "--noise-matrix", str(tmp_path / "B.json"), "--workload",
                   str(tmp_path / "B.json"), "--noise", "laplace", "--scale", "1", "--oracle",
                   str(tmp_path / "C.json"), status=1)
    assert out["verdict"] == "fails" and out["covariance_matches_oracle"] is False
    assert "differs from the oracle" in str(out["explanation"])
    (tmp_path / "C.json").write_text('[[2, 0], [0, 2]]')
    out = run_json(capsys, "audit", "linear-noise", "--noise-matrix", str(tmp_path / "B.json"), "--workload",
                   str(tmp_path / "B.json"), "--noise", "laplace", "--scale", "1", "--oracle",
                   str(tmp_path / "C.json"), status=0)
    assert out["verdict"] == "holds" and out["covariance_matches_oracle"] is True


@pytest.mark.parametrize("runs", [2, 30])
def test_iid_leaves_with_few_runs_are_inconclusive(runs: int) -> None:
    # i.i.d. N(0, 1) leaves are not Cascade Sampling (a depth-2 root sum has variance 4, not 1); with few runs the
    # audit passes but could not have seen a 2% scale error: the assertion says so, with the runs it needs
    # (some seeds already fail at 30 runs; none may pass)
    for seed in range(5):
        leaves = np.random.default_rng(seed).standard_normal((runs, 4))
        with pytest.raises(AssertionError, match=r"(inconclusive: .* runs are needed)|(samples do not match "
                                                 r"cascade)"):
            assert_samples_match(leaves, "cascade", depth=2, sigma=1.0)
    passing = np.random.default_rng(7).standard_normal((runs, 4))[:2]
    with pytest.raises(AssertionError, match=r"inconclusive: .* runs are needed"):
        assert_samples_match(passing, "cascade", depth=2, sigma=1.0)


def test_iid_leaves_with_many_runs_fail() -> None:
    leaves = np.random.default_rng(5).standard_normal((3000, 4))
    with pytest.raises(AssertionError, match="samples do not match cascade"):
        assert_samples_match(leaves, "cascade", depth=2, sigma=1.0)


def test_cli_smallest_deviation_inconclusive(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    np.save(tmp_path / "x.npy", np.random.default_rng(7).standard_normal((2, 4)))
    out = run_json(capsys, "audit", "samplers", "--mechanism", "cascade", "--samples", str(tmp_path / "x.npy"),
                   "--depth", "2", "--sigma", "1", "--smallest-deviation", "1/4", status=3)
    assert out["verdict"] == "inconclusive" and int(str(out["runs_needed"])) > 2


def test_units_line_names_variance_passed_as_standard_deviation() -> None:
    with pytest.raises(AssertionError, match="variance ≈ σ⁴ = 16, not σ² = 4"):
        assert_samples_match(faulty_cascade_samples(2, 2.0, 3000, 12), "cascade", depth=2, sigma=2.0, alpha=1e-9)


def test_calibration_excess_in_scientific_notation() -> None:
    # a σ a relative 1e-10 below the smallest safe one: four decimals would print "<= 1.000"
    def calibrator(epsilon: Fraction, delta: Fraction, sensitivity_squared: Fraction) -> Fraction:
        exact = sigma_exact(epsilon=epsilon, delta=delta, sensitivity_squared=sensitivity_squared)
        return exact.sigma_below * (1 - Fraction(1, 10**10))

    with pytest.raises(AssertionError, match=r"(?s)sigma/sigma\* - 1 (= |in \[)-1\.0\de-10.*\(rtol = 0\)|rtol = 0.*"
                                             r"sigma/sigma\* - 1 (= |in \[)-1\.0\de-10") as caught:
        assert_calibration_safe(calibrator, [(1, Fraction(1, 1000))])
    assert "delta(epsilon)/delta - 1" in str(caught.value)
    # the excess of δ is about 1e-9 relative: an rtol of 1e-6 accepts it, one of 1e-12 does not
    assert_calibration_safe(calibrator, [(1, Fraction(1, 1000))], rtol=Fraction(1, 10**6))
    with pytest.raises(AssertionError, match=r"rtol = 1\.00e-12"):
        assert_calibration_safe(calibrator, [(1, Fraction(1, 1000))], rtol=Fraction(1, 10**12))
