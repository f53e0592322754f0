"""KARY Lemma 4.14: Algorithm 2 can be implemented in O(kT) time, for every odd k >= 3 and every T >= 1.

Write k = 2m + 1, h the height at T (the smallest h with T' = (k^h − 1)/2 >= T).

1. Intervals. Proposition 4.10 (the program of Lemma 4.12 runs): the outputs using z_p form one interval, and
   z_p is always added with the sign of p's lowest non-zero digit (Lemma 4.5's program).
2. Incremental noise. Keep the running noise sum: at output t add the z_p whose interval starts at t and
   subtract those whose interval ended at t − 1. Each value is added once and removed at most once: at most
   2·D noise updates, D the number of distinct indices used up to T.
3. Indices lie in [1, T']. A walk position is a prefix value A of t's digits above a level ℓ plus s·j·w
   (j <= |t_ℓ| <= m, w = k^(ℓ−1)). |A| and the position are at most m·Σ k^(ℓ−1) = T'. For t >= 1 the top
   non-zero digit of A is positive (the digits below a weight W carry at most (W − 1)/2 < W), so A = 0 or
   A >= k·w > m·w >= j·w: the position is >= 1 (when A = 0 the move is upward from 0). So D <= T', and every
   p in [1, T] is the last position of its own walk, so D >= T (D = T at T = T').
4. Digits. Incrementing the offset counter changes level ℓ only when every lower digit was m (a carry), at
   most T/k^(ℓ−1) + 1 times in T steps: Σ_ℓ (T/k^(ℓ−1) + 1) <= T·k/(k − 1) + h <= 3T/2 + h digit changes.
5. Capacity. T >= (k^(h−1) + 1)/2 for h >= 2 (and T >= 1 for h = 1) gives T' <= k·T.
6. Total: T outputs, at most 2T' <= 2kT noise updates, 3T/2 + h <= 3T/2 + 2T digit changes: O(kT).

``prove(capacity_factor=...)`` takes the claimed factor c in T' <= c·T (a sympy expression in k): a factor below
what step 5 needs (k − 1) fails.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from ...core.proof import ProofRecord, established, is_zero, nonnegative_polynomial, print_record
from ...core.proof_links import mutation, proves

PAPER = "KARY"
STATEMENT = (
    "For every odd k >= 3 and T >= 1, Algorithm 2 maintained incrementally adds each noise value once and removes it "
    "at most once, uses at most T' = (k^h − 1)/2 <= kT distinct values and at most 3T/2 + h digit changes: O(kT) time"
)


#: The arity (and height) as the mutations write them (the symbols the program substitutes).
_K = sp.Symbol("k", integer=True, positive=True)

@proves(PAPER, "Lemma 4.14", mutations=(mutation("T' <= (k − 1)T", capacity_factor=_K - 1),))
def prove(capacity_factor: Any = None) -> ProofRecord:
    """Run the program; ``capacity_factor`` (in k; default k) is the claimed c in T' <= c·T."""
    from . import lemma_4_12 as kary_lemma_4_12
    from .lemma_4_12 import HALF, HEIGHT, digit_capacity

    m, h = HALF, HEIGHT
    k = 2 * m + 1
    kk = sp.Symbol("k", integer=True, positive=True)
    factor = (kk if capacity_factor is None else sp.sympify(capacity_factor)).subs(kk, k)
    record = ProofRecord(PAPER, "Lemma 4.14", STATEMENT)
    intervals = kary_lemma_4_12.prove()
    record.step(
        f"Proposition 4.10 (reference_verification.kary.proofs.lemma_4_12: {len(intervals.steps)} steps, with Lemma 4.5's): the "
        "outputs using z_p form one interval, and z_p always enters with the sign of p's lowest non-zero digit",
        established(intervals, kary_lemma_4_12.prove),
    )
    added, removed = sp.Integer(1), sp.Integer(1)
    distinct = sp.Symbol("D", positive=True)
    record.step(
        "incremental: add z_p at its interval's first output, subtract it after the last (if before T); each value "
        "is added once and removed at most once, so the noise updates number at most (1 + 1)·D = 2D",
        is_zero((added + removed) * distinct - 2 * distinct),
    )
    capacity = digit_capacity(record, h, "h")
    weight = sp.Symbol("W", positive=True)
    record.step(
        "indices in [1, T']: a walk position is at most m·Σ_ℓ k^(ℓ−1) = T' in size; the digits below a weight W "
        "carry at most (W − 1)/2 < W, so for t >= 1 a non-zero prefix value A above level ℓ is positive and a "
        "multiple of k·w, and A − m·w >= (k − m)·w > 0: every position is >= 1. So D <= T', and each p in "
        "[1, T] ends its own walk, so D >= T",
        is_zero(capacity - (k**h - 1) / 2)
        and bool((weight - (weight - 1) / 2).is_positive)
        and nonnegative_polynomial(k - m - 1, {m: 1}),
    )
    level = sp.Symbol("l", integer=True, positive=True)
    steps = sp.Symbol("T", positive=True)
    flips = sp.summation(steps / k ** (level - 1) + 1, (level, 1, h))
    record.step(
        "digits: level ℓ changes only on a carry from all lower digits at m, at most T/k^(ℓ−1) + 1 times; the sum "
        "over ℓ = 1..h is T·k(1 − k^(−h))/(k − 1) + h (sympy summation) <= T·k/(k − 1) + h, and k/(k − 1) <= 3/2 "
        "for k >= 3",
        is_zero(flips - (steps * k * (1 - k ** (-h)) / (k - 1) + h))
        and nonnegative_polynomial(sp.numer(sp.together(sp.Rational(3, 2) - k / (k - 1))), {m: 1}),
    )
    power, spare = sp.symbols("P u", nonnegative=True)  # P = k^(h−1) = k + u >= k for h >= 2
    lowest = (power + 1) / 2  # the smallest T of height h >= 2
    record.step(
        f"capacity: for h >= 2, T >= (k^(h−1) + 1)/2, and ({factor})·(P + 1)/2 − (k·P − 1)/2 >= 0 for every "
        f"P = k^(h−1) >= k (polynomial in m − 1, P − k with no negative coefficient); for h = 1, T' = m <= "
        f"({factor})·1: so T' <= ({factor})·T",
        nonnegative_polynomial((factor * lowest - (k * power - 1) / 2).subs(power, k + spare), {m: 1, spare: 0})
        and nonnegative_polynomial(factor - m, {m: 1}),
    )
    record.step(
        f"total: T outputs, at most 2T' <= 2({factor})T noise updates, at most 3T/2 + h <= 3T/2 + 2T digit changes "
        "(h <= 2T: k^(h−1) <= 2T − 1): O(kT) operations, as the factor is of degree at most 1 in k",
        bool(sp.Poly(sp.expand(factor), m).degree() <= 1) if sp.expand(factor).is_polynomial(m) else False,
    )
    return record


if __name__ == "__main__":
    print_record(prove())
