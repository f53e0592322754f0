"""Proof levels: how far the evidence for each registry entry reaches, computed from what this run found.

An entry's status says what its own check found (proved, verified, refuted, ...); its *level* says what the
strongest evidence the entry has establishes, so that "proved" means one thing in the report:

* **machine-checked** — Coq theorems that together state the whole entry (``CoqTheorem.whole``) are closed in
  this run (compiled, ``Print Assumptions`` closed) and each is tied to the Python objects by a test: a test under
  ``tests/coq/`` that has Coq compute the theorem file's definitions and compares them with the ``reference``
  functions (found by reading the tests, :func:`tied_coq_files`);
* **proof program** — the entry's proof program ran and every step is a computed check (no literal, no
  tautology: the mutation test shows each program fails on its registered false variants), and every entry the
  proof uses is itself at the level proof program or machine-checked, and it cites no result of another paper;
* **proved, conditional** — a proof program as above that rests on an entry below those two levels (verified,
  or itself conditional) or on a cited result that nothing here checks (``Claim.cites``): the detail names each;
* **verified** — finite evidence: exhaustive up to a bound, statistical, certified numeric, measured;
* **refuted**, **not checkable** — as the status says; **check crashed** is not a level but is counted apart.

Nothing here is typed by hand: the level follows from the computed status, the Coq verdicts of this run and the
tests in the checkout. When Coq is not compiled in this run the level does not claim "machine-checked"; the
detail says which theorems would have raised it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from .coq import proofs_directory
from .core.claims import CoqTheorem, Result, Status


class Level(Enum):
    """How far an entry's strongest evidence reaches (strongest first)."""

    MACHINE_CHECKED = "machine-checked"
    PROOF_PROGRAM = "proof program"
    CONDITIONAL = "proved, conditional"
    VERIFIED = "verified"
    REFUTED = "refuted"
    NOT_CHECKABLE = "not checkable"
    ERROR = "check crashed"


LEVEL_ORDER = list(Level)
#: The levels that establish an entry for every parameter value.
FOR_ALL = frozenset({Level.MACHINE_CHECKED, Level.PROOF_PROGRAM})


@dataclass(frozen=True)
class Placed:
    """An entry's level and why."""

    level: Level
    detail: str


#: A Coq snippet's import line in a test: ``From Reference Require Import KaryDigits KarySums.``
_REQUIRE = re.compile(r"From\s+Reference\s+Require\s+Import\s+([A-Za-z0-9_ ]+)\.")
#: A test file that compares with the Python exact layer imports it.
_PYTHON_OBJECTS = re.compile(r"^\s*(from|import)\s+reference\.", re.MULTILINE)


def tests_directory() -> Path | None:
    """``tests/coq`` of the checkout the Coq sources are read from (``None`` outside a checkout)."""
    proofs = proofs_directory()
    if proofs is None:
        return None
    candidate = proofs.parent.parent / "tests" / "coq"
    if candidate.is_dir():
        return candidate
    # an installed report run from a source checkout (the README's main job, `reference report`): that
    # checkout's tests tie the installed Coq sources when its proofs/coq holds the very same files
    checkout = Path.cwd()
    candidate = checkout / "tests" / "coq"
    if candidate.is_dir() and same_sources(proofs, checkout / "proofs" / "coq"):
        return candidate
    return None


def same_sources(first: Path, second: Path) -> bool:
    """Whether two folders hold the same Coq development: the same ``.v`` files and ``_CoqProject``, byte for byte."""
    if not second.is_dir():
        return False
    names = sorted(path.name for path in first.iterdir() if path.suffix == ".v" or path.name == "_CoqProject")
    other = sorted(path.name for path in second.iterdir() if path.suffix == ".v" or path.name == "_CoqProject")
    return bool(names) and names == other and all(
        (first / name).read_bytes() == (second / name).read_bytes() for name in names)


def tied_coq_files(directory: Path | None = None) -> frozenset[str] | None:
    """The Coq files (``Name.v``) whose definitions a test evaluates and compares with the ``reference``
    functions: a test module under ``tests/coq`` that imports ``reference.…`` and has Coq ``Require`` the file.
    ``None`` when the tests are not in this checkout (then no entry is tied)."""
    folder = directory or tests_directory()
    if folder is None:
        return None
    tied: set[str] = set()
    for test in sorted(folder.glob("test_*.py")):
        text = test.read_text(encoding="utf-8")
        if not _PYTHON_OBJECTS.search(text):
            continue
        for modules in _REQUIRE.findall(text):
            tied.update(f"{module}.v" for module in modules.split())
    return frozenset(tied)


