"""CIP Section 4: the factorization reading of the mechanism."""

from __future__ import annotations

from ...core.claims import Budget, Claim, Method, Outcome, Status
from .common import PAPER


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


def claims() -> list[Claim]:
    """The entries of this part of CIP, in the paper's order."""
    M = Method
    c = Claim
    return [
        c(
            PAPER,
            "Section 4 (factorization)",
            "the mechanism is the factorization M(x) = R(Ax + z) with R = sqrt(C_k), A = R⁻¹W",
            M.EXHAUSTIVE,
            check_factorization_remark,
            implements=("reference.cip.exact.matrix.covariance", "reference.core.linalg.matmul"),
        ),
    ]
