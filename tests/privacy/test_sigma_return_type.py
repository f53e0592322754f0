"""One return type for σ calibrations: each is a CertifiedReal whose upper end is a certified-sufficient σ."""

from __future__ import annotations

from fractions import Fraction

from reference.cip.privacy import sigma_theorem_3_8, sigma_theorem_3_9
from reference.cip.sensitivity import cascade_sensitivity_squared
from reference.core.certified import CertifiedReal
from reference.privacy.gaussian import (
    check_gaussian,
    sigma_classical,
    sigma_exact,
)


def test_every_sigma_calibration_is_a_certified_real_with_a_sufficient_upper_end() -> None:
    epsilon, delta, depth = Fraction(1, 2), Fraction(1, 10**6), 10
    d2 = cascade_sensitivity_squared(depth, "add_remove")
    results = {
        "exact": sigma_exact(epsilon=epsilon, delta=delta, sensitivity_squared=d2),
        "classical": sigma_classical(epsilon=epsilon, delta=delta, sensitivity_squared=d2),
        "Theorem 3.8": sigma_theorem_3_8(epsilon=epsilon, delta=delta, max_precision_diagonal=d2),
        "Theorem 3.9": sigma_theorem_3_9(depth, epsilon=epsilon, delta=delta),
    }
    for name, sigma in results.items():
        assert isinstance(sigma, CertifiedReal), name
        # an independent certified check of the Gaussian profile at the upper end
        assert check_gaussian(sigma=sigma.upper, epsilon=epsilon, delta=delta, sensitivity_squared=d2).holds, name
    exact = results["exact"]
    assert exact.sigma == exact.upper and exact.sigma_below == exact.lower
    assert not check_gaussian(
        sigma=exact.lower, epsilon=epsilon, delta=delta, sensitivity_squared=d2
    ).holds  # the lower end is certified insufficient
    # the formulas are sufficient, not optimal: each upper end is at least the exact optimum's lower end
    assert all(sigma.upper >= exact.lower for sigma in results.values())
