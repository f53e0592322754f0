"""The exact maximum range variance: its proof program, the proof's key lemma by brute force, and the
convex-hull sweep over halves against the definition.

The expected values come from the definition (dense exact covariance sums) or from brute force over every grid
point; the proof's closed form is altered to show that the program would catch a wrong constant.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from reference_verification.cip.proofs import max_range_variance as proof
from reference_verification.core.proof import ProofFailure

from reference.cip.exact import range_maximum
from reference.cip.exact import ranges as cip_ranges


def test_the_proof_program_runs_every_step() -> None:
    record = proof.prove()
    assert len(record.steps) >= 20
    assert any("induction step" in step for step in record.steps)


@pytest.mark.parametrize(
    "altered",
    [
        lambda depth: sp.Rational(6, 9) * depth + sp.Rational(5, 9) - sp.Integer(4) ** (1 - depth) / 9,  # (6D + 5)/9
        lambda depth: sp.Rational(6, 9) * depth + sp.Rational(4, 9) - sp.Integer(4) ** (1 - depth) / 8,
        lambda depth: sp.Rational(7, 9) * depth + sp.Rational(3, 9) - sp.Integer(4) ** (1 - depth) / 9,  # right at D = 1
        lambda depth: sp.Rational(6, 9) * depth + sp.Rational(4, 9),
    ],
    ids=["6D+5", "4^(1-D)/8", "7D+3", "no 4^(1-D)"],
)
def test_a_wrong_closed_form_makes_a_step_fail(altered: object) -> None:
    with pytest.raises(ProofFailure, match="step failed"):
        proof.prove(altered, sanity=False)  # type: ignore[arg-type]


def test_the_positivity_certificate_rejects_what_is_not_positive() -> None:
    assert proof.positive_for_k_at_least_two(proof.P - 3)
    assert not proof.positive_for_k_at_least_two(proof.P - 5)  # negative at P = 4
    assert not proof.positive_for_k_at_least_two(proof.K - 2)  # zero at K = 2
    assert not proof.positive_for_k_at_least_two(proof.S)  # a free slope: undecided, so refused


def _prefix_variances(level: int) -> list[Fraction]:
    """φ_level on the grid j/2^level: variances of the first j leaves, by the definition (dense sums)."""
    return [Fraction(0)] + [cip_ranges.range_variance_by_sum(level, 0, length - 1) for length in range(1, (1 << level) + 1)]


@pytest.mark.parametrize("level", range(2, 8))
def test_the_two_pieces_by_brute_force(level: int) -> None:
    # the proof's lemma: for slopes in (0, 1) the only maximiser of φ(w) − s·w is 0.1010…1, for slopes in (1, 2)
    # 0.0101…1; checked at many slopes over every grid point, against grid points found by digits, not formulas
    values = _prefix_variances(level)
    scale = 1 << level
    digits_a = int(("10" * level)[: level - 1] + "1", 2)
    digits_b = scale - digits_a
    for numerator in range(1, 64):
        if numerator == 32:
            continue
        slope = Fraction(numerator, 32)
        scores = [values[j] - slope * Fraction(j, scale) for j in range(scale + 1)]
        best = max(scores)
        assert [j for j, score in enumerate(scores) if score == best] == [digits_a if slope < 1 else digits_b]


@pytest.mark.parametrize("depth", range(0, 6))
def test_scaled_prefix_variances_match_the_definition(depth: int) -> None:
    scaled = range_maximum.scaled_prefix_variances(depth)
    assert [Fraction(int(value), 4**depth) for value in scaled] == _prefix_variances(depth)


@pytest.mark.parametrize("depth", range(0, 15))
def test_scaled_prefix_variances_match_the_haar_sum_at_every_height(depth: int) -> None:
    # the Haar sum written term by term (one pass per height), against the height-by-height tiling
    lengths = list(range((1 << depth) + 1))
    expected = []
    for length in lengths:
        total = length * length
        for height in range(1, depth + 1):
            offset = length % (1 << height)
            total += 3 * min(offset, (1 << height) - offset) ** 2 * 4 ** (depth - height)
        expected.append(total)
    assert range_maximum.scaled_prefix_variances(depth).tolist() == expected


def _monotone_chain_upper_hull(values: list[int]) -> tuple[list[int], list[int]]:
    """Andrew's monotone chain on Python integers (cross products unbounded), collinear points dropped."""
    xs: list[int] = []
    ys: list[int] = []
    for x, y in enumerate(values):
        while len(xs) >= 2 and (ys[-1] - ys[-2]) * (x - xs[-2]) <= (y - ys[-2]) * (xs[-1] - xs[-2]):
            xs.pop()
            ys.pop()
        xs.append(x)
        ys.append(y)
    return xs, ys


