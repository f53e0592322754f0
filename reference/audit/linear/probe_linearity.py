"""The probe's linearity checks: the function's own deviation from linearity, measured on seeded integer pairs,
and the exact re-check of the recovered map at a seeded point.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from reference.audit.linear.probe_calls import (
    UnitBlocks,
    as_numbers,
    call_numbers,
    check_zero_outputs,
    evaluate_at,
    probe_argument,
)
from reference.audit.linear.probe_recheck import common_denominator, exact_deviation, integer_recheck
from reference.audit.linear.probe_values import unit_roundoff

_ZERO = Fraction(0)

#: Seeded point pairs on which a float function's own deviation from linearity is measured.
LINEARITY_TRIALS = 3
#: Multiple of the measured deviation from linearity the re-check allows.
DEVIATION_MULTIPLE = 16


#: Most bytes of check points kept for the next probe of the same size and seed (a probe at T = 10,000 draws:
#: 800 KB).
KEPT_POINTS_BYTES = 1 << 20
#: The kept check points: ((count, seed), (pairs, point)), both read-only.
_KEPT_POINTS: list[tuple[tuple[int, int], tuple[np.ndarray, np.ndarray]]] = []


def check_points(count: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The points of the checks, small integers (exact in every dtype): the linearity pairs, one column per point
    (x, y, x + y for each of :data:`LINEARITY_TRIALS` trials, seeded by ``seed + 1``), and the re-check point
    (seeded by ``seed``). Read-only arrays (a function is given copies): the last ones drawn are kept, up to
    :data:`KEPT_POINTS_BYTES`, for a probe of the same size and seed.

    Args:
        count: the number of draws (the length of a point).
        seed: the probe's seed, a non-negative integer.

    Returns:
        (the pairs, count × 3·trials int64; the re-check point, count int64).
    """
    key = (count, seed)
    if _KEPT_POINTS and _KEPT_POINTS[0][0] == key:
        return _KEPT_POINTS[0][1]
    drawn = np.random.default_rng(seed + 1).integers(-8, 9, size=(2 * LINEARITY_TRIALS, count))  # x, y, x, y, ...
    pairs = np.empty((count, 3 * LINEARITY_TRIALS), dtype=np.int64)
    pairs[:, 0::3] = drawn[0::2].T
    pairs[:, 1::3] = drawn[1::2].T
    pairs[:, 2::3] = pairs[:, 0::3] + pairs[:, 1::3]
    point = recheck_point(count, seed)
    pairs.flags.writeable = point.flags.writeable = False
    if pairs.nbytes + point.nbytes <= KEPT_POINTS_BYTES:
        _KEPT_POINTS[:] = [(key, (pairs, point))]
    return pairs, point


def recheck_point(count: int, seed: int) -> np.ndarray:
    """The seeded point of small integers at which the recovered map is re-checked (:func:`recheck_map`).

    Args:
        count: the number of draws (the length of the point).
        seed: the probe's seed, a non-negative integer.
    """
    return np.random.default_rng(seed).integers(-8, 9, size=count)


def check_values(function: Callable[..., Any], outputs: int, points: tuple[np.ndarray | None, np.ndarray],
                 dtype: Any, batch: bool, unit_blocks: UnitBlocks = "dense") -> tuple[np.ndarray | None, np.ndarray]:
    """The function at the points of the checks (:func:`check_points`), each result's shape checked (its
    finiteness later, :func:`check_finite`, after the unit draws' own): one call per point, or in batch mode one
    call with every point as a column.

    Args:
        function: the user's function, already guarded.
        outputs: the number of outputs it returns.
        points: the linearity pairs (None: not measured, as for integer outputs) and the re-check point, as
            :func:`check_points` returns them.
        dtype: the numpy dtype of its argument.
        batch: True when it takes a 2-D array of probes.
        unit_blocks: in batch mode, how the points are passed: ``"dense"`` (a numpy array, default) or
            ``"sparse"`` (a scipy.sparse csc array).

    Returns:
        (the outputs at the pairs, outputs × 3·trials, or None; the outputs at the re-check point), as returned.
    """
    pairs, point = points
    if batch:
        every = point.reshape(-1, 1) if pairs is None else np.column_stack([pairs, point])
        values = call_numbers(function, probe_argument(every, dtype, unit_blocks), "the linearity check", False)
        if values.shape != (outputs, every.shape[1]):
            raise ValueError(f"batch: expected shape {(outputs, every.shape[1])} at the linearity check, got "
                             f"{values.shape}")
        return (None if pairs is None else values[:, :-1]), values[:, -1]
    at_pairs = None if pairs is None else np.stack([evaluate_at(function, pairs[:, index], dtype, batch, outputs,
                                                                finite=False) for index in range(pairs.shape[1])],
                                                    axis=1)
    return at_pairs, evaluate_at(function, point, dtype, batch, outputs, finite=False)


