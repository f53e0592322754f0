"""Every size limit of the linear-noise audit is refused before its work, names the flag that raises it, and,
raised, lets the same input through to the value derived by hand."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from reference.audit.linear.audit import audit_linear_noise, load_exact_matrix, load_matrix_columns
from reference.audit.linear.size_limits import FLAGS, SizeLimits
from reference.cli.main import main


def test_every_field_has_a_flag_and_is_positive() -> None:
    assert set(FLAGS) == {field for field in SizeLimits.__dataclass_fields__}
    for field in FLAGS:
        with pytest.raises(ValueError, match=f"size_limits.{field}"):
            SizeLimits(**{field: 0})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="size_limits must be a SizeLimits"):
        audit_linear_noise([[1]], [[1]], "gaussian", scale=1, size_limits={"nonzeros": 5})  # type: ignore[arg-type]


def test_text_entries(tmp_path: Path) -> None:
    (tmp_path / "m.csv").write_text("1,0,0\n0,1,0\n0,0,1\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"at most 5 are parsed .*--max-text-entries"):
        load_exact_matrix(tmp_path / "m.csv", "w", SizeLimits(text_entries=5))
    assert load_exact_matrix(tmp_path / "m.csv", "w", SizeLimits(text_entries=12))[2][2] == 1


def test_scanned_entries(tmp_path: Path) -> None:
    np.save(tmp_path / "m.npy", np.eye(3, dtype=np.int64))
    with pytest.raises(ValueError, match=r"at most 8 entries; raise it with --max-scanned-entries"):
        load_matrix_columns(tmp_path / "m.npy", "w", SizeLimits(scanned_entries=8))
    assert load_matrix_columns(tmp_path / "m.npy", "w", SizeLimits(scanned_entries=9)).cols == 3


def test_nonzeros_in_the_sparse_audit() -> None:
    # B = W = I (3 x 3): 6 non-zeros in the plain form; Gaussian σ = 1: Δ² = 1, ρ = 1/2
    identity = np.eye(3, dtype=np.int64)
    with pytest.raises(ValueError, match=r"at most 5 .*--max-nonzeros"):
        audit_linear_noise(identity, identity, "gaussian", scale=1, size_limits=SizeLimits(nonzeros=5))
    assert audit_linear_noise(identity, identity, "gaussian", scale=1,
                              size_limits=SizeLimits(nonzeros=6)).rho == Fraction(1, 2)


def test_dense_dimension() -> None:
    # substitution neighbours go to the dense audit: I (3 x 3), v = e_i - e_j, Δ² = 2, ρ = 1 at σ = 1
    identity = [[int(i == j) for j in range(3)] for i in range(3)]
    with pytest.raises(ValueError, match=r"at most 2 rows and columns .*--max-dense-dimension"):
        audit_linear_noise(identity, identity, "gaussian", scale=1, neighbours="substitution",
                           size_limits=SizeLimits(dense_dimension=2))
    assert audit_linear_noise(identity, identity, "gaussian", scale=1, neighbours="substitution",
                              size_limits=SizeLimits(dense_dimension=3)).rho == 1


def test_sparse_dimension() -> None:
    identity = [[int(i == j) for j in range(3)] for i in range(3)]
    with pytest.raises(ValueError, match=r"at most 2 rows and columns; raise it with --max-sparse-dimension"):
        audit_linear_noise(identity, identity, "gaussian", scale=1, size_limits=SizeLimits(sparse_dimension=2))
    with pytest.raises(ValueError, match=r"--max-sparse-dimension"):
        audit_linear_noise(np.eye(3), np.eye(3), "gaussian", scale=1, size_limits=SizeLimits(sparse_dimension=2))
    assert audit_linear_noise(identity, identity, "gaussian", scale=1,
                              size_limits=SizeLimits(sparse_dimension=3)).rho == Fraction(1, 2)


def test_kernel_dimension_and_projection_work() -> None:
    # B = [1 1 1] (three draws summed), W = [1]: the minimum-norm strategy is Bᵀ/3, ‖a‖² = 3/9 = 1/3; ker B has
    # dimension 2 (and a basis of at least 4 non-zeros: each kernel vector has two)
    noise, workload = [[1, 1, 1]], [[1]]
    with pytest.raises(ValueError, match=r"kernel dimension at most 1\); raise it with --max-kernel-dimension"):
        audit_linear_noise(noise, workload, "gaussian", scale=1, size_limits=SizeLimits(kernel_dimension=1))
    with pytest.raises(ValueError, match=r"at most 3\); raise it with --max-projection-work"):
        audit_linear_noise(noise, workload, "gaussian", scale=1, size_limits=SizeLimits(projection_work=3))
    raised = audit_linear_noise(noise, workload, "gaussian", scale=1,
                                size_limits=SizeLimits(kernel_dimension=2, projection_work=100))
    assert raised.l2_sensitivity_squared == Fraction(1, 3)


def test_the_command_line_refusal_names_the_flag_and_the_flag_raises_it(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "I.json").write_text("[[1,0],[0,1]]", encoding="utf-8")
    argv = ["audit", "linear-noise", "--noise-matrix", str(tmp_path / "I.json"), "--workload",
            str(tmp_path / "I.json"), "--noise", "gaussian", "--scale", "1", "--rho", "1/2", "--json"]
    assert main([*argv, "--max-nonzeros", "3"]) == 2
    error = capsys.readouterr().err.strip()
    assert "\n" not in error and "--max-nonzeros" in error
    assert main([*argv, "--max-nonzeros", "4"]) == 0  # Δ² = 1, ρ = 1/2: holds
    assert json.loads(capsys.readouterr().out)["rho"] == "1/2"
    with pytest.raises(SystemExit) as refused:  # argparse's own refusal of the value
        main([*argv, "--max-nonzeros", "0"])
    assert refused.value.code == 2 and "expected a positive integer" in capsys.readouterr().err
