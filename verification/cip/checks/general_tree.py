"""Cross-checks of Algorithm 3 (general binary trees) and Algorithm 4 (two dimensions) of the CIP paper.

Exact twins: :mod:`reference.cip.exact.general_tree`, :mod:`reference.cip.exact.two_dim`. Numeric samplers:
:mod:`reference.cip.numeric.general_tree`, :mod:`reference.cip.numeric.two_dim`. Each check returns the frozen
dataclasses of :mod:`reference_verification.cip.checks.cascade`:

* :class:`DeterministicCheck` (``holds`` iff ``statistic <= threshold``): exhaustive exact checks over every
  tree shape up to a size (``statistic`` = number of failing cases, ``threshold`` 0), structure and linear-map
  checks of the samplers with stated float-rounding bounds (``statistic`` = worst ratio to the bound, or the
  worst error against a bound);
* :class:`StatisticalCheck` (``holds`` iff ``p_value > false_alarm``): seeded draws whitened with the *exact*
  covariance and tested i.i.d. N(0, 1) by :func:`reference.cip.whitening.whitened_normal_test`, whose
  union-bound p-value makes ``false_alarm`` (default 1e-9) a true upper bound on the false-alarm probability.

Sizes, sample counts and seeds are parameters so the claims registry can run larger budgets.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

import numpy as np

from reference.cip.exact import general_tree as cip_general_tree
from reference.cip.exact import matrix as cip_matrix
from reference.cip.numeric.general_tree import consistency_defects, general_tree_leaves, general_tree_nodes
from reference.cip.sensitivity import mahalanobis_sensitivity_squared
from reference.cip.tree import BinaryTree, Nested, balanced_tree, contract_chains
from reference.cip.whitening import DEFAULT_ALPHA, ldl_whitening, whitened_normal_test
from reference.core import linalg
from reference.core.linalg import Matrix
from reference.core.statistical_check import StatisticalCheck
from reference.core.validate import NEIGHBOURS, check_positive_int, positive_real
from reference.core.verdict import Decided

from .cascade import UNIT_ROUNDOFF, DeterministicCheck, ScriptedGenerator

T = TypeVar("T")

# --------------------------------------------------------------------------------------------------------
# Tree shapes
# --------------------------------------------------------------------------------------------------------


def full_binary_shapes(leaves: int) -> list[Nested]:
    """Every tree in which each node has 0 or 2 children, with exactly ``leaves`` leaves (Catalan many)."""
    leaves = check_positive_int(leaves, "leaves")
    table: list[list[Nested]] = [[], [()]]
    for size in range(2, leaves + 1):
        table.append([(left, right) for k in range(1, size) for left in table[k] for right in table[size - k]])
    return table[leaves]


def unary_binary_shapes(nodes: int) -> list[Nested]:
    """Every tree in which each node has 0, 1 or 2 children, with exactly ``nodes`` nodes (Motzkin many)."""
    nodes = check_positive_int(nodes, "nodes")
    table: list[list[Nested]] = [[], [()]]
    for size in range(2, nodes + 1):
        shapes: list[Nested] = [(child,) for child in table[size - 1]]
        shapes += [(left, right) for k in range(1, size - 1) for left in table[k] for right in table[size - 1 - k]]
        table.append(shapes)
    return table[nodes]


def small_trees(max_leaves: int = 7, max_nodes: int = 8) -> list[BinaryTree]:
    """Every full binary tree with at most ``max_leaves`` leaves, then every tree with one-child nodes and at
    most ``max_nodes`` nodes (no tree twice)."""
    max_leaves = check_positive_int(max_leaves, "max_leaves")
    max_nodes = check_positive_int(max_nodes, "max_nodes")
    seen: set[BinaryTree] = set()
    result: list[BinaryTree] = []
    shapes = [s for m in range(1, max_leaves + 1) for s in full_binary_shapes(m)]
    shapes += [s for n in range(1, max_nodes + 1) for s in unary_binary_shapes(n)]
    for shape in shapes:
        tree = BinaryTree.from_nested(shape)
        if tree not in seen:
            seen.add(tree)
            result.append(tree)
    return result


def exhaustive(
    name: str, cases: Iterable[T], holds: Callable[[T], bool], describe: Callable[[T], str]
) -> DeterministicCheck:
    count, failures, first = 0, 0, ""
    for case in cases:
        count += 1
        if not holds(case):
            failures += 1
            first = first or describe(case)
    detail = f"{count} cases, {failures} failing" + (f"; first failure: {first}" if failures else "")
    return DeterministicCheck(name, float(failures), 0.0, failures == 0, count, detail)


def all_one(values: Iterable[Fraction]) -> bool:
    return all(value == 1 for value in values)


# --------------------------------------------------------------------------------------------------------
# Algorithm 3, exact
# --------------------------------------------------------------------------------------------------------


def check_node_variances_exact(max_leaves: int = 7, max_nodes: int = 8) -> DeterministicCheck:
    """D.2 claim "every node is N(0, σ²)": on every small tree, every node's variance from the construction is
    exactly 1, and so is the variance of the sum of the leaves under it (the release is consistent)."""
    return exhaustive(
        "Algorithm 3: every node has variance sigma^2",
        small_trees(max_leaves, max_nodes),
        lambda t: (
            all_one(cip_general_tree.node_variances(t).values())
            and all_one(cip_general_tree.node_variances_from_leaves(t).values())
        ),
        repr,
    )


def check_consistency_exact(max_leaves: int = 7, max_nodes: int = 8) -> DeterministicCheck:
    """D.2 claim "a node's noise is the sum of its children's": exact, on the construction's coefficients."""
    return exhaustive(
        "Algorithm 3: node = sum of children (exact)",
        small_trees(max_leaves, max_nodes),
        cip_general_tree.is_consistent,
        repr,
    )


