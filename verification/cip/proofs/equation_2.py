"""CIP Equation (2): one split of Cascade Sampling gives two standard normal children with covariance −1/2.

The parent value X = X_0 + X_1 and an independent Y split as X_0 = X/2 + (√3/2)Y and X_1 = X/2 − (√3/2)Y.
For X, Y i.i.d. N(0, 1) a linear form's variance is the sum of its squared coefficients and the covariance of
two forms is the dot product of their coefficient vectors, so the statement is an identity in Q(√3), checked
exactly with sympy. There is no parameter: the identity is the whole statement.
"""

from __future__ import annotations

import sympy as sp

from ...core.proof import ProofRecord
from ...core.proof_links import mutation, proves

PAPER = "CIP"
STATEMENT = "X0 = X/2 + (√3/2)Y and X1 = X/2 − (√3/2)Y are N(0, 1) with Cov(X0, X1) = −1/2 and X0 + X1 = X"

#: The weight √3/2 of the fresh normal Y in equation (2) (a mutation changes it).
PRINTED_NOISE_COEFFICIENT = sp.sqrt(3) / 2


@proves(PAPER, "Equation (2)", mutations=(mutation("Y weighted 1/2 instead of √3/2", noise_coefficient=sp.Rational(1, 2)),))
def prove(noise_coefficient: sp.Expr = PRINTED_NOISE_COEFFICIENT) -> ProofRecord:
    """Run the program; raises :class:`~reference_verification.core.proof.ProofFailure` naming a step that fails."""
    record = ProofRecord(PAPER, "Equation (2)", STATEMENT)
    half, root = sp.Rational(1, 2), noise_coefficient
    child0 = (half, root)  # coefficients on (X, Y)
    child1 = (half, -root)
    var0 = sum(c**2 for c in child0)
    var1 = sum(c**2 for c in child1)
    cov = sum(a * b for a, b in zip(child0, child1))
    record.step(f"Var X0 = {sp.simplify(var0)} and Var X1 = {sp.simplify(var1)} (sum of squared coefficients)",
                sp.simplify(var0 - 1) == 0 and sp.simplify(var1 - 1) == 0)
    record.step(f"Cov(X0, X1) = {sp.simplify(cov)} (dot product of the coefficient vectors)", sp.simplify(cov + half) == 0)
    total = tuple(sp.simplify(a + b) for a, b in zip(child0, child1))
    record.step(f"X0 + X1 has coefficients {total} on (X, Y): it is X", total == (1, 0))
    return record
