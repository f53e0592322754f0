"""A correct Algorithm 2 (KARY, offset digits): output t adds z_p for every p in rep-path of t.

Noise: one independent Laplace(b) draw z_p per index p in [1, T] (T = the offset capacity), b = h/ε, the
ℓ1 sensitivity h of the implied strategy (Lemma A.2). This is the contrast to the faulty examples.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from reference.kary.digits import algorithm_2_noise_indices, offset_capacity

ARITY = 3
HEIGHT = 3
HORIZON = offset_capacity(ARITY, HEIGHT)
CLAIMED_EPSILON = Fraction(1)


def noise_scale() -> Fraction:
    """b = h/ε: the Laplace scale for the ℓ1 sensitivity h."""
    return Fraction(HEIGHT) / CLAIMED_EPSILON


def release_noise(draws: Sequence[Fraction]) -> list[Fraction]:
    """The noise of outputs t = 1..T: the sum of z_p over Algorithm 2's indices p (draw p − 1 is z_p)."""
    return [
        sum((draws[p - 1] for p in algorithm_2_noise_indices(t, ARITY, HEIGHT)), Fraction(0))
        for t in range(1, HORIZON + 1)
    ]


def noise_matrix() -> list[list[int]]:
    """B: B[t − 1][p − 1] = 1 iff output t adds z_p."""
    rows = []
    for t in range(1, HORIZON + 1):
        used = set(algorithm_2_noise_indices(t, ARITY, HEIGHT))
        rows.append([1 if p in used else 0 for p in range(1, HORIZON + 1)])
    return rows
