"""Statement ↔ code ↔ proof: resolve every registry entry's links and check that they agree.

Each :class:`~reference_verification.core.claims.Claim` names the code that implements its statement (``implements``) and,
where a program establishes it, the proof program (``proof``), by dotted path. :func:`link_errors` resolves every
name and checks that

* each name in ``implements`` is an importable function, class or method of the package;
* each ``proof`` is a :class:`~reference_verification.core.proof_links.ProofProgram` of the same paper that declares the
  entry's number among the statements it establishes;
* every entry whose method is "proof for all parameters" names a program (an entry of another method may name
  one as extra evidence; it is checked the same way);
* every statement a program declares is an entry of the registry that links back to that program.

The report runs the same check, so a broken link shows in the report as well as in the test suite.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable, Sequence

from .core.claims import Claim, Method
from .core.proof_links import ProofProgram
from .papers import PAPERS


def resolve(dotted: str) -> object:
    """The object a dotted path names (a module attribute, possibly nested); ``LookupError`` if there is none."""
    parts = dotted.split(".")
    for split in range(len(parts) - 1, 0, -1):
        module_name = ".".join(parts[:split])
        try:
            target: object = importlib.import_module(module_name)
        except ModuleNotFoundError as missing:
            if missing.name is not None and module_name.startswith(missing.name):
                continue  # a shorter prefix may be the module
            raise
        try:
            for attribute in parts[split:]:
                target = getattr(target, attribute)
        except AttributeError:
            raise LookupError(f"{dotted}: {module_name} has no {'.'.join(parts[split:])}") from None
        return target
    raise LookupError(f"{dotted}: no module of that name")


def _check_code(claim: Claim) -> list[str]:
    errors = []
    for name in claim.implements:
        if not name.startswith(("reference.", "reference_verification.")):
            errors.append(f"{claim.paper} {claim.number}: implements {name}, which is not code of this package")
            continue
        try:
            target = resolve(name)
        except LookupError as missing:
            errors.append(f"{claim.paper} {claim.number}: implements {missing}")
            continue
        if not callable(target):
            errors.append(f"{claim.paper} {claim.number}: implements {name}, which is not a function or class")
    return errors


def _check_proof(claim: Claim) -> list[str]:
    if claim.proof is None:
        if claim.method is Method.PROOF:
            return [f"{claim.paper} {claim.number}: method {claim.method.value!r} but no proof program"]
        return []
    try:
        program = resolve(claim.proof)
    except LookupError as missing:
        return [f"{claim.paper} {claim.number}: proof {missing}"]
    if not isinstance(program, ProofProgram):
        return [f"{claim.paper} {claim.number}: proof {claim.proof} is not marked as a proof program (@proves)"]
    if program.name != claim.proof:
        return [f"{claim.paper} {claim.number}: proof {claim.proof} is found as {program.name}; name it so"]
    if program.paper != claim.paper or claim.number not in program.statements:
        declared = ", ".join(f"{program.paper} {number}" for number in program.statements)
        return [f"{claim.paper} {claim.number}: proof {claim.proof} establishes {declared}, not this entry"]
    return []


def link_errors(claims: Sequence[Claim], programs: Iterable[ProofProgram[...]] = ()) -> list[str]:
    """Every broken link of ``claims``; ``programs`` are checked to have each declared statement linked back."""
    errors: list[str] = []
    for claim in claims:
        errors += _check_code(claim)
        errors += _check_proof(claim)
    linked = {(claim.paper, claim.number, claim.proof) for claim in claims}
    for program in programs:
        for number in program.statements:
            if (program.paper, number, program.name) not in linked:
                errors.append(f"{program.name} declares {program.paper} {number}, but no entry links it")
    return errors


def proof_programs() -> list[ProofProgram[...]]:
    """Every proof program of the papers (the modules under ``verification/<package>/proofs`` of each row of the
    table of papers)."""
    found: dict[str, ProofProgram[...]] = {}
    for paper in PAPERS:
        package = importlib.import_module(f"{__package__}.{paper.package}.proofs")
        for info in pkgutil.iter_modules(package.__path__, f"{package.__name__}."):
            module = importlib.import_module(info.name)
            for value in vars(module).values():
                if isinstance(value, ProofProgram) and value.function.__module__ == info.name:
                    found[value.name] = value
    return [found[name] for name in sorted(found)]