def check_covariance_formula(max_leaves: int = 7, max_nodes: int = 8) -> DeterministicCheck:
    """The derived leaf covariance ``−(1/2) 2**−(s_i + s_j)`` equals the construction's, and is positive
    definite; on perfect trees it is ``C_depth`` (Definition 3.1)."""

    def holds(tree: BinaryTree) -> bool:
        matrix = cip_general_tree.covariance(tree)
        if matrix != cip_general_tree.covariance_closed_form(tree) or not linalg.is_positive_definite(matrix):
            return False
        leaves = tree.leaf_count
        if leaves & (leaves - 1) == 0 and set(map(len, tree.leaves)) == {leaves.bit_length() - 1}:
            return matrix == cip_matrix.covariance(leaves.bit_length() - 1)
        return True

    return exhaustive("Algorithm 3: covariance formula", small_trees(max_leaves, max_nodes), holds, repr)


def check_precision_formula(max_leaves: int = 7, max_nodes: int = 8) -> DeterministicCheck:
    """``C⁻¹`` by elimination equals ``1 1ᵀ + (1/3) Σ_s h_s h_sᵀ`` on every small tree."""
    return exhaustive(
        "Algorithm 3: precision formula",
        small_trees(max_leaves, max_nodes),
        lambda t: cip_general_tree.precision(t) == cip_general_tree.precision_closed_form(t),
        repr,
    )


def check_sensitivity_formula(max_leaves: int = 7, max_nodes: int = 8) -> DeterministicCheck:
    """Δ² from split depths equals Δ² from the dense exact precision (both relations) on every small tree."""

    def holds(tree: BinaryTree) -> bool:
        precision = cip_general_tree.precision(tree)
        relations = NEIGHBOURS if tree.leaf_count >= 2 else NEIGHBOURS[:1]
        return all(
            cip_general_tree.sensitivity_squared(tree, r) == mahalanobis_sensitivity_squared(precision, r)
            for r in relations
        )

    return exhaustive("Algorithm 3: sensitivity formula", small_trees(max_leaves, max_nodes), holds, repr)


