"""The routes of the design and cascade audits that used to test second moments only: a Gaussian design with a
singular covariance is whitened on its range (a Laplace sampler of the same covariance fails, a run off the range
fails), a Laplace design whose draws cannot be read off is "inconclusive" (its family is untested), and a depth-0
cascade — one N(0, σ²) leaf per run — gets the Gaussian's whole-law audit streamed or not, from a file and from a
sampler function."""

from __future__ import annotations

import json
import math
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from reference.audit.samples.design_law import design_scale_power
from reference.audit.samples.law_audit import audit_samples
from reference.audit.samples.laws import Cascade, Gaussian, Laplace, LinearDesign
from reference.cli.main import main

#: rank 2 of 4 outputs: M = B Bᵀ is singular, and B has full column rank
REPEATED = [[1, 0], [1, 0], [0, 1], [1, 1]]
#: rank 2 of 3 draws: no e_j lies in B's row space, so no draw is read off the outputs
SHARED = [[1, 1, 0], [0, 1, 1]]


def test_a_singular_gaussian_design_is_whitened_on_its_range() -> None:
    design = LinearDesign(REPEATED, Gaussian(Fraction(1)))
    matrix = np.array(REPEATED, dtype=float)
    rng = np.random.default_rng(3)
    report = audit_samples(rng.normal(size=(100_000, 2)) @ matrix.T, design)
    assert report.verdict == "holds"
    assert "rank 2 of 4" in report.name
    assert any(check.name == "covariance range" and check.holds for check in report.checks)


def test_laplace_draws_of_the_same_covariance_fail_the_singular_gaussian_design() -> None:
    design = LinearDesign(REPEATED, Gaussian(Fraction(1)))
    matrix = np.array(REPEATED, dtype=float)
    draws = np.random.default_rng(4).laplace(scale=1 / math.sqrt(2), size=(100_000, 2))  # variance 1, as claimed
    report = audit_samples(draws @ matrix.T, design)
    assert report.verdict == "fails"
    assert any("Kolmogorov" in check.name and not check.holds for check in report.checks)


def test_runs_off_the_range_fail_the_singular_gaussian_design() -> None:
    design = LinearDesign(REPEATED, Gaussian(Fraction(1)))
    matrix = np.array(REPEATED, dtype=float)
    rng = np.random.default_rng(5)
    runs = rng.normal(size=(20_000, 2)) @ matrix.T
    runs[:, 1] += 1e-3 * rng.normal(size=20_000)  # outputs 0 and 1 must be equal: a tiny independent error
    report = audit_samples(runs, design)
    assert report.verdict == "fails"
    assert [check.name for check in report.checks if not check.holds] == ["covariance range"]


def test_the_scale_power_counts_the_whitened_coordinates_of_the_range() -> None:
    singular = LinearDesign(REPEATED, Gaussian(Fraction(1)))
    draws_only = LinearDesign([[1, 0], [0, 1]], Gaussian(Fraction(1)))  # the same two coordinates, nothing repeated
    assert design_scale_power(singular, 5_000, 1e-6) == design_scale_power(draws_only, 5_000, 1e-6)


def test_a_laplace_design_with_no_draw_read_off_is_inconclusive_not_holds() -> None:
    design = LinearDesign(SHARED, Laplace(Fraction(1)))
    matrix = np.array(SHARED, dtype=float)
    rng = np.random.default_rng(6)
    laplace = audit_samples(rng.laplace(size=(100_000, 3)) @ matrix.T, design)
    assert laplace.verdict == "inconclusive"
    assert laplace.untested is not None and "family" in laplace.untested
    assert "untested" in laplace.as_json() and laplace.untested in laplace.summary()
    # a Gaussian sampler with the Laplace variance passes the second moments: the reason it is not "holds"
    gaussian = audit_samples(rng.normal(scale=math.sqrt(2), size=(100_000, 3)) @ matrix.T, design)
    assert gaussian.verdict == "inconclusive"
    # a scale error is still decided by the second moments
    wrong = audit_samples(rng.laplace(scale=1.2, size=(100_000, 3)) @ matrix.T, design)
    assert wrong.verdict == "fails"


@pytest.mark.parametrize("stream", [False, True])
def test_a_depth_0_cascade_file_gets_the_gaussian_whole_law_audit(tmp_path: Path, stream: bool,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    rng = np.random.default_rng(7)
    laplace, gaussian = tmp_path / "laplace.npy", tmp_path / "gaussian.npy"
    np.save(laplace, rng.laplace(scale=2 / math.sqrt(2), size=(100_000, 1)))  # variance 4 = σ²: right scale
    np.save(gaussian, rng.normal(scale=2, size=(100_000, 1)))
    common = ["audit", "samplers", "--mechanism", "cascade", "--depth", "0", "--sigma", "2", "--json",
              *(["--stream"] if stream else [])]
    assert main([*common, "--samples", str(laplace)]) == 1
    failing = json.loads(capsys.readouterr().out)
    assert "distribution (Kolmogorov-Smirnov)" in {c["property"] for c in failing["checks"] if c["verdict"] == "fails"}
    assert main([*common, "--samples", str(gaussian)]) == 0
    capsys.readouterr()


def test_the_depth_0_cascade_in_memory_matches_the_gaussian_law() -> None:
    draws = np.random.default_rng(8).laplace(scale=math.sqrt(2), size=(100_000, 1))
    assert audit_samples(draws, Cascade(0, 2)).verdict == audit_samples(draws[:, 0], Gaussian(2)).verdict == "fails"


def test_a_depth_0_cascade_sampler_function_gets_the_whole_law_audit(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "depth_zero_sampler.py").write_text(
        "def f(generator, runs):\n    return generator.laplace(0, 2 ** 0.5, size=(runs, 1))\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    sys.modules.pop("depth_zero_sampler", None)
    status = main(["audit", "sampler-function", "--target", "depth_zero_sampler:f", "--mechanism", "cascade",
                   "--depth", "0", "--sigma", "2", "--runs", "100000", "--seed", "1", "--json"])
    result = json.loads(capsys.readouterr().out)
    assert status == 1, result["summary"]
    assert any(c["verdict"] == "fails" and "Kolmogorov" in c["property"] for c in result["checks"])
