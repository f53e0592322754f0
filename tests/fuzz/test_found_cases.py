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


def _npy_with_header(path: Path, major: int, header: bytes, length: int | None = None, tail: bytes = b"") -> None:
    size = len(header) if length is None else length
    field = size.to_bytes(2 if major == 1 else 4, "little")
    path.write_bytes(b"\x93NUMPY" + bytes([major, 0]) + field + header + tail)


NPY_OPTIONS = [
    ["audit", "linear-noise", "--noise-matrix", "{path}", "--workload", "{ok}", "--noise", "laplace", "--scale", "1",
     "--epsilon", "1"],
    ["audit", "linear-noise", "--noise-matrix", "{ok}", "--workload", "{path}", "--noise", "laplace", "--scale", "1",
     "--epsilon", "1"],
    ["audit", "samplers", "--samples", "{path}", "--mechanism", "cascade", "--depth", "1", "--sigma", "1"],
]


@pytest.mark.parametrize("options", NPY_OPTIONS)
@pytest.mark.parametrize(("major", "header", "length", "words"), [
    # unbalanced header syntax: numpy's tokenizer raised TokenError (exit 70, "internal error")
    (1, b"{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), " + b" " * 40 + b"\n", None,
     "the header is not a valid .npy header"),
    (1, b"{'descr': '<f8', 'fortran_order': False, 'shape': ((((2, 2)}" + b" " * 40 + b"\n", None,
     "not a readable .npy file"),
    # a version-2 length field of 2**32 - 1: numpy read a 4 GiB header ("out of memory" under a memory limit)
    (2, b"{'descr'", 2**32 - 1, "the header length field says 4,294,967,295 bytes"),
    (3, b"{'descr'", 10_001, "at most 10,000"),
])
def test_a_malformed_npy_header_is_one_line_naming_the_option(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              options: list[str], major: int, header: bytes,
                                                              length: int | None, words: str) -> None:
    path = tmp_path / "forged.npy"
    _npy_with_header(path, major, header, length, tail=b" " * 20_000)
    ok = tmp_path / "ok.npy"
    np.save(ok, np.eye(2, dtype=np.int64))
    status = main([word.format(path=path, ok=ok) for word in options])
    error = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(error) == 1 and words in error[0]
    option = options[options.index("{path}") - 1]
    assert error[0].startswith(f"reference: error: {option}")


def test_exact_values_of_10000_digits_are_printed_without_the_integer_string_limit() -> None:
    """An ε of 10,000 digits (Laplace scale 1/(10^9999 + 7)) in the audit's explanation and JSON, with Python's
    default guard of 4,300 digits in place (the API, not the command line, which raises it)."""
    import sys

    from reference.audit.linear.audit import audit_linear_noise
    from reference.core.validate import fraction_text

    assert sys.get_int_max_str_digits() in (0, 4300) or sys.get_int_max_str_digits() >= 4300
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(4300)
    try:
        big = 10**9999 + 7
        assert fraction_text(Fraction(big, 3)) == "1" + "0" * 9995 + "0007/3"
        for noise in ("laplace", "gaussian"):
            for matrix in ([[1]], [[1, 0], [1, 1]]):
                verdict = audit_linear_noise(matrix, matrix, noise, scale=Fraction(1, big))
                text = verdict.summary() + str(verdict.as_json())
                expected = fraction_text(Fraction(big)) if noise == "laplace" else fraction_text(Fraction(big * big, 2))
                assert expected in text  # ε = l1/b = 10^9999 + 7; ρ = Δ²/(2b²) for the identity (Δ² = 1)
    finally:
        sys.set_int_max_str_digits(limit)


