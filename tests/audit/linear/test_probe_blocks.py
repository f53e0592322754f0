"""Batch mode's kept block of unit draws (read-only, reused by later probes) and the probed map held as arrays until
its columns are read: a function that writes into its argument, or refuses a read-only one, is still probed
exactly, cannot change what later probes are given, and a function past its time limit is not called twice."""

from __future__ import annotations

import time
from fractions import Fraction

import numpy as np
import pytest

from reference.audit.linear.probe_blocks import CACHED_BLOCK_BYTES, kept_unit_block
from reference.audit.linear.probe_linear import probe_linear_columns

DRAWS = 64


def _running_sum_columns(size: int) -> list[dict[int, int]]:
    """The columns of the lower-triangular all-ones map (a running sum), written out: column j has a 1 in rows j..."""
    return [dict.fromkeys(range(col, size), 1) for col in range(size)]


def _kept_is_identity(size: int) -> bool:
    kept = kept_unit_block(size, 0, size, np.float64)
    return kept is not None and bool(np.array_equal(kept, np.eye(size)))


def test_the_kept_block_is_the_identity_read_only_and_cannot_be_made_writable() -> None:
    block = kept_unit_block(DRAWS, 0, DRAWS, np.float64)
    assert block is not None and np.array_equal(block, np.eye(DRAWS))
    assert kept_unit_block(DRAWS, 0, DRAWS, np.float64) is block  # kept: the same array the next time
    with pytest.raises(ValueError, match="read-only"):
        block[0, 0] = 5
    for array in (block, block.base):
        with pytest.raises(ValueError, match="WRITEABLE"):
            array.flags.writeable = True  # type: ignore[union-attr]


