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
    # float32 code probed as float64 is named as such (not told to raise max_denominator)
    with pytest.raises(ValueError, match=r"entry \(\d+, \d+\) = 0\.\d+ is a float32 value .* inputs='float32'"):
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


def test_solve_and_pseudo_inverse_code_is_recognised_as_linear() -> None:
    # x ↦ M⁻¹(M x) is the identity, computed with cancellation: its outputs carry rounding of about κ(M)·u that
    # the recovered map (the identity) cannot account for; the function's own measured deviation from
    # linearity does
    import numpy as np

    from reference.audit.linear.probe_linear import probe_linear_map

    rng = np.random.default_rng(0)
    square = rng.standard_normal((30, 30))
    inverse = np.linalg.inv(square)
    tall = rng.standard_normal((50, 20))
    pseudo = np.linalg.pinv(tall)
    identity = [[int(i == j) for j in range(30)] for i in range(30)]
    assert probe_linear_map(lambda x: inverse @ (square @ x), draws=30, inputs="float64") == tuple(
        tuple(Fraction(v) for v in row) for row in identity)
    assert probe_linear_map(lambda x: np.linalg.solve(square, square @ x), draws=30, inputs="float64") == tuple(
        tuple(Fraction(v) for v in row) for row in identity)
    thirds = np.tril(np.ones((20, 20))) / 3  # a prefix sum over three, through the pseudo-inverse
    recovered = probe_linear_map(lambda x: pseudo @ (tall @ (thirds @ x)), draws=20, inputs="float64")
    assert recovered == tuple(tuple(Fraction(int(j <= i), 3) for j in range(20)) for i in range(20))
    # a small non-linearity is not rounding (more than √u of the outputs): it widens nothing, so the solve's
    # rounding in the unit probes is no longer excused either and the map is refused
    with pytest.raises(ValueError, match=r"measured rounding 0 of a rational|not linear in the draws"):
        probe_linear_map(lambda x: inverse @ (square @ x) + 1e-9 * x**3, draws=30, inputs="float64")


def test_simplest_between() -> None:
    from reference.audit.linear.probe_linear import simplest_between

    assert simplest_between(Fraction(33, 100), Fraction(34, 100)) == Fraction(1, 3)
    assert simplest_between(Fraction(-7, 10), Fraction(-6, 10)) == Fraction(-2, 3)
    assert simplest_between(Fraction(-1), Fraction(1, 5)) == 0
    assert simplest_between(Fraction(5, 2), Fraction(5, 2)) == Fraction(5, 2)
    # brute force: the smallest denominator with a numerator in the interval
    for low, high in [(Fraction(3, 7), Fraction(4, 9)), (Fraction(101, 1000), Fraction(102, 1000))]:
        found = simplest_between(low, high)
        best = next(Fraction(-(-low.numerator * q // low.denominator), q) for q in range(1, 1000)
                    if Fraction(-(-low.numerator * q // low.denominator), q) <= high)
        assert found == best
