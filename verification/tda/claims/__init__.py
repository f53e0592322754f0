"""The TDA registry (Boninsegna, "InfTDA"): every checkable statement, one module per section of the paper.

:mod:`reference_verification.tda.claims.introduction` (Section 1: IntOPT's cost, the contingency-table baseline),
:mod:`reference_verification.tda.claims.preliminaries` (Section 2: Definitions 1–4 and Observation 1, the data
model; the number of marginal queries; zCDP to (ε, δ)), :mod:`reference_verification.tda.claims.topdown` (Section
3: Algorithm 1 and IntOpt, the mechanism; Theorem 1, privacy σ² = d/ρ per level with the level sensitivity and
utility; Corollary 1), :mod:`reference_verification.tda.claims.appendix_a` (the error step of the utility proof)
and :mod:`reference_verification.tda.claims.proof_steps` (steps of the printed proofs that fail as printed). Each
entry's ``check`` computes its status (see :mod:`reference_verification.core.claims`); ``implements`` names the
code the statement speaks about and ``proof`` the program that establishes it.
"""

from __future__ import annotations

from ...core.claims import Claim
from . import appendix_a, introduction, preliminaries, proof_steps, topdown


def tda_claims() -> list[Claim]:
    """All TDA entries, in the paper's order."""
    return [
        *introduction.claims(),
        *preliminaries.claims(),
        *topdown.claims(),
        *appendix_a.claims(),
        *proof_steps.claims(),
    ]
