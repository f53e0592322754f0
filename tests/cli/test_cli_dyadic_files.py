"""``audit linear-noise`` with Laplace noise reads float ``.npz`` files on the dyadic path (one power of two makes
both matrices integer): the same verdict and ε as the same matrices given as exact rationals in JSON; a pair whose
scaled entries would not fit int64, or a file storing a position twice, takes the rational path; the stored
entries are bounded before they are read."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from scipy import sparse

from reference.audit.linear import dyadic_files
from reference.audit.linear.audit import audit_linear_noise
from reference.audit.linear.dyadic import scaled_to_integers
from reference.audit.linear.size_limits import SizeLimits
from reference.cli.main import main


def _audit(capsys: pytest.CaptureFixture[str], noise: Path, workload: Path, *extra: str,
           kind: str = "laplace") -> tuple[int, dict[str, object]]:
    status = main(["audit", "linear-noise", "--noise-matrix", str(noise), "--workload", str(workload), "--noise",
                   kind, "--scale", "1", *extra, "--json"])
    return status, json.loads(capsys.readouterr().out)


def _as_json(path: Path, matrix: np.ndarray) -> None:
    # the exact binary rationals the floats are, written as "p/q" strings
    path.write_text(json.dumps([[str(Fraction(float(v))) for v in row] for row in matrix]), encoding="utf-8")


def test_a_float_built_strategy_gives_the_rational_paths_verdict(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    # a two-level tree over 4 leaves, levels weighted by floats (a budget split optimised in floats), and its
    # consistency workload AᵀA: the release Aᵀ z + AᵀA x
    tree = np.array([[1, 1, 1, 1], [1, 1, 0, 0], [0, 0, 1, 1], [1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]],
                    dtype=np.float64)
    weights = np.array([0.1, 1 / 3, 1 / 3, 0.7, 0.7, 0.7, 0.7])
    weighted = weights[:, None] * tree
    noise, workload = weighted.T, weighted.T @ weighted
    sparse.save_npz(tmp_path / "B.npz", sparse.csr_matrix(noise))
    sparse.save_npz(tmp_path / "W.npz", sparse.csc_matrix(workload))
    _as_json(tmp_path / "B.json", noise)
    _as_json(tmp_path / "W.json", workload)
    raw = [dyadic_files.raw_npz(tmp_path / name, name, SizeLimits()) for name in ("B.npz", "W.npz")]
    assert dyadic_files.wants_dyadic(tmp_path / "B.npz", tmp_path / "W.npz")
    pair = dyadic_files.dyadic_pair(*raw)
    assert pair is not None  # the dyadic path is taken: one power of two makes both int64
    scaled = scaled_to_integers(*pair)
    assert scaled is not None and all(matrix.dtype == np.int64 for matrix in scaled)
    for claim in ("1", "100"):
        status, result = _audit(capsys, tmp_path / "B.npz", tmp_path / "W.npz", "--epsilon", claim)
        twin_status, twin = _audit(capsys, tmp_path / "B.json", tmp_path / "W.json", "--epsilon", claim)
        assert status == twin_status
        assert result["verdict"] == twin["verdict"]
        assert result["epsilon"] == twin["epsilon"]
    # Gaussian: the command gives what the library gives for the same float matrices in memory
    library = audit_linear_noise(noise, workload, "gaussian", scale=1)
    status, result = _audit(capsys, tmp_path / "B.npz", tmp_path / "W.npz", "--rho", "1", kind="gaussian")
    assert result["verdict"] == "holds" and status == 0
    assert result["l2_sensitivity_squared"] == str(library.l2_sensitivity_squared)


def test_pairs_off_the_dyadic_path_are_read_as_rationals(tmp_path: Path) -> None:
    identity = sparse.identity(2, dtype=np.float64, format="csr")
    sparse.save_npz(tmp_path / "I.npz", identity)
    # mantissas spread over 2^-1000 .. 1: no int64 scaling; the rational path reads it
    sparse.save_npz(tmp_path / "S.npz", sparse.csr_matrix(np.array([[1.0, 0.0], [0.0, 2.0 ** -1000]])))
    raw = [dyadic_files.raw_npz(tmp_path / name, name, SizeLimits()) for name in ("I.npz", "S.npz")]
    assert dyadic_files.dyadic_pair(*raw) is None
    # a position stored twice: scipy would add the floats with rounding; not read on this path
    twice = sparse.coo_matrix((np.array([0.1, 0.2]), (np.array([0, 0]), np.array([0, 0]))), shape=(2, 2))
    sparse.save_npz(tmp_path / "T.npz", twice, compressed=False)
    assert dyadic_files.raw_npz(tmp_path / "T.npz", "workload", SizeLimits()) is None
    # integers only, or a JSON file: not this path
    sparse.save_npz(tmp_path / "N.npz", sparse.identity(2, dtype=np.int64, format="csr"))
    assert not dyadic_files.wants_dyadic(tmp_path / "N.npz", tmp_path / "N.npz")
    (tmp_path / "I.json").write_text("[[1,0],[0,1]]", encoding="utf-8")
    assert not dyadic_files.wants_dyadic(tmp_path / "I.npz", tmp_path / "I.json")


def test_stored_entries_are_bounded_from_the_headers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sparse.save_npz(tmp_path / "I.npz", sparse.identity(50, dtype=np.float64, format="csr") * 0.5)
    status = main(["audit", "linear-noise", "--noise-matrix", str(tmp_path / "I.npz"), "--workload",
                   str(tmp_path / "I.npz"), "--noise", "laplace", "--scale", "1", "--max-nonzeros", "10"])
    assert status == 2
    error = capsys.readouterr().err.strip().splitlines()
    assert len(error) == 1 and "--noise-matrix" in error[0] and "--max-nonzeros" in error[0]
