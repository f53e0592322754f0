"""KARY Lemma 4.5 (Algorithm 2 is ε-DP) and Proposition 4.3 (Algorithms 2 and 3 have the same output law), for
every arity k >= 2 (odd: Definition 3.8's digits; even: Appendix C's Definition C.1) and every height h >= 1.

Write c = ⌊(k − 1)/2⌋, so the offset digits are −c..k − 1 − c, and w = k^(q−1). The program takes c as a function
of k (``center``) and checks, for each parity of k, every fact the argument uses about the digit window: it is
Definition 3.8's (odd k) or C.1's (even k) digit set, it holds Algorithm 2's horizon at every height, and it
contains 0 (so the walk's moves s·j, between 0 and a digit, are digits, and p ∓ w has a digit in the window). A
window that is not Algorithm 2's — c = ⌊(k + 5)/2⌋, say — fails there (the mutation test).

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

from collections.abc import Callable

import sympy as sp

from ...core.proof import SANITY, ProofRecord, is_zero, nonnegative_polynomial, print_record
from ...core.proof_links import mutation, proves

PAPER = "KARY"
STATEMENT = (
    "For every arity k >= 2 and height h >= 1, Algorithm 2 with Laplace(h/ε) noise values has the output law of "
    "Algorithm 3 (vertex releases with Laplace(h/ε), ℓ1 sensitivity h) and is ε-DP"
)

#: m >= 1 with k = 2m + 1 (odd) or k = 2m (even); P = k^h, an independent symbol for the power.
HALF = sp.Symbol("m", integer=True, positive=True)
POWER = sp.Symbol("P", integer=True, positive=True)
Center = Callable[[sp.Expr], sp.Expr]


def digit_center(arity: sp.Expr) -> sp.Expr:
    """c = ⌊(k − 1)/2⌋: the offset digits are −c..k − 1 − c (``reference.kary.digits.digit_offset``)."""
    return sp.floor((arity - 1) / 2)


#: For each parity: k in terms of m, the paper's lowest and highest digit, and Algorithm 2's horizon at height h
#: (the largest t it releases): (k^h − 1)/2 for odd k (Definition 3.8), k(k^h − 1)/(2(k − 1)) for even k (C.1).
PARITIES = {
    "odd k = 2m + 1 (Definition 3.8)": (2 * HALF + 1, -HALF, HALF, (POWER - 1) / 2),
    "even k = 2m (Definition C.1)": (2 * HALF, -HALF + 1, HALF, 2 * HALF * (POWER - 1) / (2 * (2 * HALF - 1))),
}


def _window(center: Center, arity: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """The lowest and highest digit −c, k − 1 − c of the window."""
    c = sp.simplify(center(arity))
    return -c, arity - 1 - c


def _record_partition(record: ProofRecord) -> None:
    """Step 1: each level's vertices [1 + j·w, (j + 1)·w] hold every leaf exactly once."""
    j, u, v, w = sp.symbols("j u v w", integer=True, nonnegative=True)
    r = w - 1 - u  # 0 <= r <= w − 1 with u >= 0 (and r >= 0: w >= 1 + u, written below as w = 1 + u + x)
    x = sp.Symbol("x", integer=True, nonnegative=True)
    leaf = (1 + j * w + r).subs(w, 1 + u + x)
    width = 1 + u + x
    inside = nonnegative_polynomial(leaf - (1 + j * width), {j: 0, u: 0, x: 0}) and nonnegative_polynomial(
        (j + 1) * width - leaf, {j: 0, u: 0, x: 0}
    )
    # a later vertex j + 1 + v starts after the leaf; an earlier one, j − 1 − v (j = j'' + 1 + v), ends before it
    later = nonnegative_polynomial(1 + (j + 1 + v) * width - leaf - 1, {j: 0, u: 0, v: 0, x: 0})
    earlier_leaf = leaf.subs(j, j + 1 + v)
    earlier = nonnegative_polynomial(earlier_leaf - (j + 1) * width - 1, {j: 0, u: 0, v: 0, x: 0})
    level = sp.Symbol("l", integer=True, positive=True)
    height = sp.Symbol("h", integer=True, positive=True)
    count = sp.summation(sp.Integer(1), (level, 1, height))
    record.step(
        "partition (symbolic in j, w >= 1, 0 <= r <= w − 1; non-negative coefficients after shifting): leaf "
        "i = 1 + j·w + r has i − (1 + j·w) >= 0 and (j + 1)·w − i >= 0; every later vertex j + 1 + v starts at "
        "least 1 after i and every earlier vertex j − 1 − v ends at least 1 before it. So each level holds the "
        "leaf in exactly one vertex, and one flipped bit changes Σ_(ℓ=1)^h 1 = h vertex sums by 1: ℓ1 sensitivity h",
        inside and later and earlier and is_zero(count - height),
    )


