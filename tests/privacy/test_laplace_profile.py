"""The exact privacy profile of the multivariate Laplace mechanism (reference.privacy.laplace_profile).

Independent references: for d = 1 an mpmath quadrature (40 digits) of (p_D - e^ε p_D')_+ over the output,
split at the density's kinks; for d = 2 a nested scipy quadrature of the same integral over the plane, split
at every kink of the integrand; for d = 3..5 a brute-force numeric convolution of the per-coordinate laws on
a grid; and seeded Monte Carlo of the privacy loss from Laplace draws. Monte Carlo: each estimate is a mean
of n values in [0, 1], so by Hoeffding P(|mean - δ| >= t) <= 2 exp(-2 n t²); every tolerance t below is
chosen so that this is <= 1e-9, and this file makes 5 such comparisons: false-alarm probability <= 5e-9.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.integrate import quad

from reference.privacy.laplace_profile import (
    MAX_DIMENSION,
    laplace_delta,
    laplace_delta_worst_case,
    laplace_epsilon,
    laplace_epsilon_worst_case,
)
from reference.privacy.laplace_scale import laplace_scale_exact, laplace_scale_exact_worst_case

FALSE_ALARM = 1e-9


Exact = int | str | Fraction


def _mp(value: Exact) -> mp.mpf:
    fraction = Fraction(value)
    return mp.mpf(fraction.numerator) / fraction.denominator


# ------------------------------------------------------------------------------------------- d = 1 (mpmath)


def _quad_one(epsilon: Exact, scale: Exact, shift: Exact) -> mp.mpf:
    """∫ (p(y) - e^ε p(y - v))_+ dy for Lap(b), v > 0: positive exactly left of y* = (v - εb)/2."""
    with mp.workdps(40):
        e, b, v = _mp(epsilon), _mp(scale), _mp(shift)
        kink = (v - e * b) / 2
        if kink <= -mp.inf:
            return mp.mpf(0)

        def integrand(y: mp.mpf) -> mp.mpf:
            return (mp.exp(-abs(y) / b) - mp.exp(e) * mp.exp(-abs(y - v) / b)) / (2 * b)

        if e * b >= v:
            return mp.mpf(0)
        points = [-mp.inf] + [p for p in (mp.mpf(0),) if p < kink] + [kink]
        return mp.quad(integrand, points)


@pytest.mark.parametrize(
    ("epsilon", "scale", "shift"),
    [("0", 1, 1), ("3/10", 1, 1), ("1/2", 2, 3), ("1", "1/3", 2), ("0.05", 10, 1), ("2.9", 1, 3)],
)
def test_one_dimension_matches_quadrature_and_closed_form(epsilon: str, scale: Exact, shift: Exact) -> None:
    enclosure = laplace_delta(epsilon=epsilon, scale=scale, sensitivities=[shift])
    reference = _quad_one(epsilon, scale, shift)
    with mp.workdps(40):
        a = _mp(shift) / _mp(scale)
        closed = 1 - mp.exp((_mp(epsilon) - a) / 2)  # derived by hand: P-mass of {loss > ε} computation
        assert abs(reference - closed) < mp.mpf(10) ** -30
        width = max(abs(_mp(enclosure.upper) - _mp(enclosure.lower)), mp.mpf(10) ** -30)
        assert _mp(enclosure.lower) - width <= reference <= _mp(enclosure.upper) + width
        assert abs(_mp(enclosure.midpoint) - reference) < mp.mpf(10) ** -20 * max(reference, mp.mpf(1))


def test_one_dimension_pure_dp_boundary() -> None:
    assert laplace_delta(epsilon=2, scale=1, sensitivities=[2]).upper == 0  # ε = ‖v‖_1 / b
    assert laplace_delta(epsilon=3, scale=1, sensitivities=[-2]).upper == 0
    assert laplace_delta(epsilon="1.999", scale=1, sensitivities=[2]).lower > 0


# ------------------------------------------------------------------------------------------- d = 2 (scipy)


def _pieces(function: object, points: list[float]) -> float:
    total = 0.0
    for low, high in itertools.pairwise(points):
        if high > low:
            total += quad(function, low, high, epsabs=1e-14, epsrel=1e-12, limit=200)[0]
    return total


def _quad_two(epsilon: Exact, scale: Exact, v1: Exact, v2: Exact) -> float:
    """The two-dimensional integral, inner over y2 (region {loss > ε} is y2 < t(y1)), outer over y1."""
    e, b, s1, s2 = (float(Fraction(x)) for x in (epsilon, scale, v1, v2))
    a1, a2 = s1 / b, s2 / b
    growth = math.exp(e)

    def inner(y1: float) -> float:
        need = e - (abs(y1 - s1) - abs(y1)) / b  # loss2(y2) = (|y2 - v2| - |y2|)/b must exceed this
        if need >= a2:
            return 0.0
        t = math.inf if need < -a2 else b * (a2 - need) / 2

        def f(y2: float) -> float:
            return (math.exp(-(abs(y1) + abs(y2)) / b) - growth * math.exp(-(abs(y1 - s1) + abs(y2 - s2)) / b)) / (
                4 * b * b
            )

        return _pieces(f, [-math.inf] + [p for p in (0.0, s2) if p < t] + [t])

    breaks = {0.0, s1} | {y for y in (b * (a1 - e + a2) / 2, b * (a1 - e - a2) / 2) if 0 < y < s1}
    return _pieces(inner, [-math.inf, *sorted(breaks), math.inf])


@pytest.mark.parametrize(
    ("epsilon", "scale", "v1", "v2"),
    [("1/2", 1, 1, 1), ("0.7", "3/2", 1, 2), ("1.2", "1/2", 1, "1/3"), ("0", 1, 2, 1), ("2.9", 1, 1, 2)],
)
def test_two_dimensions_match_nested_quadrature(epsilon: str, scale: Exact, v1: Exact, v2: Exact) -> None:
    reference = _quad_two(epsilon, scale, v1, v2)
    assert abs(float(laplace_delta(epsilon=epsilon, scale=scale, sensitivities=[v1, v2]).midpoint) - reference) < 1e-12


# ------------------------------------------------------------------------------------------- d = 3..5 (grid)


def _grid_convolution(epsilon: float, scale: float, vector: list[int], step: Fraction) -> float:
    """Brute-force law of L on a half-step grid: atoms at ±a_i (even indices), midpoint cells (odd)."""
    law = np.array([1.0])
    offset = 0  # index of value 0 in units of step/2
    for value in vector:
        cells = int(Fraction(value) / (Fraction(scale) * step))  # a_i / step, exact for the test inputs
        a = cells * float(step)
        size = 4 * cells + 1
        one = np.zeros(size)
        one[0] = 0.5 * math.exp(-a)  # ℓ = -a  (y >= v)
        one[-1] = 0.5  # ℓ = +a (y <= 0)
        centres = -a + (np.arange(2 * cells) + 0.5) * float(step)
        one[1:-1:2] = 0.25 * math.exp(-a / 2) * np.exp(centres / 2) * float(step)  # midpoint rule
        law = np.convolve(law, one)
        offset += 2 * cells
    values = (np.arange(law.size) - offset) * float(step) / 2
    return float(np.sum(law * np.maximum(0.0, 1.0 - np.exp(epsilon - values))))


@pytest.mark.parametrize(
    ("epsilon", "vector"),
    [(0.3, [1, 1, 1]), (1.0, [1, 2, 3]), (0.5, [2, 1, 1, 2]), (2.0, [1, 1, 1, 1, 3])],
)
def test_small_dimensions_match_brute_force_convolution(epsilon: float, vector: list[int]) -> None:
    step = Fraction(1, 4000)
    reference = _grid_convolution(epsilon, 1.0, vector, step)
    exact = laplace_delta(epsilon=Fraction(str(epsilon)), scale=1, sensitivities=vector)
    # midpoint rule O(step²) per cell plus the kink of (1 - e^(ε-L))_+ inside one cell: O(step)
    assert abs(float(exact.midpoint) - reference) < 5e-4


# ------------------------------------------------------------------------------------------- Monte Carlo


def _monte_carlo(epsilon: float, scale: float, vector: list[float], draws: int, seed: int) -> tuple[float, float]:
    """(estimate, Hoeffding half-width at FALSE_ALARM) of E[(1 - e^(ε-L))_+] from Laplace draws."""
    generator = np.random.default_rng(seed)
    shifts = np.array(vector)
    total = 0.0
    chunk = 200_000
    for start in range(0, draws, chunk):
        count = min(chunk, draws - start)
        noise = generator.laplace(0.0, scale, size=(count, shifts.size))
        loss = (np.abs(noise - shifts) - np.abs(noise)).sum(axis=1) / scale
        total += float(np.maximum(0.0, 1.0 - np.exp(epsilon - loss)).sum())
    return total / draws, math.sqrt(math.log(2 / FALSE_ALARM) / (2 * draws))


@pytest.mark.parametrize(
    ("epsilon", "scale", "vector", "seed"),
    [
        ("0.4", "1", ["1", "2", "1/2"], 11),
        ("1.1", "2", ["1", "1", "1", "2", "2"], 12),
        ("0.5", "3", ["1"] * 12, 13),
        ("0.2", "5", ["1", "-1", "1/3", "0", "2"], 14),
    ],
)
def test_monte_carlo_privacy_loss(epsilon: str, scale: str, vector: list[str], seed: int) -> None:
    estimate, half_width = _monte_carlo(
        float(Fraction(epsilon)), float(Fraction(scale)), [float(Fraction(v)) for v in vector], 1_000_000, seed
    )
    exact = float(laplace_delta(epsilon=epsilon, scale=scale, sensitivities=vector).midpoint)
    assert abs(estimate - exact) < half_width


def test_monte_carlo_tree_path_of_length_200() -> None:
    # an all-equal vector of dimension 200 (built from 201 shifts): the grouped path at scale
    estimate, half_width = _monte_carlo(2.0, 8.0, [1.0] * 200, 50_000, 15)
    exact = float(laplace_delta(epsilon=2, scale=8, sensitivities=[1] * 200).midpoint)
    assert abs(estimate - exact) < half_width


# ------------------------------------------------------------------------------------------- properties

small_vectors = st.lists(st.integers(min_value=-3, max_value=3), min_size=1, max_size=4).filter(
    lambda v: any(v)
)
rationals = st.fractions(min_value=0, max_value=4, max_denominator=8)


@settings(max_examples=30, deadline=None)
@given(small_vectors, rationals, rationals, st.fractions(min_value=Fraction(1, 4), max_value=4, max_denominator=8))
def test_delta_decreases_in_epsilon_and_scale(vector: list[int], e1: Fraction, e2: Fraction, b: Fraction) -> None:
    low, high = sorted((e1, e2))
    assert laplace_delta(epsilon=low, scale=b, sensitivities=vector).lower >= laplace_delta(
        epsilon=high, scale=b, sensitivities=vector
    ).upper - Fraction(1, 10**20)
    assert laplace_delta(epsilon=low, scale=b, sensitivities=vector).lower >= laplace_delta(
        epsilon=low, scale=2 * b, sensitivities=vector
    ).upper - Fraction(1, 10**20)


@settings(max_examples=30, deadline=None)
@given(small_vectors, rationals, st.fractions(min_value=Fraction(1, 4), max_value=4, max_denominator=8))
def test_symmetries_zero_entries_and_bounds(vector: list[int], epsilon: Fraction, scale: Fraction) -> None:
    value = laplace_delta(epsilon=epsilon, scale=scale, sensitivities=vector)
    assert value == laplace_delta(epsilon=epsilon, scale=scale, sensitivities=[-x for x in reversed(vector)] + [0])
    l1 = sum(abs(x) for x in vector)
    if epsilon * scale >= l1:
        assert value.upper == 0
    else:
        # all coordinates on the far side (probability 2^-d) give the maximal loss A = ‖v‖_1/b
        dimension = sum(1 for x in vector if x)
        with mp.workdps(30):
            atom = (1 - mp.exp(_mp(epsilon) - _mp(Fraction(l1) / scale))) / 2**dimension
            assert _mp(value.upper) >= atom
    assert 0 <= value.lower <= value.upper <= 1
    # growing one entry never decreases δ (garbling); adding coordinates never decreases δ
    bigger = [*vector]
    bigger[0] = bigger[0] + (1 if bigger[0] >= 0 else -1)
    assert laplace_delta(epsilon=epsilon, scale=scale, sensitivities=bigger).upper >= value.lower
    assert laplace_delta(epsilon=epsilon, scale=scale, sensitivities=[*vector, 1]).upper >= value.lower


# ------------------------------------------------------------------------------------------- ε, scale, worst case


@pytest.mark.parametrize(("delta", "scale", "shift"), [("1e-3", 1, 1), ("0.1", "1/2", 3), ("1e-6", 2, 5)])
def test_epsilon_one_dimension_closed_form(delta: str, scale: Exact, shift: Exact) -> None:
    enclosure = laplace_epsilon(delta=delta, scale=scale, sensitivities=[shift])
    with mp.workdps(40):
        expected = _mp(shift) / _mp(scale) + 2 * mp.log(1 - _mp(delta))  # solve 1 - e^((ε-a)/2) = δ
        assert _mp(enclosure.lower) <= expected <= _mp(enclosure.upper)
    assert enclosure.width <= Fraction(1, 10**21) * enclosure.upper
    assert laplace_delta(epsilon=enclosure.upper, scale=scale, sensitivities=[shift]).upper <= Fraction(delta)
    assert laplace_delta(epsilon=enclosure.lower, scale=scale, sensitivities=[shift]).lower > Fraction(delta)


def test_epsilon_zero_when_total_variation_is_small() -> None:
    # δ(0) is the total variation distance: at scale 1000 and v = (1) it is 1 - e^(-1/2000) < 1e-3
    assert laplace_epsilon(delta="1e-3", scale=1000, sensitivities=[1]) == laplace_epsilon(
        delta="1e-3", scale=1000, sensitivities=[1, 0]
    )
    assert laplace_epsilon(delta="1e-3", scale=1000, sensitivities=[1]).upper == 0


@pytest.mark.parametrize(("epsilon", "delta", "shift"), [("1/2", "1e-3", 1), ("1", "1e-6", 3), ("3", "0.2", 1)])
def test_scale_one_dimension_closed_form(epsilon: str, delta: str, shift: int) -> None:
    result = laplace_scale_exact(epsilon=epsilon, delta=delta, sensitivities=[shift])
    with mp.workdps(40):
        expected = shift / (_mp(epsilon) - 2 * mp.log(1 - _mp(delta)))
        assert _mp(result.scale_below) < expected <= _mp(result.scale)
    assert result.delta_at_scale.upper <= Fraction(delta) < result.delta_at_scale_below.lower
    assert result.scale <= result.l1_sensitivity / Fraction(epsilon)  # never worse than Lemma A.2
    assert result.as_json()["scale_rational"]


def test_scale_tree_path_is_certified() -> None:
    result = laplace_scale_exact(epsilon=1, delta="1e-6", sensitivities=[1] * 30, tolerance=Fraction(1, 10**8))
    assert laplace_delta(epsilon=1, scale=result.scale, sensitivities=[1] * 30).upper <= Fraction(1, 10**6)
    assert laplace_delta(epsilon=1, scale=result.scale_below, sensitivities=[1] * 30).lower > Fraction(1, 10**6)
    assert result.scale < 30  # better than Lemma A.2's Δ1/ε = 30


def test_worst_case_is_the_maximum() -> None:
    vectors = [[1, 1, 1], [2], [1, -1]]
    worst = laplace_delta_worst_case(epsilon="1/2", scale=1, sensitivity_vectors=vectors)
    singles = [laplace_delta(epsilon="1/2", scale=1, sensitivities=v) for v in vectors]
    assert worst.deltas == tuple(singles)
    assert worst.delta.upper == max(s.upper for s in singles)
    assert worst.index == max(range(3), key=lambda i: singles[i].upper)
    epsilon = laplace_epsilon_worst_case(
        delta="1e-3", scale=1, sensitivity_vectors=vectors, tolerance=Fraction(1, 10**6)
    )
    assert all(
        laplace_delta(epsilon=epsilon.upper, scale=1, sensitivities=v).upper <= Fraction(1, 1000) for v in vectors
    )
    assert epsilon.upper >= max(
        laplace_epsilon(delta="1e-3", scale=1, sensitivities=v, tolerance=Fraction(1, 10**6)).lower for v in vectors
    )
    scale = laplace_scale_exact_worst_case(
        epsilon=1, delta="1e-3", sensitivity_vectors=vectors, tolerance=Fraction(1, 10**6)
    )
    assert all(laplace_delta(epsilon=1, scale=scale.scale, sensitivities=v).upper <= Fraction(1, 1000) for v in vectors)
    assert scale.delta_at_scale_below.lower > Fraction(1, 1000)


# ------------------------------------------------------------------------------------------- bad inputs


def test_bad_inputs_are_refused_naming_the_parameter() -> None:
    with pytest.raises(TypeError, match="epsilon"):
        laplace_delta(epsilon=0.5, scale=1, sensitivities=[1])
    with pytest.raises(ValueError, match="epsilon"):
        laplace_delta(epsilon=-1, scale=1, sensitivities=[1])
    with pytest.raises(ValueError, match="scale"):
        laplace_delta(epsilon=1, scale=0, sensitivities=[1])
    with pytest.raises(TypeError, match=r"sensitivities\[1\]"):
        laplace_delta(epsilon=1, scale=1, sensitivities=[1, 0.5])
    with pytest.raises(TypeError, match="sensitivities"):
        laplace_delta(epsilon=1, scale=1, sensitivities="11")
    with pytest.raises(ValueError, match="at least one entry"):
        laplace_delta(epsilon=1, scale=1, sensitivities=[])
    with pytest.raises(ValueError, match="nonzero"):
        laplace_delta(epsilon=1, scale=1, sensitivities=[0, 0])
    with pytest.raises(ValueError, match="MAX_DIMENSION"):
        laplace_delta(epsilon=1, scale=1, sensitivities=[1] * (MAX_DIMENSION + 1))
    with pytest.raises(ValueError, match="MAX_PROFILE_COEFFICIENTS"):
        laplace_delta(
            epsilon=1, scale=1, sensitivities=[2**i for i in range(16)]
        )  # 16 distinct entries: 2^16 distinct shifts
    with pytest.raises(ValueError, match="delta"):
        laplace_epsilon(delta=1, scale=1, sensitivities=[1])
    with pytest.raises(ValueError, match="tolerance"):
        laplace_epsilon(delta="1e-3", scale=1, sensitivities=[1], tolerance=2)
    with pytest.raises(ValueError, match="epsilon"):
        laplace_scale_exact(epsilon=0, delta="1e-3", sensitivities=[1])
    with pytest.raises(ValueError, match="sensitivity_vectors"):
        laplace_delta_worst_case(epsilon=1, scale=1, sensitivity_vectors=[])
    with pytest.raises(ValueError, match=r"sensitivity_vectors\[1\]"):
        laplace_delta_worst_case(epsilon=1, scale=1, sensitivity_vectors=[[1], [0]])


# ------------------------------------------------------------------------------------------- audits


def test_check_laplace_verdict_brackets_the_exact_scale() -> None:
    from reference.privacy.laplace_audit import check_laplace

    # d = 1: the smallest scale is |v|/(ε - 2 ln(1 - δ)) (closed form above): about 0.99799 for ε = 1, δ = 1e-3
    holds = check_laplace(scale=1, epsilon=1, delta="1e-3", sensitivity_vectors=[[1]])
    fails = check_laplace(scale="0.99", epsilon=1, delta="1e-3", sensitivity_vectors=[[1]])
    assert holds.holds and not fails.holds
    assert holds.delta_at_epsilon.upper <= Fraction(1, 1000) < fails.delta_at_epsilon.lower
    with mp.workdps(30):
        optimum = 1 / (1 - 2 * mp.log(1 - mp.mpf(10) ** -3))
        assert _mp(holds.exact.scale_below) < optimum <= _mp(holds.exact.scale)
    assert holds.scale_ratio.lower > 1 > fails.scale_ratio.upper
    assert "holds" in holds.summary() and "FAILS" in fails.summary()
    assert holds.as_json()["verdict"] == "holds"


def test_theorem_1_3_report_shows_the_exact_profile_beside_the_theorem() -> None:
    from reference.kary.theorem_1_3 import theorem_1_3_report

    report = theorem_1_3_report(
        scale=40, l1_sensitivity=30, l2_sensitivity=None, delta="1e-6", l2_sensitivity_squared=30
    )
    assert report.vector == (Fraction(1),) * 30  # Δ1 = h = 30, Δ2² = 30: the tree path vector
    assert report.epsilon_exact is not None and report.delta_exact_at_epsilon is not None
    assert report.epsilon_exact.upper <= report.epsilon.upper
    assert report.delta_exact_at_epsilon.upper <= Fraction(1, 10**6)
    payload = report.as_json()
    assert Fraction(str(payload["epsilon"])) >= report.epsilon.upper - Fraction(1, 10**19)
    assert payload["epsilon_pure"] == "3/4"
    # Δ1²/Δ2² = 9/4 is not an integer: no equal-entry vector, no exact value unless a vector is given
    assert theorem_1_3_report(scale=5, l1_sensitivity=3, l2_sensitivity=2, delta="1e-3").vector is None
    given_vector = theorem_1_3_report(
        scale=5, l1_sensitivity=3, l2_sensitivity=2, delta="1e-3", sensitivities=[1, 1, 1, 0]
    )
    assert given_vector.epsilon_exact is not None
    with pytest.raises(ValueError, match="sensitivities"):
        theorem_1_3_report(scale=5, l1_sensitivity=3, l2_sensitivity=2, delta="1e-3", sensitivities=[2, 2])
