"""FAULTY Algorithm 1 (KARY, no subtraction): an off-by-one in the end-of-block test.

The counter keeps one Laplace draw per tree vertex, keyed by (level, block number) and drawn the first time the
vertex is used. Output t adds, on each level j, the noise of the last d_j *completed* level-j blocks (d_j the
j-th base-k digit of t); the number of completed blocks is ``t // k**j``.

FAULT: the completed-block count is computed as ``(t - 1) // k**j`` — the end-of-block test misses a block that
ends exactly at t. The noise is then keyed to the wrong vertices: more keys are used than outputs (the noise
matrix has a kernel, so the minimum-norm shift is not the best one) and one input's change has to be covered by
more draws. The exact Laplace ε (the linear programme of the audit, certified by rational primal and dual
solutions) is 10/3 at the claimed ε = 1 for arity 3, T = 26: the claim fails. With ``fixed=True`` the same code is
the correct Algorithm 1, with exact ε = 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

ARITY = 3
HEIGHT = 3  # levels 0, 1, 2: every input lies in one block per level
HORIZON = ARITY**HEIGHT - 1
CLAIMED_EPSILON = Fraction(1)


def noise_scale() -> Fraction:
    """b = h/ε: each input is in one block per level (the correct design's ℓ1 sensitivity)."""
    return Fraction(HEIGHT) / CLAIMED_EPSILON


def vertices(time: int, *, fixed: bool = False) -> list[tuple[int, int]]:
    """The (level, block number) keys whose noise output ``time`` adds."""
    keys = []
    for level in range(HEIGHT):
        digit = (time // ARITY**level) % ARITY
        completed = (time if fixed else time - 1) // ARITY**level  # FAULT unless fixed: misses a block ending at t
        keys += [(level, completed - 1 - back) for back in range(digit)]
    return keys


def draw_count(*, fixed: bool = False) -> int:
    """How many draws the counter uses over the horizon (one per distinct key)."""
    return len({key for time in range(1, HORIZON + 1) for key in vertices(time, fixed=fixed)})


def release_noise(draws: Sequence[Fraction], *, fixed: bool = False) -> list[Fraction]:
    """The noise of outputs 1..T, the draws consumed in the order the keys are first used (as a counter that
    draws lazily does)."""
    noise: dict[tuple[int, int], Fraction] = {}
    supply = iter(draws)
    released = []
    for time in range(1, HORIZON + 1):
        total = Fraction(0)
        for key in vertices(time, fixed=fixed):
            if key not in noise:
                noise[key] = next(supply)
            total += noise[key]
        released.append(total)
    return released


def release_noise_fixed(draws: Sequence[Fraction]) -> list[Fraction]:
    """The corrected counter (``fixed=True``)."""
    return release_noise(draws, fixed=True)


def noise_matrix(*, fixed: bool = False) -> list[list[Fraction]]:
    """B (outputs × draws), read off the counter itself: column j is the noise released for the j-th unit draw."""
    draws = draw_count(fixed=fixed)
    columns = [release_noise([Fraction(int(i == j)) for i in range(draws)], fixed=fixed) for j in range(draws)]
    return [[column[t] for column in columns] for t in range(HORIZON)]
