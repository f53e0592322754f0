"""CIP paper, Proposition 3.5: the leaf noises produced by Cascade Sampling (Algorithm 1) have covariance
σ² C_depth, for every depth.

Algorithm 1: X_root ~ N(0, σ²); at every internal node * an independent Y_* ~ N(0, σ²) is drawn and
X_{*0} = X_*/2 + (√3/2) Y_*, X_{*1} = X_*/2 - (√3/2) Y_*.

Method (all symbolic in the heights involved; p = 1/2 and q = √3/2 are parameters so that a wrong constant
makes the program FAIL):

* Supports: X_u is a linear combination of X_root and of the Y's drawn at strict ancestors of u (induction on
  the level), so Y_u is independent of X_u.
* Var X_u = σ² for every node: Var X_root = σ², and Var(p X_u ± q Y_u) = (p² + q²) σ² = σ² (1/4 + 3/4).
* Descent: a descendant at relative depth m of a node v equals p^m X_v + R, R a linear combination of Y's
  drawn at v or below it (inside v's subtree, above the descendant); the coefficient p^m = 2^-m comes from
  ``rsolve`` of a_(m+1) = p a_m, a_0 = 1.
* Cross covariance: for leaves a, b whose lowest common ancestor v has height h >= 1, with a below L = v0 and
  b below R = v1 (relative depth h - 1), X_a = 2^-(h-1) X_L + R_a and X_b = 2^-(h-1) X_R + R_b, where R_a,
  R_b, and (X_L, X_R) are built from disjoint sets of independent draws (L's subtree, R's subtree, v and
  above). Hence Cov(X_a, X_b) = 2^-2(h-1) Cov(X_L, X_R) = 2^-2(h-1) σ² (p² - q²) = 2^-2(h-1) σ² (1/4 - 3/4)
  = -σ² 2^(1-2h), computed by bilinear expansion over a covariance table; this equals σ² times Definition
  3.1's entry for leaves with lca height h (the off-diagonal value -2^-(2(h-1)+1) of C_h; entry formula by
  induction, ``cip_common.record_entry_formula``). With Var = σ² on the diagonal, the leaf covariance is
  σ² C_depth.

Findings on the printed proof (Appendix B), checked here by computation where possible:

* k = 1 case: "Similarly Var(Y_0) = 1" should read Var(X_1) = 1 (Var(X_1) = 1/4 + 3/4 computed).
* Inductive step: leaf X_{0I} is written as ½ X_Ĩ + ((-1)^{I_k} √3/2) Y_Ĩ with Ĩ = (0, I_1, ..., I_(l-1)), the
  parent of 0I. The sign index should be I_l (the last bit of I ∈ {0,1}^l); k is not the current depth.
  X_Ĩ, X_J̃ are the level-l nodes of the depth-(l+1) tree: the first l levels of Algorithm 1 at depth l+1
  are Algorithm 1 at depth l (a truncation, not the subtree identity (4) the proof cites), so the
  hypothesis gives Cov(X_Ĩ, X_J̃) = -2^(-2l+1). The paper writes "-2^(-2k+1) by the inductive hypothesis"
  and (6) "2^-2 × -2^(-2k+1) = -2^(-2k-1)": this is right only when k is read as l; read as the depth being
  proved (k = l + 1) it would give -2^(-2l-3), not the required -2^(-2l-1) (computed below).
* The independence sentence lists "Y_Ĩ independent of X_J̃ and Y_Ĩ"; the second should be Y_J̃.
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from ...core.proof import SANITY, ProofRecord, is_zero, print_record
from ...core.proof_links import mutation, proves
from .common import (
    PAPER,
    Expr,
    definition_exponent,
    entry_by_height,
    off_diagonal_entry,
    record_entry_formula,
)

STATEMENT = "For every depth, the leaf noises of Algorithm 1 have covariance matrix σ² C_depth (Definition 3.1)."

CovTable = dict[tuple[Expr, Expr], Expr]


def covariance(left: Expr, right: Expr, basis: list[Expr], table: CovTable) -> Expr:
    """Cov(left, right) for linear combinations of ``basis``; ``table`` holds Cov of basis pairs (missing
    pairs of distinct variables are independent, covariance 0)."""
    left, right = sp.expand(left), sp.expand(right)
    total = sp.Integer(0)
    for a in basis:
        for b in basis:
            value = table.get((a, b), table.get((b, a), sp.Integer(0)))
            total += left.coeff(a) * right.coeff(b) * value
    return sp.simplify(total)


def _algorithm_1_covariance(depth: int) -> list[list[Fraction]]:
    """Exact covariance (σ = 1) of Algorithm 1's leaves: each variable is stored as (coefficient of X_root,
    {node: coefficient of Y_node / √3}), so Cov = x_a x_b + 3 Σ y_a y_b exactly in Fractions."""
    Variable = tuple[Fraction, dict[tuple[int, int], Fraction]]
    level: list[Variable] = [(Fraction(1), {})]
    for lev in range(depth):
        children: list[Variable] = []
        for position, (x, ys) in enumerate(level):
            for sign in (1, -1):
                child_ys = {node: c / 2 for node, c in ys.items()}
                child_ys[(lev, position)] = Fraction(sign, 2)  # ±(√3/2) Y = ±(1/2) √3 Y
                children.append((x / 2, child_ys))
        level = children
    return [
        [xa * xb + 3 * sum((c * yb.get(node, Fraction(0)) for node, c in ya.items()), Fraction(0)) for xb, yb in level]
        for xa, ya in level
    ]


#: Algorithm 1's constants: X_(*b) = P_COEFFICIENT X_* ± Q_COEFFICIENT Y_*.
P_COEFFICIENT = sp.Rational(1, 2)
Q_COEFFICIENT = sp.sqrt(3) / 2


@proves(
    "CIP",
    "Algorithm 1",
    "Proposition 3.5",
    "Lemma B.4",
    mutations=(mutation("noise weight 1/2 instead of √3/2", noise_coefficient=sp.Rational(1, 2)),),
)
def prove(
    parent_coefficient: Expr = P_COEFFICIENT,
    noise_coefficient: Expr = Q_COEFFICIENT,
    sanity: bool = True,
) -> ProofRecord:
    """Prove Proposition 3.5 for all depths (raise ProofFailure if a step fails)."""
    record = ProofRecord(PAPER, "Proposition 3.5", STATEMENT)
    p, q = sp.sympify(parent_coefficient), sp.sympify(noise_coefficient)
    sigma = sp.Symbol("sigma", positive=True)
    s2 = sigma**2
    X_u, Y_u = sp.symbols("X_u Y_u")

    # supports: opaque atoms for "X_root" and "the Y's at strict ancestors of u"
    root, ancestors_u, y_u = "X_root", "Y at strict ancestors of u", "Y_u"
    support_u = {root, ancestors_u}
    support_child = support_u | {y_u}
    ancestors_child = {ancestors_u, y_u}
    record.step(
        "supports (induction on level): if X_u uses only X_root and Y's at strict ancestors of u, then "
        "X_(u b) = p X_u ± q Y_u uses only X_root and Y's at strict ancestors of u b; so Y_u is independent of X_u",
        support_child <= {root} | ancestors_child and y_u not in support_u,
    )
    table: CovTable = {(X_u, X_u): s2, (Y_u, Y_u): s2}  # X_u ⟂ Y_u: absent from the table
    child_0, child_1 = p * X_u + q * Y_u, p * X_u - q * Y_u
    record.step(
        "Var X = σ² at every node (induction on level, symbolic in σ): Var X_root = σ²; "
        "Var(p X_u ± q Y_u) = (p² + q²) σ² = (1/4 + 3/4) σ² = σ²",
        is_zero(covariance(child_0, child_0, [X_u, Y_u], table) - s2)
        and is_zero(covariance(child_1, child_1, [X_u, Y_u], table) - s2),
    )
    sibling_cov = covariance(child_0, child_1, [X_u, Y_u], table)
    record.step(
        "siblings: Cov(X_(u0), X_(u1)) = σ² (p² - q²) = σ² (1/4 - 3/4) = -σ²/2 (the printed k = 1 case; its "
        "'Similarly Var(Y_0) = 1' means Var(X_1) = 1, shown in the previous step)",
        is_zero(sibling_cov + s2 / 2),
    )

    m = sp.Symbol("m", integer=True, nonnegative=True)
    a = sp.Function("a")
    coefficient = sp.rsolve(a(m + 1) - p * a(m), a(m), {a(0): 1})
    record.step(
        f"descent (symbolic in m): the coefficient of X_v in a descendant at relative depth m solves "
        f"a_(m+1) = p a_m, a_0 = 1: a_m = {coefficient} = 2^-m; the rest is a combination of Y's drawn at v or "
        "below (inside v's subtree)",
        coefficient is not None and is_zero(coefficient - sp.Integer(2) ** (-m)),
    )

    h = sp.Symbol("h", integer=True, positive=True)
    X_v, Y_v, R_a, R_b = sp.symbols("X_v Y_v R_a R_b")
    rho_a, rho_b = sp.symbols("rho_a rho_b", positive=True)  # Var R_a, Var R_b: irrelevant
    X_L, X_R = p * X_v + q * Y_v, p * X_v - q * Y_v
    scale = coefficient.subs(m, h - 1)
    leaf_a, leaf_b = scale * X_L + R_a, scale * X_R + R_b
    # R_a: Y's in L's subtree; R_b: Y's in R's subtree; X_v, Y_v: X_root and Y's at v and above -> disjoint
    leaf_table: CovTable = {(X_v, X_v): s2, (Y_v, Y_v): s2, (R_a, R_a): rho_a, (R_b, R_b): rho_b}
    cross = covariance(leaf_a, leaf_b, [X_v, Y_v, R_a, R_b], leaf_table)
    record.step(
        "cross covariance (symbolic in h, σ): leaves with lca v of height h >= 1: "
        "Cov(2^-(h-1) X_L + R_a, 2^-(h-1) X_R + R_b) with R_a, R_b, (X_v, Y_v) on disjoint independent draws "
        f"= {sp.simplify(cross)} = -σ² 2^(1-2h)",
        is_zero(cross - s2 * entry_by_height(h)),
    )
    record_entry_formula(record, definition_exponent)
    record.step(
        "equals σ² times Definition 3.1's entry for lca height h, the off-diagonal value -2^-(2(h-1)+1) of "
        "C_h = C_((h-1)+1), symbolic in h (for h = 1 this is C_1's -1/2)",
        is_zero(cross - s2 * off_diagonal_entry(h - 1, definition_exponent)),
    )

    # the printed inductive step (5)-(6): Cov(X_0I, X_1J) = (1/4) Cov(X_Ĩ, X_J̃)
    l = sp.Symbol("l", integer=True, positive=True)
    required = -sp.Integer(2) ** (-2 * l - 1)  # entry across the halves of C_(l+1)
    hypothesis_at_l = -sp.Integer(2) ** (-2 * l + 1)  # opposite halves of the depth-l tree
    printed_k_is_new_depth = sp.Rational(1, 4) * (-sp.Integer(2) ** (-2 * (l + 1) + 1))
    record.step(
        "printed (5)-(6) with its k read as l: 2^-2 * (-2^(-2l+1)) = -2^(-2l-1), the required cross entry",
        is_zero(sp.Rational(1, 4) * hypothesis_at_l - required),
    )
    record.step(
        "printed (5)-(6) with k read as the depth being proved, l+1: 2^-2 * (-2^(-2(l+1)+1)) = -2^(-2l-3) "
        "differs from the required -2^(-2l-1) (so the printed k must mean l)",
        not is_zero(printed_k_is_new_depth - required),
    )

    if sanity:
        from reference.cip.exact import matrix as cip_matrix

        record.step(
            SANITY + "exact covariance of Algorithm 1's leaves (Fractions, √3 tracked exactly) == C_depth, "
            "depths 0..6",
            all(
                _algorithm_1_covariance(depth) == [list(row) for row in cip_matrix.covariance(depth)]
                for depth in range(0, 7)
            ),
        )
    return record


if __name__ == "__main__":
    print_record(prove())
