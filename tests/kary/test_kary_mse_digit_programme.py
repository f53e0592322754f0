"""Algorithm 2's exact ε²·MSE by the digit programme against routes derived here independently.

* brute force: Σ_{t<=T} of t's balanced-digit weight, each t's offset digits found by balanced division here;
* the per-level count from the module's docstring, written out level by level (G(M + T) − G(M), each level's
  full cycles, partial cycle and partial block counted with divmod), with the height found by a linear search
  over capacities. The programme under test takes G(M) in closed form, reads digits in chunks through tables and
  finds the height by a table search or a logarithm guess, so the two share no code.
"""

from __future__ import annotations

import functools
import itertools
import random
from fractions import Fraction

import numpy as np
import pytest

from reference.kary.digit_mass import total_noise_count
from reference.kary.mse import algorithm_2_mse_digit_programme, algorithm_2_total_noise_count_digit_programme


def balanced_weight(time: int, arity: int) -> int:
    """‖rep(t)‖₁: the sum of |digit| of t's balanced base-k digits (digits in −⌊(k−1)/2⌋..⌈(k−1)/2⌉)."""
    top = arity // 2
    total = 0
    while time:
        digit = time % arity
        if digit > top:
            digit -= arity
        total += abs(digit)
        time = (time - digit) // arity
    return total


def level_height(arity: int, horizon: int) -> int:
    """The least h with ⌈(k − 1)/2⌉·(k^h − 1)/(k − 1) >= T (Definitions 3.8 / C.1's capacity), by linear search."""
    height = 1
    while (arity - 1 - (arity - 1) // 2) * (arity**height - 1) // (arity - 1) < horizon:
        height += 1
    return height


@functools.cache
def running_distances(arity: int, center: int) -> list[int]:
    """[Σ_{d<j} |d − center| for j = 0..arity], summed term by term."""
    return list(itertools.accumulate((abs(d - center) for d in range(arity)), initial=0))


def level_count(limit: int, arity: int, height: int, center: int) -> int:
    """Σ_{n=0}^{limit} Σ_{levels} |standard digit − center|, counted level by level."""
    sums = running_distances(arity, center)
    count = limit + 1
    total = 0
    for level in range(height):
        weight = arity**level
        cycles, rest = divmod(count, arity * weight)
        digit, partial = divmod(rest, weight)
        total += cycles * weight * sums[arity] + weight * sums[digit] + partial * abs(digit - center)
    return total


def level_mse(arity: int, horizon: int) -> Fraction:
    height = level_height(arity, horizon)
    center = (arity - 1) // 2
    shift = center * (arity**height - 1) // (arity - 1)
    total = level_count(shift + horizon, arity, height, center) - level_count(shift, arity, height, center)
    return Fraction(2 * height**2 * total, horizon)


@pytest.mark.parametrize("arity", range(2, 21))
def test_programme_matches_brute_force_for_every_small_horizon(arity: int) -> None:
    running = 0
    for horizon in range(1, 700):
        running += balanced_weight(horizon, arity)
        assert algorithm_2_total_noise_count_digit_programme(arity, horizon) == running
        assert algorithm_2_mse_digit_programme(arity, horizon) == Fraction(2 * level_height(arity, horizon) ** 2 * running, horizon)


# around the chunk widths' edges (chunks of at most 8,192 values: 20³ = 8,000 but 21 takes 2 digits, 90² = 8,100 but
# 91 takes 1, 8,193 has no table) and a huge arity
ARITIES = [*range(2, 22), 90, 91, 8192, 8193, 10**6 + 1]


@pytest.mark.parametrize("arity", ARITIES)
def test_programme_matches_level_count_at_random_horizons(arity: int) -> None:
    rng = random.Random(arity)
    horizons = [rng.randrange(1, 10**12) for _ in range(40)] + [10**12, 2**128 - 1, 2**128, 2**128 + 1]
    horizons += [rng.randrange(1, 10**rng.randrange(13, 400)) for _ in range(5)]  # past the table and float range
    for horizon in horizons:
        assert algorithm_2_mse_digit_programme(arity, horizon) == level_mse(arity, horizon), horizon


@pytest.mark.parametrize("arity", ARITIES)
def test_programme_increments_are_step_weights_across_height_changes(arity: int) -> None:
    """total(T) − total(T − 1) = ‖rep(T)‖₁ at the capacities, where the height changes."""
    for height in range(1, 8):
        capacity = (arity - 1 - (arity - 1) // 2) * (arity**height - 1) // (arity - 1)
        for horizon in (capacity, capacity + 1, capacity + 2):
            if horizon >= 2:
                step = algorithm_2_total_noise_count_digit_programme(arity, horizon)
                step -= algorithm_2_total_noise_count_digit_programme(arity, horizon - 1)
                assert step == balanced_weight(horizon, arity)


@pytest.mark.parametrize(
    ("arity", "horizon", "error", "words"),
    [
        (0, 5, ValueError, "arity must be an integer >= 2"),
        (1, 5, ValueError, "arity must be an integer >= 2"),
        (2.5, 5, TypeError, "arity must be an integer >= 2"),
        (True, 5, TypeError, "arity must be an integer >= 2"),
        ("3", 5, TypeError, "arity must be an integer >= 2"),
        (3, 0, ValueError, "horizon must be an integer >= 1"),
        (3, -4, ValueError, "horizon must be an integer >= 1"),
        (3, True, TypeError, "horizon must be an integer >= 1"),
        (3, 1.5, TypeError, "horizon must be an integer >= 1"),
        (2, 2**4096, ValueError, "width must be an integer in [1, 4096]"),
        (3, 10**4000, ValueError, "width must be an integer in [1, 4096]"),
    ],
)
def test_bad_input_gets_one_line(arity: object, horizon: object, error: type[Exception], words: str) -> None:
    for programme in (algorithm_2_mse_digit_programme, algorithm_2_total_noise_count_digit_programme, total_noise_count):
        with pytest.raises(error) as caught:
            programme(arity, horizon)  # type: ignore[arg-type]
        message = str(caught.value)
        assert words in message
        assert "\n" not in message


def test_integral_inputs_other_than_int() -> None:
    """numpy integers are integers: the same value as for plain ints (checked, then converted)."""
    five, horizon = np.int64(5), np.int64(10**12)
    assert algorithm_2_mse_digit_programme(five, horizon) == level_mse(5, 10**12)  # type: ignore[arg-type]
    four, short = np.int32(4), np.int64(77)
    assert total_noise_count(four, short)[1] == sum(balanced_weight(t, 4) for t in range(1, 78))  # type: ignore[arg-type]


def test_largest_height_accepted() -> None:
    """Arity 2's offset capacity at height h is 2^h − 1: T = 2^4096 − 1 is the last horizon of 4096 digits."""
    horizon = 2**4096 - 1
    assert level_height(2, horizon) == 4096
    assert algorithm_2_mse_digit_programme(2, horizon) == level_mse(2, horizon)