def test_discrete_gaussian_profiles_at_huge_sigma_are_refused_before_any_sum(monkeypatch: pytest.MonkeyPatch) -> None:
    from reference.privacy import discrete_gaussian_profile as profile

    def no_sum(*_: object, **__: object) -> None:
        raise AssertionError("a lattice sum started before the refusal")

    monkeypatch.setattr(profile, "_lattice_sum", no_sum)
    # σ = 31,623: 12σ ≈ 380,000 terms for one evaluation (tens of seconds), over the limit of 100,000
    with pytest.raises(ValueError, match=r"sigma_squared 1000000000 is too large .*\(at most 100000"):
        profile.discrete_gaussian_delta(epsilon=0, sigma_squared=10**9, sensitivity=2)
    with pytest.raises(ValueError, match=r"sigma_squared 1000000000 is too large"):
        profile.discrete_gaussian_epsilon(delta="1e-6", sigma_squared=10**9, sensitivity=3)
    # σ² = 5e7: one evaluation is allowed (12·(isqrt(5e7 + 1) + 1) = 84,864 terms), the search for ε (Newton's 16
    # evaluations: 1.36 million terms, over the limit of a million) is not
    with pytest.raises(ValueError, match=r"needs about 16 evaluations of 84864 lattice terms"):
        profile.discrete_gaussian_epsilon(delta="1e-12", sigma_squared=5 * 10**7, sensitivity=1)


def test_a_discrete_gaussian_claim_at_large_sigma_is_judged_without_the_costly_search(
        capsys: pytest.CaptureFixture[str]) -> None:
    import json

    status = main(["audit", "calibration", "--mechanism", "discrete-gaussian", "--sigma-squared", "1e7",
                   "--epsilon", "1/35", "--delta", "1e-12", "--sensitivity", "1", "--json"])
    result = json.loads(capsys.readouterr().out)
    # δ(1/35) at σ² = 1e7, Δ = 1 is far below 1e-12 (the continuous bound exp(-(εσ²)²/(2σ²)) is e^-4000)
    assert status == 0 and result["verdict"] == "holds"
    # the smallest ε at δ is located by Newton in a handful of evaluations (16 × 37,956 terms, within the limit)
    # and certified: an enclosure below the claimed 1/35
    smallest = result["epsilon_at_delta"]
    assert isinstance(smallest, dict) and Fraction(smallest["upper"]) < Fraction(1, 35)


@pytest.mark.parametrize(("options", "words"), [
    (["cascade", "matrix", "--depth", "11", "--max-seconds", "1" + "0" * 29], "at most 86400 seconds"),
    (["audit", "sampler-function", "--target", "examples.batched_samplers:cascade_depth_6", "--mechanism",
      "cascade", "--depth", "6", "--sigma", "2", "--runs", "200", "--seed", "1", "--runs-for-deviation",
      "1e-1000000000"], "exponents from -10000 to 10000"),
])
def test_huge_numbers_in_options_are_refused_before_any_arithmetic(capsys: pytest.CaptureFixture[str],
                                                                   options: list[str], words: str) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(options)
    error = capsys.readouterr().err.strip().splitlines()
    assert stopped.value.code == 2 and words in error[-1]


def test_a_deviation_out_of_reach_is_refused_after_one_power_evaluation(monkeypatch: pytest.MonkeyPatch) -> None:
    from reference.audit.samples.design_audit import smallest_detecting_runs

    calls: list[int] = []

    def never(runs: int) -> bool:
        calls.append(runs)
        return False

    with pytest.raises(ValueError, match="needs more than 10\\^13 runs"):
        smallest_detecting_runs(never, 16, "a deviation of 1e-300")
    assert calls == [10**13]


@pytest.mark.parametrize("noise", ["laplace", "gaussian", "discrete-laplace", "discrete-gaussian"])
def test_an_all_zero_workload_is_private_at_any_claim(noise: str) -> None:
    """W = 0: the release does not depend on the data, so every claim holds (δ(ε) = 0, ρ = 0, ε = 0) — derived,
    not read from the code. A 3 × 3 zero pair here; the 5000 × 5005 one of the command line is the same path."""
    from reference.audit.linear.audit import audit_linear_noise

    zero = np.zeros((3, 3), dtype=np.int64)
    verdict = audit_linear_noise(zero, zero, noise, scale=1)  # type: ignore[arg-type]
    assert verdict.verdict_on(epsilon=Fraction(1, 10**6), delta=Fraction(1, 10**9)) == "holds"
    if noise in ("laplace", "discrete-laplace"):
        assert verdict.verdict_on(epsilon=Fraction(1, 10**6), delta=None) == "holds"


