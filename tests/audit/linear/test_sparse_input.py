"""Sparse matrices (``scipy.sparse`` in memory and ``save_npz`` files) as the linear-noise audit's exact input.

Expected values are derived by hand or from scipy's own dense form (``toarray``), never from the reader under
test; malformed files are refused in one line naming the parameter, and the size is refused from the headers
before any entry is read.
"""

from __future__ import annotations

import io
import zipfile
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from scipy import sparse

from reference.audit.linear import sparse_input
from reference.audit.linear.audit import audit_linear_noise, load_exact_matrix, load_matrix_columns
from reference.audit.linear.column_matrix import IntegerArray
from reference.audit.linear.participation import min_separation
from reference.audit.linear.size_limits import SizeLimits
from reference.core import npz_files


def _dense_of(matrix: object) -> list[list[Fraction]]:
    """The exact dense matrix of a loaded input, by its columns."""
    columns = matrix.columns(False)  # type: ignore[attr-defined]
    return [[Fraction(column.get(i, 0)) for column in columns] for i in range(matrix.rows)]  # type: ignore[attr-defined]


@pytest.mark.parametrize("form", ["csr", "csc", "coo"])
def test_every_format_reads_the_matrix_scipy_holds(tmp_path: Path, form: str) -> None:
    generator = np.random.default_rng(7)
    dense = generator.integers(-3, 4, size=(6, 5)) * (generator.random((6, 5)) < 0.4)
    sparse.save_npz(tmp_path / "m.npz", sparse.coo_matrix(dense).asformat(form))
    loaded = load_matrix_columns(tmp_path / "m.npz", "workload")
    assert (loaded.rows, loaded.cols) == (6, 5)
    assert _dense_of(loaded) == [[Fraction(int(v)) for v in row] for row in dense]
    assert load_exact_matrix(tmp_path / "m.npz", "w") == tuple(tuple(Fraction(int(v)) for v in row) for row in dense)


def test_repeated_positions_add_up_without_overflow_and_zeros_are_dropped(tmp_path: Path) -> None:
    big = 1 << 62
    # (0, 0) stored twice: 2^62 + 2^62 = 2^63, beyond int64 (scipy's own sum would wrap); (1, 1) an explicit zero
    matrix = sparse.coo_matrix((np.array([big, big, 0, 5]), (np.array([0, 0, 1, 1]), np.array([0, 0, 1, 2]))),
                               shape=(2, 3))
    sparse.save_npz(tmp_path / "d.npz", matrix, compressed=False)
    loaded = load_matrix_columns(tmp_path / "d.npz", "noise_matrix")
    assert _dense_of(loaded) == [[Fraction(1 << 63), 0, 0], [0, 0, 5]]
    assert loaded.used_columns() == [0, 2]  # the explicit zero is no entry


def test_float_entries_are_the_binary_rationals_they_are(tmp_path: Path) -> None:
    sparse.save_npz(tmp_path / "f.npz", sparse.csr_matrix(np.array([[0.1, 0.0], [0.0, -2.5]])))
    assert load_exact_matrix(tmp_path / "f.npz", "w") == ((Fraction(0.1), Fraction(0)), (Fraction(0), Fraction(-5, 2)))
    # 0.1 as a double is 3602879701896397 / 2^55, not 1/10
    assert Fraction(0.1) == Fraction(3602879701896397, 1 << 55)


def test_a_coords_member_is_read_like_row_and_col(tmp_path: Path) -> None:
    # the n-dimensional coo layout (one 'coords' array of shape (2, stored))
    np.savez(tmp_path / "c.npz", format=b"coo", shape=np.array([2, 2]), data=np.array([3, -1]),
             coords=np.array([[0, 1], [1, 0]]))
    assert load_exact_matrix(tmp_path / "c.npz", "w") == ((0, 3), (-1, 0))


def test_the_issue_reproducer_from_npz_files(tmp_path: Path) -> None:
    # B = I, C = [[1, 0], [-1, 1]]: Q = CᵀC = [[2, -1], [-1, 1]]; two participations {0, 1} with opposite signs give
    # 2 + 1 + 2·1 = 5 (signed), the same signs 2 + 1 − 2 = 1, one participation at most 2: counts Δ² = 2
    sparse.save_npz(tmp_path / "I.npz", sparse.identity(2, dtype=np.int64, format="csr"))
    sparse.save_npz(tmp_path / "C.npz", sparse.csc_matrix(np.array([[1, 0], [-1, 1]])))
    for model, expected in (("signed", 5), ("counts", 2)):
        verdict = audit_linear_noise(load_matrix_columns(tmp_path / "I.npz", "noise_matrix"),
                                     load_matrix_columns(tmp_path / "C.npz", "workload"), "gaussian", scale=1,
                                     participation=min_separation(separation=1, times=2, contribution=model))
        assert verdict.l2_sensitivity_squared == expected


