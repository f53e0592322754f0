"""Numbered statements of the papers that have no registry entry of their own, each with the entry that checks
it and why: a numbered equation inside a definition, a statement or a proof is checked with that statement.

Keys are (paper, statement as in the index); values are (the registry number of the entry that checks it, the
reason). The tests require each named entry to exist in the registry and each key to be in the index.
"""

from __future__ import annotations

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
    ("KARY", "Equation (1)"): ("Lemma 5.5", "the composition bound from Lemma 5.4 used in the proof of Lemma 5.5"),
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
