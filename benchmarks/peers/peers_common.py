"""Shared pieces of the peer comparisons: the grids, optional imports of the peers, the 50-digit mpmath
formula they share, timing, and the Markdown table each script prints.

Every comparison follows one pattern: the project's certified value is the ground truth, checked inside the
script against an independent mpmath formula at 50 digits; each peer is run on the same grid and judged
against the certified value (unsafe = certainly on the wrong side of the truth, by the enclosure, not by a
float comparison); its time is reported as a ratio against the project's time on the same grid in the same run.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import math
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Generic, TypeVar

import mpmath

from reference.core.certified import CertifiedReal

#: Decimal digits of every mpmath cross-check.
DIGITS = 50
#: The (ε, δ) grid of the Gaussian calibration: 8 ε from 0.01 to 20 times 5 δ from 1e-3 to 1e-15, Δ = 1.
EPSILONS = tuple(Fraction(text) for text in ("1/100", "1/20", "1/10", "1/2", "1", "2", "5", "20"))
DELTAS = tuple(Fraction(1, 10**exponent) for exponent in (3, 6, 9, 12, 15))
GAUSSIAN_GRID = tuple((epsilon, delta) for epsilon in EPSILONS for delta in DELTAS)

Point = TypeVar("Point")


#: The peers this run could not import (their labels): recorded with the table, so the page says whose rows are
#: missing from it rather than keeping numbers of an earlier environment.
NOT_INSTALLED: list[str] = []


def optional_import(module: str, label: str) -> ModuleType | None:
    """The peer's module, or None after printing one line saying why it is skipped (never a traceback)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return importlib.import_module(module)
    except Exception as error:  # an ImportError, or a peer that fails while importing its own dependencies
        print(f"skip {label}: cannot import {module} ({type(error).__name__}: {error})")
        NOT_INSTALLED.append(label)
        return None


def skip(label: str, reason: str) -> None:
    """One line for a peer that has nothing to compare here."""
    print(f"skip {label}: {reason}")


# ------------------------------------------------------------------------------------------ mpmath at 50 digits


def mp_value(value: Fraction | float) -> mpmath.mpf:
    """An exact rational or float as an mpf at the current precision."""
    if isinstance(value, Fraction):
        return mpmath.mpf(value.numerator) / value.denominator
    return mpmath.mpf(value)


def mp_gaussian_delta(epsilon: mpmath.mpf, sigma: mpmath.mpf, sensitivity: mpmath.mpf) -> mpmath.mpf:
    """Balle–Wang (2018, Theorem 8) δ(ε) = Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ), in mpmath (Φ = ncdf)."""
    half, shift = sensitivity / (2 * sigma), epsilon * sigma / sensitivity
    return mpmath.ncdf(half - shift) - mpmath.exp(epsilon) * mpmath.ncdf(-half - shift)


def mp_root_in_log(function: Callable[[mpmath.mpf], mpmath.mpf], start: float = 1.0) -> mpmath.mpf:
    """The root x > 0 of a function that is positive below it and negative above it, found by
    ``mpmath.findroot`` (Anderson–Björck on a bracket in log x, found by doubling from ``start``)."""
    low = high = mpmath.mpf(start)
    while function(high) > 0:
        high *= 2
    while function(low) < 0:
        low /= 2
    log_root = mpmath.findroot(lambda u: function(mpmath.exp(u)), (mpmath.log(low), mpmath.log(high)), solver="anderson")
    return mpmath.exp(log_root)


def agrees(value: mpmath.mpf, enclosure: CertifiedReal, slack: float = 1e-30) -> bool:
    """True when the 50-digit value lies in the certified enclosure, widened by ``slack`` (relative)."""
    with mpmath.workdps(DIGITS):
        low, high = mp_value(enclosure.lower), mp_value(enclosure.upper)
        margin = slack * max(abs(low), abs(high))
        return bool(low - margin <= value <= high + margin)


# ------------------------------------------------------------------------------------------ running a peer


def timed(action: Callable[[], object]) -> tuple[object, float]:
    """The action's result and its CPU seconds (every library runs in this process: CPU time is what a loaded
    machine inflates least)."""
    start = time.process_time()
    result = action()
    return result, time.process_time() - start


@dataclass
class Run(Generic[Point]):
    """One library's values on the grid (None where it raised), the first error, and the total time."""

    library: str
    values: list[float | Fraction | None] = field(default_factory=list)
    seconds: float = 0.0
    error: str = ""


def run_on_grid(library: str, compute: Callable[[Point], float], grid: Sequence[Point]) -> Run[Point]:
    """Call ``compute`` at each grid point; time only the calls (CPU); an exception marks that point as failed."""
    run: Run[Point] = Run(library)
    for point in grid:
        start = time.process_time()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                value: float | None = float(compute(point))
        except Exception as error:  # a peer refusing a point is a result, not a crash of the comparison
            value = None
            first_line = str(error).splitlines()[0][:60] if str(error) else ""
            run.error = run.error or f"{type(error).__name__}: {first_line}"
        run.seconds += time.process_time() - start
        run.values.append(value if value is None or math.isfinite(value) else None)
    return run


