"""The sparse add/remove linear-noise audit against its dense exact twin, and the column-matrix inputs."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from reference.audit.linear.audit import (
    LinearNoiseVerdict,
    audit_linear_noise,
    dense_linear_noise_audit,
    exact_matrix,
)
from reference.audit.linear.column_matrix import IntegerArray, RationalColumns, load_npy_columns
from reference.audit.linear.covariance import kary_prefix_workload
from reference.audit.linear.sparse_audit import sparse_linear_noise_audit
from reference.audit.samples.design_audit import kary_noise_array, kary_noise_matrix

KINDS = ("gaussian", "laplace", "discrete-gaussian", "discrete-laplace")


def _pair(b: list[list[int]], w: list[list[int]], kind: str, scale: Fraction,
          users: int = 1) -> tuple[LinearNoiseVerdict, LinearNoiseVerdict]:
    b_matrix, w_matrix = exact_matrix(b, "B"), exact_matrix(w, "W")
    fast = sparse_linear_noise_audit(RationalColumns(b_matrix), RationalColumns(w_matrix), kind, scale, users)
    dense = dense_linear_noise_audit(b_matrix, w_matrix, kind, scale, None, "add_remove", users)  # type: ignore[arg-type]
    assert isinstance(fast, LinearNoiseVerdict)
    return fast, dense


def _assert_same(fast: LinearNoiseVerdict, dense: LinearNoiseVerdict) -> None:
    for field in ("private", "rank", "kernel_dimension", "first_offending_column", "l1_sensitivity",
                  "l2_sensitivity_squared", "strategy", "strategy_unique", "rho", "rho_is_bound"):
        assert getattr(fast, field) == getattr(dense, field), field
    assert (fast.lattice_leak is None) == (dense.lattice_leak is None)
    if fast.lattice_leak is not None and dense.lattice_leak is not None:
        # both functionals are constant modulo their modulus on every noise draw, and separate the neighbours
        assert fast.lattice_leak.shift % fast.lattice_leak.modulus != 0
    if fast.epsilon_exact and dense.epsilon_exact:
        assert fast.epsilon == dense.epsilon
    elif fast.epsilon is not None and dense.epsilon is not None:
        # certified bounds of the same quantity overlap
        assert (fast.epsilon_lower or 0) <= dense.epsilon and (dense.epsilon_lower or 0) <= fast.epsilon


def _random_case(rng: random.Random) -> tuple[list[list[int]], list[list[int]]]:
    outputs, draws, inputs = rng.randint(1, 6), rng.randint(1, 7), rng.randint(1, 4)
    b = [[rng.choice((0, 0, 1, -1, 2)) for _ in range(draws)] for _ in range(outputs)]
    if rng.random() < 0.7:  # mostly in the span: W = B A for an integer (or half-integer) A
        a = [[rng.choice((0, 1, -1)) for _ in range(inputs)] for _ in range(draws)]
        w = [[sum(b[i][t] * a[t][j] for t in range(draws)) for j in range(inputs)] for i in range(outputs)]
        if rng.random() < 0.3:
            w = [[2 * value + (1 if (i + j) % 3 == 0 else 0) for j, value in enumerate(row)] for i, row in enumerate(w)]
    else:
        w = [[rng.choice((0, 1, -1)) for _ in range(inputs)] for _ in range(outputs)]
    if not any(any(row) for row in w):
        w[0][0] = 1
    return b, w


@pytest.mark.parametrize("seed", range(6))
def test_sparse_audit_equals_the_dense_twin_on_random_matrices(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(25):
        b, w = _random_case(rng)
        kind = rng.choice(KINDS)
        fast, dense = _pair(b, w, kind, Fraction(rng.randint(1, 5), rng.randint(1, 3)), rng.randint(1, 2))
        _assert_same(fast, dense)


@pytest.mark.parametrize("kind", KINDS)
def test_sparse_audit_equals_the_dense_twin_on_kary_counters(kind: str) -> None:
    for horizon in (9, 26, 40):
        b = [[int(v) for v in row] for row in kary_noise_matrix(3, horizon, 2)]
        w = [[int(v) for v in row] for row in kary_prefix_workload(horizon)]
        _assert_same(*_pair(b, w, kind, Fraction(1)))
        doubled = [[2 * v for v in row] for row in b]  # the parity leak for integer noise
        _assert_same(*_pair(doubled, w, kind, Fraction(1)))


def test_a_wrong_sensitivity_is_caught() -> None:
    # the tree counter at T = 9 has a known exact Laplace epsilon; the twin must agree and not be off by one
    b = [[int(v) for v in row] for row in kary_noise_matrix(3, 9, 2)]
    w = [[int(v) for v in row] for row in kary_prefix_workload(9)]
    fast, dense = _pair(b, w, "laplace", Fraction(1))
    assert fast.epsilon == dense.epsilon and fast.epsilon is not None and fast.epsilon > 1


def test_integer_arrays_give_the_rational_columns_in_both_forms() -> None:
    rng = np.random.default_rng(3)
    array = rng.integers(-3, 4, size=(9, 5))
    array[2, 1] = 2**62 + 5  # beyond the int64-safe range: exact Python ints, no wrap-around
    array[3, 1] = -(2**62) - 7
    rational = RationalColumns(tuple(tuple(Fraction(int(v)) for v in row) for row in array.tolist()))
    integer = IntegerArray(array)
    for differenced in (False, True):
        assert integer.columns(differenced) == rational.columns(differenced)
        assert integer.nonzeros(differenced) == rational.nonzeros(differenced)


def _layouts(array: np.ndarray) -> list[np.ndarray]:
    """The same matrix row-major, Fortran-ordered (as numpy saves a transpose), strided, and both at once."""
    fortran = np.asfortranarray(array)
    return [np.ascontiguousarray(array), fortran, np.repeat(array, 2, axis=1)[:, ::2], np.asfortranarray(
        np.repeat(array, 2, axis=0))[::2]]


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int64, np.uint8, np.uint64])
@pytest.mark.parametrize("shape", [(1, 1), (1, 6), (6, 1), (23, 17), (40, 300)])
def test_integer_arrays_in_every_layout_and_block_size_give_the_rational_columns(
    dtype: type, shape: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    # rows or columns cut into many small blocks: the differences across a block boundary are taken from the row
    # kept from the block before (row-major) or within whole columns (Fortran order)
    from reference.audit.linear import column_matrix

    rng = np.random.default_rng(sum(shape) + np.dtype(dtype).itemsize)
    array = rng.integers(-3, 4, size=shape) * (rng.random(shape) < 0.4)
    array = (np.abs(array) if np.dtype(dtype).kind == "u" else array).astype(dtype)
    if np.dtype(dtype).itemsize == 8:  # beyond the int64-safe range: exact Python ints, no wrap-around
        array.flat[0] = np.iinfo(dtype).max
        array.flat[-1] = np.iinfo(dtype).min if np.dtype(dtype).kind == "i" else 2**63 + 1
    rational = RationalColumns(tuple(tuple(Fraction(int(v)) for v in row) for row in array.tolist()))
    for block_entries in (1, 7, 64, 1 << 22):
        monkeypatch.setattr(column_matrix, "_BLOCK_ENTRIES", block_entries)
        for layout in _layouts(array):
            integer = IntegerArray(layout)
            for differenced in (False, True):
                assert integer.columns(differenced) == rational.columns(differenced)
                assert integer.nonzeros(differenced) == rational.nonzeros(differenced)


def test_sparse_norms_are_the_exact_sums() -> None:
    from reference.audit.linear import elimination as sparse

    rng = random.Random(5)
    for _ in range(200):
        vector = {i: rng.choice((0, 1, -2, 7)) if rng.random() < 0.5 else Fraction(rng.randint(-9, 9),
                                                                                     rng.choice((1, 2, 3, 12, 35)))
                  for i in range(rng.randint(0, 12))}
        assert sparse.l1(vector) == sum((abs(Fraction(v)) for v in vector.values()), Fraction(0))
        assert sparse.squared_norm(vector) == sum((Fraction(v) ** 2 for v in vector.values()), Fraction(0))
    assert sparse.l1({0: Fraction(1, 3), 1: Fraction(-1, 6)}) == Fraction(1, 2)  # different denominators
    assert sparse.squared_norm({0: Fraction(1, 2), 1: 1}) == Fraction(5, 4)


def _integer_cases() -> list[tuple[list[list[int]], list[list[int]]]]:
    cases = []
    for horizon in (9, 26, 40):
        b = [[int(v) for v in row] for row in kary_noise_matrix(3, horizon, 2)]
        w = [[int(v) for v in row] for row in kary_prefix_workload(horizon)]
        cases += [(b, w), ([[2 * v for v in row] for row in b], w)]
    rng = random.Random(11)
    cases += [_random_case(rng) for _ in range(40)]
    return cases


def test_a_rational_elimination_with_unit_pivots_is_the_integral_one() -> None:
    # the shortcut's claim: on int entries with only ±1 pivots, integral elimination takes the very same steps
    from reference.audit.linear import elimination as sparse

    shortcut = 0
    for b, w in _integer_cases():
        columns = sparse.sparse_columns(exact_matrix(b, "B"))
        targets = sparse.sparse_columns(exact_matrix(w, "W"))
        rational = sparse.eliminate(columns, targets, len(b), integral=False, track=True)
        if not sparse.unit_pivots_on_integers(rational, columns, targets):
            continue
        shortcut += 1
        integral = sparse.eliminate(columns, targets, len(b), integral=True, track=True)
        assert integral.failure is None
        for field in ("pivots", "columns", "targets", "rows", "solutions"):
            assert getattr(integral, field) == getattr(rational, field), field
    assert shortcut >= 10  # the claim was exercised
    # and it is not claimed where it fails: a pivot 2, or a Fraction entry
    doubled = sparse.eliminate([{0: 2}], [{0: 2}], 1, integral=False, track=True)
    assert not sparse.unit_pivots_on_integers(doubled, [{0: 2}], [{0: 2}])
    halves: list[dict[int, Fraction]] = [{0: Fraction(1), 1: Fraction(1, 2)}]
    reduced = sparse.eliminate(halves, [{0: 1}], 2, integral=False, track=True)
    assert not sparse.unit_pivots_on_integers(reduced, halves, [{0: 1}])


@pytest.mark.parametrize("kind", ["discrete-laplace", "discrete-gaussian"])
def test_integer_noise_verdicts_do_not_depend_on_the_shortcut(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from reference.audit.linear import elimination as sparse

    for b, w in _integer_cases():
        b_matrix, w_matrix = exact_matrix(b, "B"), exact_matrix(w, "W")
        with_shortcut = sparse_linear_noise_audit(RationalColumns(b_matrix), RationalColumns(w_matrix), kind,
                                                  Fraction(1), 1)
        with monkeypatch.context() as patched:
            patched.setattr(sparse, "unit_pivots_on_integers", lambda *arguments: False)
            without = sparse_linear_noise_audit(RationalColumns(b_matrix), RationalColumns(w_matrix), kind,
                                                Fraction(1), 1)
        assert with_shortcut == without


def test_numpy_input_gives_the_same_verdict_as_fractions() -> None:
    horizon = 30
    array = kary_noise_array(3, horizon, 2)
    workload = np.tril(np.ones((horizon, horizon), dtype=np.int64))
    from_numpy = audit_linear_noise(array, workload, "laplace", scale=1)
    from_lists = audit_linear_noise(array.tolist(), workload.tolist(), "laplace", scale=1)
    assert from_numpy == from_lists


def test_an_oversized_npy_is_refused_from_its_header(tmp_path: Path) -> None:
    path = tmp_path / "huge.npy"
    with path.open("wb") as handle:
        np.lib.format.write_array_header_1_0(handle, {"descr": "<i8", "fortran_order": False, "shape": (50000, 50005)})
    # no entries written: the refusal must come from the header (reading entries would fail differently)
    with pytest.raises(ValueError, match=r"50000x50005 \(2\.5e\+09 entries, 20 GB to read\); at most"):
        load_npy_columns(path, "noise_matrix")


def test_a_float_npy_is_refused_from_its_header(tmp_path: Path) -> None:
    path = tmp_path / "float.npy"
    np.save(path, np.ones((2, 2)))
    with pytest.raises(ValueError, match="2-D integer array, got 2-D float64"):
        load_npy_columns(path, "noise_matrix")
