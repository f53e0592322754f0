"""Appendix C's even-arity variant of Algorithm 2 throughout: exact MSE, the counters, the CLI.

Expected values come from independent routes: digit vectors found by exhaustive search, the reconstruction
matrix L of the tree (whose factorisation L·R = A is checked) with Var(output t) = 2b²·Σ_j L[t][j]², and
Appendix C's exact closed form at the capacities (proved symbolically in verification/kary/proofs/appendix_c.py,
recomputed here from the count of digit vectors rather than imported).
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import numpy as np
import pytest
from reference_verification.kary.checks import counters as checks

from reference.cli.main import main
from reference.core.randomness import SeededRandomBits
from reference.kary import exact
from reference.kary import tree as kary_tree
from reference.kary.counters import (
    algorithm_2_batch,
    algorithm_3,
)
from reference.kary.digits import algorithm_2_noise_indices, height_for_horizon, offset_capacity
from reference.kary.mse import (
    algorithm_2_mse,
    algorithm_2_mse_digit_programme,
    algorithm_2_total_noise_count_digit_programme,
)
from reference.kary.noise_indices import algorithm_2_used_indices, noise_lifetime

EVEN_ARITIES = (2, 4, 6, 8)


def searched_weights(arity: int, height: int) -> dict[int, int]:
    """‖rep(t)‖₁ for every t the h digits in [−k/2 + 1, k/2] hold, the vectors found by exhaustive search."""
    weights: dict[int, int] = {}
    for vector in itertools.product(range(-arity // 2 + 1, arity // 2 + 1), repeat=height):
        value = sum(d * arity**i for i, d in enumerate(vector))
        assert value not in weights  # Definition C.1: each value has one representation
        weights[value] = sum(abs(d) for d in vector)
    return weights


def mse_from_reconstruction(arity: int, horizon: int) -> Fraction:
    """ε²·MSE from the tree's L (Laplace(h/ε) on every used vertex): (1/T) Σ_t 2h²·Σ_j L[t][j]²."""
    height = height_for_horizon(arity, horizon, offset=True)
    assert kary_tree.check_factorization(arity, height, subtraction=True, horizon=horizon)
    left = kary_tree.reconstruction_matrix(arity, height, subtraction=True, horizon=horizon)
    return Fraction(2 * height**2 * sum(entry * entry for row in left for entry in row), horizon)


@pytest.mark.parametrize("arity", [4, 6])
def test_mse_equals_reconstruction_matrix_route_at_every_small_horizon(arity: int) -> None:
    top = offset_capacity(arity, 3)
    for horizon in range(1, top + 1):
        assert algorithm_2_mse_digit_programme(arity, horizon) == mse_from_reconstruction(arity, horizon)


@pytest.mark.parametrize("arity", EVEN_ARITIES)
def test_mse_equals_exhaustive_search(arity: int) -> None:
    height = 4 if arity <= 4 else 3
    weights = searched_weights(arity, height)
    running = 0
    for horizon in range(1, offset_capacity(arity, height) + 1):
        running += weights[horizon]
        own_height = height_for_horizon(arity, horizon, offset=True)
        assert algorithm_2_total_noise_count_digit_programme(arity, horizon) == running
        assert algorithm_2_mse_digit_programme(arity, horizon) == Fraction(2 * own_height**2 * running, horizon)
    assert algorithm_2_mse(arity, horizon) == algorithm_2_mse_digit_programme(arity, horizon)


@pytest.mark.parametrize("arity", [4, 6, 20])
def test_mse_at_capacities_up_to_huge_horizons(arity: int) -> None:
    """At the capacity T = k(k^h − 1)/(2(k − 1)) the values 1..T are exactly the h-digit vectors of positive
    value, i.e. those whose leading non-zero digit is positive (the lower digits hold less than one unit of the
    leading position). Count their weight by that leading position and digit: digit d at position ℓ, any lower
    digits (k^(ℓ−1) vectors whose digits total (ℓ − 1)·k^(ℓ−2)·Σ_e |e|). Then compare with the exact closed
    form kh³/(2(1 − 1/k^h)) + (k − 2)h²/(2(k − 1)) (up to T ≈ 10^27 for k = 20, h = 21)."""
    for height in (1, 2, 5, 12, 21):
        horizon = offset_capacity(arity, height)
        # positive value <=> the leading non-zero digit is positive; count weights by the leading position
        half, low = arity // 2, -(arity // 2) + 1
        digit_mass = sum(abs(d) for d in range(low, half + 1))
        total = 0
        for lead in range(1, height + 1):  # position of the leading non-zero digit
            below = lead - 1
            for digit in range(1, half + 1):
                # this digit, any lower digits (k^below vectors, total lower weight below·k^(below−1)·mass)
                total += digit * arity**below + (below * arity ** (below - 1) * digit_mass if below else 0)
        assert algorithm_2_total_noise_count_digit_programme(arity, horizon) == total
        assert height_for_horizon(arity, horizon, offset=True) == height
        closed = Fraction(arity * height**3, 2) / (1 - Fraction(1, arity**height)) + Fraction(
            (arity - 2) * height**2, 2 * (arity - 1)
        )
        assert algorithm_2_mse_digit_programme(arity, horizon) == closed


