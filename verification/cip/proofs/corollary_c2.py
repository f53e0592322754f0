"""CIP paper, Corollary C.2 (nodal queries under Theorem 3.9's σ): the printed err_2 rate is wrong, for every n.

Method, symbolically in n = 2^depth, ε and δ:

1. Theorem 3.3 (its program runs first): every node of the tree has variance σ², at every depth.
2. The nodal workload has one query per node: Σ_(l=0)^(depth) 2^l = 2n − 1 queries (sympy summation), so
   err_2 = Σ_q Var(q) = (2n − 1)σ² exactly — Theorem C.1's err_2, now for every depth.
3. Theorem 3.9 (its program runs): σ² = (2/ε² + 2 log2(n)/(3ε²)) log(2/δ).
4. err_2 / (n log n log(2/δ)/ε²) → 4/(3 log 2) as n → ∞ (finite, positive): err_2 = Θ(n log n log(2/δ)/ε²).
5. err_2 / (n² log n log(2/δ)/ε²) → 0: the printed Θ(n² log n log(2/δ)/ε²) fails (its lower half), for every
   ε and δ — refuted for all parameters, not at finitely many depths.

``prove(printed_power=...)`` takes the power of n in the printed rate; the program establishes the rate with
power 1 and shows that the printed power 2 gives ratio → 0 (``rate_holds(power)`` says which power is right).
"""

from __future__ import annotations

import sympy as sp

from ...core.proof import ProofRecord, established, is_zero, print_record
from ...core.proof_links import mutation, proves
from .common import PAPER

STATEMENT = (
    "For every depth (n = 2^depth), ε and δ, the nodal workload under σ² = (2/ε² + 2 log2(n)/(3ε²)) log(2/δ) has "
    "err_2 = (2n − 1)σ² = Θ(n log n log(2/δ)/ε²); its ratio to the printed n² log n log(2/δ)/ε² tends to 0"
)

N = sp.Symbol("n", positive=True)
EPSILON, DELTA = sp.symbols("epsilon delta", positive=True)


def nodal_err2() -> sp.Expr:
    """err_2 of the nodal workload under Theorem 3.9's σ², symbolically in n, ε, δ."""
    sigma_squared = (2 / EPSILON**2 + sp.Rational(2, 3) * sp.log(N, 2) / EPSILON**2) * sp.log(2 / DELTA)
    return (2 * N - 1) * sigma_squared


def rate_limit(power: int) -> sp.Expr:
    """lim_(n→∞) err_2 / (n^power log n log(2/δ)/ε²)."""
    rate = N**power * sp.log(N) * sp.log(2 / DELTA) / EPSILON**2
    return sp.limit(sp.simplify(nodal_err2() / rate), N, sp.oo)


@proves("CIP", "Corollary C.2", mutations=(mutation("refuting the true rate n log n (power 1)", printed_power=1),))
def prove(printed_power: int = 2) -> ProofRecord:
    """Establish the nodal err_2 rate for every n and show the printed power of n fails (ProofFailure otherwise)."""
    from . import theorem_3_3 as cip_theorem_3_3
    from . import theorem_3_9 as cip_theorem_3_9

    record = ProofRecord(PAPER, "Corollary C.2 (nodal err_2)", STATEMENT)
    nodes = cip_theorem_3_3.prove(sanity=False)
    record.step(
        f"Theorem 3.3 holds: every node has variance σ², at every depth (reference_verification.cip.proofs.theorem_3_3: "
        f"{len(nodes.steps)} steps)",
        established(nodes, cip_theorem_3_3.prove),
    )
    depth, level = sp.symbols("depth l", integer=True, nonnegative=True)
    count = sp.summation(2**level, (level, 0, depth))
    record.step(
        "the nodal workload has Σ_(l=0)^(depth) 2^l = 2·2^depth − 1 = 2n − 1 queries (sympy summation), so "
        "err_2 = Σ_q Var(q) = (2n − 1)σ² exactly",
        is_zero(count - (2 * 2**depth - 1)),
    )
    sigma = cip_theorem_3_9.prove()
    record.step(
        f"Theorem 3.9 holds: σ² = (2/ε² + 2 log2(n)/(3ε²)) log(2/δ) (reference_verification.cip.proofs.theorem_3_9: "
        f"{len(sigma.steps)} steps)",
        established(sigma, cip_theorem_3_9.prove),
    )
    true_rate = rate_limit(1)
    record.step(
        f"err_2/(n log n log(2/δ)/ε²) → {true_rate} as n → ∞ (sympy limit; finite and positive): "
        "err_2 = Θ(n log n log(2/δ)/ε²)",
        is_zero(true_rate - 4 / (3 * sp.log(2))),
    )
    printed = rate_limit(printed_power)
    record.step(
        f"err_2/(n^{printed_power} log n log(2/δ)/ε²) → {printed} as n → ∞ (sympy limit): the printed "
        f"Θ(n^{printed_power} log n log(2/δ)/ε²) fails for every ε, δ",
        printed == 0,
    )
    return record


if __name__ == "__main__":
    print_record(prove())
