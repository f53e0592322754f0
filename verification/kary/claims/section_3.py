"""KARY Section 3: the k-ary tree mechanism (Algorithm 1, Lemmas 3.3 and 3.5, Theorem 3.7)."""

from __future__ import annotations

from ...core.claims import Budget, Claim, CoqTheorem, Method, Outcome, Status
from ..checks import structure
from ..proofs import lemma_3_5 as kary_lemma_3_5
from .common import PAPER, proof_and_check, verified


def check_theorem_3_7(budget: Budget) -> Outcome:
    import itertools
    import math

    from reference.kary import mse as kary_mse
    from reference.kary.constants import leading_constant_theorem_3_7

    arity = 17
    constant = float(leading_constant_theorem_3_7(arity).midpoint)
    # the worst horizons are just past a height jump, T = k^h (height h + 1, scale (h + 1)/ε): there the excess
    # is about ((h + 1)/h)² − 1; at T = k^h − 1 it is 0 up to 1/(1 − k^-h) (Lemma 3.5)
    heights = budget.pick((5, 10, 20, 40), (5, 10, 20, 40, 80, 160))
    gaps = []
    for height in heights:
        horizon = arity**height
        gaps.append((height, float(kary_mse.algorithm_1_mse_digit_programme(arity, horizon)) / math.log2(horizon) ** 3 - constant))
    shrinking = all(abs(b) < abs(a) for (_, a), (_, b) in itertools.pairwise(gaps))
    return Outcome(
        Status.VERIFIED if shrinking else Status.REFUTED,
        "exact ε²·MSE of Algorithm 1 (k = 17, digit programme) at the worst horizons T = 17^h (just past a height "
        f"jump): ε²·MSE/log2(T)³ − {constant:.6f} = "
        + ", ".join(f"{gap:+.5f} (h={height})" for height, gap in gaps)
        + "; the excess decays like 2/h, so the lower-order term is o(log(T)³) but converges slowly.",
    )


def check_lemma_3_5_every_horizon(budget: Budget) -> Outcome:
    """The exact ratio MSE(T)/closed form(h(T)) at every T of the complete heights up to a bound, per arity."""
    from ..checks.horizons import every_horizon_outcome

    return every_horizon_outcome("algorithm_1", budget.pick((2, 3, 10), (2, 3, 4, 5, 10, 17)), budget.pick(200_000, 2_000_000))


