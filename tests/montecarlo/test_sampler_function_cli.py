"""``audit sampler-function``: identical verdicts and statistics for any workers and block size; the
variance-for-σ mutant caught; exit codes 0 / 1 / 3 / 2. False-alarm probability of each seeded audit: 1e-6."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reference.cli.main import main

CASCADE = ["--mechanism", "cascade", "--depth", "6", "--sigma", "2"]
KARY = ["--mechanism", "kary", "--arity", "3", "--horizon", "20", "--epsilon", "1"]
#: Fields that describe how the run was executed, not what it found.
EXECUTION = ("plan", "seconds", "values_per_second")


def _run(capsys: pytest.CaptureFixture[str], target: str, *options: str) -> tuple[int, dict[str, object]]:
    status = main(["audit", "sampler-function", "--target", target, *options, "--json"])
    captured = capsys.readouterr()
    return status, json.loads(captured.out) if captured.out else {"stderr": captured.err}


def _found(result: dict[str, object]) -> dict[str, object]:
    return {key: value for key, value in result.items() if key not in EXECUTION}


@pytest.mark.parametrize(("target", "mechanism"), [
    ("examples.batched_samplers:cascade_depth_6", CASCADE),
    ("examples.batched_samplers:kary_algorithm_2_arity_3", KARY),
])
def test_identical_for_any_workers_and_block_size(capsys: pytest.CaptureFixture[str], target: str,
                                                  mechanism: list[str]) -> None:
    # held to a 50% scale error: 2400 runs cannot see 2% (inconclusive), and the point here is identity
    common = [*mechanism, "--runs", "2400", "--seed", "11", "--chunk-runs", "100", "--smallest-deviation", "1/2"]
    results = []
    for workers, block in ((1, "100"), (2, "300"), (3, "100"), (3, "300")):
        status, result = _run(capsys, target, *common, "--workers", str(workers), "--block-runs", block)
        assert status == 0 and result["verdict"] == "holds"
        results.append(result)
    assert all(_found(result) == _found(results[0]) for result in results[1:])
    assert len({result["plan"]["blocks"] for result in results}) == 2  # type: ignore[index]


def test_variance_for_sigma_is_caught_and_the_correct_sampler_passes(capsys: pytest.CaptureFixture[str]) -> None:
    common = [*CASCADE, "--runs", "2000", "--seed", "3", "--workers", "2"]
    status, result = _run(capsys, "examples.batched_samplers:cascade_depth_6", *common)
    assert status == 0 and result["verdict"] == "holds"
    status, result = _run(capsys, "reference_verification.planted.variance_for_std_cascade:faulty_cascade_batch", *common)
    assert status == 1 and result["verdict"] == "fails"
    assert any("node variances" in check["property"] and check["verdict"] == "fails"  # type: ignore[index]
               for check in result["checks"])  # type: ignore[attr-defined]


def test_power_is_stated_up_front(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["audit", "sampler-function", "--target", "examples.batched_samplers:cascade_depth_6",
                   *CASCADE, "--runs", "500", "--seed", "1", "--runs-for-deviation", "0.005", "--json"])
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    planned = result["planned_power"]
    assert "power: detects scale error" in captured.err
    assert 0 < planned["scale_error"] < 1 and planned["probability"] == 0.99
    assert status == (0 if planned["scale_error"] <= 0.02 else 3)  # inconclusive when a 2% error is out of reach
    assert planned["scale_error"] > 0.005  # 500 runs do not reach 0.5% ...
    assert result["runs_for_deviation"]["runs"] > 500  # ... so more runs are needed for it


@pytest.mark.parametrize(("target", "mechanism"), [
    ("examples.batched_samplers:kary_algorithm_1_arity_4",
     ["--mechanism", "kary", "--algorithm", "1", "--arity", "4", "--horizon", "20", "--epsilon", "1"]),
    ("examples.batched_samplers:discrete_gaussian_9_over_2", ["--mechanism", "discrete-gaussian", "--sigma-squared", "9/2"]),
    ("examples.batched_samplers:discrete_laplace_scale_3", ["--mechanism", "discrete-laplace", "--scale", "3"]),
    ("examples.batched_samplers:cascade_depth_6_one_run", CASCADE),
])
def test_the_other_mechanisms_and_the_one_run_adapter(capsys: pytest.CaptureFixture[str], target: str,
                                                      mechanism: list[str]) -> None:
    status, result = _run(capsys, target, *mechanism, "--runs", "2000", "--seed", "5", "--smallest-deviation", "1/4")
    assert status == 0 and result["verdict"] == "holds"


def test_wrong_parameters_fail(capsys: pytest.CaptureFixture[str]) -> None:
    status, result = _run(capsys, "examples.batched_samplers:discrete_laplace_scale_3",
                          "--mechanism", "discrete-laplace", "--scale", "4", "--runs", "3000", "--seed", "5")
    assert status == 1 and result["verdict"] == "fails"


def test_too_few_runs_is_inconclusive(capsys: pytest.CaptureFixture[str]) -> None:
    status, result = _run(capsys, "examples.batched_samplers:kary_algorithm_2_arity_3", *KARY, "--runs", "50",
                          "--seed", "1")
    assert status == 3 and result["verdict"] == "inconclusive"


@pytest.mark.parametrize(("target", "options", "message"), [
    ("examples.batched_samplers:nothing", CASCADE, "target"),
    ("no_such_module_here:f", CASCADE, "target"),
    ("examples.batched_samplers:cascade_depth_6", ["--mechanism", "cascade", "--depth", "5", "--sigma", "2"], "shape"),
    ("examples.batched_samplers:cascade_depth_6", ["--mechanism", "cascade", "--sigma", "2"], "--depth"),
    ("examples.batched_samplers:cascade_depth_6", [*CASCADE, "--chunk-runs", "10", "--block-runs", "15"], "block_runs"),
    ("examples.batched_samplers:cascade_depth_6", [*CASCADE, "--scheduler", "tcp://127.0.0.1:1"], "scheduler"),
    ("examples.batched_samplers:cascade_depth_6", [*CASCADE, "--sigma", "-1"], "--sigma"),
    ("examples.batched_samplers:broken_sampler", CASCADE, "broken_sampler raised RuntimeError: out of entropy"),
])
def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], target: str, options: list[str],
                                          message: str) -> None:
    status = main(["audit", "sampler-function", "--target", target, *options, "--runs", "100", "--seed", "1"])
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert status == 2 and message in error and error.startswith("reference: error:")


def test_a_users_noise_matrix_design(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # the depth-2 cascade by hand: leaves = B z with draw variances 1, 3/4, 3/4, 3/4 (derived from the split
    # left/right = parent/2 ± (√3/2) σ z, the √3/2 moved into the variance)
    matrix = tmp_path / "b.csv"
    matrix.write_text("1/4,1/2,1,0\n1/4,1/2,-1,0\n1/4,-1/2,0,1\n1/4,-1/2,0,-1\n")
    variances = tmp_path / "v.csv"
    variances.write_text("1,3/4,3/4,3/4\n")
    design = ["--mechanism", "design", "--noise-matrix", str(matrix), "--noise", "gaussian",
              "--draw-variances", str(variances), "--runs", "20000", "--seed", "2"]
    status, result = _run(capsys, "examples.batched_samplers:my_cascade_batch", *design, "--scale", "1")
    assert status == 0 and result["verdict"] == "holds"
    assert any(check["property"] == "whitened variances" for check in result["checks"])  # type: ignore[attr-defined]
    status, result = _run(capsys, "examples.batched_samplers:my_cascade_batch", *design, "--scale", "2")
    assert status == 1 and result["verdict"] == "fails"


def test_a_dask_distributed_cluster_gives_the_same_result(capsys: pytest.CaptureFixture[str]) -> None:
    distributed = pytest.importorskip("distributed", reason="--scheduler needs dask.distributed: python -m pip install '.[cluster]'")  # optional: only --scheduler needs it
    common = [*CASCADE, "--runs", "600", "--seed", "4", "--chunk-runs", "50", "--smallest-deviation", "1/4"]
    status, local = _run(capsys, "examples.batched_samplers:cascade_depth_6", *common)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        status_remote, remote = _run(capsys, "examples.batched_samplers:cascade_depth_6", *common,
                                     "--scheduler", cluster.scheduler_address, "--workers", "2")
    assert status == status_remote == 0
    assert _found(local) == _found(remote)


def test_a_wrong_family_of_the_right_variance_fails(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Gaussian draws claimed as Laplace of the same variance (and the reverse): second moments agree, the
    whole-law audit of the runs does not."""
    (tmp_path / "same_variance.py").write_text(
        "def gaussian(generator, runs):\n    return generator.normal(0, 2 * 2 ** 0.5, size=(runs, 1))\n"
        "def laplace(generator, runs):\n    return generator.laplace(0, 2 / 2 ** 0.5, size=(runs, 1))\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    status, result = _run(capsys, "same_variance:gaussian", "--mechanism", "laplace", "--scale", "2", "--runs",
                          "20000", "--seed", "1")
    assert status == 1 and result["verdict"] == "fails"
    status, result = _run(capsys, "same_variance:laplace", "--mechanism", "gaussian", "--sigma", "2", "--runs",
                          "20000", "--seed", "1")
    assert status == 1 and result["verdict"] == "fails"


def test_too_few_cascade_runs_are_inconclusive(capsys: pytest.CaptureFixture[str]) -> None:
    status, result = _run(capsys, "examples.batched_samplers:cascade_depth_6_one_run", *CASCADE, "--runs", "20",
                          "--seed", "5")
    assert status == 3 and result["verdict"] == "inconclusive" and result["runs_needed"] > 20
