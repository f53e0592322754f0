"""FAULTY Algorithm 2: the Laplace scale uses sensitivity h − 1 instead of h.

The fault: b = (h − 1)/ε, too little noise. The noise structure is the correct one, so the mechanism is
private, but only with ε' = h·ε/(h − 1) > ε: the claimed ε is not met, and the covariance 2b² L Lᵀ is
smaller than the oracle's at every non-zero entry.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from . import correct_kary

ARITY = correct_kary.ARITY
HEIGHT = correct_kary.HEIGHT
HORIZON = correct_kary.HORIZON
CLAIMED_EPSILON = Fraction(1)


def noise_scale() -> Fraction:
    """The faulty scale (h − 1)/ε."""
    return Fraction(HEIGHT - 1) / CLAIMED_EPSILON


def release_noise(draws: Sequence[Fraction]) -> list[Fraction]:
    """The noise of outputs 1..T (same structure as the correct implementation)."""
    return correct_kary.release_noise(draws)


def noise_matrix() -> list[list[int]]:
    """B, identical to the correct implementation's."""
    return correct_kary.noise_matrix()
