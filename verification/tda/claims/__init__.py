"""The TDA registry (Boninsegna, "InfTDA"): every checkable statement of the paper.

Definitions 1–4 and Observation 1 (the data model), Algorithm 1 and IntOpt (the mechanism), Theorem 1 (privacy:
σ² = d/ρ per level, the level sensitivity, composition to ρ-zCDP; utility), Appendix A's error step and
Corollary 1. Each entry's ``check`` computes its status (see :mod:`reference_verification.core.claims`); ``implements`` names
the code the statement speaks about and ``proof`` the program that establishes it.

One module per section of the paper: :mod:`.introduction`, :mod:`.preliminaries`, :mod:`.topdown`, :mod:`.appendix_a`
(the erratum entries of the printed proofs are in :mod:`..proof_steps`). The registry keeps the order it has
always had.
"""

from __future__ import annotations

from ...core.claims import Claim, CoqTheorem, Method
from .. import proof_steps as tda_proof_steps
from ..checks import baseline as contingency_baseline
from .appendix_a import check_error_step
from .introduction import check_intopt_quadratic_steps
from .preliminaries import (
    check_conversions,
    check_definition_1,
    check_definitions_2_4,
    check_marginal_count,
    check_observation_1,
)
from .topdown import (
    check_algorithm_1,
    check_corollary_1,
    check_intopt,
    check_intopt_complexity,
    check_intopt_lower_bound,
    check_level_sensitivity,
    check_privacy,
    check_theorem_1_step,
    check_theorem_1_utility,
)

PAPER = "TDA"




