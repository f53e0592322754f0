"""The array re-checks of a float probe against Fractions: the exact deviation from linearity by TwoSum, and the
int64 re-check's float screen never clearing an output that the exact comparison refuses."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from reference.audit.linear.probe_recheck import common_denominator, exact_deviation, integer_recheck, two_sum


def brute_deviation(first: np.ndarray, second: np.ndarray, joint: np.ndarray) -> Fraction:
    return max(abs(Fraction(c) - Fraction(a) - Fraction(b)) for a, b, c in
               zip(first.tolist(), second.tolist(), joint.tolist()))


def test_two_sum_is_error_free() -> None:
    rng = np.random.default_rng(3)
    first = rng.standard_normal(500) * 10.0 ** rng.integers(-300, 300, 500)
    second = rng.standard_normal(500) * 10.0 ** rng.integers(-300, 300, 500)
    total, error = two_sum(first, second)
    for a, b, s, e in zip(first.tolist(), second.tolist(), total.tolist(), error.tolist()):
        assert Fraction(a) + Fraction(b) == Fraction(s) + Fraction(e)


def test_exact_deviation_equals_fractions_on_cancelling_and_tiny_values() -> None:
    rng = np.random.default_rng(5)
    for trial in range(200):
        size = int(rng.integers(1, 40))
        first = rng.standard_normal(size) * 10.0 ** int(rng.integers(-320, 300))
        second = rng.standard_normal(size) * 10.0 ** int(rng.integers(-320, 300))
        kind = trial % 4
        if kind == 0:  # f(x + y) = f(x) + f(y) up to one rounding: the deviation is the rounding error
            joint = first + second
        elif kind == 1:  # equal deviations at many outputs
            joint = first + second + 2.0 ** -40
        elif kind == 2:  # exactly linear on integers
            first, second = np.round(first * 0 + rng.integers(-9, 9, size)), np.round(rng.integers(-9, 9, size) * 1.0)
            joint = first + second
        else:  # arbitrary
            joint = rng.standard_normal(size) * 10.0 ** int(rng.integers(-320, 300))
        assert exact_deviation(first, second, joint) == brute_deviation(first, second, joint)


def test_exact_deviation_is_exact_where_its_float_steps_overflow() -> None:
    # f(x + y) − f(x) overflows float64 at the first output; the second is ordinary: the exact way takes both
    first = np.array([-1.7e308, 1.0])
    second = np.array([0.5, 2.0])
    joint = np.array([1.7e308, 3.0 + 2.0 ** -50])
    assert exact_deviation(first, second, joint) == brute_deviation(first, second, joint)
    assert exact_deviation(first, second, joint) == Fraction(1.7e308) * 2 - Fraction(1, 2)


def exact_verdicts(actual: np.ndarray, rows: np.ndarray, cols: np.ndarray, entries: list[Fraction],
                   point: np.ndarray, roundoff: Fraction, own: Fraction) -> list[bool]:
    outputs = actual.shape[0]
    expected = [Fraction(0)] * outputs
    magnitude = [Fraction(0)] * outputs
    terms = [0] * outputs
    for row, col, entry in zip(rows.tolist(), cols.tolist(), entries):
        x = int(point[col])
        if x:
            expected[row] += entry * x
            magnitude[row] += abs(entry * x)
            terms[row] += 1
    passes = []
    for i in range(outputs):
        steps = terms[i] + 2
        gamma = steps * roundoff / (1 - steps * roundoff)
        passes.append(abs(Fraction(actual[i].item()) - expected[i]) <= max(gamma * magnitude[i], own))
    return passes


def test_the_float_screen_never_clears_an_output_the_exact_check_refuses() -> None:
    rng = np.random.default_rng(11)
    unit = Fraction(1, 1 << 53)
    for trial in range(300):
        outputs, draws = int(rng.integers(1, 12)), int(rng.integers(1, 12))
        dense = rng.integers(-3, 4, size=(outputs, draws)) * (rng.random((outputs, draws)) < 0.6)
        denominator = [1, 2, 3, 7, 1024, 3 * 1024][trial % 6]
        rows, cols = np.nonzero(dense)
        entries = [Fraction(int(v), denominator) for v in dense[rows, cols].tolist()]
        point = rng.integers(-8, 9, size=draws)
        exact_values = [sum((Fraction(int(dense[i, j]), denominator) * int(point[j]) for j in range(draws)),
                            Fraction(0)) for i in range(outputs)]
        # outputs at, near and far from B x: exact, one ulp off, a rounding-sized error, a large error
        shifts = rng.choice([0.0, 1.0, 2.0 ** -50, 2.0 ** -45, 1e-3], size=outputs)
        actual = np.array([float(value) for value in exact_values]) + shifts * (1 + np.abs(
            np.array([float(value) for value in exact_values])))
        own = [Fraction(0), Fraction(1, 1 << 48)][trial % 2]
        common = common_denominator(entries)
        assert common is not None
        numerators = np.array([int(e * common) for e in entries], dtype=np.int64)
        flagged = integer_recheck(actual, rows.astype(np.int64), cols.astype(np.int64), numerators, common, point,
                                  unit, own)
        assert flagged is not None
        verdicts = exact_verdicts(actual, rows, cols, entries, point, unit, own)
        flagged_outputs = {i for i, _, _ in flagged}
        for i, passes in enumerate(verdicts):
            if not passes:
                assert i in flagged_outputs
        for i, expected, _allowed in flagged:  # and what is handed back is the exact B x
            assert expected == exact_values[i]
    # an exact integer map evaluated exactly: the screen clears every output
    dense = np.tril(np.ones((50, 50), dtype=np.int64))
    rows, cols = np.nonzero(dense)
    point = rng.integers(-8, 9, size=50)
    cleared = integer_recheck((dense @ point).astype(np.float64), rows, cols, np.ones(rows.size, dtype=np.int64),
                              1, point, unit, Fraction(0))
    assert cleared == []


def test_int64_is_refused_when_a_sum_could_overflow() -> None:
    rows = np.zeros(4, dtype=np.int64)
    cols = np.arange(4, dtype=np.int64)
    assert integer_recheck(np.zeros(1), rows, cols, np.full(4, 1 << 58, dtype=np.int64), 1,
                           np.full(4, 8, dtype=np.int64), Fraction(1, 1 << 53), Fraction(0)) is None
    assert common_denominator([Fraction(1, (1 << 61) + 3), Fraction(1, 3)]) is None
    assert common_denominator([Fraction(1, 6), Fraction(3, 4), 5]) == 12


def test_a_zero_allowance_output_is_cleared_only_when_exactly_equal() -> None:
    # the identity at a point with zeros: those outputs have no terms, so no rounding is allowed at all
    rows = cols = np.arange(4, dtype=np.int64)
    point = np.array([0, 3, 0, -2], dtype=np.int64)
    ones = np.ones(4, dtype=np.int64)
    unit = Fraction(1, 1 << 53)
    assert integer_recheck(point.astype(np.float64), rows, cols, ones, 1, point, unit, Fraction(0)) == []
    off = point.astype(np.float64)
    off[2] = 5e-324  # the smallest subnormal where B x = 0: refused by the exact comparison, so it must be flagged
    flagged = integer_recheck(off, rows, cols, ones, 1, point, unit, Fraction(0))
    assert flagged is not None and [i for i, _, _ in flagged] == [2]
    assert exact_verdicts(off, rows, cols, [Fraction(1)] * 4, point, unit, Fraction(0)) == [True, True, False, True]


def test_integer_recheck_clears_outputs_equal_to_b_x_and_returns_the_others() -> None:
    # B = the running sum of 6 draws (row i has ones in columns 0..i); x = (1, −2, 3, −4, 5, −6): B x = the prefix sums
    rows = np.array([i for i in range(6) for _ in range(i + 1)])
    cols = np.array([j for i in range(6) for j in range(i + 1)])
    point = np.array([1, -2, 3, -4, 5, -6])
    prefix = np.cumsum(point)
    ones = np.ones(rows.size, dtype=np.int64)
    for actual in (prefix.astype(np.float64), prefix.astype(np.float32), prefix.astype(np.int64)):
        assert integer_recheck(actual, rows, cols, ones, 1, point, Fraction(1, 1 << 53), Fraction(0)) == []
    off = prefix.astype(np.float64)
    off[4] += 0.5  # 3.5 where B x is 3: the one output returned, with its exact B x
    flagged = integer_recheck(off, rows, cols, ones, 1, point, Fraction(1, 1 << 53), Fraction(0))
    assert flagged is not None and [(i, expected) for i, expected, _ in flagged] == [(4, Fraction(int(prefix[4])))]
