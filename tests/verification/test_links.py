"""Statement ↔ code ↔ proof: every registry entry's links resolve, agree with the proof programs' declarations,
and a "proved" status can only come from the entry's own proof program (planted violations are caught)."""

from __future__ import annotations

import pytest
from reference_verification.core.claims import Budget, Claim, Method, Outcome, Status, proved_by, run_claim, verdict
from reference_verification.core.proof import ProofRecord
from reference_verification.core.proof_links import ProofProgram, proves
from reference_verification.links import link_errors, proof_programs, resolve
from reference_verification.report import build_registry

REGISTRY = build_registry().claims
PROGRAMS = proof_programs()
QUICK = Budget(quick=True)


def test_every_link_of_the_registry_resolves_and_agrees() -> None:
    assert link_errors(REGISTRY, PROGRAMS) == []


def test_every_proof_entry_names_its_program_and_every_program_is_linked() -> None:
    proof_entries = [claim for claim in REGISTRY if claim.method is Method.PROOF]
    assert proof_entries and all(claim.proof for claim in proof_entries)
    linked = {claim.proof for claim in REGISTRY if claim.proof}
    assert {program.name for program in PROGRAMS} == linked


def test_entries_name_code_unless_no_algorithm_is_concerned() -> None:
    for claim in REGISTRY:
        assert claim.implements or claim.method is Method.NONE, (claim.paper, claim.number)


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda program: program.name.removeprefix("reference."))
def test_each_program_proves_what_it_declares(program: ProofProgram[...]) -> None:
    record = program()
    assert record.paper == program.paper
    assert record.steps


# --- planted violations ---------------------------------------------------------------------------------------


@proves("KARY", "Lemma 9.9")
def _toy_program() -> ProofRecord:
    record = ProofRecord("KARY", "Lemma 9.9", "1 + 1 = 2")
    record.step("1 + 1 == 2", 1 + 1 == 2)
    return record


def _claim(number: str = "Lemma 9.9", **changes: object) -> Claim:
    fields: dict[str, object] = {
        "paper": "KARY",
        "number": number,
        "statement": "toy",
        "method": Method.PROOF,
        "check": lambda _: proved_by(_toy_program),
        "implements": ("reference.kary.digits.digits",),
        "proof": f"{__name__}._toy_program",
    }
    fields.update(changes)
    return Claim(**fields)  # type: ignore[arg-type]


def test_a_program_of_another_statement_is_caught() -> None:
    # what the registry once did: "Lemma 5.1" ran the program of the HUU leading constant
    wrong = _claim(number="Lemma 5.1")
    errors = link_errors([wrong])
    assert errors == [f"KARY Lemma 5.1: proof {__name__}._toy_program establishes KARY Lemma 9.9, not this entry"]


def test_unresolvable_code_and_unmarked_programs_are_caught() -> None:
    missing = _claim(implements=("reference.kary.digits.no_such_function",))
    assert "has no no_such_function" in link_errors([missing])[0]
    unmarked = _claim(proof="reference.kary.digits.digits")
    assert "not marked as a proof program" in link_errors([unmarked])[0]
    outside = _claim(implements=("numpy.linalg.inv",))
    assert "not code of this package" in link_errors([outside])[0]
    with pytest.raises(LookupError):
        resolve("reference.kary.no_such_module.f")


def test_a_declared_statement_without_an_entry_is_caught() -> None:
    assert link_errors([], [_toy_program]) == [
        f"{__name__}._toy_program declares KARY Lemma 9.9, but no entry links it"
    ]
    assert link_errors([_claim()], [_toy_program]) == []


def test_proof_entries_must_name_a_program_and_others_name_code() -> None:
    with pytest.raises(ValueError, match="needs its proof program"):
        _claim(proof=None)
    with pytest.raises(ValueError, match="name the code"):
        _claim(method=Method.EXHAUSTIVE, implements=())
    _claim(method=Method.NONE, implements=(), proof=None, check=lambda _: Outcome(Status.NOT_CHECKABLE, "x"))


def test_proved_needs_the_entry_program_to_run() -> None:
    assert run_claim(_claim(), QUICK).outcome.status is Status.PROVED
    # a finite loop labelled a proof (what "Corollary C.2" once was)
    loop = _claim(check=lambda _: verdict(all(n * n >= 0 for n in range(10)), scope="n < 10", evidence="loop",
                                          method=Method.PROOF))
    outcome = run_claim(loop, QUICK).outcome
    assert outcome.status is Status.ERROR and "did not run" in outcome.detail
    # "proved" from a method that is not a proof
    exhaustive = _claim(method=Method.EXHAUSTIVE, proof=None)
    outcome = run_claim(exhaustive, QUICK).outcome
    assert outcome.status is Status.ERROR and "returned 'proved'" in outcome.detail


def test_another_program_does_not_count() -> None:
    other = next(program for program in PROGRAMS if program.name.endswith("equation_2.prove"))
    borrowed = _claim(check=lambda _: proved_by(other))
    outcome = run_claim(borrowed, QUICK).outcome
    assert outcome.status is Status.ERROR
    assert other.name in outcome.detail
