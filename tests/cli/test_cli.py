"""The command line: stable JSON keys, exact values, one-line errors with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from reference.cli.main import main


def run_json(capsys: pytest.CaptureFixture[str], *argv: str, status: int = 0) -> dict[str, object]:
    assert main([*argv, "--json"]) == status
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_cascade_matrix(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "cascade", "matrix", "--depth", "1")
    assert out["covariance"] == [["1", "-1/2"], ["-1/2", "1"]]
    # inverse of [[1, -1/2], [-1/2, 1]] by hand: (4/3) [[1, 1/2], [1/2, 1]]
    assert out["inverse"] == [["4/3", "2/3"], ["2/3", "4/3"]]
    assert out["inverse_diagonal"] == ["4/3", "4/3"]
    assert out["inverse_matches_lemma_b2"] is True


def test_cascade_ranges(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "cascade", "ranges", "--depth", "2")
    # depth 2 by hand: the range [1, 2] straddles the root: 1 + 1 + 2·(−1/8) = 7/4, the largest
    assert out["max_variance"] == "7/4"
    assert out["argmax"] == [1, 2]
    assert out["ranges"] == 10


def test_calibrate_cascade_keys_and_values(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "calibrate", "cascade", "--depth", "3", "--epsilon", "1/2", "--delta", "1e-6")
    assert out["max_precision_diagonal"] == "2"  # 1 + 3/3
    sigma_paper = float(str(out["sigma_paper"]))
    expected = ((2 / 0.25 + 2 * 3 / (3 * 0.25)) * np.log(2e6)) ** 0.5  # Theorem 3.9 evaluated in floats
    assert sigma_paper == pytest.approx(expected, rel=1e-12)
    assert float(str(out["sigma_exact"])) < sigma_paper
    refused = run_json(capsys, "calibrate", "cascade", "--depth", "3", "--epsilon", "3", "--delta", "1e-6")
    assert refused["sigma_paper"] is None and "sigma_exact" in str(refused["sigma_paper_refused"])
    assert float(str(refused["sigma_exact"])) > 0


def test_calibrate_gaussian(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "calibrate", "gaussian", "--sensitivity", "1", "--epsilon", "1/2", "--delta", "1e-5")
    classical = (2 * np.log(1.25e5)) ** 0.5 / 0.5
    assert float(str(out["sigma_classical"])) == pytest.approx(classical, rel=1e-12)
    assert 0 < float(str(out["sigma_exact"])) < classical


def test_cascade_sample_to_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "noise.npy"
    out = run_json(capsys, "cascade", "sample", "--depth", "4", "--sigma", "2", "--seed", "3", "--out", str(target))
    values = np.load(target)
    assert values.shape == (16,) and out["count"] == 16
    again = run_json(capsys, "cascade", "sample", "--depth", "4", "--sigma", "2", "--seed", "3")
    assert [float(v) for v in again["values"]] == list(values)  # type: ignore[attr-defined]
    nodes = run_json(capsys, "cascade", "sample", "--depth", "2", "--sigma", "1", "--seed", "3", "--nodes")
    tree = [float(v) for v in nodes["values"]]  # type: ignore[attr-defined]
    assert len(tree) == 7 and tree[0] == pytest.approx(tree[1] + tree[2])


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["cascade", "matrix", "--depth", "-2"], "--depth"),
        (["cascade", "matrix", "--depth", "x"], "--depth"),
        (["cascade", "sample", "--depth", "3", "--sigma", "0", "--seed", "1"], "sigma"),
        (["cascade", "sample", "--depth", "3", "--sigma", "nan", "--seed", "1"], "sigma"),
        (["calibrate", "cascade", "--depth", "3", "--epsilon", "-1", "--delta", "0.1"], "epsilon"),
        (["calibrate", "cascade", "--depth", "3", "--epsilon", "1", "--delta", "1"], "delta"),
        (["calibrate", "cascade", "--depth", "3", "--epsilon", "1", "--delta", "abc"], "delta"),
        (["calibrate", "gaussian", "--sensitivity", "0", "--epsilon", "1", "--delta", "0.1"], "sensitivity"),
        (["calibrate", "cascade", "--depth", "0", "--epsilon", "1", "--delta", "0.1", "--neighbours", "substitution"], "substitution"),
        (["cascade", "ranges", "--depth", "40"], "depth"),
        (["nonsense"], "invalid choice"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(argv: list[str], fragment: str) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "reference", *argv], capture_output=True, text=True, timeout=120, check=False
    )
    assert completed.returncode == 2
    lines = completed.stderr.strip().splitlines()
    assert len(lines) == 1, completed.stderr
    assert fragment in lines[0]
    assert "Traceback" not in completed.stderr


def test_fraction_output_is_exact(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "cascade", "matrix", "--depth", "3")
    diag = {Fraction(x) for x in out["inverse_diagonal"]}  # type: ignore[attr-defined]
    assert diag == {Fraction(2)}


def test_calibrate_inftda(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "calibrate", "inftda", "--attributes", "4", "--rho", "1/3")
    # σ² = d/ρ = 4 / (1/3) = 12, so that Δ²/(2σ²) = 2/24 = ρ/d per level
    assert out["sigma_squared"] == "12"
    assert out["rho_per_level"] == "1/12" and out["total_rho"] == "1/3"
    with_delta = run_json(capsys, "calibrate", "inftda", "--attributes", "4", "--rho", "1/3", "--delta", "1e-6")
    simple = 1 / 3 + 2 * (1 / 3 * np.log(1e6)) ** 0.5  # Bun–Steinke conversion: an upper bound on the tight ε
    assert 0 < float(with_delta["epsilon"]["decimal"]) <= simple  # type: ignore[index]


def test_calibrate_zcdp_and_laplace_l2(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "calibrate", "zcdp", "--rho", "1/2", "--delta", "1e-6")
    simple = 0.5 + 2 * (0.5 * np.log(1e6)) ** 0.5  # Bun–Steinke, evaluated here in floats
    assert float(out["epsilon_simple"]["decimal"]) == pytest.approx(simple, rel=1e-12)  # type: ignore[index]
    assert float(out["epsilon_tight"]["decimal"]) < simple  # type: ignore[index]
    back = run_json(capsys, "calibrate", "zcdp", "--epsilon", "1", "--delta", "1e-6")
    closed = (np.sqrt(1 + np.log(1e6)) - np.sqrt(np.log(1e6))) ** 2
    assert float(back["rho_simple"]["decimal"]) == pytest.approx(closed, rel=1e-10)  # type: ignore[index]
    scale = run_json(capsys, "calibrate", "laplace-l2-scale", "--l2", "1", "--epsilon", "1/2", "--delta", "1e-6")
    log_inverse = np.log(1e6)
    a = np.sqrt(2 * log_inverse) * (np.sqrt(1 + 0.5 / log_inverse) - 1)  # Lemma 5.5 in floats
    assert float(str(scale["scale"])) == pytest.approx(1 / a, rel=1e-10)
    report = run_json(capsys, "calibrate", "laplace-l2", "--l1", "8", "--l2-squared", "8", "--scale", "10", "--delta", "1e-6")
    assert float(str(report["epsilon"])) == pytest.approx(0.8)  # min(Δ1/λ, ...) = 8/10


def test_kary_commands(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    digits = run_json(capsys, "kary", "digits", "--arity", "5", "--value", "7", "--width", "3", "--offset")
    assert digits["digits"] == [2, 1, 0]  # 7 = 2 + 1·5 with digits in {−2..2}
    standard = run_json(capsys, "kary", "digits", "--arity", "3", "--value", "5", "--width", "2")
    assert standard["digits"] == [2, 1]  # 5 = 2 + 1·3
    # arity 3, T = 4 = (3^2 − 1)/2, height 2, Laplace scale 2/ε: offset digit counts 1, 2, 1, 2 → mean 3/2,
    # ε²·MSE = 2·2²·(3/2) = 12 (computed by hand)
    mse = run_json(capsys, "kary", "mse", "--arity", "3", "--horizon", "4", "--subtraction")
    assert mse["mse_times_epsilon_squared"] == "12" and mse["height"] == 2
    matrices = run_json(capsys, "kary", "matrices", "--arity", "3", "--height", "2", "--subtraction")
    assert matrices["L_times_R_is_A"] is True and matrices["l1_sensitivity"] == 2
    vertices = run_json(capsys, "kary", "vertices", "--arity", "2", "--height", "2", "--time", "3")
    assert [v["leaves"] for v in vertices["vertices"]] == [[1, 2], [3, 3]]  # 3 = 2 + 1: the block [1,2] then leaf 3
    stream = tmp_path / "stream.txt"
    stream.write_text("1 0 1 1 0 1", encoding="utf-8")
    run = run_json(capsys, "kary", "run", "--arity", "3", "--epsilon", "1", "--input", str(stream), "--seed", "4")
    assert run["horizon"] == 6 and len(run["noisy_prefix_counts"]) == 6  # type: ignore[arg-type]


def test_inftda_intopt(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "inftda", "intopt", "--values", "5,0,-2,3", "--total", "4")
    projection = out["projection"]
    assert sum(projection) == 4 and min(projection) >= 0  # type: ignore[arg-type]
    # brute force over all non-negative vectors summing to 4: the smallest ℓ∞ distance to (5, 0, -2, 3) is 2
    from itertools import product

    best = min(
        max(abs(a - b) for a, b in zip(vector, (5, 0, -2, 3)))
        for vector in product(range(5), repeat=4)
        if sum(vector) == 4
    )
    assert out["chebyshev_distance"] == best == 2


def test_inftda_run(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = tmp_path / "data.csv"
    data.write_text("region,town\nA,x\nA,y\nB,x\nB,x\n", encoding="utf-8")
    out = run_json(capsys, "inftda", "run", "--data", str(data), "--rho", "1/2", "--seed", "1")
    assert out["records"] == 4 and out["synthetic_records"] == 4  # |D̃| = n: the root is released exactly
    assert out["sigma_squared_per_level"] == "4"  # d/ρ = 2 / (1/2)
    target = tmp_path / "synthetic.csv"
    written = run_json(capsys, "inftda", "run", "--rho", "1", "--seed", "2", "--out", str(target))
    lines = target.read_text(encoding="utf-8").splitlines()
    assert len(lines) == written["rows_written"] + 1 == written["records"] + 1  # header + one row per record


def test_inftda_run_refuses_a_budget_below_the_float_samplers_range(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = tmp_path / "data.csv"
    data.write_text("region,town\nA,x\nB,y\n", encoding="utf-8")
    # two levels: σ² = 2/ρ per level, and the float sampler takes σ <= 1e12, so ρ >= 2e-24 (plus rounding) is needed
    assert main(["inftda", "run", "--data", str(data), "--rho", "1e-24"]) == 2
    message = capsys.readouterr().err.strip()
    assert message.count("\n") == 0 and "--rho must be at least 2.01e-24" in message
    assert main(["inftda", "run", "--data", str(data), "--rho", "2.01e-24", "--json", "--seed", "1"]) == 0


def test_an_epsilon_far_beyond_the_exponential_range_is_answered(capsys: pytest.CaptureFixture[str]) -> None:
    # e^ε at ε = 1e30 is far beyond 2**1048576, and is never formed: δ(ε) = Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ)
    # is read through Mills' ratio. At that ε the σ giving δ = 1/1000 solves εσ² − zσ − 1/2 ≈ 0 (z = Φ⁻¹(1 − δ)),
    # so σ = √(1/(2ε)) (1 + O(z/√ε)): 7.0710678118654752e-16 to 15 digits
    argv = ["calibrate", "gaussian", "--sensitivity", "1", "--epsilon", "1e30", "--delta", "1/1000", "--json"]
    assert main(argv) == 0
    sigma = float(json.loads(capsys.readouterr().out)["sigma_exact"])
    assert sigma == pytest.approx((1 / (2 * 1e30)) ** 0.5, rel=1e-10)


def test_audit_linear_noise_and_samplers(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # B = identity (independent Laplace noise on 2 counts), W = identity: Δ1 = 1, so ε = 1/b exactly
    (tmp_path / "B.json").write_text("[[1, 0], [0, 1]]", encoding="utf-8")
    (tmp_path / "W.json").write_text("[[1, 0], [0, 1]]", encoding="utf-8")
    out = run_json(
        capsys, "audit", "linear-noise", "--noise-matrix", str(tmp_path / "B.json"), "--workload",
        str(tmp_path / "W.json"), "--noise", "laplace", "--scale", "2",
    )
    assert out["private"] is True and out["epsilon"] == "1/2"
    # a noise matrix whose column space misses the second workload column: not private at all
    (tmp_path / "N.json").write_text("[[1], [0]]", encoding="utf-8")
    bad = run_json(
        capsys, "audit", "linear-noise", "--noise-matrix", str(tmp_path / "N.json"), "--workload",
        str(tmp_path / "W.json"), "--noise", "laplace", "--scale", "2", status=1,
    )
    assert bad["private"] is False and bad["first_offending_column"] == 1
    assert bad["verdict"] == "fails" and bad["witness"] == {"input_outside_noise_span": 1}
    from reference.cip.numeric.cascade import cascade_leaves

    generator = np.random.default_rng(5)
    np.save(tmp_path / "s.npy", np.array([cascade_leaves(2, 2.0, generator) for _ in range(4000)]))
    argv = ["audit", "samplers", "--mechanism", "cascade", "--samples", str(tmp_path / "s.npy"), "--depth", "2"]
    # correct σ: passes (false alarm 1e-7), held to a 10% scale error (16,000 whitened values see it)
    assert main([*argv, "--sigma", "2", "--alpha", "1e-7", "--smallest-deviation", "0.1", "--json"]) == 0
    capsys.readouterr()
    assert main([*argv, "--sigma", "4", "--alpha", "1e-7", "--json"]) == 1  # σ claimed twice too large: fails


def test_kary_mse_and_run_share_one_subtraction_switch_and_default() -> None:
    from reference.cli.main import build_parser

    parser = build_parser()
    mse = parser.parse_args(["kary", "mse", "--arity", "3", "--horizon", "4"])
    run = parser.parse_args(["kary", "run", "--arity", "3", "--epsilon", "1", "--input", "bits.txt"])
    assert mse.subtraction is True and run.subtraction is True  # Algorithm 2 unless told otherwise
    for command in (["kary", "mse", "--arity", "3", "--horizon", "4"], ["kary", "run", "--arity", "3", "--epsilon", "1", "--input", "b"]):
        assert parser.parse_args([*command, "--no-subtraction"]).subtraction is False
        assert parser.parse_args([*command, "--subtraction"]).subtraction is True
