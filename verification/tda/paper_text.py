"""TDA's text beyond its own registry entries, read by the coverage, the prose scan and the proof pass
(:mod:`reference_verification.unregistered`, :mod:`reference_verification.prose_claims` and
:mod:`reference_verification.proof_pass` gather these tables from every paper of the table of papers).

* :data:`CHECKED_ELSEWHERE` — the numbered statements with no registry entry of their own: (paper, statement as in
  the index) -> (the registry number of the entry that checks it, the reason);
* :data:`PROSE_CLAIMS` — each quantitative prose sentence: (paper, sentence id as in the index) -> (the entry that
  checks it, or ``None``, and how, or why not);
* :data:`PROOF_STEPS` — the printed proofs, display by display: checked by an entry, or the reason why not.
"""

from __future__ import annotations

from ..core.paper_text import OTHER_WORK, ProofStep, checked_step

CHECKED_ELSEWHERE: dict[tuple[str, str], tuple[str, str]] = {
    ("TDA", "Equation (1)"): ("IntOpt", "the projection problem P(x, c) that IntOpt solves"),
    ("TDA", "Equation (2)"): ("Theorem 1 (utility)", "the error bound Theorem 1 states"),
    ("TDA", "Equation (3)"): (
        "Appendix A (error step)",
        "the non-negativity constraint of an offset in the Appendix A proof",
    ),
    ("TDA", "Equation (4)"): ("Appendix A (error step)", "the total constraint of an offset in the Appendix A proof"),
    ("TDA", "Equation (5)"): ("Appendix A (error step)", "the one-level error bound of the Appendix A proof"),
    ("TDA", "Equation (6)"): ("Theorem 1 (utility)", "the error recursion of the Appendix A proof of Theorem 1"),
    ("TDA", "Equation (7)"): (
        "Theorem 1 (utility)",
        "the unrolled error recursion of the Appendix A proof of Theorem 1",
    ),
}

PROSE_CLAIMS: dict[tuple[str, str], tuple[str | None, str]] = {
    # TDA (003_93c23309e1011ec5.txt)
    ("TDA", "line 12.5"): ("Theorem 1 (utility)", "the maximum absolute error Õ(sqrt(k³d)) the theorem bounds"),
    ("TDA", "line 16.2"): ("Section 1 (contingency-table error)", "the rate e^((d−k)/2) holds only for |X_i| <= e"),
    ("TDA", "line 16.16"): (None, "MWEM's error; " + OTHER_WORK),
    ("TDA", "line 20.2"): ("Theorem 1 (utility)", "the maximum absolute error Õ(sqrt(k³d)) the theorem bounds"),
    ("TDA", "line 51.1"): ("Section 2 (number of marginal queries)", "2^d is the number of subsets S, all orders"),
    ("TDA", "line 134.4"): (None, "an open question (error Õ(sqrt(k)) with non-negative integer counts)"),
    ("TDA", "line 16.4"): (None, "the error of a baseline (one table per query) that the paper does not analyse"),
    ("TDA", "line 20.4"): (None, "a running time per node of drawing Gaussian noise, whose cost is random"),
    ("TDA", "line 20.5"): ("Section 1 (IntOPT steps)", "O(max|X_i|²) steps for the printed loop"),
    ("TDA", "line 124.6"): ("IntOpt (O(c) steps)", "the simple version runs in O(c) steps"),
    ("TDA", "line 124.7"): (None, "a faster version given in other work ([1], Appendix C)"),
    ("TDA", "line 134.2"): ("Theorem 1 (utility)", "the maximum absolute error the theorem bounds"),
}

PROOF_STEPS: tuple[ProofStep, ...] = (
    # TDA
    checked_step("TDA", "Theorem 1 (privacy)", "ℓ2 sensitivity √2 per level, ρ/d per level, zCDP composition across levels",
       "Theorem 1 (privacy)"),
    checked_step("TDA", "Appendix A", "|err(u_k)| <= |q − q̃| + |q̃ − q̄| and |q̃(u_k) − q̄(u_k)| <= ‖q̃_C − q̄_C‖∞",
       "Appendix A (error step)"),
    checked_step("TDA", "Appendix A", "‖q̃_C − q̄_C‖∞ <= ‖q̃_C − q_C − ξ‖∞ <= ‖q̃_C − q_C‖∞ + ‖ξ‖∞ (optimality, triangle), "
       "equation (5)", "Appendix A (error step)"),
    checked_step("TDA", "Appendix A", "for err >= 0, ξ_j = err/|X_k| is feasible", "Appendix A (offset step)"),
    checked_step("TDA", "Appendix A", "Σ_j ξ_j = q̄(u_(k−1)) − q(u_(k−1)) = err(u_(k−1)) and ‖ξ‖∞ <= |err(u_(k−1))|, "
       "equations (6)–(7)", "Appendix A (error step)"),
    checked_step("TDA", "Appendix A", "union bound over the |X_(k−ℓ+1)|·Π|X_i| coordinates with Corollary 1's tail",
       "Theorem 1 (utility, per-level step)"),
    checked_step("TDA", "Section 3", "Σ max(⌈(c − Σx)/d⌉, −x_i) >= Σ ⌈(c − Σx)/d⌉ >= c − Σx (footnote 4)",
       "Section 3 (IntOpt lower bound)"),
)
