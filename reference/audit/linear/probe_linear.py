"""Recover the exact linear map of a user's noise function, whatever numbers the function computes with.

:func:`probe_linear_map` probes the unit draws and returns the map B exactly (a :data:`Matrix` of Fractions):

* ``inputs="exact"``: the function takes a tuple of Fractions (ints for integer noise work too) and returns
  exact numbers; the map is exact by construction.
* ``inputs="integer"``: the function takes a 1-D ``int64`` array (a post-processor written for integer noise)
  and returns integers or exact rationals.
* ``inputs="float64"`` / ``"float32"``: the function takes a 1-D array of that dtype and returns floats. Each
  value is read as the rational with the smallest denominator within the dtype's tolerance ``16·u·max(1, |v|)``
  (u the unit roundoff, 2⁻²⁴ for float32, 2⁻⁵³ for float64), with denominators at most
  ``max_denominator`` (default: the largest D with 1/D² > 4·tolerance, so two candidates can never both fit:
  :func:`default_denominator_bound`). The recovered map is then re-checked *exactly* at a seeded point of small
  integers (exactly representable in the dtype): every output must lie within the standard bound on
  floating-point summation, γ_{k+2}·Σ_j |B_ij x_j| with γ_n = n·u/(1 − n·u), of the exact value B x.

``batch=True``: the function takes a 2-D array (draws × probes, one probe per column) and returns outputs ×
probes, so every unit draw is probed in one call (in chunks of :data:`BATCH_COLUMNS` columns for large maps).

Every mode checks that the function is zero at zero and linear at a seeded point, and raises ``ValueError``
naming the first output and draw that disagree.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, Literal

import numpy as np

from reference.core.linalg import Matrix
from reference.core.validate import check_positive_int, to_fraction

ProbeInputs = Literal["exact", "integer", "float64", "float32"]
PROBE_INPUTS: tuple[ProbeInputs, ...] = ("exact", "integer", "float64", "float32")
#: Most draws a probe accepts (the maps feed the dense exact audits).
MAX_PROBE_DRAWS = 20_000
#: Columns per call in batch mode (draws × columns float64 values per call).
BATCH_COLUMNS = 1024
#: Multiple of the unit roundoff a probed value may differ from its rational.
ROUNDOFF_MULTIPLE = 16

_ZERO = Fraction(0)


def unit_roundoff(dtype: object) -> Fraction:
    """The unit roundoff of a float dtype, exactly."""
    if np.dtype(dtype) == np.float32:  # type: ignore[call-overload]
        return Fraction(1, 1 << 24)
    if np.dtype(dtype) == np.float64:  # type: ignore[call-overload]
        return Fraction(1, 1 << 53)
    raise ValueError(f"dtype must be float32 or float64, got {dtype!r}")


def default_denominator_bound(dtype: object) -> int:
    """The largest D with 1/D² > 4·16·u: two rationals of denominator <= D differ by more than twice the
    tolerance at magnitude 1, so at most one fits a value."""
    tolerance = ROUNDOFF_MULTIPLE * unit_roundoff(dtype)
    bound = math.isqrt(int(1 / (4 * tolerance)))
    while Fraction(1, bound * bound) <= 4 * tolerance:
        bound -= 1
    return bound


def _check_inputs(inputs: object) -> ProbeInputs:
    for kind in PROBE_INPUTS:
        if inputs == kind:
            return kind
    raise ValueError(f"inputs must be one of {', '.join(PROBE_INPUTS)}, got {inputs!r}")


def probe_linear_map(
    function: Callable[..., Any],
    *,
    draws: int,
    inputs: ProbeInputs = "exact",
    batch: bool = False,
    max_denominator: int | None = None,
    seed: int = 0,
) -> Matrix:
    """The exact map B (outputs × draws) of a linear ``function`` of the noise draws (module docstring)."""
    count = check_positive_int(draws, "draws")
    if count > MAX_PROBE_DRAWS:
        raise ValueError(f"draws must be at most {MAX_PROBE_DRAWS}, got {count}")
    kind = _check_inputs(inputs)
    if not isinstance(batch, bool):
        raise TypeError("batch must be True or False")
    if batch and kind == "exact":
        raise ValueError("batch probing takes an array: use inputs='float64', 'float32' or 'integer'")
    if kind == "exact":
        return _probe_exact(function, count, seed)
    dtype: Any = np.int64 if kind == "integer" else np.dtype(kind)
    if kind == "integer":
        if max_denominator is not None:
            raise ValueError("max_denominator applies to float inputs only")
        denominator = 0
    else:
        denominator = default_denominator_bound(dtype) if max_denominator is None else check_positive_int(
            max_denominator, "max_denominator")
    outputs, rows, cols, values = _float_columns(function, count, dtype, batch)
    entries = _recognise(values, dtype, denominator, rows, cols)
    _recheck(function, outputs, rows, cols, entries, count, dtype, batch, seed)
    return _dense(outputs, count, rows, cols, entries)


def _dense(outputs: int, count: int, rows: np.ndarray, cols: np.ndarray, entries: Sequence[Fraction]) -> Matrix:
    """The map as a :data:`Matrix` (zeros share one object: building it costs one reference per entry)."""
    table = [[_ZERO] * count for _ in range(outputs)]
    for row, col, entry in zip(rows.tolist(), cols.tolist(), entries):
        table[row][col] = entry
    return tuple(tuple(row) for row in table)


# ----------------------------------------------------------------------------------------- exact inputs


def _exact_values(values: Sequence[object]) -> list[Fraction]:
    # ints and Fractions pass through without the general parser (the common case, and the hot loop)
    return [value if type(value) is Fraction else Fraction(value) if type(value) is int
            else to_fraction(value, "function output") for value in values]


def _probe_exact(function: Callable[..., Any], count: int, seed: int) -> Matrix:
    zeros = [_ZERO] * count
    zero = _exact_values(function(tuple(zeros)))
    if not zero:
        raise ValueError("function must return at least one output")
    _check_zero(zero)
    outputs = len(zero)
    one = Fraction(1)
    columns: list[list[Fraction]] = []
    for j in range(count):
        zeros[j] = one
        column = _exact_values(function(tuple(zeros)))
        zeros[j] = _ZERO
        if len(column) != outputs:
            raise ValueError(f"function returned {len(column)} outputs for draw {j}, {outputs} at zero")
        columns.append(column)
    rng = random.Random(seed)
    point = [Fraction(rng.randint(-1000, 1000), rng.randint(1, 97)) for _ in range(count)]
    actual = _exact_values(function(tuple(point)))
    expected = [_ZERO] * outputs
    for j, column in enumerate(columns):
        weight = point[j]
        for i, entry in enumerate(column):
            if entry:
                expected[i] += entry * weight
    for i in range(outputs):
        if actual[i] != expected[i]:
            raise ValueError(f"function is not linear in the draws: output {i} at a seeded rational point is "
                             f"{actual[i]}, the probed map gives {expected[i]}")
    return tuple(tuple(columns[j][i] for j in range(count)) for i in range(outputs))


def _check_zero(values: Sequence[object]) -> None:
    for i, value in enumerate(values):
        if value != 0:
            raise ValueError(f"function is not linear: output {i} is {value!r} at the zero noise vector")


# ----------------------------------------------------------------------------------------- array inputs


def _call(function: Callable[..., Any], argument: np.ndarray, shape_note: str) -> np.ndarray:
    values = np.asarray(function(argument))
    if values.size == 0:
        raise ValueError("function must return at least one output")
    if values.dtype.kind not in "iuf":
        raise ValueError(f"function must return numbers ({shape_note}), got dtype {values.dtype}")
    if values.dtype.kind == "f" and not np.all(np.isfinite(values)):
        raise ValueError("function returned a non-finite value")
    return values


def _float_columns(
    function: Callable[..., Any], count: int, dtype: Any, batch: bool
) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """The function at every unit draw, kept sparse: (outputs, row indices, column indices, values)."""
    found_rows: list[np.ndarray] = []
    found_cols: list[np.ndarray] = []
    found_values: list[np.ndarray] = []

    def keep(block: np.ndarray, offset: int) -> None:
        rows, cols = np.nonzero(block)
        found_rows.append(rows)
        found_cols.append(cols + offset)
        found_values.append(block[rows, cols])

    if batch:
        zero = _call(function, np.zeros((count, 1), dtype=dtype), "outputs × probes")
        if zero.ndim != 2 or zero.shape[1] != 1:
            raise ValueError(f"batch: the function must return outputs × probes, got shape {zero.shape}")
        _check_zero(zero[:, 0].tolist())
        outputs = zero.shape[0]
        for start in range(0, count, BATCH_COLUMNS):
            stop = min(count, start + BATCH_COLUMNS)
            probes = np.zeros((count, stop - start), dtype=dtype)
            probes[np.arange(start, stop), np.arange(stop - start)] = 1
            block = _call(function, probes, "outputs × probes")
            if block.shape != (outputs, stop - start):
                raise ValueError(f"batch: expected shape {(outputs, stop - start)}, got {block.shape}")
            keep(block, start)
    else:
        zero = _call(function, np.zeros(count, dtype=dtype), "a 1-D array")
        if zero.ndim != 1:
            raise ValueError(f"function must return a 1-D array, got shape {zero.shape}")
        _check_zero(zero.tolist())
        outputs = zero.size
        unit = np.zeros(count, dtype=dtype)
        for j in range(count):
            unit[j] = 1
            column = _call(function, unit, "a 1-D array")
            unit[j] = 0
            if column.shape != zero.shape:
                raise ValueError(f"function returned shape {column.shape} for draw {j}, {zero.shape} at zero")
            keep(column.reshape(outputs, 1), j)
    kinds = {values.dtype.kind for values in found_values} or {zero.dtype.kind}
    common = np.float64 if "f" in kinds else np.int64
    return (outputs, np.concatenate(found_rows), np.concatenate(found_cols),
            np.concatenate([values.astype(common) for values in found_values]) if found_values
            else np.zeros(0, dtype=common))


def _recognise(values: np.ndarray, dtype: Any, denominator: int, rows: np.ndarray, cols: np.ndarray) -> list[Fraction]:
    """Exact entries: integers directly; other floats as the simplest rational within the dtype's tolerance
    (each distinct value once)."""
    distinct, first_index, inverse = np.unique(values, return_index=True, return_inverse=True)
    if values.dtype.kind in "iu":
        exact = [Fraction(int(value)) for value in distinct.tolist()]
    else:
        if denominator == 0:
            raise ValueError("inputs='integer': the function returned floats; probe it with inputs='float64'")
        tolerance = ROUNDOFF_MULTIPLE * unit_roundoff(dtype)
        exact = []
        for index, value in enumerate(distinct.tolist()):
            if value == int(value):
                exact.append(Fraction(int(value)))
                continue
            where = int(first_index[index])
            exact.append(_rational(value, tolerance, denominator, int(rows[where]), int(cols[where])))
    return [exact[index] for index in inverse.reshape(-1).tolist()]


def _rational(value: float, tolerance: Fraction, denominator: int, row: int, column: int) -> Fraction:
    exact = Fraction(value)
    candidate = exact.limit_denominator(denominator)
    if abs(candidate - exact) > tolerance * max(Fraction(1), abs(exact)):
        raise ValueError(
            f"entry ({row}, {column}) = {value!r} is not within {float(tolerance):.3g} (relative) of a rational with "
            f"denominator <= {denominator}: raise max_denominator, or the map is not rational"
        )
    return candidate


def _recheck(function: Callable[..., Any], outputs: int, rows: np.ndarray, cols: np.ndarray,
             entries: Sequence[Fraction], count: int, dtype: Any, batch: bool, seed: int) -> None:
    """Exact re-check at a seeded point of small integers: |f(x) − B x| within the summation bound."""
    rng = np.random.default_rng(seed)
    point = rng.integers(-8, 9, size=count)
    argument = point.astype(dtype)
    actual = _call(function, argument.reshape(count, 1) if batch else argument, "the re-check")
    actual = actual[:, 0] if batch else actual
    if actual.shape != (outputs,):
        raise ValueError(f"function returned shape {actual.shape} at the re-check point, expected ({outputs},)")
    exact_point = point.tolist()
    expected = [_ZERO] * outputs
    magnitude = [_ZERO] * outputs
    terms = [0] * outputs
    for row, col, entry in zip(rows.tolist(), cols.tolist(), entries):
        x = exact_point[col]
        if x:
            term = entry * x
            expected[row] += term
            magnitude[row] += abs(term)
            terms[row] += 1
    is_float = actual.dtype.kind == "f"
    # the function computes in its input dtype (an integer function returning floats was refused before)
    roundoff = unit_roundoff(dtype) if is_float else _ZERO
    for i, value in enumerate(actual.tolist()):
        observed = Fraction(value) if is_float else Fraction(int(value))
        steps = terms[i] + 2
        gamma = steps * roundoff / (1 - steps * roundoff) if is_float else _ZERO
        allowed = gamma * magnitude[i]
        if abs(observed - expected[i]) > allowed:
            raise ValueError(
                f"function is not linear in the draws: at a seeded integer point output {i} is {value!r}, the "
                f"recovered map gives {float(expected[i])!r} (allowed rounding {float(allowed):.3g})"
            )
