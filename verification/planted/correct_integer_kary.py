"""A correct Algorithm 2 with integer noise: one discrete Laplace draw of scale b = h/ε per index, added once.

The contrast to :mod:`reference_verification.planted.parity_leak_kary`: the same index sets, without the doubling. Every neighbouring
shift is an integer combination of the draws (the strategy R is a 0/1 matrix), so the integer-lattice audit
finds the unique integer shift and the exact ε = h/b.
"""

from __future__ import annotations

from fractions import Fraction

from .correct_kary import ARITY, CLAIMED_EPSILON, HEIGHT, HORIZON, noise_matrix

NOISE = "discrete-laplace"


def noise_scale() -> Fraction:
    """b = h/ε: the discrete Laplace scale for the ℓ1 sensitivity h."""
    return Fraction(HEIGHT) / CLAIMED_EPSILON


__all__ = ["ARITY", "CLAIMED_EPSILON", "HEIGHT", "HORIZON", "NOISE", "noise_matrix", "noise_scale"]