def bisect_float(holds: Callable[[float], bool], low: float, high: float, relative: float = 1e-6) -> float:
    """Geometric bisection for a peer exposing only a yes/no privacy check: ``holds(high)`` is kept true,
    ``holds(low)`` false (both ends are first moved by doubling); returns the end where it holds."""
    while not holds(high):
        low, high = high, high * 2
    while holds(low):
        low, high = low / 2, low
    while high - low > relative * high:
        middle = math.sqrt(low * high)
        if holds(middle):
            high = middle
        else:
            low = middle
    return high


# ------------------------------------------------------------------------------------------ judging and the table


@dataclass(frozen=True)
class Verdict:
    """One value against the certified truth: certainly unsafe or not, its signed relative excess over the
    truth (> 0: conservative), a comparison-specific number for the note (e.g. δ(ε)/δ − 1 at an unsafe σ) and
    a comparison-specific weaker criterion (e.g. below the tight conversion, though not provably unsafe)."""

    unsafe: bool
    excess: float
    worst: float = 0.0
    flagged: bool = False


@dataclass(frozen=True)
class Row:
    library: str
    points: int
    failed: int
    unsafe: int
    largest_excess: float | None
    largest_deficit: float | None
    time_ratio: float | None
    note: str = ""


def summarise(
    run: Run[Point], judge: Callable[[int, float | Fraction], Verdict], project_seconds: float, worst_label: str = "",
    extra_note: Callable[[list[Verdict]], str] | None = None,
) -> Row:
    """Judge each value of ``run`` (by grid index) and fold the verdicts into a table row; ``worst_label``
    (e.g. "δ(ε)/δ − 1 up to") names the largest ``Verdict.worst`` over the unsafe points in the note, and
    ``extra_note`` adds what a comparison wants to say about all the verdicts."""
    verdicts = [judge(index, value) for index, value in enumerate(run.values) if value is not None]
    excesses = [v.excess for v in verdicts]
    deficits = [-v.excess for v in verdicts if v.excess < 0]
    failed = sum(value is None for value in run.values)
    worst = [v.worst for v in verdicts if v.unsafe]
    notes = [f"{worst_label} {max(worst):.2g}" if worst_label and worst else "", extra_note(verdicts) if extra_note else ""]
    note = "; ".join(text for text in notes if text)
    if failed and run.error:
        note = f"{note}; " if note else ""
        note += f"fails at {failed}: {run.error}"
    return Row(
        run.library,
        len(run.values),
        failed,
        sum(v.unsafe for v in verdicts),
        max(excesses) if excesses else None,
        max(deficits) if deficits else None,
        run.seconds / project_seconds if project_seconds > 0 and failed < len(run.values) else None,
        note,
    )


def _number(value: float | None) -> str:
    """Two significant digits; below 1e-40 the difference is mpmath's own 50-digit noise, shown as such."""
    if value is None:
        return "–"
    return "< 1e-40" if abs(value) < 1e-40 else f"{value:.2g}"


def table_lines(rows: Sequence[Row], quantity: str) -> list[str]:
    """The comparison as Markdown table lines; excess and deficit are relative."""
    lines = [f"| library | unsafe / points | largest excess ({quantity}) | largest deficit | time × project | note |",
             "|---|---|---|---|---|---|"]
    for row in rows:
        ran = row.points - row.failed
        lines.append(
            f"| {row.library} | {row.unsafe} / {ran} | {_number(row.largest_excess)} | "
            f"{_number(row.largest_deficit)} | {_number(row.time_ratio)} | {row.note} |"
        )
    return lines


def print_table(title: str, rows: Sequence[Row], quantity: str) -> list[str]:
    """Print the comparison's title and Markdown table; returns the table's lines (for ``--record``)."""
    lines = table_lines(rows, quantity)
    print(f"\n{title}\n")
    print("\n".join(lines))
    return lines


#: The distributions whose versions a recorded run names (those installed).
VERSIONED = ("dp-accounting", "opendp", "autodp", "prv-accountant", "tmlt.core", "numpy", "scipy")


def versions() -> dict[str, str]:
    """The installed versions of the peers and of numpy and scipy."""
    found = {}
    for name in VERSIONED:
        try:
            found[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return found


def record_table(key: str, title: str, table: list[str], summary: str, load_before: float) -> None:
    """Store this run's table in docs/measurements/peers.json (the page is rendered from it)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from measurement_record import record_run  # benchmarks/measurement_record.py

    record_run("peers", key, {"title": title, "table": table, "summary": summary, "versions": versions(),
                              "not_installed": sorted(set(NOT_INSTALLED))}, load_before)


def report_cross_check(what: str, disagreements: Sequence[str], points: int) -> int:
    """Print the mpmath cross-check's outcome; 0 when every point agrees, else 1 (the truth is in doubt)."""
    if disagreements:
        print(f"cross-check FAILED: {what} disagrees with mpmath at {DIGITS} digits at {len(disagreements)} points:")
        for line in disagreements:
            print(f"  {line}")
        return 1
    print(f"cross-check: {what} agrees with an independent mpmath formula at {DIGITS} digits at {points}/{points} points")
    return 0