def check_chain_invariance(max_nodes: int = 9) -> DeterministicCheck:
    """A one-child node changes nothing: the leaf covariance of every tree with at most ``max_nodes`` nodes
    equals that of the tree with its chains contracted."""
    trees = [BinaryTree.from_nested(s) for n in range(1, max_nodes + 1) for s in unary_binary_shapes(n)]
    return exhaustive(
        "Algorithm 3: one-child chains are invisible",
        trees,
        lambda t: cip_general_tree.covariance(t) == cip_general_tree.covariance(contract_chains(t)),
        repr,
    )


def balanced_sensitivity_prediction(leaves: int, neighbours: str) -> Fraction:
    """The closed form found for the balanced tree over ``m`` leaves, ``d = ceil(log2 m)``:
    ``add_remove`` ``1 + d/3`` (the padded perfect tree's value); ``substitution`` ``(2 + 2d)/3``, except
    ``(1 + 2d)/3`` when ``m = 2**(d−1) + 1`` with ``d >= 2`` (the right subtree of the root is one level
    shallower). Derived by hand from :func:`cip_general_tree.sensitivity_squared`'s formula."""
    count = check_positive_int(leaves, "leaves")
    depth = (count - 1).bit_length()
    if neighbours == "add_remove":
        return 1 + Fraction(depth, 3)
    if depth >= 2 and count == (1 << (depth - 1)) + 1:
        return Fraction(1 + 2 * depth, 3)
    return Fraction(2 + 2 * depth, 3)


def check_balanced_sensitivity(max_leaves: int = 64, max_dense_leaves: int = 24) -> DeterministicCheck:
    """For the balanced tree over ``m = 1 .. max_leaves`` leaves: Δ² from the split structure equals
    :func:`balanced_sensitivity_prediction`, and (``m <= max_dense_leaves``) the dense exact precision's Δ²."""

    def holds(count: int) -> bool:
        tree = balanced_tree(count)
        relations = NEIGHBOURS if count >= 2 else NEIGHBOURS[:1]
        for relation in relations:
            value = cip_general_tree.sensitivity_squared(tree, relation)
            if value != balanced_sensitivity_prediction(count, relation):
                return False
            if count <= max_dense_leaves:
                dense = cip_general_tree.exact_inverse(cip_general_tree.covariance(tree))
                if value != mahalanobis_sensitivity_squared(dense, relation):
                    return False
        return True

    count = check_positive_int(max_leaves, "max_leaves")
    return exhaustive("balanced tree sensitivity", range(1, count + 1), holds, lambda m: f"m = {m}")


# --------------------------------------------------------------------------------------------------------
# Algorithm 3, numeric
# --------------------------------------------------------------------------------------------------------


def linear_map_bound(sigma: float, inputs: int) -> float:
    """Bound on ``|(A Aᵀ)_ij − σ² C_ij|`` for a sampler's matrix ``A`` read off with unit scripts.

    With a unit script every value is ``σ 2**−k`` or ``± fl(fl(√3/2) σ) 2**−k`` (halving and adding zeros are
    exact), or in two dimensions a rounded product of two such factors; so each entry of ``A`` has relative
    error at most ``4u``, a product of two entries ``9u``, and the float dot product of ``inputs`` terms adds
    ``inputs · u`` relative to ``Σ_k |A_ik A_jk| <= σ²`` (rows have norm σ). Doubled for second-order terms.
    """
    return 2.0 * sigma * sigma * float(UNIT_ROUNDOFF) * (9 + inputs)


