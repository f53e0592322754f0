"""InfTDA mechanism (reference.tda.mechanism): invariants, draw order, reproducibility, bad inputs.

Expectations are independent of the code under test: invariants (every level sums to n, children sum to
their parent, counts non-negative integers, root exact), the draw order re-derived by calling the samplers
directly in the documented order, the near-noiseless limit (huge ρ) returning the true tree, and the literal
printed IntOpt loop (``intopt_literal``) as the projection's reference. The statistical tests (numeric vs
exact path, and each path vs the law enumerated from the pmf) are in reference_verification.tda.checks.mechanism; the three run
here have false-alarm probability 1e-9 each (total <= 3e-9).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_verification.tda.checks import mechanism as tda_checks

from reference.core.randomness import SeededRandomBits
from reference.samplers.exact import discrete_gaussian as exact_dg
from reference.samplers.numeric import discrete_gaussian as numeric_dg
from reference.tda.data import Hierarchy, PrefixTree, default_dataset, prefix_counts
from reference.tda.intopt import intopt, intopt_literal
from reference.tda.mechanism import inftda_exact, inftda_numeric

HIERARCHY = Hierarchy.build(["a", "b", "c"], [["x", "y", "z"], ["p", "q"], ["u", "v"]])
RECORDS = [(0, 0, 0), (0, 0, 1), (0, 1, 1), (1, 0, 0), (1, 0, 0), (0, 0, 0), (1, 1, 1)]


def _tree() -> PrefixTree:
    return prefix_counts(RECORDS, HIERARCHY)


def _assert_invariants(released: PrefixTree, n: int) -> None:
    assert released.total == n
    assert released.is_consistent()
    for level in range(released.hierarchy.depth + 1):
        values = released.level(level).values()
        assert sum(values) == n
        assert all(isinstance(v, int) and v > 0 for v in values)


@pytest.mark.parametrize("rho", [Fraction(1, 100), Fraction(1), 5])
@pytest.mark.parametrize("seed", range(5))
def test_exact_invariants(rho: Fraction | int, seed: int) -> None:
    _assert_invariants(inftda_exact(_tree(), HIERARCHY, rho, SeededRandomBits(seed)), len(RECORDS))


@pytest.mark.parametrize("rho", [0.01, 1.0, 5])
@pytest.mark.parametrize("seed", range(5))
def test_numeric_invariants(rho: float, seed: int) -> None:
    _assert_invariants(inftda_numeric(_tree(), HIERARCHY, rho, seed), len(RECORDS))


def test_numeric_invariants_on_default_dataset() -> None:
    hierarchy, records = default_dataset(size=3000, seed=1)
    tree = prefix_counts(records, hierarchy)
    _assert_invariants(inftda_numeric(tree, hierarchy, 0.5, 7), 3000)
    result = tda_checks.check_release_consistency(inftda_numeric(tree, hierarchy, 0.5, 8), 3000)
    assert result.holds, result.summary()


def test_reproducible_from_seed() -> None:
    tree = _tree()
    assert inftda_exact(tree, HIERARCHY, 1, SeededRandomBits(11)) == inftda_exact(
        tree, HIERARCHY, 1, SeededRandomBits(11)
    )
    assert inftda_numeric(tree, HIERARCHY, 1, 11) == inftda_numeric(tree, HIERARCHY, 1, 11)
    gen_a, gen_b = np.random.default_rng(3), np.random.default_rng(3)
    assert inftda_numeric(tree, HIERARCHY, 1, gen_a) == inftda_numeric(tree, HIERARCHY, 1, gen_b)


def test_huge_rho_returns_the_true_tree() -> None:
    # σ² = 3 / 10**12: P[some draw != 0] <= 20 · 2 exp(-1/(2σ²)) = 0 to double precision; IntOpt(q, sum q) = q.
    tree = _tree()
    assert inftda_exact(tree, HIERARCHY, 10**12, SeededRandomBits(0)) == tree
    assert inftda_numeric(tree, HIERARCHY, 1e12, 0) == tree


class _Recorder:
    """A projection that records (noisy vector, total) and applies the literal printed IntOpt loop."""

    def __init__(self) -> None:
        self.calls: list[tuple[tuple[int, ...], int]] = []

    def __call__(self, values: Sequence[int], total: int) -> tuple[int, ...]:
        self.calls.append((tuple(values), total))
        return intopt_literal(values, total)


def _expected_calls(tree: PrefixTree, released: PrefixTree) -> list[tuple[tuple[int, ...], int]]:
    """(true children vector, released parent count) per released parent, in the documented order."""
    calls: list[tuple[tuple[int, ...], int]] = [(tree.children(()), tree.total)]
    for level in range(1, HIERARCHY.depth):
        for prefix, count in released.level(level).items():
            calls.append((tree.children(prefix), count))
    return calls


def test_exact_draw_order_and_projection() -> None:
    tree, rho = _tree(), Fraction(1, 2)
    recorder = _Recorder()
    released = inftda_exact(tree, HIERARCHY, rho, SeededRandomBits(5), projection=recorder)
    expected = _expected_calls(tree, released)
    assert [total for _, total in recorder.calls] == [total for _, total in expected]
    replay = SeededRandomBits(5)
    sigma_squared = Fraction(HIERARCHY.depth) / rho
    for (noisy, _), (true, _) in zip(recorder.calls, expected, strict=True):
        assert len(noisy) == len(true)  # every child of the universe gets noise, zero counts included
        noise = exact_dg(sigma_squared, source=replay, size=len(true))
        assert list(noisy) == [t + z for t, z in zip(true, noise, strict=True)]
    for (noisy, total), (prefix, _) in zip(recorder.calls, [((), 0), *_parents(released)], strict=True):
        projected = intopt_literal(noisy, total)
        assert tuple(released.count((*prefix, j)) for j in range(len(noisy))) == projected


def _parents(released: PrefixTree) -> list[tuple[tuple[int, ...], int]]:
    return [item for level in range(1, HIERARCHY.depth) for item in released.level(level).items()]


def test_numeric_draw_order_one_call_per_level() -> None:
    tree, rho = _tree(), 0.5
    recorder = _Recorder()
    released = inftda_numeric(tree, HIERARCHY, rho, 9, projection=recorder)
    expected = _expected_calls(tree, released)
    gen = np.random.default_rng(9)
    sigma_squared = HIERARCHY.depth / rho
    position = 0
    for level, size in enumerate(HIERARCHY.sizes, start=1):
        parents = 1 if level == 1 else len(released.level(level - 1))
        noise = numeric_dg(sigma_squared, size=parents * size, rng=gen).reshape(parents, size)
        for row in range(parents):
            noisy, _ = recorder.calls[position]
            true, _ = expected[position]
            assert list(noisy) == [t + int(z) for t, z in zip(true, noise[row], strict=True)]
            position += 1
    assert position == len(recorder.calls)


def test_default_projection_is_intopt() -> None:
    tree = _tree()
    with_default = inftda_exact(tree, HIERARCHY, 1, SeededRandomBits(2))
    with_literal = inftda_exact(tree, HIERARCHY, 1, SeededRandomBits(2), projection=intopt_literal)
    assert with_default == with_literal


def test_progress_callback_and_empty_dataset() -> None:
    seen: list[tuple[int, int, int]] = []
    released = inftda_numeric(_tree(), HIERARCHY, 1, 0, progress=lambda *args: seen.append(args))
    assert [(level, depth) for level, depth, _ in seen] == [(1, 3), (2, 3), (3, 3)]
    assert [count for _, _, count in seen] == [len(released.level(level)) for level in (1, 2, 3)]
    empty = prefix_counts([], HIERARCHY)
    assert len(inftda_exact(empty, HIERARCHY, 1, SeededRandomBits(0))) == 0
    assert len(inftda_numeric(empty, HIERARCHY, 1, 0)) == 0


def test_bad_inputs() -> None:
    tree = _tree()
    for bad in (0, -1, "0"):
        with pytest.raises(ValueError, match="rho"):
            inftda_exact(tree, HIERARCHY, bad, SeededRandomBits(0))
        with pytest.raises(ValueError, match="rho"):
            inftda_numeric(tree, HIERARCHY, bad, 0)
    with pytest.raises(TypeError, match="rho"):
        inftda_exact(tree, HIERARCHY, 0.5, SeededRandomBits(0))
    with pytest.raises(TypeError, match="source"):
        inftda_exact(tree, HIERARCHY, 1, 3)
    with pytest.raises(TypeError, match="rng"):
        inftda_numeric(tree, HIERARCHY, 1, "seed")
    with pytest.raises(TypeError, match="tree"):
        inftda_numeric({(): 1}, HIERARCHY, 1, 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="hierarchy"):
        inftda_numeric(tree, "h", 1, 0)  # type: ignore[arg-type]
    other = Hierarchy.build(["a", "b", "c"], [["x", "y", "z"], ["p", "q"], ["u", "v", "w"]])
    with pytest.raises(ValueError, match="over the given hierarchy"):
        inftda_numeric(tree, other, 1, 0)
    with pytest.raises(ValueError, match="consistent"):
        inftda_numeric(PrefixTree(HIERARCHY, {(): 3, (0,): 1}), HIERARCHY, 1, 0)
    with pytest.raises(TypeError, match="projection"):
        inftda_numeric(tree, HIERARCHY, 1, 0, projection=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="progress"):
        inftda_numeric(tree, HIERARCHY, 1, 0, progress=3)  # type: ignore[arg-type]
    with pytest.raises(RuntimeError, match="projection broke its contract"):
        inftda_numeric(tree, HIERARCHY, 1, 0, projection=lambda values, total: tuple(values))


def test_numeric_matches_exact_in_distribution() -> None:
    result = tda_checks.compare_paths(runs=1500, seed=1, alpha=1e-9)
    assert result.holds, result.summary()


def test_path_comparison_has_power() -> None:
    # Negative control: the numeric path at ρ/16 (σ² 16 times larger) must be told apart from the exact one.
    result = tda_checks.compare_paths(runs=1500, seed=2, alpha=1e-9, numeric_rho=Fraction(1, 16))
    assert not result.holds, result.summary()


def test_consistency_check_flags_a_broken_tree() -> None:
    broken = PrefixTree(HIERARCHY, {(): 7, (0,): 7, (0, 0): 6, (0, 0, 0): 6})
    result = tda_checks.check_release_consistency(broken, 7)
    assert not result.holds
    assert "level 2 sums to 6" in result.summary()


@pytest.mark.parametrize("path", ["numeric", "exact"])
def test_paths_match_the_enumerated_law(path: str) -> None:
    result = tda_checks.check_against_law(path, runs=2000, seed=4, alpha=1e-9)
    assert result.holds, result.summary()


def test_enumerated_law_is_a_distribution_with_the_invariants() -> None:
    tree = prefix_counts([(0, 0), (0, 1), (0, 1)], Hierarchy.build(["a", "b"], [["x", "y"], ["p", "q"]]))
    law = tda_checks.exact_leaf_law(tree, Fraction(1), 10)
    assert abs(sum(law.values()) - 1) < 1e-12
    assert all(sum(count for _, count in state) == 3 for state in law)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-20, 20), min_size=1, max_size=6))
def test_dropping_zero_nodes_loses_nothing(values: list[int]) -> None:
    # Algorithm 1 line 9 keeps only children with a positive count; a dropped node's subtree would be projected
    # with total 0, and the only non-negative integer vector summing to 0 is zero — so the output is unchanged.
    assert intopt(values, 0) == (0,) * len(values)


@settings(max_examples=40, deadline=None)
@given(
    sizes=st.lists(st.integers(1, 3), min_size=1, max_size=3),
    rho=st.fractions(min_value=Fraction(1, 50), max_value=Fraction(20)).filter(lambda r: r > 0),
    seed=st.integers(0, 2**16),
    data=st.data(),
)
def test_invariants_on_random_trees(sizes: list[int], rho: Fraction, seed: int, data: st.DataObject) -> None:
    hierarchy = Hierarchy.build([f"a{i}" for i in range(len(sizes))], [[str(j) for j in range(s)] for s in sizes])
    rows = data.draw(st.lists(st.tuples(*[st.integers(0, s - 1) for s in sizes]), max_size=15))
    tree = prefix_counts(rows, hierarchy)
    for released in (
        inftda_exact(tree, hierarchy, rho, SeededRandomBits(seed)),
        inftda_numeric(tree, hierarchy, float(rho), seed),
    ):
        assert tda_checks.check_release_consistency(released, len(rows)).holds
