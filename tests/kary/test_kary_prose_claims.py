"""KARY's checkable prose sentences: the programs fail on a wrong constant, the digit sweep agrees with an
independent count, and the CIP range-variance claim agrees with a hand computation."""

from __future__ import annotations

from fractions import Fraction

import pytest
from reference_verification.cip.claims.appendix_e import implicit_factorization_variances
from reference_verification.core.claims import Budget, Status
from reference_verification.core.proof import ProofFailure
from reference_verification.kary.claims.prose import check_vertices_per_level
from reference_verification.kary.proofs.prose import prove_laplace_variance, prove_subtraction_factor


def test_subtraction_factor_tends_to_two_and_not_three() -> None:
    assert prove_subtraction_factor().steps
    with pytest.raises(ProofFailure, match="tends to"):
        prove_subtraction_factor(claimed_limit=3)


def test_laplace_variance_is_two_scales_squared_not_one() -> None:
    assert prove_laplace_variance().steps
    with pytest.raises(ProofFailure, match="E\\[X²\\]"):
        prove_laplace_variance(claimed_factor=1)


def test_vertices_per_level_sweep() -> None:
    # by hand: arity 5 offset digits are −2..2, so at most 2 = ⌈4/2⌉ vertices per level; arity 4 (Definition
    # C.1) digits −1..2, at most 2 = ⌈3/2⌉; the standard digits reach k − 1
    assert check_vertices_per_level(Budget(quick=True)).status is Status.VERIFIED


def test_implicit_factorization_range_variance_by_hand() -> None:
    # c = 1, 1/2, 3/8; prefix 3 has variance 1 + 1/4 + 9/64 = 89/64; [2, 3] = prefix 3 − prefix 1 puts weights
    # (3/8 − 1, 1/2, 1) on z_1..z_3: variance 25/64 + 16/64 + 64/64 = 105/64, larger than 89/64, below twice
    prefix, ranges = implicit_factorization_variances(3)
    assert prefix[3] == Fraction(89, 64)
    assert ranges[(2, 3)] == Fraction(105, 64)
