"""KARY Appendix A: the privacy definitions and mechanisms used (Definition A.1, Lemmas A.2 and A.3, Footnote 1)."""

from __future__ import annotations

from fractions import Fraction

from reference.core.certified import format_directed

from ...core.claims import Budget, Claim, Method, Outcome, Status, not_checkable
from ..checks import constants
from .common import PAPER, from_check


def check_lemma_a2(budget: Budget) -> Outcome:

    from reference.kary.privacy import laplace_scale
    from reference.privacy.laplace_profile import laplace_delta

    # ε-DP at scale Δ1/ε means δ(ε) = 0 for every sensitivity vector with ‖v‖₁ <= Δ1; the profile's worst case
    # for a given ℓ1 norm is attained on the boundary, so check vectors of ℓ1 norm exactly Δ1 of several shapes.
    cases = 0
    for epsilon in (Fraction(1, 10), Fraction(1), Fraction(3)):
        for vector in ([1], [1, 1], [2, 1, 1], [1] * budget.pick(5, 20), [3, 1]):
            l1 = Fraction(sum(vector))
            scale = laplace_scale(epsilon=epsilon, l1_sensitivity=l1)
            zero = laplace_delta(epsilon=epsilon, scale=scale, sensitivities=vector)
            cases += 1
            if zero.upper != 0:
                return Outcome(Status.REFUTED, f"δ({epsilon}) in {zero.bounds(15)}, not 0, for v = {vector}")
            smaller = laplace_delta(epsilon=epsilon, scale=scale * Fraction(99, 100), sensitivities=vector)
            if not smaller.lower > 0:
                return Outcome(Status.REFUTED, f"scale 0.99 Δ1/ε still gives δ = 0 for v = {vector}: not tight")
    return Outcome(
        Status.VERIFIED,
        f"exact Laplace profile: at scale Δ1/ε the δ(ε) is exactly 0 in all {cases} cases (ε ∈ {{1/10, 1, 3}}, vectors "
        "of several shapes with ‖v‖₁ = Δ1), and at 0.99·Δ1/ε it is certified positive (the scale is tight)",
    )


def check_lemma_a3(budget: Budget) -> Outcome:

    from reference.privacy import formula_search
    from reference.privacy.gaussian import gaussian_delta, sigma_classical, sigma_exact

    count = budget.pick(4, 9)
    epsilons = [Fraction(i, count + 1) for i in range(1, count + 1)]  # inside (0, 1)
    deltas = [Fraction(1, 10**p) for p in (1, 3, 6, 10, 16)]
    worst_ratio = Fraction(0)
    for epsilon in epsilons:
        for delta in deltas:
            sigma = sigma_classical(epsilon=epsilon, delta=delta, sensitivity_squared=1)
            # certified: δ(ε) at the smallest σ the enclosure allows is at most δ
            achieved = gaussian_delta(epsilon=epsilon, sigma=sigma.lower, sensitivity_squared=1)
            if not achieved.certainly_le(delta):
                return Outcome(
                    Status.REFUTED,
                    f"at ε = {epsilon}, δ = {delta}: the classical σ gives δ(ε) in {achieved.bounds(15)}, not certainly <= δ",
                    counterexample=f"ε = {epsilon}, δ = {delta}",
                )
            worst_ratio = max(
                worst_ratio, sigma.lower / sigma_exact(epsilon=epsilon, delta=delta, sensitivity_squared=1).sigma
            )
    outside = formula_search.classical_outside_range(budget.pick(4, 10))
    return Outcome(
        Status.VERIFIED,
        f"σ = Δ sqrt(2 ln(1.25/δ))/ε (Dwork–Roth) is certified sufficient on all {len(epsilons) * len(deltas)} grid "
        f"points with ε ∈ (0, 1), δ ∈ {{1e-1, …, 1e-16}} (exact Gaussian profile at the enclosure's lower end); it "
        f"exceeds the exact smallest σ by up to a factor {format_directed(worst_ratio, 4, upward=True)}. Outside ε < 1: {outside.summary()}",
    )


def claims() -> list[Claim]:
    """The entries of this part of KARY, in the paper's order."""
    M = Method
    c = Claim
    return [
        c(
            PAPER,
            "Definition A.1",
            "(ε, δ)-differential privacy: Pr[M(D) ∈ S] <= e^ε Pr[M(D') ∈ S] + δ for all S and neighbours",
            M.NONE,
            lambda _: not_checkable(
                "a definition; it is the criterion every privacy entry here checks — the exact privacy profiles "
                "(reference.privacy) compute the smallest δ it allows for each ε"
            ),
            implements=("reference.privacy.laplace_profile.laplace_delta",),
        ),
        c(
            PAPER,
            "Lemma A.2",
            "f(D) + Lap(Δ1/ε)^d is ε-DP",
            M.CERTIFIED,
            check_lemma_a2,
            implements=("reference.kary.privacy.laplace_scale", "reference.privacy.laplace_profile.laplace_epsilon"),
        ),
        c(
            PAPER,
            "Lemma A.3",
            "f(D) + N(0, 2 ln(1.25/δ)Δ2²/ε²)^d is (ε, δ)-DP for ε, δ ∈ (0, 1)",
            M.CERTIFIED,
            check_lemma_a3,
            implements=("reference.privacy.gaussian.sigma_classical", "reference.privacy.gaussian.gaussian_delta"),
        ),
        c(
            PAPER,
            "Footnote 1 (HUU calibration)",
            "C_(ε,δ) is valid for all ε, δ ∈ (0, 1); a tighter analysis could reduce it",
            M.CERTIFIED,
            from_check(lambda: constants.check_huu_calibration_slack()),
            implements=("reference.kary.constants.huu_constant", "reference.privacy.gaussian.sigma_exact"),
        ),
    ]
