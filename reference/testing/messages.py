"""The shape of every assertion message of :mod:`reference.testing`: one line that says what is wrong, then at
most a few of the offending points, one per line (a test runner shows the first line as the failure's title; a
hundred points would bury it)."""

from __future__ import annotations

from collections.abc import Sequence

#: Points listed under the first line; the rest are counted.
MAX_POINTS = 3


def points_message(head: str, points: Sequence[str], *, limit: int = MAX_POINTS) -> str:
    """``head``, then the first ``limit`` ``points`` as indented lines and a count of the others.

    Args:
        head: the message's first line: what is wrong, in one sentence.
        points: the offending points, one line of text each (all are counted; the first ``limit`` are listed).
        limit: how many points are listed (default MAX_POINTS = 3).
    """
    lines = [head, *(f"  {point}" for point in points[:limit])]
    if len(points) > limit:
        lines.append(f"  ... and {len(points) - limit} more")
    return "\n".join(lines)
