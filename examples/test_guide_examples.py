"""The worked examples of docs/validating.md, run against the implementations written for them (correct and
planted-faulty). Each example's glue — the lines a user writes besides their own code — sits between
``# glue:`` and ``# end glue`` and is at most ten lines (:func:`test_glue_is_at_most_ten_lines` counts them)."""

from __future__ import annotations

import ast
import inspect
from fractions import Fraction

import numpy as np
import pytest

from examples import (
    discrete_laplace_release,
    float32_aggregator,
    float_accountant,
    gaussian_accountant,
    gaussian_calibrators,
    integer_bary_tree,
    restarted_tree_counter,
    user_heights,
    zcdp_converter,
)
from reference.audit.calibration import audit_discrete_laplace
from reference.audit.linear.participation import once_per_block
from reference.audit.linear.probe_linear import probe_linear_map
from reference.testing import (
    assert_calibration_safe,
    assert_conversion,
    assert_gaussian_renyi,
    assert_height_function,
    assert_linear_mechanism_private,
    assert_prefix_counter,
)


def restarted_counter_glue(counts: object) -> object:
    user = restarted_tree_counter
    # glue:
    return assert_prefix_counter(
        lambda draws: counts([0] * user.HORIZON, draws),  # the noise: the counter run on an all-zero stream
        draws=user.DRAWS, horizon=user.HORIZON, noise="gaussian", scale=user.SIGMA,
        rho=user.CLAIMED_RHO, participation=once_per_block(block=user.BLOCK),
    )
    # end glue


def integer_tree_glue(scale: object) -> object:
    user = integer_bary_tree
    # glue:
    zero_leaves, zero_noise = np.zeros(user.LEAVES, np.int64), np.zeros(user.NODES, np.int64)
    workload = probe_linear_map(lambda x: user.release(x, zero_noise), draws=user.LEAVES, inputs="integer")
    noise = probe_linear_map(lambda z: user.release(zero_leaves, z), draws=user.NODES, inputs="integer")
    return assert_linear_mechanism_private(noise, workload, "discrete-laplace", scale=scale, epsilon=user.EPSILON)
    # end glue


def float32_aggregator_glue(sigma: object) -> object:
    user = float32_aggregator
    # glue:  (batch=True: every unit draw in one call, the function is vectorised over the last axis)
    def zeros(rows: int, like: np.ndarray) -> np.ndarray:
        return np.zeros((rows, *like.shape[1:]), np.float32)
    workload = probe_linear_map(lambda x: user.running_means(x, zeros(user.NODES, x)), draws=user.HORIZON,
                                inputs="float32", batch=True)
    noise = probe_linear_map(lambda z: user.running_means(zeros(user.HORIZON, z), z), draws=user.NODES,
                             inputs="float32", batch=True)
    return assert_linear_mechanism_private(noise, workload, "gaussian", scale=Fraction(sigma), epsilon=user.EPSILON,
                                           delta=user.DELTA)
    # end glue


def calibrator_glue(calibrator: object) -> object:
    # glue:
    grid = [(Fraction(eps), Fraction(1, 10**exponent)) for eps in ("1/4", "1/2", "1", "2", "4") for exponent in (5, 6, 8)]
    return assert_calibration_safe(calibrator, grid)  # type: ignore[arg-type]
    # end glue


def accountant_glue(rdp: object) -> object:
    user = gaussian_accountant
    # glue:  (STEPS compositions at Δ = 1 are one Gaussian mechanism at Δ² = STEPS)
    return assert_gaussian_renyi(sigma=user.SIGMA, sensitivity_squared=user.STEPS, rdp=rdp)
    # end glue


def float_accountant_glue(rdp: object) -> object:
    user = float_accountant
    # glue:  (a float accountant is judged with a relative tolerance: one ulp is not a privacy defect)
    return assert_gaussian_renyi(sigma=user.SIGMA, sensitivity_squared=user.STEPS, rdp=rdp, rtol=1e-12)
    # end glue


def converter_glue(epsilon_for: object) -> None:
    user = zcdp_converter
    # glue:
    for rho, delta in user.GRID:
        assert_conversion(rho=rho, epsilon=epsilon_for(rho, delta), delta=delta)  # type: ignore[operator]
    # end glue


def discrete_laplace_glue(scale_for: object) -> object:
    user = discrete_laplace_release
    # glue:
    scale = scale_for(user.EPSILON, user.SENSITIVITY)  # type: ignore[operator]
    verdict = audit_discrete_laplace(scale=scale, sensitivity=user.SENSITIVITY, epsilon=user.EPSILON)
    assert verdict.holds, verdict.summary()
    return verdict
    # end glue


def leaf_layers_glue(layers: object) -> object:
    # glue:  (the function takes the number of leaves; real code is called on a range it can allocate)
    return assert_height_function(layers, arity=5, argument="leaves", horizons=(1, 10**6))  # type: ignore[arg-type]
    # end glue