def test_a_large_kernel_is_refused_before_its_gram_matrix() -> None:
    """The minimum-norm projection's Gram matrix is kernel² dot products and a kernel³ exact inverse: a kernel
    over the limit is refused before either (an all-zero 5000 × 5005 B took minutes); with nothing to project
    (W = 0) the kernel is not looked at."""
    from reference.audit.linear import sparse_audit
    from reference.audit.linear.size_limits import SizeLimits

    limits = SizeLimits(kernel_dimension=10)
    kernel: list[dict[int, Fraction]] = [{draw: Fraction(1)} for draw in range(1, 12)]
    assert sparse_audit._minimum_norm([{}, {}], kernel, limits) == [{}, {}]
    with pytest.raises(ValueError, match=r"noise_matrix: its kernel has dimension 11; .*at most 10\); .*--max-kernel"):
        sparse_audit._minimum_norm([{0: Fraction(1)}], kernel, limits)


@pytest.mark.parametrize("text", ["any: 2", " any:2", "any:2 ", "once-per-block: 3", "min-separation:2, 3"])
def test_a_participation_with_stray_spaces_is_refused(text: str) -> None:
    from reference.audit.linear.participation import parse_participation

    with pytest.raises(ValueError, match=r"^participation must be any:M, .* with no spaces, got"):
        parse_participation(text)


@pytest.mark.parametrize(("options", "message"), [
    ({"mechanism": "design", "design": 1}, r"^design must be a LinearDesign law or a Design .*got int"),
    ({"mechanism": "design", "design": None}, r"^design must be a LinearDesign law or a Design .*got NoneType"),
    ({"mechanism": "cascade", "depth": "2", "sigma": 1}, r"^depth must be an integer in \[0, 30\], got '2'"),
])
def test_assert_samples_match_names_a_wrong_argument(options: dict[str, object], message: str) -> None:
    from reference.testing import assert_samples_match

    with pytest.raises((ValueError, TypeError), match=message):
        assert_samples_match(None, **options)  # type: ignore[arg-type]


def test_zcdp_with_delta_a_hair_below_one_is_zero_epsilon() -> None:
    """ρ = 1, δ = 1 - 10^-4990: (0, δ)-DP already holds, since at the order α = 1.1 the tight bound (CKS 2020,
    Corollary 13, at ε = 0) is exp(0.1·1.1·ρ + 0.1·log 0.1 - 1.1·log 1.1) ≈ exp(-0.225) ≈ 0.80 < δ (computed here
    in floats, apart from the library). It was refused as undecided; ρ = 3e23 (where δ(0) is about 1) still is."""
    import math

    from reference.core.certified import UndecidedComparisonError
    from reference.privacy.zcdp import epsilon_from_rho_tight

    assert math.exp(0.1 * 1.1 * 1 + 0.1 * math.log(0.1) - 1.1 * math.log(1.1)) < 0.81
    hair = 1 - Fraction(1, 10**4990)
    found = epsilon_from_rho_tight(delta=hair, rho=1)
    assert found.lower == found.upper == 0
    assert epsilon_from_rho_tight(delta=Fraction(3, 5), rho=1).lower > 0  # δ(0) ≈ 0.798 > 0.6: ε > 0 needed
    with pytest.raises((UndecidedComparisonError, ValueError)):
        epsilon_from_rho_tight(delta=hair, rho=3 * 10**23)


