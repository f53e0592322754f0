"""Cost estimates against the counts actually produced: each estimator predicts a size (vertices, lattice terms,
values, entries, bytes, rows × columns) before the work; here the work is done on small cases and counted.

No timing: the time-based estimates (seconds per depth or horizon) are compared with measured seconds by
``benchmarks/bench_estimates.py``, which reports and asserts nothing.
"""

from __future__ import annotations

import io
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from reference.audit.linear.audit import load_exact_matrix, text_entry_count
from reference.cip.exact.ranges import all_range_statistics
from reference.cip.numeric.cascade import cascade_leaves, cascade_tree
from reference.cip.numeric.cascade_runs import cascade_leaves_runs
from reference.cli.cascade import sample_value_count
from reference.core.certified import working_precision
from reference.core.npy_files import checked_header
from reference.kary import tree as kary_tree
from reference.kary.digits import digits, offset_capacity, offset_digits
from reference.privacy.discrete_gaussian_profile import _lattice_sum, estimated_lattice_terms


@pytest.mark.parametrize(("arity", "height"), [(3, 4), (3, 3), (5, 2), (7, 2)])
def test_the_vertex_count_is_the_number_of_vertices_listed(arity: int, height: int) -> None:
    for time in range(1, arity**height):
        listed = kary_tree.algorithm_1_vertices(time, arity, height)
        assert kary_tree.listed_vertex_count(digits(time, arity, height)) == len(listed)
    for time in range(1, offset_capacity(arity, height) + 1):
        signed = kary_tree.algorithm_3_signed_vertices(time, arity, height)
        assert kary_tree.listed_vertex_count(offset_digits(time, arity, height)) == len(signed)


#: (ε, σ², Δ): sums that start left of 0 (Δ large), at 0, and far right of it (εσ²/Δ large).
LATTICE_CASES = [(0, 1, 1), (1, 1, 1), (Fraction(1, 2), 4, 1), (1, 100, 1), (0, 100, 30), (2, Fraction(1, 4), 1),
                 (10, 10000, 1), (0, 2, 200), (Fraction(1, 10), 50, 500), (5, 3, 40), (0, 7, 1000)]


@pytest.mark.parametrize(("epsilon", "sigma_squared", "sensitivity"), LATTICE_CASES)
def test_the_lattice_term_estimate_bounds_the_terms_summed(
    epsilon: object, sigma_squared: object, sensitivity: int
) -> None:
    eps, s2 = Fraction(epsilon), Fraction(sigma_squared)  # type: ignore[arg-type]
    estimate = estimated_lattice_terms(epsilon=eps, sigma_squared=s2, sensitivity=sensitivity)
    with working_precision(200):
        _, terms = _lattice_sum(eps, s2, sensitivity, 96)
    # the sum checks its tail every 16 terms, so it may pass the estimate by less than 16
    assert terms <= estimate + 16
    left_of_zero = -(int(eps * s2 / sensitivity - Fraction(sensitivity, 2)) + 1)
    if left_of_zero > 0:  # the walk from the left is most of the work: the estimate is close to it
        assert estimate <= 2 * terms


@pytest.mark.parametrize(("depth", "nodes", "runs"), [(0, False, None), (3, False, None), (3, True, None),
                                                      (5, True, None), (4, False, 3), (2, False, 7)])
def test_the_sample_value_count_is_the_values_sampled(depth: int, nodes: bool, runs: int | None) -> None:
    if runs is not None:
        values = cascade_leaves_runs(depth, 1.0, runs, 0)
    else:
        values = (cascade_tree if nodes else cascade_leaves)(depth, 1.0, np.random.default_rng(0))
    assert sample_value_count(depth, nodes=nodes, runs=runs) == values.size


@pytest.mark.parametrize("depth", [0, 1, 3, 5])
def test_the_range_count_is_n_times_n_plus_one_over_two(depth: int) -> None:
    # the ranges command's time estimate scales with this count (four times per depth)
    leaves = 2**depth
    assert all_range_statistics(depth).count == leaves * (leaves + 1) // 2


@pytest.mark.parametrize(("rows", "cols", "trailing"), [(1, 1, False), (2, 3, True), (5, 4, False), (7, 1, True)])
def test_the_text_entry_count_bounds_the_entries_parsed(tmp_path: Path, rows: int, cols: int, trailing: bool) -> None:
    text = "\n".join(",".join(str(i * cols + j) for j in range(cols)) for i in range(rows)) + ("\n" if trailing else "")
    path = tmp_path / "m.csv"
    path.write_text(text, encoding="utf-8")
    matrix = load_exact_matrix(path, "m")
    parsed = sum(len(row) for row in matrix)
    assert parsed == rows * cols
    assert parsed <= text_entry_count(text) <= parsed + 1  # one more for a trailing line end


@pytest.mark.parametrize(("shape", "dtype"), [((3, 4), "<i8"), ((2, 5), ">i4"), ((0,), "<f8"), ((2, 2, 2), "<f2"),
                                              ((), "<u8")])
def test_the_npy_header_size_is_the_array_size(shape: tuple[int, ...], dtype: str) -> None:
    array = np.zeros(shape, dtype=dtype)
    buffer = io.BytesIO()
    np.save(buffer, array)
    data = buffer.getvalue()
    header_shape, header_dtype = checked_header(io.BytesIO(data), len(data), "x")
    assert int(np.prod(header_shape)) * header_dtype.itemsize == array.nbytes
    # one byte short is refused from the header, before any entry is read
    if array.nbytes:
        with pytest.raises(ValueError, match="truncated or a wrong header"):
            checked_header(io.BytesIO(data[:-1]), len(data) - 1, "x")


@pytest.mark.parametrize(("arity", "height", "subtraction"), [(2, 3, False), (3, 2, True), (5, 2, True)])
def test_the_matrix_horizon_is_the_matrices_size(arity: int, height: int, subtraction: bool) -> None:
    # `kary matrices` estimates its cost from the horizon T (dense exact T × T products)
    horizon = offset_capacity(arity, height) if subtraction else arity**height - 1
    strategy = kary_tree.strategy_matrix(arity, height, subtraction=subtraction)
    reconstruction = kary_tree.reconstruction_matrix(arity, height, subtraction=subtraction)
    assert len(reconstruction) == horizon
    assert len(strategy[0]) == horizon
