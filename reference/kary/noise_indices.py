"""Which noise values KARY's Algorithm 2 uses, when, and which vertex of Algorithm 3 each stands for.

Algorithm 2 (:mod:`reference.kary.counters`) indexes its noise values z_p by p >= 1 and adds to output t the
values its offset-digit walk visits (:func:`reference.kary.digits.algorithm_2_noise_indices`).

Lifetime of a noise value (Proposition 4.10, made explicit; :func:`noise_lifetime`): write p's offset digits
and let q be the lowest level with a non-zero digit d, U = p − d k^(q−1), w = k^(q−1). z_p is added at time t
iff t agrees with p above level q and t's level-q digit has the sign of d and magnitude >= |d| (the walk's
position after the levels above q must equal U, a multiple of k w, and two digits differ by less than k).
With digits −c..k − 1 − c (c = ⌊(k − 1)/2⌋) the lower q − 1 digits hold [−c(w − 1)/(k − 1),
(k − 1 − c)(w − 1)/(k − 1)] =: [a, b], so z_p is used exactly for t in [p + a, U + (k − 1 − c)w + b] when d > 0
and t in [U − c w + a, p + b] when d < 0 (intersected with [1, T]); for odd arity these are
[p − (w − 1)/2, U + (k w − 1)/2] and [U − (k w − 1)/2, p + (w − 1)/2]. The online counter forgets z_p after
the last of these times.

Noise-value-to-vertex map (Proposition 4.3's sign argument, made explicit; :func:`algorithm_2_vertex`): the
vertex Algorithm 3 uses where Algorithm 2 uses z_p is [p − k^(q−1) + 1, p], added, when d > 0 and
[p + 1, p + k^(q−1)], subtracted, when d < 0. The map is injective and every vertex has a fixed sign, so with
z_p = sign · ν(vertex) the two algorithms compute the same outputs (checked exhaustively in
:mod:`reference_verification.kary.checks.counters`).

Used indices (:func:`algorithm_2_used_indices`): z_p is used for some t <= T iff its first time is <= T. Live
noise (:func:`live_noise_count`): simulated over t = 1..T, the most values alive at once, against the bound of
Lemma 4.12's proof.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from reference.core.exact_text import message_value
from reference.core.validate import check_positive_int
from reference.kary.digits import algorithm_2_noise_indices, check_arity, height_for_horizon
from reference.kary.mse import MAX_ENUMERATION_HORIZON

__all__ = ["LiveNoise", "algorithm_2_used_indices", "algorithm_2_vertex", "live_noise_count", "noise_lifetime"]


def _lowest_digit(index: int, arity: int) -> tuple[int, int]:
    """(q, d): the lowest level q with a non-zero offset digit d of ``index`` > 0."""
    top = arity // 2
    number, level = index, 1
    while True:
        digit = number % arity
        if digit > top:
            digit -= arity
        if digit:
            return level, digit
        number //= arity
        level += 1


def _lower_range(arity: int, weight: int) -> tuple[int, int]:
    """The values q − 1 offset digits hold (weight = k^(q−1)): [−c(w − 1)/(k − 1), (k − 1 − c)(w − 1)/(k − 1)].

    c = ⌊(k − 1)/2⌋; odd arity gives ±(w − 1)/2 (Definition 3.8), even arity Definition C.1's range.
    """
    center = (arity - 1) // 2
    span = (weight - 1) // (arity - 1)
    return -center * span, (arity - 1 - center) * span


def noise_lifetime(index: int, arity: int, horizon: int) -> tuple[int, int]:
    """(first, last): the times t in 1..``horizon`` at which Algorithm 2 adds z_``index`` (module docstring).

    Returns ``(first, min(last, horizon))``; if ``first > horizon`` the index is never used (then
    ``first > last`` is returned as is). Any ``arity`` >= 2 (even arity: Appendix C's variant), ``index`` >= 1.

    Args:
        index: the noise index p, an integer >= 1.
        arity: k, an integer >= 2.
        horizon: T, an integer >= 1.
    """
    k = check_arity(arity)
    steps = check_positive_int(horizon, "horizon")
    p = check_positive_int(index, "index")
    level, digit = _lowest_digit(p, k)
    weight = k ** (level - 1)
    upper = p - digit * weight
    low, high = _lower_range(k, weight)
    if digit > 0:
        first, last = p + low, upper + (k // 2) * weight + high
    else:
        first, last = upper - ((k - 1) // 2) * weight + low, p + high
    return first, min(last, steps)


def algorithm_2_vertex(index: int, arity: int) -> tuple[int, int, int]:
    """(level, j, sign): the vertex [1 + j k^(ℓ−1), (j + 1) k^(ℓ−1)] Algorithm 3 adds (sign +1) or subtracts
    (sign −1) where Algorithm 2 adds z_``index`` (module docstring).

    Args:
        index: the noise index p, an integer >= 1.
        arity: k, an integer >= 2.
    """
    k = check_arity(arity)
    p = check_positive_int(index, "index")
    level, digit = _lowest_digit(p, k)
    weight = k ** (level - 1)
    if digit > 0:
        return level, p // weight - 1, 1
    return level, p // weight, -1


def algorithm_2_used_indices(arity: int, horizon: int) -> np.ndarray:
    """A boolean mask over p = 0..P_bound: True where some output t <= ``horizon`` of Algorithm 2 adds z_p.

    By the lifetime rule (module docstring) z_p is used iff its first time is <= T. With c = ⌊(k − 1)/2⌋ and
    weight w at level ℓ: a positive digit e (p = k m' w + e w) is used iff p <= T + c(w − 1)/(k − 1); a negative
    one (p = k m' w − j w) iff k m' w <= T + c(k w − 1)/(k − 1). P_bound = T + c(k^(h−1) − 1)/(k − 1) bounds
    every used index ((k^(h−1) − 1)/2 for odd arity). Even arity: Appendix C's variant (digits −c..c + 1).

    Args:
        arity: k, an integer >= 2.
        horizon: T, an integer >= 1.
    """
    k = check_arity(arity)
    steps = check_positive_int(horizon, "horizon")
    height = height_for_horizon(k, steps, offset=True)
    return used_mask(k, steps, height)


def used_mask(arity: int, horizon: int, height: int) -> np.ndarray:
    """A boolean mask over the noise indices p = 0..P: True where Algorithm 2 uses z_p for some t <= ``horizon``.

    Args:
        arity: k, an integer >= 2.
        horizon: T, an integer >= 1.
        height: h, Algorithm 2's height for T.
    """
    k, center = arity, (arity - 1) // 2
    bound = horizon + center * ((k ** (height - 1) - 1) // (k - 1))
    mask = np.zeros(bound + 1, dtype=bool)
    for level in range(1, height + 1):
        weight = k ** (level - 1)
        # only steps whose first index lies within the bound can mark anything: O(min(k, T/weight)) per level,
        # not O(k) (a huge arity with a short stream would otherwise loop k/2 times for nothing)
        reach = bound // weight
        for step in range(1, min(k - center - 1, reach) + 1):  # positive digits 1..k − 1 − c
            stop = min(bound, horizon + center * ((weight - 1) // (k - 1))) + 1
            mask[step * weight : stop : k * weight] = True
        for step in range(max(1, k - reach), center + 1):  # negative digits −1..−c
            stop = min(bound, horizon + center * ((k * weight - 1) // (k - 1)) - step * weight) + 1
            if stop > (k - step) * weight:
                mask[(k - step) * weight : stop : k * weight] = True
    return mask


@dataclass(frozen=True)
class LiveNoise:
    """Algorithm 2's noise lifetimes over t = 1..T (simulation)."""

    arity: int
    horizon: int
    height: int
    maximum_live: int  # the most noise values alive at once (first use <= t <= last use)
    attained_at: int  # the first time t where it is attained
    maximum_used: int  # the most noise values one output adds (max ‖rep(t, h)‖₁)
    distinct_indices: int  # how many different noise values are used over 1..T
    contiguous: bool  # Proposition 4.10: every z_p is used at every time between its first and last use
    proof_bound: int  # Proof 4.13's bound: h·(largest digit magnitude); h(k − 1)/2 for odd arity

    @property
    def within_bound(self) -> bool:
        """Whether the simulated maximum respects Proof 4.13's bound."""
        return self.maximum_live <= self.proof_bound


def live_noise_count(arity: int, horizon: int) -> LiveNoise:
    """Simulate Algorithm 2 (h = its height for T) and count the noise values alive at once.

    A value z_p is alive at time t when first_use(p) <= t <= last_use(p). Proof 4.13 bounds the count by
    h(k − 1)/2 (odd arity); for even arity (Appendix C) the same argument gives h·k/2. T <= 2·10^6.

    Args:
        arity: k, an integer >= 2.
        horizon: T, an integer >= 1 (simulated step by step).
    """
    k = check_arity(arity)
    steps = check_positive_int(horizon, "horizon")
    if steps > MAX_ENUMERATION_HORIZON:
        raise ValueError(f"horizon must be <= {MAX_ENUMERATION_HORIZON} for the simulation, got {message_value(steps)}")
    h = height_for_horizon(k, steps, offset=True)
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    uses: dict[int, int] = {}
    maximum_used = 0
    for t in range(1, steps + 1):
        indices = algorithm_2_noise_indices(t, k, h)
        maximum_used = max(maximum_used, len(indices))
        for p in indices:
            first.setdefault(p, t)
            last[p] = t
            uses[p] = uses.get(p, 0) + 1
    contiguous = all(uses[p] == last[p] - first[p] + 1 for p in uses)
    delta = [0] * (steps + 2)
    for p in first:
        delta[first[p]] += 1
        delta[last[p] + 1] -= 1
    alive, best, where = 0, 0, 1
    for t in range(1, steps + 1):
        alive += delta[t]
        if alive > best:
            best, where = alive, t
    largest_digit = k // 2  # (k − 1)/2 for odd arity (Definition 3.8), k/2 for even (Definition C.1)
    return LiveNoise(
        arity=k,
        horizon=steps,
        height=h,
        maximum_live=best,
        attained_at=where,
        maximum_used=maximum_used,
        distinct_indices=len(first),
        contiguous=contiguous,
        proof_bound=h * largest_digit,
    )
