"""CIP Section 2: unbiased, statistically transparent and consistent mechanisms (Definitions 2.1–2.3, Remark 2.4)."""

from __future__ import annotations

import numpy as np

from reference.cip.exact import ranges as cip_ranges

from ...core.claims import Budget, Claim, Method, Outcome, Status, verdict
from .common import PAPER


def check_definitions_2(budget: Budget) -> Outcome:
    from scipy import stats

    from reference.cip.mechanism import CorrelatedInputPerturbation

    # Consistency (Definition 2.3) and unbiasedness (Definition 2.1) of W·M(x) for the mechanism as built here.
    length, draws = 6, budget.pick(2000, 20000)
    mechanism = CorrelatedInputPerturbation.calibrate(length, epsilon=1, delta="1e-6")
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


def claims() -> list[Claim]:
    """The entries of this part of CIP, in the paper's order."""
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
            implements=("reference.cip.mechanism.CorrelatedInputPerturbation",),
        ),
        c(
            PAPER,
            "Remark 2.4",
            "consistency requires the output in the column space of W; Wx + e is inconsistent unless e is in that "
            "column space",
            M.EXHAUSTIVE,
            check_remark_2_4,
            implements=("reference.cip.mechanism.CorrelatedInputPerturbation", "reference.cip.exact.errors.workload_variances"),
        ),
    ]
