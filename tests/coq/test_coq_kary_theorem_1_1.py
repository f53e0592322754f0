"""KaryTheorem11.v computes the Python objects: Algorithm 2's ε²·MSE from its noise values, and Theorem 1.1's bound.

Coq evaluates (``Eval vm_compute``; rationals as numerator/denominator pairs) at Algorithm 2's height for odd
arities and horizons, with ε = 3/7: for each output t the noise indices, whether they are distinct and the variance
``noise_variance`` (2(h/ε)² per value); then S(T) (``digit_sum``), the MSE ``algorithm_2_mse`` and ε²·MSE. The
values are compared with ``reference.kary.mse`` (``algorithm_2_mse`` by balanced division per t,
``algorithm_2_mse_digit_programme`` by digit counting, ``algorithm_2_step_variance``) and with a brute force here:
Algorithm 2's lines 6–13 run on digits computed in this file, the noise of output t written as Σ_p c_(t,p) z_p and
its variance Σ_p c_(t,p)² · 2b² (so a value added twice would count four times, not twice). The proved identity
ε²·MSE = 2h²S(T)/T and the proved bound |ε²·MSE − (k² − 1)h³/(2k)| <= 2k(m + 1)h² are evaluated on the values.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from reference_verification.coq import Build, run_snippet
from reference_verification.coq_text import parse_coq_value

from reference.kary.digits import algorithm_2_noise_indices, height_for_horizon
from reference.kary.mse import algorithm_2_mse, algorithm_2_mse_digit_programme, algorithm_2_step_variance

#: ε as Coq's rational 3/7 and as a Fraction (any ε ≠ 0: ε²·MSE does not depend on it).
EPSILON = Fraction(3, 7)

HEADER = f"""From mathcomp Require Import all_ssreflect ssralg ssrint rat.
From Reference Require Import KaryHeight KaryAlgorithm2 KaryDigitCount KaryTheorem11.
Local Open Scope ring_scope.
Definition frac (q : rat) := (numq q, denq q).
Definition epsilon : rat := {EPSILON.numerator}%:R / {EPSILON.denominator}%:R.
Definition case (arity horizon : nat) :=
  let top := arity %/ 2 in let h := height arity top horizon in
  (h, [seq (noise_indices arity top h t, uniq (noise_indices arity top h t), frac (noise_variance arity h epsilon t))
      | t <- iota 1 horizon],
   digit_sum arity h horizon, frac (algorithm_2_mse arity h epsilon horizon),
   frac (epsilon ^+ 2 * algorithm_2_mse arity h epsilon horizon)).
"""

#: (odd arity, horizon): full trees ((k^h − 1)/2: 1, 4, 13; 2, 12; 3, 24) and truncated ones.
CASES = [(3, 1), (3, 2), (3, 4), (3, 10), (3, 13), (3, 20), (5, 2), (5, 12), (5, 17), (7, 3), (7, 24), (9, 30)]


@pytest.fixture(scope="module")
def coq_cases(coq_build: Build) -> dict[tuple[int, int], object]:
    commands = [f"Eval vm_compute in case {arity} {horizon}." for arity, horizon in CASES]
    printed = run_snippet(coq_build, HEADER + "\n".join(commands) + "\n", "KaryTheorem11Cases")
    values = [parse_coq_value(chunk) for chunk in printed.split("\n     = ") if chunk.strip()]
    assert len(values) == len(CASES), printed[:500]
    return dict(zip(CASES, values))


def _balanced_digits(time: int, arity: int, height: int) -> list[int]:
    """Definition 3.8's digits of t, least significant first, by balanced division (digits in [−m, m])."""
    half = arity // 2
    digits = []
    for _ in range(height):
        digit = (time + half) % arity - half
        digits.append(digit)
        time = (time - digit) // arity
    assert time == 0, "t does not fit in the height"
    return digits


def _walk(time: int, arity: int, height: int) -> list[int]:
    """Algorithm 2's lines 6–13: from the top level down, |t_l| steps of sgn(t_l) k^(l−1), adding z_p each step."""
    digits = _balanced_digits(time, arity, height)
    position, used = 0, []
    for level in range(height, 0, -1):
        digit = digits[level - 1]
        for _ in range(abs(digit)):
            position += (1 if digit > 0 else -1) * arity ** (level - 1)
            used.append(position)
    return used


def _brute_force_variance(time: int, arity: int, height: int) -> Fraction:
    """Var(Σ_p c_p z_p) = Σ_p c_p² · 2b² for independent z_p ~ Laplace(b), b = h/ε; c_p = times z_p is added."""
    scale = Fraction(height) / EPSILON
    return sum((Fraction(count**2) * 2 * scale**2 for count in Counter(_walk(time, arity, height)).values()),
               Fraction(0))


@pytest.mark.parametrize(("arity", "horizon"), CASES)
def test_mse_from_the_noise_values_agrees(coq_cases: dict[tuple[int, int], object], arity: int, horizon: int) -> None:
    height, rows, digit_sum, (mse_num, mse_den), (scaled_num, scaled_den) = coq_cases[(arity, horizon)]  # type: ignore[misc]
    assert height == height_for_horizon(arity, horizon, offset=True)
    assert len(rows) == horizon
    variances = []
    for t, (indices, distinct, (var_num, var_den)) in enumerate(rows, start=1):
        assert list(indices) == _walk(t, arity, height) == list(algorithm_2_noise_indices(t, arity, height))
        assert distinct is True and len(set(indices)) == len(indices)  # noise_indices_uniq, evaluated
        # noise_count, evaluated: t adds ‖rep(t, h)‖₁ values
        assert len(indices) == sum(abs(digit) for digit in _balanced_digits(t, arity, height))
        variance = Fraction(var_num, var_den)
        assert variance == _brute_force_variance(t, arity, height)
        assert EPSILON**2 * variance == algorithm_2_step_variance(t, arity, horizon)
        variances.append(variance)
    assert digit_sum == sum(sum(abs(d) for d in _balanced_digits(t, arity, height)) for t in range(1, horizon + 1))
    mse = Fraction(mse_num, mse_den)
    assert mse == sum(variances, Fraction(0)) / horizon
    scaled = Fraction(scaled_num, scaled_den)
    assert scaled == EPSILON**2 * mse
    assert scaled == algorithm_2_mse(arity, horizon) == algorithm_2_mse_digit_programme(arity, horizon)
    # algorithm_2_mse_identity, evaluated: ε²·MSE = 2h²S(T)/T
    assert scaled == Fraction(2 * height**2 * digit_sum, horizon)
    # theorem_1_1_mse, evaluated: |ε²·MSE − (k² − 1)h³/(2k)| <= 2k(m + 1)h²
    half = arity // 2
    assert abs(scaled - Fraction((arity**2 - 1) * height**3, 2 * arity)) <= 2 * arity * (half + 1) * height**2

