"""reference.testing: the assertion helpers say what is wrong, and the strategies stay in their domains."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from reference_verification.planted.variance_for_std_cascade import faulty_cascade_samples

from reference.cip.numeric.cascade import cascade_leaves
from reference.testing import assert_linear_mechanism_private, assert_samples_match, strategies


def test_assert_linear_mechanism_private_messages() -> None:
    identity = [[1, 0], [0, 1]]
    assert assert_linear_mechanism_private(identity, identity, "laplace", scale=2, epsilon="1/2").epsilon == Fraction(
        1, 2
    )
    with pytest.raises(AssertionError, match=r"claimed 1/4-DP, but epsilon = 1/2"):
        assert_linear_mechanism_private(identity, identity, "laplace", scale=2, epsilon="1/4")
    with pytest.raises(AssertionError, match="not private at all"):
        assert_linear_mechanism_private([[1], [1]], identity, "laplace", scale=2, epsilon=1)


def test_assert_samples_match_catches_variance_for_standard_deviation() -> None:
    # σ = 2: the faulty sampler has variance 16 per leaf instead of 4 (false alarm 1e-9 for the correct one)
    generator = np.random.default_rng(11)
    correct = np.stack([cascade_leaves(2, 2.0, generator) for _ in range(3000)])
    # 12,000 whitened values see a 10% scale error (a 2% one would need about 24,000 runs: inconclusive)
    assert assert_samples_match(correct, "cascade", depth=2, sigma=2.0, alpha=1e-9, smallest_deviation=0.1).holds
    with pytest.raises(AssertionError, match="samples do not match cascade"):
        assert_samples_match(faulty_cascade_samples(2, 2.0, 3000, 12), "cascade", depth=2, sigma=2.0, alpha=1e-9)


@settings(max_examples=30, deadline=None)
@given(
    epsilon=strategies.epsilons(),
    delta=strategies.deltas(),
    depth=strategies.depths(),
    odd=strategies.arities("odd"),
    even=strategies.arities("even"),
    categories=strategies.hierarchies(),
    rho=strategies.rhos(),
)
def test_strategies_stay_in_their_domains(  # type: ignore[no-untyped-def]
    epsilon, delta, depth, odd, even, categories, rho
) -> None:
    assert isinstance(epsilon, Fraction) and epsilon > 0 and isinstance(rho, Fraction) and rho > 0
    assert 0 < delta < 1 and delta.numerator == 1
    assert 0 <= depth <= 8 and odd % 2 == 1 and odd >= 3 and even % 2 == 0
    assert all(size >= 2 for size in categories)


def test_assert_samples_match_takes_any_design_and_algorithm() -> None:
    from reference.audit.samples.design_audit import kary_noise_matrix, linear_design
    from reference.kary.digits import height_for_horizon
    from reference.testing import assert_samples_match

    rng = np.random.default_rng(61)
    matrix = np.array([[float(v) for v in row] for row in kary_noise_matrix(2, 16, 1)])
    samples = rng.laplace(0.0, height_for_horizon(2, 16, offset=False), size=(40_000, 16)) @ matrix.T
    assert_samples_match(samples, "kary", arity=2, epsilon=1, algorithm=1, smallest_deviation=0.05)
    design = linear_design(((Fraction(1),),), "gaussian", 3)
    assert_samples_match(rng.normal(0.0, 3.0, size=(20_000, 1)), "design", design=design, smallest_deviation=0.05)
    with pytest.raises(AssertionError, match="samples do not match linear design"):
        assert_samples_match(rng.normal(0.0, 4.0, size=(20_000, 1)), "design", design=design,
                             smallest_deviation=0.05)