def test_scipy_matrices_in_memory_give_the_dense_verdict() -> None:
    # a tree over 4 leaves: the root, two halves and the leaves (7 draws); W = the prefix sums
    leaves = 4
    nodes = [(0, 4), (0, 2), (2, 4), (0, 1), (1, 2), (2, 3), (3, 4)]
    strategy = np.array([[1 if low <= leaf < high else 0 for leaf in range(leaves)] for low, high in nodes])
    workload = np.tril(np.ones((leaves, leaves), dtype=np.int64))
    # the release W x + B z with B = W A⁺ and the strategy's rows as draws: compare sparse and dense inputs
    noise = workload @ np.linalg.pinv(strategy)
    dense_verdict = audit_linear_noise(noise, workload, "gaussian", scale=1)
    sparse_verdict = audit_linear_noise(sparse.csr_matrix(noise), sparse.csc_matrix(workload), "gaussian", scale=1)
    assert sparse_verdict.l2_sensitivity_squared == dense_verdict.l2_sensitivity_squared
    assert sparse_verdict.private is dense_verdict.private is True


def _zip(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for key, data in members.items():
            archive.writestr(f"{key}.npy", data)
    return path


def _npy(array: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


def _valid_csr() -> dict[str, bytes]:
    return {"format": _npy(np.array(b"csr")), "shape": _npy(np.array([2, 2])), "data": _npy(np.array([1, 2])),
            "indices": _npy(np.array([0, 1])), "indptr": _npy(np.array([0, 1, 2]))}


MALFORMED: dict[str, tuple[dict[str, bytes] | bytes, str]] = {
    "not a zip": (b"PK not really a zip", "not a readable .npz file"),
    "no format": ({key: value for key, value in _valid_csr().items() if key != "format"}, "no 'format' array"),
    "dia format": ({**_valid_csr(), "format": _npy(np.array(b"dia"))}, "a sparse format of csr, csc, coo is read"),
    "complex": ({**_valid_csr(), "data": _npy(np.array([1j, 2]))}, "integers or real floats, got complex128"),
    "strings": ({**_valid_csr(), "data": _npy(np.array(["a", "b"]))}, "integers or real floats"),
    "float indices": ({**_valid_csr(), "indices": _npy(np.array([0.0, 1.0]))}, "must hold integers"),
    "index out of range": ({**_valid_csr(), "indices": _npy(np.array([0, 7]))}, "not a valid csr matrix"),
    "indptr too short": ({**_valid_csr(), "indptr": _npy(np.array([0, 2]))}, "the 'indptr' array has shape (2,)"),
    "3-D shape": ({**_valid_csr(), "shape": _npy(np.array([2, 2, 2]))}, "must be two integers"),
    "empty shape": ({**_valid_csr(), "shape": _npy(np.array([0, 2]))}, "at least one row and one column"),
    "nan": ({**_valid_csr(), "data": _npy(np.array([1.0, np.nan]))}, "non-finite entry"),
    "pickled objects": ({**_valid_csr(), "data": _npy(np.array([1, None], dtype=object))}, "Python objects"),
    "truncated data": ({**_valid_csr(), "data": _npy(np.array([1, 2]))[:-8]}, "truncated or a wrong header"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_a_malformed_file_is_refused_in_one_line(tmp_path: Path, case: str) -> None:
    content, expected = MALFORMED[case]
    path = tmp_path / "m.npz"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        _zip(path, content)
    for load in (load_matrix_columns, load_exact_matrix):
        with pytest.raises((ValueError, TypeError)) as refused:
            load(path, "workload")
        message = str(refused.value)
        assert "\n" not in message and message.startswith("workload") and expected in message, message


def test_a_cut_archive_is_refused_in_one_line(tmp_path: Path) -> None:
    sparse.save_npz(tmp_path / "whole.npz", sparse.random(50, 50, density=0.5, format="csr", random_state=1))
    whole = (tmp_path / "whole.npz").read_bytes()
    (tmp_path / "cut.npz").write_bytes(whole[: len(whole) // 2])
    with pytest.raises(ValueError, match=r"^workload: not a readable \.npz file") as refused:
        load_matrix_columns(tmp_path / "cut.npz", "workload")
    assert "\n" not in str(refused.value)


def test_the_size_is_refused_from_the_headers_before_any_entry(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    # a forged shape of 10^9 x 10^9 over two stored entries: refused by the shape alone
    _zip(tmp_path / "wide.npz", {"format": _npy(np.array(b"coo")), "shape": _npy(np.array([10**9, 10**9])),
                                 "data": _npy(np.array([1, 2])), "row": _npy(np.array([0, 10**9 - 1])),
                                 "col": _npy(np.array([5, 0]))})

    def no_entry_read(*args: object, **kwargs: object) -> None:
        raise AssertionError("an entry was read before the size check")

    monkeypatch.setattr(npz_files, "load_sparse", no_entry_read)
    monkeypatch.setattr(sparse_input, "load_sparse", no_entry_read)
    with pytest.raises(ValueError, match=r"workload is 1000000000x1000000000; at most 20000 rows and columns; "
                       r"raise it with --max-sparse-dimension"):
        load_matrix_columns(tmp_path / "wide.npz", "workload")
    # more stored entries than the limit: refused with the count, from the 'data' header
    generator = np.random.default_rng(3)
    sparse.save_npz(tmp_path / "many.npz", sparse.csr_matrix(generator.integers(1, 5, size=(40, 40))))
    with pytest.raises(ValueError, match=r"workload: 1,600 stored entries; at most 1,000 .*--max-nonzeros"):
        load_matrix_columns(tmp_path / "many.npz", "workload", SizeLimits(nonzeros=1000))
    # floats: each becomes a Fraction, so the text limit applies
    sparse.save_npz(tmp_path / "floats.npz", sparse.csr_matrix(generator.random((40, 40)) + 1))
    with pytest.raises(ValueError, match=r"workload: 1,600 stored float entries; at most 1,000 .*--max-text-entries"):
        load_matrix_columns(tmp_path / "floats.npz", "workload", SizeLimits(text_entries=1000))
    # raised, both load: the limit is the only obstacle
    monkeypatch.undo()
    assert load_matrix_columns(tmp_path / "many.npz", "workload", SizeLimits(nonzeros=1600)).cols == 40
    assert load_matrix_columns(tmp_path / "floats.npz", "workload", SizeLimits(text_entries=1600)).cols == 40


def test_a_forged_data_header_is_checked_against_the_member(tmp_path: Path) -> None:
    # the header of 'data' claims 10^8 entries; the member holds two: refused from the header, nothing allocated
    header = np.lib.format.header_data_from_array_1_0(np.array([1, 2]))
    header["shape"] = (10**8,)
    buffer = io.BytesIO()
    np.lib.format.write_array_header_1_0(buffer, header)
    _zip(tmp_path / "forged.npz", {**_valid_csr(), "data": buffer.getvalue() + np.array([1, 2]).tobytes()})
    with pytest.raises(ValueError, match=r"the \.npy header gives shape \(100000000,\)") as refused:
        load_matrix_columns(tmp_path / "forged.npz", "workload")
    assert "\n" not in str(refused.value)


def test_a_long_double_is_read_through_its_own_ratio() -> None:
    if np.dtype(np.longdouble).itemsize <= 8:
        pytest.skip("long double is float64 on this platform")
    value = np.longdouble(1) / np.longdouble(3)  # more bits than a double holds
    exact = Fraction(*value.as_integer_ratio())
    assert exact != Fraction(float(value))
    assert sparse_input.exact_values(np.array([value]), "w") == [exact]


def test_a_dense_integer_file_is_held_as_an_array(tmp_path: Path) -> None:
    # more than one stored entry in eight positions: an int64 array (8 bytes an entry, not a Python int each)
    generator = np.random.default_rng(11)
    dense = generator.integers(-(1 << 40), 1 << 40, size=(30, 20))
    sparse.save_npz(tmp_path / "dense.npz", sparse.csc_matrix(dense))
    loaded = load_matrix_columns(tmp_path / "dense.npz", "workload")
    assert isinstance(loaded, IntegerArray)
    assert _dense_of(loaded) == [[Fraction(int(v)) for v in row] for row in dense]
    # one entry in 600 positions: sparse columns
    sparse.save_npz(tmp_path / "thin.npz", sparse.coo_matrix(([7], ([3], [4])), shape=(30, 20)))
    thin = load_matrix_columns(tmp_path / "thin.npz", "workload")
    assert not isinstance(thin, IntegerArray) and _dense_of(thin)[3][4] == 7
