"""FAULTY Algorithm 2: the noise is keyed by tree level only, so vertices that must be independent share it.

The fault: output t adds z_ℓ (ℓ the level of index p: the lowest position with a non-zero offset digit)
instead of z_p, so only h draws exist. The implied strategy does not exist: the prefix workload is not in
the column space of the T×h noise matrix, so the release is not private at all, whatever ε it claims; its
covariance differs from the oracle's 2b² L Lᵀ.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from reference.kary.digits import algorithm_2_noise_indices, offset_capacity, representation

ARITY = 3
HEIGHT = 3
HORIZON = offset_capacity(ARITY, HEIGHT)
CLAIMED_EPSILON = Fraction(1)


def noise_scale() -> Fraction:
    """b = h/ε, as the correct implementation."""
    return Fraction(HEIGHT) / CLAIMED_EPSILON


def _level(index: int) -> int:
    rep = representation(index, ARITY, HEIGHT)
    return next(position for position, digit in enumerate(rep, 1) if digit != 0)


def release_noise(draws: Sequence[Fraction]) -> list[Fraction]:
    """The (faulty) noise of outputs 1..T: z_{level(p)} summed over Algorithm 2's indices p."""
    return [
        sum((draws[_level(p) - 1] for p in algorithm_2_noise_indices(t, ARITY, HEIGHT)), Fraction(0))
        for t in range(1, HORIZON + 1)
    ]


def noise_matrix() -> list[list[int]]:
    """B (T × h): B[t − 1][ℓ − 1] = how many of output t's indices lie on level ℓ."""
    rows = []
    for t in range(1, HORIZON + 1):
        row = [0] * HEIGHT
        for p in algorithm_2_noise_indices(t, ARITY, HEIGHT):
            row[_level(p) - 1] += 1
        rows.append(row)
    return rows