def test_mse_at_ten_to_the_twelve() -> None:
    """Any T: the total's increments are the step weights (checked by division with a balanced remainder)."""
    horizon = 10**12
    step = algorithm_2_total_noise_count_digit_programme(4, horizon) - algorithm_2_total_noise_count_digit_programme(4, horizon - 1)
    digits, value = [], horizon
    while value:
        digit = value % 4
        digit = digit - 4 if digit > 2 else digit
        digits.append(digit)
        value = (value - digit) // 4
    assert step == sum(abs(d) for d in digits)
    assert algorithm_2_mse_digit_programme(4, horizon) > 0


# ------------------------------------------------------------------------------------------- counters


def test_counters_agree_for_even_arity() -> None:
    result = checks.check_agreement(arities=(2, 4, 6), max_horizon=40)
    assert result.holds, result.summary()


@pytest.mark.parametrize(("arity", "horizon"), [(4, 10), (4, 42), (4, 170), (6, 155), (2, 31), (8, 73)])
def test_lifetimes_and_used_indices_match_the_walks(arity: int, horizon: int) -> None:
    height = height_for_horizon(arity, horizon, offset=True)
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for time in range(1, horizon + 1):
        for index in algorithm_2_noise_indices(time, arity, height):
            first.setdefault(index, time)
            last[index] = time
    for index in first:
        assert noise_lifetime(index, arity, horizon) == (first[index], last[index])
        uses = sum(index in algorithm_2_noise_indices(t, arity, height) for t in range(1, horizon + 1))
        assert uses == last[index] - first[index] + 1  # Proposition 4.10's contiguity, even arity
    mask = algorithm_2_used_indices(arity, horizon)
    assert set(np.flatnonzero(mask).tolist()) == set(first)


@pytest.mark.parametrize(("arity", "horizon"), [(4, 170), (6, 300)])
def test_live_noise_within_h_times_half_arity(arity: int, horizon: int) -> None:
    result = checks.check_live_noise(arity, horizon)
    assert result.holds, result.summary()
    assert result.lemma_4_12_bound == result.height * arity // 2


def test_online_counter_exact_noise_even_arity() -> None:
    stream = [1, 0, 1, 1, 0, 1, 1, 1, 0, 0]
    counter = exact.OnlineCounter(4, 1, len(stream), source=SeededRandomBits(7))
    outputs = counter.run(stream)
    assert all(isinstance(value, int) for value in outputs)
    assert counter.draws == len({p for t in range(1, 11) for p in algorithm_2_noise_indices(t, 4, 2)})


def test_batch_and_algorithm_3_zero_noise_even_arity() -> None:
    stream = np.random.default_rng(4).integers(0, 2, 57)
    assert np.array_equal(algorithm_2_batch(stream, 4, 1.0, noise_function=np.zeros_like), np.cumsum(stream))
    assert np.array_equal(algorithm_3(stream, 4, 1.0, noise_function=lambda _l, _j: 0.0), np.cumsum(stream))


# ------------------------------------------------------------------------------------------- CLI


def _run_json(capsys: pytest.CaptureFixture[str], *arguments: str) -> dict[str, object]:
    assert main([*arguments, "--json"]) == 0
    result: dict[str, object] = json.loads(capsys.readouterr().out)
    return result


def test_cli_mse_even_arity_answers(capsys: pytest.CaptureFixture[str]) -> None:
    result = _run_json(capsys, "kary", "mse", "--arity", "4", "--horizon", "10", "--subtraction")
    weights = searched_weights(4, 2)
    expected = Fraction(2 * 2**2 * sum(weights[t] for t in range(1, 11)), 10)  # h = 2 holds T = 10
    assert Fraction(str(result["mse_times_epsilon_squared"])) == expected
    assert "Appendix C" in str(result["algorithm"])


def test_cli_run_vertices_matrices_even_arity(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    bits = tmp_path / "bits.txt"
    bits.write_text("1\n0\n1\n1\n0\n1\n1\n")
    run = _run_json(capsys, "kary", "run", "--arity", "4", "--epsilon", "1", "--input", str(bits), "--seed", "3")
    assert isinstance(run["noisy_prefix_counts"], list) and len(run["noisy_prefix_counts"]) == 7
    vertices = _run_json(capsys, "kary", "vertices", "--arity", "4", "--height", "2", "--time", "7", "--subtraction")
    assert isinstance(vertices["vertices"], list)
    covered: dict[int, int] = {}
    for vertex in vertices["vertices"]:
        assert isinstance(vertex, dict)
        first, last = vertex["leaves"]
        for leaf in range(first, last + 1):
            covered[leaf] = covered.get(leaf, 0) + vertex["sign"]
    assert {leaf for leaf, sign in covered.items() if sign} == set(range(1, 8))  # the signed sum is x_1..x_7
    assert all(sign in (0, 1) for sign in covered.values())
    matrices = _run_json(capsys, "kary", "matrices", "--arity", "4", "--height", "2", "--subtraction")
    assert matrices["L_times_R_is_A"] is True