def linear_map(sample: Callable[[ScriptedGenerator], np.ndarray], inputs: int) -> tuple[np.ndarray, int]:
    """The matrix with column j = the sampler's output for the j-th unit script; and the most draws used."""
    columns, most = [], 0
    for j in range(inputs):
        unit = np.zeros(inputs + 1)  # one spare normal: a sampler drawing more than documented is caught
        unit[j] = 1.0
        script = ScriptedGenerator(unit)
        columns.append(np.ravel(sample(script)))
        most = max(most, script.used)
    return np.column_stack(columns), most


def compare_map(
    name: str, matrix: np.ndarray, used: int, inputs: int, target: Matrix, sigma: float
) -> DeterministicCheck:
    if used != inputs:
        return DeterministicCheck(name, math.inf, 0.0, False, 0, f"drew {used} normals, documented {inputs}")
    expected = np.array([[float(entry) for entry in row] for row in target]) * sigma * sigma
    error = float(np.max(np.abs(matrix @ matrix.T - expected)))
    bound = linear_map_bound(sigma, inputs)
    detail = f"max |A A^T - sigma^2 C| = {error:.3g} (bound {bound:.3g}); {inputs} normals drawn"
    return DeterministicCheck(name, error, bound, error <= bound, len(target) ** 2, detail)


def check_general_tree_linear_map(tree: BinaryTree, sigma: float = 1.0) -> DeterministicCheck:
    """``general_tree_leaves`` as a linear map ``x = A z`` of its ``m`` normals: exactly ``m`` are drawn and
    ``A Aᵀ`` equals ``σ²`` times the exact covariance up to :func:`linear_map_bound` (no sampling error)."""
    sigma = positive_real(sigma, "sigma")
    inputs = tree.leaf_count
    matrix, used = linear_map(lambda g: general_tree_leaves(tree, sigma, g), inputs)
    target = cip_general_tree.covariance(tree)
    return compare_map(f"Algorithm 3 linear map, {tree!r}", matrix, used, inputs, target, sigma)


def check_general_tree_linear_maps(max_leaves: int = 7, max_nodes: int = 8, sigma: float = 1.0) -> DeterministicCheck:
    """:func:`check_general_tree_linear_map` on every small tree; ``statistic`` = number failing."""
    return exhaustive(
        "Algorithm 3 linear maps",
        small_trees(max_leaves, max_nodes),
        lambda t: check_general_tree_linear_map(t, sigma).holds,
        repr,
    )


def check_general_tree_structure(
    max_leaves: int = 7, max_nodes: int = 8, samples: int = 20, sigma: float = 1.0, seed: int = 0
) -> DeterministicCheck:
    """On every small tree and ``samples`` seeded draws: every node with children equals the sum of its
    children within :func:`reference.cip.numeric.general_tree.consistency_defects`' bound (one-child nodes
    exactly), the leaves of ``general_tree_nodes`` equal ``general_tree_leaves`` bit for bit, and a batch of
    ``samples`` equals ``samples`` successive single draws. ``statistic`` = worst defect ratio (threshold 1)."""
    sigma = positive_real(sigma, "sigma")
    samples = check_positive_int(samples, "samples")
    seed = check_positive_int(seed, "seed", minimum=0)
    worst, where, problems, cases = 0.0, "none", [], 0
    for number, tree in enumerate(small_trees(max_leaves, max_nodes)):
        nodes = general_tree_nodes(tree, sigma, seed + number, size=samples)
        leaves = general_tree_leaves(tree, sigma, seed + number, size=samples)
        generator = np.random.default_rng(seed + number)
        singles = np.stack([general_tree_nodes(tree, sigma, generator) for _ in range(samples)])
        if not np.array_equal(nodes[:, tree.leaf_node_indices], leaves) or not np.array_equal(nodes, singles):
            problems.append(repr(tree))
        defects = consistency_defects(tree, nodes)
        cases += defects.size
        if defects.size and float(defects.max()) > worst:
            worst, where = float(defects.max()), repr(tree)
    statistic = math.inf if problems else worst
    detail = f"{cases} parent/children relations; worst defect/bound {worst:.3g} at {where}" + (
        f"; leaves/batch mismatch at {problems[:3]}" if problems else ""
    )
    return DeterministicCheck("Algorithm 3 numeric structure", statistic, 1.0, statistic <= 1.0, cases, detail)


