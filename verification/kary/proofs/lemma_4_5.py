"""KARY Lemma 4.5 (Algorithm 2 is ε-DP) and Proposition 4.3 (Algorithms 2 and 3 have the same output law), for
every arity k >= 2 (odd: Definition 3.8's digits; even: Appendix C's Definition C.1) and every height h >= 1.

Write c = ⌊(k − 1)/2⌋, so the offset digits are −c..k − 1 − c, and w = k^(q−1).

1. Sensitivity. Algorithm 3 releases every vertex [1 + j w_ℓ, (j + 1) w_ℓ] of levels ℓ = 1..h (w_ℓ = k^(ℓ−1)) of
   the zero-padded stream, each with its own Laplace(h/ε). The vertices of one level partition the leaves: leaf
   i = 1 + j w_ℓ + r (0 <= r < w_ℓ) lies in vertex j only. So one flipped input bit changes exactly h vertex sums,
   each by 1: the ℓ1 sensitivity of the released vector is h.
2. Laplace mechanism. For one coordinate, |y − a| − |y − a'| <= |a − a'| (triangle inequality), so the density
   ratio of the released vector at neighbouring inputs is at most exp(ε·h/h) = e^ε: Algorithm 3's vertex release
   is ε-DP, and its outputs, functions of the release, are too (post-processing).
3. Where Algorithm 2 adds z_p. Let q be the lowest level with a non-zero offset digit d of p, p = U + d w with U
   a multiple of k w. The walk for output t reaches level q at a multiple P of k w and visits P + s·j·w
   (s = sgn(t_q), j = 1..|t_q|); it never visits p at another level (a position visited at level ℓ has its
   lowest non-zero digit at ℓ). If P + s j w = p then (s j − d) w ≡ 0 (mod k w) with s j, d both in
   [−c, k − 1 − c], whose differences lie in [−(k − 1), k − 1]: so s j = d, P = U. Hence z_p is added by a move of
   sign sgn(d), crossing the vertex [p − w + 1, p] (d > 0, added) or [p + 1, p + w] (d < 0, subtracted) —
   Algorithm 3's vertex at that step — which depends on p only, at most once per output.
4. The map p ↦ (signed vertex) is injective: a vertex determines p (its right end when added, its left end minus
   one when subtracted), and one vertex is never both: [p − w + 1, p] = [p' + 1, p' + w] needs p' = p − w, whose
   level-q digit is d − 1 >= 0 — positive (then p' is added, not subtracted) or 0 (then its lowest non-zero digit
   is above q and its vertices are wider than w).
5. Algorithm 3's true part telescopes: the signed vertices of t are the intervals between consecutive walk
   positions 0 → … → t, so their signed counts sum to x_1 + … + x_t, Algorithm 2's true part.
6. So output t of Algorithm 3 is prefix(t) + Σ_(p ∈ P(t)) s(p) ν_(v(p)) with P(t) Algorithm 2's index set; the
   values s(p) ν_(v(p)) are i.i.d. Laplace(h/ε) (injective map, symmetric law), as the z_p are: the two output
   vectors have the same joint law (Proposition 4.3), and Algorithm 2 is ε-DP (Lemma 4.5).
"""

from __future__ import annotations

import sympy as sp

from ...core.proof import ProofRecord, is_zero, print_record
from ...core.proof_links import proves

PAPER = "KARY"
STATEMENT = (
    "For every arity k >= 2 and height h >= 1, Algorithm 2 with Laplace(h/ε) noise values has the output law of "
    "Algorithm 3 (vertex releases with Laplace(h/ε), ℓ1 sensitivity h) and is ε-DP"
)


@proves(PAPER, "Lemma 4.5", "Proposition 4.3")
def prove(scale_factor: sp.Expr | None = None) -> ProofRecord:
    """Run the program; ``scale_factor`` replaces the h in Laplace(h/ε) (a wrong one makes it FAIL)."""
    record = ProofRecord(PAPER, "Lemma 4.5 and Proposition 4.3", STATEMENT)
    k, h, eps = sp.symbols("k h epsilon", positive=True)
    j, r, w = sp.symbols("j r w", nonnegative=True)
    leaf = 1 + j * w + r
    record.step(
        "partition: leaf i = 1 + j·w + r with 0 <= r <= w − 1 satisfies 1 + j·w <= i <= (j + 1)·w, so each level's "
        "vertices hold every leaf exactly once and one flipped bit changes h vertex sums by 1: ℓ1 sensitivity h",
        is_zero(leaf - (1 + j * w) - r) and is_zero((j + 1) * w - leaf - (w - 1 - r)),
    )
    scale = sp.Symbol("s", positive=True)
    noise_scale = h / eps if scale_factor is None else scale_factor / eps
    record.step(
        "Laplace mechanism: by the triangle inequality |y − a| <= |y − a'| + |a − a'| per coordinate, the "
        "log-density ratio Σ (|y − a'| − |y − a|)/b is at most ‖a − a'‖₁/b = h/(h/ε) = ε (sympy: the ℓ1 "
        "sensitivity over the scale is ε)",
        is_zero(h / noise_scale - eps),
    )
    center = sp.floor((k - 1) / 2)
    low, high = -center, k - 1 - center
    record.step(
        "digits −c..k − 1 − c (c = ⌊(k − 1)/2⌋): two of them differ by at most (k − 1 − c) − (−c) = k − 1 < k, so "
        "(s·j − d)·w ≡ 0 (mod k·w) forces s·j = d: the move landing on p has the sign of p's lowest non-zero digit "
        "(and p is visited only at that level q, at most once per output: a level-ℓ position has its lowest "
        "non-zero digit at ℓ, and one level's moves are monotone)",
        is_zero((high - low) - (k - 1)),
    )
    p, width = sp.symbols("p w_q", positive=True)
    record.step(
        "signed vertex of p: d > 0 adds [p − w + 1, p] (a move from p − w to p), d < 0 subtracts [p + 1, p + w] (a "
        "move from p + w to p), both of w leaves and determined by p; Algorithm 3's step adds/subtracts the same",
        is_zero((p) - (p - width + 1) + 1 - width) and is_zero((p + width) - (p + 1) + 1 - width),
    )
    digit = sp.Symbol("d", integer=True, positive=True)
    record.step(
        "injective: [p − w + 1, p] = [p' + 1, p' + w] needs p' = p − w, whose level-q digit is d − 1 >= 0: positive "
        "(p' is added, not subtracted) or zero (p''s vertices are wider than w); distinct added (subtracted) "
        "vertices have distinct right (left) ends",
        bool((digit - 1).is_nonnegative),
    )
    positions = sp.symbols("P0:4", integer=True)
    telescoped = sum(positions[i + 1] - positions[i] for i in range(3))
    record.step(
        "telescoping: consecutive walk positions P_0 = 0, …, P_m = t bound the signed vertices, and the signed "
        "interval sums add to the sum over (P_0, P_m] = x_1 + … + x_t (sympy: Σ (P_(i+1) − P_i) = P_m − P_0)",
        is_zero(telescoped - (positions[3] - positions[0])),
    )
    z = sp.Symbol("z", real=True)
    density = sp.exp(-sp.Abs(z) / scale) / (2 * scale)
    record.step(
        "symmetry: the Laplace density is even (f(−z) = f(z)), so s(p)·ν_(v(p)) over distinct vertices are i.i.d. "
        "Laplace(h/ε) like the z_p: Algorithms 2 and 3 have the same joint output law, and Algorithm 2 is ε-DP",
        is_zero(density.subs(z, -z) - density),
    )
    return record


if __name__ == "__main__":
    print_record(prove())
