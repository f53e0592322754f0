"""Proof programs for two unnumbered quantitative sentences of KARY, every arity and scale.

1. "Roughly, a factor-2 reduction in the mean squared error versus not using subtraction" (Section 1; "another
   factor 2 improvement", Section 3.2). At one arity k the leading constants are (k − 1)/log(k)³ (Theorem 3.7)
   and k(1 − 1/k²)/(2 log(k)³) (Corollary 4.9); their ratio is 2k/(k + 1) (sympy), 3/2 at k = 3, below 2 for
   every k (2 − ratio = 2/(k + 1) > 0) and tending to 2 (sympy limit): the factor is "roughly 2" only for large
   k, and never reaches it.
2. "The variance of the noise added is twice the square of the scale parameter for Laplace noise" (Section 5):
   E[X²] for the density e^(−|x|/b)/(2b) is 2·∫_0^∞ x² e^(−x/b)/(2b) dx = 2b² (sympy integral, b > 0); the mean
   is 0 by symmetry.

Each program takes the claimed constant, so a wrong one FAILS.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from ...core.proof import ProofRecord, is_zero, print_record
from ...core.proof_links import mutation, proves

PAPER = "KARY"


@proves(PAPER, "Section 1 (subtraction factor 2)", mutations=(mutation("factor 3", claimed_limit=3),))
def prove_subtraction_factor(claimed_limit: Any = 2) -> ProofRecord:
    """The ratio of the leading constants without and with subtraction at one arity, for every k >= 2."""
    record = ProofRecord(
        PAPER,
        "Section 1 (subtraction factor 2)",
        "at every arity k >= 2 subtraction divides the leading constant of the MSE by 2k/(k + 1): 3/2 at k = 3, "
        "below 2 for every k, tending to 2",
    )
    k = sp.Symbol("k", positive=True)
    log_cubed = sp.log(k) ** 3
    without = (k - 1) / log_cubed
    with_subtraction = k * (1 - 1 / k**2) / (2 * log_cubed)
    ratio = sp.simplify(without / with_subtraction)
    record.step(
        f"ratio: [(k − 1)/log(k)³] / [k(1 − 1/k²)/(2 log(k)³)] = {ratio} (sympy)",
        is_zero(ratio - 2 * k / (k + 1)),
    )
    record.step(
        "below 2 at every arity: 2 − 2k/(k + 1) = 2/(k + 1) > 0",
        is_zero(2 - ratio - 2 / (k + 1)) and bool((2 / (k + 1)).is_positive),
    )
    record.step("at k = 3 the factor is 3/2", is_zero(ratio.subs(k, 3) - sp.Rational(3, 2)))
    limit = sp.limit(ratio, k, sp.oo)
    record.step(f"the factor tends to {limit} as k → ∞ (sympy limit), the claimed {claimed_limit}",
                is_zero(limit - sp.sympify(claimed_limit)))
    return record


@proves(PAPER, "Section 5 (Laplace variance)", mutations=(mutation("variance b²", claimed_factor=1),))
def prove_laplace_variance(claimed_factor: Any = 2) -> ProofRecord:
    """Var(Laplace(b)) = claimed_factor·b² for every scale b > 0."""
    record = ProofRecord(
        PAPER, "Section 5 (Laplace variance)", "Laplace noise of scale b > 0 has variance 2b², for every b"
    )
    x = sp.Symbol("x", real=True)
    b = sp.Symbol("b", positive=True)
    density = sp.exp(-sp.Abs(x) / b) / (2 * b)
    total = 2 * sp.integrate(sp.exp(-x / b) / (2 * b), (x, 0, sp.oo))
    record.step("the density e^(−|x|/b)/(2b) integrates to 1 (sympy, both halves)", is_zero(total - 1))
    record.step("it is even, so the mean is 0", is_zero(density.subs(x, -x) - density))
    second = 2 * sp.integrate(x**2 * sp.exp(-x / b) / (2 * b), (x, 0, sp.oo))
    record.step(f"E[X²] = 2·∫_0^∞ x² e^(−x/b)/(2b) dx = {second} (sympy), the claimed {claimed_factor}·b²",
                is_zero(second - sp.sympify(claimed_factor) * b**2))
    return record


if __name__ == "__main__":
    print_record(prove_subtraction_factor())
    print_record(prove_laplace_variance())