def test_float_accountant_with_rtol() -> None:
    # the premise, derived here: the float curve is below the exact STEPS·α/(2σ²) at the first order, α = 5/4
    exact = 10 * Fraction(5, 4) / (2 * Fraction(float_accountant.SIGMA) ** 2)
    assert Fraction(float_accountant.rdp(1.25)) < exact
    with pytest.raises(AssertionError, match=r"relative excess [0-9.]+e-1[67], rtol = 0"):
        assert_gaussian_renyi(sigma=float_accountant.SIGMA, sensitivity_squared=10, rdp=float_accountant.rdp)
    float_accountant_glue(float_accountant.rdp)
    with pytest.raises(AssertionError, match=r"relative excess 2\.04e-02, rtol = 1\.00e-12"):
        float_accountant_glue(float_accountant.rdp_undercount)


def test_zcdp_converter() -> None:
    converter_glue(zcdp_converter.epsilon_for)
    with pytest.raises(AssertionError, match=r"0\.05f-zCDP => \(1\.225.*f, 1e-06f\)-DP: fails - a Gaussian with this guarantee needs "
                                             r"a larger delta"):
        converter_glue(zcdp_converter.epsilon_for_faulty)


def test_discrete_laplace_calibration() -> None:
    # t = Δ/ε = 6: ε = Δ/t = 1/2 exactly; the faulty t = 2 gives ε = 3/2, relative excess 2
    assert discrete_laplace_glue(discrete_laplace_release.scale_for).claim_check.verdict == "holds"  # type: ignore[attr-defined]
    with pytest.raises(AssertionError, match=r"1/2-DP FAILS; smallest epsilon = 1\.5.*relative excess 2\.00e\+00"):
        discrete_laplace_glue(discrete_laplace_release.scale_for_faulty)


def test_leaf_count_height() -> None:
    assert leaf_layers_glue(user_heights.exact_leaf_layers).horizons_checked > 2000  # type: ignore[attr-defined]
    with pytest.raises(AssertionError, match=r"over-count \(conservative\) at leaf count 125: returned 4, the exact "
                                             r"height is 3"):
        leaf_layers_glue(user_heights.float_leaf_layers)


def test_restarted_counter() -> None:
    verdict = restarted_counter_glue(restarted_tree_counter.noisy_counts)
    assert verdict.l2_sensitivity_squared == 16  # type: ignore[attr-defined]
    with pytest.raises(AssertionError, match="not private at all"):
        restarted_counter_glue(restarted_tree_counter.noisy_counts_shared_seed)


def test_integer_tree_with_consistency() -> None:
    assert integer_tree_glue(integer_bary_tree.SCALE).epsilon == 1  # type: ignore[attr-defined]
    with pytest.raises(AssertionError, match=r"claimed 1-DP, but epsilon = 3/2 \(= 1\.5\) \(epsilon/claimed - 1 = 5.00e-01\)"):
        integer_tree_glue(integer_bary_tree.FAULTY_SCALE)


def test_float32_aggregator() -> None:
    assert float32_aggregator_glue(float32_aggregator.SIGMA).l2_sensitivity_squared == 7  # type: ignore[attr-defined]
    with pytest.raises(AssertionError, match=r"claimed \(1/2, 1/1000000\)-DP, but .*delta\(epsilon\)/delta - 1"):
        float32_aggregator_glue(float32_aggregator.FAULTY_SIGMA)


def test_gaussian_calibrator() -> None:
    calibrator_glue(gaussian_calibrators.analytic_sigma)
    with pytest.raises(AssertionError, match=r"unsafe at \d+ of 15 grid points \(rtol = 0\)\n  .*sigma/sigma\* - 1"):
        calibrator_glue(gaussian_calibrators.analytic_sigma_early_stop)


def test_accountant_rdp_curve() -> None:
    accountant_glue(gaussian_accountant.rdp_gaussian)
    with pytest.raises(AssertionError, match=r"fails - at alpha = 5/4: certified RDP\(alpha = 5/4\) = 25/64 .*"
                                             r"relative excess 2\.04e-02, rtol = 0"):
        accountant_glue(gaussian_accountant.rdp_gaussian_undercount)


GLUES = [restarted_counter_glue, integer_tree_glue, float32_aggregator_glue, calibrator_glue, accountant_glue,
         float_accountant_glue, converter_glue, discrete_laplace_glue, leaf_layers_glue]


def glue_lines(function: object) -> int:
    """Lines between ``# glue:`` and ``# end glue``, blank lines and comment-only lines not counted."""
    source = inspect.getsource(function)  # type: ignore[arg-type]
    body = source.split("# glue:", 1)[1].split("# end glue", 1)[0].splitlines()[1:]
    return sum(1 for line in body if line.strip() and not line.strip().startswith("#"))


@pytest.mark.parametrize("glue", GLUES, ids=lambda glue: glue.__name__)
def test_glue_is_at_most_ten_lines(glue: object) -> None:
    ast.parse(inspect.getsource(glue))  # type: ignore[arg-type]
    assert 1 <= glue_lines(glue) <= 10
