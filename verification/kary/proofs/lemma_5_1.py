"""KARY Lemma 5.1: where the pure mechanism's leading term is at most the approximate one's.

With B_ε, B_(ε,δ) > 0, T > 1 and δ ∈ (0, 1), the pure bound's leading term (B_ε/ε²) log(T)³ is at most the
approximate bound's (B_(ε,δ)/ε²) log(T)² log(1/δ) iff log(1/δ) >= (B_ε/B_(ε,δ)) log T, i.e. iff
δ <= T^(−B_ε/B_(ε,δ)): dividing both sides by the positive (log T)²/ε², then by B_(ε,δ) > 0, then
exponentiating (monotone) preserves the inequality. The exponent is
:func:`reference.kary.constants.lemma_5_1_exponent`. The steps are checked with sympy on positive symbols.
"""

from __future__ import annotations

import sympy as sp

from ...core.proof import ProofRecord
from ...core.proof_links import mutation, proves

PAPER = "KARY"
STATEMENT = (
    "with MSE bounds (B_ε/ε²)log(T)³ (pure) and (B_(ε,δ)/ε²)log(T)²log(1/δ) (approximate), the pure bound is at "
    "most the approximate one iff δ <= T^(−B_ε/B_(ε,δ))"
)


#: B_ε and B_(ε,δ), the leading constants of the two bounds.
B_PURE, B_APPROX = sp.symbols("B_pure B_approx", positive=True)


@proves(PAPER, "Lemma 5.1", mutations=(mutation("exponent B_(ε,δ)/B_ε", exponent=B_APPROX / B_PURE),))
def prove(exponent: sp.Expr | None = None) -> ProofRecord:
    """``exponent``: the r in δ <= T^(−r) (default B_ε/B_(ε,δ), the lemma's)."""
    record = ProofRecord(PAPER, "Lemma 5.1", STATEMENT)
    b_pure, b_approx = B_PURE, B_APPROX
    eps, y, x = sp.symbols("epsilon y x", positive=True)  # y = log T, x = log 1/δ
    pure = b_pure / eps**2 * y**3
    approx = b_approx / eps**2 * y**2 * x
    scale = y**2 / eps**2
    record.step(
        "pure − approx = ((log T)²/ε²)·(B_ε log T − B_(ε,δ) log(1/δ)) and (log T)²/ε² > 0 for T > 1 (sympy)",
        sp.simplify(pure - approx - scale * (b_pure * y - b_approx * x)) == 0 and bool(scale.is_positive),
    )
    r = b_pure / b_approx if exponent is None else exponent
    record.step(
        "B_ε log T − B_(ε,δ) log(1/δ) = B_(ε,δ)·(r log T − log(1/δ)) with r = B_ε/B_(ε,δ) and B_(ε,δ) > 0, so "
        "pure <= approx iff log(1/δ) >= r log T (sympy)",
        sp.simplify(b_pure * y - b_approx * x - b_approx * (r * y - x)) == 0 and bool(b_approx.is_positive),
    )
    delta, horizon = sp.symbols("delta T", positive=True)
    record.step(
        "log(1/δ) >= r log T iff δ <= T^(−r): exp is increasing and exp(−r log T) = T^(−r) (sympy)",
        sp.simplify(sp.exp(-r * sp.log(horizon)) - horizon ** (-r)) == 0
        and sp.simplify(sp.log(1 / delta) + sp.log(delta)) == 0,
    )
    return record