def test_a_block_above_the_kept_size_is_not_kept() -> None:
    draws = int((CACHED_BLOCK_BYTES // 8) ** 0.5) + 1  # draws × draws float64 just above the bound
    assert kept_unit_block(draws, 0, draws, np.float64) is None


def test_a_function_writing_into_its_argument_is_probed_exactly_and_later_probes_are_unchanged() -> None:
    calls: list[bool] = []

    def scaled_in_place(draws: np.ndarray) -> np.ndarray:  # writes into its argument, then sums it: 2 × running sum
        calls.append(draws.flags.writeable)
        draws *= 2
        return np.cumsum(draws, axis=0)

    columns = probe_linear_columns(scaled_in_place, draws=DRAWS, inputs="float64", batch=True)
    assert columns.columns(False) == [{row: 2 * value for row, value in column.items()}
                                      for column in _running_sum_columns(DRAWS)]
    assert False in calls  # it was given the read-only block, raised, and was called again on a writable one
    assert _kept_is_identity(DRAWS)
    plain = probe_linear_columns(lambda draws: np.cumsum(draws, axis=0), draws=DRAWS, inputs="float64", batch=True)
    assert plain.columns(False) == _running_sum_columns(DRAWS)


def test_a_function_refusing_a_read_only_argument_is_probed_exactly() -> None:
    def needs_writable(draws: np.ndarray) -> np.ndarray:  # as a Cython memoryview without const would
        if not draws.flags.writeable:
            raise ValueError("buffer source array is read-only")
        return np.cumsum(draws, axis=0)

    columns = probe_linear_columns(needs_writable, draws=DRAWS, inputs="float64", batch=True)
    assert columns.columns(False) == _running_sum_columns(DRAWS)


def test_a_function_raising_on_every_block_is_refused_in_one_line() -> None:
    def fails_on_units(draws: np.ndarray) -> np.ndarray:
        if draws.shape[1] == DRAWS:
            raise RuntimeError("no unit draws today")
        return np.cumsum(draws, axis=0)

    with pytest.raises(ValueError, match="raised RuntimeError: no unit draws today") as refused:
        probe_linear_columns(fails_on_units, draws=DRAWS, inputs="float64", batch=True)
    assert "\n" not in str(refused.value)


def test_a_function_past_its_time_limit_on_the_kept_block_is_not_called_again() -> None:
    unit_calls = [0]

    def slow_on_units(draws: np.ndarray) -> np.ndarray:
        if draws.shape[1] == DRAWS:
            unit_calls[0] += 1
            time.sleep(5)
        return np.cumsum(draws, axis=0)

    with pytest.raises(ValueError, match="time limit") as refused:
        probe_linear_columns(slow_on_units, draws=DRAWS, inputs="float64", batch=True, call_seconds=0.2)
    assert unit_calls == [1]
    assert "\n" not in str(refused.value)


def test_a_non_linear_function_is_still_refused_on_the_kept_block() -> None:
    def squares(draws: np.ndarray) -> np.ndarray:  # the running sum at unit draws (1² = 1), not linear elsewhere
        return np.cumsum(draws * draws, axis=0)

    with pytest.raises(ValueError, match="not linear"):
        probe_linear_columns(squares, draws=DRAWS, inputs="float64", batch=True)


def test_probed_columns_count_read_and_densify_the_map() -> None:
    # a map with two values (1 and 1/2) and an unused draw, compared with its columns written out
    def function(draws: np.ndarray) -> np.ndarray:
        return np.stack([draws[0] + draws[1] / 2, draws[1] / 2, 0 * draws[2]])

    columns = probe_linear_columns(function, draws=3, inputs="float64", batch=True)
    assert columns.nonzeros(False) == 3  # from the arrays, before any dict is built
    expected = [{0: 1}, {0: Fraction(1, 2), 1: Fraction(1, 2)}, {}]
    assert columns.used_columns() == [0, 1]
    assert columns.columns(False) == expected
    assert columns.nonzeros(True) == 4  # first differences: (1, −1, 0) and (1/2, 0, −1/2)
    half, zero = Fraction(1, 2), Fraction(0)
    assert columns.dense() == ((Fraction(1), half, zero), (zero, half, zero), (zero, zero, zero))


def test_kept_check_points_are_read_only_and_the_documented_seeded_draws() -> None:
    from reference.audit.linear.probe_linearity import LINEARITY_TRIALS, check_points

    pairs, point = check_points(DRAWS, 7)
    assert check_points(DRAWS, 7)[0] is pairs  # kept for the next probe of the same size and seed
    assert not pairs.flags.writeable and not point.flags.writeable
    # the re-check point from seed 7, the pairs (x, y, x + y per trial) from seed 8, drawn here independently
    assert np.array_equal(point, np.random.default_rng(7).integers(-8, 9, size=DRAWS))
    drawn = np.random.default_rng(8).integers(-8, 9, size=(2 * LINEARITY_TRIALS, DRAWS))
    for trial in range(LINEARITY_TRIALS):
        first, second = drawn[2 * trial], drawn[2 * trial + 1]
        assert np.array_equal(pairs[:, 3 * trial], first) and np.array_equal(pairs[:, 3 * trial + 1], second)
        assert np.array_equal(pairs[:, 3 * trial + 2], first + second)


def test_a_function_past_its_memory_limit_on_the_kept_block_is_not_called_again() -> None:
    unit_calls = [0]

    def greedy_on_units(draws: np.ndarray) -> np.ndarray:
        if draws.shape[1] == DRAWS:
            unit_calls[0] += 1
            np.ones(1 << 30, dtype=np.uint8)  # 1 GiB, above the 0.25 GiB each call may add
        return np.cumsum(draws, axis=0)

    with pytest.raises(ValueError, match=r"ran out of memory of 0\.25 GiB \(call_memory_bytes\)") as refused:
        probe_linear_columns(greedy_on_units, draws=DRAWS, inputs="float64", batch=True, call_memory_bytes=1 << 28)
    assert unit_calls == [1]
    assert "\n" not in str(refused.value)
