"""Proof programs as named objects: which paper statements a program establishes, and which programs ran.

A proof program is a function returning a :class:`~reference_verification.core.proof.ProofRecord`. Decorating it with
:func:`proves` states, in code, the paper and the registry entries (statement numbers) it establishes, so that a
registry entry can name its proof by dotted path and a test can check that the two agree.

While a claim's check runs, :func:`programs_run` collects the name of every decorated program that was called,
directly or through a helper. The registry uses it to refuse "proved" for an entry whose named program did not
run: a status "proof for all parameters" comes from a proof program, never from a finite loop beside it.

A program also registers its *mutations* (:class:`Mutation`): false variants of its statement (a wrong constant,
a dropped hypothesis, a wrong digit window), each given as keyword arguments of the program. A test runs every
mutation of every program and requires a :class:`~reference_verification.core.proof.ProofFailure`: a program
that still "proves" a false statement proves nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Generic, ParamSpec

from .proof import ProofRecord

P = ParamSpec("P")

#: The programs called inside the innermost :func:`programs_run` block (``None`` outside any block).
_RUN: ContextVar[list[str] | None] = ContextVar("programs_run", default=None)


@dataclass(frozen=True)
class Mutation:
    """A false variant of a program's statement: calling the program with ``arguments`` must fail."""

    name: str
    arguments: tuple[tuple[str, Any], ...]

    @property
    def keywords(self) -> dict[str, Any]:
        return dict(self.arguments)


def mutation(name: str, **arguments: Any) -> Mutation:
    """A false variant: ``name`` says what is wrong, ``arguments`` are the program's keywords that make it so."""
    if not arguments:
        raise ValueError(f"mutation {name!r}: give the program's keywords that make the statement false")
    return Mutation(name, tuple(sorted(arguments.items())))


@dataclass(frozen=True)
class ProofProgram(Generic[P]):
    """A proof program with the paper and statement numbers it establishes; calling it runs the program."""

    function: Callable[P, ProofRecord]
    paper: str
    statements: tuple[str, ...]
    #: False variants of the statement; each must make the program fail (the mutation test runs them).
    mutations: tuple[Mutation, ...] = ()

    @property
    def name(self) -> str:
        """The dotted path under which the program is found (module and function name)."""
        return f"{self.function.__module__}.{self.function.__qualname__}"

    @property
    def __doc__(self) -> str | None:  # type: ignore[override]
        return self.function.__doc__

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> ProofRecord:
        ran = _RUN.get()
        if ran is not None:
            ran.append(self.name)
        record = self.function(*args, **kwargs)
        record.program = record.program or self.name  # a program that returns another's record keeps that name
        return record


def proves(
    paper: str, *statements: str, mutations: tuple[Mutation, ...] = ()
) -> Callable[[Callable[P, ProofRecord]], ProofProgram[P]]:
    """Mark a function as the proof program of ``statements`` (registry numbers) of ``paper``; ``mutations`` are
    the false variants of its statement that must make it fail."""
    if not statements:
        raise ValueError("proves: name at least one statement the program establishes")

    def mark(function: Callable[P, ProofRecord]) -> ProofProgram[P]:
        return ProofProgram(function, paper, tuple(statements), tuple(mutations))

    return mark


@contextmanager
def programs_run() -> Iterator[list[str]]:
    """Collect the names of the proof programs called inside the block (nested blocks collect separately)."""
    ran: list[str] = []
    token = _RUN.set(ran)
    try:
        yield ran
    finally:
        _RUN.reset(token)
