"""The two errors of certified computation, apart from :mod:`reference.core.certified`: the command line catches
them around every command, and importing them from here does not load python-flint (about 40 ms of start-up) for
a command that never certifies anything. :mod:`reference.core.certified` re-exports both (the same classes)."""

from __future__ import annotations


class EnclosureRangeError(ArithmeticError, ValueError):
    """The parameters lead to a value outside the range kept exactly (beyond 2**EXPONENT_LIMIT, as e^ε at
    ε = 1e308): a refusal of those parameters (a ``ValueError``), not a defect."""


class UndecidedComparisonError(ArithmeticError):
    """A certified comparison or enclosure could not be decided within the allowed precision."""
