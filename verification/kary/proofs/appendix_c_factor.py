"""KARY Appendix C's even/odd factor, for every arity: the even constant over the odd one is 1/(1 − 1/k²).

Corollary C.3's leading constant k/(2 log(k)³) (even arity) divided by Corollary 4.9's k(1 − 1/k²)/(2 log(k)³)
(odd arity) is k²/(k² − 1) = 1/(1 − 1/k²) > 1 for every k >= 2, a rational identity in the symbol k checked
with sympy from the formulas the code evaluates (:data:`reference.kary.constants.FAMILIES`). So the odd case is
(1 − 1/k²) times the even one; which reading of the paper's sentence that supports is the registry entry's
check, not this program's.
"""

from __future__ import annotations

import sympy as sp

from reference.kary.constants import FAMILIES

from ...core.proof import ProofRecord
from ...core.proof_links import mutation, proves

PAPER = "KARY"
STATEMENT = "even/odd leading constants at the same arity k: k/(2 log(k)³) ÷ k(1 − 1/k²)/(2 log(k)³) = 1/(1 − 1/k²)"

_K = sp.Symbol("k", positive=True)


@proves(PAPER, "Appendix C factor", mutations=(mutation("factor 1/(1 − 1/k)", claimed=1 / (1 - 1 / _K)),))
def prove(claimed: sp.Expr | None = None) -> ProofRecord:
    """Run the program; raises :class:`~reference_verification.core.proof.ProofFailure` naming a step that fails."""
    record = ProofRecord(PAPER, "Appendix C factor", STATEMENT)
    k = _K
    factor = 1 / (1 - 1 / k**2) if claimed is None else claimed
    even = FAMILIES["corollary_c3"].numerator(k)  # the common 1/log(k)³ cancels
    odd = FAMILIES["corollary_4_9"].numerator(k)
    record.step(f"even/odd = {sp.factor(sp.simplify(even / odd))} = 1/(1 − 1/k²) (sympy)",
                sp.simplify(even / odd - factor) == 0)
    record.step("1/(1 − 1/k²) − 1 = 1/(k² − 1) > 0 for k >= 2 (sympy)",
                sp.simplify(1 / (1 - 1 / k**2) - 1 - 1 / (k**2 - 1)) == 0)
    return record
