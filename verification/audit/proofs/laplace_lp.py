"""The Laplace linear-noise audit's value is the mechanism's ε, not only a bound on it.

Setting: the release ``M(x) = W x + B z`` with ``z_1, ..., z_d`` i.i.d. Laplace(b); a neighbouring difference
``v`` (the relation is symmetric: ``−v`` is one too) moves the mean by ``y = W v``; ``OPT(y) = min{‖u‖₁ : B u = y}``
(``+∞`` when ``y`` is not in the column space of B). Statement: the smallest ε for which M is ε-DP is
``max_v OPT(W v)/b`` — the value :func:`reference.audit.linear.audit.audit_linear_noise` certifies with
:func:`reference.audit.linear.laplace_lp.shift_norm`.

Proof.

* **Upper bound (shift the draws).** If ``B u = y`` then ``M(x + v) = W x + B(z + u)``; translating the draws
  (Jacobian 1) gives ``P[M(x + v) ∈ S] = ∫ 1_S(W x + B w) p(w − u) dw`` and ``p(w − u)/p(w) <= e^(‖u‖₁/b)``
  coordinatewise by the triangle inequality, so ``P[M(x + v) ∈ S] <= e^(‖u‖₁/b) P[M(x) ∈ S]`` for every S.
* **Dual direction.** Weak duality ``λ·y = (Bᵀλ)·u <= ‖Bᵀλ‖∞ ‖u‖₁`` makes every λ with ``‖Bᵀλ‖∞ <= 1`` a lower
  bound on OPT; the audit only reports ε exactly when such a λ meets a primal u (checked in exact arithmetic),
  so LP strong duality is not needed. At such a λ with OPT > 0, ``a = Bᵀλ`` has ``max |a_j| = 1`` (else λ/max|a_j|
  is feasible with a larger value).
* **Lower bound (tails of the dual direction).** Let ``S = λ·B z = Σ a_j z_j`` (b = 1 by scaling), K >= 1 weights
  with ``|a_j| = 1`` and the rest ``R`` with ``|a_j| <= r < 1``. By symmetry of the Laplace law the unit part is a
  sum A of K i.i.d. Laplace(1) = ``G_1 − G_2`` with ``G_i`` ~ Gamma(K, 1) independent, whose tail for ``t >= 0`` is
  ``e^(−t) Σ_(i<K) t^i/i!``; so ``P[A >= t] = e^(−t) p(t)`` with p a polynomial of degree K − 1 and leading
  coefficient ``E[e^(−G_2)]/(K − 1)! = 2^(−K)/(K − 1)! > 0``. Conditioning on R, whose moment generating function
  is finite at some θ with ``1 < θ < 1/r``: ``e^s P[S >= s] = E[e^R p(s − R); R <= s] + e^s O(P[R > s])``; the
  first term is ``q(s) + o(s^(K−1))`` with ``q(s) = E[e^R p(s − R)]`` a polynomial of degree K − 1 (positive
  leading coefficient), the second is ``O(e^((1 − θ) s)) → 0`` by Chernoff. Hence for the event
  ``E_s = {λ·output >= s}``, ``P[M(x + v) ∈ E_s]/P[M(x) ∈ E_s] = P[S >= s − OPT]/P[S >= s] → e^OPT`` as
  ``s → ∞``: no ε below OPT/b holds.

Each step below is checked with sympy on symbols (positive integer K, positive b, real t, c, s); the sanity
check computes the exact tail of z_1 + z_2 (B = [1 1], OPT = 1) and its limit ratio.
"""

from __future__ import annotations

import sympy as sp

from ...core.proof import SANITY, ProofRecord, is_zero

PAPER = "audit"
NUMBER = "Laplace LP value"
STATEMENT = (
    "for W x + B z with i.i.d. Laplace(b) draws, the smallest epsilon is max over neighbouring v of "
    "min{||u||_1 : B u = W v}/b"
)