def zero_and_checks(function: Callable[..., Any], count: int, dtype: Any, points: tuple[np.ndarray, np.ndarray],
                    unit_blocks: UnitBlocks = "dense") -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """Batch mode's first call: the function at zero, at the linearity pairs and at the re-check point, every
    point a column; the outputs at zero checked finite and zero (those at the checks' points are checked after the
    unit draws': :func:`check_finite`).

    Args:
        function: the user's function, already guarded, taking draws × probes.
        count: the number of draws.
        dtype: the numpy dtype of its argument.
        points: the linearity pairs and the re-check point (:func:`check_points`).
        unit_blocks: how the points are passed: ``"dense"`` (a numpy array, default) or ``"sparse"``.

    Returns:
        (the outputs at zero, outputs × 1; the outputs at the pairs and at the re-check point).
    """
    pairs, point = points
    every = np.column_stack([np.zeros(count, dtype=np.int64), pairs, point])
    values = call_numbers(function, probe_argument(every, dtype, unit_blocks), "outputs × probes", False)
    if values.ndim != 2 or values.shape[1] != every.shape[1]:
        raise ValueError(f"batch: the function must return outputs × probes ({every.shape[1]} probes), got shape "
                         f"{values.shape}")
    zero = as_numbers(values[:, :1], "outputs × probes")
    check_zero_outputs(zero[:, 0])
    return zero, (values[:, 1:-1], values[:, -1])


def check_finite(checks: tuple[np.ndarray | None, np.ndarray]) -> None:
    """The outputs at the checks' points finite, or the one-line refusal naming the output.

    Args:
        checks: the outputs at the linearity pairs (or None) and at the re-check point (:func:`check_values`).
    """
    for values, note in zip(checks, ("the linearity check", "the re-check")):
        if values is not None and values.dtype.kind == "f" and not np.isfinite(values).all():
            bad = np.argwhere(~np.isfinite(values))
            if bad.size:
                where = tuple(int(index) for index in bad[0])
                raise ValueError(f"function returned a non-finite value {float(values[where])!r} at output index "
                                 f"{where[0]} ({note})")


def deviation_at_pairs(values: np.ndarray) -> tuple[Fraction, Fraction]:
    """max |f(x + y) − f(x) − f(y)| over the outputs and the trials, exactly, and the largest output seen (see
    :func:`linearity_deviation`).

    Args:
        values: the outputs at the linearity pairs, outputs × 3·trials (columns f(x), f(y), f(x + y), ...).
    """
    values = values.astype(np.float64, copy=False)
    worst = exact_deviation(values[:, 0::3].ravel(), values[:, 1::3].ravel(), values[:, 2::3].ravel())
    return worst, Fraction(float(np.max(np.abs(values))))


def linearity_deviation(function: Callable[..., Any], outputs: int, count: int, dtype: Any, batch: bool,
                        seed: int, unit_blocks: UnitBlocks = "dense") -> tuple[Fraction, Fraction]:
    """The function's own rounding, measured: max |f(x + y) − f(x) − f(y)| over seeded pairs of small integer
    points (exact in the dtype), and the largest output seen. Linear code that computes through a solve or a
    pseudo-inverse cancels large intermediate terms, so its outputs carry rounding the recovered map cannot see.
    Exact, computed on arrays (:func:`reference.audit.linear.probe_recheck.exact_deviation`); in batch mode all
    the points go in one call. (The probe itself calls the function at these pairs and at the re-check point
    together: :func:`check_values`.)

    Args:
        function: the user's function, already guarded (as :func:`probe_linear_map` calls it).
        outputs: the number of outputs it returns.
        count: the number of draws (the length of its argument).
        dtype: the numpy dtype of its argument.
        batch: True when it takes a 2-D array of probes (the points are passed as columns of one call).
        seed: the probe's seed (the pairs use ``seed + 1``).
        unit_blocks: in batch mode, how the points are passed: ``"dense"`` (a numpy array, default) or
            ``"sparse"`` (a scipy.sparse csc array).

    Returns:
        (the largest deviation, the largest output magnitude seen), exact.
    """
    pairs = check_points(count, seed)[0]
    if batch:
        values = call_numbers(function, probe_argument(pairs, dtype, unit_blocks), "the linearity check")
        if values.shape != (outputs, pairs.shape[1]):
            raise ValueError(f"batch: expected shape {(outputs, pairs.shape[1])} at the linearity check, got "
                             f"{values.shape}")
    else:
        values = np.stack([evaluate_at(function, pairs[:, index], dtype, batch, outputs)
                           for index in range(pairs.shape[1])], axis=1)
    return deviation_at_pairs(values)


