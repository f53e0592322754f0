"""The claims registry: every checkable statement of the papers, with a check that computes its status.

A claim's status is never written by hand. Each :class:`Claim` carries a ``check`` callable; the status shown
in the report is whatever that callable returns when it is run. Checks use the helpers :func:`proved_by`
(proof programs), :func:`exhaustive` (finite ranges, names the smallest counterexample) and friends, so that
the verdict follows from a computed boolean, not from a literal.

Each claim is linked to the code it speaks about: ``implements`` names the functions or classes (dotted paths)
that implement the statement, and ``proof`` names the proof program (a :func:`~reference_verification.core.proof_links.proves`
function) that establishes it. A claim whose method is "proof for all parameters" must name its program, and
:func:`run_claim` turns its outcome into "check crashed" unless that program ran during the check; "proved" is
refused to every other method.

Method and status must agree (:func:`_enforce_method`, and a test over the whole registry): a proof program
decides "proved" or "refuted", never "verified"; a finite method (exhaustive, statistical, certified numeric,
measured) gives "verified" or "refuted", never "proved"; "not checkable" belongs to the methods "none" and
"measured". A proof that uses other entries names them in ``depends_on``; :func:`resolve_conditions` then turns
its "proved" into "proved, conditional" while any of them is only verified (the detail lists each one with its
status), so no proof inherits a finite check's reach silently.
A claim may also name machine-checked theorems (``coq``): Coq theorems under ``proofs/coq/`` that state it.
They are evidence shown beside the computed status (the report compiles them and prints their assumptions);
they never set the status, but they decide the entry's proof level (:mod:`reference_verification.levels`) when
they state the whole entry, are closed in this run and are tied to the Python objects by a test.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TypeVar

from .proof import ProofFailure, ProofRecord
from .proof_links import programs_run

T = TypeVar("T")


class Status(Enum):
    """The computed status of a claim."""

    PROVED = "proved"
    CONDITIONAL = "proved, conditional"  # a proof that uses entries which are themselves only verified
    VERIFIED = "verified"
    REFUTED = "refuted"
    NOT_CHECKABLE = "not checkable"
    ERROR = "check crashed"


class Method(Enum):
    """How a claim is checked."""

    PROOF = "proof for all parameters"
    EXHAUSTIVE = "exhaustive up to a bound"
    STATISTICAL = "statistical"
    CERTIFIED = "certified numeric"
    MEASURED = "measured"
    NONE = "none"


@dataclass(frozen=True)
class Outcome:
    """What running a check found."""

    status: Status
    detail: str
    counterexample: str | None = None
    corrected: str | None = None


#: The label of machine-checked evidence in the report.
MACHINE_CHECKED = "machine-checked (Coq)"


@dataclass(frozen=True)
class CoqTheorem:
    """A Coq theorem that states (an instance or a strengthening of) a claim: ``name`` declared in ``file``
    (relative to ``proofs/coq/``); ``states`` says in words what the theorem proves, and how it differs from the
    paper's wording."""

    file: str
    name: str
    states: str
    #: True when the entry's whole theorems (this one and the entry's other ``whole`` ones) together state the
    #: entire entry, or a strengthening of it; False (the default) for an ingredient of its proof (a count, a
    #: sensitivity) that leaves a step outside Coq. Only whole theorems can make an entry machine-checked.
    whole: bool = False


@dataclass(frozen=True)
class Claim:
    """One numbered statement (or quoted constant, or algorithm listing) of a paper."""

    paper: str
    number: str
    statement: str
    method: Method
    check: Callable[[Budget], Outcome]
    note: str = ""
    #: Dotted paths of the functions or classes that implement the statement (resolved by the link test).
    implements: tuple[str, ...] = ()
    #: Dotted path of the proof program that establishes the statement; required for method PROOF.
    proof: str | None = None
    #: Registry keys ("PAPER number") of the entries the proof uses; "proved" becomes "proved, conditional"
    #: while any of them is not proved (:func:`resolve_conditions`). Every other entry whose proof program the
    #: check runs must be here or below one of these (else the check is "check crashed", naming it).
    depends_on: tuple[str, ...] = ()
    #: Results of other papers the proof rests on and that nothing here checks ("CKS 2020, Theorem 14: ..."):
    #: "proved" becomes "proved, conditional" on them, named in the detail.
    cites: tuple[str, ...] = ()
    #: Machine-checked theorems stating the claim (evidence beside the status, see :data:`MACHINE_CHECKED`).
    coq: tuple[CoqTheorem, ...] = ()

    def __post_init__(self) -> None:
        if not self.implements and self.method is not Method.NONE:
            raise ValueError(f"{self.paper} {self.number}: name the code that implements the statement (implements=)")
        if self.method is Method.PROOF and self.proof is None:
            raise ValueError(f"{self.paper} {self.number}: method {self.method.value!r} needs its proof program (proof=)")
        if (self.depends_on or self.cites) and self.method is not Method.PROOF:
            raise ValueError(f"{self.paper} {self.number}: only a proof rests on other entries or cited results "
                             "(depends_on=, cites=)")

    @property
    def key(self) -> str:
        """The registry key, "PAPER number"."""
        return f"{self.paper} {self.number}"


