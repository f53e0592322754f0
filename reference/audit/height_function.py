"""Audit a user's tree-height (layer count, digit count) function against the exact integer height.

Floating-point heights such as ``ceil(log(T + 1, arity))`` go wrong exactly where the answer changes:
``log(125, 5) == 3.0000000000000004``. :func:`check_height_function` calls the user's function at every
argument where the exact height steps — each exact power of the arity and each capacity of the representation
(``k^h − 1``, or the offset capacity of KARY Definition 3.8 / C.1), each ± 1 — and at a seeded random sample
(every argument when the range is small), and compares with the exact integer height. The function's argument
is either

* ``"horizon"`` T (default): the exact height is :func:`reference.kary.digits.height_for_horizon` (standard or
  offset digits); or
* ``"leaves"`` n, the number of leaves a complete k-ary tree must hold: the exact height is the smallest h with
  k^h >= n (``ceil(log_k n)`` in integers; 0 for one leaf). Standard digits of a horizon T are the leaves case
  at n = T + 1; offset digits are a horizon notion and are refused here.

The arguments run over ``[1, 2⁶³]`` or a user-given range ``(low, high)`` (real code that allocates the tree
cannot be called at 2⁶³). Every disagreement is labelled: an **over-count** (the function returns more levels
than needed: conservative, more noise than necessary), an **under-count** (fewer levels than needed: unsafe, the
tree cannot hold the stream) or an **error** (a value that is not an integer). The first of each is reported.

The user's function cannot speak for the check: if it raises anything (``SystemExit`` and ``KeyboardInterrupt``
included), runs past the per-call time limit or past the memory limit (:mod:`reference.core.user_code`), the
check ends with one ``ValueError`` naming the function and the argument — never a verdict. A returned value that
is not an integer is an **error** mismatch.
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


HeightArgument = Literal["horizon", "leaves"]
MismatchKind = Literal["over-count", "under-count", "error"]
#: A range of at most this many arguments is checked exhaustively.
EXHAUSTIVE_RANGE = 100_000


@dataclass(frozen=True)
class Mismatch:
    """One disagreement: the argument, what the function gave, the exact height and the kind."""

    argument: int
    returned: str
    expected: int
    kind: MismatchKind

    def text(self, name: str) -> str:
        """The mismatch in one phrase (kind, meaning, argument, returned and exact height).

        Args:
            name: what the argument is called in the phrase, e.g. ``"horizon"`` or ``"leaf count"``.
        """
        meaning = {"over-count": "conservative", "under-count": "unsafe", "error": "not an integer height"}[self.kind]
        return (f"{self.kind} ({meaning}) at {name} {self.argument}: returned {self.returned}, the exact height is "
                f"{self.expected}")


@dataclass(frozen=True)
class HeightCheck(ShortRepr):
    """The verdict of :func:`check_height_function`: "holds" when every argument tried agrees."""

    arity: int
    offset: bool
    horizons_checked: int
    first_horizon: int | None  # the smallest argument where the function disagrees
    returned: str | None  # what the function returned (or raised) there
    expected: int | None  # the exact height there
    disagreements: int
    argument: HeightArgument = "horizon"
    low: int = 1
    high: int = 1 << 63
    #: the first mismatch of each kind found (smallest argument first)
    mismatches: tuple[Mismatch, ...] = ()
    #: how many mismatches of each kind
    counts: tuple[tuple[MismatchKind, int], ...] = ()

    @property
    def verdict(self) -> Literal["holds", "fails"]:
        return "holds" if self.first_horizon is None else "fails"

    def summary(self) -> str:
        kind = ("leaf-count" if self.argument == "leaves" else
                "offset (Algorithm 2) digits" if self.offset else "standard (Algorithm 1) digits")
        name = "leaves" if self.argument == "leaves" else "horizons"
        where = f"in [{self.low}, {self.high}]" if (self.low, self.high) != (1, LARGEST_HORIZON) else "up to 2^63"
        if self.first_horizon is None:
            return (f"height function, arity {self.arity}, {kind}: holds at all {self.horizons_checked} {name} tried "
                    f"{where} (every power, capacity and their neighbours, and a random sample or every one)")
        label = "leaf count" if self.argument == "leaves" else "horizon"
        counted = ", ".join(f"{count} {kind_name}" for kind_name, count in self.counts)
        first = "; ".join(mismatch.text(label) for mismatch in self.mismatches)
        return (f"height function, arity {self.arity}, {kind}: fails at {self.disagreements} of "
                f"{self.horizons_checked} {name} tried {where} ({counted}); first at {label} {self.first_horizon}: "
                f"returned {self.returned}, the exact height is {self.expected}; first of each kind: {first}")

    def as_json(self) -> dict[str, Any]:
        return {"verdict": self.verdict, "summary": self.summary(), "arity": self.arity, "offset": self.offset,
                "argument": self.argument, "low": self.low, "high": self.high,
                "horizons_checked": self.horizons_checked, "first_horizon": self.first_horizon,
                "returned": self.returned, "expected": self.expected, "disagreements": self.disagreements,
                "mismatches": [{"argument": m.argument, "returned": m.returned, "expected": m.expected,
                                "kind": m.kind} for m in self.mismatches],
                "counts": dict(self.counts)}


def _shown(value: object) -> str:
    """The returned value as text for the report (a user's object whose ``repr`` fails is named by its type)."""
    try:
        text = repr(value)
    except Exception:
        return f"a {type(value).__name__}"
    return text if len(text) <= 80 else text[:77] + "..."


def step_horizons(arity: int, offset: bool, high: int = LARGEST_HORIZON) -> list[int]:
    """Every power of the arity and every capacity, each ± 1, in [1, ``high``].

    Args:
        arity: the tree's arity k >= 2.
        offset: True for the offset digits' capacities (KARY Definition 3.8 / C.1), False for the standard
            capacities k^h − 1.
        high: the largest argument returned (default 2⁶³).

    Returns:
        The step points, ascending.
    """
    found: set[int] = set()
    height = 1
    while True:
        power = arity**height
        capacity = offset_capacity(arity, height) if offset else power - 1
        if min(power, capacity) - 1 > high:
            break
        for centre in (arity ** (height - 1), power, capacity):
            found.update(value for value in (centre - 1, centre, centre + 1) if 1 <= value <= high)
        height += 1
    return sorted(found)


def leaves_height(arity: int, leaves: int) -> int:
    """The smallest h >= 0 with arity^h >= leaves (integers only).

    Args:
        arity: the tree's arity k >= 2.
        leaves: the number of leaves n >= 1 the complete tree must hold.
    """
    height, capacity = 0, 1
    while capacity < leaves:
        height, capacity = height + 1, capacity * arity
    return height


def _range(horizons: tuple[int, int] | None) -> tuple[int, int]:
    if horizons is None:
        return 1, LARGEST_HORIZON
    if isinstance(horizons, (str, bytes)) or not hasattr(horizons, "__len__") or len(horizons) != 2:
        raise ValueError(f"horizons must be a pair (low, high), got {horizons!r}")
    low, high = horizons
    for value in (low, high):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"horizons must hold integers, got {value!r}")
    if not 1 <= low <= high <= LARGEST_HORIZON:
        raise ValueError(f"horizons must satisfy 1 <= low <= high <= 2^63, got ({low}, {high})")
    return low, high