def claims() -> list[Claim]:
    """The entries of this part of KARY, in the paper's order."""
    M = Method
    c = Claim
    return [
        c(
            PAPER,
            "Algorithm 1",
            "the k-ary tree mechanism: output t adds the noisy counts of the vertices given by rep_k(t, h)",
            M.EXHAUSTIVE,
            verified(structure.factorization_check),
            "Strategy R (vertex indicators) and reconstruction L (vertex selection) satisfy L·R = A exactly.",
            implements=(
                "reference.kary.counters.algorithm_1",
                "reference.kary.tree.algorithm_1_vertices",
                "reference.kary.tree.check_factorization",
                "reference.kary.digits.height_for_horizon",
            ),
            coq=(
                CoqTheorem(
                    "KaryHeight.v",
                    "height_is_least",
                    "the height Algorithm 1 sets (h = ⌈log_k(T + 1)⌉), computed as the reference does (h = 1, 2, … "
                    "until T fits): for every arity k >= 1, top digit k − 1 and horizon T it is >= 1, T <= k^h − 1 "
                    "(standard_capacity: the capacity is k^h − 1), and no smaller h >= 1 holds T",
                ),
                CoqTheorem(
                    "KaryHeight.v",
                    "height_is_tight",
                    "for T >= 1 the height below does not hold T: capacity(h − 1) < T",
                ),
                CoqTheorem(
                    "KaryHeight.v",
                    "standard_capacity",
                    "with standard digits the capacity (k − 1)(1 + k + … + k^(h−1)) is k^h − 1, at every height",
                ),
            ),
        ),
        c(
            PAPER,
            "Lemma 3.3",
            "Algorithm 1 is ε-DP (Laplace scale h/ε; neighbouring inputs differ at exactly h used vertices)",
            M.EXHAUSTIVE,
            verified(structure.sensitivity_check),
            "ℓ1 sensitivity of R computed from its columns; Lap(Δ1/ε) is ε-DP (Lemma A.2).",
            implements=("reference.kary.tree.sensitivities", "reference.kary.counters.algorithm_1"),
            coq=(
                CoqTheorem(
                    "KarySensitivity.v",
                    "sensitivity_is_height",
                    "for every arity k >= 1, height h, horizon T <= k^h and leaf 1 <= t <= T, exactly one vertex per "
                    "level 1..h whose first leaf is at most T covers t: the tree strategy over all those vertices has "
                    "every column of ℓ1 norm h",
                ),
                CoqTheorem(
                    "KaryUsedVertices.v",
                    "algorithm_1_sensitivity",
                    "the reference's R itself (one row per vertex Algorithm 1's digit walk visits for some t <= T, one "
                    "column per leaf 1..T): for every arity k >= 2 and horizon T >= 1, at the height h(T) Algorithm 1 "
                    "sets, every column has at most h ones and leaf 1 has h, so the ℓ1 sensitivity is exactly h",
                ),
                CoqTheorem(
                    "KaryUsedVertices.v",
                    "used_sensitivity_taller",
                    "in a tree taller than the height h(T) (the reference's strategy_matrix accepts any height that holds "
                    "T) the top levels are never used: the ℓ1 sensitivity of R is still h(T), for both digit systems",
                ),
            ),
        ),
        c(
            PAPER,
            "Lemma 3.5",
            "Algorithm 1 achieves ε²·MSE = (k − 1)h³/(1 − 1/k^h) for T = k^h − 1",
            M.PROOF,
            proof_and_check(kary_lemma_3_5.prove, structure.mse_check),
            implements=("reference.kary.mse.algorithm_1_mse", "reference.kary.mse.algorithm_1_mse_digit_programme", "reference.kary.mse.lemma_3_5_closed_form"),
            proof="reference_verification.kary.proofs.lemma_3_5.prove",
            coq=(
                CoqTheorem(
                    "KarySums.v",
                    "lemma_3_5_sum",
                    "the count behind the lemma, for every k >= 2 and h: 2 Σ_(t=0..k^h−1) ‖rep_k(t, h)‖₁ = h (k − 1) k^h, "
                    "so the average over t = 1..T = k^h − 1 is h (k − 1)/(2(1 − 1/k^h)) (the step to the MSE, times the "
                    "per-vertex variance 2h²/ε², is lemma_3_5_mse)",
                ),
                CoqTheorem(
                    "KaryMse.v",
                    "lemma_3_5_mse",
                    "for every k >= 2 and h >= 1, at T = k^h − 1: (1/T) Σ_(t=1..T) 2h²·n(t) = (k − 1)h³/(1 − 1/k^h) in "
                    "the rationals, n(t) the number of vertices Algorithm 1's digit walk sums for output t "
                    "(walk_size: n(t) = ‖rep_k(t, h)‖₁). Not in Coq: that this is ε²·MSE, i.e. that a sum of n "
                    "independent Laplace(h/ε) values has mean square 2n(h/ε)² (the Laplace variance and the "
                    "additivity of variances), so the entry stays at its proof program's level",
                ),
            ),
        ),
        c(
            PAPER,
            "Lemma 3.5 (every horizon)",
            "read at any horizon T (the height h of T, not only T at the capacity), the closed form of Lemma 3.5 "
            "bounds the exact ε²·MSE from above; how far below it the MSE lies",
            M.EXHAUSTIVE,
            check_lemma_3_5_every_horizon,
            implements=('reference.kary.mse.algorithm_1_mse_digit_programme', 'reference.kary.mse.lemma_3_5_closed_form', 'reference_verification.kary.checks.horizons.horizon_ratio_check'),
        ),
        c(
            PAPER,
            "Theorem 3.7",
            "for k >= 2 an ε-DP algorithm with MSE (k − 1)/(ε² log(k)³)·log(T)³ + o(log(T)³), O(T) time, O(log T) space",
            M.EXHAUSTIVE,
            check_theorem_3_7,
            implements=("reference.kary.mse.algorithm_1_mse_digit_programme", "reference.kary.constants.leading_constant_theorem_3_7"),
        ),
    ]