@pytest.mark.parametrize("depth", range(0, 13))
def test_the_vectorised_hull_matches_the_monotone_chain_on_prefix_variances(depth: int) -> None:
    scaled = range_maximum.scaled_prefix_variances(depth)
    xs, ys = range_maximum._upper_hull(scaled)
    assert (xs.tolist(), ys.tolist()) == _monotone_chain_upper_hull(scaled.tolist())


@pytest.mark.parametrize("seed", range(12))
def test_the_vectorised_hull_matches_the_monotone_chain_near_its_bounds(seed: int) -> None:
    # values near 2^61 whose slopes differ only in the remainder (dy·dx would leave int64), collinear runs,
    # equal values and concave stretches: the exact slope comparison must separate them all
    rng = np.random.default_rng(seed)
    size = int(rng.integers(1, 400))
    base = (1 << 61) - int(rng.integers(0, 1 << 40))
    slope = int(rng.integers(-(1 << 20), 1 << 20))
    x = np.arange(size, dtype=np.int64)
    values = base - (1 << 40) + slope * x - rng.integers(0, 3, size=size) * int(rng.integers(0, 1 << 30))
    if seed % 3 == 0:
        values[::5] = base - (1 << 40) + slope * x[::5]  # a collinear run on top
    if seed % 3 == 1:
        values = values - (x - size // 2) ** 2 * int(rng.integers(1, 1 << 10))  # concave: many vertices
    xs, ys = range_maximum._upper_hull(values)
    assert (xs.tolist(), ys.tolist()) == _monotone_chain_upper_hull(values.tolist())


@pytest.mark.parametrize(("left_run", "right_run", "middle_is_vertex"), [(1 << 20, (1 << 20) + 1, True), ((1 << 20) + 1, 1 << 20, False)])
def test_the_vectorised_hull_separates_slopes_closer_than_a_float_can(
    left_run: int, right_run: int, middle_is_vertex: bool
) -> None:
    # two edges of slope 2^38 + 2^19/run: they differ by about 2^-21, below a double's spacing (2^-14) at 2^38
    floor, rest = 1 << 38, 1 << 19
    values = np.full(left_run + right_run + 1, -(1 << 60), dtype=np.int64)
    values[0] = 0
    values[left_run] = floor * left_run + rest
    values[-1] = values[left_run] + floor * right_run + rest
    xs, _ = range_maximum._upper_hull(values)
    assert xs.tolist() == ([0, left_run, left_run + right_run] if middle_is_vertex else [0, left_run + right_run])


def test_the_vectorised_hull_refuses_values_beyond_its_exact_range() -> None:
    with pytest.raises(ValueError, match="2\\^62"):
        range_maximum._upper_hull(np.array([0, 1 << 62, 0], dtype=np.int64))


def test_the_sweep_over_halves_matches_all_ranges() -> None:
    maxima = range_maximum.range_maxima(12)
    for depth in range(0, 13):
        stats = cip_ranges.all_range_statistics(depth)
        assert maxima[depth].max_variance == stats.max_variance
        assert maxima[depth].maximisers == stats.maximisers


@pytest.mark.parametrize("depth", range(0, 5))
def test_the_sweep_over_halves_matches_the_definition(depth: int) -> None:
    n = 1 << depth
    table = {(a, b): cip_ranges.range_variance_by_sum(depth, a, b) for a in range(n) for b in range(a, n)}
    best = max(table.values())
    result = range_maximum.range_maxima(depth)[depth]
    assert result.max_variance == best
    assert list(result.maximisers) == sorted(key for key, value in table.items() if value == best)


@pytest.mark.parametrize("depth", [-1, range_maximum.MAX_HALVES_DEPTH + 1])
def test_the_sweep_refuses_a_depth_out_of_range(depth: int) -> None:
    with pytest.raises(ValueError, match="depth"):
        range_maximum.range_maxima(depth)
