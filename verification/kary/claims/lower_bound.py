"""KARY Section 6: the lower bound (Theorem 1.4, Lemmas 6.2 and 6.4)."""

from __future__ import annotations

from fractions import Fraction

from reference.core.certified import format_directed

from ...core.claims import Budget, Claim, Method, Outcome, Status, not_checkable
from .common import PAPER


def check_lemma_6_2(budget: Budget) -> Outcome:
    from math import comb

    from flint import arb

    from reference.core.certified import working_precision

    rows = []
    for block in range(4, budget.pick(64, 160) + 1, 4):  # B = sqrt(T) divisible by 4
        inside = sum(comb(block, j) for j in range(block // 4, 3 * block // 4 + 1))
        p_block = Fraction(inside, 2**block)
        tv = 1 - p_block**block  # T/B = B blocks; TV = 1 − P[x ∈ S(0)] exactly
        with working_precision(128):
            bound = 2 * arb(block) * (-arb(block) / 8).exp()  # Δ = 2 sqrt(T) exp(−sqrt(T)/8)
            holds = bound.lower() >= arb(tv.numerator) / tv.denominator if tv > 0 else True
        if not holds:
            return Outcome(
                Status.REFUTED,
                f"B = {block} (T = {block * block}): exact TV {format_directed(tv, 4, upward=False)} > Δ",
                counterexample=f"T = {block * block}",
            )
        rows.append((block, float(tv), float(bound.mid())))
    return Outcome(
        Status.VERIFIED,
        "exact TV = 1 − P[B/4 <= Bin(B, 1/2) <= 3B/4]^B (rational) against Δ = 2 sqrt(T) exp(−sqrt(T)/8) (Arb) for "
        f"every B = sqrt(T) divisible by 4 up to {rows[-1][0]}: the bound holds everywhere, not only for large T "
        f"(e.g. B = {rows[-1][0]}: TV = {rows[-1][1]:.3e} <= Δ = {rows[-1][2]:.3e}); the bound is below 1 (not "
        f"vacuous) from B = {min(b for b, _, bound in rows if bound < 1)} on",
    )


def check_lemma_6_4(_: Budget) -> Outcome:
    threshold = 10**20
    return not_checkable(
        "the statement is asymptotic in T and concerns the total variation between two distributions over {0,1}^T "
        f"for T far beyond enumeration; note that its bound 10·T^(−1/20) is >= 1 (vacuous) for every T <= "
        f"{threshold:.0e}, since 10·(10^20)^(−1/20) = 1"
    )


def claims() -> list[Claim]:
    """The entries of this part of KARY, in the paper's order."""
    M = Method
    c = Claim
    return [
        c(
            PAPER,
            "Theorem 1.4",
            "any ε-DP algorithm with error <= α w.p. 3/4 on uniformly random strings has α = Ω(ε⁻¹ log T)",
            M.NONE,
            lambda _: not_checkable(
                "a lower bound over all ε-DP algorithms, asymptotic in T: no finite computation decides it; its "
                "ingredients Lemma 6.2 (checked exactly) and Lemma 6.4 are registered separately"
            ),
            implements=(),
        ),
        c(
            PAPER,
            "Lemma 6.2",
            "TV(x, x⁽⁰⁾) <= 2 sqrt(T) exp(−sqrt(T)/8) for x uniform and x⁽⁰⁾ conditioned on every block having between "
            "B/4 and 3B/4 ones (T larger than an absolute constant)",
            M.CERTIFIED,
            check_lemma_6_2,
            implements=("reference_verification.kary.claims.lower_bound.check_lemma_6_2",),
        ),
        c(
            PAPER,
            "Lemma 6.4",
            "TV(x, x⁽ⁱ⁾) <= 10 T^(−1/20)",
            M.NONE,
            check_lemma_6_4,
            implements=(),
        ),
    ]