def _triangle_inequality_on_every_sign_region() -> bool:
    """|w| − |w − c| <= |c| for real w, c: write |w| = alpha, |w − c| = beta (alpha, beta >= 0) on each of the four
    sign regions; then c = s_w·alpha − s_wc·beta and the gap |c| − (alpha − beta) is 2·beta (opposite signs) or
    |x| − x with x = alpha − beta (same signs), which is 0 for x >= 0 and −2x > 0 for x < 0 (sympy)."""
    alpha, beta = sp.symbols("alpha beta", nonnegative=True)
    x_pos, x_neg = sp.Symbol("x", nonnegative=True), sp.Symbol("x", negative=True)
    for sign_w in (1, -1):
        for sign_wc in (1, -1):
            gap = sp.Abs(sign_w * alpha - sign_wc * beta) - (alpha - beta)
            if sign_w != sign_wc:
                if not is_zero(gap - 2 * beta):
                    return False
            elif not (is_zero(sp.Abs(x_pos) - x_pos) and bool((sp.Abs(x_neg) - x_neg).is_positive)
                      and is_zero(gap.subs(alpha, beta + x_pos) - (sp.Abs(x_pos) - x_pos))):
                return False
    return True


def prove(tail_rate: int | sp.Expr = 1) -> ProofRecord:
    """Run the program. ``tail_rate`` is the exponent claimed for the limit ratio ``e^(tail_rate·c)`` (1 is the
    statement; any other value is a false variant the program must refuse)."""
    record = ProofRecord(PAPER, NUMBER, STATEMENT)
    b = sp.Symbol("b", positive=True)
    w, c, s, theta = sp.symbols("w c s theta", real=True)
    big_k = sp.Symbol("K", positive=True, integer=True)
    i = sp.Symbol("i", integer=True, nonnegative=True)

    # upper bound
    density = sp.exp(-sp.Abs(w) / b) / (2 * b)
    record.step(
        "the Laplace(b) density integrates to 1 and translating the draws has Jacobian 1 (sympy)",
        is_zero(sp.integrate(sp.exp(-w / b) / (2 * b), (w, 0, sp.oo)) * 2 - 1),
    )
    record.step(
        "p(w − c)/p(w) = exp((|w| − |w − c|)/b) <= exp(|c|/b): the triangle inequality on each of the four sign "
        "regions of w and w − c (sympy); "
        "summing over the d coordinates gives e^(||u||_1/b) for the shift u",
        is_zero(sp.expand_log(sp.log(density.subs(w, w - c) / density), force=True)
                - (sp.Abs(w) - sp.Abs(w - c)) / b)
        and _triangle_inequality_on_every_sign_region(),
    )

    # dual direction
    lam_y, max_a = sp.symbols("lambda_y m", positive=True)
    matrix = sp.Matrix(2, 3, sp.symbols("B0:6", real=True))
    lam, shift = sp.Matrix(sp.symbols("l0:2", real=True)), sp.Matrix(sp.symbols("u0:3", real=True))
    record.step(
        "weak duality: lambda·(B u) = (B^T lambda)·u (sympy, a generic 2×3 B), which is <= ||B^T lambda||_inf "
        "||u||_1 (Hölder); the audit checks ||B^T lambda||_inf <= 1 and B u = y exactly, so a meeting pair is the value",
        is_zero((lam.T * (matrix * shift))[0] - ((matrix.T * lam).T * shift)[0]),
    )
    record.step(
        "at a dual solution with value OPT > 0, max|a_j| = 1: dividing lambda by m = max|a_j| < 1 stays feasible "
        "and multiplies the value by 1/m > 1 (sympy: lambda_y/m − lambda_y > 0 for 0 < m < 1)",
        bool(sp.simplify((lam_y / max_a - lam_y).subs(max_a, sp.Rational(1, 2))) > 0)
        and is_zero(sp.factor(lam_y / max_a - lam_y) - lam_y * (1 - max_a) / max_a),
    )

    # lower bound: the tail of K unit-weight Laplace draws
    record.step(
        "Laplace(1) = G_1 − G_2 with G_i ~ Exp(1) independent: MGFs 1/(1 − theta^2) = 1/(1 − theta)·1/(1 + theta) "
        "(sympy), so a sum of K is a difference of two independent Gamma(K, 1)",
        is_zero(sp.integrate(sp.exp(theta * w) * sp.exp(-w) / 2, (w, 0, sp.oo), conds="none")
                + sp.integrate(sp.exp(theta * w) * sp.exp(w) / 2, (w, -sp.oo, 0), conds="none")
                - 1 / ((1 - theta) * (1 + theta))),
    )
    t_nonnegative = sp.Symbol("t", nonnegative=True)
    gamma_tail = sp.exp(-t_nonnegative) * sp.Sum(t_nonnegative**i / sp.factorial(i), (i, 0, big_k - 1)).doit()
    record.step(
        "Gamma(K, 1) tail: F(t) = e^(−t) Σ_(i<K) t^i/i! (t >= 0, symbolic K) has F(0) = 1 and F'(t) = "
        "−t^(K−1) e^(−t)/(K−1)!, the negated Gamma(K, 1) density, so F(t) = P[G >= t] (sympy, closed form of the sum)",
        is_zero(gamma_tail.subs(t_nonnegative, 0) - 1)
        and is_zero(sp.diff(gamma_tail, t_nonnegative)
                    + t_nonnegative ** (big_k - 1) * sp.exp(-t_nonnegative) / sp.factorial(big_k - 1)),
    )
    g2 = sp.Symbol("g", positive=True)
    record.step(
        "P[A >= t] = E[e^(−(t + G_2)) Σ_(i<K) (t + G_2)^i/i!] = e^(−t) p(t), p of degree K − 1 with leading "
        "coefficient E[e^(−G_2)]/(K − 1)! = 2^(−K)/(K − 1)! > 0 (the Gamma(K, 1) integral, sympy)",
        is_zero(sp.simplify(sp.integrate(sp.exp(-g2) * g2 ** (big_k - 1) * sp.exp(-g2) / sp.gamma(big_k),
                                         (g2, 0, sp.oo)) - 2 ** (-big_k))),
    )
    kappa = sp.Symbol("kappa", positive=True)  # kappa = |a_j|·theta <= r·theta < 1
    record.step(
        "a draw with weight |a_j| <= r < 1 has a finite MGF at every theta with 1 < theta < 1/r: E[e^(theta a_j z)] = "
        "1/(1 − kappa^2) with kappa = |a_j| theta < 1 (the two half-line integrals, sympy), so R has one",
        is_zero(sp.integrate(sp.exp((kappa - 1) * w) / 2, (w, 0, sp.oo), conds="none")
                + sp.integrate(sp.exp((kappa + 1) * w) / 2, (w, -sp.oo, 0), conds="none")
                - 1 / (1 - kappa**2)),
    )
    record.step(
        "Chernoff: e^s P[R > s] <= E[e^(theta R)] e^((1 − theta) s) -> 0 for theta > 1 (sympy limit)",
        sp.limit(sp.exp((1 - sp.Rational(3, 2)) * s), s, sp.oo) == 0,
    )
    n = sp.Symbol("n", positive=True, integer=True)
    record.step(
        "q(s − c)/q(s) -> 1 for a polynomial q of degree n = K − 1 with positive leading coefficient: "
        "((s − c)/s)^n -> 1 and s^(n−1)/s^n -> 0 (sympy limits), and the o(s^(K−1)) remainder vanishes relative to q",
        sp.limit(((s - c) / s) ** n, s, sp.oo) == 1 and sp.limit(s ** (n - 1) / s**n, s, sp.oo) == 0,
    )
    ratio_limit = sp.exp(c)  # e^(c) · lim q(s − c)/q(s), by the two previous steps
    record.step(
        f"P[S >= s − c]/P[S >= s] -> e^c, as claimed e^({tail_rate}·c): the event {{lambda·output >= s}} has "
        "privacy loss tending to OPT/b, so no smaller epsilon holds",
        is_zero(ratio_limit - sp.exp(tail_rate * c)),
    )

    # sanity: B = [1 1], OPT(1) = 1: the exact tail of z_1 + z_2 and its ratio
    tail = sp.exp(-s) * (2 + s) / 4  # P[z_1 + z_2 >= s], s >= 0, from the Gamma(2, 1) difference
    density_sum = -sp.diff(tail, s)
    s_positive = sp.Symbol("s", positive=True)
    # the convolution ∫ e^(−|w|) e^(−|s − w|)/4 dw for s > 0, split where the absolute values change sign
    convolution = (sp.integrate(sp.exp(w) * sp.exp(-(s_positive - w)) / 4, (w, -sp.oo, 0))
                   + sp.integrate(sp.exp(-w) * sp.exp(-(s_positive - w)) / 4, (w, 0, s_positive))
                   + sp.integrate(sp.exp(-w) * sp.exp(-(w - s_positive)) / 4, (w, s_positive, sp.oo)))
    record.step(
        SANITY + "z_1 + z_2 (Laplace(1)) has density e^(−s)(1 + s)/4 for s >= 0 (convolution, sympy) and tail "
        "e^(−s)(2 + s)/4; P[>= s − 1]/P[>= s] -> e = e^OPT",
        is_zero(convolution - density_sum.subs(s, s_positive))
        and is_zero(sp.limit(tail.subs(s, s - 1) / tail, s, sp.oo) - sp.E),
    )
    return record
