"""Algorithm 3 (CIP Appendix D.2): the tree description, the numeric sampler, its exact twin, the padding study.

Statistical tests: 3 checks with false-alarm probability 1e-9 each (``DEFAULT_ALPHA``), so this file's total
false-alarm probability is below 1e-8. The power test's miss probability is far below 1e-100 (see there).
"""

from __future__ import annotations

import math
import pickle
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_verification.cip.checks import general_tree as checks

from reference.cip.exact import general_tree as exact
from reference.cip.exact import matrix as cip_matrix
from reference.cip.numeric.cascade import cascade_leaves, cascade_tree
from reference.cip.numeric.general_tree import consistency_defects, general_tree_leaves, general_tree_nodes
from reference.cip.sensitivity import mahalanobis_sensitivity_squared
from reference.cip.tree import BinaryTree, Nested, balanced_tree, contract_chains, perfect_tree
from reference.cip.whitening import ldl_whitening, whitened_normal_test
from reference.core import linalg
from reference.core.validate import NEIGHBOURS

F = Fraction
HALF_SQRT3 = math.sqrt(3.0) / 2.0

# leaves '0', '10', '11': the root splits, its right child splits again
SMALL: Nested = ((), ((), ()))

trees = st.recursive(
    st.just(()),
    lambda inner: st.tuples(inner) | st.tuples(inner, inner),
    max_leaves=7,
)


def naive_labels(nested: Nested) -> dict[str, Nested]:
    """Every node's label and subtree, from the nested form by direct recursion."""
    result: dict[str, Nested] = {}

    def visit(node: Nested, label: str) -> None:
        result[label] = node
        for bit, child in enumerate(node):
            visit(child, label + str(bit))

    visit(nested, "")
    return result


def naive_sampler(nested: Nested, sigma: float, seed: int) -> dict[str, float]:
    """Algorithm 3 from the prose and the documented draw order (root, then one normal per two-child node in
    level order), node by node with Python floats."""
    nodes = naive_labels(nested)
    order = sorted(nodes, key=lambda s: (len(s), s))
    z = np.random.default_rng(seed).standard_normal(sum(1 for s in order if not nodes[s]))
    values = {"": float(z[0]) * sigma}
    used = 1
    for label in order:
        children = nodes[label]
        if len(children) == 1:
            values[label + "0"] = values[label]
        elif len(children) == 2:
            noise = float(z[used]) * (HALF_SQRT3 * sigma)
            used += 1
            half = values[label] * 0.5
            values[label + "0"], values[label + "1"] = half + noise, half - noise
    return values


# ---- the tree ---------------------------------------------------------------------------------------------


def test_constructors_agree_and_round_trip() -> None:
    tree = BinaryTree.from_nested(SMALL)
    assert tree.leaves == ("0", "10", "11")
    assert tree.nodes == ("", "0", "1", "10", "11")
    assert tree.child_counts == (2, 0, 2, 0, 0)
    assert BinaryTree.from_labels(["0", "10", "11"]) == tree
    assert BinaryTree.from_child_counts([2, 0, 2, 0, 0]) == tree
    assert tree.to_nested() == SMALL
    assert hash(tree) == hash(BinaryTree.from_labels(("0", "10", "11")))
    assert tree.splits == ("", "1")
    assert [tree.leaf_range(s) for s in tree.nodes] == [(0, 3), (0, 1), (1, 3), (1, 2), (2, 3)]
    assert tree.children("1") == ("10", "11") and tree.children("0") == ()
    assert tree.level_sizes == (1, 2, 2)
    assert tree.parent_indices.tolist() == [-1, 0, 0, 2, 2]
    assert tree.leaf_node_indices.tolist() == [1, 3, 4]
    with pytest.raises(AttributeError):
        tree.leaf_count = 4  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(tree)) == tree


