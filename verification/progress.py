"""The clock on the report's progress lines: the time since the run started and an estimate of what is left.

The estimate assumes the tasks still to run take, on average, what the finished ones took (per task, on the
wall clock, with the workers the run has): a rough figure, said as "about". It is not shown before a tenth of the
tasks (at least two) are done, when one slow or fast task would dominate it.
"""

from __future__ import annotations


def clock(seconds: float) -> str:
    """``m:ss``, or ``h:mm:ss`` from an hour on."""
    whole = max(0, round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def elapsed_and_estimate(elapsed: float, done: int, total: int) -> str:
    """``"elapsed 0:42, about 5:10 left"`` after ``done`` of ``total`` tasks in ``elapsed`` seconds."""
    text = f"elapsed {clock(elapsed)}"
    if 0 < done < total and done >= max(2, total // 10):
        text += f", about {clock(elapsed / done * (total - done))} left"
    return text
