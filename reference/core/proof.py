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

    def step(self, description: str, holds: bool) -> None:
        """Record one step; raise :class:`ProofFailure` if it does not hold."""
        if not holds:
            raise ProofFailure(f"{self.paper} {self.number}: step failed: {description}")
        self.steps.append(description)


def print_record(record: ProofRecord) -> None:
    """Print a proof's statement and numbered steps (what each program does when run as a script)."""
    print(f"{record.paper} {record.number}: {record.statement}")
    for number, description in enumerate(record.steps, 1):
        print(f"  {number}. {description}")


def is_zero(expr: Any) -> bool:
    """Exact symbolic zero test (``simplify``), as a Python bool."""
    return bool(sp.simplify(expr) == 0)
