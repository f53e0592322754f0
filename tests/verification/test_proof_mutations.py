"""Proof programs fail when they should: every program registers false variants of its statement (a wrong
constant, a dropped hypothesis, a wrong digit window, a wrong neighbour model, another entry's program in a
premise's place) and each one makes the program raise ProofFailure; no step of a program is a literal truth
value, a comparison of typed-in numbers that no computation produced, or a check that merely some program ran."""

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


#: Names a step may use without computing anything: modules and constructors of numbers.
_CONSTRUCTORS = frozenset({"sp", "sympy", "Fraction", "arb", "fmpq", "math", "mp", "mpf", "int", "float", "bool", "len",
                           "abs", "all", "any", "set", "tuple", "list", "sum", "max", "min", "range", "sorted", "str"})


def _typed(node: ast.AST, typed: set[str]) -> bool:
    """Whether ``node`` is built from literals only: no name but constructors and typed-in names, no symbol."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and sub.id not in _CONSTRUCTORS and sub.id not in typed:
            return False
        if isinstance(sub, (ast.Lambda, ast.comprehension)):
            return False
        if isinstance(sub, ast.Attribute) and sub.attr in ("Symbol", "symbols", "Function", "Dummy"):
            return False
    return True


def _only_ran(node: ast.AST) -> bool:
    """``bool(x.steps)`` and the like: the step checks only that some program took steps, not which one."""
    names = [sub for sub in ast.walk(node) if isinstance(sub, ast.Name) and sub.id not in _CONSTRUCTORS]
    steps = [sub for sub in ast.walk(node) if isinstance(sub, ast.Attribute) and sub.attr == "steps"]
    return bool(steps) and all(any(attribute.value is name for attribute in steps) for name in names)


def _typed_in_steps(path: Path) -> list[str]:
    """Steps whose truth value is decided by typed-in numbers alone (within each function, a name every
    assignment of which is built from literals counts as typed in; a parameter never does: it is the statement
    under test), or by whether another program took steps (use ``established``/``premise``: which program, and
    what it concluded)."""
    found = []
    for function in (node for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                     if isinstance(node, ast.FunctionDef)):
        values: dict[str, list[ast.AST | None]] = {}
        for sub in ast.walk(function):
            targets = sub.targets if isinstance(sub, ast.Assign) else [getattr(sub, "target", None)]
            for target in (t for t in targets if t is not None):
                for name in (n for n in ast.walk(target) if isinstance(n, ast.Name)):
                    plain = isinstance(sub, ast.Assign) and isinstance(target, ast.Name)
                    values.setdefault(name.id, []).append(sub.value if plain else None)  # type: ignore[union-attr]
        parameters = {argument.arg for argument in [*function.args.args, *function.args.kwonlyargs]}
        typed: set[str] = set()
        grown = True
        while grown:
            grown = False
            for name, assigned in values.items():
                if name not in typed and name not in parameters and all(
                        value is not None and _typed(value, typed) for value in assigned):
                    typed.add(name)
                    grown = True
        for node in ast.walk(function):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "step" \
                    and len(node.args) > 1 and (_typed(node.args[1], typed) or _only_ran(node.args[1])):
                found.append(f"{path.name}:{node.lineno}")
    return found


@pytest.mark.parametrize("path", PROOF_FILES, ids=lambda path: f"{path.parent.parent.name}/{path.name}")
def test_no_step_decides_on_typed_in_values(path: Path) -> None:
    assert _typed_in_steps(path) == []


def test_the_typed_in_scan_finds_the_weakenings(tmp_path: Path) -> None:
    """The two shapes of weakening: a premise's value typed in and compared with a typed-in number, and a step
    that checks only that some program ran; a value computed from a symbol or a parameter is not flagged."""
    planted = tmp_path / "planted.py"
    planted.write_text(
        "def prove(record, claimed=2):\n"
        "    increment = sp.Rational(1, 3) * sp.Integer(1)\n"
        "    record.step('the premise', increment == sp.Rational(1, 3))\n"
        "    other = some_program()\n"
        "    record.step('the other entry holds', bool(other.steps))\n"
        "    x = sp.Symbol('x')\n"
        "    record.step('computed', sp.diff(x**2, x).subs(x, 1) == claimed)\n"
        "    record.step('premise checked', established(other, some_program))\n",
        encoding="utf-8",
    )
    assert _typed_in_steps(planted) == ["planted.py:3", "planted.py:5"]


def test_a_premise_must_be_the_named_entrys_conclusion() -> None:
    """premise() and established() refuse a record of another program, or a record without the conclusion."""
    from reference_verification.cip.proofs import corollary_b3, theorem_3_8
    from reference_verification.core.proof import ProofRecord, established, premise

    corollary = corollary_b3.prove(sanity=False)
    assert established(corollary, corollary_b3.prove) and not established(corollary, theorem_3_8.prove)
    assert premise(corollary, "CIP", "Corollary B.3", "diagonal").expr.subs(
        premise(corollary, "CIP", "Corollary B.3", "diagonal").variables[0], 3) == 2
    with pytest.raises(ProofFailure):
        premise(theorem_3_8.prove(sanity=False), "CIP", "Corollary B.3", "diagonal")
    with pytest.raises(ProofFailure):
        premise(ProofRecord("CIP", "Corollary B.3", "no steps"), "CIP", "Corollary B.3", "diagonal")
