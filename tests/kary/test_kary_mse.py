"""Tests of KARY's digits, Algorithm 2's noise, its exact MSE (enumeration and digit programme) and the HUU δ
threshold.

Reference values are derived here independently: digit vectors by exhaustive search over all digit vectors,
Algorithm 2's noise by running the listing's loops in the test, MSEs by hand (arity 3, T = 1..13) and from
the multiset of noise indices, δ thresholds with mpmath from the HUU formula as printed. No number is copied
from the code's output.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_verification.kary.checks import threshold as checks

from reference.kary.constants import huu_mse_bound
from reference.kary.digits import (
    algorithm_2_noise_count,
    algorithm_2_noise_indices,
    digit_offset,
    digits,
    even_offset_digits,
    height_for_horizon,
    offset_capacity,
    offset_digits,
    representation,
)
from reference.kary.mse import (
    MAX_ENUMERATION_HORIZON,
    algorithm_2_mse,
    algorithm_2_mse_digit_programme,
    algorithm_2_step_variance,
    algorithm_2_total_noise_count,
    algorithm_2_total_noise_count_digit_programme,
    appendix_c_horizon,
    appendix_c_recursion,
    claim_1_leading_term,
    lemma_4_7_closed_form,
    lemma_4_7_horizon,
)
from reference.kary.threshold import (
    asymptotic_delta_threshold,
    asymptotic_exponent,
    horizon_power,
    huu_delta_threshold,
    huu_log_inverse_delta_threshold,
    pure_beats_huu,
)

MP = mpmath.mp.clone()
MP.dps = 40


# --------------------------------------------------------------------------------------- naive oracles


def search_table(arity: int, width: int, low_digit: int, high_digit: int) -> dict[int, list[tuple[int, ...]]]:
    """Every digit vector in [low_digit, high_digit]^width (least significant first), grouped by its value."""
    table: dict[int, list[tuple[int, ...]]] = {}
    for vector in itertools.product(range(low_digit, high_digit + 1), repeat=width):
        value = sum(d * arity**i for i, d in enumerate(vector))
        table.setdefault(value, []).append(vector)
    return table


def run_algorithm_2_loops(time: int, arity: int, height: int) -> list[int]:
    """Lines 6–13 of Algorithm 2, with rep found by exhaustive search (odd or even arity)."""
    top = arity // 2
    matches = [
        v
        for v in itertools.product(range(top - arity + 1, top + 1), repeat=height)
        if sum(d * arity**i for i, d in enumerate(v)) == time
    ]
    assert len(matches) == 1
    rep = matches[0]
    p, used = 0, []
    for level in range(height, 0, -1):
        digit = rep[level - 1]
        for _ in range(abs(digit)):
            p += (1 if digit > 0 else -1) * arity ** (level - 1)
            used.append(p)
    return used


def smallest_height(horizon: int, capacity: object) -> int:
    h = 1
    while capacity(h) < horizon:  # type: ignore[operator]
        h += 1
    return h


def naive_mse_from_indices(arity: int, horizon: int) -> Fraction:
    """ε²·MSE from the noise indices: Var(output t) = 2h² Σ_p mult_t(p)² (no distinctness assumed)."""
    top = arity // 2
    height = smallest_height(horizon, lambda h: sum(top * arity**i for i in range(h)))
    total = 0
    for t in range(1, horizon + 1):
        counts = Counter(run_algorithm_2_loops(t, arity, height))
        total += sum(c * c for c in counts.values())
    return Fraction(2 * height**2 * total, horizon)


def balanced_weight(value: int, arity: int) -> int:
    """‖offset digits‖₁ by repeated division with a balanced remainder (the test's own version)."""
    total = 0
    while value:
        r = value % arity
        if r > arity // 2:
            r -= arity
        total += abs(r)
        value = (value - r) // arity
    return total


# ----------------------------------------------------------------------------------------------- digits


@pytest.mark.parametrize(("arity", "width"), [(2, 5), (3, 4), (4, 3), (7, 2), (10, 2)])
def test_standard_digits_match_exhaustive_search(arity: int, width: int) -> None:
    table = search_table(arity, width, 0, arity - 1)
    assert sorted(table) == list(range(arity**width))
    for value, vectors in table.items():
        assert len(vectors) == 1
        assert digits(value, arity, width) == vectors[0]


@pytest.mark.parametrize(("arity", "width"), [(3, 5), (5, 3), (7, 3), (9, 2)])
def test_offset_digits_match_exhaustive_search(arity: int, width: int) -> None:
    half = (arity - 1) // 2
    table = search_table(arity, width, -half, half)
    bound = (arity**width - 1) // 2
    assert sorted(table) == list(range(-bound, bound + 1))  # Definition 3.8's range, each value once
    for value, vectors in table.items():
        assert len(vectors) == 1
        assert offset_digits(value, arity, width) == vectors[0]
    assert offset_capacity(arity, width) == bound


@pytest.mark.parametrize(("arity", "width"), [(2, 5), (4, 3), (6, 3), (8, 2)])
def test_even_offset_digits_match_exhaustive_search(arity: int, width: int) -> None:
    table = search_table(arity, width, -arity // 2 + 1, arity // 2)
    high = arity * (arity**width - 1) // (2 * (arity - 1))  # Definition C.1's bound
    assert max(table) == high
    assert sorted(table) == list(range(min(table), high + 1))
    for value, vectors in table.items():
        assert len(vectors) == 1
        assert even_offset_digits(value, arity, width) == vectors[0]
    assert offset_capacity(arity, width) == high


def test_digits_hand_examples() -> None:
    assert digits(11, 3, 3) == (2, 0, 1)  # 11 = 2 + 0·3 + 1·9
    assert offset_digits(11, 3, 3) == (-1, 1, 1)  # 11 = −1 + 3 + 9
    assert offset_digits(5, 3, 3) == (-1, -1, 1)  # 5 = −1 − 3 + 9
    assert offset_digits(-5, 3, 3) == (1, 1, -1)
    assert offset_digits(0, 5, 2) == (0, 0)
    assert even_offset_digits(3, 4, 2) == (-1, 1)  # 3 = −1 + 4
    assert even_offset_digits(2, 4, 2) == (2, 0)
    assert digit_offset(19) == 9
    assert digit_offset(20) == 9


def test_height_for_horizon_integer_arithmetic() -> None:
    # 125 = 5**3: log(125, 5) is 3.0000000000000004 in floats
    assert height_for_horizon(5, 124, offset=False) == 3
    assert height_for_horizon(5, 125, offset=False) == 4
    assert height_for_horizon(5, 62, offset=True) == 3  # (125 − 1)/2 = 62
    assert height_for_horizon(5, 63, offset=True) == 4
    assert height_for_horizon(3, 1, offset=True) == 1
    assert height_for_horizon(4, 10, offset=True) == 2  # Definition C.1: 4·15/6 = 10
    assert height_for_horizon(4, 11, offset=True) == 3
    big = 19**30
    assert height_for_horizon(19, (big - 1) // 2, offset=True) == 30
    assert height_for_horizon(19, (big + 1) // 2, offset=True) == 31
    assert height_for_horizon(19, big - 1, offset=False) == 30
    assert height_for_horizon(19, big, offset=False) == 31


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=40), st.integers(min_value=1, max_value=10**30))
def test_height_is_smallest_sufficient(arity: int, horizon: int) -> None:
    standard = height_for_horizon(arity, horizon, offset=False)
    assert arity**standard - 1 >= horizon and (standard == 1 or arity ** (standard - 1) - 1 < horizon)
    offset = height_for_horizon(arity, horizon, offset=True)
    top = (arity - 1) // 2 + (arity % 2 == 0)  # the largest offset digit
    capacity = [top * (arity**h - 1) // (arity - 1) for h in (offset - 1, offset)]
    assert capacity[1] >= horizon and (offset == 1 or capacity[0] < horizon)


# ----------------------------------------------------------------------------------- Algorithm 2 noise


def test_noise_indices_hand_examples() -> None:
    # arity 3, height 3: t = 5 = 9 − 3 − 1 uses z_9, z_6, z_5; t = 11 = 9 + 3 − 1 uses z_9, z_12, z_11
    assert algorithm_2_noise_indices(5, 3, 3) == (9, 6, 5)
    assert algorithm_2_noise_indices(7, 3, 3) == (9, 6, 7)
    assert algorithm_2_noise_indices(11, 3, 3) == (9, 12, 11)
    assert algorithm_2_noise_indices(9, 3, 3) == (9,)
    # arity 5, t = 12 = 2·5 + 2: z_5, z_10, z_11, z_12
    assert algorithm_2_noise_indices(12, 5, 2) == (5, 10, 11, 12)


@pytest.mark.parametrize(("arity", "height"), [(3, 4), (5, 3), (7, 2), (4, 3), (6, 2)])
def test_noise_indices_match_listing_and_are_distinct(arity: int, height: int) -> None:
    capacity = offset_capacity(arity, height)
    for t in range(1, capacity + 1):
        used = algorithm_2_noise_indices(t, arity, height)
        assert list(used) == run_algorithm_2_loops(t, arity, height)
        assert len(set(used)) == len(used)  # distinct: variance = count × per-noise variance
        assert all(1 <= p <= capacity for p in used)  # Proposition 4.1
        assert used[-1] == t  # the walk ends at t
        assert algorithm_2_noise_count(t, arity, height) == len(used)
        assert sum(abs(d) for d in representation(t, arity, height)) == len(used)


@settings(max_examples=80, deadline=None)
@given(st.sampled_from([3, 5, 7, 9, 19, 21, 4, 20]), st.integers(min_value=1, max_value=10**18))
def test_noise_indices_properties_large(arity: int, time: int) -> None:
    height = height_for_horizon(arity, time, offset=True)
    used = algorithm_2_noise_indices(time, arity, height)
    assert len(set(used)) == len(used) and used[-1] == time
    assert all(1 <= p <= offset_capacity(arity, height) for p in used)
    assert len(used) == balanced_weight(time, arity)


# ------------------------------------------------------------------------------------------------- MSE

# arity 3: ‖rep(t)‖₁ for t = 1..13 worked out by hand (1, 2 = 3 − 1, 3, 4 = 3 + 1, 5 = 9 − 3 − 1, ...)
HAND_COUNTS_ARITY_3 = [1, 2, 1, 2, 3, 2, 3, 2, 1, 2, 3, 2, 3]
HAND_HEIGHTS_ARITY_3 = [1, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3]  # capacities 1, 4, 13


@pytest.mark.parametrize("horizon", range(1, 14))
def test_mse_hand_computed_arity_3(horizon: int) -> None:
    h = HAND_HEIGHTS_ARITY_3[horizon - 1]
    expected = Fraction(2 * h * h * sum(HAND_COUNTS_ARITY_3[:horizon]), horizon)
    assert algorithm_2_mse(3, horizon) == expected
    assert algorithm_2_mse_digit_programme(3, horizon) == expected
    assert height_for_horizon(3, horizon, offset=True) == h


def test_hand_values_arity_3() -> None:
    assert algorithm_2_mse(3, 1) == 2
    assert algorithm_2_mse(3, 3) == Fraction(32, 3)
    assert algorithm_2_mse(3, 13) == Fraction(486, 13)
    assert algorithm_2_step_variance(5, 3, 13) == 2 * 9 * 3
    assert lemma_4_7_closed_form(3, 1) == 2  # 3(8/9)/(2·2/3)
    assert lemma_4_7_closed_form(3, 3) == Fraction(486, 13)


@pytest.mark.parametrize(("arity", "horizon"), [(3, 40), (5, 37), (7, 30), (9, 41), (4, 30), (6, 25), (2, 20)])
def test_mse_matches_noise_index_multisets(arity: int, horizon: int) -> None:
    expected = naive_mse_from_indices(arity, horizon)
    assert algorithm_2_mse(arity, horizon) == expected
    assert algorithm_2_mse_digit_programme(arity, horizon) == expected


@pytest.mark.parametrize("arity", [3, 5, 7, 4])
def test_dp_matches_enumeration_for_every_small_horizon(arity: int) -> None:
    running = 0
    for horizon in range(1, 3001):
        running += balanced_weight(horizon, arity)
        assert algorithm_2_total_noise_count_digit_programme(arity, horizon) == running
        if horizon % 500 == 0:
            assert algorithm_2_total_noise_count(arity, horizon) == running
            assert algorithm_2_mse(arity, horizon) == algorithm_2_mse_digit_programme(arity, horizon)


@settings(max_examples=15, deadline=None)
@given(st.sampled_from([3, 5, 7, 19]), st.integers(min_value=3001, max_value=60_000))
def test_dp_matches_enumeration_random(arity: int, horizon: int) -> None:
    assert algorithm_2_mse_digit_programme(arity, horizon) == algorithm_2_mse(arity, horizon)


@settings(max_examples=80, deadline=None)
@given(st.sampled_from([3, 5, 7, 19, 4, 20]), st.integers(min_value=2, max_value=10**15))
def test_dp_increments_are_the_step_counts(arity: int, horizon: int) -> None:
    """total(T) − total(T − 1) = ‖rep(T)‖₁ at any T (also across height changes: leading zeros weigh 0)."""
    step = algorithm_2_total_noise_count_digit_programme(arity, horizon) - algorithm_2_total_noise_count_digit_programme(arity, horizon - 1)
    assert step == balanced_weight(horizon, arity)


@pytest.mark.parametrize("arity", [3, 5, 7, 9, 11, 19, 21])
def test_lemma_4_7_at_full_trees(arity: int) -> None:
    for height in range(1, 11):
        horizon = (arity**height - 1) // 2
        assert lemma_4_7_horizon(arity, height) == horizon
        # the proof's argument, recomputed: digits of 1..T and −T..−1 pair up; each position is uniform
        expected = (
            Fraction(2 * height**2) * Fraction(height * (arity**2 - 1), 4 * arity) * arity**height / (2 * horizon)
        )
        assert algorithm_2_mse_digit_programme(arity, horizon) == expected
        assert lemma_4_7_closed_form(arity, height) == expected


def test_dp_at_huge_horizon_against_full_tree() -> None:
    height = 30
    horizon = (19**height - 1) // 2
    expected = Fraction(19 * height**3 * (1 - Fraction(1, 361)), 2) / (1 - Fraction(1, 19**height))
    assert algorithm_2_mse_digit_programme(19, horizon) == expected


def test_appendix_c_recursion_and_excess_small() -> None:
    for arity in (4, 6):
        for height in range(1, 5):
            horizon = appendix_c_horizon(arity, height)
            exact = sum(balanced_weight(t, arity) for t in range(1, horizon + 1))
            assert appendix_c_recursion(arity, height) == exact
            mse = Fraction(2 * height**2 * exact, horizon)
            assert algorithm_2_mse_digit_programme(arity, horizon) == mse
            assert mse - claim_1_leading_term(arity, height) == Fraction((arity - 2) * height**2, 2 * (arity - 1))


# ---------------------------------------------------------------------------------------------- inputs


def test_bad_inputs() -> None:
    with pytest.raises(ValueError, match="arity"):
        offset_digits(3, 4, 2)
    with pytest.raises(ValueError, match="arity"):
        even_offset_digits(3, 5, 2)
    with pytest.raises(ValueError, match="arity"):
        digits(3, 1, 2)
    with pytest.raises(ValueError, match="arity"):
        algorithm_2_mse(1, 5)
    with pytest.raises(ValueError, match="arity"):
        algorithm_2_mse_digit_programme(0, 5)
    with pytest.raises(ValueError, match="arity"):
        lemma_4_7_closed_form(4, 2)
    with pytest.raises(ValueError, match="horizon"):
        algorithm_2_mse(3, 0)
    with pytest.raises(ValueError, match="horizon"):
        algorithm_2_mse_digit_programme(3, -4)
    with pytest.raises(ValueError, match="horizon"):
        height_for_horizon(3, 0, offset=True)
    with pytest.raises(ValueError, match="horizon"):
        algorithm_2_mse(3, MAX_ENUMERATION_HORIZON + 1)
    with pytest.raises(ValueError, match="value"):
        digits(27, 3, 3)
    with pytest.raises(ValueError, match="value"):
        digits(-1, 3, 3)
    with pytest.raises(ValueError, match="value"):
        offset_digits(14, 3, 3)
    with pytest.raises(ValueError, match="value"):
        offset_digits(-14, 3, 3)
    with pytest.raises(ValueError, match="value"):
        even_offset_digits(11, 4, 2)
    with pytest.raises(ValueError, match="width"):
        digits(1, 3, 0)
    with pytest.raises(ValueError, match="time"):
        algorithm_2_noise_indices(14, 3, 3)
    with pytest.raises(ValueError, match="time"):
        algorithm_2_step_variance(6, 3, 5)
    with pytest.raises(TypeError, match="value"):
        digits(2.0, 3, 3)
    with pytest.raises(TypeError, match="arity"):
        algorithm_2_mse(3.0, 5)
    with pytest.raises(TypeError, match="horizon"):
        algorithm_2_mse_digit_programme(3, True)
    with pytest.raises(TypeError, match="offset"):
        height_for_horizon(3, 4, offset=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="delta"):
        pure_beats_huu(19, 100, 1)
    with pytest.raises(ValueError, match="exponent"):
        horizon_power(10, 0)


# ------------------------------------------------------------------------------------------- threshold


def mp_threshold(mse: Fraction, horizon: int) -> mpmath.mpf:
    """δ* from the printed HUU bound: solve C²(1 + ln(4T/5)/π)² = m/ε² for δ (ε = 1, any ε cancels)."""
    factor = 1 + MP.log(MP.mpf(4 * horizon) / 5) / MP.pi
    c_squared = MP.mpf(mse.numerator) / mse.denominator / factor**2  # = C_{1,δ}²
    inner = c_squared / 4 - MP.mpf(4) / 9  # = ln((1/δ) sqrt(2/π))
    return MP.sqrt(2 / MP.pi) / MP.exp(inner)


@pytest.mark.parametrize(("arity", "horizon"), [(3, 13), (19, 100), (19, 10_000), (5, 777)])
def test_threshold_against_mpmath(arity: int, horizon: int) -> None:
    top = arity // 2
    height = smallest_height(horizon, lambda h: sum(top * arity**i for i in range(h)))
    mse = Fraction(2 * height**2 * sum(balanced_weight(t, arity) for t in range(1, horizon + 1)), horizon)
    expected = mp_threshold(mse, horizon)
    threshold = huu_delta_threshold(arity, horizon)
    assert threshold.lower <= Fraction(str(expected * (1 + MP.mpf(10) ** -20)))
    assert threshold.upper >= Fraction(str(expected * (1 - MP.mpf(10) ** -20)))
    assert threshold.relative_width() < Fraction(1, 10**20)
    log_inverse = huu_log_inverse_delta_threshold(arity, horizon)
    assert abs(float(log_inverse.midpoint) + float(MP.log(expected))) < 1e-12


@pytest.mark.parametrize(("arity", "horizon"), [(19, 1000), (3, 50), (19, 65161)])
def test_threshold_separates_huu_bound(arity: int, horizon: int) -> None:
    """Just below δ* the HUU bound (kary_constants' own evaluation) is above the exact MSE; just above, below."""
    threshold = huu_delta_threshold(arity, horizon)
    epsilon = Fraction(1, 2)
    mse = algorithm_2_mse_digit_programme(arity, horizon) / epsilon**2
    below = threshold.lower * (1 - Fraction(1, 10**6))
    above = threshold.upper * (1 + Fraction(1, 10**6))
    assert huu_mse_bound(epsilon=epsilon, delta=below, horizon=horizon).certainly_gt(mse)
    assert huu_mse_bound(epsilon=epsilon, delta=above, horizon=horizon).certainly_lt(mse)
    assert pure_beats_huu(arity, horizon, below)
    assert not pure_beats_huu(arity, horizon, above)


def test_asymptotic_prediction() -> None:
    b_approx = 4 * MP.log(2) ** 3 / MP.pi**2
    r19 = 19 * (1 - MP.mpf(1) / 361) / (2 * (MP.log(19) / MP.log(2)) ** 3) / b_approx
    exponent = asymptotic_exponent(19)
    assert abs(float(exponent.midpoint) - float(r19)) < 1e-15
    assert exponent.certainly_lt(Fraction(23, 25))
    predicted = asymptotic_delta_threshold(19, 10**6)
    assert abs(float(predicted.midpoint) / float(MP.power(10, -6 * r19)) - 1) < 1e-12
    r20 = MP.mpf(20) / (2 * (MP.log(20) / MP.log(2)) ** 3) / b_approx
    assert abs(float(asymptotic_exponent(20).midpoint) - float(r20)) < 1e-15
    power = horizon_power(1000, Fraction(1, 3))
    assert power.contains(Fraction(1, 10))


# -------------------------------------------------------------------------------------- verification


def test_lemma_4_7_check_small() -> None:
    result = checks.lemma_4_7_check(arities=(3, 5, 7), max_height=4)
    assert result.holds and not result.mismatches
    assert "equal" in result.summary()


def test_appendix_c_checks_small() -> None:
    recursion = checks.appendix_c_recursion_check(arities=(4, 6), max_height=4)
    assert recursion.holds and recursion.symbolic_holds
    claim = checks.claim_1_check(arities=(4, 6), max_height=4)
    assert not claim.holds  # (k − 2)h²/(2(k − 1)) is not o(h²): verified by hand above for k = 4, 6
    assert "1/3" in claim.summary() and "2/5" in claim.summary()


def test_theorem_1_2_table_small() -> None:
    result = checks.theorem_1_2_finite_horizon(arities=(19,), min_exponent=2, max_exponent=5, max_jump_height=3)
    rows = {row.horizon: row for row in result.tables[0].rows}
    for horizon in (10**2, 10**3, 10**4, 10**5):
        height = smallest_height(horizon, lambda h: (19**h - 1) // 2)
        mse = Fraction(2 * height**2 * sum(balanced_weight(t, 19) for t in range(1, horizon + 1)), horizon)
        assert rows[horizon].mse == mse
        expected = bool(mp_threshold(mse, horizon) > MP.power(horizon, -MP.mpf(23) / 25))
        assert rows[horizon].pure_wins_at_paper_delta is expected
    assert [row.horizon for row in result.jumps] == [10, 181]  # (19 + 1)/2, (361 + 1)/2
    assert result.summary().count("k = 19") >= 6
