"""Cross-checks of InfTDA (reference.tda.mechanism): release invariants and numeric-vs-exact path in law.

* :func:`check_release_consistency` (deterministic): a released tree has the root n exactly, every level sums
  to n, every node's children sum to it, every stored count is an integer >= 1 (TDA Theorem 1's |D~| = n and
  Observation 1's hierarchical consistency, which IntOpt enforces).
* :func:`check_against_law` (statistical, seeded): one path's released leaf counts against the law of
  Algorithm 1 enumerated exactly from the discrete Gaussian pmf (:func:`exact_leaf_law`) on a tiny instance,
  by the one-sample DKW bound with a union bound over leaves (rigorous, false-alarm probability <= α).
* :func:`compare_paths` (statistical, seeded): both paths are run ``runs`` times on the same small tree, and
  for every leaf of the universe the empirical CDFs of its released count are compared. Rigorous bound, not an
  asymptotic one: by the Dvoretzky–Kiefer–Wolfowitz inequality with Massart's constant (valid for any
  distribution on the line, discrete ones included), P[sup |F_N − F| > e] <= 2 exp(−2 N e²) for each path, so
  under equal laws P[sup |F_exact − F_numeric| > 2e] <= 4 exp(−2 N e²). Taking e with
  4 exp(−2 N e²) = α / L (L leaves, union bound) makes the total false-alarm probability at most α. The numeric
  path's law differs from the exact one only by float rounding of the noise's acceptance probabilities
  (relative ~1e-16), far below what any feasible N can detect.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from itertools import product

import numpy as np

from reference.core.randomness import SeededRandomBits
from reference.core.validate import check_positive_int, positive_real
from reference.core.verdict import Decided
from reference.tda.data import Hierarchy, PrefixTree, prefix_counts
from reference.tda.intopt import intopt
from reference.tda.mechanism import inftda_exact, inftda_numeric

#: Default false-alarm probability of one statistical check.
DEFAULT_ALPHA = 1e-9

#: The small instance of :func:`compare_paths`: d = 2, |X_1| = 2, |X_2| = 3, n = 4, one empty branch.
SMALL_HIERARCHY = Hierarchy.build(["a", "b"], [["x", "y"], ["p", "q", "r"]])
SMALL_RECORDS = ((0, 0), (0, 0), (0, 2), (1, 1))


@dataclass(frozen=True)
class ConsistencyCheck(Decided):
    """Verdict of :func:`check_release_consistency`."""

    holds: bool
    nodes: int
    problems: tuple[str, ...]

    def summary(self) -> str:
        if self.holds:
            return (
                "Released tree consistent: root exact, every level sums to n, children sum to parents "
                f"({self.nodes} nodes)."
            )
        return "Released tree inconsistent: " + "; ".join(self.problems[:5])


def check_release_consistency(released: PrefixTree, n: int) -> ConsistencyCheck:
    """Check root = n, each level sums to n, children sum to parents, counts integers >= 1."""
    if not isinstance(released, PrefixTree):
        raise TypeError(f"released must be a PrefixTree, got {type(released).__name__}")
    total = check_positive_int(n, "n", minimum=0)
    problems: list[str] = []
    if released.total != total:
        problems.append(f"root {released.total} != n = {total}")
    for level in range(released.hierarchy.depth + 1):
        values = list(released.level(level).values())
        if sum(values) != total:
            problems.append(f"level {level} sums to {sum(values)}, not {total}")
        if any(isinstance(v, bool) or not isinstance(v, int) or v < 1 for v in values):
            problems.append(f"level {level} stores a count that is not an integer >= 1")
    if not released.is_consistent():
        problems.append("some node's children do not sum to it")
    return ConsistencyCheck(not problems, len(released), tuple(problems))


@dataclass(frozen=True)
class PathComparison(Decided):
    """Verdict of :func:`compare_paths`: the largest CDF gap over the leaves against the DKW threshold."""

    holds: bool
    runs: int
    rho: Fraction
    alpha: float
    largest_gap: float
    threshold: float
    worst_leaf: tuple[int, ...]

    def summary(self) -> str:
        verdict = "agree" if self.holds else "DISAGREE"
        return (
            f"InfTDA numeric vs exact path, {self.runs} runs each at rho = {self.rho}: the released leaf counts "
            f"{verdict} in law (largest empirical-CDF gap {self.largest_gap:.4f} at leaf {self.worst_leaf}, "
            f"threshold {self.threshold:.4f}; two-sample DKW with union bound, false-alarm probability <= "
            f"{self.alpha:g})."
        )


def _leaf_matrix(trees: list[PrefixTree], leaves: list[tuple[int, ...]]) -> np.ndarray:
    return np.array([[tree.count(leaf) for leaf in leaves] for tree in trees], dtype=np.int64)


def _largest_cdf_gap(first: np.ndarray, second: np.ndarray) -> float:
    support = np.union1d(first, second)
    cdf_first = np.searchsorted(np.sort(first), support, side="right") / first.size
    cdf_second = np.searchsorted(np.sort(second), support, side="right") / second.size
    return float(np.max(np.abs(cdf_first - cdf_second)))


def compare_paths(
    runs: int = 1500,
    seed: int = 0,
    alpha: float = DEFAULT_ALPHA,
    rho: Fraction = Fraction(1),
    numeric_rho: Fraction | None = None,
) -> PathComparison:
    """Run both paths ``runs`` times on the small instance and compare each leaf's released-count law.

    Exact path: ``SeededRandomBits(seed)`` shared by the runs; numeric path: ``numpy.random.default_rng(seed)``
    shared by the runs. ρ is exact (a Fraction) and passed as a float to the numeric path. ``numeric_rho``
    (default: ``rho``) runs the numeric path at another budget — a negative control showing the test's power.
    """
    count = check_positive_int(runs, "runs")
    start = check_positive_int(seed, "seed", minimum=0)
    level = positive_real(alpha, "alpha")
    if level >= 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    budget = Fraction(rho)
    if budget <= 0:
        raise ValueError(f"rho must be > 0, got {budget}")
    other = budget if numeric_rho is None else Fraction(numeric_rho)
    if other <= 0:
        raise ValueError(f"numeric_rho must be > 0, got {other}")
    tree = prefix_counts(list(SMALL_RECORDS), SMALL_HIERARCHY)
    leaves: list[tuple[int, ...]] = [
        (i, j) for i in range(SMALL_HIERARCHY.sizes[0]) for j in range(SMALL_HIERARCHY.sizes[1])
    ]
    bits = SeededRandomBits(start)
    gen = np.random.default_rng(start)
    exact = _leaf_matrix([inftda_exact(tree, SMALL_HIERARCHY, budget, bits) for _ in range(count)], leaves)
    numeric = _leaf_matrix([inftda_numeric(tree, SMALL_HIERARCHY, float(other), gen) for _ in range(count)], leaves)
    epsilon = math.sqrt(math.log(4 * len(leaves) / level) / (2 * count))
    gaps = [_largest_cdf_gap(exact[:, column], numeric[:, column]) for column in range(len(leaves))]
    worst = int(np.argmax(gaps))
    return PathComparison(
        holds=max(gaps) <= 2 * epsilon,
        runs=count,
        rho=budget,
        alpha=level,
        largest_gap=max(gaps),
        threshold=2 * epsilon,
        worst_leaf=leaves[worst],
    )


# ------------------------------------------------------------------------------- against the exact law (pmf)


def _noise_weights(sigma_squared: Fraction, cutoff: int) -> dict[int, float]:
    """N_Z(0, σ²) pmf on [-cutoff, cutoff] (binary64 weights exp(-x²/(2σ²)), normalised on that range)."""
    raw = {x: math.exp(-float(Fraction(x * x) / (2 * sigma_squared))) for x in range(-cutoff, cutoff + 1)}
    total = math.fsum(raw.values())
    return {x: weight / total for x, weight in raw.items()}


def _children_law(
    true_children: tuple[int, ...], total: int, weights: dict[int, float]
) -> dict[tuple[int, ...], float]:
    """Law of IntOpt(true_children + Z, total), Z i.i.d. with the (truncated) ``weights``, by enumeration."""
    law: dict[tuple[int, ...], float] = {}
    support = sorted(weights)
    for noise in product(support, repeat=len(true_children)):
        probability = math.prod(weights[z] for z in noise)
        key = intopt([q + z for q, z in zip(true_children, noise, strict=True)], total)
        law[key] = law.get(key, 0.0) + probability
    return law


def exact_leaf_law(
    tree: PrefixTree, rho: Fraction, cutoff: int
) -> dict[tuple[tuple[tuple[int, ...], int], ...], float]:
    """The law of InfTDA's released leaves (sorted (leaf, count) pairs) for a tiny tree, by enumeration.

    Follows Algorithm 1 level by level (same IntOpt, same dropping of zero nodes) with each noise value's pmf
    truncated to [-cutoff, cutoff], renormalised and evaluated in binary64; the result is within total
    variation ``draws · tail`` (plus rounding ~1e-15) of the true law, where ``draws`` is the number of noise
    values one run draws and ``tail`` = P[|Z| > cutoff] (bounded in :func:`check_against_law`).
    """
    hierarchy = tree.hierarchy
    weights = _noise_weights(Fraction(hierarchy.depth) / rho, cutoff)
    states: dict[tuple[tuple[tuple[int, ...], int], ...], float] = {(((), tree.total),): 1.0}
    for _ in hierarchy.sizes:
        following: dict[tuple[tuple[tuple[int, ...], int], ...], float] = {}
        for state, probability in states.items():
            partial: dict[tuple[tuple[tuple[int, ...], int], ...], float] = {(): probability}
            for prefix, total in state:
                law = _children_law(tree.children(prefix), total, weights)
                combined: dict[tuple[tuple[tuple[int, ...], int], ...], float] = {}
                for done, weight in partial.items():
                    for children, child_weight in law.items():
                        released = tuple(((*prefix, j), v) for j, v in enumerate(children) if v > 0)
                        key = done + released
                        combined[key] = combined.get(key, 0.0) + weight * child_weight
                partial = combined
            for key, weight in partial.items():
                following[key] = following.get(key, 0.0) + weight
        states = following
    return states


@dataclass(frozen=True)
class LawCheck(Decided):
    """Verdict of :func:`check_against_law`: largest gap between empirical and exact leaf-count CDFs."""

    holds: bool
    path: str
    runs: int
    largest_gap: float
    threshold: float
    alpha: float

    def summary(self) -> str:
        verdict = "matches" if self.holds else "DOES NOT MATCH"
        return (
            f"InfTDA {self.path} path, {self.runs} runs on the small instance: the law of every released leaf count "
            f"{verdict} the exact law enumerated from the discrete Gaussian pmf (largest CDF gap "
            f"{self.largest_gap:.4f}, threshold {self.threshold:.4f}; one-sample DKW with union bound and "
            f"truncation allowance, false-alarm probability <= {self.alpha:g})."
        )


def check_against_law(
    path: str = "numeric", runs: int = 2000, seed: int = 0, alpha: float = DEFAULT_ALPHA, cutoff: int = 12
) -> LawCheck:
    """Compare one path's released leaf counts with :func:`exact_leaf_law` on a d = 2, 2 × 2 instance, ρ = 1.

    Per leaf (L = 4), the one-sample DKW bound P[sup |F_N - F| > e] <= 2 exp(-2 N e²) at α/L each; the
    enumerated law differs from the true one by at most ``draws · tail`` in total variation (draws <= 6 noise
    values; tail = P[|Z| > cutoff] <= 2 Σ_{x > cutoff} exp(-x²/(2σ²)), as the normaliser is >= 1; σ² = 2),
    which is added to the threshold. ``path`` is "numeric" (seeded Generator) or "exact" (SeededRandomBits).
    """
    if path not in ("numeric", "exact"):
        raise ValueError(f"path must be 'numeric' or 'exact', got {path!r}")
    count = check_positive_int(runs, "runs")
    start = check_positive_int(seed, "seed", minimum=0)
    level = positive_real(alpha, "alpha")
    if level >= 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    limit = check_positive_int(cutoff, "cutoff")
    hierarchy = Hierarchy.build(["a", "b"], [["x", "y"], ["p", "q"]])
    tree = prefix_counts([(0, 0), (0, 1), (0, 1)], hierarchy)
    rho = Fraction(1)
    law = exact_leaf_law(tree, rho, limit)
    leaves: list[tuple[int, ...]] = [(0, 0), (0, 1), (1, 0), (1, 1)]
    if path == "numeric":
        gen = np.random.default_rng(start)
        trees = [inftda_numeric(tree, hierarchy, 1.0, gen) for _ in range(count)]
    else:
        bits = SeededRandomBits(start)
        trees = [inftda_exact(tree, hierarchy, rho, bits) for _ in range(count)]
    sample = _leaf_matrix(trees, leaves)
    sigma_squared = hierarchy.depth / 1.0
    tail = 2 * math.fsum(math.exp(-x * x / (2 * sigma_squared)) for x in range(limit + 1, limit + 200))
    allowance = 6 * tail
    epsilon = math.sqrt(math.log(2 * len(leaves) / level) / (2 * count))
    largest = 0.0
    for column, leaf in enumerate(leaves):
        pmf: dict[int, float] = {}
        for state, probability in law.items():
            value = dict(state).get(leaf, 0)
            pmf[value] = pmf.get(value, 0.0) + probability
        support = sorted(pmf)
        exact_cdf = np.cumsum([pmf[v] for v in support])
        empirical = np.searchsorted(np.sort(sample[:, column]), support, side="right") / count
        largest = max(largest, float(np.max(np.abs(empirical - exact_cdf))))
    threshold = epsilon + allowance
    return LawCheck(largest <= threshold, path, count, largest, threshold, level)
