"""Numeric Cascade Sampling (CIP Algorithm 1): draw order, structure, covariance, bad inputs.

Statistical tests: each calls a check with false-alarm probability 1e-9 (``DEFAULT_ALPHA``); this file runs 7
of them (5 leaf-covariance, 2 node-variance), so its total false-alarm probability is below 1e-8. The power
test (wrong covariances must be rejected) has a miss probability far below 1e-100 (see its comment).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_verification.cip.checks import cascade as checks

import reference.cip.numeric.cascade as cascade_module
from reference.cip.numeric.cascade import cascade_leaves, cascade_tree, level_view
from reference.core.rng import as_generator


def naive_tree(depth: int, sigma: float, seed: int) -> np.ndarray:
    """Algorithm 1 written directly from the documented draw order and arithmetic, level by level with whole
    arrays (no chunking, no in-place tricks): root ``sigma * z``, then per level one vector of normals."""
    gen = np.random.default_rng(seed)
    scale = math.sqrt(3.0) / 2.0 * sigma
    levels = [np.array([sigma * gen.standard_normal()])]
    for level in range(depth):
        parents = levels[-1]
        noise = gen.standard_normal(1 << level) * scale
        children = np.empty(2 << level)
        children[0::2] = parents * 0.5 + noise
        children[1::2] = parents * 0.5 - noise
        levels.append(children)
    return np.concatenate(levels)


# ---- the rng helper ---------------------------------------------------------------------------------------


def test_as_generator_accepts_generator_seed_and_none() -> None:
    gen = np.random.default_rng(3)
    assert as_generator(gen) is gen
    assert as_generator(5).standard_normal() == np.random.default_rng(5).standard_normal()
    assert isinstance(as_generator(None), np.random.Generator)
    assert isinstance(as_generator(np.int64(4)), np.random.Generator)


@pytest.mark.parametrize("bad", ["1", 1.5, True, [1], np.random.RandomState(0)])
def test_as_generator_rejects_other_kinds(bad: object) -> None:
    with pytest.raises(TypeError, match="my_rng"):
        as_generator(bad, "my_rng")


def test_as_generator_rejects_negative_seed() -> None:
    with pytest.raises(ValueError, match="rng"):
        as_generator(-1)


# ---- draw order and arithmetic ----------------------------------------------------------------------------


@pytest.mark.parametrize("depth", range(0, 9))
@pytest.mark.parametrize("sigma", [1.0, 0.3, 17.25])
def test_tree_follows_documented_draw_order(depth: int, sigma: float) -> None:
    tree = cascade_tree(depth, sigma, 100 + depth)
    assert np.array_equal(tree, naive_tree(depth, sigma, 100 + depth))
    assert np.array_equal(cascade_leaves(depth, sigma, 100 + depth), tree[(1 << depth) - 1 :])


@pytest.mark.parametrize("chunk", [1, 2, 4])
def test_chunked_in_place_sweep_matches_whole_level_computation(monkeypatch: pytest.MonkeyPatch, chunk: int) -> None:
    # Tiny blocks make every level cross many block boundaries, so the in-place overlap logic is exercised.
    monkeypatch.setattr(cascade_module, "CHUNK", chunk)
    for depth in range(0, 8):
        expected = naive_tree(depth, 1.5, depth)
        assert np.array_equal(cascade_tree(depth, 1.5, depth), expected)
        assert np.array_equal(cascade_leaves(depth, 1.5, depth), expected[(1 << depth) - 1 :])


def test_large_depth_crosses_real_chunk_boundary() -> None:
    depth = 17  # 2**16 parents on the last level: two blocks of CHUNK = 2**15
    assert (1 << (depth - 1)) > cascade_module.CHUNK
    expected = naive_tree(depth, 2.0, 9)
    assert np.array_equal(cascade_leaves(depth, 2.0, 9), expected[(1 << depth) - 1 :])


@pytest.mark.parametrize("depth", [0, 1, 5, 10])
def test_draws_exactly_n_normals(depth: int) -> None:
    used = np.random.default_rng(21)
    cascade_leaves(depth, 1.0, used)
    reference = np.random.default_rng(21)
    reference.standard_normal(1 << depth)
    assert used.standard_normal() == reference.standard_normal()


def test_seed_and_generator_agree_and_generator_advances() -> None:
    assert np.array_equal(cascade_leaves(6, 1.0, 8), cascade_leaves(6, 1.0, np.random.default_rng(8)))
    gen = np.random.default_rng(8)
    first, second = cascade_leaves(6, 1.0, gen), cascade_leaves(6, 1.0, gen)
    assert not np.array_equal(first, second)


def test_depth_zero_is_one_scaled_normal() -> None:
    assert cascade_leaves(0, 2.5, 4)[0] == 2.5 * np.random.default_rng(4).standard_normal()


def test_shapes_and_dtype() -> None:
    assert cascade_leaves(4, 1.0, 0).shape == (16,)
    assert cascade_tree(4, 1.0, 0).shape == (31,)
    assert cascade_leaves(4, 1.0, 0).dtype == np.float64


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 9), st.integers(-20, 20), st.integers(0, 2**32))
def test_power_of_two_sigma_scales_exactly(depth: int, exponent: int, seed: int) -> None:
    # Multiplying every input by 2**e multiplies every rounded result by 2**e exactly (no over/underflow here).
    scaled = cascade_tree(depth, 2.0**exponent, seed)
    assert np.array_equal(scaled, cascade_tree(depth, 1.0, seed) * 2.0**exponent)


# ---- structure and covariance -----------------------------------------------------------------------------


def test_tree_structure_exhaustive_to_depth_12() -> None:
    result = checks.check_tree_structure(max_depth=12, sigma=1.0, seed=0)
    assert result.holds, result.detail
    assert result.cases == sum((1 << d) - 1 for d in range(13))


def test_tree_structure_other_sigma() -> None:
    result = checks.check_tree_structure(max_depth=9, sigma=1e-3, seed=5)
    assert result.holds, result.detail


@settings(max_examples=300, deadline=None)
@given(
    st.floats(min_value=-1e300, max_value=1e300, allow_nan=False, allow_subnormal=True),
    st.floats(min_value=-1e300, max_value=1e300, allow_nan=False, allow_subnormal=True),
)
def test_split_rounding_bound_holds_for_any_split(parent: float, y: float) -> None:
    # The bound of split_rounding_bound, for arbitrary (also subnormal) parents and noises, with the split's
    # own arithmetic; the residual is computed exactly in rationals.
    half = parent * 0.5
    left, right = half + y, half - y
    residual = abs(Fraction(left) + Fraction(right) - Fraction(parent))
    assert residual <= checks.split_rounding_bound(left, right)


def test_split_rounding_residual_can_be_nonzero() -> None:
    # So the bound is not vacuous: with y = 3e-17 the left child rounds back down to 1/2 (half an ulp above
    # 1/2 is 5.6e-17) and the right child rounds down to 1/2 - 2**-54 (half an ulp below 1/2 is 2.8e-17).
    left, right = 0.5 + 3e-17, 0.5 - 3e-17
    assert (left, right) == (0.5, 0.5 - 2.0**-54)
    residual = abs(Fraction(left) + Fraction(right) - 1)
    assert 0 < residual <= checks.split_rounding_bound(left, right)


@pytest.mark.parametrize("depth", range(0, 7))
@pytest.mark.parametrize("sigma", [1.0, 0.37, 1000.0])
def test_linear_map_covariance_is_sigma_squared_c(depth: int, sigma: float) -> None:
    result = checks.check_linear_map(depth, sigma)
    assert result.holds, result.detail


@pytest.mark.parametrize("depth", range(1, 6))
def test_leaf_covariance_statistical(depth: int) -> None:
    # false-alarm probability 1e-9 per depth
    result = checks.check_leaf_covariance(depth, sigma=1.7, samples=4000, seed=2024 + depth)
    assert result.false_alarm == 1e-9
    assert result.holds, result.detail


@pytest.mark.parametrize("depth", [0, 5])
def test_node_variances_statistical(depth: int) -> None:
    # false-alarm probability 1e-9 per depth
    result = checks.check_node_variances(depth, sigma=0.6, samples=4000, seed=77 + depth)
    assert result.holds, result.detail


def test_haar_whitening_whitens_exactly_up_to_rounding() -> None:
    from reference.cip.exact import matrix as cip_matrix

    depth, sigma = 4, 1.3
    c = np.array([[float(v) for v in row] for row in cip_matrix.covariance(depth)])
    w = checks.haar_whitening(depth, sigma)
    assert np.allclose(w @ (sigma**2 * c) @ w.T, np.eye(16), atol=1e-13, rtol=0)


def ocr_covariance(depth: int) -> np.ndarray:
    """The OCR rendering's reading of Definition 3.1 (off-diagonal exponent 2**i + 1 instead of 2i + 1)."""
    c = np.array([[1.0]])
    for i in range(depth):
        off = 0.5 if i == 0 else 2.0 ** -((2**i) + 1)
        size = c.shape[0]
        c = np.block([[c, -off * np.ones((size, size))], [-off * np.ones((size, size)), c]])
    return c


