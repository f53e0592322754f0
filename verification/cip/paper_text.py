"""CIP's text beyond its own registry entries, read by the coverage, the prose scan and the proof pass
(:mod:`reference_verification.unregistered`, :mod:`reference_verification.prose_claims` and
:mod:`reference_verification.proof_pass` gather these tables from every paper of the table of papers).

* :data:`CHECKED_ELSEWHERE` — the numbered statements with no registry entry of their own: (paper, statement as in
  the index) -> (the registry number of the entry that checks it, the reason);
* :data:`PROSE_CLAIMS` — each quantitative prose sentence: (paper, sentence id as in the index) -> (the entry that
  checks it, or ``None``, and how, or why not);
* :data:`PROOF_STEPS` — the printed proofs, display by display: checked by an entry, or the reason why not.
"""

from __future__ import annotations

from ..core.paper_text import OTHER_WORK, PROOF_OF, ProofStep, checked_step

CHECKED_ELSEWHERE: dict[tuple[str, str], tuple[str, str]] = {
    ("CIP", "Equation (1)"): (
        "Definition 3.1",
        "the recursion that defines C_k; checked, and its two renderings compared, there",
    ),
    ("CIP", "Equation (3)"): ("Proposition 3.13", "the chain of inequalities Proposition 3.13 states"),
    ("CIP", "Equation (4)"): ("Proposition 3.5", "a step (equal laws of the subtrees) in the proof of Proposition 3.5"),
    ("CIP", "Equation (5)"): (
        "Proposition 3.5",
        "a step (cross-covariance of the halves) in the proof of Proposition 3.5",
    ),
    ("CIP", "Equation (6)"): (
        "Proposition 3.5",
        "the induction step's value −2^(−2k−1) in the proof of Proposition 3.5",
    ),
    ("CIP", "Equation (7)"): ("Theorem 3.8", "the bound on σ² that the proof of Theorem 3.8 arrives at"),
}

