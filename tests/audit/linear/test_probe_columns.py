"""probe_linear_columns: the same exact map as the dense probe in every mode, held as sparse columns; non-linear
functions refused; the non-zeros' memory bounded as they are found."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from reference.audit.linear.probe_linear import probe_linear_columns, probe_linear_map

DRAWS = 9


def fenwick_map(horizon: int) -> list[list[Fraction]]:
    # output t adds the draws of the Fenwick nodes tiling [1, t], over three, plus 1/7 of the last draw
    table = [[Fraction(0)] * horizon for _ in range(horizon)]
    for step in range(1, horizon + 1):
        node = step
        while node > 0:
            table[step - 1][node - 1] += Fraction(1, 3)
            node -= node & -node
        table[step - 1][horizon - 1] += Fraction(1, 7)
    return table


def test_every_mode_gives_the_dense_probes_map_as_sparse_columns() -> None:
    expected = fenwick_map(DRAWS)
    matrix64 = np.array([[float(v) for v in row] for row in expected])
    matrix32 = matrix64.astype(np.float32)

    def exact(draws: tuple[Fraction, ...]) -> list[Fraction]:
        return [sum((entry * draw for entry, draw in zip(row, draws)), Fraction(0)) for row in expected]

    cases = [(exact, "exact", False), (lambda z: matrix64 @ z, "float64", False),
             (lambda z: matrix64 @ z, "float64", True), (lambda z: matrix32 @ z, "float32", False),
             (lambda z: matrix32 @ z, "float32", True)]
    for function, inputs, batch in cases:
        columns = probe_linear_columns(function, draws=DRAWS, inputs=inputs, batch=batch)  # type: ignore[arg-type]
        assert (columns.rows, columns.cols) == (DRAWS, DRAWS)
        assert columns.dense() == tuple(tuple(row) for row in expected)
        assert columns.dense() == probe_linear_map(function, draws=DRAWS, inputs=inputs, batch=batch)  # type: ignore[arg-type]
        # only the non-zeros are held, integral ones as ints
        assert columns.nonzeros(False) == sum(1 for row in expected for v in row if v)
    integer = probe_linear_columns(lambda z: np.cumsum(z), draws=4, inputs="integer", batch=False)
    assert integer.columns(False) == [{0: 1, 1: 1, 2: 1, 3: 1}, {1: 1, 2: 1, 3: 1}, {2: 1, 3: 1}, {3: 1}]
    assert not any(isinstance(v, Fraction) for column in integer.columns(False) for v in column.values())


def test_batches_split_by_bytes_recover_the_whole_map() -> None:
    from reference.audit.linear import probe_linear

    # a block of at most 3 columns: the blocks' non-zeros are put back in the draws' order
    expected = fenwick_map(DRAWS)
    matrix = np.array([[float(v) for v in row] for row in expected])
    saved = probe_linear.BATCH_BYTES
    try:
        probe_linear.BATCH_BYTES = 3 * DRAWS * 8
        assert probe_linear.batch_width(DRAWS, 8) == 3
        columns = probe_linear_columns(lambda z: matrix @ z, draws=DRAWS, inputs="float64", batch=True)
    finally:
        probe_linear.BATCH_BYTES = saved
    assert columns.dense() == tuple(tuple(row) for row in expected)


def test_non_linear_and_non_finite_functions_are_refused() -> None:
    with pytest.raises(ValueError, match="not linear in the draws: at a seeded integer point output 0"):
        probe_linear_columns(lambda z: np.cumsum(z) ** 2, draws=4, inputs="float64")
    with pytest.raises(ValueError, match="not linear in the draws: at a seeded integer point"):
        probe_linear_columns(lambda z: np.cumsum(z, axis=0) ** 2, draws=4, inputs="float64", batch=True)
    with pytest.raises(ValueError, match="not linear in the draws"):
        probe_linear_columns(lambda z: [v * v for v in z], draws=3)
    def infinite_at_draw_2(z: np.ndarray) -> np.ndarray:
        out = z.copy()
        if z[2] == 1 and z.sum() == 1:
            out[1] = np.inf
        return out

    with pytest.raises(ValueError, match=r"non-finite value inf at output index 1 for draw 2"):
        probe_linear_columns(infinite_at_draw_2, draws=3, inputs="float64")
    # an integer function off by one at a single output of the seeded point (linear on every unit draw)
    def off(z: np.ndarray) -> np.ndarray:
        out = np.cumsum(z)
        out[2] += int(np.count_nonzero(z) > 1)
        return out

    with pytest.raises(ValueError, match="output 2 is"):
        probe_linear_columns(off, draws=5, inputs="integer")


def test_solve_and_pseudo_inverse_code_is_recognised_as_linear() -> None:
    rng = np.random.default_rng(0)
    square = rng.standard_normal((30, 30))
    inverse = np.linalg.inv(square)
    identity = {j: {j: 1} for j in range(30)}
    columns = probe_linear_columns(lambda x: inverse @ (square @ x), draws=30, inputs="float64")
    assert columns.columns(False) == [identity[j] for j in range(30)]
    columns = probe_linear_columns(lambda x: inverse @ (square @ x), draws=30, inputs="float64", batch=True)
    assert columns.columns(False) == [identity[j] for j in range(30)]
    tall = rng.standard_normal((50, 20))
    pseudo = np.linalg.pinv(tall)
    thirds = np.tril(np.ones((20, 20))) / 3
    recovered = probe_linear_columns(lambda x: pseudo @ (tall @ (thirds @ x)), draws=20, inputs="float64")
    assert recovered.dense() == tuple(tuple(Fraction(int(j <= i), 3) for j in range(20)) for i in range(20))
    with pytest.raises(ValueError, match=r"measured rounding 0 of a rational|not linear in the draws"):
        probe_linear_columns(lambda x: inverse @ (square @ x) + 1e-9 * x**3, draws=30, inputs="float64")


def test_the_non_zeros_are_bounded_as_they_are_found() -> None:
    calls: list[int] = []

    def dense(draws: np.ndarray) -> np.ndarray:
        calls.append(1)
        return np.full(100_000, draws.sum())

    # 100,000 non-zeros per draw at 160 bytes each: over 2**23 bytes at the first unit draw, seen when the first
    # buffer of columns (8 MiB for columns this long: 10 draws of 100,000 float64 outputs) is scanned
    with pytest.raises(ValueError, match=r"draws: 1,000,000 non-zeros in the first 10 of 50 draws .* call_memory"):
        probe_linear_columns(dense, draws=50, inputs="float64", call_memory_bytes=1 << 23)
    assert len(calls) == 11  # the call at zero and ten unit draws, not fifty
    # batches: counted per block (one block of the 50 draws here), 20,000 × 50 non-zeros over 2**26 bytes
    with pytest.raises(ValueError, match=r"draws: 1,000,000 non-zeros in the first 50 of 50 draws .* call_memory"):
        probe_linear_columns(lambda z: np.tile(z.sum(axis=0), (20_000, 1)), draws=50, inputs="float64",
                             batch=True, call_memory_bytes=1 << 26)
    with pytest.raises(ValueError, match="draws must be at most 1000000"):
        probe_linear_columns(dense, draws=1_000_001, inputs="float64")


def test_sparse_unit_blocks_recover_the_map_from_sparse_and_dense_results() -> None:
    import scipy.sparse

    expected = tuple(tuple(row) for row in fenwick_map(DRAWS))
    dense = np.array([[float(v) for v in row] for row in expected])
    matrix = scipy.sparse.csr_matrix(dense)
    seen: list[bool] = []

    def sparse_product(draws: object) -> object:
        seen.append(scipy.sparse.issparse(draws))
        return matrix @ draws

    columns = probe_linear_columns(sparse_product, draws=DRAWS, inputs="float64", batch=True, unit_blocks="sparse")
    assert columns.dense() == expected
    assert all(seen)  # every call, the checks included, was given a sparse block
    # a numpy matrix times a sparse block is a numpy array: read as a dense block
    assert probe_linear_columns(lambda z: dense @ z, draws=DRAWS, inputs="float64", batch=True,
                                unit_blocks="sparse").dense() == expected

    def stored_twice(draws: object) -> object:  # each entry stored as two halves (scipy adds them up)
        product = (matrix @ draws).tocoo()
        return scipy.sparse.coo_matrix((np.concatenate([product.data / 2, product.data / 2]),
                                        (np.concatenate([product.row, product.row]),
                                         np.concatenate([product.col, product.col]))), shape=product.shape)

    assert probe_linear_columns(stored_twice, draws=DRAWS, inputs="float64", batch=True,
                                unit_blocks="sparse").dense() == expected
    with pytest.raises(ValueError, match="not linear in the draws"):
        probe_linear_columns(lambda z: (matrix @ z).power(2), draws=DRAWS, inputs="float64", batch=True,
                             unit_blocks="sparse")
    with pytest.raises(ValueError, match=r"unit_blocks='sparse' .* needs batch=True"):
        probe_linear_columns(lambda z: z, draws=3, inputs="float64", unit_blocks="sparse")
    with pytest.raises(ValueError, match="unit_blocks must be one of"):
        probe_linear_columns(lambda z: z, draws=3, inputs="float64", batch=True, unit_blocks="csr")  # type: ignore[arg-type]
