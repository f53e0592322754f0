"""The proof program of KARY Lemma 4.5 / Proposition 4.3 runs, and fails on a wrong noise scale."""

from __future__ import annotations

import pytest


def test_lemma_4_5_program_fails_with_a_wrong_scale() -> None:
    import sympy as sp
    from reference_verification.core.proof import SANITY, ProofFailure
    from reference_verification.kary.proofs.lemma_4_5 import prove

    steps = prove().steps
    assert len([step for step in steps if not step.startswith(SANITY)]) == 8  # partition, Laplace, 2 × 2 window, …
    with pytest.raises(ProofFailure, match="Laplace mechanism"):
        prove(scale_factor=sp.Symbol("h", positive=True) / 2)  # Laplace(h/(2ε)) is only 2ε-DP
