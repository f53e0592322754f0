"""Worked example (TDA): check a user-level InfTDA calibration against the oracle.

Each level of InfTDA adds N_Z(0, σ²) to a count vector whose ℓ2 sensitivity, when a user contributes m records,
is sqrt(2)·m (``reference.tda.calibration.inftda_level_sensitivity_squared``, brute-forced on small universes).
The faulty calibration of ``verification/planted/user_level_inftda.py`` uses sqrt(2m); the linear-noise audit of one level
(B = identity, integer noise, substitution neighbours, m contributions) shows its ρ per level is m times the claim.
"""

from __future__ import annotations

from fractions import Fraction

from reference_verification.planted import user_level_inftda

from reference.audit.linear.audit import audit_linear_noise
from reference.tda.calibration import inftda_sigma_squared

ATTRIBUTES, RHO, USERS, CELLS = 3, Fraction(1, 2), 3, 4
IDENTITY = [[int(i == j) for j in range(CELLS)] for i in range(CELLS)]


def _level_rho(sigma_squared: Fraction) -> Fraction:
    """ρ of one level at noise scale σ²: the audit at σ = 1 gives Δ²/2, and ρ = Δ²/(2σ²) scales as 1/σ²
    (σ itself is irrational here, while the audit takes an exact σ)."""
    verdict = audit_linear_noise(IDENTITY, IDENTITY, "discrete-gaussian", scale=1, neighbours="substitution",
                                 contributions=USERS)
    assert verdict.private and verdict.rho == USERS * USERS  # Δ²/2 with Δ² = 2m²
    return verdict.rho / sigma_squared


def test_the_corrected_calibration_meets_rho_per_level() -> None:
    assert _level_rho(inftda_sigma_squared(ATTRIBUTES, rho=RHO, contributions=USERS)) == RHO / ATTRIBUTES


def test_the_sqrt_2m_calibration_spends_m_times_the_budget() -> None:
    assert _level_rho(user_level_inftda.sigma_squared(ATTRIBUTES, RHO, USERS)) == USERS * RHO / ATTRIBUTES
