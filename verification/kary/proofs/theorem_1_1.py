"""KARY Theorem 1.1's error statement at every horizon: Algorithm 2's MSE is k(1 − 1/k²)/(2ε² log(k)³)·log(T)³
+ O(log(T)²), for every odd k >= 3 and every T >= 2 (not only at the full-tree horizons of Lemma 4.7).

Write k = 2m + 1, h = Algorithm 2's height at T (the smallest h with (k^h − 1)/2 >= T), M = (k^h − 1)/2,
F = Σ_(a=−m)^(m) |a| = m(m + 1) = (k² − 1)/4 and S(T) = Σ_(t=1)^(T) ‖rep(t, h)‖₁, so ε²·MSE = 2h² S(T)/T.

1. Shift. For n = t + M in [0, k^h − 1] with standard digits d_i, Σ_i (d_i − m) k^(i−1) = n − M = t (geometric sum)
   and d_i − m lies in [−m, m]; by Lemma 4.7's bijection (its program runs) that vector is rep(t, h). So the
   level-ℓ offset digit of t is (⌊(t + M)/w⌋ mod k) − m, w = k^(ℓ−1).
2. One level. As t runs over T consecutive values, n = t + M runs over T consecutive integers; each standard
   digit value occurs exactly w times in every k·w consecutive integers, so with q = ⌊T/(kw)⌋ full blocks and a
   rest of fewer than kw integers (meeting each value's run of w in at most w), each value occurs N_a times,
   qw <= N_a <= (q + 1)w. Hence Σ_t |level-ℓ digit| = Σ_a |a − m| N_a lies in [F q w, F (q + 1) w], and with
   T/(kw) − 1 < q <= T/(kw): |Σ_t |digit| − F T/k| <= F w.
3. All levels. |S(T) − h F T/k| <= F Σ_ℓ k^(ℓ−1) = F (k^h − 1)/(k − 1); minimality of h gives k^(h−1) <= 2T,
   so (k^h − 1)/(k − 1) < 2kT/(k − 1) and |ε²·MSE − (2F/k) h³| <= 4kF h²/(k − 1) = 2k(m + 1)h².
4. Height. (k^(h−1) − 1)/2 < T <= (k^h − 1)/2 gives log_k(2T) < h < log_k(2T) + 1, so h = L + θ with
   L = log_k T and 0 < θ < 1 + log_k 2 < 2; (2F/k)(h³ − L³) and B h² are at most polynomials of degree 2 in L.
5. So (ε²·MSE − (2F/k) L³)/L³ → 0 (sympy limit of the explicit bound), and (2F/k) L³ =
   k(1 − 1/k²)/(2 log(k)³)·log(T)³: Theorem 1.1's leading term, with an O(log(T)²) remainder, at every T.

``prove(claimed_constant=...)`` takes the leading constant (a sympy expression in k), so a wrong one FAILS.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from ...core.proof import SANITY, ProofRecord, established, is_zero, print_record
from ...core.proof_links import mutation, proves

PAPER = "KARY"
STATEMENT = (
    "For every odd k >= 3 and every T >= 2, Algorithm 2 (Laplace(h/ε) noise, h its height at T) has "
    "|ε²·MSE − (k² − 1)h³/(2k)| <= 2k(m + 1)h² (k = 2m + 1), hence MSE = k(1 − 1/k²)/(2ε² log(k)³)·log(T)³ + "
    "O(log(T)²) at every horizon"
)

HALF = sp.Symbol("m", integer=True, positive=True)


#: The arity (and height) as the mutations write them (the symbols the program substitutes).
_K = sp.Symbol("k", positive=True)

@proves(PAPER, "Theorem 1.1", mutations=(mutation("constant k/(2 log(k)³) (the even form)", claimed_constant=_K / (2 * sp.log(_K) ** 3)),))
def prove(claimed_constant: Any = None, sanity: bool = True) -> ProofRecord:
    """Run the program; raises :class:`~reference_verification.core.proof.ProofFailure` naming a step that fails."""
    from . import lemma_4_7 as kary_lemma_4_7
    from .lemma_3_5 import geometric_sum_by_induction, h

    m = HALF
    k = 2 * m + 1
    record = ProofRecord(PAPER, "Theorem 1.1 (error, every T)", STATEMENT)
    bijection = kary_lemma_4_7.prove(sanity=False)
    record.step(
        f"Lemma 4.7's program holds (reference_verification.kary.proofs.lemma_4_7: {len(bijection.steps)} steps), in particular "
        "its bijection between {−m..m}^h and [−(k^h − 1)/2, (k^h − 1)/2]",
        established(bijection, kary_lemma_4_7.prove),
    )
    geometric = geometric_sum_by_induction(record, k)
    shift = m * geometric
    record.step(
        "shift: Σ_i (d_i − m)k^(i−1) = n − m·Σ_i k^(i−1) = n − (k^h − 1)/2 = t, digits d_i − m in [−m, m], so the "
        "offset digit at level ℓ is (⌊(t + M)/w⌋ mod k) − m",
        is_zero(shift - (k**h - 1) / 2),
    )
    a = sp.Symbol("a", integer=True)
    full = sp.summation(sp.Abs(a), (a, -m, -1)) + sp.summation(a, (a, 1, m))
    record.step("F = Σ_(a=−m)^(m) |a| = m(m + 1) = (k² − 1)/4 (sympy summation)", is_zero(full - (k**2 - 1) / 4))
    horizon, width, blocks = sp.symbols("T w q", positive=True)
    low, high = full * blocks * width, full * (blocks + 1) * width
    fraction = horizon / (k * width)
    record.step(
        "one level: qw <= N_a <= (q + 1)w with q = ⌊T/(kw)⌋, so the level's digit total lies in [Fqw, F(q + 1)w]; "
        "at q = T/(kw) − 1 the lower end is F(T/k − w) and at q = T/(kw) the upper end is F(T/k + w), and both "
        "ends are increasing in q: the total is within F·w of F·T/k",
        is_zero(low.subs(blocks, fraction - 1) - full * (horizon / k - width))
        and is_zero(high.subs(blocks, fraction) - full * (horizon / k + width))
        and bool(sp.diff(low, blocks).is_positive)
        and bool(sp.diff(high, blocks).is_positive),
    )
    record.step(
        "all levels: Σ_(ℓ=1)^(h) F·k^(ℓ−1) = F(k^h − 1)/(k − 1) (the geometric sum above)",
        is_zero(full * geometric - full * (k**h - 1) / (k - 1)),
    )
    power = sp.Symbol("P", positive=True)  # P = k^(h−1) <= 2T by the minimality of h
    slack = full * (k * power - 1) / (k - 1) - 2 * k * full * horizon / (k - 1)
    record.step(
        "minimality of h: (k^(h−1) − 1)/2 < T, so P = k^(h−1) <= 2T and F(k^h − 1)/(k − 1) − 2kF·T/(k − 1) = "
        "F(kP − 1 − 2kT)/(k − 1) < 0",
        is_zero(slack - full * (k * (power - 2 * horizon) - 1) / (k - 1)),
    )
    bound = 2 * h**2 * 2 * k * full / (k - 1)
    record.step(
        "so |ε²·MSE − (2F/k)h³| = (2h²/T)|S(T) − hFT/k| <= 4kF h²/(k − 1) = 2k(m + 1)h²",
        is_zero(bound - 2 * k * (m + 1) * h**2) and is_zero(2 * full / k - (k**2 - 1) / (2 * k)),
    )
    big_l, theta = sp.symbols("L theta", positive=True)  # L = log_k T, h = L + θ with 0 < θ < 2
    leading = (k**2 - 1) / (2 * k)
    cubic_gap = sp.expand(leading * ((big_l + theta) ** 3 - big_l**3))
    envelope = leading * (6 * big_l**2 + 12 * big_l + 8) + 2 * k * (m + 1) * (big_l + 2) ** 2
    record.step(
        "height: log_k(2T) < h < log_k(2T) + 1, so h = L + θ, L = log_k T, 0 < θ < 1 + log_k 2 < 2; then "
        "(2F/k)(h³ − L³) + 2k(m + 1)h² <= (2F/k)(6L² + 12L + 8) + 2k(m + 1)(L + 2)² (each coefficient of "
        "(L + θ)³ − L³ = 3θL² + 3θ²L + θ³ is increasing in θ)",
        all(bool(sp.diff(coefficient, theta).is_positive) for coefficient in sp.Poly(cubic_gap, big_l).all_coeffs())
        and is_zero(cubic_gap.subs(theta, 2) - leading * (6 * big_l**2 + 12 * big_l + 8)),
    )
    record.step(
        "the remainder over L³ tends to 0: lim_(L→∞) envelope/L³ = 0 (sympy), so ε²·MSE = (2F/k)L³ + O(L²)",
        sp.limit(envelope / big_l**3, big_l, sp.oo) == 0,
    )
    kk, log_t = sp.symbols("k logT", positive=True)
    constant = kk * (1 - 1 / kk**2) / (2 * sp.log(kk) ** 3) if claimed_constant is None else claimed_constant
    record.step(
        f"(k² − 1)/(2k)·log_k(T)³ = {constant}·log(T)³ (sympy): Theorem 1.1's leading term",
        is_zero((kk**2 - 1) / (2 * kk) * (log_t / sp.log(kk)) ** 3 - constant * log_t**3),
    )
    if sanity:
        from fractions import Fraction

        from reference.kary.digits import height_for_horizon
        from reference.kary.mse import algorithm_2_mse_digit_programme

        cases = [(arity, steps) for arity in (3, 5, 19) for steps in (*range(2, 400), 10**6 + 7, 10**12, 3 * 10**11)]
        record.step(
            SANITY + "exact ε²·MSE (digit programme) within 2k(m + 1)h² of (k² − 1)h³/(2k) for k = 3, 5, 19, "
            "T = 2..399, 10^6 + 7, 3·10^11, 10^12",
            all(
                abs(algorithm_2_mse_digit_programme(arity, steps) - Fraction(arity**2 - 1, 2 * arity) * height**3)
                <= arity * (arity + 1) * height**2
                for arity, steps in cases
                for height in (height_for_horizon(arity, steps, offset=True),)
            ),
        )
    return record


if __name__ == "__main__":
    print_record(prove())
