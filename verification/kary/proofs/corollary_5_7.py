"""KARY paper, Corollary 5.7 and Proof 5.8 (variance of ℓ2 Laplace noise vs classical Gaussian noise).

Statement (w = ε/ln(1/δ) > 0, L = ln(1/δ) > 0, s = sqrt(1 + w)):

1. The variance ratio of Lemma 5.5's ``Lap(Δ2/a)`` to Lemma A.3's ``N(0, 2 ln(1.25/δ) Δ2²/ε²)`` is
   ``ε² / (2 L ln(1.25/δ) (s - 1)²)``, which is at most the factor ``f(w) = w² / (2 (s - 1)²)`` because
   ``ln(1.25/δ) > ln(1/δ)`` (Proof 5.8's inequality).
2. ``f(w) = (1 + sqrt(1 + w))² / 2``; so f increases in w, ``lim_{w -> 0} f = 2`` (equivalently ε -> 0), and on
   the corollary's range ε <= ln(1/δ) (w <= 1) f <= ``(1 + sqrt 2)²/2 = (3 + 2 sqrt 2)/2 ≈ 2.914``.
3. Proof 5.8's Taylor bounds: ``1 + w/2 - w²/8 <= sqrt(1 + w) <= 1 + w/2`` for every w >= 0, hence for
   0 < w <= 1: ``2 <= w/(sqrt(1 + w) - 1) <= w/(w/2 - w²/8) = 2/(1 - w/4)``.

Method: sympy (symbolic in w, L, ε; exact polynomial identities and a symbolic limit); the lower Taylor bound
through ``(1 + w) - (1 + w/2 - w²/8)² = w³ (8 - w)/64`` (>= 0 on [0, 8], where the left bound is >= 0 up to
2 + 2 sqrt 3 < 8; beyond, the left bound is negative). Constants certified with Arb (python-flint).

``prove(claimed_limit=2, taylor_coefficient=1/8)`` checks the printed constants; a wrong limit (e.g. 4) or a
wrong second-order Taylor coefficient (e.g. 1/16, which makes the lower bound false near 0) FAILS.

Findings (recorded as steps): the corollary's range ε <= ln(1/δ) is wider than the ranges of the two lemmas it
compares (Lemma 5.5 and Lemma A.3 are stated for ε ∈ (0, 1)); the Gaussian of Lemma A.3 is not even private
for some 1 <= ε <= ln(1/δ) (certified in ``verification/kary/checks/laplace.py``). The sentence before the
corollary says "whenever ε <= log(1/δ)" with the paper's log = log2 (w <= 1/ln 2 = 1.44, where f <= 3.28),
while the corollary says ln (w <= 1, f <= 2.914): both are constant factors, but the two ranges differ.
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp
from flint import arb

from ...core.proof import SANITY, ProofRecord, is_zero, print_record
from ...core.proof_links import proves

PAPER = "KARY"
STATEMENT = (
    "Var[Lap(Δ2/a_{ε,δ})] <= w²/(2(sqrt(1+w) - 1)²) Var[N(0, 2 ln(1.25/δ) Δ2²/ε²)] with w = ε/ln(1/δ); "
    "the factor equals (1 + sqrt(1+w))²/2, tends to 2 as ε -> 0 and is <= (3 + 2 sqrt 2)/2 for ε <= ln(1/δ)."
)


def _ratio(record: ProofRecord) -> None:
    eps, big_l, delta2 = sp.symbols("epsilon L Delta_2", positive=True)
    gauss_log = sp.Symbol("G", positive=True)  # ln(1.25/δ) = L + ln(5/4) > L
    s = sp.sqrt(1 + eps / big_l)
    a = sp.sqrt(2 * big_l) * (s - 1)
    laplace_variance = 2 * (delta2 / a) ** 2
    gauss_variance = 2 * gauss_log * delta2**2 / eps**2
    ratio = laplace_variance / gauss_variance
    record.step(
        "Var[Lap(Δ2/a)] = 2 (Δ2/a)² and Var[Gauss] = 2 ln(1.25/δ) Δ2²/ε², so the ratio is "
        "ε² / (2 L ln(1.25/δ) (s - 1)²) (sympy)",
        is_zero(ratio - eps**2 / (2 * big_l * gauss_log * (s - 1) ** 2)),
    )
    w = eps / big_l
    factor = w**2 / (2 * (s - 1) ** 2)
    record.step(
        "ratio = factor · L / ln(1.25/δ), and ln(1.25/δ) = L + ln(5/4) > L (ln(5/4) > 0, certified), so "
        "ratio < factor",
        is_zero(ratio - factor * big_l / gauss_log) and bool(arb(5).log() - arb(4).log() > 0),
    )


def _factor(record: ProofRecord, claimed_limit: sp.Expr) -> None:
    w = sp.Symbol("w", positive=True)
    factor = w**2 / (2 * (sp.sqrt(1 + w) - 1) ** 2)
    closed = (1 + sp.sqrt(1 + w)) ** 2 / 2
    record.step(
        "f(w) = w²/(2(sqrt(1+w) - 1)²) = (1 + sqrt(1+w))²/2 (multiply by (sqrt(1+w) + 1)²; (1+w) - 1 = w)",
        is_zero(sp.radsimp(factor) - closed) or is_zero(sp.simplify(factor - closed)),
    )
    record.step(
        "f is increasing in w > 0 (derivative (1 + sqrt(1+w))/(2 sqrt(1+w)) > 0)",
        bool(sp.ask(sp.Q.positive(sp.simplify(sp.diff(closed, w))))),
    )
    limit = sp.limit(factor, w, 0, "+")
    record.step(f"lim_(w -> 0+) f(w) = {claimed_limit} (sympy limit; ε -> 0 with δ fixed means w -> 0)", is_zero(limit - claimed_limit))
    at_one = closed.subs(w, 1)
    record.step(
        "on the corollary's range w <= 1: f <= f(1) = (1 + sqrt 2)²/2 = (3 + 2 sqrt 2)/2 "
        f"= {(arb(2).sqrt() * 2 + 3) / 2} (Arb)",
        is_zero(at_one - (3 + 2 * sp.sqrt(2)) / 2),
    )
    log2_range = closed.subs(w, 1 / sp.log(2))
    record.step(
        "AMBIGUITY: the sentence before the corollary says ε <= log(1/δ) with the paper's log = log2, i.e. "
        f"w <= 1/ln 2, where f <= f(1/ln 2) = {sp.N(log2_range, 6)} instead of f(1) = {sp.N(at_one, 6)}",
        bool(sp.N(log2_range, 30) > sp.N(at_one, 30)),
    )


def _taylor(record: ProofRecord, coefficient: sp.Expr) -> None:
    w = sp.Symbol("w", nonnegative=True)
    lower = 1 + w / 2 - coefficient * w**2
    upper = 1 + w / 2
    record.step(
        "upper Taylor bound: (1 + w/2)² - (1 + w) = w²/4 >= 0 and 1 + w/2 > 0, so sqrt(1 + w) <= 1 + w/2",
        is_zero(sp.expand(upper**2 - (1 + w)) - w**2 / 4),
    )
    difference = sp.factor(sp.expand((1 + w) - lower**2))
    record.step(
        f"lower Taylor bound: (1 + w) - (1 + w/2 - {coefficient} w²)² = w³(8 - w)/64, >= 0 on [0, 8]",
        is_zero(difference - w**3 * (8 - w) / 64),
    )
    positive_part = sp.solve(sp.Eq(lower, 0), w)
    record.step(
        f"1 + w/2 - {coefficient} w² >= 0 exactly up to its positive root {positive_part} < 8, so squaring is "
        "valid there and the bound is trivial beyond: sqrt(1 + w) >= 1 + w/2 - w²/8 for every w >= 0",
        len(positive_part) == 1 and bool(positive_part[0] < 8),
    )
    w_pos = sp.Symbol("w", positive=True)
    ratio_bound = w_pos / (w_pos / 2 - coefficient * w_pos**2)
    record.step(
        "hence for 0 < w <= 1 (w/2 - w²/8 > 0 for w < 4): w/(sqrt(1+w) - 1) <= w/(w/2 - w²/8) = 2/(1 - w/4) "
        "-> 2, and w/(sqrt(1+w) - 1) >= w/(w/2) = 2",
        is_zero(ratio_bound - 2 / (1 - w_pos / 4)) and is_zero(w_pos / (upper.subs(w, w_pos) - 1) - 2),
    )


@proves("KARY", "Corollary 5.7")
def prove(claimed_limit: int | Fraction = 2, taylor_coefficient: Fraction = Fraction(1, 8), sanity: bool = True) -> ProofRecord:
    """Prove Corollary 5.7 (given Lemmas 5.5 and A.3) with the printed limit and Taylor coefficient."""
    record = ProofRecord(PAPER, "Corollary 5.7 / Proof 5.8", STATEMENT)
    limit = sp.Rational(Fraction(claimed_limit).numerator, Fraction(claimed_limit).denominator)
    coefficient = sp.Rational(taylor_coefficient.numerator, taylor_coefficient.denominator)
    _ratio(record)
    _factor(record, limit)
    _taylor(record, coefficient)
    if sanity:
        from mpmath import mp, mpf, sqrt

        with mp.workdps(40):
            values = [mpf(n) / 64 for n in range(1, 65)]
            ok = all(
                mpf(2) <= w / (sqrt(1 + w) - 1) <= 2 / (1 - w / 4) and 1 + w / 2 - w**2 / 8 <= sqrt(1 + w)
                for w in values
            )
        record.step(SANITY + "2 <= w/(sqrt(1+w) - 1) <= 2/(1 - w/4) at w = 1/64, ..., 1 (mpmath, 40 digits)", ok)
    return record


if __name__ == "__main__":
    print_record(prove())