def _record_window(record: ProofRecord, center: Center) -> None:
    """Steps 3–4's facts about the digit window, for each parity of k."""
    m = HALF
    for parity, (arity, low, high, horizon) in PARITIES.items():
        window_low, window_high = _window(center, arity)
        record.step(
            f"{parity}: the window −c..k − 1 − c with c = {sp.simplify(center(arity))} is the paper's digit set "
            f"{low}..{high} (sympy, symbolic in m), and its largest value high·(k^h − 1)/(k − 1) is Algorithm 2's "
            f"horizon {sp.simplify(horizon)} (P = k^h): every t the algorithm releases has exactly one vector",
            is_zero(window_low - low) and is_zero(window_high - high)
            and is_zero(window_high * (POWER - 1) / (arity - 1) - horizon),
        )
        digit = sp.Symbol("v", integer=True, nonnegative=True)
        record.step(
            f"{parity}: 0 lies in the window (−low >= 0 and high >= 0 for m >= 1), so a move s·j between 0 and a "
            "digit t_q is a digit; two digits differ by at most high − low <= k − 1 < k, so (s·j − d)·w ≡ 0 "
            "(mod k·w) forces s·j = d: the move landing on p has the sign of p's lowest non-zero digit d (and p is "
            "visited only at that level, at most once per output). For d = 1 + v >= 1 the digit d − 1 of p − w is "
            "in the window (d − 1 − low >= 0), and for d = −1 − v <= −1 so is d + 1 of p + w (high − d − 1 >= 0)",
            nonnegative_polynomial(-window_low, {m: 1}) and nonnegative_polynomial(window_high, {m: 1})
            and nonnegative_polynomial(arity - 1 - (window_high - window_low), {m: 1})
            and nonnegative_polynomial((1 + digit) - 1 - window_low, {m: 1, digit: 0})
            and nonnegative_polynomial(window_high - (-1 - digit) - 1, {m: 1, digit: 0}),
        )


@proves(
    PAPER,
    "Lemma 4.5",
    "Proposition 4.3",
    mutations=(
        mutation("digit window centre ⌊(k + 5)/2⌋", center=lambda arity: sp.floor((arity + 5) / 2)),
        mutation("digit window centre ⌊k/2⌋ (even k: −k/2..k/2 − 1, not C.1)", center=lambda arity: sp.floor(arity / 2)),
        mutation("standard digits 0..k − 1 (no subtraction)", center=lambda arity: sp.Integer(0)),
        mutation("Laplace(h/(2ε))", scale_factor=sp.Symbol("h", positive=True) / 2),
    ),
)
def prove(scale_factor: sp.Expr | None = None, center: Center = digit_center, sanity: bool = True) -> ProofRecord:
    """Run the program; ``scale_factor`` replaces the h in Laplace(h/ε) and ``center`` the c of the digit window
    −c..k − 1 − c (a wrong one makes it FAIL)."""
    record = ProofRecord(PAPER, "Lemma 4.5 and Proposition 4.3", STATEMENT)
    h, eps = sp.symbols("h epsilon", positive=True)
    _record_partition(record)
    scale = sp.Symbol("s", positive=True)
    noise_scale = h / eps if scale_factor is None else scale_factor / eps
    record.step(
        "Laplace mechanism: by the triangle inequality |y − a| <= |y − a'| + |a − a'| per coordinate, the "
        "log-density ratio Σ (|y − a'| − |y − a|)/b is at most ‖a − a'‖₁/b = h/(h/ε) = ε (sympy: the ℓ1 "
        "sensitivity over the scale is ε)",
        is_zero(h / noise_scale - eps),
    )
    _record_window(record, center)
    # the walk positions 0 = P_0, P_1, …: Σ_(i<n) (P_(i+1) − P_i) = P_n − P_0, by induction on n
    positions = sp.Function("P")
    n = sp.Symbol("n", integer=True, nonnegative=True)
    record.step(
        "telescoping (induction on the number n of moves, symbolic): the signed vertices of t are the intervals "
        "between consecutive walk positions; (P_n − P_0) + (P_(n+1) − P_n) = P_(n+1) − P_0 and the empty walk sums "
        "to 0, so their signed counts add to the sum over (0, t]: x_1 + … + x_t, Algorithm 2's true part",
        is_zero((positions(n) - positions(0)) + (positions(n + 1) - positions(n)) - (positions(n + 1) - positions(0)))
        and is_zero(positions(0) - positions(0)),
    )
    z = sp.Symbol("z", real=True)
    density = sp.exp(-sp.Abs(z) / scale) / (2 * scale)
    record.step(
        "symmetry: the Laplace density is even (f(−z) = f(z)) and integrates to 1, so s(p)·ν_(v(p)) over distinct "
        "vertices are i.i.d. Laplace(h/ε) like the z_p: Algorithms 2 and 3 are the same linear map of i.i.d. "
        "Laplace values (Proposition 4.3), and Algorithm 2 is ε-DP (Lemma 4.5)",
        is_zero(density.subs(z, -z) - density)
        and is_zero(sp.integrate(density.subs(z, sp.Symbol("y", nonnegative=True)), (sp.Symbol("y", nonnegative=True), 0, sp.oo)) * 2 - 1),
    )
    if sanity:
        from reference.kary import digits as kary_digits

        arities = range(2, 10)
        record.step(
            SANITY + "the window's c is reference.kary.digits.digit_offset and its largest value "
            "offset_capacity, k = 2..9, h = 1..4",
            all(
                int(center(sp.Integer(arity))) == kary_digits.digit_offset(arity)
                and all(
                    (arity - 1 - int(center(sp.Integer(arity)))) * (arity**height - 1) // (arity - 1)
                    == kary_digits.offset_capacity(arity, height)
                    for height in range(1, 5)
                )
                for arity in arities
            ),
        )
    return record


if __name__ == "__main__":
    print_record(prove())
