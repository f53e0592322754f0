"""``audit linear-noise`` reads scipy.sparse ``.npz`` matrices: the same verdict as the JSON twin, one-line
refusals (exit 2) for a malformed or non-numeric file."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from scipy import sparse

from reference.cli.main import main


def _audit(capsys: pytest.CaptureFixture[str], noise: Path, workload: Path, *extra: str) -> tuple[int, str, str]:
    status = main(["audit", "linear-noise", "--noise-matrix", str(noise), "--workload", str(workload), "--noise",
                   "gaussian", "--scale", "1", *extra, "--json"])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_the_reproducer_from_npz_matches_its_json_twin(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "I.json").write_text("[[1,0],[0,1]]", encoding="utf-8")
    (tmp_path / "C.json").write_text("[[1,0],[-1,1]]", encoding="utf-8")
    sparse.save_npz(tmp_path / "I.npz", sparse.identity(2, dtype=np.int64, format="csr"))
    sparse.save_npz(tmp_path / "C.npz", sparse.csc_matrix(np.array([[1, 0], [-1, 1]])))
    claim = ["--participation", "min-separation:1,2", "--contribution", "signed", "--rho", "1"]
    status, out, _ = _audit(capsys, tmp_path / "I.npz", tmp_path / "C.npz", *claim)
    twin_status, twin_out, _ = _audit(capsys, tmp_path / "I.json", tmp_path / "C.json", *claim)
    # signed contributions: Δ² = 2 + 1 + 2·1 = 5, ρ = 5/2 > 1 (derived by hand in the issue): fails
    assert status == twin_status == 1
    result, twin = json.loads(out), json.loads(twin_out)
    assert result["l2_sensitivity_squared"] == twin["l2_sensitivity_squared"] == "5"
    assert result["verdict"] == twin["verdict"] == "fails"


def test_npz_draw_scales_are_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # B = diag(1, 2) by per-draw scales on the identity, W = I, Laplace b = 1: Δ1 = max(1, 1/2) = 1, ε = 1
    sparse.save_npz(tmp_path / "I.npz", sparse.identity(2, dtype=np.int64, format="csr"))
    sparse.save_npz(tmp_path / "s.npz", sparse.csr_matrix(np.array([[1, 2]])))
    status = main(["audit", "linear-noise", "--noise-matrix", str(tmp_path / "I.npz"), "--workload",
                   str(tmp_path / "I.npz"), "--noise", "laplace", "--scale", "1", "--draw-scales",
                   str(tmp_path / "s.npz"), "--epsilon", "1", "--json"])
    assert status == 0 and json.loads(capsys.readouterr().out)["epsilon"] == "1"


@pytest.mark.parametrize(("content", "expected"), [
    ("complex", "the entries must be integers or real floats, got complex128"),
    ("not-a-zip", "not a readable .npz file"),
    ("plain-arrays", "not a scipy.sparse .npz file"),
])
def test_a_bad_npz_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str,
                                      expected: str) -> None:
    bad = tmp_path / "bad.npz"
    if content == "complex":
        sparse.save_npz(bad, sparse.csr_matrix(np.array([[1j, 0], [0, 1]])))
    elif content == "not-a-zip":
        bad.write_bytes(b"\x93NUMPY not a zip archive")
    else:
        np.savez(bad, a=np.eye(2))
    sparse.save_npz(tmp_path / "I.npz", sparse.identity(2, dtype=np.int64, format="csr"))
    status, out, err = _audit(capsys, tmp_path / "I.npz", bad)
    assert status == 2 and out == ""
    line = err.strip()
    assert "\n" not in line and "Traceback" not in line
    assert line.startswith("reference: error: --workload:") and expected in line
