"""What a proof program returns, and how it fails.

A proof program establishes a statement for *all* parameter values: a base case checked exactly plus a
symbolic induction step, a symbolic sum, or a certified inequality. Each step is recorded; a step that does not
follow raises :class:`ProofFailure`, which names the step, so the statement is never reported as proved by
accident. A finite check over small parameters is *verification* and belongs in a paper's ``checks/``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import sympy as sp

#: Prefix of a recorded step that is a small exact verification beside the proof, not part of it.
SANITY = "SANITY CHECK (verification, not part of the proof): "


class ProofFailure(AssertionError):
    """A step of a proof program did not follow: the statement is not established."""


@dataclass
class ProofRecord:
    """The statement proved, the paper statement it addresses, and the steps taken."""

    paper: str
    number: str
    statement: str
    steps: list[str] = field(default_factory=list)
    #: What the program established, by name, for the programs that rest on it (:meth:`conclude`, :func:`premise`):
    #: a proof that uses another entry takes the value from that entry's record, never a typed-in copy.
    conclusions: dict[str, Any] = field(default_factory=dict)
    #: The dotted path of the proof program that produced the record (set when a ``@proves`` program returns it).
    program: str = ""

    def step(self, description: str, holds: bool) -> None:
        """Record one step; raise :class:`ProofFailure` if it does not hold."""
        if not holds:
            raise ProofFailure(f"{self.paper} {self.number}: step failed: {description}")
        self.steps.append(description)

    def conclude(self, name: str, value: Any) -> None:
        """Make ``value`` (an expression the program proved, e.g. a ``sympy.Lambda``) available as ``name``."""
        self.conclusions[name] = value


def established(record: ProofRecord, program: Any) -> bool:
    """Whether ``record`` came from ``program`` (a ``@proves`` program) and took steps: the check a proof makes
    of another entry's program that it ran, so that running some other program cannot stand in for it."""
    return bool(record.steps) and bool(record.program) and record.program == getattr(program, "name", None)


def premise(record: ProofRecord, paper: str, number: str, name: str) -> Any:
    """The conclusion ``name`` of another entry's proof record, after checking that the record is that entry's
    (paper and number) and that its program took steps; raises :class:`ProofFailure` otherwise, so a proof cannot
    rest on some other program's run or on a value nobody proved."""
    if (record.paper, record.number) != (paper, number) or not record.steps or name not in record.conclusions:
        raise ProofFailure(f"the premise {paper} {number} ({name}) is not what the program run established: it ran "
                           f"{record.paper} {record.number} with {len(record.steps)} steps and conclusions "
                           f"{sorted(record.conclusions)}")
    return record.conclusions[name]


def print_record(record: ProofRecord) -> None:
    """Print a proof's statement and numbered steps (what each program does when run as a script)."""
    print(f"{record.paper} {record.number}: {record.statement}")
    for number, description in enumerate(record.steps, 1):
        print(f"  {number}. {description}")


def is_zero(expr: Any) -> bool:
    """Exact symbolic zero test (``simplify``), as a Python bool."""
    return bool(sp.simplify(expr) == 0)


def _shifted(expr: Any, lower_bounds: dict[Any, int]) -> tuple[Any, list[Any]]:
    """``expr`` with each symbol written as its lower bound + u (u >= 0), and the u's."""
    shifts = {symbol: sp.Symbol(f"u_{symbol}", nonnegative=True) for symbol in lower_bounds}
    return sp.sympify(expr).subs({s: lower_bounds[s] + u for s, u in shifts.items()}), list(shifts.values())


def nonnegative_polynomial(expr: Any, lower_bounds: dict[Any, int]) -> bool:
    """A sufficient test that ``expr`` >= 0 wherever each symbol is >= its lower bound: after substituting
    symbol = bound + u (u >= 0), ``expr`` is a polynomial in the u's with no negative coefficient. False when it
    is not a polynomial there or has a negative coefficient (the inequality is then not established)."""
    shifted, variables = _shifted(expr, lower_bounds)
    shifted = sp.expand(shifted)
    if shifted.free_symbols - set(variables):
        return False
    if not shifted.free_symbols:
        return bool(shifted >= 0)
    if not shifted.is_polynomial(*variables):
        return False
    return all(coefficient >= 0 for coefficient in sp.Poly(shifted, *variables).coeffs())


def positive_rational_function(expr: Any, lower_bounds: dict[Any, int]) -> bool:
    """A sufficient test that ``expr`` > 0 wherever each symbol is >= its lower bound: after the same
    substitution, numerator and denominator (signs flipped together if need be) are polynomials in the u's with
    no negative coefficient and a positive constant term. False when that is not so (not established)."""
    shifted, variables = _shifted(expr, lower_bounds)
    numerator, denominator = sp.fraction(sp.together(sp.expand(shifted)))
    if (numerator.free_symbols | denominator.free_symbols) - set(variables):
        return False
    polys = [sp.Poly(sp.expand(numerator), *variables), sp.Poly(sp.expand(denominator), *variables)]
    origin = dict.fromkeys(variables, 0)
    if polys[1].eval(origin) < 0:
        polys = [-polys[0], -polys[1]]
    return all(all(c >= 0 for c in poly.coeffs()) and poly.eval(origin) > 0 for poly in polys)
