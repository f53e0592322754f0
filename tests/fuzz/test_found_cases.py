"""The cases an independent-fuzzer pass found, one test each: the input, and the one-line refusal (or the answer)
it now gets. Each was a traceback, a hang, a memory failure, a refusal after the work or an unnamed message."""

from __future__ import annotations

import io
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from reference.audit.linear.audit import MAX_TEXT_ENTRIES, load_exact_matrix
from reference.audit.linear.participation import min_separation
from reference.cli.main import main
from reference.core.npy_files import load_npy, load_npy_bytes
from reference.core.validate import MAX_EXACT_BITS, parse_rational_text, to_fraction


def _forged_npy(path: Path) -> None:
    with path.open("wb") as handle:
        np.lib.format.write_array_header_1_0(handle, {"descr": "<f8", "fortran_order": False,
                                                      "shape": (100_000, 100_000)})


def test_a_forged_npy_header_is_refused_before_allocation(tmp_path: Path) -> None:
    path = tmp_path / "forged.npy"
    _forged_npy(path)
    with pytest.raises(ValueError, match=r"samples: the \.npy header gives shape \(100000, 100000\)"):
        load_npy(path, "samples")
    with pytest.raises(ValueError, match="truncated or a wrong header"):
        load_npy_bytes(path.read_bytes(), "--input")


def test_a_pickled_npy_is_refused_naming_the_parameter(tmp_path: Path) -> None:
    path = tmp_path / "objects.npy"
    np.save(path, np.array([[1, 0], [0, 1]], dtype=object), allow_pickle=True)
    with pytest.raises(ValueError, match=r"noise_matrix: the \.npy file holds Python objects"):
        load_npy(path, "noise_matrix")


def test_matrix_text_is_bounded_by_entries_before_parsing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    side = int(MAX_TEXT_ENTRIES**0.5) + 1
    path = tmp_path / "big.csv"
    path.write_text("\n".join(",".join(["0"] * side) for _ in range(side)), encoding="utf-8")

    def no_parsing(*_: object) -> None:
        raise AssertionError("entries were parsed before the refusal")

    monkeypatch.setattr("reference.audit.linear.audit.exact_matrix", no_parsing)
    with pytest.raises(ValueError, match=r"workload: the file holds about .* entries; at most 1,000,000"):
        load_exact_matrix(path, "workload")


def test_a_csv_field_over_the_csv_limit_is_a_refusal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "field.csv"
    path.write_text("1" + "0" * 140_000 + ",0\n0,1\n", encoding="utf-8")
    status = main(["audit", "linear-noise", "--noise-matrix", str(path), "--workload", str(path),
                   "--noise", "laplace", "--scale", "1", "--epsilon", "1"])
    assert status == 2
    assert "--noise-matrix" in capsys.readouterr().err


def test_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.csv"
    path.write_text("\ufeff1,0\n0,1\n", encoding="utf-8")
    assert [list(row) for row in load_exact_matrix(path, "m")] == [[1, 0], [0, 1]]


def test_exact_api_numbers_are_bounded_in_bits() -> None:
    assert to_fraction(Fraction(1, 10**15000), "delta") == Fraction(1, 10**15000)
    with pytest.raises(ValueError, match=f"delta has a 100002-bit .*at most {MAX_EXACT_BITS} bits"):
        to_fraction(Fraction(1, 2**100_001), "delta")


def test_text_past_pythons_digit_guard_is_read() -> None:
    value = parse_rational_text("1/" + "3" * 4998, "epsilon")
    assert value.denominator == (10**4998 - 1) // 3
    assert parse_rational_text("0." + "0" * 4990 + "1e-5000", "delta") == Fraction(1, 10**9991)
    assert parse_rational_text("-1.5e3", "x") == -1500


@pytest.mark.parametrize(("argv", "named"), [
    (["calibrate", "laplace-l2", "--l1", "100", "--l2-squared=-0", "--scale", "1", "--delta", "1e-6"], "--l2-squared"),
    (["inftda", "run", "--rho", "1e10000"], "--rho"),
    (["calibrate", "gaussian", "--sensitivity", "1", "--epsilon=1e10000", "--delta", "1e-6"], "--epsilon"),
])
def test_refusals_name_the_option(argv: list[str], named: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    message = capsys.readouterr().err.strip()
    assert named in message and "\n" not in message


def test_a_stream_past_int64_is_refused_naming_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "stream.txt"
    path.write_text("1" + "0" * 40, encoding="utf-8")
    assert main(["kary", "run", "--arity", "3", "--epsilon", "1", "--input", str(path)]) == 2
    assert "--input" in capsys.readouterr().err


def test_kary_run_refuses_printing_a_long_stream(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "stream.txt"
    path.write_text(" ".join(["1"] * 100_001), encoding="utf-8")
    assert main(["kary", "run", "--arity", "3", "--epsilon", "1", "--input", str(path)]) == 2
    assert "give --out FILE.npy" in capsys.readouterr().err


def test_a_huge_separation_needs_no_huge_table() -> None:
    scheme = min_separation(separation=99_999_999, times=99_999_999)
    assert scheme.count(2) == 2  # one input per pattern: {0} and {1}


def test_a_design_audit_checks_the_samples_width_first(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    matrix = tmp_path / "identity.csv"
    matrix.write_text("1,0\n0,1\n", encoding="utf-8")
    samples = tmp_path / "samples.npy"
    np.save(samples, np.zeros((200, 4)))
    status = main(["audit", "samplers", "--mechanism", "design", "--noise", "laplace", "--noise-matrix", str(matrix),
                   "--scale", "1", "--samples", str(samples)])
    assert status == 2
    assert "samples must have shape (runs, 2)" in capsys.readouterr().err


def test_a_failing_sampler_audit_starts_with_one_short_line() -> None:
    from reference.audit.samples.audit import audit_cascade_samples

    samples = 1.3 * np.random.default_rng(1).standard_normal((3000, 64))
    report = audit_cascade_samples(samples, 6, sigma=1.0)
    assert report.verdict == "fails"
    summary = report.summary()
    assert "failing sub-tests in" in summary and summary.count("; ") <= 6
    assert len(summary) < 800  # it was 2,500 characters listing 20 coordinates


def test_an_over_noised_gaussian_prints_its_tiny_delta_quickly(capsys: pytest.CaptureFixture[str]) -> None:
    # the delta sits near 2**-(2**20): its decimal was formatted with gcds of million-bit integers (seconds)
    assert main(["audit", "calibration", "--mechanism", "gaussian", "--sigma", "1e10", "--sensitivity-squared", "1",
                 "--epsilon", "1", "--delta", "1e-5"]) == 0
    assert "holds" in capsys.readouterr().out


def test_npy_bytes_round_trip() -> None:
    buffer = io.BytesIO()
    np.save(buffer, np.arange(6).reshape(2, 3))
    assert load_npy_bytes(buffer.getvalue(), "x").tolist() == [[0, 1, 2], [3, 4, 5]]


def test_cascade_sample_refuses_an_out_name_before_sampling(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """A wrong --out name was refused only after the whole tree was drawn (about 1 GB at depth 26)."""
    import reference.cip.numeric.cascade as cascade

    def drawn(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the tree was drawn before --out was checked")

    monkeypatch.setattr(cascade, "cascade_tree", drawn)
    monkeypatch.setattr(cascade, "cascade_leaves", drawn)
    status = main(["cascade", "sample", "--depth", "26", "--sigma", "7/2", "--seed", "1", "--nodes", "--out", str(tmp_path / "x")])
    assert status == 2 and "--out must name a .npy file" in capsys.readouterr().err
