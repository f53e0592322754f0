"""Proof programs fail when they should: every program registers false variants of its statement (a wrong
constant, a dropped hypothesis, a wrong digit window) and each one makes the program raise ProofFailure; and no
step of a program is a literal truth value."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest
from reference_verification.core.proof import ProofFailure
from reference_verification.core.proof_links import Mutation, ProofProgram
from reference_verification.links import proof_programs

PROGRAMS = proof_programs()
MUTANTS = [(program, mutant) for program in PROGRAMS for mutant in program.mutations]
VERIFICATION = Path(__file__).resolve().parents[2] / "verification"
#: The files that hold proof programs and their shared steps.
PROOF_FILES = [*sorted(VERIFICATION.glob("*/proofs/*.py")), VERIFICATION / "core" / "proof.py"]


def test_the_papers_have_proof_programs() -> None:
    assert len(PROGRAMS) >= 25
    assert {program.paper for program in PROGRAMS} == {"CIP", "KARY", "TDA"}


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda program: program.name.removeprefix("reference_verification."))
def test_every_program_registers_mutations(program: ProofProgram[...]) -> None:
    assert program.mutations, f"{program.name} registers no false variant of its statement"
    accepted = inspect.signature(program.function).parameters
    for mutant in program.mutations:
        unknown = set(mutant.keywords) - set(accepted)
        assert not unknown, f"{program.name}: mutation {mutant.name!r} passes {unknown}, not parameters of the program"


@pytest.mark.parametrize(
    ("program", "mutant"), MUTANTS, ids=[f"{p.name.split('.')[-2]}.{p.name.split('.')[-1]}: {m.name}" for p, m in MUTANTS]
)
def test_every_mutation_makes_its_program_fail(program: ProofProgram[...], mutant: Mutation) -> None:
    keywords = mutant.keywords
    if "sanity" in inspect.signature(program.function).parameters:
        keywords["sanity"] = False  # the sanity checks are beside the proof; the proof itself must fail
    with pytest.raises(ProofFailure):
        program(**keywords)


def test_the_lemma_4_5_program_refuses_the_meaningless_window() -> None:
    """The weakening the issue planted: digit window centre ⌊(k + 5)/2⌋ instead of ⌊(k − 1)/2⌋."""
    import sympy as sp
    from reference_verification.kary.proofs import lemma_4_5

    assert lemma_4_5.prove().steps
    with pytest.raises(ProofFailure):
        lemma_4_5.prove(center=lambda arity: sp.floor((arity + 5) / 2))


def _literal_steps(path: Path) -> list[str]:
    """``record.step(..., <constant>)`` calls: a step whose truth value is typed, not computed."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "step":
            holds = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "holds"), None)
            if isinstance(holds, ast.Constant):
                found.append(f"{path.name}:{node.lineno}")
    return found


@pytest.mark.parametrize("path", PROOF_FILES, ids=lambda path: f"{path.parent.parent.name}/{path.name}")
def test_no_step_is_a_literal(path: Path) -> None:
    assert _literal_steps(path) == []


def test_the_literal_scan_finds_a_literal(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text("def prove(record):\n    record.step('a conclusion', True)\n", encoding="utf-8")
    assert _literal_steps(planted) == ["planted.py:2"]
