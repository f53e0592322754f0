"""FAULTY Algorithm 2 with integer noise: the noise is doubled to "double the scale", so it is always even.

The fault: to get a discrete Laplace of scale 2b the implementation draws scale-b integer noise and multiplies
it by 2. Every output's noise is then even, so ``y_t mod 2 = c_t mod 2`` (c_t the true prefix count) and
``(y_{t+1} − y_t) mod 2`` is the input bit x_{t+1}, for every noise draw: not private at all. The continuous
(Laplace) audit of the same matrix calls it private; only the integer-lattice audit sees the parity leak.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from .correct_kary import ARITY, CLAIMED_EPSILON, HEIGHT, HORIZON
from .correct_kary import noise_matrix as correct_noise_matrix

NOISE = "discrete-laplace"


def noise_scale() -> Fraction:
    """b = h/ε for the draws (before the faulty doubling)."""
    return Fraction(HEIGHT) / CLAIMED_EPSILON


def noise_matrix() -> list[list[int]]:
    """B = 2 L: each output adds twice the integer draws of Algorithm 2's indices."""
    return [[2 * entry for entry in row] for row in correct_noise_matrix()]


def release_noise(draws: Sequence[int]) -> list[int]:
    """The (faulty) integer noise of outputs 1..T."""
    return [2 * sum(draws[p] for p, used in enumerate(row) if used) for row in correct_noise_matrix()]


__all__ = ["ARITY", "CLAIMED_EPSILON", "HEIGHT", "HORIZON", "NOISE", "noise_matrix", "noise_scale", "release_noise"]
