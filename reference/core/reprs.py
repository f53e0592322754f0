"""Short reprs for result objects that are not verdicts (those get :func:`reference.core.verdict.short_repr`).

A dataclass's generated repr prints every field as Python would: ``Fraction(1, 1000000)``, a certified real's
two 50-digit endpoints, whole tuples. :class:`CompactRepr` gives a subclass one line instead: exact numbers as
``p/q``, a certified real as its outward-rounded enclosure, a long sequence as its length, and at most
:data:`MAX_REPR` characters (``...`` marks what is left out; every field stays an attribute, and ``as_json()``
where the class has it is the full record).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

#: Longest repr of a result.
MAX_REPR = 160
#: Longest text of one field's value in a repr.
MAX_FIELD = 48


def value_text(value: object) -> str:
    """One field's value, short: ``p/q`` for a Fraction, the enclosure for a certified real, a count for a long
    sequence.

    Args:
        value: anything a result object holds in a field (a Fraction, a certified real, a sequence, anything with a repr).
    """
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, (tuple, list)) and len(value) > 4:
        return f"<{len(value)} items>"
    text = repr(value)
    return text if len(text) <= MAX_FIELD else text[: MAX_FIELD - 1] + "…"


def compact_repr(result: object) -> str:
    """``Name(field=value, ...)`` for a dataclass, each value by :func:`value_text`, cut at :data:`MAX_REPR`.

    Args:
        result: anything, normally a dataclass instance (each field with ``repr=True`` is shown); a non-dataclass
            shows only its class name.
    """
    fields = [field.name for field in dataclasses.fields(result) if field.repr] if dataclasses.is_dataclass(
        result) else []
    parts = [f"{name}={value_text(getattr(result, name))}" for name in fields]
    text = f"{type(result).__name__}({', '.join(parts)})"
    if len(text) <= MAX_REPR:
        return text
    cut = text.rfind(", ", 0, MAX_REPR - 6)
    return text[:cut] + ", ...)"


class CompactRepr:
    """Gives every subclass :func:`compact_repr` as its ``repr`` (a dataclass's generated ``__repr__`` is not
    installed over one the class already has)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "__repr__" not in cls.__dict__:
            cls.__repr__ = compact_repr  # type: ignore[method-assign]