def _kind(value: object, expected: int) -> MismatchKind | None:
    """None when ``value`` is the exact height; else how it differs."""
    if isinstance(value, bool):
        return "error"
    if not isinstance(value, int):
        if not hasattr(value, "__index__"):
            return "error"
        value = int(value.__index__())  # numpy integers
    if value == expected:
        return None
    return "over-count" if value > expected else "under-count"


def check_height_function(
    function: Callable[[int], object],
    *,
    arity: int,
    offset: bool = False,
    seed: int = 0,
    argument: HeightArgument = "horizon",
    horizons: tuple[int, int] | None = None,
    call_seconds: float | None = DEFAULT_SECONDS,
    call_memory_bytes: int | None = DEFAULT_MEMORY_BYTES,
) -> HeightCheck:
    """Compare ``function(argument)`` with the exact height at the step points and a random sample (or at every
    argument of a range of at most :data:`EXHAUSTIVE_RANGE`); ``argument`` is ``"horizon"`` or ``"leaves"``,
    ``horizons`` the range ``(low, high)`` of arguments (default ``(1, 2^63)``).

    Each call may take ``call_seconds`` and add ``call_memory_bytes`` of memory (``None``: no limit); a call that
    raises or passes a limit is a ``ValueError`` naming the function and the argument (module docstring).

    Args:
        function: the user's height function, called with one ``int`` (a horizon T or a leaf count n) and
            expected to return the integer height (a NumPy integer counts; anything else is an **error**).
        arity: the tree's arity k >= 2.
        offset: True to compare with the height of offset digits (KARY Definition 3.8 / C.1, Algorithm 2), False
            (default) with standard digits; only with ``argument="horizon"``.
        seed: seed of the random sample of arguments (unused when the range is checked exhaustively).
        argument: what the function takes: ``"horizon"`` (default) T or ``"leaves"`` n.
        horizons: the range ``(low, high)`` of arguments, integers with 1 <= low <= high <= 2⁶³; None (default):
            ``(1, 2⁶³)``.
        call_seconds: the wall-clock seconds each call may take, in (0, 86400] (default 60); None: no limit.
        call_memory_bytes: the address space each call may add, in bytes, at least 2**20 (default 4 GiB); None: no
            limit.

    Returns:
        The :class:`HeightCheck`: "holds" when every argument tried agrees, else "fails" with the first mismatch
        of each kind.

    Raises:
        ValueError: bad ``arity``, ``argument``, ``horizons`` or limits, offset digits with ``argument="leaves"``,
            or the function raised or passed a limit (one line naming it and the argument).
        TypeError: ``function`` not callable, ``offset`` not a bool, or ``horizons`` not integers.
    """
    limits = check_limits(call_seconds, call_memory_bytes, seconds_name="call_seconds",
                          memory_name="call_memory_bytes")
    k = check_arity(arity)
    if not isinstance(offset, bool):
        raise TypeError(f"offset must be True or False, got {offset!r}")
    if argument not in ("horizon", "leaves"):
        raise ValueError(f"argument must be 'horizon' or 'leaves', got {argument!r}")
    if argument == "leaves" and offset:
        raise ValueError("offset digits are a horizon notion: give argument='horizon' with offset=True")
    if not callable(function):
        raise TypeError("function must be callable: horizon (or leaves) -> height")
    low, high = _range(horizons)
    if high - low < EXHAUSTIVE_RANGE:
        ordered = list(range(low, high + 1))
    else:
        rng = random.Random(seed)
        points = {value for value in step_horizons(k, offset, high) if value >= low}
        points.update(rng.randint(low, high) for _ in range(RANDOM_HORIZONS))
        points.update((low, high))
        ordered = sorted(points)
    first: dict[MismatchKind, Mismatch] = {}
    counts: dict[MismatchKind, int] = {}
    earliest: Mismatch | None = None
    with UserFunction(function, role="height function", limits=limits) as guarded:
        for value in ordered:
            expected = leaves_height(k, value) if argument == "leaves" else height_for_horizon(k, value, offset=offset)
            try:
                returned = guarded(value)
            except UserCodeError as error:
                raise UserCodeError(f"{error} at {argument} {value} (arity {k})") from None
            try:
                kind = _kind(returned, expected)
            except Exception:  # a user's object whose __index__ fails is not a height
                kind = "error"
            if kind is None:
                continue
            counts[kind] = counts.get(kind, 0) + 1
            found = Mismatch(value, _shown(returned), expected, kind)
            first.setdefault(kind, found)
            earliest = earliest or found
    wrong = sum(counts.values())
    mismatches = tuple(sorted(first.values(), key=lambda mismatch: mismatch.argument))
    return HeightCheck(k, offset, len(ordered), None if earliest is None else earliest.argument,
                       None if earliest is None else earliest.returned, None if earliest is None else earliest.expected,
                       wrong, argument, low, high, mismatches, tuple(sorted(counts.items())))
