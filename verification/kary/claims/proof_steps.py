"""KARY: steps of the printed proofs that fail as printed while the statement they serve survives (errata)."""

from __future__ import annotations

from fractions import Fraction
from math import comb

from ...core.claims import Budget, Claim, Method, Outcome, Status
from .common import PAPER


def block_count_law(block: int) -> dict[int, Fraction]:
    """The law of X_i^(0): the number of 1s in a block of ``block`` uniform bits, conditioned on
    [block/4, 3·block/4] (Proof 6.1's D^(0); blocks are independent, so one block's law is all the step uses)."""
    support = range(block // 4, 3 * block // 4 + 1)
    weight = sum(comb(block, count) for count in support)
    return {count: Fraction(comb(block, count), weight) for count in support}


def check_proof_6_1_product_step(budget: Budget) -> Outcome:
    """Proof 6.1: Pr[Alg(x^(i), x^(0)) ∈ E_i] >= Pr[err(M(x^(i))) <= α]·Pr[err(M(x^(0))) <= α]. The inputs
    x^(i) and x^(0) are coupled (x^(i) is x^(0) with k zeros of block i flipped), so the two accuracy events need
    not be independent; a mechanism whose error depends on block i's count makes them disjoint."""
    block, flips = 8, 2  # T = 64 = B², B = 8, k = 2 (even, k <= T^(1/5), k <= B/4): the smallest admissible case
    horizon, index = block * block, 2
    alpha = Fraction(flips, 4)
    law = block_count_law(block)

    def accurate(count: int) -> bool:
        # the mechanism M_S: exact prefix sums, all shifted by α + 1 unless block i's count is in S
        return (count // flips) % 2 == 0

    def alg_in_event(count: int) -> bool:
        """E_i for Alg(x^(i), x^(0)) at block ends: <= k/2 at blocks 1..i − 1, > k/2 at block i."""
        shift = (alpha + 1) * ((not accurate(count + flips)) - (not accurate(count)))
        before = [0 + shift for _ in range(1, index)]  # the true prefix sums agree before block i
        return all(value <= Fraction(flips, 2) for value in before) and flips + shift > Fraction(flips, 2)

    p_i = sum((p for count, p in law.items() if accurate(count + flips)), Fraction(0))
    p_0 = sum((p for count, p in law.items() if accurate(count)), Fraction(0))
    both = sum((p for count, p in law.items() if accurate(count) and accurate(count + flips)), Fraction(0))
    event = sum((p for count, p in law.items() if alg_in_event(count)), Fraction(0))
    product = p_i * p_0
    union = p_i + p_0 - 1
    detail = (
        f"T = {horizon}, B = {block}, k = {flips}, α = k/4 = {alpha}, i = {index}; X_i^(0) has the law "
        f"{ {c: str(p) for c, p in law.items()} }. Mechanism M_S: exact prefix sums, shifted by α + 1 when block "
        f"i's count c has ⌊c/k⌋ odd. Pr[err(M(x^(i))) <= α] = {p_i}, Pr[err(M(x^(0))) <= α] = {p_0}, product "
        f"{product}; Pr[both] = {both} and Pr[Alg ∈ E_i] = {event} (exact). The step uses neither privacy nor the "
        f"3/4 accuracy on uniform strings, only the two marginals, so it must hold for M_S too. Corrected: "
        f"Pr[both] >= Pr[A] + Pr[B] − 1 (= {union} here, and >= 1/2 − Δ − Δ' under the proof's assumptions), "
        "which keeps Pr[Alg(x^(0), x^(0)) ∈ E_i] >= e^(−kε)(1/2 − Δ − Δ') and k >= ε⁻¹ log(m(1/2 − Δ − Δ')): "
        "α = Ω(ε⁻¹ log T) survives"
    )
    if event >= product:
        return Outcome(Status.VERIFIED, detail)
    return Outcome(
        Status.REFUTED,
        detail,
        counterexample=f"T = {horizon}, k = {flips}, i = {index}, M_S as above: Pr[Alg ∈ E_i] = {event} < "
        f"{product} = Pr[err(M(x^(i))) <= α]·Pr[err(M(x^(0))) <= α]",
        corrected="Pr[Alg ∈ E_i] >= Pr[err(M(x^(i))) <= α and err(M(x^(0))) <= α] >= Pr[err(M(x^(i))) <= α] + "
        "Pr[err(M(x^(0))) <= α] − 1 >= (3/4 − Δ') + (3/4 − Δ) − 1 = 1/2 − Δ − Δ' (the union bound; no independence "
        "needed), a positive constant for large T: Theorem 1.4 stands",
    )


def claims() -> list[Claim]:
    """The errata of KARY's proofs."""
    return [
        Claim(
            PAPER,
            "Proof 6.1 (product step)",
            "proof of Theorem 1.4: Pr[Alg(x^(i), x^(0)) ∈ E_i] >= Pr[err(M(x^(i))) <= α]·Pr[err(M(x^(0))) <= α] for "
            "the coupled random strings x^(0), x^(i)",
            Method.EXHAUSTIVE,
            check_proof_6_1_product_step,
            "Exact (Fractions) at the smallest admissible parameters, T = 64 (B = 8, k = 2), with a mechanism whose "
            "error depends on block i's count; only that count matters, so its conditioned binomial law is all "
            "the computation needs.",
            implements=("reference_verification.kary.claims.proof_steps.block_count_law",),
        ),
    ]