@given(trees)
@settings(max_examples=60, deadline=None)
def test_nested_labels_and_counts_round_trip(nested: Nested) -> None:
    tree = BinaryTree.from_nested(nested)
    assert tree.to_nested() == nested
    assert BinaryTree.from_labels(tree.leaves) == tree
    labels = naive_labels(nested)
    assert set(tree.nodes) == set(labels)
    assert tree.leaves == tuple(sorted(s for s, sub in labels.items() if not sub))
    assert len(tree.splits) == tree.leaf_count - 1
    for label in tree.nodes:
        start, stop = tree.leaf_range(label)
        assert tree.leaves[start:stop] == tuple(leaf for leaf in tree.leaves if leaf.startswith(label))


def test_perfect_tree_level_order() -> None:
    tree = perfect_tree(3)
    for level in range(4):
        for position in range(1 << level):
            label = format(position, f"0{level}b") if level else ""
            assert tree.node_index[label] == (1 << level) - 1 + position


def _sizes(nested: Nested) -> int:
    return 1 if not nested else sum(_sizes(child) for child in nested)


@pytest.mark.parametrize("leaves", [*range(1, 40), 100, 127, 1000])
def test_balanced_tree_splits_ceil_floor(leaves: int) -> None:
    tree = balanced_tree(leaves)
    assert tree.leaf_count == leaves
    assert set(tree.child_counts) <= {0, 2}
    for label in tree.splits:
        left, right = (tree.leaf_range(label + b) for b in "01")
        total = right[1] - left[0]
        assert left[1] - left[0] == (total + 1) // 2 and right[1] - right[0] == total // 2
    assert tree.height == (leaves - 1).bit_length()  # the heights are integer, never float logs


def test_balanced_power_of_two_is_perfect() -> None:
    for depth in range(7):
        assert balanced_tree(1 << depth) == perfect_tree(depth)


def test_contract_chains() -> None:
    chained = BinaryTree.from_nested(((((),),((),())),))
    assert contract_chains(chained) == BinaryTree.from_nested(((), ((), ())))
    assert contract_chains(BinaryTree.from_nested((((),),))) == BinaryTree.from_nested(())


@pytest.mark.parametrize(
    ("labels", "error", "match"),
    [
        (("0", "2"), ValueError, "characters 0 and 1"),
        (("0", "0"), ValueError, "distinct"),
        (("0", "01", "1"), ValueError, "prefix-free"),
        (("1", "0"), ValueError, "natural"),
        (("1",), ValueError, "only child"),
        (("00", "01", "11"), ValueError, "only child"),
        ((), ValueError, "at least one"),
        (("0", 1), TypeError, "bit strings"),
        ("01", TypeError, "not one string"),
    ],
)
def test_bad_labels(labels: object, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        BinaryTree.from_labels(labels)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("nested", "error", "match"),
    [(((), (), ()), ValueError, "0, 1 or 2 children"), (((), 3), TypeError, "nested tuples"), (None, TypeError, "nested")],
)
def test_bad_nested(nested: object, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        BinaryTree.from_nested(nested)


@pytest.mark.parametrize(
    ("counts", "error"),
    [([3, 0, 0, 0], ValueError), ([2, 0], ValueError), ([0, 0], ValueError), ([], ValueError),
     ([2, 0, 2, 0], ValueError), ([1.0, 0], TypeError), ([True, 0], TypeError), (5, TypeError)],
)
def test_bad_child_counts(counts: object, error: type[Exception]) -> None:
    with pytest.raises(error, match="child_counts"):
        BinaryTree(counts)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [0, -3])
def test_balanced_tree_bad_leaves(bad: int) -> None:
    with pytest.raises(ValueError, match="leaves"):
        balanced_tree(bad)


@pytest.mark.parametrize("bad", [2.5, True, "4", None])
def test_balanced_tree_leaves_type(bad: object) -> None:
    with pytest.raises(TypeError, match="leaves"):
        balanced_tree(bad)  # type: ignore[arg-type]


