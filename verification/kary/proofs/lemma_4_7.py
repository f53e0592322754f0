"""KARY paper, Lemma 4.7: Algorithm 2's ε²·MSE over T = (k^h − 1)/2 outputs is k(1 − 1/k²) h³ / (2(1 − 1/k^h)).

For every odd arity k = 2m + 1 >= 3 and height h >= 1. Method (Proof 4.8, made explicit):

1. Height. At T = (k^h − 1)/2 Algorithm 2's height ⌈log_k(2T)⌉ is h: T exceeds the capacity (k^(h−1) − 1)/2
   of height h − 1 by (k^h − k^(h−1))/2 > 0 and equals the capacity of height h.
2. Counting (bijection). φ(d) = Σ_i d_i k^(i−1) maps D^h, D = {−m..m}, into [−T, T]: its largest value
   m·Σ_i k^(i−1) = m(k^h − 1)/(k − 1) equals T because k − 1 = 2m (geometric sum by induction on h). It is
   injective (digits differ by 1..2m = k − 1 < k, so the lowest differing position leaves a non-zero residue),
   and |D^h| = k^h = 2T + 1 = |[−T, T]|, so φ is a bijection: the offset digit vectors of t = −T..T are
   exactly all vectors of D^h.
3. Symmetry t ↔ −t. Negation maps D^h onto itself with φ(−d) = −φ(d) and ‖−d‖₁ = ‖d‖₁; the zero vector is
   t = 0 with ‖0‖₁ = 0. Hence Σ_(t=1)^(T) ‖rep(t)‖₁ = Σ_(t=−T)^(−1) ‖rep(t)‖₁ = mass/2.
4. Digit mass. mass = h·k^(h−1)·Σ_(a ∈ D)|a| (the generating function of ``kary_lemma_3_5.digit_mass``) with
   Σ_(a=−m)^(m) |a| = 2·Σ_(a=1)^(m) a = m(m + 1) = (k² − 1)/4.
5. ε²·MSE = 2h² · (mass/2) / T (Laplace(h/ε) noise, variance 2h²/ε², on each of the ‖rep(t)‖₁ distinct
   noise values), compared with the claim symbolically. ``prove(claimed=...)`` takes the claim, so a wrong
   closed form FAILS.

The even-arity digit set of Appendix C, {−m + 1..m} with k = 2m, is not symmetric, so step 3 does not apply
there (Claim 1 is proved differently in the paper and checked in verification/).
"""

from __future__ import annotations

import sympy as sp

from ...core.proof import ProofRecord, print_record
from ...core.proof_links import mutation, proves
from .lemma_3_5 import PAPER, SANITY, digit_mass, geometric_sum_by_induction, h

STATEMENT = (
    "For every odd arity k >= 3 and height h >= 1, Algorithm 2 (Laplace(h/ε) noise values) has mean squared "
    "error k(1 − 1/k²) h³ / (2 ε² (1 − 1/k^h)) over T = (k^h − 1)/2 outputs."
)

m = sp.Symbol("m", integer=True, positive=True)
#: The arity as an odd number: every odd k >= 3 is 2m + 1 with m >= 1.
ARITY = 2 * m + 1


def paper_closed_form() -> sp.Expr:
    """Lemma 4.7 as printed, times ε², in the symbols m (k = 2m + 1) and h."""
    k = ARITY
    return k * (1 - 1 / k**2) * h**3 / (2 * (1 - 1 / k**h))


