"""Claims registry entries for the CIP paper (Dharangutte, Gao, Gong, Wang).

Each entry's ``check`` computes its verdict; see :mod:`reference.core.claims`. Numbers refer to the paper's
numbering (renderings 000/001/002 agree on numbering). Depth ``D`` is the paper's ``k`` (n = 2**D leaves).
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from reference.cip.exact import errors as cip_errors
from reference.cip.exact import matrix as cip_matrix
from reference.cip.exact import ranges as cip_ranges
from reference.core import linalg
from reference.core.claims import Budget, Claim, Method, Outcome, Status, exhaustive, not_checkable, proved_by, verdict

PAPER = "CIP"


# --- Section 2: unbiased, transparent, consistent ---------------------------------------------------------


def check_definitions_2(budget: Budget) -> Outcome:
    from scipy import stats

    from reference.cip.mechanism import CorrelatedInputPerturbation

    # Consistency (Definition 2.3) and unbiasedness (Definition 2.1) of W·M(x) for the mechanism as built here.
    length, draws = 6, budget.pick(2000, 20000)
    mechanism = CorrelatedInputPerturbation.calibrate(length, 1, "1e-6")
    data = np.array([5.0, 0.0, 2.0, 9.0, 1.0, 4.0])
    ranges = np.array([[a, b] for a in range(length) for b in range(a, length)])
    workload = np.zeros((len(ranges), length))
    for row, (a, b) in enumerate(ranges):
        workload[row, a : b + 1] = 1.0
    rng = np.random.default_rng(21)
    total = np.zeros(len(ranges))
    consistent = True
    for _ in range(draws):
        released = mechanism.release(data, rng)
        answers = mechanism.answer(released, workload)
        # consistent: the answers are exactly W x' for x' = the released vector (here: range sums of x')
        consistent &= bool(np.allclose(answers, mechanism.answer_ranges(released, ranges), rtol=0, atol=1e-9))
        total += answers
    truth = workload @ data
    # unbiased: per-query z-tests with a Bonferroni threshold; answer variance is σ² × (exact range variance)
    depth = mechanism.depth
    variances = np.array([float(cip_ranges.range_variance(depth, int(a), int(b))) for a, b in ranges])
    z = (total / draws - truth) / (mechanism.sigma * np.sqrt(variances / draws))
    alpha = 1e-9
    p_min = float(np.min(2 * stats.norm.sf(np.abs(z))))
    unbiased = p_min * len(ranges) > alpha
    return verdict(
        consistent and unbiased,
        scope=f"length {length}, all {len(ranges)} range queries, {draws} releases; false-alarm probability {alpha:g}",
        evidence=f"answers equal W x' for the released x' in every release: {consistent}; mean answers match Wx "
        f"(smallest Bonferroni-adjusted p = {min(1.0, p_min * len(ranges)):.3g}): {unbiased}. Transparency "
        "(Definition 2.2): the release is exactly N(x, σ² C), whose covariance is computed exactly "
        "(reference.cip.exact.matrix) and matched by the sampler (Proposition 3.5)",
        method=Method.STATISTICAL,
    )


def check_remark_2_4(budget: Budget) -> Outcome:
    import sympy

    top = budget.pick(2, 3)
    rng = np.random.default_rng(24)
    for depth in range(1, top + 1):
        n = 1 << depth
        rows = [[1 if a <= t <= b else 0 for t in range(n)] for a in range(n) for b in range(a, n)]
        workload = sympy.Matrix(rows)
        rank = workload.rank()
        # an answer vector W s lies in the column space; a generic additive error e generally does not
        in_space = sympy.Matrix.hstack(workload, workload * sympy.Matrix(rng.integers(-5, 6, size=n).tolist())).rank()
        generic = sympy.Matrix(rng.integers(-5, 6, size=len(rows)).tolist())
        outside = sympy.Matrix.hstack(workload, generic).rank()
        if not (in_space == rank and outside == rank + 1):
            return Outcome(Status.REFUTED, f"depth {depth}: ranks {rank}, {in_space}, {outside}")
    return Outcome(
        Status.VERIFIED,
        f"for the range workload at depths 1..{top} (exact rational ranks): W s is in the column space of W (rank "
        "unchanged), while an integer error vector e drawn at random is not (rank + 1), so Wx + e is inconsistent "
        "unless e ∈ col(W); input perturbation answers W(x + s) and is always consistent",
    )


def check_definition_3_2(budget: Budget) -> Outcome:
    from reference.cip.checks import cascade as cascade_checks

    results = [
        cascade_checks.check_leaf_covariance(d, sigma=2.5, samples=budget.pick(3000, 20000), seed=320 + d)
        for d in (2, 4)
    ]
    return Outcome(
        Status.VERIFIED if all(r.passed for r in results) else Status.REFUTED,
        "Noise = σZ with Z ~ N(0, C_k): Cascade Sampling with σ = 2.5 matches σ²C_k (seeded whitening tests at "
        f"depths 2 and 4, false-alarm probability {sum(r.false_alarm for r in results):.0e}): "
        f"{all(r.passed for r in results)}",
    )


def check_remark_3_7(_: Budget) -> Outcome:
    variances = {v for d in range(0, 11) for v in cip_errors.nodal_variances(d).values()}
    return not_checkable(
        "the optimisation problem of reference [43] is not restated in the paper, so feasibility for it cannot be "
        "computed here; the constraint the remark names — equal variance on every tree node — holds (node variances "
        f"at depths 0..10 are exactly {sorted(str(v) for v in variances)}; proved for all depths under Theorem 3.3)"
    )


# --- Definition 3.1 and the renderings -------------------------------------------------------------------


def _ocr_covariance(depth: int) -> linalg.Matrix:
    """C_depth as rendering 001 (OCR) prints it: off-diagonal blocks −J_i / 2**(2**i + 1)."""
    current: list[list[Fraction]] = [[Fraction(1)]]
    if depth >= 1:
        current = [[Fraction(1), Fraction(-1, 2)], [Fraction(-1, 2), Fraction(1)]]
    for i in range(1, depth):
        off = -Fraction(1, 2 ** (2**i + 1))
        size = len(current)
        current = [row + [off] * size for row in current] + [[off] * size + row for row in current]
    return tuple(tuple(row) for row in current)


def check_definition_3_1(budget: Budget) -> Outcome:
    top = budget.pick(6, 8)

    # 000 (LaTeX) and 001 (OCR) differ in the exponent of the off-diagonal block; decide by Theorem 3.3:
    # every node must have variance 1. The 000 reading is cip_matrix.covariance.
    def root_variance(matrix: linalg.Matrix) -> Fraction:
        return sum((sum(row, Fraction(0)) for row in matrix), Fraction(0))

    latex_ok = all(root_variance(cip_matrix.covariance(d)) == 1 for d in range(top + 1))
    first_ocr_failure = next((d for d in range(top + 1) if root_variance(_ocr_covariance(d)) != 1), None)
    agree_until = next((d for d in range(top + 1) if _ocr_covariance(d) != cip_matrix.covariance(d)), None)
    if not latex_ok:
        return Outcome(Status.REFUTED, "the LaTeX reading of Definition 3.1 fails Theorem 3.3")
    if first_ocr_failure is None:
        return Outcome(Status.VERIFIED, f"both readings satisfy Theorem 3.3 for depth <= {top}")
    bad = root_variance(_ocr_covariance(first_ocr_failure))
    return Outcome(
        Status.VERIFIED,
        f"Rendering 000 (LaTeX: off-diagonal block −J_i/2^(2i+1)) gives root variance 1 at every depth 0..{top}. "
        f"Rendering 001 (OCR: −J_i/2^(2^i+1)) agrees up to depth {agree_until - 1 if agree_until else top} "
        f"and first differs at depth {agree_until}, where its root variance is {bad} ≠ 1: the OCR exponent is "
        "a rendering error; the project uses the LaTeX reading.",
    )


# --- Section 3.1 quoted constants -----------------------------------------------------------------------


def check_section_3_1_correlations(budget: Budget) -> Outcome:
    top = budget.pick(7, 10)

    def holds(depth: int) -> bool:
        n = 1 << depth
        half, quarter = n // 2, n // 4
        cross = cip_matrix.covariance_entry(depth, 0, half)  # one leaf in each half
        inner = cip_matrix.covariance_entry(depth, 0, quarter)  # leaves starting 00 and 01
        return cross == -Fraction(1, 2 ** (2 * depth - 1)) and inner == -Fraction(1, 2 ** (2 * depth - 3))

    return exhaustive(range(2, top + 1), holds, lambda d: f"depth {d}", f"depths 2..{top}")


# --- Proposition B.1 -------------------------------------------------------------------------------------


def check_proposition_b1(budget: Budget) -> Outcome:
    top = budget.pick(6, 9)

    def holds(depth: int) -> bool:
        matrix = cip_matrix.covariance(depth)
        n = len(matrix)
        diagonal_ones = all(matrix[i][i] == 1 for i in range(n))
        off_negative = all(matrix[i][j] < 0 for i in range(n) for j in range(n) if i != j)
        sums = all(s == Fraction(1, n) for s in linalg.row_sums(matrix))
        return diagonal_ones and off_negative and sums and (depth > 6 or linalg.is_positive_definite(matrix))

    finite = exhaustive(range(0, top + 1), holds, lambda d: f"depth {d}", f"depths 0..{top} (PD test up to 6)")
    if finite.status is not Status.VERIFIED:
        return finite
    proof = proved_by(importlib.import_module("reference.cip.proofs.spectrum").prove)
    if proof.status is not Status.PROVED:
        return proof
    return Outcome(
        Status.PROVED,
        "(1) and (2) follow from the entry formula C_ij = −2^(1−2h), h = LCA height (reference/cip/proofs/proposition_3_5.py);"
        " (3) by induction (reference/cip/proofs/lemma_b2.py); (4) holds in the stronger form 'positive definite' since "
        "every eigenvalue is 2^-D or 3·2^-j > 0 (reference/cip/proofs/spectrum.py). Exact check: " + finite.detail,
    )


# --- Lemma B.2 and Corollary B.3 ------------------------------------------------------------------------


def check_lemma_b2(budget: Budget) -> Outcome:
    top = budget.pick(6, 9)
    finite = exhaustive(
        range(0, top + 1),
        lambda d: cip_matrix.inverse_by_elimination(d) == cip_matrix.inverse_by_lemma_b2(d),
        lambda d: f"depth {d}",
        f"inverse by exact elimination equals the Lemma B.2 recursion, depths 0..{top}",
    )
    if finite.status is not Status.VERIFIED:
        return finite
    proof = proved_by(importlib.import_module("reference.cip.proofs.lemma_b2").prove)
    return Outcome(proof.status, proof.detail + " Cross-check: " + finite.detail, proof.counterexample)


def check_corollary_b3(budget: Budget) -> Outcome:
    top = budget.pick(6, 9)
    finite = exhaustive(
        range(0, top + 1),
        lambda d: set(cip_matrix.precision_diagonal(d)) == {1 + Fraction(d, 3)},
        lambda d: f"depth {d}",
        f"diag of the inverse by exact elimination, depths 0..{top}",
    )
    if finite.status is not Status.VERIFIED:
        return finite
    proof = proved_by(importlib.import_module("reference.cip.proofs.corollary_b3").prove)
    return Outcome(proof.status, proof.detail + " Cross-check: " + finite.detail)


# --- Theorem 3.3 and Proposition 3.5 --------------------------------------------------------------------


def check_theorem_3_3(budget: Budget) -> Outcome:
    dense_top = budget.pick(5, 7)
    fast_top = budget.pick(10, 14)
    dense = exhaustive(
        range(0, dense_top + 1),
        lambda d: set(cip_matrix.node_variances(d).values()) == {Fraction(1)},
        lambda d: f"depth {d}",
        f"all 2n−1 node variances from the dense exact matrix, depths 0..{dense_top}",
    )
    fast = exhaustive(
        range(0, fast_top + 1),
        lambda d: set(cip_errors.nodal_variances(d).values()) == {Fraction(1)},
        lambda d: f"depth {d}",
        f"all node variances by the O(depth) Haar formula, depths 0..{fast_top}",
    )
    for finite in (dense, fast):
        if finite.status is not Status.VERIFIED:
            return finite
    proof = proved_by(importlib.import_module("reference.cip.proofs.theorem_3_3").prove)
    return Outcome(proof.status, proof.detail + f" Cross-checks: {dense.detail}; {fast.detail}.")


def check_proposition_3_5(budget: Budget) -> Outcome:
    from reference.cip.exact import cascade as exact_cascade
    from reference.cip.checks import cascade as cascade_checks

    proof = proved_by(importlib.import_module("reference.cip.proofs.proposition_3_5").prove)
    if proof.status is not Status.PROVED:
        return proof
    twin_top = budget.pick(5, 7)
    twin = exhaustive(
        range(0, twin_top + 1),
        lambda d: exact_cascade.leaf_covariance(d) == cip_matrix.covariance(d),
        lambda d: f"depth {d}",
        f"exact covariance of Algorithm 1's construction (reference.cip.exact.cascade) equals Definition 3.1, depths 0..{twin_top}",
    )
    linear = [cascade_checks.check_linear_map(depth) for depth in range(0, budget.pick(5, 7))]
    samples = budget.pick(4000, 20000)
    statistical = [
        cascade_checks.check_leaf_covariance(depth, samples=samples, seed=3500 + depth) for depth in range(1, 6)
    ]
    implementation_ok = all(c.passed for c in linear) and all(c.passed for c in statistical)
    false_alarm = sum(c.false_alarm for c in statistical)
    evidence = (
        f"{twin.detail}; the numeric sampler's linear map A (probed with unit draws) satisfies A Aᵀ = C_depth to "
        f"within its float bound at depths 0..{len(linear) - 1}: {all(c.passed for c in linear)}; seeded "
        f"whitening tests of {samples} samples at depths 1..5 pass: {all(c.passed for c in statistical)} "
        f"(total false-alarm probability {false_alarm:.1e})"
    )
    if twin.status is not Status.VERIFIED or not implementation_ok:
        return Outcome(Status.REFUTED, f"{proof.detail} but: {evidence}")
    return Outcome(Status.PROVED, f"{proof.detail} Implementation: {evidence}.")


def check_equation_2(_: Budget) -> Outcome:
    import sympy

    x, y = sympy.symbols("x y")
    half, root = sympy.Rational(1, 2), sympy.sqrt(3) / 2
    child0 = {x: half, y: root}
    child1 = {x: half, y: -root}
    # X, Y iid N(0,1): variance is the sum of squared coefficients, covariance the dot product
    var0 = sum(c**2 for c in child0.values())
    var1 = sum(c**2 for c in child1.values())
    cov = sum(child0[s] * child1[s] for s in (x, y))
    total = {s: child0[s] + child1[s] for s in (x, y)}
    holds = (
        sympy.simplify(var0 - 1) == 0
        and sympy.simplify(var1 - 1) == 0
        and sympy.simplify(cov + half) == 0
        and total == {x: 1, y: 0}
    )
    return verdict(
        holds,
        scope="symbolic, for the coefficients 1/2 and ±√3/2",
        evidence=f"Var X0 = {var0}, Var X1 = {var1}, Cov = {sympy.simplify(cov)}, X0 + X1 = X",
        method=Method.PROOF,
    )


# --- Proposition 3.4: linear cost ---------------------------------------------------------------------------


def check_proposition_3_4(budget: Budget) -> Outcome:
    from reference.cip.numeric.cascade import cascade_leaves

    top = budget.pick(10, 16)

    def draws_exactly_n(depth: int) -> bool:
        # the cascade consumes exactly n = 2**depth normals: its generator ends where n direct draws end
        seed = 34 + depth
        generator = np.random.default_rng(seed)
        cascade_leaves(depth, 1.0, generator)
        reference_generator = np.random.default_rng(seed)
        reference_generator.standard_normal(1 << depth)
        return bool(generator.bit_generator.state == reference_generator.bit_generator.state)

    return exhaustive(
        range(0, top + 1),
        draws_exactly_n,
        lambda d: f"depth {d}",
        f"depths 0..{top}: the sampler consumes exactly 2^depth standard normals (generator states compared) and "
        "does a constant number of array operations per level, so its cost is Θ(n); timings are in benchmarks/",
    )


# --- Remark 3.6 and Algorithm 2 -------------------------------------------------------------------------------


def check_remark_3_6(budget: Budget) -> Outcome:
    from reference.cip.checks import cascade as cascade_checks

    lengths_linear = list(range(1, budget.pick(17, 34)))
    linear = [cascade_checks.check_streaming_linear_map(t) for t in lengths_linear]
    samples = budget.pick(4000, 20000)
    lengths = budget.pick((3, 5, 8), (2, 3, 5, 8, 11, 16))
    statistical = [cascade_checks.check_streaming_covariance(t, samples=samples, seed=3600 + t) for t in lengths]
    holds = all(c.passed for c in linear) and all(c.passed for c in statistical)
    false_alarm = sum(c.false_alarm for c in statistical)
    return Outcome(
        Status.VERIFIED if holds else Status.REFUTED,
        f"the online sampler (reference.cip.numeric.streaming: new root with X1 = −X0/2 + (√3/2)Y, then the path down "
        f"to the new leaf) has linear map A with A Aᵀ equal to the top-left t×t block of C for every t = 1.."
        f"{lengths_linear[-1]} (within float rounding): {all(c.passed for c in linear)}; seeded whitening tests "
        f"({samples} samples) for t in {list(lengths)} pass: {all(c.passed for c in statistical)} (false-alarm "
        f"probability {false_alarm:.1e}). Cost: each element draws as many normals as its index has trailing zero "
        "bits (plus one per new level), O(1) amortised; benchmarks/bench_cascade.py measures it flat in t.",
    )


def _run_printed_algorithm_2(depth: int) -> set[str]:
    """Execute Appendix D.1's Algorithm 2 with its printed loop bounds, symbolically: return the labels of the
    right-subtree nodes that receive a value. Nodes are bit strings; the new right child is '1'."""
    assigned = {"1"}  # X_1 := −X_0/2 + (√3/2) Y
    for i in range(1, depth):  # printed: "for each node ⋆ ∈ {1} × {0,1}^i at depth 1 <= i <= k − 1"
        for suffix in range(1 << i):
            label = "1" + format(suffix, f"0{i}b")
            if label not in assigned:
                raise KeyError(label)  # the children of an unassigned node cannot be defined
            assigned.update({label + "0", label + "1"})
    return assigned


def check_algorithm_2(budget: Budget) -> Outcome:
    top = budget.pick(5, 8)
    for depth in range(1, top + 1):
        needed = {"1" + format(s, f"0{depth}b") for s in range(1 << depth)}  # leaves of the new right subtree
        try:
            assigned = _run_printed_algorithm_2(depth)
        except KeyError as missing:
            return Outcome(
                Status.REFUTED,
                f"executing the printed loop bounds at depth k = {depth}: node {missing} is used before it is assigned",
                counterexample=f"k = {depth}",
                corrected="loop over ⋆ ∈ {1}×{0,1}^i for 0 <= i <= k − 1 (start at X_1 itself) and output the "
                "nodes {1}×{0,1}^i for 0 <= i <= k (including the new leaves)",
            )
        if not needed <= assigned:
            missing_leaves = sorted(needed - assigned)
            return Outcome(
                Status.REFUTED,
                f"executing the printed loop bounds (1 <= i <= k−1) at k = {depth}: the children of X_1 are never "
                f"defined and no leaf of the new subtree is produced (missing {missing_leaves[:4]}...)",
                counterexample=f"k = {depth}: leaves {missing_leaves[:4]} never assigned",
                corrected="loop over ⋆ ∈ {1}×{0,1}^i for 0 <= i <= k − 1 (start at X_1 itself) and output the "
                "nodes {1}×{0,1}^i for 0 <= i <= k (including the new leaves); the prose of Remark 3.6 and the "
                "implementation reference.cip.numeric.streaming follow this",
            )
    return Outcome(Status.VERIFIED, f"the printed bounds produce every leaf for k = 1..{top}")


def check_algorithm_3(budget: Budget) -> Outcome:
    # Literal nesting of the printed listing: everything after "if ⋆ = ∅ then" sits inside that block, so only
    # the root is ever split. Execute it on the perfect tree of depth 2 (leaves 00, 01, 10, 11).
    depth = 2
    internal = [format(p, f"0{level}b") if level else "" for level in range(depth) for p in range(1 << level)]
    assigned = {""}
    for node in internal:
        if node == "":  # the printed listing nests the child assignment inside this branch
            assigned.update({node + "0", node + "1"})
    leaves = {format(p, f"0{depth}b") for p in range(1 << depth)}
    missing = sorted(leaves - assigned)
    from reference.cip.checks import general_tree as general_tree_checks

    prose = general_tree_checks.exhaustive_structure_check(max_leaves=budget.pick(5, 7))
    if missing:
        return Outcome(
            Status.REFUTED,
            f"read literally, the printed nesting splits only the root: on the perfect tree of depth 2 the leaves "
            f"{missing} are never assigned. Following the prose instead: {prose.describe()}",
            counterexample="perfect binary tree of depth 2",
            corrected="for every node with two children apply equation (2); a node with one child passes its value "
            "down; leaves stop (Appendix D.2's prose) — implemented in reference.cip.numeric.general_tree",
        )
    return Outcome(Status.VERIFIED, prose.describe())


def check_algorithm_4(budget: Budget) -> Outcome:
    from reference.cip.checks import general_tree as general_tree_checks

    structure = general_tree_checks.two_dim_structure_check(max_depth=budget.pick(2, 3))
    return Outcome(Status.VERIFIED if structure.passed else Status.REFUTED, structure.describe())


def check_d3_example(_: Budget) -> Outcome:
    from reference.cip.checks import general_tree as general_tree_checks

    result = general_tree_checks.check_two_by_two_example()
    return verdict(
        result.passed,
        scope="symbolic in the iid standard normals X, Y, Z, W (coefficients in Q(√3), sympy)",
        evidence=f"{result.detail}: every cell, row sum, column sum and the total are N(0, 1), X00 + X10 = X0, "
        "X01 + X11 = X1, and the covariance is C_1 ⊗ C_1",
        method=Method.PROOF,
    )


# --- Theorems 3.8 and 3.9 ------------------------------------------------------------------------------------


def check_theorem_3_8(budget: Budget) -> Outcome:
    from reference.cip.checks import gaussian as gaussian_checks

    proof = proved_by(importlib.import_module("reference.cip.proofs.theorem_3_8").prove)
    grid = gaussian_checks.theorem_grid_check(size=budget.pick(3, 6), max_depth=budget.pick(6, 20))
    outside = gaussian_checks.outside_range_search(size=budget.pick(4, 10))
    if proof.status is not Status.PROVED or not grid.passed:
        return Outcome(Status.REFUTED, f"{proof.detail} Grid: {grid.describe()}")
    return Outcome(
        Status.PROVED,
        proof.detail + " The printed proof applies the two-sided bound 2exp(−x²/2) after establishing only "
        "x² >= log(2/δ), which yields sqrt(2δ) rather than δ: the printed argument has a gap, the statement holds "
        f"(one-sided tail bound). Certified grid check: {grid.describe()} Outside the stated range: "
        f"{outside.describe()}",
    )


def check_theorem_3_9(budget: Budget) -> Outcome:
    from reference.cip.sensitivity import cascade_sensitivity_squared

    proof = proved_by(importlib.import_module("reference.cip.proofs.theorem_3_9").prove)
    top = budget.pick(10, 20)
    ratios = {
        d: cascade_sensitivity_squared(d, "substitution") / cascade_sensitivity_squared(d, "add_remove")
        for d in range(1, top + 1)
    }
    larger = [d for d, r in ratios.items() if r > 1]
    note = (
        f" Scope: the theorem is for add/remove neighbours (‖x − x'‖₁ <= 1). Under substitution neighbours the exact "
        f"squared sensitivity is 2(D+1)/3, larger than add/remove's (D+3)/3 for D = {larger[0]}..{top} (ratio "
        f"{float(ratios[top]):.4f} at D = {top}, tending to 2), so the theorem's σ must not be used for substitution."
        if larger
        else ""
    )
    return Outcome(proof.status, proof.detail + note, proof.counterexample, proof.corrected)


# --- Definitions 3.10–3.12, Proposition 3.13 --------------------------------------------------------------


def check_definitions_errors(budget: Budget) -> Outcome:
    from reference.cip.numeric.cascade import cascade_leaves
    from reference.cip.numeric.errors import node_sums

    depth = budget.pick(3, 4)
    draws = budget.pick(20000, 100000)
    rng = np.random.default_rng(310)
    samples = np.stack([cascade_leaves(depth, 1.0, rng) for _ in range(draws)])
    n = 1 << depth
    prefix = np.concatenate((np.zeros((draws, 1)), np.cumsum(samples, axis=1)), axis=1)
    sq_total = np.zeros(draws)
    for first in range(n):
        for last in range(first, n):
            sq_total += (prefix[:, last + 1] - prefix[:, first]) ** 2
    estimate = float(sq_total.mean())
    error = float(sq_total.std(ddof=1) / math.sqrt(draws))
    exact_total = float(cip_errors.expected_total_squared_error(depth, 1, "ranges"))
    nodal_total = np.zeros(draws)
    for row in range(draws):
        nodal_total[row] = sum(float(np.sum(level**2)) for level in node_sums(samples[row]))
    nodal_estimate = float(nodal_total.mean())
    nodal_error = float(nodal_total.std(ddof=1) / math.sqrt(draws))
    # six standard errors on each of two approximately normal means: false alarm about 4e-9
    z_ranges = abs(estimate - exact_total) / error
    z_nodal = abs(nodal_estimate - (2 * n - 1)) / nodal_error
    return verdict(
        z_ranges < 6 and z_nodal < 6,
        scope=f"depth {depth}, {draws} cascade draws; threshold 6 standard errors (false alarm ~4e-9)",
        evidence=f"err_2 (ranges) exact {exact_total:.6f} vs Monte Carlo {estimate:.6f} ± {error:.6f}; err_2 (nodal) "
        f"exact {2 * n - 1} vs {nodal_estimate:.6f} ± {nodal_error:.6f}",
        method=Method.STATISTICAL,
    )


def check_proposition_3_13(budget: Budget) -> Outcome:
    top = budget.pick(8, 12)
    two_over_pi = 2 / math.pi

    def first_inequality(case: tuple[str, int]) -> bool:
        workload, depth = case
        v = cip_errors.workload_variances(depth, workload)  # type: ignore[arg-type]
        # sqrt(err_2/m) <= err^∞  ⟺  total/m <= (2/π) max   (σ = 1); decided with a wide float margin or exactly
        mean = v.total / v.queries
        lhs, rhs = float(mean), two_over_pi * float(v.maximum)
        if abs(lhs - rhs) < 1e-9 * max(lhs, rhs):
            raise ArithmeticError("too close to decide in floating point")
        return lhs <= rhs

    cases = [(w, d) for d in range(0, top + 1) for w in ("nodal", "ranges")]
    first = exhaustive(
        cases,
        first_inequality,
        lambda c: f"{c[0]} workload, depth {c[1]} (m = {cip_errors.workload_variances(c[1], c[0]).queries})",  # type: ignore[arg-type]
        f"nodal and range workloads, depths 0..{top}",
        corrected="sqrt(2/π)·sqrt(err_2/m) <= err^∞ <= err_{W,∞}: E|N(0, v)| = sqrt(2v/π), so the first "
        "inequality needs the factor sqrt(2/π) (and then follows from max v >= mean v).",
    )
    if first.status is Status.REFUTED:
        nodal = cip_errors.workload_variances(0, "nodal")
        return Outcome(
            Status.REFUTED,
            first.detail + f". For the nodal workload every query has variance σ² (Theorem 3.3), so sqrt(err_2/m) = σ "
            f"while err^∞ = sqrt(2/π)·σ ≈ 0.798σ; e.g. depth 0: m = {nodal.queries}, err_2 = {nodal.total}σ².",
            counterexample=first.counterexample,
            corrected=first.corrected,
        )
    return first


# --- Lemma 3.14, Lemma B.4, Lemma B.5 ---------------------------------------------------------------------------


def max_range_variance_closed_form(depth: int) -> Fraction:
    """The exact maximum range variance the computation finds: (6D + 4)/9 − 4^(1−D)/9 for D >= 2."""
    return Fraction(6 * depth + 4, 9) - Fraction(1, 9 * 4 ** (depth - 1))


def check_lemma_3_14(budget: Budget) -> Outcome:
    top = budget.pick(11, 14)
    stats = {d: cip_ranges.all_range_statistics(d) for d in range(0, top + 1)}
    closed = all(stats[d].max_variance == max_range_variance_closed_form(d) for d in range(2, top + 1))
    unique_symmetric = all(
        len(stats[d].maximisers) == 1
        and stats[d].argmax
        == ((2 ** (d - 1) - (-1) ** (d - 1)) // 3, (1 << d) - 1 - (2 ** (d - 1) - (-1) ** (d - 1)) // 3)
        for d in range(2, top + 1)
    )
    bounds = all(Fraction(d, 3) <= stats[d].max_variance <= 2 * d - 2 for d in range(2, top + 1))
    detail = (
        f"exact maximum over all ranges for depths 0..{top}: "
        + ", ".join(f"D={d}: {stats[d].max_variance}" for d in range(0, min(top, 6) + 1))
        + f", …, D={top}: {stats[top].max_variance} ≈ {float(stats[top].max_variance):.6f}. "
        f"It equals (6D + 4)/9 − 4^(1−D)/9 for every D in 2..{top}: {closed}; the maximiser is unique and is the "
        f"symmetric range [J, n−1−J], J = (2^(D−1) − (−1)^(D−1))/3: {unique_symmetric}; it lies between D/3 and "
        f"2D − 2 (the proof's bounds): {bounds}. So the maximum variance is Θ(log n) with leading constant 2/3 "
        "(per depth), which the finite computation cannot prove asymptotically but matches the closed form exactly."
    )
    return Outcome(Status.VERIFIED if closed and bounds else Status.REFUTED, detail)


def check_lemma_3_14_lower_step(budget: Budget) -> Outcome:
    top = budget.pick(15, 29)

    def v(depth: int) -> Fraction:
        # V_K: variance of the first M_K = 2^(K−1) + 2^(K−3) + … + 1 leaves (K odd)
        m = sum(1 << e for e in range(depth - 1, -1, -2))
        return cip_ranges.range_variance(depth, 0, m - 1)

    return exhaustive(
        range(3, top + 1, 2),
        lambda depth: v(depth) - v(depth - 2) >= Fraction(2, 3),
        lambda depth: f"K = {depth}: V_K − V_(K−2) = {v(depth) - v(depth - 2)}",
        f"odd K = 3..{top}, exact O(K) range variances",
    )


def check_lemma_b4(budget: Budget) -> Outcome:
    # Cov(Z1, Z2) = Σ_{i∈S1, j∈S2} C_ij with i ≠ j; every off-diagonal entry is −2^(1−2h) < 0.
    top = budget.pick(3, 4)
    for depth in range(0, top + 1):
        matrix = cip_matrix.covariance(depth)
        n = len(matrix)
        if any(matrix[i][j] >= 0 for i in range(n) for j in range(n) if i != j):
            return Outcome(Status.REFUTED, f"a non-negative off-diagonal entry at depth {depth}")
    # all pairs of disjoint non-empty subsets at depth 2 (exhaustive over subsets)
    depth = 2
    matrix = cip_matrix.covariance(depth)
    n = len(matrix)
    for mask1 in range(1, 1 << n):
        for mask2 in range(1, 1 << n):
            if mask1 & mask2:
                continue
            cov = sum(matrix[i][j] for i in range(n) if mask1 >> i & 1 for j in range(n) if mask2 >> j & 1)
            if cov > 0:
                return Outcome(Status.REFUTED, f"positive covariance for subsets {mask1:b}, {mask2:b}")
    proof = proved_by(importlib.import_module("reference.cip.proofs.proposition_3_5").prove)
    return Outcome(
        proof.status,
        "Cov(Z1, Z2) is a sum of off-diagonal entries, each −2^(1−2h) < 0 by the entry formula proved in "
        f"reference/cip/proofs/proposition_3_5.py; exhaustive check of all disjoint subset pairs at depth 2 and of all "
        f"off-diagonal signs up to depth {top}.",
    )


def canonical_node_count(depth: int, first: int, last: int) -> int:
    """Number of tree nodes in the canonical (maximal merge) decomposition of [first, last]."""
    count = 0
    start, stop = first, last + 1
    while start < stop:
        size = start & -start if start else 1 << depth
        while size > stop - start:
            size >>= 1
        start += size
        count += 1
    return count


def check_lemma_b5(budget: Budget) -> Outcome:
    top = budget.pick(7, 10)
    worst = {}
    for depth in range(2, top + 1):
        n = 1 << depth
        worst[depth] = max(canonical_node_count(depth, a, b) for a in range(n) for b in range(a, n))
    holds = all(worst[d] <= 2 * d - 2 for d in worst)
    tight = all(worst[d] == 2 * d - 2 for d in worst)
    return verdict(
        holds,
        scope=f"all ranges, depths 2..{top}",
        evidence="largest number of merged nodes per depth: "
        + ", ".join(f"D={d}: {w}" for d, w in worst.items())
        + f"; the bound 2D − 2 is attained at every depth: {tight}",
    )


# --- Theorem 3.15, Corollary 3.16, Theorem C.1, Corollary C.2 -----------------------------------------------


def check_theorem_3_15(budget: Budget) -> Outcome:
    from reference.cip.numeric.errors import expected_worst_error

    top = budget.pick(10, 14)
    stats = {d: cip_ranges.all_range_statistics(d) for d in range(1, top + 1)}
    total_ratio = {d: float(stats[d].total_variance) / (4**d * d) for d in stats}
    max_ratio = {d: float(stats[d].max_variance) / d for d in stats}
    depths = budget.pick((4, 6, 8), (4, 6, 8, 10, 12))
    draws = budget.pick(100, 400)
    worst = {d: expected_worst_error(d, 1.0, "ranges", draws, 3150 + d) for d in depths}
    # proof's explicit bound: E max <= sqrt(4 log(n) · maxvar) · (1 + Σ_m n^(−(2m²−2)))
    bound_ok = all(
        worst[d].mean + 6 * worst[d].standard_error
        <= math.sqrt(4 * math.log(2**d) * float(stats[d].max_variance))
        * (1 + sum((2.0**d) ** (-(2 * m * m - 2)) for m in range(1, 6)))
        for d in depths
    )
    detail = (
        f"err^∞ = sqrt(2/π)·σ·sqrt(max variance) with max variance / D in "
        f"[{min(max_ratio.values()):.4f}, {max(max_ratio.values()):.4f}] over D = 1..{top} (exact): Θ(σ sqrt(log n)) "
        f"consistent. err_2/(σ² n² D) in [{min(total_ratio.values()):.4f}, {max(total_ratio.values()):.4f}] (exact): "
        f"O(σ² n² log n) consistent. err_(W,∞) by Monte Carlo ({draws} draws): "
        + ", ".join(f"D={d}: {worst[d].mean:.3f}±{worst[d].standard_error:.3f}" for d in depths)
        + f"; below the proof's explicit bound sqrt(4 log n · max var)(1 + Σ n^(2−2m²)) at each depth: {bound_ok}. "
        "Asymptotic rates are not provable by finite computation; these are the exact values and the proof's "
        "explicit constants."
    )
    return Outcome(Status.VERIFIED if bound_ok else Status.REFUTED, detail)


def check_independent_noise_remark(budget: Budget) -> Outcome:
    top = budget.pick(10, 14)
    ok = True
    for depth in range(0, top + 1):
        n = 1 << depth
        total = cip_ranges.independent_total_range_variance(n)
        ok &= total == n * (n + 1) * (n + 2) // 6
    return verdict(
        ok,
        scope=f"n = 2^D, D = 0..{top}",
        evidence="with independent unit-variance leaf noise the total over all ranges is Σ_L L(n−L+1) = n(n+1)(n+2)/6 "
        "= Θ(n³) and the largest range variance is n (the full range), so err^∞ = sqrt(2n/π)σ = Θ(sqrt(n)σ)",
    )


def check_theorem_c1(budget: Budget) -> Outcome:
    from reference.cip.numeric.errors import expected_worst_error

    top = budget.pick(10, 14)
    exact_ok = all(
        cip_errors.workload_variances(d, "nodal").maximum == 1
        and cip_errors.workload_variances(d, "nodal").total == 2 * (1 << d) - 1
        for d in range(0, top + 1)
    )
    depths = budget.pick((4, 8), (4, 8, 12))
    draws = budget.pick(100, 400)
    worst = {d: expected_worst_error(d, 1.0, "nodal", draws, 3100 + d) for d in depths}
    # the proof's bound: sqrt(2 log n)(1 + Σ_m (2n − 1)/n^(m²))
    bound = {
        d: math.sqrt(2 * math.log(2**d)) * (1 + sum((2 * 2**d - 1) / (2.0**d) ** (m * m) for m in range(1, 8)))
        for d in depths
    }
    bound_ok = all(worst[d].mean + 6 * worst[d].standard_error <= bound[d] for d in depths)
    return verdict(
        exact_ok and bound_ok,
        scope=f"exact for depths 0..{top}; Monte Carlo at depths {depths}",
        evidence=f"every node variance is exactly σ² so err^∞ = sqrt(2/π)σ and err_2 = (2n−1)σ² (exact): {exact_ok}; "
        "err_(W,∞) Monte Carlo "
        + ", ".join(f"D={d}: {worst[d].mean:.3f}±{worst[d].standard_error:.3f} <= {bound[d]:.3f}" for d in depths),
        method=Method.EXHAUSTIVE,
    )


def check_corollary_c2(budget: Budget) -> Outcome:
    top = budget.pick(10, 14)
    # nodal err_2 = (2n − 1)σ²; with σ² = Θ(log n · log(2/δ)/ε²) (Theorem 3.9) err_2 = Θ(n log n log(2/δ)/ε²).
    ratios = {d: Fraction(2 * (1 << d) - 1) / (4**d) for d in range(1, top + 1)}
    decreasing = all(ratios[d + 1] < ratios[d] for d in range(1, top))
    # the printed bound n² log n ... divided by the exact n log n ...: err_2/(n² · D) → 0
    return Outcome(
        Status.REFUTED if decreasing else Status.VERIFIED,
        "Printed: 'Let W be all the continuous range queries' with err_(W,2) = Θ(n² log(n) log(2/δ) ε^-2). For the "
        "nodal workload (the subject of Appendix C) err_2 = (2n−1)σ² exactly (Theorem C.1), so with Theorem 3.9's "
        "σ² = Θ(log n log(2/δ)/ε²) it is Θ(n log n log(2/δ)/ε²): the ratio to the printed n² log n rate is "
        f"(2n−1)/n² → 0 (exact: {ratios[1]}, {ratios[2]}, …, {float(ratios[top]):.2e} at D = {top}). Read with "
        "'range queries' instead, the first bullet fails (range err^∞ grows like log n, not sqrt(log n)).",
        counterexample="nodal workload: err_2/(n² log n log(2/δ) ε^-2) = Θ(1/n), not Θ(1)",
        corrected="nodal queries: err^∞ = Θ(sqrt(log n log(2/δ))/ε), err_2 = Θ(n log n log(2/δ)/ε²), "
        "err_(W,∞) = O(log(n) sqrt(log(2/δ))/ε)",
    )


def check_corollary_3_16(budget: Budget) -> Outcome:
    top = budget.pick(10, 14)
    # with σ² = (2 + 2D/3) log(2/δ)/ε²: err^∞² ∝ σ² · maxvar ∝ D² ; err_2 ∝ σ² · total ∝ n² D²
    stats = {d: cip_ranges.all_range_statistics(d) for d in range(2, top + 1)}
    err_inf_sq = {d: (2 + Fraction(2 * d, 3)) * stats[d].max_variance / d**2 for d in stats}
    err_2 = {d: (2 + Fraction(2 * d, 3)) * stats[d].total_variance / (4**d * d**2) for d in stats}
    lo1, hi1 = min(map(float, err_inf_sq.values())), max(map(float, err_inf_sq.values()))
    lo2, hi2 = min(map(float, err_2.values())), max(map(float, err_2.values()))
    # a Θ/O rate cannot be proved by finitely many depths; what is checked is that the normalised errors settle
    # (relative change between the last two depths below 5%) rather than drift
    settled = all(
        abs(float(series[top] - series[top - 1])) < 0.05 * float(series[top]) for series in (err_inf_sq, err_2)
    )
    return Outcome(
        Status.VERIFIED if settled else Status.REFUTED,
        f"With Theorem 3.9's σ: (err^∞)²/(log² n · log(2/δ)/ε² · 2/π) in [{lo1:.3f}, {hi1:.3f}] and "
        f"err_2/(n² log² n · log(2/δ)/ε²) in [{lo2:.4f}, {hi2:.4f}] for D = 2..{top} (exact; logs base 2) — "
        f"bounded and settling (last relative change < 5%: {settled}), consistent with the stated rates; the third "
        "follows from Theorem 3.15.",
    )


# --- Section 4 factorization remark, E.2 constant, E.5 scheme ------------------------------------------------


def check_factorization_remark(budget: Budget) -> Outcome:
    # R = sqrt(C) is n×n and W (all ranges) is n(n+1)/2 × n, so A = R⁻¹W needs n(n+1)/2 == n.
    for depth in range(0, budget.pick(4, 8) + 1):
        n = 1 << depth
        queries = n * (n + 1) // 2
        if queries != n:
            return Outcome(
                Status.REFUTED,
                f"For the range workload at depth {depth}, W is {queries}×{n} and R = C^(1/2) is {n}×{n}, so "
                f"A = R⁻¹W ({n}×{n} times {queries}×{n}) is undefined; and R(Ax + z) would put noise of covariance C "
                "on the answers, where the mechanism's answer noise has covariance W C Wᵀ.",
                counterexample=f"depth {depth} (n = {n}): W is {queries}×{n}",
                corrected="W(x + C^(1/2) z) = (W C^(1/2))(C^(-1/2) x + z): strategy A = C^(-1/2), reconstruction "
                "R = W C^(1/2)",
            )
    return Outcome(Status.VERIFIED, "dimensions agree at every depth checked")


def nodes_containing_leaf(depth: int, leaf: int) -> int:
    """Number of nodes of the perfect tree of the given depth whose leaf interval contains ``leaf``, counted by
    enumerating every node (l, p) and testing ``p·2^(D−l) <= leaf < (p+1)·2^(D−l)``."""
    count = 0
    for level in range(depth + 1):
        width = 1 << (depth - level)
        count += sum(1 for position in range(1 << level) if position * width <= leaf < (position + 1) * width)
    return count


def check_e2_constant(budget: Budget) -> Outcome:
    top = budget.pick(8, 12)
    # Binary Tree mechanism: independent noise on the 2n − 1 node counts; its squared ℓ2 sensitivity is the
    # largest number of nodes containing one leaf. The same Theorem 3.8 calibration then gives the constant 2Δ².
    tree_sensitivity = {d: max(nodes_containing_leaf(d, leaf) for leaf in range(1 << d)) for d in range(top + 1)}
    ours = {d: 2 * cip_matrix.max_precision_diagonal(d) for d in range(top + 1)}
    tree_constant = {d: 2 * tree_sensitivity[d] for d in range(top + 1)}
    printed_tree = {d: Fraction(d) for d in range(top + 1)}  # "log n" with n = 2^D
    printed_ours = {d: 2 + Fraction(2 * d, 3) for d in range(top + 1)}
    ours_matches = all(ours[d] == printed_ours[d] for d in ours)
    tree_mismatch = [d for d in range(top + 1) if printed_tree[d] not in (tree_constant[d], tree_sensitivity[d])]
    smaller = all(ours[d] < tree_constant[d] for d in range(1, top + 1))
    detail = (
        f"Ours: 2·max diag(C⁻¹) = 2 + (2/3)·D for D = 0..{top}: {ours_matches}. Binary Tree: a leaf lies in "
        f"{', '.join(str(tree_sensitivity[d]) for d in range(min(top, 5) + 1))}, … nodes (D = 0, 1, …), i.e. "
        "Δ² = D + 1, so the same calibration gives 2(D + 1) = 2 + 2 log2 n (or D + 1 as a bare sensitivity) — "
        f"never the printed 'log n' (mismatch at D = {tree_mismatch[:6]}…). Ours is smaller than the Binary "
        f"Tree's for every D >= 1: {smaller}; with the printed 'log n' it would be larger for D < 6."
    )
    if ours_matches and not tree_mismatch:
        return Outcome(Status.VERIFIED, detail)
    return Outcome(
        Status.REFUTED,
        detail,
        counterexample=f"D = {tree_mismatch[0]}: Binary Tree constant {tree_constant[tree_mismatch[0]]} "
        f"(sensitivity {tree_sensitivity[tree_mismatch[0]]}), printed {printed_tree[tree_mismatch[0]]}"
        if tree_mismatch
        else None,
        corrected="2 + (2/3) log2 n (ours) vs 2 + 2 log2 n (Binary Tree), under the same Theorem 3.8 calibration",
    )


def check_e5_scheme(_: Budget) -> Outcome:
    import sympy

    n = sympy.symbols("n", integer=True, positive=True)
    total = n * (n + 1) / 2
    single = sympy.Rational(2) / (n + 1) / n
    pair = (1 - sympy.Rational(2) / (n + 1)) / (n * (n - 1) / 2)
    holds = sympy.simplify(single - 1 / total) == 0 and sympy.simplify(pair - 1 / total) == 0
    return verdict(
        bool(holds),
        scope="symbolic in n >= 2",
        evidence="P(single cell c) = 2/(n+1)·1/n and P(span of a pair) = (1 − 2/(n+1))·2/(n(n−1)) both equal "
        "2/(n(n+1)) = 1/#ranges: the scheme samples ranges uniformly",
        method=Method.PROOF,
    )


def check_e5_max_estimator(budget: Budget) -> Outcome:
    from reference.cip.numeric.errors import expected_worst_error

    depth = budget.pick(6, 10)
    estimate = expected_worst_error(depth, 1.0, "ranges", budget.pick(200, 1000), 55)
    spread = estimate.standard_error * math.sqrt(estimate.draws)
    # the realised maximum over all ranges of one noise draw is a random variable with this spread; the paper's
    # "max_i E_i" over sampled ranges of one draw converges (m → ∞) to that random variable, not to its mean.
    positive_spread = spread > 10 * estimate.standard_error
    return Outcome(
        Status.REFUTED if positive_spread else Status.VERIFIED,
        f"At depth {depth} the realised worst-case range error of one noise draw has mean {estimate.mean:.3f} and "
        f"standard deviation {spread:.3f} across draws (Monte Carlo, {estimate.draws} draws): max_i E_i over ranges "
        "sampled from ONE draw converges to that draw's realised maximum, a random quantity, so it is not a "
        "consistent estimator of err_(W,∞) = E max; the paper's ±0.25 sd over 10 runs reflects this spread.",
        counterexample=f"depth {depth}: sd of the realised maximum {spread:.3f} > 0",
        corrected="average the realised maximum (computable exactly in O(n) as max prefix − min prefix) over "
        "independent noise draws: reference.cip.numeric.errors.expected_worst_error",
    )


def check_section_5_timing(budget: Budget) -> Outcome:
    import time

    from reference.cip.numeric.cascade import cascade_leaves

    depth = 17
    generator = np.random.default_rng(5)
    start = time.perf_counter()
    cascade_leaves(depth, 1.0, generator)
    seconds = time.perf_counter() - start
    return not_checkable(
        "the quoted times (< 1 s for n = 2^17, < 9 min for n = 2^25, slope 1.05) are measurements of the authors' "
        f"code on their laptop. For comparison, this implementation took {seconds:.4f} s for n = 2^17 here; "
        "benchmarks/bench_cascade.py measures 2^22 and 2^25 against drawing the same number of normals."
    )


def cip_claims() -> list[Claim]:
    """All CIP entries, in the paper's order."""
    M = Method
    c = Claim
    return [
        c(
            PAPER,
            "Definitions 2.1–2.3",
            "the mechanism W(x + noise) is unbiased (E = Wx), statistically transparent (its output law is known in "
            "closed form) and consistent (answers are W x' for one x')",
            M.STATISTICAL,
            check_definitions_2,
        ),
        c(
            PAPER,
            "Remark 2.4",
            "consistency requires the output in the column space of W; Wx + e is inconsistent unless e is in that "
            "column space",
            M.EXHAUSTIVE,
            check_remark_2_4,
        ),
        c(
            PAPER,
            "Definition 3.1",
            "C_1 = [[1, −1/2], [−1/2, 1]] and C_{i+1} has diagonal blocks C_i and off-diagonal "
            "blocks −J_i/2^(2i+1); renderings 000 (LaTeX) and 001 (OCR) disagree on the exponent",
            M.EXHAUSTIVE,
            check_definition_3_1,
            "Both readings are built exactly and tested against Theorem 3.3.",
        ),
        c(
            PAPER,
            "Definition 3.2",
            "the mechanism outputs x + σZ with Z ~ N(0, C_k)",
            M.STATISTICAL,
            check_definition_3_2,
        ),
        c(
            PAPER,
            "Section 3.1 correlations",
            "leaves in different halves have covariance −2^(−2k+1); leaves starting 00 and 01 have −2^(−2k+3)",
            M.EXHAUSTIVE,
            check_section_3_1_correlations,
        ),
        c(
            PAPER,
            "Equation (2)",
            "X0 = X/2 + (√3/2)Y and X1 = X/2 − (√3/2)Y are N(0,1), sum to X and have correlation −1/2",
            M.PROOF,
            check_equation_2,
        ),
        c(
            PAPER,
            "Theorem 3.3",
            "under N(0, σ² C_k) every node of the tree (leaf or internal) has variance σ²",
            M.PROOF,
            check_theorem_3_3,
        ),
        c(PAPER, "Proposition 3.4", "Cascade Sampling (Algorithm 1) costs Θ(n)", M.EXHAUSTIVE, check_proposition_3_4),
        c(
            PAPER,
            "Algorithm 1",
            "Cascade Sampling: top-down, each node's value split by equation (2)",
            M.PROOF,
            check_proposition_3_5,
            "Checked together with Proposition 3.5 (its correctness statement).",
        ),
        c(
            PAPER,
            "Proposition 3.5",
            "the leaves produced by Algorithm 1 have covariance σ² C_k",
            M.PROOF,
            check_proposition_3_5,
        ),
        c(
            PAPER,
            "Remark 3.6",
            "an incremental version adds one element at a time (new root, X1 = −X0/2 + (√3/2)Y), "
            "O(log n) worst case and O(1) amortised, with the same covariance",
            M.STATISTICAL,
            check_remark_3_6,
        ),
        c(
            PAPER,
            "Remark 3.7",
            "the covariance C_k is a feasible solution of the optimisation of [43] (equal variance on tree nodes)",
            M.NONE,
            check_remark_3_7,
        ),
        c(
            PAPER,
            "Theorem 3.8",
            "for any covariance C, ε ∈ (0,1], δ ∈ (0,1/2]: σ² >= 2‖diag(C⁻¹)‖∞ log(2/δ)/ε² gives "
            "(ε, δ)-DP (add/remove neighbours)",
            M.PROOF,
            check_theorem_3_8,
        ),
        c(
            PAPER,
            "Theorem 3.9",
            "for C_k: σ² >= (2/ε² + 2 log2(n)/(3ε²)) log(2/δ) gives (ε, δ)-DP",
            M.PROOF,
            check_theorem_3_9,
        ),
        c(
            PAPER,
            "Definitions 3.10–3.12",
            "err_2 = E‖Ws‖², err^∞ = ‖E|Ws|‖∞, err_(W,∞) = E‖Ws‖∞ (closed forms "
            "err_2 = σ² Σ_q w_qᵀCw_q are compared with Monte Carlo)",
            M.STATISTICAL,
            check_definitions_errors,
        ),
        c(
            PAPER,
            "Proposition 3.13",
            "sqrt(err_2/m) <= err^∞ <= err_(W,∞) for every W",
            M.EXHAUSTIVE,
            check_proposition_3_13,
        ),
        c(
            PAPER,
            "Lemma 3.14",
            "the maximum variance over all contiguous ranges is Θ(k)·σ²",
            M.EXHAUSTIVE,
            check_lemma_3_14,
        ),
        c(
            PAPER,
            "Lemma 3.14 (lower-bound step)",
            "for odd K, V_K − V_(K−2) >= 2/3 where V_K is the variance of the first 2^(K−1) + 2^(K−3) + … + 1 leaves",
            M.EXHAUSTIVE,
            check_lemma_3_14_lower_step,
        ),
        c(
            PAPER,
            "Theorem 3.15",
            "for all ranges: err^∞ = Θ(σ sqrt(log n)), err_2 = O(σ² n² log n), err_(W,∞) = O(σ log n)",
            M.EXHAUSTIVE,
            check_theorem_3_15,
        ),
        c(
            PAPER,
            "Section 3.4 (independent noise)",
            "with independent leaf noise err_2 = Θ(n³σ²) and err^∞ = Θ(sqrt(n)σ)",
            M.EXHAUSTIVE,
            check_independent_noise_remark,
        ),
        c(
            PAPER,
            "Corollary 3.16",
            "with the (ε, δ) σ: err^∞ = Θ(log n sqrt(log(2/δ))/ε), err_2 = O(n² log² n "
            "log(2/δ)/ε²), err_(W,∞) = O(log^1.5 n sqrt(log(2/δ))/ε)",
            M.EXHAUSTIVE,
            check_corollary_3_16,
        ),
        c(
            PAPER,
            "Section 4 (factorization)",
            "the mechanism is the factorization M(x) = R(Ax + z) with R = sqrt(C_k), A = R⁻¹W",
            M.EXHAUSTIVE,
            check_factorization_remark,
        ),
        c(
            PAPER,
            "Proposition B.1",
            "C_k has unit diagonal, negative off-diagonal entries, row sums 2^-k, and is positive semi-definite",
            M.PROOF,
            check_proposition_b1,
        ),
        c(
            PAPER,
            "Lemma B.2",
            "C_1⁻¹ = [[4/3, 2/3], [2/3, 4/3]] and C_j⁻¹ = [[C_(j−1)⁻¹ + J/3, 2J/3], [2J/3, C_(j−1)⁻¹ + J/3]]",
            M.PROOF,
            check_lemma_b2,
        ),
        c(PAPER, "Corollary B.3", "every diagonal entry of C_j⁻¹ equals 1 + j/3", M.PROOF, check_corollary_b3),
        c(PAPER, "Lemma B.4", "sums over disjoint leaf sets have non-positive covariance", M.PROOF, check_lemma_b4),
        c(
            PAPER,
            "Lemma B.5",
            "every contiguous range merges into at most 2K − 2 tree nodes (K >= 2)",
            M.EXHAUSTIVE,
            check_lemma_b5,
        ),
        c(
            PAPER,
            "Theorem C.1",
            "nodal queries: err^∞ = sqrt(2/π)σ, err_2 = (2n−1)σ², err_(W,∞) = O(σ sqrt(log n))",
            M.EXHAUSTIVE,
            check_theorem_c1,
        ),
        c(
            PAPER,
            "Corollary C.2",
            "with the (ε, δ) σ and 'W all the continuous range queries': err^∞ = "
            "Θ(sqrt(log n log(2/δ))/ε), err_2 = Θ(n² log n log(2/δ)/ε²), err_(W,∞) = O(log n sqrt(log(2/δ))/ε)",
            M.PROOF,
            check_corollary_c2,
        ),
        c(
            PAPER,
            "Algorithm 2",
            "streaming Cascade Sampling as listed in Appendix D.1 (loop over depth 1 <= i <= k−1, "
            "output nodes up to depth k−1)",
            M.EXHAUSTIVE,
            check_algorithm_2,
        ),
        c(
            PAPER,
            "Algorithm 3",
            "noise allocation for a general binary tree as listed in Appendix D.2",
            M.EXHAUSTIVE,
            check_algorithm_3,
        ),
        c(
            PAPER,
            "Appendix D.3 example",
            "the 2×2 construction: every cell, row sum, column sum and the total are "
            "standard normal, and column sums give X0, X1",
            M.PROOF,
            check_d3_example,
        ),
        c(
            PAPER,
            "Algorithm 4",
            "two-dimensional noise allocation: every (row node, column node) rectangle has "
            "variance σ² and sums are consistent",
            M.EXHAUSTIVE,
            check_algorithm_4,
        ),
        c(
            PAPER,
            "Appendix E.2 constant",
            "the noise constant is '2 + 2/3 log n vs log n' (ours vs Binary Tree)",
            M.EXHAUSTIVE,
            check_e2_constant,
        ),
        c(
            PAPER,
            "Appendix E.5 sampling",
            "flip a coin with P(heads) = 2/(n+1): heads a single cell, tails the span of "
            "two distinct cells — a uniform range",
            M.PROOF,
            check_e5_scheme,
        ),
        c(
            PAPER,
            "Appendix E.5 estimator",
            "max_i E_i over m sampled ranges consistently estimates err_(W,∞)",
            M.STATISTICAL,
            check_e5_max_estimator,
        ),
        c(
            PAPER,
            "Section 5 timings",
            "< 1 s for n = 2^17, < 9 min for n = 2^25, log-log slope 1.05",
            M.MEASURED,
            check_section_5_timing,
        ),
    ]
