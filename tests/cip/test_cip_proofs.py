"""The CIP proof programs (``verification/cip/proofs/``): each must establish its statement, and each must FAIL when the claimed
statement is false (mutation tests: a wrong constant, or a misreading of Definition 3.1)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest
import sympy as sp
from reference_verification.cip.proofs import corollary_b3 as cip_corollary_b3
from reference_verification.cip.proofs import lemma_b2 as cip_lemma_b2
from reference_verification.cip.proofs import proposition_3_5 as cip_proposition_3_5
from reference_verification.cip.proofs import spectrum as cip_spectrum
from reference_verification.cip.proofs import theorem_3_3 as cip_theorem_3_3
from reference_verification.cip.proofs import theorem_3_8 as cip_theorem_3_8
from reference_verification.cip.proofs import theorem_3_9 as cip_theorem_3_9
from reference_verification.cip.proofs.common import WordRewriter, ocr_exponent
from reference_verification.core.proof import SANITY, ProofFailure, ProofRecord

PROGRAMS: list[Callable[[], ProofRecord]] = [
    cip_lemma_b2.prove,
    cip_corollary_b3.prove,
    cip_spectrum.prove,
    cip_theorem_3_3.prove,
    cip_proposition_3_5.prove,
    cip_theorem_3_8.prove,
    cip_theorem_3_9.prove,
]


@pytest.mark.parametrize("prove", PROGRAMS, ids=lambda program: program.name.split(".")[-2])
def test_proof_program_establishes_its_statement(prove: Callable[[], ProofRecord]) -> None:
    record = prove()
    assert record.paper == "CIP"
    assert record.statement
    proof_steps = [step for step in record.steps if not step.startswith(SANITY)]
    assert len(proof_steps) >= 3


def test_lemma_b2_fails_with_j_over_4() -> None:
    with pytest.raises(ProofFailure, match="induction step"):
        cip_lemma_b2.prove(diagonal_coefficient=Fraction(1, 4), sanity=False)


def test_lemma_b2_fails_with_wrong_off_diagonal_block() -> None:
    with pytest.raises(ProofFailure, match="induction step"):
        cip_lemma_b2.prove(off_diagonal_coefficient=Fraction(1, 3), sanity=False)


def test_lemma_b2_fails_with_ocr_exponent() -> None:
    with pytest.raises(ProofFailure, match="induction step"):
        cip_lemma_b2.prove(exponent=ocr_exponent, sanity=False)


def test_corollary_b3_fails_with_one_plus_j_over_2() -> None:
    with pytest.raises(ProofFailure):
        cip_corollary_b3.prove(claimed_slope=Fraction(1, 2), sanity=False)


def test_theorem_3_3_fails_with_ocr_exponent() -> None:
    # OCR rendering: -J_i / 2^(2^i + 1) instead of -J_i / 2^(2i + 1)
    with pytest.raises(ProofFailure, match="row sums, induction step"):
        cip_theorem_3_3.prove(exponent=ocr_exponent, sanity=False)


def test_ocr_exponent_agrees_only_up_to_c3_and_breaks_the_root_variance_at_depth_4() -> None:
    # the two readings coincide for i = 1, 2 (2i + 1 = 2^i + 1) and differ from i = 3 on
    assert [2 * i + 1 == 2**i + 1 for i in range(1, 6)] == [True, True, False, False, False]
    row_sum = Fraction(1, 2)
    for i in range(1, 4):
        row_sum -= Fraction(2**i, 2 ** (2**i + 1))
    assert 16 * row_sum == Fraction(7, 4)


def test_proposition_3_5_fails_with_wrong_noise_coefficient() -> None:
    with pytest.raises(ProofFailure, match="Var X"):
        cip_proposition_3_5.prove(noise_coefficient=sp.Rational(1, 2), sanity=False)


def test_theorem_3_8_fails_with_constant_1() -> None:
    with pytest.raises(ProofFailure, match="ratio is bounded"):
        cip_theorem_3_8.prove(numerator_constant=1, sanity=False)


def test_theorem_3_8_holds_with_a_larger_constant() -> None:
    assert cip_theorem_3_8.prove(numerator_constant=3, sanity=False).steps


def test_theorem_3_9_fails_with_wrong_coefficient() -> None:
    with pytest.raises(ProofFailure):
        cip_theorem_3_9.prove(claimed_coefficient=Fraction(1, 3))


def test_word_rewriter_is_sound_on_a_false_identity() -> None:
    C, Cinv = sp.symbols("C Cinv", commutative=False)
    rewriter = WordRewriter({(C, Cinv): (sp.Integer(1), ())})
    assert rewriter.equal(C * Cinv * C, C)
    assert not rewriter.equal(Cinv * C, sp.Integer(1))  # no rule for Cinv C: not provable, not claimed
