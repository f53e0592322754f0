"""What a cascade sampler audit could have seen: its power against a stated smallest deviation, and the units
line that names a variance passed as a standard deviation.

A passing sampler audit only says "no deviation was seen". Whether one *could* have been seen depends on the
runs: with 2 or 30 runs of depth-2 leaves, i.i.d. N(0, σ²) leaves (every internal node's variance 2σ² or 4σ²
instead of σ²) pass. :func:`cascade_deviation_detected` gives the smallest relative error of one node's (or
leaf's) standard deviation that the audit's chi-square test for that node detects with probability 99% — exact
chi-square quantiles, the per-test level of the audit's union bound — and :func:`cascade_runs_needed` the
fewest runs that bring it down to a stated deviation. A verdict is "inconclusive" when the audit's power does
not reach the deviation the user states.
"""

from __future__ import annotations

import math

import numpy as np

from reference.audit.samples.report import chi_square_scale_power

#: The probability with which a stated deviation must be detected before a pass counts as "holds".
DETECTION_PROBABILITY = 0.99
#: Relative closeness at which a measured variance is said to match σ⁴ (or σ) instead of σ².
UNITS_CLOSENESS = 0.1


def cascade_deviation_detected(depth: int, runs: int, alpha: float) -> float:
    """The smallest relative error r of one node's standard deviation (σ(1 + r) or σ(1 − r)) that the cascade
    audit's test for that node detects with probability :data:`DETECTION_PROBABILITY` (``inf`` below 2 runs).

    The audit spends ``alpha / 4`` on each of its node groups (leaves: ``n`` tests; internal nodes: ``n − 1``),
    so one node's test runs at level ``alpha / (4 n)`` at worst; its power is that of one two-sided
    chi-square(``runs``) variance test at that level.

    Args:
        depth: the cascade's depth, an integer >= 0 (n = 2**depth leaves).
        runs: the number of runs, an integer (below 2: ``inf``).
        alpha: the audit's false-alarm probability, in (0, 1).

    Returns:
        The relative error r of one node's σ detected with probability 99%.
    """
    if runs < 2:
        return math.inf
    leaves = 1 << depth
    return chi_square_scale_power(runs, leaves, alpha / 4, DETECTION_PROBABILITY)


def cascade_runs_needed(depth: int, deviation: float, alpha: float) -> int:
    """The fewest runs at which :func:`cascade_deviation_detected` is at most ``deviation`` (doubling, then
    bisection; the detected error decreases with the runs).

    Args:
        depth: the cascade's depth, an integer >= 0.
        deviation: the relative error of σ to detect, > 0 (e.g. ``0.02`` for 2%).
        alpha: the audit's false-alarm probability, in (0, 1).

    Returns:
        The fewest runs, an integer >= 2.

    Raises:
        ValueError: ``deviation`` is not positive, or needs more than 2^40 runs.
    """
    if not deviation > 0:
        raise ValueError(f"smallest_deviation must be > 0, got {deviation!r}")
    high = 2
    while cascade_deviation_detected(depth, high, alpha) > deviation:
        high *= 2
        if high > 1 << 40:
            raise ValueError(f"smallest_deviation {deviation!r} needs more than 2^40 runs")
    low = high // 2
    while high - low > 1:
        middle = (low + high) // 2
        if cascade_deviation_detected(depth, middle, alpha) <= deviation:
            high = middle
        else:
            low = middle
    return high


def units_line(samples: np.ndarray, variance: float) -> str:
    """One line stating the samples' mean square per coordinate against the declared variance σ², and naming
    the units error when it matches ``variance²`` ("variance ≈ σ⁴, not σ²": a variance passed as a standard
    deviation) or ``sqrt(variance)`` (the reverse), within :data:`UNITS_CLOSENESS` (not said when σ² is too
    close to 1 for the two to differ).

    Args:
        samples: the samples, any shape (every value is a coordinate; its mean square is measured in float64).
        variance: the declared variance σ² > 0 of each coordinate (a float; not σ).

    Returns:
        One line: the measured mean square against σ², or the units error it matches.
    """
    measured = float(np.mean(np.square(samples, dtype=np.float64)))
    stated = (f"measured variance {measured:.6g} per leaf against the declared σ² = {variance:.6g} "
              f"(ratio {measured / variance:.4g})")
    if not math.isfinite(measured) or measured <= 0 or abs(math.log(variance)) < 2 * UNITS_CLOSENESS:
        return stated
    if abs(measured / (variance * variance) - 1) <= UNITS_CLOSENESS:
        return (f"variance ≈ σ⁴ = {variance * variance:.6g}, not σ² = {variance:.6g} (measured {measured:.6g}): "
                "a variance passed as a standard deviation?")
    if abs(measured / math.sqrt(variance) - 1) <= UNITS_CLOSENESS:
        return (f"variance ≈ σ = {math.sqrt(variance):.6g}, not σ² = {variance:.6g} (measured {measured:.6g}): "
                "a standard deviation passed as a variance?")
    return stated
