"""KARY Appendix C (even arity): Proof C.2's recursion is the exact noise count, for every even k and every h.

Write k = 2m (m >= 1) and D = {−m + 1..m} (Definition C.1's digits). With T_h = k(k^h − 1)/(2(k − 1)) (the
capacity of h digits) the program shows, symbolically in m and h:

1. Bijection. φ(d) = Σ_i d_i k^(i−1) maps D^h into [−(m − 1)(k^h − 1)/(k − 1), T_h]: the largest value is
   m·Σ_i k^(i−1) = m(k^h − 1)/(k − 1) = T_h (geometric sum by induction), the smallest −(m − 1)(k^h − 1)/(k − 1).
   φ is injective (two digits differ by at most 2m − 1 = k − 1 < k, so the lowest differing position leaves a
   non-zero residue), and |D^h| = k^h equals the number of integers in that range, so φ is onto.
2. Sign. Let ℓ be the highest position with a non-zero digit d. The lower ℓ − 1 digits hold values L with
   |L| <= m(k^(ℓ−1) − 1)/(k − 1) < k^(ℓ−1) (as m <= k − 1), so φ(d) has the sign of d: the integers 1..T_h are
   exactly the vectors whose highest non-zero digit is positive.
3. Count by that digit. For position ℓ and digit d in 1..m, the k^(ℓ−1) choices of the lower digits carry total
   weight (ℓ − 1)·k^(ℓ−2)·S, S = Σ_(e ∈ D) |e| = m² (each lower position takes each digit k^(ℓ−2) times), so
   Σ_(t=1)^(T_h) ‖rep(t, h)‖₁ = Σ_(ℓ=1)^(h) I(ℓ) with I(ℓ) = Σ_(d=1)^(m) (d k^(ℓ−1) + (ℓ − 1) k^(ℓ−2) m²).
4. I(ℓ) equals the printed increment ((k + 2)/4 + k(ℓ − 1)/4)(k/2)k^(ℓ−1) identically; so the exact count
   c_h = I(h) + c_(h−1), c_0 = 0, is Proof C.2's recursion, for every h >= 1 (and the heights agree:
   T_h − T_(h−1) = m k^(h−1) > 0, so Algorithm 2's height at T_h is h).

``prove(claimed_increment=...)`` replaces the printed increment (mutation tests).
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from ...core.proof import SANITY, ProofRecord, is_zero, print_record
from ...core.proof_links import mutation, proves
from .lemma_3_5 import digit_mass, geometric_sum_by_induction

PAPER = "KARY"
STATEMENT = (
    "For every even arity k = 2m >= 2 and h >= 1, the total number of noise values Algorithm 2 (Appendix C's "
    "variant) adds over t = 1..k(k^h − 1)/(2(k − 1)) obeys c_h = ((k + 2)/4 + k(h − 1)/4)(k/2)k^(h−1) + c_(h−1), "
    "c_0 = 0"
)

HALF = sp.Symbol("m", integer=True, positive=True)
HEIGHT = sp.Symbol("h", integer=True, positive=True)


def printed_increment(arity: Any, level: Any) -> Any:
    """Proof C.2's increment c_ℓ − c_(ℓ−1) as printed."""
    return (sp.Rational(1, 4) * (arity + 2) + arity * (level - 1) / 4) * arity / 2 * arity ** (level - 1)


