"""Recover a linear noise map B exactly by probing a user's function of the draws.

Two front ends: :func:`probe_noise_matrix` for a function that computes with exact rationals, and
:func:`probe_float_noise_matrix` for a float function (a user's sampler with its normal draws passed in), whose
columns are recognised as ``sqrt(p/q)`` times rationals so that a cascade's √3/2 comes back exact. Both check
linearity at a seeded random point and refuse a map that is not linear. The function is called through
:class:`reference.core.user_code.UserFunction` with its default per-call limits: whatever it raises is one
``ValueError`` naming it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from reference.audit.linear.audit import MAX_DIMENSION
from reference.core.linalg import Matrix
from reference.core.user_code import UserFunction
from reference.core.validate import check_positive_int, to_fraction


def probe_noise_matrix(
    function: Callable[[tuple[Fraction, ...]], Sequence[object]], draws: int, *, seed: int = 0
) -> Matrix:
    """Recover B from a deterministic function of the noise vector by probing the unit vectors.

    ``function`` maps a tuple of ``draws`` Fractions to the outputs' noise (exact rationals). Column j of B is
    ``function(e_j) − function(0)``; ``function(0)`` must be zero, and linearity is checked exactly at one
    seeded random rational point (``ValueError`` if the function is not linear there).

    Args:
        function: the noise map under test: takes the draws (a tuple of Fractions) and returns the outputs.
        draws: the number of draws it reads, a positive integer.
        seed: the seed of the probing draws, a non-negative integer.
    """
    count = check_positive_int(draws, "draws")
    if count > MAX_DIMENSION:
        raise ValueError(f"draws must be at most {MAX_DIMENSION}, got {count}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError("seed must be an int")

    guarded = UserFunction(function, role="function")

    def call(vector: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
        with guarded:
            values = guarded(vector)
        if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
            raise ValueError(f"function must return a sequence of numbers, got {type(values).__name__}")
        return tuple(to_fraction(value, "function output") for value in values)

    zero = call(tuple(Fraction(0) for _ in range(count)))
    if not zero:
        raise ValueError("function must return at least one output")
    if any(value != 0 for value in zero):
        raise ValueError("function is not linear: it is non-zero at the zero noise vector")
    columns = []
    for j in range(count):
        column = call(tuple(Fraction(1 if i == j else 0) for i in range(count)))
        if len(column) != len(zero):
            raise ValueError("function returned outputs of different lengths")
        columns.append(column)
    rng = random.Random(seed)
    point = tuple(Fraction(rng.randint(-1000, 1000), rng.randint(1, 97)) for _ in range(count))
    actual = call(point)
    expected = tuple(sum((columns[j][i] * point[j] for j in range(count)), Fraction(0)) for i in range(len(zero)))
    if actual != expected:
        raise ValueError("function is not linear in the noise vector (checked at a random rational point)")
    return tuple(tuple(columns[j][i] for j in range(count)) for i in range(len(zero)))


@dataclass(frozen=True)
class ProbedNoise:
    """A noise map recovered exactly from floating-point probes: column j of B is ``sqrt(draw_variances[j])``
    times column j of ``matrix`` (both exact), so a cascade's √3/2 is ``1`` with draw variance ``3/4``."""

    matrix: Matrix
    draw_variances: tuple[Fraction, ...]


def _recognise_column(values: Sequence[float], max_denominator: int, column: int) -> tuple[list[Fraction], Fraction]:
    """Write a float column as sqrt(d)·(rationals): d from the square of its smallest non-zero entry."""
    scale = float(np.max(np.abs(values))) if len(values) else 0.0
    nonzero = [abs(v) for v in values if abs(v) > 1e-12 * max(scale, 1.0)]
    if not nonzero:
        return [Fraction(0)] * len(values), Fraction(1)
    smallest = min(nonzero)
    variance = Fraction(smallest * smallest).limit_denominator(max_denominator)
    root = math.sqrt(variance)
    ratios = []
    for value in values:
        ratio = Fraction(value / root).limit_denominator(max_denominator) if abs(value) > 1e-12 * scale else Fraction(0)
        if abs(float(ratio) * root - value) > 1e-9 * max(scale, 1.0):
            raise ValueError(
                f"column {column} is not sqrt(p/q) times rationals with denominators <= {max_denominator}: "
                f"entry {value!r} is not recognised"
            )
        ratios.append(ratio)
    return ratios, variance


def probe_float_noise_matrix(
    function: Callable[[np.ndarray], Sequence[float]], draws: int, *, max_denominator: int = 10_000, seed: int = 0
) -> ProbedNoise:
    """Recover B exactly from a float function of the draws (for example a user's sampler with its normal draws
    passed in), by probing the unit vectors.

    Each column is recognised as ``sqrt(p/q)`` times rationals with denominators at most ``max_denominator``, and
    the recognised map is re-evaluated against the function at a seeded random point (relative error 1e-9): a
    function that is not linear, or whose entries are not of that form, gets a ``ValueError`` naming the column.
    The result feeds :func:`audit_linear_noise` with ``draw_variances`` (Gaussian noise).

    Args:
        function: the user's float function of the noise draws: takes a 1-D float64 array of ``draws`` entries and
            returns a non-empty 1-D array of finite floats (the outputs' noise).
        draws: the number of noise draws d, a positive integer, at most :data:`MAX_DIMENSION`.
        max_denominator: the largest denominator of a recognised variance p/q and of the rational factors (default
            10,000).
        seed: seed of the re-check point (default 0).

    Returns:
        The recovered map's rational factors and per-draw variances (see :class:`ProbedNoise`).
    """
    count = check_positive_int(draws, "draws")
    if count > MAX_DIMENSION:
        raise ValueError(f"draws must be at most {MAX_DIMENSION}, got {count}")

    guarded = UserFunction(function, role="function")

    def call(vector: np.ndarray) -> np.ndarray:
        with guarded:
            returned = guarded(vector)
        try:
            values = np.asarray(returned, dtype=np.float64)
        except (ValueError, TypeError, OverflowError):
            raise ValueError("function must return a non-empty 1-D array of finite floats, got a "
                             f"{type(returned).__name__} numpy cannot read as one") from None
        if values.ndim != 1 or values.size == 0 or not np.all(np.isfinite(values)):
            raise ValueError("function must return a non-empty 1-D array of finite floats")
        return values

    zero = call(np.zeros(count))
    if np.any(np.abs(zero) > 1e-12):
        raise ValueError("function is not linear: it is non-zero at the zero noise vector")
    columns: list[list[Fraction]] = []
    variances: list[Fraction] = []
    for j in range(count):
        unit = np.zeros(count)
        unit[j] = 1.0
        values = call(unit)
        if values.size != zero.size:
            raise ValueError("function returned outputs of different lengths")
        ratios, variance = _recognise_column(values.tolist(), max_denominator, j)
        columns.append(ratios)
        variances.append(variance)
    rng = np.random.default_rng(seed)
    point = rng.standard_normal(count)
    rebuilt = np.array([
        sum(float(columns[j][i]) * math.sqrt(variances[j]) * point[j] for j in range(count)) for i in range(zero.size)
    ])
    actual = call(point)
    if np.max(np.abs(actual - rebuilt)) > 1e-9 * max(1.0, float(np.max(np.abs(actual)))):
        raise ValueError("function is not linear in the draws (checked at a seeded random point)")
    matrix = tuple(tuple(columns[j][i] for j in range(count)) for i in range(zero.size))
    return ProbedNoise(matrix, tuple(variances))
