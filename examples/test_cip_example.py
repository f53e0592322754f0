"""Worked example (CIP): test your own Cascade Sampling against the oracle with ``reference.testing``.

``my_cascade`` is what a user would write: depth-2 Cascade Sampling with its standard-normal draws passed in
(root first, then one draw per split, level order). The test recovers its noise map exactly from float probes,
calibrates σ with the project's exact calibration, and asserts (ε, δ)-DP; the faulty variant (σ² passed where σ
is meant, see ``verification/planted/variance_for_std_cascade.py``) is caught where it hurts, at a σ below 1 (ε = 20).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from reference_verification.planted.my_cascade import my_cascade

from reference.audit.linear.probe import probe_float_noise_matrix
from reference.cip.calibration import calibrate_cascade
from reference.testing import assert_linear_mechanism_private

EPSILON, DELTA = Fraction(20), Fraction(1, 10**3)  # σ ≈ 0.32: here σ² < σ under-noises


def _audit(sigma_used: Fraction) -> None:
    probed = probe_float_noise_matrix(my_cascade, 4)  # the map of the unit-σ sampler, exactly
    identity = [[int(i == j) for j in range(4)] for i in range(4)]
    assert_linear_mechanism_private(probed.matrix, identity, "gaussian", scale=sigma_used, epsilon=EPSILON, delta=DELTA,
                                    draw_variances=probed.draw_variances)


def test_my_cascade_with_the_exact_sigma_is_private() -> None:
    sigma = calibrate_cascade(2, epsilon=EPSILON, delta=DELTA).sigma_exact.sigma  # certified sufficient
    _audit(sigma)


def test_passing_the_variance_for_the_standard_deviation_is_caught() -> None:
    sigma = calibrate_cascade(2, epsilon=EPSILON, delta=DELTA).sigma_exact.sigma
    assert sigma < 1
    with pytest.raises(AssertionError, match=r"claimed \(20, 1/1000\)-DP, but"):
        _audit(sigma * sigma)  # the faulty implementation's noise scale
