"""The proof program behind the Laplace audit's exact ε, tied to the code that computes it."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp
from reference_verification.audit.proofs.laplace_lp import prove
from reference_verification.core.proof import ProofFailure

from reference.audit.linear.audit import audit_linear_noise
from reference.audit.linear.laplace_lp import shift_norm


def test_the_program_proves_the_statement() -> None:
    record = prove()
    assert len(record.steps) >= 10 and "Laplace" in record.statement


@pytest.mark.parametrize("rate", [sp.Integer(2), sp.Rational(1, 2)])
def test_a_wrong_tail_rate_is_refused(rate: sp.Expr) -> None:
    with pytest.raises(ProofFailure, match="e\\^c"):
        prove(rate)


def test_a_kernel_case_where_the_minimum_norm_shift_is_not_the_value() -> None:
    # B = [1 1 2], y = 1: the least-squares shift (1, 1, 2)/6 has l1 norm 2/3; the LP value is 1/2 (u = (0, 0, 1/2)),
    # and the dual lambda = 1/2 gives a = B^T lambda = (1/2, 1/2, 1): max |a_j| = 1 at one weight (K = 1), as the
    # program's lower-bound argument needs
    norm = shift_norm([[Fraction(1), Fraction(1), Fraction(2)]], [Fraction(1)], [Fraction(1, 6)] * 2 + [Fraction(1, 3)])
    assert (norm.lower, norm.upper) == (Fraction(1, 2), Fraction(1, 2))
    weights = [norm.dual[0] * entry for entry in (1, 1, 2)]
    assert max(abs(w) for w in weights) == 1
    verdict = audit_linear_noise([[1, 1, 2]], [[1]], "laplace", scale=1)
    assert verdict.epsilon == Fraction(1, 2) and verdict.epsilon_exact


def test_the_sum_of_two_draws_attains_its_value_only_in_the_limit() -> None:
    # B = [1 1], W = [1], b = 1: the audit says epsilon = 1; the exact density ratio f(s − 1)/f(s) of z_1 + z_2 stays
    # below e (so no event violates 1-DP) and tends to e (so no smaller epsilon holds), as the program proves
    assert audit_linear_noise([[1, 1]], [[1]], "laplace", scale=1).epsilon == 1
    s = sp.Symbol("s", positive=True)
    density = sp.exp(-s) * (1 + s) / 4  # for s >= 0; the density is even
    ratio = density.subs(s, s - 1) / density  # one neighbour's output law over the other's, at s >= 1
    assert sp.simplify(ratio - sp.E * s / (1 + s)) == 0
    assert all(ratio.subs(s, value) < sp.E for value in (1, 2, 10, 1000))
    assert sp.limit(ratio, s, sp.oo) == sp.E