@proves(
    "KARY",
    "Lemma 4.7",
    mutations=(
        mutation("twice the MSE", claimed=ARITY * (1 - 1 / ARITY**2) * h**3 / (1 - 1 / ARITY**h)),
        mutation("Claim 1's even form", claimed=ARITY * h**3 / (2 * (1 - 1 / ARITY**h))),
    ),
)
def prove(claimed: sp.Expr | None = None, sanity: bool = True) -> ProofRecord:
    """Prove Lemma 4.7 for all odd k >= 3, h >= 1; ``claimed`` (symbols m, h with k = 2m + 1) defaults to it."""
    record = ProofRecord(PAPER, "Lemma 4.7", STATEMENT)
    k = ARITY
    claim = paper_closed_form() if claimed is None else claimed
    horizon = (k**h - 1) / 2

    # 1. the height
    record.step(
        "height: T − (k^(h−1) − 1)/2 = k^(h−1)(k − 1)/2 = k^(h−1)·m > 0, so h − 1 levels do not hold T while h "
        "levels hold exactly T (Algorithm 2's h = ⌈log_k(2T)⌉ is h)",
        sp.simplify(horizon - (k ** (h - 1) - 1) / 2 - k ** (h - 1) * m) == 0,
    )

    # 2. the bijection
    geometric = geometric_sum_by_induction(record, k)
    record.step(
        "range: the largest value of φ on {−m..m}^h is m·Σ k^(i−1) = m(k^h − 1)/(2m) = T, the smallest −T",
        sp.simplify(m * geometric - horizon) == 0,
    )
    record.step(
        "injective: digits in {−m..m} differ by 1..2m, and k − 2m = 1 > 0, so the lowest differing position "
        "leaves a non-zero residue modulo k^j",
        sp.simplify(k - 2 * m) == 1,
    )
    record.step(
        "bijection: |D^h| = k^h = 2T + 1 = |[−T, T]|, and an injection between equal finite sets is onto",
        sp.simplify(2 * horizon + 1 - k**h) == 0,
    )

    # 3. symmetry and 4. mass
    a = sp.Symbol("a", integer=True, positive=True)
    absolute_sum = 2 * sp.summation(a, (a, 1, m))  # |−a| = |a|, and a = 0 contributes 0
    record.step(
        "Σ_(a=−m)^(m) |a| = 2·Σ_(a=1)^(m) a = m(m + 1) = (k² − 1)/4 (sympy summation)",
        sp.simplify(absolute_sum - m * (m + 1)) == 0 and sp.simplify(absolute_sum - (k**2 - 1) / 4) == 0,
    )
    mass = digit_mass(k, absolute_sum, h)
    record.step(
        "mass: Σ_(d ∈ D^h) ‖d‖₁ = h·k^(h−1)·m(m + 1) (generating function G(x)^h at x = 1)",
        sp.simplify(mass - h * k ** (h - 1) * m * (m + 1)) == 0,
    )
    positive_mass = mass / 2
    record.step(
        "symmetry: negation is a bijection of D^h with φ(−d) = −φ(d), ‖−d‖₁ = ‖d‖₁, fixing only the zero vector "
        "(t = 0, weight 0); so Σ_(t=1)^(T) ‖rep(t)‖₁ = Σ_(t=−T)^(−1) ‖rep(t)‖₁ and their sum is the mass",
        sp.simplify(2 * positive_mass - mass) == 0,
    )

    # 5. the mean squared error
    derived = 2 * h**2 * positive_mass / horizon
    record.step(
        f"ε²·MSE = 2h²·(mass/2)/T = {sp.factor(sp.simplify(derived))} equals the claim {claim}",
        sp.simplify(derived - claim) == 0,
    )

    if sanity:
        from fractions import Fraction

        from reference.kary.mse import algorithm_2_mse, algorithm_2_total_noise_count

        def value(expr: sp.Expr, half: int, height: int) -> Fraction:
            number = sp.Rational(expr.subs({m: half, h: height}))
            return Fraction(int(number.p), int(number.q))

        cases = [(half, height) for half in (1, 2, 3) for height in range(1, 5) if (2 * half + 1) ** height <= 3000]
        record.step(
            SANITY + "enumerated ε²·MSE (reference.kary.mse) equals the claim for k = 3, 5, 7, h <= 4",
            all(
                algorithm_2_mse(2 * half + 1, ((2 * half + 1) ** height - 1) // 2) == value(claim, half, height)
                for half, height in cases
            ),
        )
        record.step(
            SANITY + "enumerated Σ_(t=1)^(T) ‖rep(t)‖₁ equals mass/2 for the same cases",
            all(
                algorithm_2_total_noise_count(2 * half + 1, ((2 * half + 1) ** height - 1) // 2)
                == value(positive_mass, half, height)
                for half, height in cases
            ),
        )
    return record


if __name__ == "__main__":
    print_record(prove())