def usable_deviation(worst: Fraction, size: Fraction, dtype: Any) -> Fraction:
    """The measured deviation if it can be rounding (at most √u of the outputs' size), else 0: a larger one is
    a non-linearity (or code computing in a narrower dtype) and widens nothing.

    Args:
        worst: the measured deviation from linearity, exact (:func:`linearity_deviation`).
        size: the largest output magnitude seen, exact.
        dtype: the float dtype the outputs are computed in (float32 or float64).
    """
    return worst if worst * worst <= unit_roundoff(dtype) * size * size else _ZERO


def recheck_map(function: Callable[..., Any], outputs: int, rows: np.ndarray, cols: np.ndarray,
             distinct: list[Fraction], inverse: np.ndarray, count: int, dtype: Any, batch: bool, seed: int,
             own_deviation: Fraction = _ZERO, output_dtype: Any = None, unit_blocks: UnitBlocks = "dense",
             actual: np.ndarray | None = None, point: np.ndarray | None = None) -> None:
    """Exact re-check at a seeded point of small integers: |f(x) − B x| within the summation bound of the
    recovered map, or within :data:`DEVIATION_MULTIPLE` times the function's measured deviation from linearity
    (:func:`linearity_deviation`: its own rounding), whichever is larger. On arrays in int64 when B's entries
    over their common denominator fit (:func:`reference.audit.linear.probe_recheck.integer_recheck`), else with
    Fractions per non-zero.

    Args:
        function: the user's function, already guarded.
        outputs: the number of outputs it returns.
        rows: the recovered map's non-zeros' output indices.
        cols: their draw indices.
        distinct: the distinct exact values of the non-zeros.
        inverse: per non-zero, the index of its value in ``distinct``.
        count: the number of draws.
        dtype: the numpy dtype the function takes.
        batch: True when it takes a 2-D array of probes.
        seed: the seed of the re-check point.
        own_deviation: the function's measured deviation from linearity, exact (default 0).
        output_dtype: the float dtype of its outputs when it differs from ``dtype`` (integer in, floats out); default None.
        unit_blocks: in batch mode, ``"dense"`` (default) or ``"sparse"``.
        actual: f at the re-check point when already called there (:func:`check_values`); default None: called
            here.
        point: the re-check point when the caller already drew it (:func:`check_points`, the same ``seed``);
            default None: drawn here.
    """
    if point is None:
        point = recheck_point(count, seed)
    if actual is None:
        actual = evaluate_at(function, point, dtype, batch, outputs, unit_blocks)
    is_float = actual.dtype.kind == "f"
    # the function computes in its input dtype, or in float64 for integer-in/float-out (an integer function
    # returning floats in the plain integer mode was refused before)
    roundoff = unit_roundoff(dtype if output_dtype is None else output_dtype) if is_float else _ZERO
    own = DEVIATION_MULTIPLE * own_deviation if is_float else _ZERO
    common = common_denominator(distinct)
    numerators = [value * common for value in distinct] if common is not None else []
    if common is not None and all(abs(value) < (1 << 62) for value in numerators):
        on_rows = np.array([int(value) for value in numerators], dtype=np.int64)[inverse]
        flagged = integer_recheck(actual, rows, cols, on_rows, common, point.astype(np.int64), roundoff, own)
        if flagged is not None:
            for i, expected, allowed in flagged:
                _compare(actual, i, expected, allowed, is_float)
            return
    exact_point = point.tolist()
    expected_sums = [_ZERO] * outputs
    magnitude = [_ZERO] * outputs
    terms = [0] * outputs
    for row, col, index in zip(rows.tolist(), cols.tolist(), inverse.tolist()):
        x = exact_point[col]
        if x:
            term = distinct[index] * x
            expected_sums[row] += term
            magnitude[row] += abs(term)
            terms[row] += 1
    for i in range(outputs):
        steps = terms[i] + 2
        gamma = steps * roundoff / (1 - steps * roundoff) if is_float else _ZERO
        _compare(actual, i, expected_sums[i], max(gamma * magnitude[i], own), is_float)


def _compare(actual: np.ndarray, output: int, expected: Fraction, allowed: Fraction, is_float: bool) -> None:
    """Output ``output`` of f(x) within ``allowed`` of the exact ``expected``, or the one-line refusal."""
    value = actual[output].item()
    observed = Fraction(value) if is_float else Fraction(int(value))
    if abs(observed - expected) > allowed:
        raise ValueError(
            f"function is not linear in the draws: at a seeded integer point output {output} is {value!r}, the "
            f"recovered map gives {float(expected)!r} (allowed rounding {float(allowed):.3g}: the summation "
            f"bound, or {DEVIATION_MULTIPLE} times the function's measured deviation from linearity)"
        )
