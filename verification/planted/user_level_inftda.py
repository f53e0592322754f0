"""FAULTY user-level InfTDA calibration: a user contributes up to m records, and the level sensitivity is taken
as sqrt(2m) (Δ² = 2m) instead of sqrt(2)·m (Δ² = 2m²).

The fault: "m records, each moving one unit between two cells, change the level vector by m such moves; their
squared norms add": true only when the moves hit different cells. All m records can move from the same prefix to
the same other prefix, v = m(e_y' − e_y), ‖v‖² = 2m². With σ² = (Δ²/2)·d/ρ = m d/ρ the release is (mρ)-zCDP, not
ρ-zCDP. The corrected calibration is ``reference.tda.calibration.inftda_sigma_squared(d, rho=ρ, contributions=m)``.
"""

from __future__ import annotations

from fractions import Fraction

FAULTY_LEVEL_SENSITIVITY_SQUARED = "2m"


def level_sensitivity_squared(contributions: int) -> int:
    """Δ² as the faulty implementation computes it: 2m."""
    return 2 * contributions


def sigma_squared(attributes: int, rho: Fraction, contributions: int) -> Fraction:
    """σ² per level as the faulty implementation calibrates it: (Δ²/2)·d/ρ with the faulty Δ²."""
    return Fraction(level_sensitivity_squared(contributions), 2) * attributes / rho