def test_perfect_tree_bad_depth() -> None:
    with pytest.raises(ValueError, match="depth"):
        perfect_tree(-1)
    with pytest.raises(TypeError, match="depth"):
        perfect_tree(1.5)  # type: ignore[arg-type]


def test_bad_node_label() -> None:
    with pytest.raises(ValueError, match="label"):
        BinaryTree.from_nested(SMALL).children("00")


# ---- the sampler ------------------------------------------------------------------------------------------


@given(trees, st.integers(0, 2**32 - 1), st.sampled_from([1.0, 0.3, 7.5]))
@settings(max_examples=60, deadline=None)
def test_sampler_matches_naive_algorithm(nested: Nested, seed: int, sigma: float) -> None:
    tree = BinaryTree.from_nested(nested)
    expected = naive_sampler(nested, sigma, seed)
    nodes = general_tree_nodes(tree, sigma, seed)
    assert nodes.tolist() == [expected[label] for label in tree.nodes]
    assert general_tree_leaves(tree, sigma, seed).tolist() == [expected[label] for label in tree.leaves]


@pytest.mark.parametrize("depth", range(7))
def test_perfect_tree_equals_cascade_bit_for_bit(depth: int) -> None:
    tree = perfect_tree(depth)
    assert np.array_equal(general_tree_nodes(tree, 2.5, 11), cascade_tree(depth, 2.5, 11))
    assert np.array_equal(general_tree_leaves(tree, 2.5, 11), cascade_leaves(depth, 2.5, 11))


def test_batch_equals_successive_calls_and_leaves_equal_nodes() -> None:
    tree = balanced_tree(11)
    batch = general_tree_nodes(tree, 1.3, 5, size=6)
    generator = np.random.default_rng(5)
    assert np.array_equal(batch, np.stack([general_tree_nodes(tree, 1.3, generator) for _ in range(6)]))
    assert np.array_equal(general_tree_leaves(tree, 1.3, 5, size=6), batch[:, tree.leaf_node_indices])
    assert general_tree_leaves(tree, 1.3, 5).shape == (11,)
    assert batch.shape == (6, tree.node_count)


def test_only_child_and_consistency() -> None:
    tree = BinaryTree.from_nested(((((),), ((), ())),))
    values = general_tree_nodes(tree, 1.0, 3, size=50)
    index = tree.node_index
    for label in tree.nodes:
        if len(tree.children(label)) == 1:
            assert np.array_equal(values[:, index[label]], values[:, index[label + "0"]])
    assert float(consistency_defects(tree, values).max()) <= 1.0


@pytest.mark.parametrize("sigma", [0, -1.0, math.inf, math.nan, "x"])
def test_bad_sigma(sigma: object) -> None:
    with pytest.raises((ValueError, TypeError), match="sigma"):
        general_tree_leaves(balanced_tree(3), sigma, 0)  # type: ignore[arg-type]


