"""The one-draw-per-call probe's block of unit calls (one memory cap and a watchdog for the whole block, columns
copied into a buffer): a function returning its argument is read before the argument is reset, and a function that
goes wrong only on a later call of the block — non-linear, greedy or slow there — is still refused in one line."""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction

import numpy as np
import pytest

from reference.audit.linear.probe_linear import probe_linear_columns, probe_linear_map

DRAWS = 200


def _exact_columns(table: np.ndarray) -> list[dict[int, Fraction]]:
    return [{row: Fraction(int(table[row, col])) for row in range(table.shape[0]) if table[row, col]}
            for col in range(table.shape[1])]


def test_a_function_returning_its_argument_or_a_view_of_it_is_probed_exactly() -> None:
    # the identity and the reversal are linear: their maps are the identity and the exchange matrix
    identity = probe_linear_map(lambda z: z, draws=5, inputs="float64")
    assert identity == tuple(tuple(Fraction(int(i == j)) for j in range(5)) for i in range(5))
    reversal = probe_linear_columns(lambda z: z[::-1], draws=5, inputs="float64")
    assert [dict(column) for column in reversal.columns(False)] == [{4 - j: 1} for j in range(5)]
    doubled = probe_linear_columns(lambda z: z.__imul__(2), draws=5, inputs="float64")  # in place, returned
    assert [dict(column) for column in doubled.columns(False)] == [{j: 2} for j in range(5)]


def _counting(after: int, late: Callable[[np.ndarray], np.ndarray]) -> Callable[[np.ndarray], np.ndarray]:
    """A lower-triangular all-ones map (a running sum), except from call ``after`` on, where ``late`` answers."""
    calls = [0]

    def function(draws: np.ndarray) -> np.ndarray:
        calls[0] += 1
        return late(draws) if calls[0] > after else np.cumsum(draws, axis=0)

    return function


def test_the_running_sum_is_probed_exactly() -> None:
    columns = probe_linear_columns(_counting(10 ** 9, np.cumsum), draws=DRAWS, inputs="float64")
    assert [dict(column) for column in columns.columns(False)] == _exact_columns(np.tril(np.ones((DRAWS, DRAWS))))


# one draw a call: a unit draw late in the block, the linearity pairs, the last pair and the re-check point (the
# calls are: zero, DRAWS unit draws, nine pairs, the re-check); batch: every call, or the unit block's (the calls
# are: zero and the checks' points in one, then the unit block)
@pytest.mark.parametrize(("after", "batch"), [(150, False), (DRAWS + 1, False), (DRAWS + 9, False), (0, True),
                                              (1, True)])
def test_a_function_non_linear_only_on_a_later_call_is_refused(after: int, batch: bool) -> None:
    def squared(draws: np.ndarray) -> np.ndarray:  # twice the running sum at a unit draw, not linear elsewhere
        return np.cumsum(draws * np.abs(draws) + draws, axis=0)

    with pytest.raises(ValueError, match="not linear"):
        probe_linear_columns(_counting(after, squared), draws=DRAWS, inputs="float64", batch=batch)


def test_a_function_exceeding_memory_on_a_later_call_of_the_block_is_refused() -> None:
    def greedy(draws: np.ndarray) -> np.ndarray:
        np.ones(1 << 31, dtype=np.uint8)  # 2 GiB, written: over the block's cap of twice 256 MiB plus slack
        return np.cumsum(draws)

    for after in (150, DRAWS + 5):  # a unit draw; a linearity pair (the checks' calls share the block's cap)
        with pytest.raises(ValueError, match=r"ran out of memory of 0\.25 GiB \(call_memory_bytes\)"):
            probe_linear_columns(_counting(after, greedy), draws=DRAWS, inputs="float64", call_memory_bytes=1 << 28)


def test_a_function_too_slow_on_a_later_call_of_the_block_is_stopped_at_the_limit() -> None:
    def slow(draws: np.ndarray) -> np.ndarray:
        time.sleep(30)
        return np.cumsum(draws)

    started = time.monotonic()
    with pytest.raises(ValueError, match=r"did not return within the time limit of 0\.5 s per call"):
        probe_linear_columns(_counting(150, slow), draws=DRAWS, inputs="float64", call_seconds=0.5)
    assert time.monotonic() - started < 5
