"""Audit a user's tree-height (layer count, digit count) function against the exact integer height.

Floating-point heights such as ``ceil(log(T + 1, arity))`` go wrong exactly where the answer changes:
``log(125, 5) == 3.0000000000000004``. :func:`check_height_function` calls the user's function at every
horizon where the exact height steps — each exact power of the arity and each capacity of the representation
(``k^h − 1``, or the offset capacity of KARY Definition 3.8 / C.1), each ± 1 — and at a seeded random sample of
horizons up to 2⁶³, and compares with :func:`reference.kary.digits.height_for_horizon` (integer arithmetic). The
first disagreement (smallest horizon) is reported, with what the function returned.

The user's function cannot speak for the check: if it raises anything (``SystemExit`` and ``KeyboardInterrupt``
included), runs past the per-call time limit or past the memory limit (:mod:`reference.core.user_code`), the
check ends with one ``ValueError`` naming the function and the horizon — never a verdict.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from reference.core.user_code import DEFAULT_MEMORY_BYTES, DEFAULT_SECONDS, UserCodeError, UserFunction, check_limits
from reference.core.verdict import ShortRepr
from reference.kary.digits import check_arity, height_for_horizon, offset_capacity

#: The largest horizon tried (the range of a signed 64-bit count).
LARGEST_HORIZON = 1 << 63
#: Random horizons tried beside the step points.
RANDOM_HORIZONS = 2000


@dataclass(frozen=True)
class HeightCheck(ShortRepr):
    """The verdict of :func:`check_height_function`: "holds" when every horizon tried agrees."""

    arity: int
    offset: bool
    horizons_checked: int
    first_horizon: int | None  # the smallest horizon where the function disagrees
    returned: str | None  # what the function returned (or raised) there
    expected: int | None  # the exact height there
    disagreements: int

    @property
    def verdict(self) -> Literal["holds", "fails"]:
        return "holds" if self.first_horizon is None else "fails"

    def summary(self) -> str:
        kind = "offset (Algorithm 2)" if self.offset else "standard (Algorithm 1)"
        if self.first_horizon is None:
            return (f"height function, arity {self.arity}, {kind} digits: holds at all {self.horizons_checked} "
                    "horizons tried (every power, capacity and their neighbours up to 2^63, and a random sample)")
        return (f"height function, arity {self.arity}, {kind} digits: fails at {self.disagreements} of "
                f"{self.horizons_checked} horizons; first at horizon {self.first_horizon}: returned "
                f"{self.returned}, the exact height is {self.expected}")

    def as_json(self) -> dict[str, Any]:
        return {"verdict": self.verdict, "summary": self.summary(), "arity": self.arity, "offset": self.offset,
                "horizons_checked": self.horizons_checked, "first_horizon": self.first_horizon,
                "returned": self.returned, "expected": self.expected, "disagreements": self.disagreements}


def _shown(value: object) -> str:
    """The returned value as text for the report (a user's object whose ``repr`` fails is named by its type)."""
    try:
        text = repr(value)
    except Exception:
        return f"a {type(value).__name__}"
    return text if len(text) <= 80 else text[:77] + "..."


def step_horizons(arity: int, offset: bool) -> list[int]:
    """Every power of the arity and every capacity, each ± 1, in [1, 2⁶³]."""
    found: set[int] = set()
    height = 1
    while True:
        power = arity**height
        capacity = offset_capacity(arity, height) if offset else power - 1
        if min(power, capacity) - 1 > LARGEST_HORIZON:
            break
        for centre in (arity ** (height - 1), power, capacity):
            found.update(value for value in (centre - 1, centre, centre + 1) if 1 <= value <= LARGEST_HORIZON)
        height += 1
    return sorted(found)


def check_height_function(
    function: Callable[[int], object], *, arity: int, offset: bool, seed: int = 0,
    call_seconds: float | None = DEFAULT_SECONDS, call_memory_bytes: int | None = DEFAULT_MEMORY_BYTES,
) -> HeightCheck:
    """Compare ``function(horizon)`` with the exact height at the step horizons and a random sample.

    Each call may take ``call_seconds`` and add ``call_memory_bytes`` of memory (``None``: no limit); a call that
    raises or passes a limit is a ``ValueError`` naming the function and the horizon (module docstring)."""
    limits = check_limits(call_seconds, call_memory_bytes, seconds_name="call_seconds",
                          memory_name="call_memory_bytes")
    k = check_arity(arity)
    if not isinstance(offset, bool):
        raise TypeError(f"offset must be True or False, got {offset!r}")
    if not callable(function):
        raise TypeError("function must be callable: horizon -> height")
    rng = random.Random(seed)
    horizons = set(step_horizons(k, offset))
    horizons.update(rng.randint(1, LARGEST_HORIZON) for _ in range(RANDOM_HORIZONS))
    ordered = sorted(horizons)
    first: tuple[int, str, int] | None = None
    wrong = 0
    with UserFunction(function, role="height function", limits=limits) as guarded:
        for horizon in ordered:
            expected = height_for_horizon(k, horizon, offset=offset)
            try:
                value = guarded(horizon)
            except UserCodeError as error:
                raise UserCodeError(f"{error} at horizon {horizon} (arity {k})") from None
            agrees = isinstance(value, int) and not isinstance(value, bool) and value == expected
            if not agrees and hasattr(value, "__index__") and not isinstance(value, bool):
                try:
                    agrees = int(value.__index__()) == expected  # numpy integers
                except Exception:  # a user's object whose __index__ fails is not a height
                    agrees = False
            if not agrees:
                wrong += 1
                if first is None:
                    first = (horizon, _shown(value), expected)
    if first is None:
        return HeightCheck(k, offset, len(ordered), None, None, None, 0)
    return HeightCheck(k, offset, len(ordered), first[0], first[1], first[2], wrong)
