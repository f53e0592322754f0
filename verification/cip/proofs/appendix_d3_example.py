"""CIP Appendix D.3's 2×2 example, proved exactly: the printed cells are Algorithm 4 at depths (1, 1).

The four cells are linear forms in i.i.d. standard normals X, Y, Z, W with coefficients in Q(√3). Every
claim of the example (each cell, row sum, column sum and the total is N(0, 1); column sums give X0 and X1;
the covariance is C_1 ⊗ C_1) is an identity between such forms, which the check in
:func:`reference_verification.cip.checks.two_dim.check_two_by_two_example` decides exactly with sympy. The example has no
parameter, so deciding every identity is a proof.
"""

from __future__ import annotations

import sympy as sp

from ...core.proof import ProofRecord
from ...core.proof_links import mutation, proves

PAPER = "CIP"
STATEMENT = (
    "the 2×2 construction: every cell, row sum, column sum and the total are standard normal, and column sums "
    "give X0, X1"
)

#: The printed cells' coefficient 1/4 (a mutation changes it).
PRINTED_QUARTER = sp.Rational(1, 4)


@proves(PAPER, "Appendix D.3 example", mutations=(mutation("cells scaled by 1/3 instead of 1/4", quarter=sp.Rational(1, 3)),))
def prove(quarter: sp.Expr = PRINTED_QUARTER) -> ProofRecord:
    """Run the program; raises :class:`~reference_verification.core.proof.ProofFailure` naming a step that fails."""
    from ..checks import two_dim as two_dim_checks

    record = ProofRecord(PAPER, "Appendix D.3 example", STATEMENT)
    result = two_dim_checks.check_two_by_two_example(quarter)
    record.step(
        f"{result.detail} (exact in Q(√3), sympy): every cell, row sum, column sum and the total are N(0, 1), "
        "X00 + X10 = X0, X01 + X11 = X1, and the covariance is C_1 ⊗ C_1",
        result.holds,
    )
    return record
