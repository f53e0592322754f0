"""KARY Proposition 4.10 (each noise value is used on one interval of outputs) and Lemma 4.12 (Algorithm 2 keeps
at most h(k − 1)/2 noise values, and that many at T = (k^h − 1)/2), for every odd k >= 3 and every height h >= 1.

Write k = 2m + 1, so the offset digits (Definition 3.8) are −m..m, and w = k^(q−1) for a level q.

1. Lower digits fill an interval. The q − 1 lowest offset digits take k^(q−1) = w value vectors and represent
   the integers in [−(w − 1)/2, (w − 1)/2] (the extreme is m·Σ k^(ℓ−1) = (w − 1)/2); two vectors differing first
   at a lowest level differ there by 1..2m = k − 1 < k, so their values differ modulo k^ℓ: the map is injective
   between sets of w elements, hence onto. So the outputs t whose digits at levels q..h are fixed, of value A
   there, are exactly the interval [A − (w − 1)/2, A + (w − 1)/2].
2. When z_p is used. Let q be the lowest level with a non-zero digit d of p, p = U + d·w. Lemma 4.5's program
   shows that the walk of output t lands on p only at level q, only when t's digits above q give U, and then
   iff t_q has the sign of d and |t_q| >= |d|. For d > 0 those t are the union over e = d..m of the intervals
   I_e = [U + e·w − (w − 1)/2, U + e·w + (w − 1)/2] (step 1), and I_(e+1) starts one after I_e ends: one
   interval [U + d·w − (w − 1)/2, U + m·w + (w − 1)/2]; for d < 0 the mirror image. Intersected with [1, T] it
   stays an interval: Proposition 4.10.
3. What is stored. Drawing z_p at the first output that uses it and dropping it after the last one (step 2: it
   is never used again) stores, at output t, exactly the noise values t uses; they are distinct (Lemma 4.5: the
   walk visits a position at most once), so there are ‖rep(t, h)‖₁ = Σ_ℓ |t_ℓ| of them.
4. Bound. Each |t_ℓ| <= m over h levels: at most h·m = h(k − 1)/2 values; the claimed bound must be at least
   that for every k and h.
5. Attained. t = (k^h − 1)/2 (the capacity) has every digit m, since m·Σ k^(ℓ−1) = (k^h − 1)/2, and stores h·m
   values: the bound is tight at the capacity, and a claimed bound above h·m is not.
6. Size. h is the smallest height with (k^h − 1)/2 >= T, so k^(h−1) <= 2T − 1 < 2T and h < log_k(2T) + 1: the
   h(k − 1)/2 values are O(k log_k T).

``prove(claimed_bound=...)`` takes the claimed tight bound (a sympy expression in k and h): a bound below
h(k − 1)/2 fails step 4, one above it fails step 5.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from ...core.proof import ProofRecord, established, is_zero, nonnegative_polynomial, print_record
from ...core.proof_links import mutation, proves

PAPER = "KARY"
STATEMENT = (
    "For every odd k >= 3 and h >= 1: the outputs that use a noise value z_p of Algorithm 2 form one interval "
    "(Proposition 4.10), so Algorithm 2 needs to keep only the values the current output uses, at most h(k − 1)/2 "
    "= O(k log_k T) of them, and exactly that many at t = (k^h − 1)/2 (Lemma 4.12)"
)

#: k = 2m + 1 with m >= 1; the height h >= 1, the level q >= 1.
HALF = sp.Symbol("m", integer=True, positive=True)
HEIGHT = sp.Symbol("h", integer=True, positive=True)
LEVEL = sp.Symbol("q", integer=True, positive=True)


def digit_capacity(record: ProofRecord, levels: sp.Expr, label: str) -> sp.Expr:
    """m·Σ_(ℓ=1)^(levels) k^(ℓ−1) = (k^levels − 1)/2, the largest value of ``levels`` offset digits (recorded;
    ``label`` is how the step writes ``levels``)."""
    m = HALF
    k = 2 * m + 1
    level = sp.Symbol("l", integer=True, positive=True)
    total = sp.summation(m * k ** (level - 1), (level, 1, levels))
    record.step(
        f"m·Σ_(ℓ=1)^({label}) k^(ℓ−1) = (k^({label}) − 1)/2 (sympy summation, k = 2m + 1)",
        is_zero(total - (k**levels - 1) / 2),
    )
    return (k**levels - 1) / 2


def used_interval(record: ProofRecord) -> None:
    """Steps 1 and 2: the outputs using z_p form one interval (Proposition 4.10)."""
    m = HALF
    k = 2 * m + 1
    width = k ** (LEVEL - 1)
    radius = digit_capacity(record, LEVEL - 1, "q − 1")
    record.step(
        "lower digits: the w = k^(q−1) vectors of q − 1 digits in −m..m and the integers of [−(w − 1)/2, (w − 1)/2] "
        "are equally many, and digits differing by 1..2m = k − 1 < k at the lowest differing level give values "
        "unequal modulo k^ℓ: a bijection, so fixing the digits at levels q..h to a value A leaves exactly the "
        "interval [A − (w − 1)/2, A + (w − 1)/2] of outputs",
        is_zero(2 * radius + 1 - width) and is_zero(k - (2 * m + 1)) and bool((k - 2 * m).is_positive),
    )
    top, digit, upper = sp.symbols("U e d", integer=True)
    interval_start = top + digit * width - radius
    interval_end = top + digit * width + radius
    record.step(
        "adjacent: I_(e+1) = [U + (e + 1)w − (w − 1)/2, …] starts one after I_e = […, U + e·w + (w − 1)/2] ends, so "
        "the outputs whose walk lands on p = U + d·w (t_q of the sign of d, |t_q| >= |d|, digits above q giving U, "
        "by Lemma 4.5's program) form the single interval from I_d to I_m (d > 0) or from I_(−m) to I_d (d < 0); "
        "intersected with [1, T] it is one interval: Proposition 4.10",
        is_zero(interval_start.subs(digit, digit + 1) - interval_end - 1)
        and is_zero(interval_end.subs(digit, upper) - interval_start.subs(digit, upper) - (width - 1)),
    )


#: The arity (and height) as the mutations write them (the symbols the program substitutes).
_K, _H = sp.symbols("k h", integer=True, positive=True)

@proves(
    PAPER,
    "Proposition 4.10",
    "Lemma 4.12",
    mutations=(
        mutation("bound h(k + 1)/2", claimed_bound=_H * (_K + 1) / 2),
        mutation("bound h(k − 1)/2 − 1", claimed_bound=_H * (_K - 1) / 2 - 1),
    ),
)
def prove(claimed_bound: Any = None) -> ProofRecord:
    """Run the program; ``claimed_bound`` (in k, h; default h(k − 1)/2) is claimed to be the tight bound."""
    from . import lemma_4_5 as kary_lemma_4_5

    m, h = HALF, HEIGHT
    k = 2 * m + 1
    kk = sp.Symbol("k", integer=True, positive=True)
    bound = h * (kk - 1) / 2 if claimed_bound is None else sp.sympify(claimed_bound)
    bound = bound.subs(kk, k)
    record = ProofRecord(PAPER, "Proposition 4.10 and Lemma 4.12", STATEMENT)
    walk = kary_lemma_4_5.prove()
    record.step(
        f"Lemma 4.5's program holds (reference_verification.kary.proofs.lemma_4_5: {len(walk.steps)} steps): the walk of output "
        "t lands on p only at the level q of p's lowest non-zero digit d, only when t's digits above q give "
        "U = p − d·w and t_q has the sign of d with |t_q| >= |d|, and at most once per output",
        established(walk, kary_lemma_4_5.prove),
    )
    used_interval(record)
    stored = h * m  # h levels, each |t_ℓ| <= m
    record.step(
        "stored: drawing z_p at its interval's first output and dropping it after the last keeps exactly the "
        "values the current output uses, ‖rep(t, h)‖₁ = Σ_ℓ |t_ℓ| <= h·m = h(k − 1)/2 of them; the claimed bound "
        f"{sp.factor(bound)} is at least h·m for every m >= 1, h >= 1 (the difference, in m − 1 and h − 1 >= 0, has "
        "no negative coefficient)",
        nonnegative_polynomial(bound - stored, {m: 1, h: 1}),
    )
    capacity = digit_capacity(record, h, "h")
    record.step(
        "attained: t = (k^h − 1)/2 = m·Σ_ℓ k^(ℓ−1) has all h digits equal to m (digits are unique, step 1), so it "
        f"keeps h·m values; the claimed bound {sp.factor(bound)} equals h·m, so it is the tight bound",
        is_zero(capacity - (k**h - 1) / 2) and is_zero(bound - stored),
    )
    power, spare = sp.symbols("P u", nonnegative=True)  # P = k^(h−1); T = (P + 1)/2 + u by the minimality of h
    horizon = (power - 1) / 2 + 1 + spare
    record.step(
        "size: h is the smallest height with (k^h − 1)/2 >= T, so T >= (k^(h−1) − 1)/2 + 1 = (P + 1)/2 and "
        "2T − 1 − P >= 0: k^(h−1) < 2T, h < log_k(2T) + 1, and h(k − 1)/2 = O(k log_k T)",
        nonnegative_polynomial(2 * horizon - 1 - power, {power: 0, spare: 0}),
    )
    return record


if __name__ == "__main__":
    print_record(prove())