def test_bad_sampler_arguments() -> None:
    with pytest.raises(TypeError, match="tree"):
        general_tree_leaves(((), ()), 1.0, 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rng"):
        general_tree_nodes(balanced_tree(3), 1.0, 1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="size"):
        general_tree_nodes(balanced_tree(3), 1.0, 0, size=0)
    with pytest.raises(ValueError, match="node_values"):
        consistency_defects(balanced_tree(3), np.zeros(4))


# ---- the exact twin ---------------------------------------------------------------------------------------


def test_small_tree_by_hand() -> None:
    """X_0 = X/2 + Z, X_1 = X/2 − Z, X_10 = X_1/2 + Z', X_11 = X_1/2 − Z' with Var Z = Var Z' = 3/4:
    Cov(X_0, X_10) = Cov(X_0, X_1)/2 = −1/4 and Cov(X_10, X_11) = 1/4 − 3/4 = −1/2."""
    tree = BinaryTree.from_nested(SMALL)
    covariance = ((F(1), F(-1, 4), F(-1, 4)), (F(-1, 4), F(1), F(-1, 2)), (F(-1, 4), F(-1, 2), F(1)))
    assert exact.covariance(tree) == covariance
    # 1 1ᵀ + (h_root h_rootᵀ + h_1 h_1ᵀ)/3 with h_root = (1, −1, −1), h_1 = (0, 1, −1)
    precision = ((F(4, 3), F(2, 3), F(2, 3)), (F(2, 3), F(5, 3), F(1)), (F(2, 3), F(1), F(5, 3)))
    assert exact.precision(tree) == precision
    assert linalg.matmul(covariance, precision) == linalg.identity(3)
    assert exact.split_depths(tree) == (1, 2, 2)
    # add_remove: the largest diagonal entry; substitution: pairs (0,1), (0,2) give 4/3 + 5/3 − 4/3 = 5/3,
    # the pair (1,2) gives 5/3 + 5/3 − 2 = 4/3
    assert exact.sensitivity_squared(tree, "add_remove") == F(5, 3)
    assert exact.sensitivity_squared(tree, "substitution") == F(5, 3)
    assert set(exact.node_variances(tree).values()) == {1}


@pytest.mark.parametrize("depth", range(5))
def test_perfect_tree_gives_definition_3_1(depth: int) -> None:
    tree = perfect_tree(depth)
    assert exact.covariance(tree) == cip_matrix.covariance(depth)
    assert exact.sensitivity_squared(tree, "add_remove") == 1 + F(depth, 3)
    if depth:
        assert exact.sensitivity_squared(tree, "substitution") == F(2 + 2 * depth, 3)


@given(trees)
@settings(max_examples=40, deadline=None)
def test_exact_properties_on_random_trees(nested: Nested) -> None:
    tree = BinaryTree.from_nested(nested)
    covariance = exact.covariance(tree)
    assert covariance == exact.covariance_closed_form(tree)
    assert set(exact.node_variances(tree).values()) == {1}
    assert set(exact.node_variances_from_leaves(tree).values()) == {1}
    assert exact.is_consistent(tree)
    precision = exact.precision(tree)
    assert precision == exact.precision_closed_form(tree)
    assert covariance == exact.covariance(contract_chains(tree))
    for relation in NEIGHBOURS[: 2 if tree.leaf_count > 1 else 1]:
        assert exact.sensitivity_squared(tree, relation) == mahalanobis_sensitivity_squared(precision, relation)


def test_exact_bad_inputs() -> None:
    with pytest.raises(TypeError, match="tree"):
        exact.covariance(((), ()))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="substitution"):
        exact.sensitivity_squared(balanced_tree(1), "substitution")
    with pytest.raises(ValueError, match="neighbours"):
        exact.sensitivity_squared(balanced_tree(3), "swap")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="leaves"):
        exact.covariance(balanced_tree(exact.MAX_DENSE_LEAVES + 1))


# ---- padding ----------------------------------------------------------------------------------------------


def test_padding_by_hand() -> None:
    # m = 5: the balanced tree has leaves 000, 001, 01, 10, 11 (split depths 3, 3, 2, 2, 2); the root pairs a
    # depth-3 leaf with a depth-2 leaf: (2 + 3 + 2)/3 = 7/3, below the padded tree's (2 + 2·3)/3 = 8/3
    comparison = exact.compare_with_padding(5)
    assert comparison.padded_depth == 3
    assert comparison.balanced_add_remove == comparison.padded_add_remove == 2
    assert comparison.balanced_substitution == F(7, 3)
    assert comparison.padded_substitution == F(8, 3)
    identity = linalg.identity(4)
    stats = exact.range_variance_statistics(identity)
    # with independent unit cells a range's variance is its length: max 4 at [0, 3], total Σ L (5 − L) = 20
    assert (stats.maximum, stats.argmax, stats.total) == (F(4), (0, 3), F(20))


