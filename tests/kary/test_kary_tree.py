"""The KARY tree structure (reference.kary.tree): hand-computed small trees, brute force, L·R = A.

Expected values are derived by hand in the comments or by independent brute force (intervals from
Definition 3.1's formula, digit sums from ``numpy.base_repr``), never copied from the code's output.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_verification.core.proof import ProofFailure
from reference_verification.kary.proofs import lemma_3_5 as kary_lemma_3_5
from reference_verification.kary.proofs import lemma_4_7 as kary_lemma_4_7

from reference.kary import mse as kary_mse
from reference.kary import noise_indices
from reference.kary import tree as kt
from reference.kary.digits import algorithm_2_noise_indices


def _interval(level: int, index: int, arity: int) -> set[int]:
    """Definition 3.1: vertex (level, index) covers [1 + index·k^(level−1), (index + 1)·k^(level−1)]."""
    width = arity ** (level - 1)
    return set(range(1 + index * width, (index + 1) * width + 1))


# ----------------------------------------------------------------------------------------- hand cases


def test_algorithm_1_vertices_hand_case() -> None:
    # k = 3, h = 2, t = 5 = 2 + 1·3: level 2 adds [1, 3] = (2, 0); level 1 adds [4, 4] = (1, 3), [5, 5] = (1, 4)
    assert kt.algorithm_1_vertices(5, 3, 2) == ((2, 0), (1, 3), (1, 4))
    # binary, h = 3, t = 6 = 110b: [1, 4] = (3, 0), [5, 6] = (2, 2)
    assert kt.algorithm_1_vertices(6, 2, 3) == ((3, 0), (2, 2))


def test_algorithm_3_hand_case_and_noise_indices() -> None:
    # k = 3, h = 2, t = 2 = 3 − 1: add [1, 3] = (2, 0), p = 3; subtract [3, 3] = (1, 2), p = 2
    assert kt.algorithm_3_signed_vertices(2, 3, 2) == ((1, 2, 0), (-1, 1, 2))
    # Algorithm 2 visits p = 3 then p = 2, the p after each update
    assert algorithm_2_noise_indices(2, 3, 2) == (3, 2)
    assert kt.vertex_of_noise_index(3, 3, 2) == (1, 2, 0)
    assert kt.vertex_of_noise_index(2, 3, 2) == (-1, 1, 2)


def test_binary_tree_matrices_by_hand() -> None:
    # k = 2, h = 2, T = 3: t1 uses [1,1]; t2 uses [1,2]; t3 uses [1,2] and [3,3]
    # used vertices sorted: (1,0) = [1,1], (1,2) = [3,3], (2,0) = [1,2]
    assert kt.used_vertices(2, 2, subtraction=False) == ((1, 0), (1, 2), (2, 0))
    assert kt.strategy_matrix(2, 2) == [[1, 0, 0], [0, 0, 1], [1, 1, 0]]
    assert kt.reconstruction_matrix(2, 2, subtraction=False) == [[1, 0, 0], [0, 0, 1], [0, 1, 1]]


def test_ternary_subtraction_sensitivity_and_covariance_by_hand() -> None:
    # k = 3, h = 2, T = 4: t1 +[1,1]; t2 +[1,3] −[3,3]; t3 +[1,3]; t4 +[1,3] +[4,4]; leaf [2,2] unused
    assert kt.used_vertices(3, 2, subtraction=True) == ((1, 0), (1, 2), (1, 3), (2, 0))
    sens = kt.sensitivities(3, 2, subtraction=True)
    # input 1 in (1,0),(2,0); input 2 in (2,0); input 3 in (1,2),(2,0); input 4 in (1,3)
    assert sens.column_counts == (2, 1, 2, 1)
    assert sens.l1 == 2 and sens.l2_squared == 2
    assert sens.levels_used == (1, 2)
    # L·Lᵀ: diagonal 1, 2, 1, 2; t2, t3, t4 share (2,0) with signs +; t1 shares nothing
    gram = [[1, 0, 0, 0], [0, 2, 1, 1], [0, 1, 1, 1], [0, 1, 1, 2]]
    expected = tuple(tuple(Fraction(2 * 9, 4) * entry for entry in row) for row in gram)  # 2b² with b = 3/2
    assert kt.output_covariance(3, 2, Fraction(3, 2), subtraction=True) == expected
    assert kt.output_covariance(3, 2, "3/2", subtraction=True) == expected


def test_maximum_step_variance_by_hand() -> None:
    # standard ternary digits of t <= 8: the largest digit sum is 2 + 2 = 4, only at t = 8
    top = kt.maximum_step_variance(3, 2, 1, subtraction=False)
    assert top.value == 8 and top.times == (8,)
    # offset digits: ‖rep‖₁ = 2 at t = 2 (−1, 1) and t = 4 (1, 1)
    top = kt.maximum_step_variance(3, 2, 1, subtraction=True)
    assert top.value == 4 and top.times == (2, 4)


def test_live_noise_hand_case() -> None:
    # k = 3, T = 4 (h = 2): indices t1 {1}, t2 {3, 2}, t3 {3}, t4 {3, 4}; z_3 lives over [2, 4]
    live = noise_indices.live_noise_count(3, 4)
    assert live.height == 2
    assert live.maximum_live == 2 and live.attained_at == 2
    assert live.distinct_indices == 4 and live.contiguous
    assert live.proof_bound == 2 and live.within_bound


def test_algorithm_1_mse_hand_case() -> None:
    # k = 2, T = 3, h = 2: digit sums 1, 1, 2 → ε²MSE = 2·4·4/3 = 32/3 = Lemma 3.5's (1)·8/(3/4)
    assert kary_mse.algorithm_1_mse(2, 3) == Fraction(32, 3)
    assert kary_mse.algorithm_1_mse_digit_programme(2, 3) == Fraction(32, 3)
    assert kary_mse.lemma_3_5_closed_form(2, 2) == Fraction(32, 3)


# ----------------------------------------------------------------------------------------- brute force


@pytest.mark.parametrize(("arity", "height"), [(2, 3), (3, 2), (3, 3), (4, 2), (5, 2), (6, 2), (7, 2)])
@pytest.mark.parametrize("subtraction", [False, True])
def test_signed_vertices_sum_to_prefix(arity: int, height: int, subtraction: bool) -> None:
    top = kt.capacity(arity, height, subtraction=subtraction)
    for time in range(1, top + 1):
        if subtraction:
            rows = kt.algorithm_3_signed_vertices(time, arity, height)
        else:
            rows = tuple((1, level, index) for level, index in kt.algorithm_1_vertices(time, arity, height))
        coverage = [0] * (top + 2)
        for sign, level, index in rows:
            for leaf in _interval(level, index, arity):
                coverage[leaf] += sign
        assert coverage[1 : top + 1] == [1 if leaf <= time else 0 for leaf in range(1, top + 1)]
        assert coverage[0] == 0 and coverage[top + 1] == 0


@pytest.mark.parametrize(("arity", "height"), [(2, 3), (3, 2), (3, 3), (4, 2), (5, 2), (7, 2)])
@pytest.mark.parametrize("subtraction", [False, True])
def test_l_times_r_is_a(arity: int, height: int, subtraction: bool) -> None:
    left = np.array(kt.reconstruction_matrix(arity, height, subtraction=subtraction), dtype=np.int64)
    right = np.array(kt.strategy_matrix(arity, height, subtraction=subtraction), dtype=np.int64)
    steps = kt.capacity(arity, height, subtraction=subtraction)
    assert np.array_equal(left @ right, np.tril(np.ones((steps, steps), dtype=np.int64)))
    assert kt.check_factorization(arity, height, subtraction=subtraction)


@pytest.mark.parametrize(("arity", "height"), [(3, 1), (3, 2), (3, 3), (4, 2), (5, 2), (5, 3), (6, 2), (7, 2)])
def test_algorithm_3_matches_algorithm_2(arity: int, height: int) -> None:
    for time in range(1, kt.capacity(arity, height, subtraction=True) + 1):
        indices = algorithm_2_noise_indices(time, arity, height)
        assert tuple(kt.vertex_of_noise_index(p, arity, height) for p in indices) == kt.algorithm_3_signed_vertices(
            time, arity, height
        )
    assert kt.check_algorithm_2_covariance(arity, height)


@pytest.mark.parametrize(("arity", "height"), [(2, 3), (3, 3), (4, 2), (5, 2), (7, 2)])
@pytest.mark.parametrize("subtraction", [False, True])
def test_sensitivity_is_height_at_capacity(arity: int, height: int, subtraction: bool) -> None:
    # the paper's Δ1 = h (Proofs 3.4, 4.6): input 1 lies in one used vertex per level
    sens = kt.sensitivities(arity, height, subtraction=subtraction)
    assert sens.l1 == height and sens.l2_squared == height
    assert sens.levels_used == tuple(range(1, height + 1))


def test_per_step_variances_are_the_covariance_diagonal() -> None:
    for subtraction in (False, True):
        covariance = kt.output_covariance(5, 2, 2, subtraction=subtraction)
        variances = kt.per_step_variances(5, 2, 2, subtraction=subtraction)
        assert variances == tuple(covariance[i][i] for i in range(len(variances)))


def test_horizon_restriction() -> None:
    assert kt.check_factorization(3, 3, subtraction=True, horizon=5)
    assert len(kt.strategy_matrix(3, 3, subtraction=True, horizon=5)[0]) == 5
    assert len(kt.reconstruction_matrix(3, 3, subtraction=True, horizon=5)) == 5


@settings(max_examples=60, deadline=None)
@given(arity=st.integers(2, 12), horizon=st.integers(1, 3000))
def test_algorithm_1_mse_against_base_repr(arity: int, horizon: int) -> None:
    total = sum(sum(int(c, 36) for c in np.base_repr(t, arity)) for t in range(1, horizon + 1))
    height = 1
    while arity**height - 1 < horizon:
        height += 1
    expected = Fraction(2 * height**2 * total, horizon)
    assert kary_mse.algorithm_1_mse(arity, horizon) == expected
    assert kary_mse.algorithm_1_mse_digit_programme(arity, horizon) == expected


@pytest.mark.parametrize(("arity", "height"), [(2, 1), (2, 5), (3, 4), (5, 3), (10, 4), (10, 12), (17, 10)])
def test_algorithm_1_mse_dp_meets_lemma_3_5(arity: int, height: int) -> None:
    expected = Fraction((arity - 1) * height**3 * arity**height, arity**height - 1)  # by hand from the lemma
    assert kary_mse.lemma_3_5_closed_form(arity, height) == expected
    assert kary_mse.algorithm_1_mse_digit_programme(arity, arity**height - 1) == expected


def test_live_noise_meets_lemma_4_12_bound_at_capacity() -> None:
    for arity, height in [(3, 2), (3, 3), (5, 2), (5, 3), (7, 2)]:
        steps = (arity**height - 1) // 2
        live = noise_indices.live_noise_count(arity, steps)
        assert live.height == height
        assert live.maximum_live == live.proof_bound == height * (arity - 1) // 2
        assert live.contiguous and live.distinct_indices == steps  # Proof 4.15: exactly T noise values


# ----------------------------------------------------------------------------------------- proofs


def test_proofs_establish_lemmas() -> None:
    assert kary_lemma_3_5.prove().number == "Lemma 3.5"
    assert kary_lemma_4_7.prove().number == "Lemma 4.7"


def test_proof_3_5_fails_on_wrong_closed_form() -> None:
    k, h = kary_lemma_3_5.k, kary_lemma_3_5.h
    with pytest.raises(ProofFailure):
        kary_lemma_3_5.prove(claimed=(k - 1) * h**3 / (2 * (1 - 1 / k**h)), sanity=False)
    with pytest.raises(ProofFailure):
        kary_lemma_3_5.prove(claimed=(k - 1) * h**3, sanity=False)


def test_proof_4_7_fails_on_wrong_closed_form() -> None:
    k, h = kary_lemma_4_7.ARITY, kary_lemma_3_5.h
    with pytest.raises(ProofFailure):
        kary_lemma_4_7.prove(claimed=k * (1 - 1 / k**2) * h**3 / (1 - 1 / k**h), sanity=False)
    with pytest.raises(ProofFailure):
        kary_lemma_4_7.prove(claimed=k * h**3 / (2 * (1 - 1 / k**h)), sanity=False)  # Claim 1's even form
    assert isinstance(kary_lemma_4_7.paper_closed_form(), sp.Expr)


# ----------------------------------------------------------------------------------------- bad inputs


def test_bad_inputs() -> None:
    with pytest.raises(ValueError, match="arity"):
        kt.algorithm_1_vertices(1, 1, 2)
    with pytest.raises(TypeError, match="arity"):
        kt.algorithm_1_vertices(1, True, 2)
    with pytest.raises(ValueError, match="height"):
        kt.algorithm_3_signed_vertices(1, 3, 0)
    with pytest.raises(ValueError, match="time"):
        kt.algorithm_1_vertices(9, 3, 2)  # 9 > 3^2 − 1
    with pytest.raises(ValueError, match="time"):
        kt.algorithm_3_signed_vertices(5, 3, 2)  # 5 > (9 − 1)/2
    with pytest.raises(ValueError, match="time"):
        kt.algorithm_3_signed_vertices(0, 3, 2)
    with pytest.raises(TypeError, match="scale"):
        kt.output_covariance(3, 2, 0.5, subtraction=True)
    with pytest.raises(ValueError, match="scale"):
        kt.per_step_variances(3, 2, -1, subtraction=True)
    with pytest.raises(TypeError, match="subtraction"):
        kt.sensitivities(3, 2, subtraction=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="horizon"):
        kt.strategy_matrix(3, 2, subtraction=True, horizon=5)
    with pytest.raises(ValueError, match="horizon"):
        kary_mse.algorithm_1_mse(3, 0)
    with pytest.raises(ValueError, match="horizon"):
        kary_mse.algorithm_1_mse(3, kary_mse.MAX_ENUMERATION_HORIZON + 1)
    with pytest.raises(ValueError, match="horizon"):
        noise_indices.live_noise_count(3, 0)
    with pytest.raises(ValueError, match="index"):
        kt.vertex_of_noise_index(0, 3, 2)


def test_padding_below_capacity() -> None:
    # k = 3, h = 3, t = 5 = 9 − 3 − 1: +[1, 9] −[7, 9] −[6, 6]; the vertices reach leaf 9 > T = 5
    assert kt.algorithm_3_signed_vertices(5, 3, 3) == ((1, 3, 0), (-1, 2, 2), (-1, 1, 5))
    assert kt.padded_width(3, 3, subtraction=True, horizon=5) == 9
    assert kt.padded_width(3, 3, subtraction=True) == 13  # at capacity nothing reaches past T (Prop. 4.1)


def test_maximum_variance_with_subtraction_is_attained_at_all_extreme_digits() -> None:
    # odd k: ‖rep‖₁ = h(k − 1)/2 exactly when every digit is ±(k − 1)/2 with a positive leading one: 2^(h−1) times
    # k = 3, h = 3: 9 ± 3 ± 1 = 5, 7, 11, 13
    top = kt.maximum_step_variance(3, 3, 1, subtraction=True)
    assert top.value == 2 * 3 and top.times == (5, 7, 11, 13)


def test_structure_checks_pass_on_small_bounds() -> None:
    from reference_verification.kary.checks import structure as checks

    algorithm_3 = checks.algorithm_3_vs_2_check(limit=100)
    sensitivity = checks.sensitivity_check(max_horizon=15)
    mse = checks.mse_check(max_horizon=40)
    live = checks.live_noise_check(max_horizon=40)
    assert algorithm_3.holds, algorithm_3.summary()
    assert sensitivity.holds, sensitivity.summary()
    assert mse.holds, mse.summary()
    assert live.holds, live.summary()


@pytest.mark.parametrize(("arity", "height"), [(2, 3), (3, 3), (4, 2), (5, 2), (7, 2)])
@pytest.mark.parametrize("subtraction", [False, True])
def test_used_vertices_count_is_capacity(arity: int, height: int, subtraction: bool) -> None:
    # each used vertex is named by the p after its update (Proof 4.4), a bijection with [1, T]
    steps = kt.capacity(arity, height, subtraction=subtraction)
    assert len(kt.used_vertices(arity, height, subtraction=subtraction)) == steps


def test_appendix_c_proof_and_mutation() -> None:
    import sympy as sp
    from reference_verification.core.proof import ProofFailure
    from reference_verification.kary.proofs.appendix_c import ARITY, HEIGHT, prove

    assert prove().steps
    with pytest.raises(ProofFailure):
        prove(claimed_excess=sp.Integer(0))  # Claim 1's reading: no Θ(h²) term
    with pytest.raises(ProofFailure):
        prove(claimed_excess=(ARITY - 2) * HEIGHT**2 / ARITY)
