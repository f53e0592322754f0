"""CIP: the Haar eigen-decomposition of C_depth, for every depth (n = 2^depth).

Statement proved (used by ``reference.cip.exact.matrix`` and ``cip_ranges``; it underlies Proposition B.1(4)
and Corollary B.3):

* the all-ones vector is an eigenvector of C_depth with eigenvalue 2^-depth;
* for every internal node of height j (1 <= j <= depth) the Haar vector (+1 on the leaves of its left child,
  -1 on those of its right child, 0 elsewhere) is an eigenvector with eigenvalue 3 * 2^-j;
* these n vectors are orthogonal, so this is the whole spectrum (2^-depth once, 3 * 2^-j with multiplicity
  2^(depth-j)); C_depth is positive definite (Proposition B.1(4) claims only semi-definite);
* det C_depth = 2^-depth * prod_j (3 * 2^-j)^(2^(depth-j)) = (3/4)^(n-1);
* C_depth^-1 has diagonal entries 1 + depth/3 and, for leaves whose lowest common ancestor has height h >= 1,
  entries (depth - h + 2)/3.

Method:

* Entry formula (induction, ``cip_common.record_entry_formula``): C(a, b) depends only on the height of the
  lowest common ancestor of a and b; so the block on a subtree of height j is C_j, and for a leaf a outside a
  subtree all entries C(a, b), b in the subtree, are equal.
* Row sums 2^-l (induction, ``cip_theorem_3_3.record_row_sums``) give C 1 = 2^-depth 1.
* Haar vector v of height j: rows inside its subtree see C_j = [[C_(j-1), -J/2^(2j-1)], [-J/2^(2j-1),
  C_(j-1)]] applied to (1, ..., 1, -1, ..., -1): left rows get r_(j-1) + 2^(j-1) 2^-(2j-1), right rows the
  negative; simplified symbolically in j to ±3 * 2^-j. Rows outside: a constant row times a zero-sum vector,
  0.
* Orthogonality (constant-on-support times zero-sum, or disjoint supports) and the count
  1 + sum_j 2^(depth-j) = 2^depth (sympy summation).
* det and log2 det as symbolic sums over levels; C^-1 = sum_h h hᵀ / (λ_h |h|²) with λ|h|² = 1 (ones) and 3
  (height j), so the entries are symbolic sums over the ancestors of the two leaves. Cross-check: the
  recursion of Lemma B.2 gives the same off-diagonal entries (rsolve).

A labelled sanity check compares with ``reference.cip.exact.matrix`` (exact elimination) for depths 0..5.
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
    off_diagonal_entry,
    record_entry_formula,
)

STATEMENT = (
    "For every depth: C_depth has the Haar eigenbasis, eigenvalues 2^-depth (ones) and 3*2^-j (height j, "
    "multiplicity 2^(depth-j)); it is positive definite; det C_depth = 2^-depth prod_j (3*2^-j)^(2^(depth-j)) "
    "= (3/4)^(n-1); C_depth^-1 has diagonal 1 + depth/3 and entry (depth - h + 2)/3 for leaves with lowest "
    "common ancestor at height h."
)


@proves("CIP", "Proposition B.1", mutations=(mutation("eigenvalues 2·2^-j", eigenvalue_factor=2),))
def prove(sanity: bool = True, eigenvalue_factor: int = 3) -> ProofRecord:
    """Prove the spectral facts above for all depths (raise ProofFailure if a step fails)."""
    from .theorem_3_3 import record_row_sums

    record = ProofRecord(PAPER, "C_depth spectrum, determinant, inverse (Prop. B.1(4), Cor. B.3)", STATEMENT)
    record_entry_formula(record)
    record_row_sums(record)

    d = sp.Symbol("depth", integer=True, nonnegative=True)
    j = sp.Symbol("j", integer=True, positive=True)
    h = sp.Symbol("h", integer=True, positive=True)
    kappa = sp.Symbol("kappa")

    def row_sum(level: Expr) -> Expr:
        """Every row sum of C_level (proved above by record_row_sums)."""
        return sp.Integer(2) ** (-level)

    eigenvalue = eigenvalue_factor * sp.Integer(2) ** (-j)  # 3·2^-j (the claim; mutations change the 3)

    record.step(
        "ones vector: C 1 = (row sum) 1 = 2^-depth 1 (symbolic in depth)",
        is_zero(row_sum(d) - sp.Integer(2) ** (-d)),
    )
    off = off_diagonal_entry(j - 1, definition_exponent)  # entries of the off-diagonal blocks of C_j
    half = sp.Integer(2) ** (j - 1)
    left_rows = row_sum(j - 1) * 1 + off * half * (-1)  # C_(j-1) 1 + (-J/2^(2j-1)) (-1)
    right_rows = off * half * 1 + row_sum(j - 1) * (-1)
    record.step(
        "Haar vector of height j, rows in the left half of its subtree (symbolic in j): "
        "r_(j-1) + 2^(j-1) 2^-(2j-1) = 3 * 2^-j = eigenvalue * (+1)",
        is_zero(left_rows - eigenvalue * 1),
    )
    record.step(
        "Haar vector of height j, rows in the right half (symbolic in j): "
        "-2^(j-1) 2^-(2j-1) - r_(j-1) = 3 * 2^-j * (-1)",
        is_zero(right_rows - eigenvalue * (-1)),
    )
    record.step(
        "Haar vector of height j, rows outside its subtree: the row is a constant kappa on the subtree (entry "
        "formula) and the vector sums to 2^(j-1) - 2^(j-1) = 0 there, so (C v)_a = 0 = eigenvalue * v_a",
        is_zero(kappa * (half * 1 + half * (-1))),
    )
    count = 1 + sp.summation(sp.Integer(2) ** (d - j), (j, 1, d))
    record.step(
        "count: 1 + sum_(j=1..depth) 2^(depth-j) = 2^depth = n Haar vectors",
        is_zero(count - sp.Integer(2) ** d),
    )
    record.step(
        "orthogonality: two distinct Haar vectors have disjoint supports, or one is constant (kappa) on the "
        "other's support, which sums to 0; the ones vector is constant everywhere; so they are orthogonal, "
        "nonzero, n of them: an orthogonal eigenbasis, and the spectrum is {2^-depth: 1} u {3*2^-j: 2^(depth-j)}",
        is_zero(kappa * (half - half)),
    )
    record.step(
        "positive definite: every eigenvalue 2^-depth, 3*2^-j is > 0 (sympy sign, symbolic)",
        bool((sp.Integer(2) ** (-d)).is_positive) and bool(eigenvalue.is_positive),
    )

    log2_det = -d + sp.summation(sp.Integer(2) ** (d - j) * (sp.log(3, 2) - j), (j, 1, d))
    closed = (2**d - 1) * sp.log(3, 2) - 2 ** (d + 1) + 2
    record.step(
        "log2 det C_depth = -depth + sum_j 2^(depth-j) (log2 3 - j) = (2^depth - 1) log2 3 - 2^(depth+1) + 2 "
        "(sympy summation, symbolic in depth)",
        is_zero(sp.expand_log(log2_det - closed, force=True)),
    )
    n = sp.Integer(2) ** d
    record.step(
        "det C_depth = 2^closed-form = (3/4)^(n-1), n = 2^depth",
        is_zero(sp.expand_log(closed - sp.log(sp.Rational(3, 4) ** (n - 1), 2), force=True)),
    )

    ones_weight = 1 / (sp.Integer(2) ** (-d) * sp.Integer(2) ** d)  # 1 / (λ |1|²)
    haar_weight = 1 / (eigenvalue * sp.Integer(2) ** j)  # 1 / (λ_j |v|²), |v|² = 2^j
    record.step(
        "C^-1 = sum_v v vᵀ/(λ_v |v|²): weights 1/(2^-depth 2^depth) = 1 (ones) and 1/(3 2^-j 2^j) = 1/3 "
        "(height j), symbolic",
        is_zero(ones_weight - 1) and is_zero(haar_weight - sp.Rational(1, 3)),
    )
    diagonal = ones_weight + sp.summation(haar_weight * 1, (j, 1, d))  # every ancestor contributes v_a² = 1
    record.step(
        "diagonal of C^-1 (symbolic in depth): 1 + sum_(j=1..depth) 1/3 = 1 + depth/3 (Corollary B.3)",
        is_zero(diagonal - (1 + d / 3)),
    )
    # leaves with lca height h: the lca's vector contributes (+1)(-1)/3, its depth - h ancestors (+-1)^2/3,
    # lower nodes contain at most one of the two leaves
    entry = ones_weight + haar_weight.subs(j, h) * (-1) + sp.summation(haar_weight * 1, (j, h + 1, d))
    record.step(
        "entry of C^-1 for leaves with lca height h (symbolic in depth, h): 1 - 1/3 + sum_(j=h+1..depth) 1/3 "
        "= (depth - h + 2)/3",
        is_zero(entry - (d - h + 2) / 3),
    )
    e = sp.Function("e")
    m = sp.Symbol("m", integer=True, nonnegative=True)  # m = depth - h levels above the lca
    recursion = sp.rsolve(e(m) - e(m - 1) - sp.Rational(1, 3), e(m), {e(0): sp.Rational(2, 3)})
    record.step(
        "cross-check with Lemma B.2: entries across the halves of C_h^-1 are 2/3 and each of the m = depth - h "
        f"further levels adds 1/3 (the J/3 of the diagonal blocks); rsolve gives e_m = {recursion}, "
        "= (depth - h + 2)/3",
        recursion is not None and is_zero(recursion.subs(m, d - h) - (d - h + 2) / 3),
    )

    if sanity:
        from reference.cip.exact import matrix as cip_matrix

        depths = range(0, 6)
        record.step(
            SANITY + "spectrum(depth) (exact, Haar quotients) == spectrum_closed_form(depth), depths 0..5",
            all(cip_matrix.spectrum(t) == cip_matrix.spectrum_closed_form(t) for t in depths),
        )
        record.step(
            SANITY + "determinant(depth) by elimination == (3/4)^(n-1), depths 0..5",
            all(cip_matrix.determinant(t) == Fraction(3, 4) ** ((1 << t) - 1) for t in depths),
        )

        def inverse_matches(t: int) -> bool:
            inverse = cip_matrix.inverse_by_elimination(t)
            size = 1 << t
            return all(
                inverse[a][b]
                == (1 + Fraction(t, 3) if a == b else Fraction(t - cip_matrix.lca_height(a, b) + 2, 3))
                for a in range(size)
                for b in range(size)
            )

        record.step(
            SANITY + "inverse_by_elimination(depth) entries == 1 + depth/3, (depth - h + 2)/3, depths 0..5",
            all(inverse_matches(t) for t in depths),
        )
    return record


if __name__ == "__main__":
    print_record(prove())
