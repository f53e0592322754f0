"""Participation schemes: which inputs (time steps, records) one user may touch, and the exact sensitivity under
each.

A user's records are added or removed together, so a neighbouring difference is ``v = ±1_S`` for a *pattern*
``S`` of inputs the scheme allows:

* :func:`any_records` — any ``records`` distinct inputs (``|S| <= m``);
* :func:`once_per_block` — at most one input in each block of ``block`` consecutive steps (restarted trees,
  epochs: "once per tree");
* :func:`min_separation` — at most ``times`` inputs, any two at least ``separation`` steps apart (multi-epoch
  DP-FTRL's min-separation);
* :func:`fixed_epoch` — inputs exactly ``separation`` steps apart, at most ``times`` of them (DP-FTRL with a
  fixed data order: one participation per epoch of ``separation`` steps). As a family it holds every subset of
  the chains ``t0, t0 + b, ..., t0 + (k - 1) b``: all elements congruent modulo b, spanning at most (k - 1) b.

Every family is closed under subsets, so a participation contributing 0 is covered. What one participation
contributes is the scheme's *contribution model* (:data:`Contribution`, :mod:`reference.audit.linear.contribution`):
``counts`` (a value in [0, 1]: counting, histograms; the difference is 1_S), ``signed`` (a value in [-1, 1]) or
``vector`` (a vector of l2 norm at most 1: DP-FTRL's clipped gradients).

The maximum of a sensitivity over a scheme's patterns is computed in
:mod:`~reference.audit.linear.pattern_walk` (enumeration) and :mod:`~reference.audit.linear.pattern_maxima`
(dynamic programmes, certified bounds, the two maxima).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from reference.core.options import check_choice
from reference.core.validate import check_positive_int

SchemeKind = Literal["any", "once-per-block", "min-separation", "fixed-epoch"]
#: What one participation contributes: a value in [0, 1], a value in [-1, 1], or a vector of l2 norm at most 1.
Contribution = Literal["counts", "signed", "vector"]
CONTRIBUTIONS: tuple[Contribution, ...] = ("counts", "signed", "vector")


@dataclass(frozen=True)
class Participation:
    """A participation scheme (build it with :func:`any_records`, :func:`once_per_block`, :func:`min_separation`
    or :func:`fixed_epoch`); ``contribution`` is the contribution model, None when not named (the audit then
    refuses a workload on which the models differ)."""

    kind: SchemeKind
    records: int  # any: m; min-separation, fixed-epoch: the most participations k; once-per-block: unused (0)
    spacing: int  # once-per-block: the block length b; min-separation, fixed-epoch: the separation b; any: 1
    contribution: Contribution | None = None

    def describe(self) -> str:
        if self.kind == "any":
            text = f"any {self.records} distinct inputs"
        elif self.kind == "once-per-block":
            text = f"at most once per block of {self.spacing} steps"
        elif self.kind == "fixed-epoch":
            text = f"at most {self.records} times, exactly {self.spacing} steps apart (fixed epochs)"
        else:
            text = f"at most {self.records} times, at least {self.spacing} steps apart"
        return text if self.contribution is None else f"{text}, {self.contribution} contributions"

    def most_inputs(self, inputs: int) -> int:
        """The largest pattern size over ``inputs`` steps.

        Args:
            inputs: the number of inputs (steps) n, a non-negative integer.
        """
        if self.kind == "any":
            return min(self.records, inputs)
        if self.kind == "once-per-block":
            return -(-inputs // self.spacing)
        return min(self.records, -(-inputs // self.spacing))

    def table_gap(self, inputs: int) -> int:
        """The separation the pattern tables use: any separation of ``inputs`` or more allows one input per
        pattern, the same as ``inputs`` does, so the tables stay ``inputs`` long (min-separation:99999999,2 on two
        inputs built a table of 10**8 rows).

        Args:
            inputs: the number of inputs (steps) n, a non-negative integer.
        """
        return min(self.spacing, max(inputs, 1))

    def count(self, inputs: int) -> int:
        """The number of non-empty patterns over ``inputs`` steps (exact, by counting).

        Args:
            inputs: the number of inputs (steps) n, a non-negative integer.
        """
        return sum(self.sizes(inputs)[1:])

    def sizes(self, inputs: int) -> list[int]:
        """``sizes[c]``: the number of patterns of ``c`` inputs over ``inputs`` steps (exact, by counting).

        Args:
            inputs: the number of inputs (steps) n, a non-negative integer.

        Returns:
            The counts for c = 0, 1, ..., :meth:`most_inputs` (``sizes[0]`` = 1, the empty pattern).
        """
        most = self.most_inputs(inputs)
        if self.kind == "any":
            return [math.comb(inputs, size) for size in range(most + 1)]
        if self.kind == "once-per-block":
            full, rest = divmod(inputs, self.spacing)
            # the coefficients of (1 + b x)^full (1 + rest x): one input or none from each block
            return [math.comb(full, c) * self.spacing ** c + (rest * math.comb(full, c - 1) * self.spacing ** (c - 1)
                                                              if c >= 1 else 0) for c in range(most + 1)]
        if self.kind == "fixed-epoch":
            # per residue class: the subsets of a line of points whose index span is at most k - 1
            counts = [0] * (most + 1)
            counts[0] = 1
            for residue in range(min(self.spacing, inputs)):
                points = len(range(residue, inputs, self.spacing))
                for first in range(points):
                    room = min(self.records - 1, points - 1 - first)
                    for size in range(1, room + 2):
                        counts[size] += math.comb(room, size - 1)
            return counts
        # ways[t][c]: patterns over steps >= t using exactly c more inputs, the last chosen far enough before t
        gap = self.table_gap(inputs)
        ways = [[0] * (most + 1) for _ in range(inputs + gap + 1)]
        for t in range(inputs + gap, -1, -1):
            ways[t][0] = 1
            if t >= inputs:
                continue
            for c in range(1, most + 1):
                ways[t][c] = ways[t + 1][c] + ways[t + gap][c - 1]
        return ways[0]

    def allows(self, pattern: Sequence[int], step: int) -> bool:
        """May ``step`` extend the increasing ``pattern`` (``step`` after its last element)?

        Args:
            pattern: an allowed pattern, its 0-based input indices in increasing order (may be empty).
            step: the 0-based input index to add, larger than every element of ``pattern``.
        """
        if not pattern:
            return True
        if self.kind == "any":
            return len(pattern) < self.records
        if self.kind == "once-per-block":
            return step // self.spacing > pattern[-1] // self.spacing
        if self.kind == "fixed-epoch":
            offset = step - pattern[0]
            return offset % self.spacing == 0 and offset <= (self.records - 1) * self.spacing
        return len(pattern) < self.records and step - pattern[-1] >= self.spacing

    def may_share(self, first: int, second: int) -> bool:
        """May two distinct inputs lie in one pattern?

        Args:
            first: a 0-based input index.
            second: another 0-based input index (equal indices give False).
        """
        low, high = min(first, second), max(first, second)
        return low != high and self.records != 1 and self.allows((low,), high)

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "records": self.records, "spacing": self.spacing,
                "contribution": self.contribution, "describe": self.describe()}


def check_contribution(contribution: object) -> Contribution | None:
    """None or one of :data:`CONTRIBUTIONS`.

    Args:
        contribution: the contribution model a caller gave: None (not named) or one of ``"counts"``, ``"signed"``,
            ``"vector"``.

    Raises:
        ValueError: any other value.
    """
    return None if contribution is None else check_choice(contribution, "contribution", CONTRIBUTIONS)


def any_records(*, records: int, contribution: Contribution | None = None) -> Participation:
    """Any ``records`` distinct inputs.

    Args:
        records: the most inputs m one user touches, a positive integer.
        contribution: the contribution model, ``"counts"``, ``"signed"`` or ``"vector"``; None (default): not named.

    Raises:
        ValueError: ``records`` not a positive integer, or an unknown ``contribution``.
    """
    return Participation("any", check_positive_int(records, "records"), 1, check_contribution(contribution))


def once_per_block(*, block: int, contribution: Contribution | None = None) -> Participation:
    """At most one input in each block of ``block`` consecutive steps (blocks start at step 0).

    Args:
        block: the block length b in steps, a positive integer.
        contribution: the contribution model, ``"counts"``, ``"signed"`` or ``"vector"``; None (default): not named.

    Raises:
        ValueError: ``block`` not a positive integer, or an unknown ``contribution``.
    """
    return Participation("once-per-block", 0, check_positive_int(block, "block"), check_contribution(contribution))


def min_separation(*, separation: int, times: int, contribution: Contribution | None = None) -> Participation:
    """At most ``times`` inputs, any two at least ``separation`` steps apart.

    Args:
        separation: the least distance b in steps between two of a user's inputs, a positive integer.
        times: the most participations k, a positive integer.
        contribution: the contribution model, ``"counts"``, ``"signed"`` or ``"vector"``; None (default): not named.

    Raises:
        ValueError: a count not a positive integer, or an unknown ``contribution``.
    """
    return Participation("min-separation", check_positive_int(times, "times"),
                         check_positive_int(separation, "separation"), check_contribution(contribution))


def fixed_epoch(*, separation: int, times: int, contribution: Contribution | None = None) -> Participation:
    """At most ``times`` inputs, exactly ``separation`` steps apart: the steps t0, t0 + b, ..., t0 + (k - 1) b
    (b = ``separation``, k = ``times``) and their subsets, any start t0 (a fixed data order of epochs of b steps).

    Args:
        separation: the epoch length b in steps (a user's inputs are exactly multiples of b apart), a positive
            integer.
        times: the most participations k, a positive integer.
        contribution: the contribution model, ``"counts"``, ``"signed"`` or ``"vector"``; None (default): not named.

    Raises:
        ValueError: a count not a positive integer, or an unknown ``contribution``.
    """
    return Participation("fixed-epoch", check_positive_int(times, "times"),
                         check_positive_int(separation, "separation"), check_contribution(contribution))


def parse_participation(text: str, contribution: str | None = None) -> Participation:
    """The command-line form: ``any:M``, ``once-per-block:B``, ``min-separation:B,K`` or ``fixed-epoch:B,K``;
    ``contribution`` (``--contribution``) names the contribution model.

    Args:
        text: the scheme as the command line gives it, without spaces, e.g. ``"min-separation:3,2"``.
        contribution: the contribution model's name (``"counts"``, ``"signed"``, ``"vector"``), or None (default):
            not named.

    Raises:
        ValueError: text in none of the four forms, or an unknown ``contribution``.
    """
    from reference.core.validate import parse_integer_text

    if not isinstance(text, str) or any(character.isspace() for character in text):  # 'any: 2' is a typo
        raise ValueError("participation must be any:M, once-per-block:B, min-separation:B,K or fixed-epoch:B,K "
                         f"with no spaces, got {text!r}")
    model = check_contribution(contribution)

    kind, _, rest = text.partition(":")
    try:
        numbers = [parse_integer_text(part, "participation") for part in rest.split(",")] if rest else []
    except ValueError:
        numbers = []
    if kind == "any" and len(numbers) == 1:
        return any_records(records=numbers[0], contribution=model)
    if kind == "once-per-block" and len(numbers) == 1:
        return once_per_block(block=numbers[0], contribution=model)
    if kind == "min-separation" and len(numbers) == 2:
        return min_separation(separation=numbers[0], times=numbers[1], contribution=model)
    if kind == "fixed-epoch" and len(numbers) == 2:
        return fixed_epoch(separation=numbers[0], times=numbers[1], contribution=model)
    raise ValueError("participation must be any:M, once-per-block:B, min-separation:B,K or fixed-epoch:B,K, "
                     f"got {text!r}")