PROSE_CLAIMS: dict[tuple[str, str], tuple[str | None, str]] = {
    # CIP (000_3c5ccf0a3828863e.txt)
    ("CIP", "line 69.4"): ("Section 3.4 (independent noise)", "i.i.d. leaf noise gives the root variance n·σ² = Θ(n)"),
    ("CIP", "line 90.1"): ("Proposition 3.4", "Cascade Sampling in O(n) time"),
    ("CIP", "line 92.2"): (None, "the O(n³) of a Cholesky factorisation is the textbook cost of another method"),
    ("CIP", "line 94.1"): ("Proposition 3.4", "the recursion (1) gives the noise in O(n) time"),
    ("CIP", "line 98.1"): ("Equation (2)", "the two children have correlation −1/2"),
    ("CIP", "line 119.1"): ("Proposition 3.4", "the cost, one unit per normal draw and per operation, is linear in n"),
    ("CIP", "line 123.1"): ("Proposition 3.4", "Algorithm 1 costs O(n)"),
    ("CIP", "line 135.11"): (
        "Proposition 3.4",
        "O(1) amortized is the Θ(n) total over n cells; O(log n) per cell is the one split per level on its path",
    ),
    ("CIP", "line 159.1"): ("Theorem 3.9", "the display of the σ² bound"),
    ("CIP", "line 209.1"): ("Lemma 3.14", "the maximum range variance is Θ(log n)"),
    ("CIP", "line 217.1"): ("Theorem 3.15", "the err^∞ rate of the theorem"),
    ("CIP", "line 227.1"): ("Corollary 3.16", "the err^∞ bound of the corollary"),
    ("CIP", "line 228.1"): ("Corollary 3.16", "the err_2 bound of the corollary"),
    ("CIP", "line 229.1"): ("Corollary 3.16", "the err_(W,∞) bound of the corollary"),
    ("CIP", "line 231.2"): ("Section 3.4 (independent noise)", "with independent leaf noise the errors are Θ(n^(3/2))…"),
    ("CIP", "line 231.3"): ("Corollary 3.16", "the rates of this mechanism that the comparison quotes"),
    ("CIP", "line 233.4"): (None, "a rate of the Binary Tree mechanism shown in other work ([29]); " + OTHER_WORK),
    ("CIP", "line 235.2"): (None, "introduces the lower bound of other work ([17]); " + OTHER_WORK),
    ("CIP", "line 235.3"): (None, "the Ω lower bound of [17] (Thm. 3); " + OTHER_WORK),
    ("CIP", "line 235.4"): (
        None,
        "the gap log^0.5 n compares Corollary 3.16 (checked there) with the lower bound of [17], not derived here",
    ),
    ("CIP", "line 249.2"): (None, "restates the gap of line 235.4 against the lower bound of other work"),
    ("CIP", "line 260.4"): ("Section 5 timings", "under 9 minutes at 33.5 million dimensions"),
    ("CIP", "line 260.5"): ("Section 5 timings", "the log-log slope 1.05"),
    ("CIP", "line 264.5"): (None, "how the experiments' plots were drawn (±0.25 sd over 10 runs); not reproduced"),
    ("CIP", "line 330.5"): ("Section 3.4 (independent noise)", "input perturbation's range error grows as √n"),
    ("CIP", "line 338.4"): (None, "the O((1/ε) log^(3/2) t) counter of other work ([9]); " + OTHER_WORK),
    ("CIP", "line 338.8"): (None, "a survey sentence about other work (constant VC-dimension)"),
    ("CIP", "line 432.1"): ("Theorem 3.8", "the likelihood-ratio form of (ε, δ)-DP its proof uses"),
    ("CIP", "line 561.1"): ("Lemma B.5", "T = O(K) merged terms, which Lemma B.5 makes T <= 2K − 2"),
    ("CIP", "line 583.1"): ("Lemma B.5", PROOF_OF + " (a prefix merges into at most K nodes)"),
    ("CIP", "line 583.6"): ("Lemma B.5", PROOF_OF),
    ("CIP", "line 583.7"): ("Lemma B.5", PROOF_OF),
    ("CIP", "line 583.8"): ("Lemma B.5", PROOF_OF + " (a suffix likewise)"),
    ("CIP", "line 585.7"): ("Lemma B.5", PROOF_OF),
    ("CIP", "line 585.8"): ("Lemma B.5", "the bound 2m − 2 the lemma states"),
    ("CIP", "line 587.2"): ("Lemma 3.14 (lower-bound step)", "the lower bound's variance grows as Θ(K)"),
    ("CIP", "line 597.3"): ("Lemma 3.14 (lower-bound step)", "V_K/σ² = Ω(K) for odd K"),
    ("CIP", "line 599.1"): ("Lemma 3.14", "the display of the lemma's Θ(K)"),
    ("CIP", "line 658.1"): ("Theorem 3.15", PROOF_OF),
    ("CIP", "line 678.1"): ("Theorem C.1", "the nodal err_(W,∞) bullet of the theorem"),
    ("CIP", "line 706.1"): ("Corollary C.2", "the nodal err^∞ bullet of the corollary"),
    ("CIP", "line 708.1"): ("Corollary C.2", "the nodal err_2 bullet of the corollary (refuted there)"),
    ("CIP", "line 710.1"): ("Corollary C.2", "the nodal err_(W,∞) bullet of the corollary"),
    ("CIP", "line 819.2"): ("Section 5 timings", "the dimensions 2^3 .. 2^25 of the timing experiment"),
    ("CIP", "line 839.5"): ("Lemma 3.14", "a range of up to n cells; its variance under this noise is Θ(log n)"),
    ("CIP", "line 839.6"): ("Lemma 3.14", "the factor O(log n) over i.i.d. noise is the maximum range variance"),
    ("CIP", "line 868.4"): ("Appendix E (implicit factorization variance)", "at most twice, computed exactly"),
    ("CIP", "line 876.2"): ("Appendix E.5 sampling", "there are n(n + 1)/2 = Θ(n²) ranges"),
    ("CIP", "line 884.1"): (None, "a remark that all errors could be computed faster than O(n³), with no algorithm"),
}