@pytest.mark.parametrize(("noise", "words"), [
    ("laplace", "noise must be an array of real numbers, got a str"),  # was numpy's "could not convert string"
    ([1j, 2], "got dtype complex128"),  # was a ComplexWarning and a silent cast
    ([[1.0], [1.0, 2.0]], "a ragged or mixed value is not one"),  # was "inhomogeneous shape"
    ([1.0, float("nan")], "only finite values"),
])
def test_arrays_of_reals_are_read_by_one_reader(noise: object, words: str) -> None:
    from reference import worst_range_error

    with pytest.raises(ValueError, match=words):
        worst_range_error(noise)


@pytest.mark.parametrize("noise", ["laplace", "gaussian", "discrete-laplace", "discrete-gaussian"])
def test_a_zero_noise_matrix_is_decided_before_its_columns_are_built(noise: str,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """B = 0 (an all-zero 5000 × 5005 .npy pair took over a second in the general path): W = 0 holds every claim,
    pure ones included (the release does not depend on the data); W ≠ 0 is not private at W's first non-zero
    column (nothing hides it). Both are answered from the non-zero counts: building a column is an error here."""
    from reference.audit.linear.audit import audit_linear_noise
    from reference.audit.linear.column_matrix import IntegerArray

    def no_columns(self: IntegerArray, differenced: bool) -> list[dict[int, int]]:
        raise AssertionError("a column was built")

    monkeypatch.setattr(IntegerArray, "columns", no_columns)
    zero_noise = IntegerArray(np.zeros((40, 45), dtype=np.int64))
    verdict = audit_linear_noise(zero_noise, IntegerArray(np.zeros((40, 45), dtype=np.int64)), noise,  # type: ignore[arg-type]
                                 scale=3)
    assert verdict.private and verdict.rank == 0 and verdict.kernel_dimension == 45
    assert verdict.l1_sensitivity == 0 and verdict.l2_sensitivity_squared == 0
    for delta in (None, Fraction(1, 10**9)):
        assert verdict.verdict_on(epsilon=Fraction(1, 10**6), delta=delta) == "holds"
    workload = np.zeros((40, 45), dtype=np.int64)
    workload[7, 3] = workload[2, 9] = 1
    leaking = audit_linear_noise(zero_noise, IntegerArray(workload), noise, scale=3)  # type: ignore[arg-type]
    assert not leaking.private and leaking.first_offending_column == 3
    assert leaking.verdict_on(epsilon=5) == "fails"


@pytest.mark.parametrize("noise", ["laplace", "gaussian", "discrete-laplace", "discrete-gaussian"])
def test_the_zero_noise_shortcut_agrees_with_the_general_path(noise: str) -> None:
    """The twin: the general sparse audit (which the shortcut skips) on the same small B = 0 pairs."""
    from reference.audit.linear.column_matrix import IntegerArray
    from reference.audit.linear.sparse_audit import sparse_linear_noise_audit
    from reference.audit.linear.zero_matrices import zero_noise_verdict

    zero = np.zeros((4, 5), dtype=np.int64)
    leaking = zero.copy()
    leaking[1, 2] = -2
    for workload in (zero, leaking):
        fast = zero_noise_verdict(IntegerArray(zero), IntegerArray(workload), noise, Fraction(3), 1)
        slow = sparse_linear_noise_audit(IntegerArray(zero), IntegerArray(workload), noise, Fraction(3), 1)
        assert fast is not None
        for field in ("private", "rank", "kernel_dimension", "first_offending_column", "l1_sensitivity",
                      "l2_sensitivity_squared", "epsilon", "strategy"):
            assert getattr(fast, field) == getattr(slow, field), field
        if slow.rho is not None:
            assert fast.rho == slow.rho


def test_a_gaussian_release_of_a_zero_workload_is_pure_dp() -> None:
    """Gaussian noise is never pure ε-DP when the data moves the mean; with W = 0 (B ≠ 0, the general path) it
    does not, and the ε-DP claim holds (it was "fails")."""
    from reference.audit.linear.audit import audit_linear_noise

    verdict = audit_linear_noise(np.eye(3, dtype=np.int64), np.zeros((3, 2), dtype=np.int64), "gaussian", scale=1)
    assert verdict.rho == 0
    assert verdict.verdict_on(epsilon=Fraction(1, 100)) == "holds"
    moving = audit_linear_noise(np.eye(3, dtype=np.int64), np.eye(3, dtype=np.int64), "gaussian", scale=1)
    assert moving.verdict_on(epsilon=100) == "fails"


@pytest.mark.parametrize(("call", "message"), [
    # a count of 10**4000 was quoted with its 4,001 digits (the harness saw only the zeros at the end)
    (lambda reference: reference.cascade_leaves(10**4000, 10), r"^depth must be an integer in \[0, 40\], got ≈ 1e\+4000$"),
    (lambda reference: reference.algorithm_2_mse(5, 10**4000), r"^horizon must be <= .*got ≈ 1\.00000e\+4000 \(4001 digits\)"),
    # str() of a 10,001-digit Fraction raised Python's "Exceeds the limit (4300 digits)"
    (lambda reference: reference.audit_laplace(epsilon=1, delta=Fraction(10**10_000 + 1, 10**10_000), scale=1,
                                               sensitivity_vectors=[["1", "1"]]),
     r"^delta must be in \[0, 1\), got ≈ 1\.00000 \(10001/10001 digits\)$"),
    # the padded tree's depth was refused under its own name, not the parameter's
    (lambda reference: reference.calibrated_stream(2**63, epsilon="1e-6", delta="1e-6"),
     r"^horizon must be at most 2\*\*30 .*got 9223372036854775808$"),
    (lambda reference: reference.calibrated_stream(8, epsilon="1e10000", delta="1/2"),
     r"^epsilon and delta give the exact sigma .*outside the numeric stream's float range"),
    (lambda reference: reference.range_variance(5, 40, 10**4000),
     r"^range must satisfy 0 <= first <= last < 32; got first=40, last=≈ 1\.00000e\+4000 \(4001 digits\)$"),
    (lambda reference: reference.discrete_laplace(2, size=10**4000),
     r"^size must be at most 200000 .*got ≈ 1\.00000e\+4000 \(4001 digits\)"),
    # out of the exact range: the refusal now says which parameters led there
    (lambda reference: reference.discrete_gaussian_epsilon(delta="3e-7", sigma_squared="1e-6", sensitivity=2),
     r"^delta = 3/10000000, sigma_squared = 1/1000000, sensitivity = 2: .*beyond the exact range"),
], ids=["count-10^4000", "horizon-10^4000", "delta-10001-digits", "horizon-2^63", "sigma-out-of-float-range",
        "range-last-10^4000", "size-10^4000", "discrete-gaussian-out-of-range"])
def test_api_refusals_found_by_the_message_check_name_the_parameter(call: object, message: str) -> None:
    """Found once the API campaign read its refusals (one line naming a parameter of the function)."""
    import reference

    assert callable(call)
    with pytest.raises(ValueError, match=message):
        call(reference)


def test_the_discrete_gaussian_epsilon_at_a_tiny_variance_ends() -> None:
    """Found by the 2026-11-28 API campaign: at σ² = 1e-6, δ(ε) is nearly flat below ε = 1/(2σ²), so Newton's
    first step from ε = 1 was astronomically long and the next lattice sum built numbers of millions of digits (a
    hang past 200 s). Steps now grow ε at most 1024-fold before a sufficient ε is seen."""
    from reference.core.certified import EnclosureRangeError
    from reference.privacy.discrete_gaussian_profile import discrete_gaussian_epsilon

    with pytest.raises(EnclosureRangeError, match="delta = 1/1000000, sigma_squared = 1/1000000"):
        discrete_gaussian_epsilon(delta="1e-6", sigma_squared="1e-6")
    # one step less extreme, the same shape: the root sits just below 1/(2σ²) = 500 (δ ≈ 1 − e^{−(500 − ε)})
    found = discrete_gaussian_epsilon(delta="1e-6", sigma_squared="1e-3")
    assert Fraction(499_999, 1000) < found.lower <= found.upper < 500
