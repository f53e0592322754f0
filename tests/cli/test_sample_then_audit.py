"""``cascade sample --runs N`` writes what ``audit samplers`` reads (runs × 2**depth), and one rule refuses every
other shape with one line (exit 2), at every depth."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from reference.cip.numeric.cascade_runs import cascade_leaves_runs
from reference.cli.main import main


def test_sample_then_audit_is_a_pair(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "noise.npy")
    assert main(["cascade", "sample", "--depth", "3", "--sigma", "2.5", "--seed", "7", "--runs", "2000",
                 "--out", out]) == 0
    samples = np.load(out)
    assert samples.shape == (2000, 8)
    # run i is the batch sampler's run i: the seeds are the documented per-run seeds of --seed
    np.testing.assert_array_equal(samples, cascade_leaves_runs(3, 2.5, 2000, 7))
    assert main(["audit", "samplers", "--mechanism", "cascade", "--samples", out, "--depth", "3",
                 "--sigma", "2.5", "--smallest-deviation", "0.05"]) == 0
    capsys.readouterr()
    # the same samples against a wrong σ fail
    assert main(["audit", "samplers", "--mechanism", "cascade", "--samples", out, "--depth", "3",
                 "--sigma", "5"]) == 1


@pytest.mark.parametrize("depth", [3, 12])
def test_one_run_is_refused_alike_at_every_depth(depth: int, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "one.npy")
    np.save(out, np.zeros(1 << depth))
    status = main(["audit", "samplers", "--mechanism", "cascade", "--samples", out, "--depth", str(depth),
                   "--sigma", "1"])
    error = capsys.readouterr().err
    assert status == 2 and "2-D array" in error and "cascade sample --runs N" in error
    assert len(error.strip().splitlines()) == 1


def test_wrong_columns_and_nodes_with_runs_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "wide.npy")
    np.save(out, np.zeros((10, 16)))
    assert main(["audit", "samplers", "--mechanism", "cascade", "--samples", out, "--depth", "3", "--sigma", "1"]) == 2
    assert "8 columns" in capsys.readouterr().err
    assert main(["cascade", "sample", "--depth", "3", "--sigma", "1", "--seed", "1", "--runs", "2", "--nodes"]) == 2
    assert "--nodes" in capsys.readouterr().err
    np.save(out, np.zeros(20))
    assert main(["audit", "samplers", "--mechanism", "kary", "--samples", out, "--arity", "3", "--epsilon", "1"]) == 2
    assert "2-D array" in capsys.readouterr().err