PROOF_STEPS: tuple[ProofStep, ...] = (
    # CIP, Appendix B and C (the proofs of Section 3's statements)
    checked_step("CIP", "Proposition B.1", "Σ_j C_(l+1)(i, j) = Σ_j C_l(i, j) − 2^(−2l−1)·2^l = 2^(−l) − 2^(−l−1) = 2^(−(l+1))",
       "Proposition B.1"),
    checked_step("CIP", "Proposition B.1", "positive semi-definite by Gershgorin from the first three properties", "Proposition B.1"),
    checked_step("CIP", "Theorem 3.3", "Var[X_∅] = (1, 1) C_1 (1, 1)ᵀ = 1 + 1 − 0.5 − 0.5 = 1", "Theorem 3.3"),
    checked_step("CIP", "Theorem 3.3", "Var[X_∅] = Σ_(i,j) C_(l+1)(i, j) = Σ_i 2^(−(l+1)) = 1", "Theorem 3.3"),
    checked_step("CIP", "Proposition 3.5", "Var(X_0) = (1/2)² Var(X_∅) + (√3/2)² Var(Y_∅) = 1/4 + 3/4 = 1", "Proposition 3.5"),
    checked_step("CIP", "Proposition 3.5", "Cov(X_0, X_1) = (1/2)² Var(X_∅) − (√3/2)² Var(Y_∅) = −0.5", "Proposition 3.5"),
    checked_step("CIP", "Proposition 3.5", "Cov(X_0I, X_1J) = (1/2)² Cov(X_Ĩ, X_J̃) = 2^(−2)·(−2^(−2k+1)) = −2^(−2k−1) (5)–(6)",
       "Proposition 3.5"),
    checked_step("CIP", "Theorem 3.8", "log-likelihood ratio = C⁻¹(i, i)/(2σ²) + sᵀC⁻¹e_i/σ², a Gaussian with mean w/2 and "
       "variance w", "Theorem 3.8"),
    checked_step("CIP", "Theorem 3.8", "P[Y > x] <= 2 exp(−x²/2), then (ε/√w − √w/2)² >= log(2/δ) suffices (the printed gap: "
       "it gives √(2δ), not δ; the entry records it)", "Theorem 3.8"),
    checked_step("CIP", "Theorem 3.8", "w <= ε²/(2 log(2/δ)) <= ε²/(2 log 4) <= 2ε", "Theorem 3.8"),
    checked_step("CIP", "Theorem 3.8", "ε²/w >= 2 log(2/δ) >= log(2/δ) + log 4 > log(2/δ) + ε", "Theorem 3.8"),
    checked_step("CIP", "Theorem 3.8", "(ε/√w − √w/2)² = ε²/w − ε + w/4 >= ε²/w − ε >= log(2/δ)", "Theorem 3.8"),
    checked_step("CIP", "Theorem 3.9", "‖diag(C_k⁻¹)‖∞ = 1 + k/3 = 1 + log2(n)/3, into Theorem 3.8", "Theorem 3.9"),
    checked_step("CIP", "Lemma B.2", "facts 1–3: J_k C_k = 2^(−k) J_k, J_k J_k = 2^k J_k, J_k C_k⁻¹ = 2^k J_k", "Lemma B.2"),
    checked_step("CIP", "Lemma B.2", "A = D = I + (1/3) C_K J_K − (2/3)·2^(−2K−1) J_K J_K = I", "Lemma B.2"),
    checked_step("CIP", "Lemma B.2", "off-diagonal blocks (printed 'B = D', meaning B = C) = 0", "Lemma B.2"),
    checked_step("CIP", "Proposition 3.13", "‖v‖₂² <= m‖v‖∞² and ‖E[V]‖∞ <= E[‖V‖∞]", "Proposition 3.13"),
    checked_step("CIP", "Lemma 3.14", "Var[Σ Y_l] <= Σ Var[Y_l] = σ² T <= C K σ² (non-positive covariances)", "Lemma B.4"),
    checked_step("CIP", "Lemma B.4", "Cov(Z1, Z2) <= 0 'since the diagonal is positive and not summed'",
       "Lemma B.4 (printed proof)"),
    checked_step("CIP", "Lemma B.5", "a prefix merges into at most K nodes; a range into at most 2K − 2", "Lemma B.5"),
    checked_step("CIP", "Lemma 3.14", "lower bound: V_K − V_(K−2) >= 2/3 σ² by 2Cov = −σ² 2^(−(K−1)) M_(K−2) >= −σ²/3",
       "Lemma 3.14 (lower-bound step)"),
    checked_step("CIP", "Lemma 3.14", "2^(K−3) + 2^(K−5) + … + 1 <= (4/3) 2^(K−3)", "Lemma 3.14 (lower-bound step)"),
    checked_step("CIP", "Theorem 3.15", "err^∞ = sqrt(2/π) max sqrt(Var) = Θ(σ sqrt(K))", "Theorem 3.15"),
    checked_step("CIP", "Theorem 3.15", "union over 'C(n, 2)' ranges: 2·C(n, 2) exp(…) <= n² exp(…)",
       "Theorem 3.15 (union-bound step)"),
    checked_step("CIP", "Theorem 3.15", "P[‖Ws‖∞ > t_m] <= n² exp(−2m² log n) = n^(−(2m²−2)), and the integral split at t_m",
       "Theorem 3.15 (union-bound step)"),
    checked_step("CIP", "Theorem C.1", "Σ_(J,k) P[|X_J| > t] = (2n − 1) exp(−t²/(2σ²))", "Theorem C.1 (tail-sum step)"),
    checked_step("CIP", "Theorem C.1", "err^∞ = sqrt(2/π)σ and err_2 = (2n − 1)σ² 'by direct calculation'", "Theorem C.1"),
    checked_step("CIP", "Corollary C.2", "plug Theorem 3.9's σ into Theorem C.1 (range or nodal reading)", "Corollary C.2"),
    checked_step("CIP", "Corollary 3.16", "plug Theorem 3.9's σ into Theorem 3.15", "Corollary 3.16"),
)