@proves(PAPER, "Appendix C recursion", mutations=(mutation("increment doubled", claimed_increment=2 * printed_increment(2 * HALF, HEIGHT)),))
def prove(claimed_increment: Any = None, sanity: bool = True) -> ProofRecord:
    """Run the program; raises :class:`~reference_verification.core.proof.ProofFailure` naming a step that fails."""
    m, h = HALF, HEIGHT
    k = 2 * m
    level = sp.Symbol("l", integer=True, positive=True)
    increment = printed_increment(k, level) if claimed_increment is None else claimed_increment
    record = ProofRecord(PAPER, "Appendix C recursion (Proof C.2)", STATEMENT)
    capacity = k * (k**h - 1) / (2 * (k - 1))
    floor = (m - 1) * (k**h - 1) / (k - 1)

    geometric = geometric_sum_by_induction(record, k)
    record.step(
        "range: the largest value of φ on D^h is m·Σ k^(i−1) = m(k^h − 1)/(k − 1) = k(k^h − 1)/(2(k − 1)) = T_h; "
        "the smallest is −(m − 1)(k^h − 1)/(k − 1)",
        is_zero(m * geometric - capacity) and is_zero((m - 1) * geometric - floor),
    )
    record.step(
        "injective: two digits of D differ by at most 2m − 1 = k − 1 < k, so the lowest differing position leaves "
        "a non-zero residue",
        is_zero(k - (2 * m - 1) - 1),
    )
    record.step(
        "bijection: |D^h| = k^h = T_h + (m − 1)(k^h − 1)/(k − 1) + 1, the number of integers in the range",
        is_zero(capacity + floor + 1 - k**h),
    )
    width = sp.Symbol("w", positive=True)  # w = k^(ℓ−1) >= 1
    record.step(
        "sign: below the highest non-zero position ℓ the digits hold |L| <= m(w − 1)/(k − 1) < w = k^(ℓ−1) "
        "(w − m(w − 1)/(k − 1) = ((m − 1)w + m)/(2m − 1) > 0), so t >= 1 iff the highest non-zero digit is positive",
        is_zero(width - m * (width - 1) / (k - 1) - ((m - 1) * width + m) / (2 * m - 1))
        and bool((((m - 1) * width + m) / (2 * m - 1)).is_positive),
    )
    digit = sp.Symbol("e", integer=True)
    digit_sum = sp.summation(-digit, (digit, -m + 1, 0)) + sp.summation(digit, (digit, 1, m))
    record.step("S = Σ_(e=−m+1)^(m) |e| = m² (sympy summation)", is_zero(digit_sum - m**2))
    lower = digit_mass(k, digit_sum, level - 1)
    record.step(
        "lower digits: the k^(ℓ−1) vectors of D^(ℓ−1) carry total weight (ℓ − 1)k^(ℓ−2)S (generating function "
        "G(x)^(ℓ−1) at x = 1)",
        is_zero(lower - (level - 1) * k ** (level - 2) * digit_sum),
    )
    lead = sp.Symbol("d", integer=True, positive=True)
    exact = sp.summation(lead * k ** (level - 1) + lower, (lead, 1, m))
    record.step(
        "count: the vectors with highest non-zero digit d in 1..m at position ℓ carry total weight "
        "d·k^(ℓ−1) + (ℓ − 1)k^(ℓ−2)S; summed over d (sympy) this is the level's share I(ℓ) of "
        "Σ_(t=1)^(T_h) ‖rep(t, h)‖₁",
        is_zero(exact - m * (m + 1) / 2 * k ** (level - 1) - m * lower),
    )
    record.step(
        f"I(ℓ) equals Proof C.2's increment {sp.factor(increment)} identically in m and ℓ (k = 2m); so "
        "c_h = I(h) + c_(h−1), c_0 = 0 (no vector with positive value at h = 0) is the exact count for every h",
        is_zero(sp.expand(exact - increment)),
    )
    record.step(
        "heights: T_h − T_(h−1) = m k^(h−1) > 0, so Algorithm 2's height at T_h is h",
        is_zero(capacity - capacity.subs(h, h - 1) - m * k ** (h - 1)),
    )
    if sanity:
        from reference.kary.mse import algorithm_2_total_noise_count, appendix_c_horizon, appendix_c_recursion

        cases = [(arity, height) for arity in (2, 4, 6, 8) for height in range(1, 5) if arity**height <= 5000]
        record.step(
            SANITY + "enumerated totals (reference.kary.mse) equal the recursion for k = 2..8, h <= 4",
            all(
                algorithm_2_total_noise_count(arity, appendix_c_horizon(arity, height))
                == appendix_c_recursion(arity, height)
                for arity, height in cases
            ),
        )
    return record


if __name__ == "__main__":
    print_record(prove())