@dataclass(frozen=True)
class Budget:
    """How much work a check may do: ``quick`` for the test suite, ``full`` for the report."""

    quick: bool = False

    def pick(self, quick: T, full: T) -> T:
        """Choose a parameter by budget."""
        return quick if self.quick else full


@dataclass
class Result:
    """A claim with its computed outcome and the time the check took."""

    claim: Claim
    outcome: Outcome
    seconds: float
    #: The proof programs (dotted paths) the check ran, its own included (:func:`programs_run`).
    programs: tuple[str, ...] = ()


def run_claim(claim: Claim, budget: Budget) -> Result:
    """Run one check. A crash is reported as ``ERROR`` with the exception, never as a verdict."""
    start = time.perf_counter()
    with programs_run() as ran:
        try:
            outcome = claim.check(budget)
        except Exception as exc:  # a crashing check must not take the report down, nor pass silently
            last = traceback.format_exception_only(type(exc), exc)[-1].strip()
            outcome = Outcome(Status.ERROR, f"the check raised {last}")
    return Result(claim, _enforce_method(claim, outcome, ran), time.perf_counter() - start,
                  tuple(dict.fromkeys(ran)))


#: The statuses each method can give (besides "check crashed").
ALLOWED_STATUSES: dict[Method, frozenset[Status]] = {
    Method.PROOF: frozenset({Status.PROVED, Status.CONDITIONAL, Status.REFUTED}),
    Method.EXHAUSTIVE: frozenset({Status.VERIFIED, Status.REFUTED}),
    Method.STATISTICAL: frozenset({Status.VERIFIED, Status.REFUTED}),
    Method.CERTIFIED: frozenset({Status.VERIFIED, Status.REFUTED}),
    Method.MEASURED: frozenset({Status.VERIFIED, Status.REFUTED, Status.NOT_CHECKABLE}),
    Method.NONE: frozenset({Status.NOT_CHECKABLE}),
}


def _enforce_method(claim: Claim, outcome: Outcome, ran: Sequence[str]) -> Outcome:
    """Refuse a status the claim's method cannot give: "proved" needs the named proof program to have run, a
    proof never returns "verified", a finite method never "proved" (:data:`ALLOWED_STATUSES`)."""
    if outcome.status is Status.ERROR:
        return outcome
    if outcome.status is Status.CONDITIONAL:
        return Outcome(Status.ERROR, "a check returned 'proved, conditional': only resolve_conditions gives it")
    if outcome.status not in ALLOWED_STATUSES[claim.method]:
        return Outcome(
            Status.ERROR, f"the check returned {outcome.status.value!r} but the method is {claim.method.value!r}"
        )
    if claim.method is Method.PROOF and claim.proof not in ran:
        programs = ", ".join(ran) or "none"
        return Outcome(
            Status.ERROR,
            f"the method is {claim.method.value!r} but its program {claim.proof} did not run (ran: {programs})",
        )
    return outcome


def resolve_conditions(results: Sequence[Result]) -> list[Result]:
    """Turn "proved" into "proved, conditional" where an entry in ``depends_on`` is not proved, or the proof rests
    on a cited result (``cites``); turn an entry whose check ran another entry's proof program without declaring
    it (:func:`undeclared_programs`) into "check crashed", naming that entry.

    Conditions propagate: a proof resting on a conditional proof is conditional on the same verified entries,
    which the detail lists (each with its method). A dependency that is refuted, crashed, not checkable or
    missing makes the entry "check crashed" with the reason: a proof from a false or unchecked premise
    establishes nothing.
    """
    by_key = {result.claim.key: result for result in results}
    resolved: dict[str, tuple[Result, tuple[str, ...]]] = {}
    undeclared = undeclared_programs(results)

    def resolve(key: str, trail: tuple[str, ...]) -> tuple[Result, tuple[str, ...]]:
        if key in resolved:
            return resolved[key]
        result = by_key[key]
        outcome = result.outcome
        roots: tuple[str, ...] = ()
        if undeclared.get(key) and outcome.status is not Status.ERROR:
            outcome = Outcome(Status.ERROR, f"the check ran the proof program of {', '.join(undeclared[key])}, "
                              "which the entry does not declare among the entries it rests on (depends_on)")
        if outcome.status is Status.PROVED and (result.claim.depends_on or result.claim.cites):
            weak: list[str] = [f"the cited {cited}" for cited in result.claim.cites]
            for needed in result.claim.depends_on:
                if needed not in by_key or needed in trail:
                    why = "is not in the registry" if needed not in by_key else "depends on this entry (a cycle)"
                    outcome = Outcome(Status.ERROR, f"the proof uses {needed}, which {why}")
                    break
                basis, below = resolve(needed, (*trail, key))
                if basis.outcome.status in (Status.REFUTED, Status.ERROR, Status.NOT_CHECKABLE):
                    status = basis.outcome.status.value
                    outcome = Outcome(Status.ERROR, f"the proof uses {needed}, whose status is {status!r}")
                    break
                if basis.outcome.status is Status.VERIFIED:
                    weak.append(f"{needed} ({basis.claim.method.value}: verified)")
                weak.extend(below)
            else:
                roots = tuple(dict.fromkeys(weak))
                if roots:
                    outcome = Outcome(
                        Status.CONDITIONAL,
                        f"proved, conditional on {'; '.join(roots)}. {outcome.detail}",
                        outcome.counterexample,
                        outcome.corrected,
                    )
        resolved[key] = (Result(result.claim, outcome, result.seconds, result.programs), roots)
        return resolved[key]

    return [resolve(result.claim.key, ())[0] for result in results]