@pytest.mark.parametrize("leaves", range(1, 21))
def test_truncated_padding_never_worse(leaves: int) -> None:
    comparison = exact.compare_with_padding(leaves)
    assert comparison.truncated_add_remove <= comparison.padded_add_remove
    if leaves & (leaves - 1) == 0:
        assert comparison.truncated_add_remove == comparison.padded_add_remove
    if leaves > 1:
        assert comparison.truncated_substitution is not None and comparison.padded_substitution is not None
        assert comparison.truncated_substitution <= comparison.padded_substitution
    # the balanced tree never needs more than padding
    assert comparison.balanced_add_remove == comparison.padded_add_remove


@given(st.integers(1, 5000))
@settings(max_examples=25, deadline=None)
def test_balanced_sensitivity_closed_form(leaves: int) -> None:
    # d = ceil(log2 m) by integer arithmetic; the substitution value drops by 1/3 exactly when the root's
    # right subtree (floor(m/2) leaves) is a full level shallower, i.e. m = 2**(d-1) + 1
    depth = (leaves - 1).bit_length()
    tree = balanced_tree(leaves)
    assert exact.sensitivity_squared(tree, "add_remove") == 1 + F(depth, 3)
    if leaves > 1:
        drop = F(1, 3) if depth >= 2 and leaves == 2 ** (depth - 1) + 1 else F(0)
        assert exact.sensitivity_squared(tree, "substitution") == F(2 + 2 * depth, 3) - drop


def test_exact_inverse_matches_elimination() -> None:
    matrix = exact.padded_covariance(7)
    assert exact.exact_inverse(matrix) == linalg.inverse(matrix)


# ---- verification checks (small budgets) ------------------------------------------------------------------


def test_exhaustive_checks_pass() -> None:
    for check in (
        checks.check_node_variances_exact,
        checks.check_consistency_exact,
        checks.check_covariance_formula,
        checks.check_precision_formula,
        checks.check_sensitivity_formula,
        checks.check_general_tree_linear_maps,
    ):
        result = check(5, 6)
        assert result.holds, result.detail
        assert result.cases > 40
    assert checks.check_chain_invariance(7).holds
    assert checks.check_balanced_sensitivity(40, 12).holds
    assert checks.check_general_tree_structure(5, 6, samples=5).holds


def test_shape_counts() -> None:
    # Catalan numbers count full binary trees by leaves, Motzkin numbers unary-binary trees by nodes
    assert [len(checks.full_binary_shapes(m)) for m in range(1, 8)] == [1, 1, 2, 5, 14, 42, 132]
    assert [len(checks.unary_binary_shapes(n)) for n in range(1, 9)] == [1, 1, 2, 4, 9, 21, 51, 127]


@pytest.mark.parametrize("nested", [SMALL, ((((),), ((), ())), ((), ())), ((((), ()), ((), ())), ())])
def test_statistical_covariance(nested: Nested) -> None:
    result = checks.check_general_tree_covariance(BinaryTree.from_nested(nested), 1.7, samples=20_000, seed=4)
    assert result.holds, result.detail


def test_statistical_check_has_power() -> None:
    """Draws of the perfect 4-leaf tree whitened with the covariance of the caterpillar ((((), ()), ()), ()):
    Cov(leaf 2, leaf 3) is −1/2 in C_2 but −1/4 for the caterpillar. The third whitened coordinate then has
    variance 4/3 (computed from the two exact matrices), so its sum of squares over 20 000 samples is
    (4/3) χ²_20000; the battery fails to reject only if that sub-test passes, i.e. χ²_20000 < (3/4) times the
    rejection threshold (chi2.isf(1e-9/74, 20000) ≈ 21361), which has probability about 1e-101."""
    caterpillar = BinaryTree.from_nested(((((), ()), ()), ()))
    draws = general_tree_leaves(perfect_tree(2), 1.0, 8, size=20_000)
    white = draws @ ldl_whitening(exact.covariance(caterpillar), 1.0).T
    assert not whitened_normal_test(white).holds