def check_general_tree_covariance(
    tree: BinaryTree, sigma: float = 1.0, samples: int = 20_000, seed: int = 0, alpha: float = DEFAULT_ALPHA
) -> StatisticalCheck:
    """``samples`` leaf vectors of Algorithm 3 (one generator seeded with ``seed``), whitened with the exact
    covariance (:func:`reference.cip.whitening.ldl_whitening`), pass the i.i.d. N(0, 1) battery."""
    sigma = positive_real(sigma, "sigma")
    samples = check_positive_int(samples, "samples", minimum=2)
    draws = general_tree_leaves(tree, sigma, check_positive_int(seed, "seed", minimum=0), size=samples)
    white = draws @ ldl_whitening(cip_general_tree.covariance(tree), sigma).T
    return whitened_normal_test(white, alpha, f"Algorithm 3 leaf covariance, {tree!r}")


# --------------------------------------------------------------------------------------------------------
# Algorithm 4, exact
# --------------------------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------------------------
# Algorithm 4, numeric
# --------------------------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------------------------
# Summaries for the claims registry
# --------------------------------------------------------------------------------------------------------

Check = DeterministicCheck | StatisticalCheck


@dataclass(frozen=True)
class CheckSummary(Decided):
    """Several checks run together: ``holds`` iff every part passed.

    ``statistic`` is the number of failing parts (``threshold`` 0); ``p_value`` the smallest p-value of the
    statistical parts (None if there are none); the false-alarm probability of the summary is at most the
    sum of its statistical parts' ``false_alarm``.
    """

    parts: tuple[Check, ...]

    @property
    def holds(self) -> bool:
        return all(part.holds for part in self.parts)

    @property
    def statistic(self) -> float:
        return float(sum(not part.holds for part in self.parts))

    @property
    def threshold(self) -> float:
        return 0.0

    @property
    def p_value(self) -> float | None:
        values = [part.p_value for part in self.parts if isinstance(part, StatisticalCheck) and part.p_value is not None]
        return min(values) if values else None

    @property
    def description(self) -> str:
        return self.summary()

    def summary(self) -> str:
        """One line per part: name, verdict, detail."""
        return " | ".join(f"{p.name}: {'passed' if p.holds else 'FAILED'} ({p.detail})" for p in self.parts)


def exhaustive_structure_check(
    max_leaves: int = 7, max_nodes: int | None = None, samples: int = 20_000, seed: int = 0
) -> CheckSummary:
    """Algorithm 3 as the prose describes it, on every tree with at most ``max_leaves`` leaves (no one-child
    node) or ``max_nodes`` nodes (default ``max_leaves + 1``; with one-child nodes): exact node variances,
    exact consistency, the covariance, precision and sensitivity formulas, chain invariance, the sampler's
    linear maps and float structure; plus one statistical covariance check (false alarm 1e-9) on the
    balanced tree over ``max_leaves`` leaves."""
    leaves = check_positive_int(max_leaves, "max_leaves")
    nodes = leaves + 1 if max_nodes is None else check_positive_int(max_nodes, "max_nodes")
    return CheckSummary(
        (
            check_node_variances_exact(leaves, nodes),
            check_consistency_exact(leaves, nodes),
            check_covariance_formula(leaves, nodes),
            check_precision_formula(leaves, nodes),
            check_sensitivity_formula(leaves, nodes),
            check_chain_invariance(nodes),
            check_general_tree_linear_maps(leaves, nodes),
            check_general_tree_structure(leaves, nodes),
            check_general_tree_covariance(balanced_tree(leaves), 1.0, samples, seed),
        )
    )