def tda_claims() -> list[Claim]:
    """All TDA entries, in the paper's order."""
    return [
        Claim(
            PAPER,
            "Definition 1",
            "a non-negative hierarchical tree: non-negative integer attributes, each internal node the sum of its "
            "children (InfTDA's output is one)",
            Method.EXHAUSTIVE,
            check_definition_1,
            implements=("reference.tda.data.Hierarchy", "reference.tda.data.read_csv"),
        ),
        Claim(
            PAPER,
            "Definitions 2–4",
            "counting queries, k-way marginal queries, and k-hierarchical queries (marginals on the first k attributes)",
            Method.EXHAUSTIVE,
            check_definitions_2_4,
            implements=("reference.tda.data.PrefixTree", "reference.tda.data.prefix_counts"),
        ),
        Claim(
            PAPER,
            "Observation 1",
            "hierarchical consistency: each k-hierarchical count is the sum of the (k + 1)-hierarchical counts below it",
            Method.EXHAUSTIVE,
            check_observation_1,
            implements=("reference.tda.data.prefix_counts",),
        ),
        Claim(
            PAPER,
            "Algorithm 1",
            "InfTDA: top-down, discrete Gaussian noise N_Z(0, d/ρ) on every released node's children, IntOpt onto the "
            "parent's released count",
            Method.STATISTICAL,
            check_algorithm_1,
            implements=("reference.tda.mechanism.inftda_exact", "reference.tda.mechanism.inftda_numeric"),
        ),
        Claim(
            PAPER,
            "Theorem 1 (utility)",
            "|D̃| = n and for every k, β: Pr[max_y |q(D) − q(D̃)| <= Σ_{ℓ<=k} sqrt(8d/ρ log(k Π_{i<=ℓ}|X_i|/β))] >= 1 − β",
            Method.CERTIFIED,
            check_theorem_1_utility,
            implements=("reference.tda.mechanism.inftda_numeric", "reference_verification.tda.checks.utility.failure_probability"),
        ),
        Claim(
            PAPER,
            "Theorem 1 (utility, per-level step)",
            "the proof's step: Pr[max_(u ∈ V_(k−ℓ)) ‖q̃_C(u) − q_C(u)‖∞ <= sqrt(2d/ρ · log(k Π_(i<=k−ℓ+1)|X_i|/β))] "
            ">= 1 − β/k",
            Method.CERTIFIED,
            check_theorem_1_step,
            implements=("reference_verification.tda.checks.utility.per_level_step",),
        ),
        Claim(
            PAPER,
            "IntOpt",
            "IntOpt returns a non-negative integer vector with the given total at minimum ℓ∞ distance from its input",
            Method.EXHAUSTIVE,
            check_intopt,
            "Brute force over every composition on small inputs; the literal printed loop and the fast version agree.",
            implements=("reference.tda.intopt.intopt", "reference.tda.intopt.intopt_literal"),
            coq=(
                CoqTheorem(
                    "IntOpt.v",
                    "intopt_terminates",
                    "for every d >= 1, every integer x, every total c >= 0 and every order of line 4 (any permutation, "
                    "the (value, index) one included) the printed loop stops within d (max(t0, max x) − t0 + 1) "
                    "iterations",
                    whole=True,
                ),
                CoqTheorem(
                    "IntOpt.v",
                    "intopt_output_valid",
                    "when the printed loop stops (c >= 0) its output has d entries, all non-negative integers, summing to c",
                    whole=True,
                ),
                CoqTheorem(
                    "IntOpt.v",
                    "intopt_optimal",
                    "the printed loop's output is at ℓ∞ distance from x at most that of every non-negative integer "
                    "vector with total c",
                    whole=True,
                ),
                CoqTheorem(
                    "IntOptFast.v",
                    "intopt_fast_equals_loop",
                    "for d >= 1, c >= 0 and every order, the fast version (first stopping pass P found by search, then "
                    "one lowering pass from the floors at t0 + P − 1) returns exactly the printed loop's output; the "
                    "Python code finds the same smallest P by binary search, which is not modelled",
                ),
                CoqTheorem(
                    "IntOptFast.v",
                    "intopt_fast_optimal",
                    "hence the fast version's output is at ℓ∞ distance from x at most that of every non-negative "
                    "integer vector with total c (and, by intopt_fast_valid, non-negative with total c)",
                ),
                CoqTheorem(
                    "IntOpt.v",
                    "intopt_diverges",
                    "for c < 0 the printed loop never stops: for every number of iterations it is still running "
                    "(every z_i stays >= −x_i, so Σz >= −Σx > c − Σx = D)",
                ),
            ),
        ),
        Claim(
            PAPER,
            "IntOpt (O(c) steps)",
            "IntOpt runs in O(c) steps (c the required total)",
            Method.EXHAUSTIVE,
            check_intopt_complexity,
            implements=("reference.tda.intopt.intopt_literal_with_count",),
            coq=(
                CoqTheorem(
                    "IntOpt.v",
                    "intopt_iterations",
                    "the corrected statement: for every non-negative integer vector y with total c, t0 <= ‖x − y‖∞ and "
                    "the printed loop stops within d (‖x − y‖∞ − t0 + 1) iterations — with y optimal, d (α − t0 + 1)",
                ),
            ),
        ),
        Claim(
            PAPER,
            "Section 1 (IntOPT steps)",
            "IntOPT operates in the integer domain and requires at most O(max_i |X_i|²) steps (the version the paper "
            "credits to its reference [1]; §3 says the printed Algorithm 1 runs in O(c) steps)",
            Method.EXHAUSTIVE,
            check_intopt_quadratic_steps,
            "Against a version in O(d²) counted steps implemented here (visiting the pieces of the floor sum instead "
            "of passes), with the printed loop's output; the printed loop itself is the entry 'IntOpt (O(c) steps)'.",
            implements=("reference.tda.intopt_breakpoints.intopt_by_breakpoints", "reference.tda.intopt.intopt_literal"),
        ),
        Claim(
            PAPER,
            "Section 1 (contingency-table error)",
            "a contingency table with Gaussian noise on each count answers any k-way marginal with absolute error "
            "Õ(e^((d−k)/2)) (the variance grows linearly with the number of noisy counts summed)",
            Method.EXHAUSTIVE,
            contingency_baseline.check_contingency_table_error,
            "Cells summed counted by enumerating small tables; the growth of (3/e)^(d−k) from a certified e < 3.",
            implements=("reference_verification.tda.checks.baseline.cells_summed",),
        ),
        Claim(
            PAPER,
            "Section 2 (number of marginal queries)",
            "there are 2^d possible k-way marginal queries, the cardinality of the power set of [d]",
            Method.EXHAUSTIVE,
            check_marginal_count,
            implements=("reference.tda.data.Hierarchy",),
        ),
        Claim(
            PAPER,
            "Section 3 (IntOpt lower bound)",
            "problem (1) has the lower bound α >= max(|c − Σx_i|/dim(x), −min_i x_i) (its ceiling in the integers); "
            "line 2's z meets Σz >= c − Σx (footnote 4) with ‖z‖∞ no greater than that bound",
            Method.EXHAUSTIVE,
            check_intopt_lower_bound,
            implements=("reference.tda.intopt.intopt", "reference_verification.tda.checks.intopt.brute_force_distance"),
        ),
        Claim(
            PAPER,
            "Appendix A (error step)",
            "for true counts x >= 0 and noisy y: ‖x − IntOpt(y, c)‖∞ <= 2‖y − x‖∞ + |c − Σx|",
            Method.EXHAUSTIVE,
            check_error_step,
            "Verified exhaustively on small universes (a finite check, not a proof for all inputs).",
            implements=("reference.tda.intopt.intopt", "reference.tda.intopt.chebyshev_distance"),
        ),
        Claim(
            PAPER,
            "Theorem 1 (privacy)",
            "InfTDA with discrete Gaussian noise N_Z(0, d/ρ) at each of the d levels is ρ-zCDP (substitution "
            "neighbours, n public, root exact)",
            Method.PROOF,
            check_privacy,
            "Symbolic in d and ρ: Δ² = 2 per level gives ρ/d per level (CKS 2020 Theorem 14), d levels compose to ρ.",
            implements=("reference.tda.calibration.inftda_sigma_squared", "reference.tda.calibration.inftda_calibration"),
            proof="reference_verification.tda.proofs.privacy_accounting.prove",
            depends_on=("TDA Algorithm 1 (sensitivity √2)",),
            cites=(
                "CKS 2020 (Canonne, Kamath, Steinke), Theorem 14: the multivariate discrete Gaussian N_Z(0, σ²)^m "
                "added to a query of ℓ2 sensitivity Δ is Δ²/(2σ²)-zCDP",
                "Bun–Steinke 2016, Lemma 2.3: adaptive composition adds zCDP parameters",
            ),
        ),
        Claim(
            PAPER,
            "Algorithm 1 (sensitivity √2)",
            "the ℓ2 sensitivity of each level's count vector is √2 under substitution",
            Method.EXHAUSTIVE,
            check_level_sensitivity,
            "Brute force over every dataset and every substitution neighbour on small hierarchies.",
            implements=("reference.tda.calibration.inftda_level_sensitivity_squared",),
        ),
        Claim(
            PAPER,
            "Corollary 1",
            "for Z ~ N_Z(0, σ²): Var[Z] <= σ² and P[Z >= t] <= exp(−t²/(2σ²)) for t >= 0 (quoting CKS Corollary 9)",
            Method.CERTIFIED,
            check_corollary_1,
            "Certified enclosures (Arb) of the variance and of every integer tail up to a bound, for a set of σ²; the "
            "strict Var < σ² holds for every σ² by the Poisson-summation identity in reference.samplers.pmf.",
            implements=("reference.tda.calibration.inftda_epsilon", "reference.privacy.zcdp.epsilon_from_rho_tight"),
        ),
        Claim(
            PAPER,
            "zCDP to (ε, δ)",
            "ρ-zCDP gives (ρ + 2 sqrt(ρ log(1/δ)), δ)-DP; the tight conversion and the exact discrete-Gaussian profile "
            "are never worse",
            Method.CERTIFIED,
            check_conversions,
            implements=("reference.privacy.zcdp.epsilon_from_rho_simple", "reference.privacy.zcdp.epsilon_from_rho_tight"),
        ),
        *tda_proof_steps.claims(),
    ]
