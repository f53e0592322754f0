"""KARY Section 5: pure against approximate privacy (Lemmas 5.1–5.5, Corollary 5.7)."""

from __future__ import annotations

from ...core.claims import Budget, Claim, Method, Outcome, Status, proved_by
from ..checks import laplace as laplace_checks
from ..proofs import corollary_5_7 as kary_corollary_5_7
from ..proofs import lemma_5_1 as kary_lemma_5_1
from ..proofs import lemma_5_5 as kary_lemma_5_5
from .common import PAPER, verified


def check_lemma_5_5(_: Budget) -> Outcome:
    proof = proved_by(kary_lemma_5_5.prove)
    numeric = laplace_checks.lemma_5_5_vs_exact()
    if proof.status is not Status.PROVED or not numeric.holds:
        return Outcome(Status.REFUTED, f"{proof.detail} {numeric.summary()}")
    return Outcome(
        Status.PROVED,
        f"{proof.detail} Against the exact Laplace profile: {numeric.summary()} Proof 5.6 states "
        "(e^x − 1)/(e^x + 1) <= x/2 only for x ∈ (0, 1) but applies it to ε_j that can exceed 1; the inequality holds "
        "for every x >= 0 (proved), so the lemma stands.",
    )


def check_corollary_5_7(_: Budget) -> Outcome:
    proof = proved_by(kary_corollary_5_7.prove)
    numeric = laplace_checks.corollary_5_7_vs_exact()
    status = Status.PROVED if proof.status is Status.PROVED and numeric.holds else Status.REFUTED
    return Outcome(status, f"{proof.detail} Against exact calibrations: {numeric.summary()}")


def check_corollary_5_7_range(_: Budget) -> Outcome:
    result = laplace_checks.corollary_5_7_gaussian_range()
    if result.holds:
        return Outcome(Status.VERIFIED, result.summary())
    first = min(result.failures, key=lambda point: (point.epsilon, -point.delta))
    return Outcome(
        Status.REFUTED,
        result.summary(),
        counterexample=f"ε = {float(first.epsilon):.6g}, δ = {float(first.delta):.3g} (inside ε <= ln(1/δ)): Lemma A.3's "
        f"σ gives exact δ(ε) = {first.delta_at_sigma.decimal(15, rounded='down')} > δ",
        corrected="compare within Lemma A.3's own range ε < 1, or compare with the exact Gaussian σ "
        "(reference.privacy.gaussian.sigma_exact), which is private for every ε",
    )


def claims() -> list[Claim]:
    """The entries of this part of KARY, in the paper's order."""
    M = Method
    c = Claim
    return [
        c(
            PAPER,
            "Lemma 5.1",
            "with MSE bounds (B_ε/ε²)log(T)³ (pure) and (B_(ε,δ)/ε²)log(T)²log(1/δ) (approximate), the pure mechanism "
            "is at least as good for δ = O(1/T^(B_ε/B_(ε,δ)))",
            M.PROOF,
            lambda _: proved_by(kary_lemma_5_1.prove),
            "Equating the leading terms gives log(1/δ) = (B_ε/B_(ε,δ)) log T; the program checks each step symbolically.",
            implements=("reference.kary.constants.lemma_5_1_exponent", "reference.kary.threshold.asymptotic_delta_threshold"),
            proof="reference_verification.kary.proofs.lemma_5_1.prove",
        ),
        c(
            PAPER,
            "Lemma 5.4",
            "ε_j-DP mechanisms compose to (ε̃, δ) with ε̃ = min{Σε_j, Σ(e^ε_j − 1)ε_j/(e^ε_j + 1) + "
            "sqrt(2 ln(1/δ) Σε_j²)}",
            M.CERTIFIED,
            verified(laplace_checks.lemma_5_4_vs_optimal),
            "Compared with the optimal composition of pure-DP mechanisms (Murtagh–Vadhan), computed exactly.",
            implements=("reference.kary.privacy.heterogeneous_composition_epsilon", "reference.privacy.pure_composition.optimal_composition_epsilon"),
        ),
        c(
            PAPER,
            "Lemma 5.5",
            "Lap(Δ2/a)^d with a = sqrt(2 ln(1/δ))(sqrt(1 + ε/ln(1/δ)) − 1) is (ε, δ)-DP for ε, δ ∈ (0, 1)",
            M.PROOF,
            check_lemma_5_5,
            implements=("reference.kary.privacy.l2_laplace_scale", "reference.kary.privacy.l2_laplace_a"),
            proof="reference_verification.kary.proofs.lemma_5_5.prove",
            depends_on=("KARY Lemma 5.4", "KARY Lemma A.2"),
        ),
        c(
            PAPER,
            "Corollary 5.7",
            "Var[lap]/Var[gauss] <= (ε/ln(1/δ))²/(2(sqrt(1 + ε/ln(1/δ)) − 1)²), which tends to 2 as ε → 0",
            M.PROOF,
            check_corollary_5_7,
            implements=("reference.kary.privacy.corollary_5_7_variance_ratio", "reference.kary.privacy.corollary_5_7_factor"),
            proof="reference_verification.kary.proofs.corollary_5_7.prove",
        ),
        c(
            PAPER,
            "Corollary 5.7 (range)",
            "the comparison holds for ε <= ln(1/δ), with the Gaussian of Lemma A.3",
            M.CERTIFIED,
            check_corollary_5_7_range,
            implements=("reference.kary.privacy.corollary_5_7_variance_ratio", "reference.privacy.gaussian.sigma_classical"),
        ),
    ]
