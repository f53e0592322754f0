"""The one verdict protocol of every audit and check result: ``verdict``, ``summary()`` and ``as_json()``.

``verdict`` is ``"holds"`` (the claim or property holds), ``"fails"`` (it is refuted) or ``"inconclusive"`` (the
evidence cannot decide, for example too few samples or a certified comparison undecided at the precision
allowed). ``summary()`` says in one paragraph what was checked and found; ``as_json()`` is the JSON form, with
``verdict`` and ``summary`` among its keys.

A result decided by one computed boolean (most checks) inherits :class:`Decided`: it defines ``holds`` (a field
or a property) and ``summary()``, and gets ``verdict`` and a default ``as_json()`` from it; a result that can
also be inconclusive defines ``verdict`` itself and inherits :class:`Judged` for the default ``as_json()``. The exit
status of each verdict (the command line's, and any program's that reports a verdict to a shell) is one table
beside the protocol: :data:`EXIT_STATUS`, with :data:`EXIT_BAD_INPUT` for input that cannot be judged.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any, Literal, Protocol, get_args, runtime_checkable

#: The three verdicts, the only words a result uses to say whether something holds.
Verdict = Literal["holds", "fails", "inconclusive"]
VERDICTS: tuple[Verdict, ...] = get_args(Verdict)

#: The exit status of each verdict: the one table (the command line, the report's audit section and any script
#: that turns a verdict into a shell status use it). Input that cannot be judged is :data:`EXIT_BAD_INPUT`.
EXIT_STATUS: dict[Verdict, int] = {"holds": 0, "fails": 1, "inconclusive": 3}
EXIT_BAD_INPUT = 2


def verdict_of(holds: bool) -> Verdict:
    """The verdict of a decided boolean: "holds" or "fails".

    Args:
        holds: whether the property was established: True gives ``"holds"``, False ``"fails"``.
    """
    return "holds" if holds else "fails"


@runtime_checkable
class VerdictResult(Protocol):
    """What every audit and check result exposes."""

    @property
    def verdict(self) -> Verdict: ...

    def summary(self) -> str: ...

    def as_json(self) -> dict[str, Any]: ...


class _Summarised(Protocol):
    @property
    def verdict(self) -> Verdict: ...

    def summary(self) -> str: ...


class _DecidedByBoolean(Protocol):
    @property
    def holds(self) -> bool: ...


#: Longest summary head a result's repr shows (the whole paragraph is ``summary()``).
REPR_HEAD = 72


def short_repr(result: _Summarised) -> str:
    """``Name(verdict, first clause of the summary, ...)``: what a REPL or a test failure shows of a result, in
    one short line (the long form is ``summary()``, the full record ``as_json()``).

    Args:
        result: a result object with ``verdict`` and ``summary()``.
    """
    head = result.summary().split("; ")[0].split("\n")[0]
    if len(head) > REPR_HEAD:
        head = head[: REPR_HEAD - 1].rstrip() + "…"
    return f"{type(result).__name__}({result.verdict}, {head}, ...)"


class ShortRepr:
    """Gives every subclass :func:`short_repr` as its ``repr`` — also a dataclass, whose generated ``__repr__``
    (a screenful of raw fractions) is not installed over a ``__repr__`` the class already has."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "__repr__" not in cls.__dict__:
            cls.__repr__ = short_repr  # type: ignore[assignment,method-assign]


class Judged(ShortRepr):
    """A result that defines ``verdict`` and ``summary()``; gives it the default ``as_json()`` and the short
    ``repr`` (:func:`short_repr`)."""

    def as_json(self: _Summarised) -> dict[str, Any]:
        """Verdict, summary and every field with a JSON form (exact rationals as "p/q")."""
        result: dict[str, Any] = {"verdict": self.verdict, "summary": self.summary()}
        if dataclasses.is_dataclass(self):
            for field in dataclasses.fields(self):
                value = json_value(getattr(self, field.name))
                if value is not _NO_JSON:
                    result.setdefault(field.name, value)
        return result


class Decided(Judged):
    """A result decided by one computed boolean ``holds`` (a field or a property of the subclass)."""

    @property
    def verdict(self: _DecidedByBoolean) -> Verdict:
        """"holds" when ``holds``, else "fails"."""
        return verdict_of(self.holds)


_NO_JSON = object()


def json_value(value: Any) -> Any:
    """The JSON form of a result field, or ``_NO_JSON`` when it has none (an array, a function, ...).

    Args:
        value: a result field's value of any type: None, a bool, int, float or str (kept), a NumPy scalar, a Fraction
            (as ``"p/q"``), a tuple or list of such values, an object with ``as_json()`` or a dataclass (each field
            converted).
    """
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if type(value).__module__ == "numpy" and getattr(value, "ndim", None) == 0:
        return value.item()  # a NumPy scalar (a statistic, a count)
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    if isinstance(value, (tuple, list)):
        items = [json_value(item) for item in value]
        return _NO_JSON if any(item is _NO_JSON for item in items) else items
    as_json = getattr(value, "as_json", None)
    if callable(as_json):
        try:
            return as_json()
        except TypeError:  # an as_json that needs arguments
            return _NO_JSON
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {field.name: json_value(getattr(value, field.name)) for field in dataclasses.fields(value)}
        return {name: item for name, item in fields.items() if item is not _NO_JSON}
    return _NO_JSON
