"""KARY Section 4: subtraction (Algorithms 2 and 3, Propositions 4.1–4.10, Lemmas 4.5–4.14)."""

from __future__ import annotations

from collections.abc import Callable

from ...core.claims import Budget, Claim, CoqTheorem, Method, Outcome, Status, proved_by
from ...core.proof import ProofRecord
from ..checks import structure
from ..checks import threshold as thresholds
from ..proofs import lemma_4_5 as kary_lemma_4_5
from ..proofs import lemma_4_7 as kary_lemma_4_7
from ..proofs import lemma_4_12 as kary_lemma_4_12
from ..proofs import lemma_4_14 as kary_lemma_4_14
from .common import PAPER, proof_and_check, verified


def _noise_sets(arity: int, height: int) -> list[set[int]]:
    """The set of noise indices Algorithm 2 uses at each t = 1..(k^h − 1)/2 (index 0 unused)."""
    from reference.kary import digits as kary_digits

    horizon = (arity**height - 1) // 2
    return [set()] + [set(kary_digits.algorithm_2_noise_indices(t, arity, height)) for t in range(1, horizon + 1)]


def _kary_cases(budget: Budget) -> list[tuple[int, int]]:
    top = budget.pick(4, 5)
    return [(k, h) for k in (3, 5, 7, 9) for h in range(1, top + 1) if (k**h - 1) // 2 <= 40000]


def check_proposition_4_10(budget: Budget) -> Outcome:
    for arity, height in _kary_cases(budget):
        sets = _noise_sets(arity, height)
        uses: dict[int, list[int]] = {}
        for t, indices in enumerate(sets):
            for p in indices:
                uses.setdefault(p, []).append(t)
        for p, times in uses.items():
            if times[-1] - times[0] + 1 != len(times):
                return Outcome(
                    Status.REFUTED,
                    f"arity {arity}, height {height}: z_{p} is used at times {times[:6]}…, not an interval",
                    counterexample=f"arity {arity}, height {height}, p = {p}",
                )
    cases = _kary_cases(budget)
    return Outcome(
        Status.VERIFIED,
        f"for every noise index p, the times t at which Algorithm 2 uses z_p form one interval — exhaustively over "
        f"all t <= (k^h − 1)/2 for (arity, height) in {cases}",
    )


def check_lemma_4_12(budget: Budget) -> Outcome:
    worst: list[str] = []
    for arity, height in _kary_cases(budget):
        sets = _noise_sets(arity, height)
        horizon = len(sets) - 1
        first: dict[int, int] = {}
        last: dict[int, int] = {}
        for t in range(1, horizon + 1):
            for p in sets[t]:
                first.setdefault(p, t)
                last[p] = t
        # a value drawn at its first use and dropped after its last use is live during [first, last]: sweep
        change = [0] * (horizon + 2)
        for p, start in first.items():
            change[start] += 1
            change[last[p] + 1] -= 1
        running, live = 0, 0
        for t in range(1, horizon + 1):
            running += change[t]
            live = max(live, running)
        bound = height * (arity - 1) // 2
        if live > bound:
            return Outcome(
                Status.REFUTED,
                f"arity {arity}, height {height}: {live} noise values live at once > h(k − 1)/2 = {bound}",
                counterexample=f"arity {arity}, height {height}",
            )
        worst.append(f"(k={arity}, h={height}): {live}/{bound}")
    return Outcome(
        Status.VERIFIED,
        "largest number of simultaneously live noise values (drawn at first use, dropped after last use) against "
        f"the bound h(k − 1)/2, exhaustively: {', '.join(worst)} — the bound holds and is attained where the "
        "two numbers agree",
    )


def check_lemma_4_14(budget: Budget) -> Outcome:
    rows: list[str] = []
    for arity, height in _kary_cases(budget):
        sets = _noise_sets(arity, height)
        horizon = len(sets) - 1
        additions = sum(len(sets[t] - sets[t - 1]) for t in range(1, horizon + 1))
        removals = sum(len(sets[t - 1] - sets[t]) for t in range(1, horizon + 1))
        distinct = len(set().union(*sets))
        if additions != distinct or removals > distinct or distinct != horizon:
            return Outcome(
                Status.REFUTED,
                f"arity {arity}, height {height}: {additions} additions, {removals} removals, {distinct} distinct "
                f"indices for T = {horizon}",
                counterexample=f"arity {arity}, height {height}",
            )
        rows.append(f"(k={arity}, h={height}): {additions}+{removals} updates for T={horizon}")
    return Outcome(
        Status.VERIFIED,
        "maintaining the running noise sum incrementally, each noise value is added exactly once and removed at most "
        "once, and exactly T distinct values are used at T = (k^h − 1)/2 — so the noise work is at most 2T updates "
        f"(plus O(k) per step for the digits): {'; '.join(rows[:6])}…",
    )


def _proof_with_cross_check(
    program: Callable[[], ProofRecord], cross_check: Callable[[Budget], Outcome]
) -> Callable[[Budget], Outcome]:
    """The program proves the statement for every odd k and h; the exhaustive sweep over small trees is a
    cross-check beside it (a disagreement is a defect: "check crashed", never a verdict)."""

    def check(budget: Budget) -> Outcome:
        proof = proved_by(program)
        if proof.status is not Status.PROVED:
            return proof
        cross = cross_check(budget)
        agrees = cross.status is Status.VERIFIED
        return Outcome(
            Status.PROVED if agrees else Status.ERROR,
            f"{proof.detail} Cross-check ({'agrees' if agrees else 'DISAGREES'}): {cross.detail}",
        )

    return check


def check_proposition_4_3(budget: Budget) -> Outcome:
    from ..checks import counters as numeric

    coupled = numeric.check_agreement(max_horizon=budget.pick(60, 200))
    statistical = numeric.check_algorithm_2_vs_3(runs=budget.pick(2000, 4000))
    holds = coupled.holds and statistical.holds
    return Outcome(
        Status.VERIFIED if holds else Status.REFUTED,
        f"coupled exactly (noise of vertex v injected as sign·ν(v) into Algorithm 2): {coupled.summary()} "
        f"Distributions (independent noise): {statistical.summary()}",
    )


def check_lemma_4_5(budget: Budget) -> Outcome:
    """The program proves the output law and the privacy for every k, h; the sensitivity of the exact R matrices
    (every small tree and horizon) is a cross-check beside it."""
    proof = proved_by(kary_lemma_4_5.prove)
    if proof.status is not Status.PROVED:
        return proof
    cross = structure.sensitivity_check()
    return Outcome(
        Status.PROVED if cross.holds else Status.ERROR,
        f"{proof.detail} Cross-check ({'agrees' if cross.holds else 'DISAGREES'}): {cross.summary()}",
    )


def check_proposition_4_3_proof(budget: Budget) -> Outcome:
    """The program proves the equality of laws for every k, h; the exact coupling and the seeded two-sample test
    are a cross-check beside it."""
    proof = proved_by(kary_lemma_4_5.prove)
    if proof.status is not Status.PROVED:
        return proof
    cross = check_proposition_4_3(budget)
    agrees = cross.status is Status.VERIFIED
    return Outcome(
        Status.PROVED if agrees else Status.ERROR,
        f"{proof.detail} Cross-check ({'agrees' if agrees else 'DISAGREES'}): {cross.detail}",
    )


def check_algorithm_2_listing(budget: Budget) -> Outcome:
    from reference.kary.counters import OnlineCounter

    from ..checks import counters as numeric

    # the printed output line sums x_t (the current bit) instead of x_j (all bits so far): with zero noise the
    # literal reading outputs t·x_t, the corrected one the prefix count — decide on a concrete stream
    stream = [1, 0, 1, 1, 0]
    counter = OnlineCounter(3, 1, len(stream), noise_function=lambda index: 0.0)
    corrected = [counter.step(bit) for bit in stream]
    literal = [(t + 1) * bit for t, bit in enumerate(stream)]  # Σ_{j<=t} x_t = t·x_t
    prefix = [sum(stream[: t + 1]) for t in range(len(stream))]
    agreement = numeric.check_agreement(max_horizon=budget.pick(60, 200))
    if literal != prefix and corrected == prefix and agreement.holds:
        return Outcome(
            Status.REFUTED,
            f"on the stream {stream} with zero noise the printed output Σ_j x_t gives {literal}, not the prefix "
            f"counts {prefix}; reading x_j, the implementation gives {corrected}. {agreement.summary()}",
            counterexample=f"stream {stream}, t = 2: printed 2·x_2 = 0, prefix count 1",
            corrected="output Σ_{j=1}^{t} x_j + noise (the known typo x_t → x_j)",
        )
    return Outcome(Status.VERIFIED, f"literal {literal}, corrected {corrected}, prefix {prefix}")


def check_live_noise_numeric(budget: Budget) -> Outcome:
    from ..checks import counters as numeric

    results = [
        numeric.check_live_noise(arity, horizon)
        for arity, horizon in budget.pick(((3, 40), (5, 62)), ((3, 121), (5, 312), (7, 200), (19, 10000)))
    ]
    holds = all(r.holds for r in results)
    return Outcome(
        Status.VERIFIED if holds else Status.REFUTED,
        "the online counter (reference.kary.counters.OnlineCounter) keeps exactly the live noise values: "
        + " ".join(r.summary() for r in results),
    )


def _printed_listing_output(time: int, arity: int, height: int) -> tuple[dict[int, int], list[tuple[int, int]]]:
    """Algorithm 3 as printed at output ``time``: the walk of lines 9–19 with the printed subtracted interval
    [p − k^(ℓ−1) − 1, p]. Returns each leaf's coefficient in the output and the printed subtracted intervals."""
    from reference.kary import tree as kary_tree

    coefficients: dict[int, int] = {}
    subtracted = []
    for sign, level, index in kary_tree.algorithm_3_signed_vertices(time, arity, height):
        width = arity ** (level - 1)
        end = (index + 1) * width  # p after an addition, p before a subtraction (the vertex's right end)
        low, high = (index * width + 1, end) if sign > 0 else (end - width - 1, end)
        if sign < 0:
            subtracted.append((low, high))
        for leaf in range(low, high + 1):
            coefficients[leaf] = coefficients.get(leaf, 0) + sign
    return {leaf: c for leaf, c in coefficients.items() if c}, subtracted


def check_algorithm_3_listing(budget: Budget) -> Outcome:
    """Run the printed listing on every horizon T (arity 3, then 5) and time t <= T, smallest first, until an
    output differs from the prefix sum: a counterexample in a state the algorithm reaches."""
    from reference.kary.digits import height_for_horizon

    factorization = structure.factorization_check()
    for arity in (3, 5):
        for horizon in range(1, budget.pick(40, 120) + 1):
            height = height_for_horizon(arity, horizon, offset=True)
            for time in range(1, horizon + 1):
                output, subtracted = _printed_listing_output(time, arity, height)
                if output != dict.fromkeys(range(1, time + 1), 1) and factorization.holds:
                    terms = " + ".join(f"{c}·x_{leaf}" if c != 1 else f"x_{leaf}" for leaf, c in sorted(output.items()))
                    return Outcome(
                        Status.REFUTED,
                        f"the printed listing run at k = {arity}, T = {horizon} (height {height}), output t = {time} "
                        f"subtracts {[list(interval) for interval in subtracted]} (the printed [p − k^(ℓ−1) − 1, p]: "
                        f"k^(ℓ−1) + 2 leaves, not the level-ℓ vertex [p − k^(ℓ−1) + 1, p]) and releases {terms or '0'} instead of the prefix sum "
                        f"x_1 + … + x_{time}. With [p − k^(ℓ−1) + 1, p]: {factorization.summary()}",
                        counterexample=f"k = {arity}, T = {horizon}, t = {time}: the output is {terms or '0'}, not "
                                       f"x_1 + … + x_{time}",
                        corrected="subtract the interval [p − k^(ℓ−1) + 1, p] (the known typo)",
                    )
    return Outcome(Status.VERIFIED, factorization.summary())


def check_lemma_4_7_every_horizon(budget: Budget) -> Outcome:
    """The exact ratio MSE(T)/closed form(h(T)) at every T of the complete heights up to a bound, per arity."""
    from ..checks.horizons import every_horizon_outcome

    return every_horizon_outcome("algorithm_2", budget.pick((3, 5, 19), (3, 5, 7, 9, 11, 19)), budget.pick(200_000, 2_000_000))


def claims() -> list[Claim]:
    """The entries of this part of KARY, in the paper's order."""
    M = Method
    c = Claim
    return [
        c(
            PAPER,
            "Algorithm 3",
            "the tree-like version of Algorithm 2 as listed (subtracted interval [p − k^(ℓ−1) − 1, p])",
            M.EXHAUSTIVE,
            check_algorithm_3_listing,
            implements=("reference.kary.counters.algorithm_3", "reference.kary.tree.algorithm_3_signed_vertices"),
        ),
        c(
            PAPER,
            "Proposition 4.1",
            "count_n stores a noisy prefix sum up to p_n ∈ [1, (k^h − 1)/2] after each update of Algorithm 3",
            M.EXHAUSTIVE,
            verified(structure.algorithm_3_vs_2_check),
            implements=("reference.kary.tree.algorithm_3_signed_vertices", "reference.kary.tree.check_factorization"),
        ),
        c(
            PAPER,
            "Lemma 4.5",
            "Algorithm 2 is ε-DP",
            M.PROOF,
            check_lemma_4_5,
            "Via Algorithm 3 (Proposition 4.3): ℓ1 sensitivity of the vertex strategy R is exactly h, so Lap(h/ε) "
            "noise on the vertices is ε-DP and the outputs are post-processing.",
            implements=("reference.kary.tree.sensitivities",),
            proof="reference_verification.kary.proofs.lemma_4_5.prove",
            coq=(
                CoqTheorem(
                    "KaryUsedVertices.v",
                    "algorithm_3_sensitivity",
                    "the reference's R for Algorithm 3 (one row per vertex the offset-digit walk adds or subtracts for "
                    "some t <= T, one column per leaf 1..T; Definition 3.8's digits for odd k, C.1's for even k): for "
                    "every arity k >= 2 and horizon T >= 1, at the height h(T) of the offset capacity, every column "
                    "has at most h ones and leaf 1 has h, so the ℓ1 sensitivity is exactly h (the step to ε-DP, "
                    "Laplace noise and post-processing, is not in Coq)",
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
            "Algorithm 2",
            "the k-ary tree mechanism with subtraction as listed (its output line sums x_t)",
            M.EXHAUSTIVE,
            check_algorithm_2_listing,
            implements=(
                "reference.kary.counters.OnlineCounter",
                "reference.kary.counters.algorithm_2_batch",
                "reference.kary.digits.algorithm_2_noise_indices",
                "reference.kary.digits.height_for_horizon",
            ),
            coq=(
                CoqTheorem(
                    "KaryHeight.v",
                    "height_is_least",
                    "the height Algorithm 2 sets (h = ⌈log_k(2T)⌉ for odd k, Appendix C's capacity for even k), "
                    "computed as the reference does (h = 1, 2, … until T fits), with top digit k/2: it is >= 1, T "
                    "fits in it and no smaller h >= 1 holds T; offset_capacity_odd and offset_capacity_even: the "
                    "capacity is (k^h − 1)/2 for odd k and k(k^h − 1)/(2(k − 1)) for even k",
                ),
                CoqTheorem(
                    "KaryHeight.v",
                    "offset_capacity_odd",
                    "for odd k: 2 · capacity(h) = k^h − 1, at every height",
                ),
                CoqTheorem(
                    "KaryHeight.v",
                    "offset_capacity_even",
                    "for even k >= 2: 2(k − 1) · capacity(h) = k(k^h − 1), at every height",
                ),
            ),
        ),
        c(
            PAPER,
            "Proposition 4.3",
            "Algorithms 2 and 3 have the same output distribution",
            M.PROOF,
            check_proposition_4_3_proof,
            "Proof for every k, h (the signed-vertex map of Algorithm 2's indices); exact coupling and a seeded DKW test beside it.",
            implements=("reference.kary.counters.algorithm_2_batch", "reference.kary.counters.algorithm_3"),
            proof="reference_verification.kary.proofs.lemma_4_5.prove",
            coq=(
                CoqTheorem(
                    "KaryAlgorithm2.v",
                    "proposition_4_3",
                    "for every arity k >= 2, digit window [top − k + 1, top] with 0 < top < k (top = k/2: Definition "
                    "3.8 for odd k, C.1 for even k), height and t: Algorithm 3's vertex v is always added or always "
                    "subtracted (j mod k < top), output t of Algorithm 2 adds z_(noise_index v) for exactly the "
                    "vertices v output t of Algorithm 3 uses, in order, and noise_index is injective on used vertices: "
                    "one signed relabelling of the noise, the same for every output (the step to equal laws, by the "
                    "symmetry of Laplace noise, is not in Coq)",
                ),
            ),
        ),
        c(
            PAPER,
            "Proof 4.13 (live noise)",
            "only the noise values used at the current step need to be stored",
            M.EXHAUSTIVE,
            check_live_noise_numeric,
            implements=("reference.kary.counters.OnlineCounter", "reference.kary.noise_indices.live_noise_count"),
        ),
        c(
            PAPER,
            "Proposition 4.10",
            "each noise value z_p is used by Algorithm 2 only for outputs in one time interval [t1, t2]",
            M.PROOF,
            _proof_with_cross_check(kary_lemma_4_12.prove, check_proposition_4_10),
            "Proof for every odd k and h (the outputs fixing the digits above a level form an interval; the "
            "intervals of the admissible digits are adjacent); the exhaustive sweep over small trees beside it.",
            implements=("reference.kary.noise_indices.noise_lifetime", "reference.kary.digits.algorithm_2_noise_indices"),
            proof="reference_verification.kary.proofs.lemma_4_12.prove",
            depends_on=("KARY Lemma 4.5", "KARY Proposition 4.3"),
            coq=(
                CoqTheorem(
                    "KaryAlgorithm2.v",
                    "proposition_4_10",
                    "for every arity k >= 2, both digit systems and every height h: if t1 <= t <= t2 <= capacity(h) "
                    "and outputs t1 and t2 of Algorithm 2 add z_p, output t adds z_p (the times using a noise value "
                    "form one interval)",
                    whole=True,
                ),
            ),
        ),
        c(
            PAPER,
            "Lemma 4.12",
            "Algorithm 2 needs to keep at most h(k − 1)/2 = O(k log_k T) noise values",
            M.PROOF,
            _proof_with_cross_check(kary_lemma_4_12.prove, check_lemma_4_12),
            "Proof for every odd k and h that the bound holds and is attained at T = (k^h − 1)/2; the live-noise "
            "sweep over small trees beside it.",
            implements=("reference.kary.noise_indices.live_noise_count",),
            proof="reference_verification.kary.proofs.lemma_4_12.prove",
            depends_on=("KARY Lemma 4.5", "KARY Proposition 4.3"),
            coq=(
                CoqTheorem(
                    "KaryAlgorithm2.v",
                    "lemma_4_12",
                    "for every odd k >= 3, T >= 1 and 1 <= t <= T, at Algorithm 2's height h(T): the noise values "
                    "alive at t (used at some time <= t and some time >= t) are at most h(k − 1)/2 (live_bound: at "
                    "most h·top for any arity with k <= 2 top + 1, so h·k/2 for even k). The count only: the "
                    "space claim O(k log T) (live values times the bits of each value) is not stated in Coq",
                ),
            ),
        ),
        c(
            PAPER,
            "Lemma 4.14",
            "Algorithm 2 can be implemented in O(kT) time (each noise value added once, removed at most once)",
            M.PROOF,
            _proof_with_cross_check(kary_lemma_4_14.prove, check_lemma_4_14),
            "Proof for every odd k and T (updates, index range, digit carries, capacity T' <= kT); the update "
            "counts over small trees beside it.",
            implements=("reference.kary.counters.OnlineCounter", "reference.kary.digits.algorithm_2_noise_count"),
            proof="reference_verification.kary.proofs.lemma_4_14.prove",
            depends_on=("KARY Lemma 4.5", "KARY Proposition 4.10"),
            coq=(
                CoqTheorem(
                    "KaryAlgorithm2.v",
                    "lemma_4_14",
                    "for every arity k >= 2, both digit systems and T <= capacity(h): an incremental noise sum over "
                    "t = 1..T (add the values t uses and t − 1 did not, remove the converse) makes at most 2D "
                    "updates, D the number of distinct values used — each added once and removed at most once (the "
                    "bound on D is lemma_4_14_distinct; the cost model of the digit increments is not in Coq)",
                ),
                CoqTheorem(
                    "KaryDistinctNoise.v",
                    "lemma_4_14_distinct",
                    "Proof 4.15's D <= T' <= kT: for every arity k >= 2, both digit systems and T >= 1, at Algorithm "
                    "2's height h(T) the distinct noise values of times 1..T number D <= kT, so the incremental sum "
                    "makes at most 2kT updates (noise_index_range: every index used lies in [1, capacity(h)], so "
                    "D <= capacity(h); capacity_le_arity_horizon: capacity(h(T)) <= kT). The cost model (one digit "
                    "increment and one update per unit of work) is not in Coq",
                ),
                CoqTheorem(
                    "KaryDistinctNoise.v",
                    "noise_index_range",
                    "every noise index output t <= capacity(h) of Algorithm 2 uses lies in [1, capacity(h)] (the "
                    "paper's 'p takes on all values in [1, T]': the indices are positions 1..T')",
                ),
            ),
        ),
        c(
            PAPER,
            "Lemma 4.7",
            "Algorithm 2 achieves ε²·MSE = k(1 − 1/k²)h³/(2(1 − 1/k^h)) for T = (k^h − 1)/2",
            M.PROOF,
            proof_and_check(kary_lemma_4_7.prove, thresholds.lemma_4_7_check),
            "Exact MSE from Algorithm 2's noise counts (offset digits), by enumeration and by the digit programme.",
            implements=("reference.kary.mse.algorithm_2_mse", "reference.kary.mse.algorithm_2_mse_digit_programme", "reference.kary.mse.lemma_4_7_closed_form"),
            proof="reference_verification.kary.proofs.lemma_4_7.prove",
            coq=(
                CoqTheorem(
                    "KarySums.v",
                    "lemma_4_7_sum",
                    "the count behind the lemma, for every odd k >= 3 and h >= 1: with T = (k^h − 1)/2, "
                    "4 Σ_(t=−T..T) ‖rep^_k(t, h)‖₁ = h (k² − 1) k^(h−1), so (1 − 1/k^h) a_[1,T] = h (k² − 1)/(4k) "
                    "(the step from the count to the MSE, by the symmetry t ↔ −t and the per-vertex variance, is "
                    "lemma_4_7_mse)",
                ),
                CoqTheorem(
                    "KaryMse.v",
                    "lemma_4_7_mse",
                    "for every odd k >= 3 and h >= 1, at T = (k^h − 1)/2: (1/T) Σ_(t=1..T) 2h²·n(t) = k(1 − 1/k²)h³/(2(1 − "
                    "1/k^h)) in the rationals, n(t) the number of noise values Algorithm 2 adds for output t "
                    "(indices_size: n(t) = ‖rep^(t, h)‖₁; rep_neg: the digits of −t are those of t negated). Not in "
                    "Coq: that this is ε²·MSE, i.e. that a sum of n independent Laplace(h/ε) values has mean square "
                    "2n(h/ε)², so the entry stays at its proof program's level",
                ),
            ),
        ),
        c(
            PAPER,
            "Lemma 4.7 (every horizon)",
            "read at any horizon T (the height h of T, not only T at the capacity), the closed form of Lemma 4.7 "
            "bounds the exact ε²·MSE from above; how far below it the MSE lies",
            M.EXHAUSTIVE,
            check_lemma_4_7_every_horizon,
            implements=('reference.kary.mse.algorithm_2_mse_digit_programme', 'reference.kary.mse.lemma_4_7_closed_form', 'reference_verification.kary.checks.horizons.horizon_ratio_check'),
        ),
    ]