def rests_on(key: str, claims: dict[str, Claim]) -> set[str]:
    """Every entry ``key`` rests on: its ``depends_on``, theirs, and so on (unknown keys are kept, not followed)."""
    found: set[str] = set()
    pending = list(claims[key].depends_on) if key in claims else []
    while pending:
        needed = pending.pop()
        if needed not in found:
            found.add(needed)
            pending += list(claims[needed].depends_on) if needed in claims else []
    return found


def undeclared_programs(results: Sequence[Result]) -> dict[str, list[str]]:
    """For each proof entry, the other entries whose proof program its check ran but which it does not rest on
    (:func:`rests_on`): a proof that uses another entry's program must declare that entry, so that its level
    follows that entry's. Programs that belong to no entry of ``results`` are not counted."""
    claims = {result.claim.key: result.claim for result in results}
    owners: dict[str, set[str]] = {}  # a program may establish several entries (each names it as its proof)
    for key, claim in claims.items():
        if claim.proof:
            owners.setdefault(claim.proof, set()).add(key)
    found: dict[str, list[str]] = {}
    for result in results:
        if result.claim.method is not Method.PROOF:  # a finite check may run a program (its status is finite anyway)
            continue
        basis = rests_on(result.claim.key, claims) | {result.claim.key}
        missing = sorted(" or ".join(sorted(owners[program])) for program in set(result.programs)
                         if program in owners and program != result.claim.proof and not owners[program] & basis)
        if missing:
            found[result.claim.key] = missing
    return found


# --- helpers that turn computations into outcomes ---------------------------------------------------------


def proved_by(program: Callable[[], ProofRecord], detail: str = "") -> Outcome:
    """Run a proof program: ``PROVED`` if every step follows, ``REFUTED`` naming the failed step otherwise."""
    try:
        record = program()
    except ProofFailure as failure:
        return Outcome(Status.REFUTED, str(failure))
    steps = "; ".join(record.steps)
    return Outcome(Status.PROVED, (detail + " " if detail else "") + f"Steps: {steps}")


def exhaustive(
    cases: Iterable[T],
    holds: Callable[[T], bool],
    describe: Callable[[T], str],
    scope: str,
    corrected: str | None = None,
) -> Outcome:
    """Check ``holds`` on every case in order; the first failure is the smallest counterexample."""
    count = 0
    for case in cases:
        count += 1
        if not holds(case):
            return Outcome(
                Status.REFUTED,
                f"fails at {describe(case)} (checked in order over {scope})",
                counterexample=describe(case),
                corrected=corrected,
            )
    return Outcome(Status.VERIFIED, f"holds in all {count} cases: {scope}")


def verdict(
    holds: bool,
    *,
    scope: str,
    evidence: str,
    counterexample: str | None = None,
    corrected: str | None = None,
    method: Method = Method.EXHAUSTIVE,
) -> Outcome:
    """Turn a computed boolean into an outcome; ``method`` PROOF turns a pass into PROVED."""
    if holds:
        status = Status.PROVED if method is Method.PROOF else Status.VERIFIED
        return Outcome(status, f"{evidence} ({scope})")
    return Outcome(Status.REFUTED, f"{evidence} ({scope})", counterexample=counterexample, corrected=corrected)


def not_checkable(reason: str) -> Outcome:
    """A statement that no computation here can decide, with the reason."""
    return Outcome(Status.NOT_CHECKABLE, reason)


@dataclass
class Registry:
    """An ordered collection of claims, grouped by paper."""

    claims: list[Claim] = field(default_factory=list)

    def add(self, claim: Claim) -> None:
        """Append a claim; two claims may not share a paper and number."""
        key = (claim.paper, claim.number)
        if any((c.paper, c.number) == key for c in self.claims):
            raise ValueError(f"duplicate claim {claim.paper} {claim.number}")
        self.claims.append(claim)

    def extend(self, claims: Sequence[Claim]) -> None:
        """Append several claims."""
        for claim in claims:
            self.add(claim)