def test_statistical_check_rejects_wrong_covariances() -> None:
    # Power: samples with covariance I (independent leaves) and with the OCR reading of C_4 must be rejected.
    # For the OCR reading the all-ones Haar coordinate has variance 1.75 instead of 1: its chi-square statistic
    # sits about 30 standard deviations out with 4000 samples, so a miss is far below 1e-100.
    gen = np.random.default_rng(5)
    depth = 4
    w = checks.haar_whitening(depth, 1.0)
    independent = gen.standard_normal((4000, 16))
    assert not checks.whitened_normal_test(independent @ w.T).holds
    factor = np.linalg.cholesky(ocr_covariance(depth))
    wrong = gen.standard_normal((4000, 16)) @ factor.T
    assert not checks.whitened_normal_test(wrong @ w.T).holds


def test_ocr_and_latex_readings_agree_below_depth_4() -> None:
    # 2**i + 1 == 2i + 1 for i = 0 (via the C_1 base case), 1 and 2, so the readings first differ at C_4.
    from reference.cip.exact import matrix as cip_matrix

    for depth in range(4):
        exact = np.array([[float(v) for v in row] for row in cip_matrix.covariance(depth)])
        assert np.array_equal(ocr_covariance(depth), exact)
    exact4 = np.array([[float(v) for v in row] for row in cip_matrix.covariance(4)])
    assert not np.array_equal(ocr_covariance(4), exact4)


