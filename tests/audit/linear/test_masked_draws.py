"""Draws with infinite variance (nodes with a zero budget): their directions are projected out exactly."""

from __future__ import annotations

from fractions import Fraction

import pytest

from reference.audit.linear.audit import audit_linear_noise
from reference.audit.linear.covariance import kary_prefix_workload
from reference.audit.linear.masked_draws import left_null_basis


def test_two_noisy_copies_one_masked() -> None:
    # y1 = x + z0, y2 = x + z1: Δ² = 2 (two independent looks); with z1 of infinite variance only y1 counts
    both = [[1, 0], [0, 1]]
    assert audit_linear_noise(both, [[1], [1]], "gaussian", scale=1).l2_sensitivity_squared == 2
    masked = audit_linear_noise(both, [[1], [1]], "gaussian", scale=1, infinite_variance_draws=[1])
    assert masked.l2_sensitivity_squared == 1 and masked.outputs == 1
    laplace = audit_linear_noise(both, [[1], [1]], "laplace", scale=1, infinite_variance_draws=[1])
    assert laplace.epsilon == 1 and laplace.epsilon_exact


def test_masking_a_tree_root() -> None:
    # prefix counts over 2 steps from a 3-node tree (root r, leaves a, b): y1 = a, y2 = r. A zero-budget root
    # leaves y1 only: input 1 does not move it (Δ² over the inputs is 1, from input 0)
    noise = [[0, 1, 0], [1, 0, 0]]
    workload = kary_prefix_workload(2)
    masked = audit_linear_noise(noise, workload, "gaussian", scale=1, infinite_variance_draws=[0])
    assert masked.l2_sensitivity_squared == 1


def test_left_null_basis_and_refusals() -> None:
    basis = left_null_basis([[Fraction(1), Fraction(1)]], 2)
    assert basis == [[Fraction(-1), Fraction(1)]]
    with pytest.raises(ValueError, match="at least one draw must have finite variance"):
        audit_linear_noise([[1]], [[1]], "gaussian", scale=1, infinite_variance_draws=[0])
    with pytest.raises(ValueError, match="column indices"):
        audit_linear_noise([[1, 0], [0, 1]], [[1], [1]], "gaussian", scale=1, infinite_variance_draws=[5])
    with pytest.raises(ValueError, match="gaussian and laplace"):
        audit_linear_noise([[1, 0], [0, 1]], [[1], [1]], "discrete-laplace", scale=1, infinite_variance_draws=[1])