def proof_levels(
    results: Sequence[Result],
    coq_verdicts: Mapping[CoqTheorem, str] | None = None,
    tied: frozenset[str] | None = None,
) -> dict[str, Placed]:
    """Each entry's level (by registry key). ``coq_verdicts``: this run's verdict on each registered theorem
    ("closed", "not compiled here", ...; missing: not checked); ``tied``: :func:`tied_coq_files`."""
    verdicts = dict(coq_verdicts or {})
    by_key = {result.claim.key: result for result in results}
    placed: dict[str, Placed] = {}

    def place(key: str, trail: tuple[str, ...]) -> Placed:
        if key in placed:
            return placed[key]
        result = by_key[key]
        status = result.outcome.status
        simple = {Status.ERROR: Level.ERROR, Status.REFUTED: Level.REFUTED, Status.NOT_CHECKABLE: Level.NOT_CHECKABLE}
        if status in simple:
            found = Placed(simple[status], f"the check's status is {status.value!r}")
        else:
            found = _coq_level(result, verdicts, tied) or _program_level(result, by_key, place, (*trail, key))
        placed[key] = found
        return found

    return {result.claim.key: place(result.claim.key, ()) for result in results}


def _coq_level(result: Result, verdicts: Mapping[CoqTheorem, str], tied: frozenset[str] | None) -> Placed | None:
    """Machine-checked when every whole theorem of the entry is closed and tied; ``None`` otherwise."""
    whole = [theorem for theorem in result.claim.coq if theorem.whole]
    if not whole:
        return None
    names = ", ".join(f"{theorem.name} ({theorem.file})" for theorem in whole)
    short = [theorem for theorem in whole if verdicts.get(theorem) != "closed"]
    untied = [theorem for theorem in whole if tied is None or theorem.file not in tied]
    if not short and not untied:
        return Placed(Level.MACHINE_CHECKED, f"Coq theorems closed in this run and tied to the Python objects by "
                                             f"tests/coq: {names}")
    return None


def _coq_shortfall(result: Result, verdicts: Mapping[CoqTheorem, str], tied: frozenset[str] | None) -> str:
    """Why an entry's Coq theorems did not make it machine-checked (empty when it names none)."""
    whole = [theorem for theorem in result.claim.coq if theorem.whole]
    parts = [theorem for theorem in result.claim.coq if not theorem.whole]
    notes = []
    if whole:
        short = [f"{t.name}: {verdicts.get(t, 'not checked')}" for t in whole if verdicts.get(t) != "closed"]
        untied = [t.name for t in whole if tied is None or t.file not in tied]
        if short:
            notes.append("Coq theorems stating the entry were not closed in this run (" + "; ".join(short) + ")")
        if untied:
            notes.append("not tied to the Python objects by a test under tests/coq: " + ", ".join(untied))
    if parts:
        notes.append("Coq proves an ingredient only, not the whole entry: " + ", ".join(
            f"{t.name} ({verdicts.get(t, 'not checked')})" for t in parts))
    return "; ".join(notes)


def _program_level(
    result: Result, by_key: Mapping[str, Result], place: Callable[[str, tuple[str, ...]], Placed], trail: tuple[str, ...]
) -> Placed:
    """Proof program when the entry's program proved it, every entry it uses reaches every parameter and it cites
    nothing; proved, conditional when it rests on a weaker entry or a cited result (each named)."""
    status = result.outcome.status
    if status in (Status.PROVED, Status.CONDITIONAL):
        weak = []
        for needed in result.claim.depends_on:
            if needed in trail or needed not in by_key:
                weak.append(f"{needed} (unresolved)")
                continue
            below = place(needed, trail)
            if below.level not in FOR_ALL:
                weak.append(f"{needed} ({below.level.value})")
        weak += [f"the cited {cited}" for cited in result.claim.cites]
        program = f"proof program {result.claim.proof}, every step computed"
        if not weak:
            uses = f"; it uses {', '.join(result.claim.depends_on)}, each proved" if result.claim.depends_on else ""
            return Placed(Level.PROOF_PROGRAM, f"{program}{uses}")
        return Placed(Level.CONDITIONAL, f"{program}, resting on {'; '.join(weak)}")
    return Placed(Level.VERIFIED, f"finite evidence ({result.claim.method.value})")


def describe(result: Result, found: Placed, verdicts: Mapping[CoqTheorem, str] | None,
             tied: frozenset[str] | None) -> str:
    """The level's detail, with what kept Coq evidence from raising it (if any)."""
    if found.level is Level.MACHINE_CHECKED or found.level in (Level.REFUTED, Level.ERROR, Level.NOT_CHECKABLE):
        return found.detail
    shortfall = _coq_shortfall(result, dict(verdicts or {}), tied)
    return f"{found.detail}. {shortfall}" if shortfall else found.detail


def level_counts(results: Sequence[Result], levels: Mapping[str, Placed]) -> dict[str, dict[str, int]]:
    """Per paper, how many entries sit at each level (and the total)."""
    table: dict[str, dict[str, int]] = {}
    for paper in dict.fromkeys(result.claim.paper for result in results):
        keys = [result.claim.key for result in results if result.claim.paper == paper]
        row = {level.value: sum(1 for key in keys if levels[key].level is level) for level in LEVEL_ORDER}
        row["total"] = len(keys)
        table[paper] = row
    return table