# ---- level_view -------------------------------------------------------------------------------------------


def test_level_view_addresses_level_order() -> None:
    tree = np.arange(31.0)
    assert level_view(tree, 4, 0).tolist() == [0.0]
    assert level_view(tree, 4, 2).tolist() == [3.0, 4.0, 5.0, 6.0]
    view = level_view(tree, 4, 4)
    assert view.shape == (16,) and view.base is tree


def test_level_view_rejects_bad_arguments() -> None:
    tree = np.zeros(31)
    with pytest.raises(ValueError, match="level"):
        level_view(tree, 4, 5)
    with pytest.raises(TypeError, match="level"):
        level_view(tree, 4, 1.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="tree"):
        level_view(np.zeros(30), 4, 1)
    with pytest.raises(ValueError, match="tree"):
        level_view(np.zeros((31, 1)), 4, 1)
    with pytest.raises(TypeError, match="tree"):
        level_view([0.0] * 31, 4, 1)  # type: ignore[arg-type]


# ---- bad inputs -------------------------------------------------------------------------------------------

SAMPLERS = [cascade_leaves, cascade_tree]


@pytest.mark.parametrize("sampler", SAMPLERS)
@pytest.mark.parametrize("depth", [-1, 41])
def test_depth_out_of_range(sampler: object, depth: int) -> None:
    with pytest.raises(ValueError, match="depth"):
        sampler(depth, 1.0, 0)  # type: ignore[operator]


@pytest.mark.parametrize("sampler", SAMPLERS)
@pytest.mark.parametrize("depth", [1.5, 2.0, True, "3", None])
def test_depth_not_an_integer(sampler: object, depth: object) -> None:
    with pytest.raises(TypeError, match="depth"):
        sampler(depth, 1.0, 0)  # type: ignore[operator]


@pytest.mark.parametrize("sampler", SAMPLERS)
@pytest.mark.parametrize("sigma", [0, 0.0, -1.0, math.inf, -math.inf, math.nan, "abc"])
def test_sigma_must_be_positive_finite(sampler: object, sigma: object) -> None:
    with pytest.raises(ValueError, match="sigma"):
        sampler(3, sigma, 0)  # type: ignore[operator]


@pytest.mark.parametrize("sampler", SAMPLERS)
@pytest.mark.parametrize("sigma", [None, [1.0], True])
def test_sigma_wrong_kind(sampler: object, sigma: object) -> None:
    with pytest.raises(TypeError, match="sigma"):
        sampler(3, sigma, 0)  # type: ignore[operator]


@pytest.mark.parametrize("sampler", SAMPLERS)
@pytest.mark.parametrize("rng", ["seed", 1.5, object()])
def test_bad_rng(sampler: object, rng: object) -> None:
    with pytest.raises(TypeError, match="rng"):
        sampler(3, 1.0, rng)  # type: ignore[operator]
