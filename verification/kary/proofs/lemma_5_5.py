"""KARY paper, Lemma 5.5 and Proof 5.6 (the ℓ2 Laplace mechanism), given Lemma 5.4.

Statement (for every ε > 0 and δ ∈ (0, 1); write L = ln(1/δ) > 0):

1. ``a_{ε,δ} = sqrt(2L) (sqrt(1 + ε/L) - 1)`` solves ``a (a/2 + sqrt(2L)) = ε`` and is its only positive root.
2. ``(e^x - 1)/(e^x + 1) <= x/2`` for every x >= 0 (Proof 5.6's inequality; it states it for x ∈ (0, 1)).
3. Hence Lemma 5.4's ε~ for ε_j = a |v_j| / Δ2 with ‖v‖_2 <= Δ2 is at most ``S/2 + sqrt(2 L S)`` with
   ``S = Σ ε_j² <= a²`` (by 2), which increases in S, so ε~ <= a(a/2 + sqrt(2L)) = ε (by 1): ``Lap(Δ2/a)^d``
   is (ε, δ)-DP. No step uses ε < 1 (the lemma's stated range) — the argument covers every ε > 0.

Method: sympy (symbolic in ε, L; exact polynomial identities), with the inequality in 2 reduced to a
polynomial in t = e^x >= 1: ``x/κ - (e^x - 1)/(e^x + 1)`` vanishes at 0 and its derivative times
``κ (t + 1)²`` is ``q(t) = (t + 1)² - 2κ t``, a convex quadratic that is >= 0 on t >= 1 when q(1) >= 0 and
q'(1) >= 0 (then q(t) >= q(1) + q'(1)(t - 1)). Arb (python-flint) certifies the constants quoted.

``prove(scale_constant=c, tanh_divisor=κ)`` runs the argument for ``a = sqrt(cL)(sqrt(1 + ε/L) - 1)`` and
``(e^x - 1)/(e^x + 1) <= x/κ``; the paper has c = 2, κ = 2. With c != 2 step 1 FAILS; with κ > 2 step 2 FAILS
(the inequality is then false near 0: the left side has slope 1/2 at 0).

Finding: Proof 5.6 states the inequality for x_j ∈ (0, 1) but applies it to ε_j = a|v_j|/Δ2, which can
exceed 1 inside the lemma's range (a_{0.99, 0.99} = 1.27, certified below); the inequality holds on all of
x >= 0, so the proof is sound, but the stated restriction is both unnecessary and insufficient.
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp
from flint import arb, fmpq

from ...core.proof import SANITY, ProofRecord, is_zero, print_record
from ...core.proof_links import mutation, proves

PAPER = "KARY"
STATEMENT = (
    "For ε > 0, δ ∈ (0, 1), L = ln(1/δ): a = sqrt(2L)(sqrt(1 + ε/L) - 1) is the unique positive root of "
    "a(a/2 + sqrt(2L)) = ε; (e^x - 1)/(e^x + 1) <= x/2 for all x >= 0; with Lemma 5.4 this makes "
    "f(D) + Lap(Δ2/a)^d (ε, δ)-DP (no step needs ε < 1)."
)


def _root(record: ProofRecord, scale_constant: sp.Expr) -> None:
    eps, big_l, a = sp.symbols("epsilon L a", positive=True)
    root_two_l = sp.sqrt(2 * big_l)
    candidate = sp.sqrt(scale_constant * big_l) * (sp.sqrt(1 + eps / big_l) - 1)
    record.step(
        f"a = sqrt({scale_constant} L)(sqrt(1 + ε/L) - 1) satisfies a(a/2 + sqrt(2L)) = ε identically in ε, L > 0 "
        "(sympy: with s = sqrt(1 + ε/L), a(a/2 + sqrt(2L)) = L(s - 1)(s + 1) = L(s² - 1) = ε)",
        is_zero(sp.expand(candidate * (candidate / 2 + root_two_l)) - eps),
    )
    record.step(
        "a > 0: sqrt(1 + ε/L) > 1 because 1 + ε/L > 1 (ε, L > 0)",
        bool(sp.ask(sp.Q.positive(eps / big_l))),
    )
    quadratic = sp.Poly(a**2 / 2 + root_two_l * a - eps, a)
    coefficients = quadratic.all_coeffs()
    product_of_roots = sp.simplify(coefficients[2] / coefficients[0])
    record.step(
        "uniqueness: a(a/2 + sqrt(2L)) - ε = a²/2 + sqrt(2L) a - ε has product of roots -2ε < 0 (Vieta), so "
        "exactly one root is positive",
        is_zero(product_of_roots + 2 * eps) and bool(sp.ask(sp.Q.negative(product_of_roots))),
    )
    roots = sp.solve(sp.Eq(quadratic.as_expr(), 0), a)
    record.step(
        "the positive root from the quadratic formula, -sqrt(2L) + sqrt(2L + 2ε), equals a_{ε,δ} (sympy)",
        any(is_zero(r - candidate) for r in roots),
    )


def _tanh_inequality(record: ProofRecord, divisor: sp.Expr) -> None:
    x = sp.Symbol("x", nonnegative=True)
    t = sp.Symbol("t", positive=True)
    gap = x / divisor - (sp.exp(x) - 1) / (sp.exp(x) + 1)
    record.step(f"h(x) = x/{divisor} - (e^x - 1)/(e^x + 1) vanishes at x = 0", is_zero(gap.subs(x, 0)))
    derivative = sp.diff(gap, x)
    q = sp.expand((t + 1) ** 2 - 2 * divisor * t)
    record.step(
        f"h'(x) · {divisor} (e^x + 1)² = q(e^x) with q(t) = (t + 1)² - 2·{divisor}·t (sympy)",
        is_zero(sp.simplify(derivative * divisor * (sp.exp(x) + 1) ** 2 - q.subs(t, sp.exp(x)))),
    )
    q_prime = sp.diff(q, t)
    record.step(
        f"q is a convex quadratic with q(1) = {q.subs(t, 1)} >= 0 and q'(1) = {q_prime.subs(t, 1)} >= 0, so "
        "q(t) >= q(1) + q'(1)(t - 1) >= 0 for all t = e^x >= 1: h' >= 0 on x >= 0, and h(x) >= h(0) = 0",
        bool(sp.Poly(q, t).LC() > 0) and bool(q.subs(t, 1) >= 0) and bool(q_prime.subs(t, 1) >= 0),
    )
    record.step(
        "(e^x - 1)/(e^x + 1) = tanh(x/2) (the form Lemma 5.4's terms take)",
        is_zero((sp.exp(x) - 1) / (sp.exp(x) + 1) - sp.tanh(x / 2).rewrite(sp.exp)),
    )


def _composition(record: ProofRecord, divisor: sp.Expr) -> None:
    eps_j, big_l, a, s = sp.symbols("epsilon_j L a S", positive=True)
    record.step(
        "Lemma 5.4's second term with ε_j (e^ε_j - 1)/(e^ε_j + 1) <= ε_j²/2 (step above, all ε_j >= 0) is at most "
        "F(S) = S/2 + sqrt(2 L S), S = Σ ε_j² (equation (1) of Proof 5.6)",
        is_zero(eps_j * (eps_j / divisor) - eps_j**2 / 2),
    )
    bound = s / 2 + sp.sqrt(2 * big_l * s)
    record.step(
        "F is increasing in S > 0 (F'(S) = 1/2 + sqrt(2L)/(2 sqrt(S)) > 0)",
        bool(sp.ask(sp.Q.positive(sp.diff(bound, s)))),
    )
    record.step(
        "ε_j = a|v_j|/Δ2 (the j-th coordinate alone is ε_j-DP: Lemma A.2 in one dimension) and ‖v‖_2 <= Δ2 give "
        "S <= a², so ε~ <= F(a²) = a(a/2 + sqrt(2L)) = ε (root step)",
        is_zero(bound.subs(s, a**2) - a * (a / 2 + sp.sqrt(2 * big_l))),
    )


def _printed_range_remark(record: ProofRecord) -> None:
    def a_ball(epsilon: Fraction, delta: Fraction) -> arb:
        big_l = (1 / arb(fmpq(delta.numerator, delta.denominator))).log()
        e = arb(fmpq(epsilon.numerator, epsilon.denominator))
        return arb(2).sqrt() * e / (big_l.sqrt() + (big_l + e).sqrt())

    value = a_ball(Fraction(99, 100), Fraction(99, 100))
    record.step(
        "PRINTED PROOF (imprecise): it states (e^x - 1)/(e^x + 1) <= x/2 for x ∈ (0, 1), but ε_j = a|v_j|/Δ2 can "
        f"exceed 1 in the lemma's range: a_{{0.99, 0.99}} = {value.str(6)} > 1 (certified with Arb) for v = Δ2 e_1; "
        "the inequality holds on all x >= 0 (steps above), so the conclusion stands",
        bool(value > 1),
    )


@proves(
    "KARY",
    "Lemma 5.5",
    mutations=(
        mutation("a(a/3 + …)", scale_constant=3),
        mutation("a(a + …)", scale_constant=1),
        mutation("tanh bound x/3", tanh_divisor=3),
    ),
)
def prove(scale_constant: int | Fraction = 2, tanh_divisor: int | Fraction = 2, sanity: bool = True) -> ProofRecord:
    """Prove Lemma 5.5 (given Lemma 5.4) with a = sqrt(c L)(...) and the inequality with divisor κ."""
    record = ProofRecord(PAPER, "Lemma 5.5 / Proof 5.6", STATEMENT)
    c = sp.Rational(Fraction(scale_constant).numerator, Fraction(scale_constant).denominator)
    kappa = sp.Rational(Fraction(tanh_divisor).numerator, Fraction(tanh_divisor).denominator)
    _root(record, c)
    _tanh_inequality(record, kappa)
    _composition(record, kappa)
    _printed_range_remark(record)
    if sanity:
        grid = [Fraction(n, 8) for n in range(0, 161)]
        ok = True
        for x in grid:
            xb = arb(fmpq(x.numerator, x.denominator))
            ok = ok and bool(xb.expm1() / (xb.expm1() + 2) <= xb / 2)
        record.step(
            SANITY + "(e^x - 1)/(e^x + 1) <= x/2 at x = 0, 1/8, ..., 20 (Arb, certified at each point)",
            ok,
        )
    return record


if __name__ == "__main__":
    print_record(prove())
