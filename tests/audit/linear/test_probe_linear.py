"""probe_linear_map: exact, integer, float32/float64 and batched probing recover the same exact map; non-linear and
unrecognisable functions are refused with the output and draw named."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from reference.audit.linear.probe_linear import default_denominator_bound, probe_linear_map

DRAWS = 7


def exact_map() -> list[list[Fraction]]:
    # prefix sums divided by 3, plus a 1/7 of the last draw in every output
    return [[Fraction(1, 3) * (j <= i) + Fraction(1, 7) * (j == DRAWS - 1) for j in range(DRAWS)]
            for i in range(DRAWS)]


def as_function(dtype: type) -> object:
    matrix = np.array([[float(entry) for entry in row] for row in exact_map()], dtype=dtype)

    def function(draws: np.ndarray) -> np.ndarray:
        return matrix @ draws.astype(dtype)

    return function


def test_every_mode_recovers_the_exact_map() -> None:
    expected = tuple(tuple(row) for row in exact_map())

    def exact(draws: tuple[Fraction, ...]) -> list[Fraction]:
        return [sum((entry * draw for entry, draw in zip(row, draws)), Fraction(0)) for row in exact_map()]

    assert probe_linear_map(exact, draws=DRAWS) == expected
    for dtype, name in ((np.float32, "float32"), (np.float64, "float64")):
        assert probe_linear_map(as_function(dtype), draws=DRAWS, inputs=name) == expected  # type: ignore[arg-type]
        assert probe_linear_map(as_function(dtype), draws=DRAWS, inputs=name, batch=True) == expected  # type: ignore[arg-type]
    assert probe_linear_map(lambda z: np.cumsum(z), draws=4, inputs="integer")[3] == (1, 1, 1, 1)


def test_float32_third_is_recognised_but_a_float64_third_is_not_within_a_tiny_bound() -> None:
    # float32(1/3) = 0.3333333432674408: within the float32 tolerance of 1/3, denominator bound 511
    assert default_denominator_bound(np.float32) == 511
    assert probe_linear_map(as_function(np.float32), draws=DRAWS, inputs="float32")[0][0] == Fraction(1, 3)
    with pytest.raises(ValueError, match=r"entry \(\d+, \d+\) = 0\.\d+ is not within .* denominator <= 11863283"):
        probe_linear_map(as_function(np.float32), draws=DRAWS, inputs="float64")


def test_non_linear_functions_are_refused() -> None:
    with pytest.raises(ValueError, match="not linear in the draws: at a seeded integer point output 0"):
        probe_linear_map(lambda z: np.cumsum(z) ** 2, draws=4, inputs="float64")
    with pytest.raises(ValueError, match=r"output 0 is 1\.0 at the zero noise vector"):
        probe_linear_map(lambda z: np.cumsum(z) + 1.0, draws=4, inputs="float64")
    with pytest.raises(ValueError, match="not linear in the draws"):
        probe_linear_map(lambda z: [v * v for v in z], draws=3)
    with pytest.raises(ValueError, match="inputs must be one of"):
        probe_linear_map(lambda z: z, draws=3, inputs="float16")  # type: ignore[arg-type]
