"""Recover the exact linear map of a user's noise function, whatever numbers the function computes with.

:func:`probe_linear_map` probes the unit draws and returns the map B exactly (a :data:`Matrix` of Fractions):

* ``inputs="exact"``: the function takes a tuple of Fractions (ints for integer noise work too) and returns
  exact numbers; the map is exact by construction.
* ``inputs="integer"``: the function takes a 1-D ``int64`` array (a post-processor written for integer noise)
  and returns integers or exact rationals.
* ``inputs="integer-float64"``: the function takes a 1-D ``int64`` array and returns float64 (integer noise
  followed by a float step, such as a consistency projection); the values are read as for ``"float64"``.
* ``inputs="float64"`` / ``"float32"``: the function takes a 1-D array of that dtype and returns floats. Each
  value is read as the rational with the smallest denominator within the dtype's tolerance ``16·u·max(1, |v|)``
  (u the unit roundoff, 2⁻²⁴ for float32, 2⁻⁵³ for float64), with denominators at most
  ``max_denominator`` (default: the largest D with 1/D² > 4·tolerance, so two candidates can never both fit:
  :func:`default_denominator_bound`). The recovered map is then re-checked *exactly* at a seeded point of small
  integers (exactly representable in the dtype): every output must lie within the standard bound on
  floating-point summation, γ_{k+2}·Σ_j |B_ij x_j| with γ_n = n·u/(1 − n·u), of the exact value B x — or within
  16 times the function's own measured deviation from linearity, max |f(x + y) − f(x) − f(y)| over seeded
  integer pairs (code that computes through a solve or a pseudo-inverse rounds its cancelled intermediate
  terms, which the recovered map cannot see); a deviation above √u of the outputs is not taken for rounding
  and widens nothing. The same measured deviation widens the recognition of an entry (the simplest rational
  within it) when the dtype's tolerance finds none.

``batch=True``: the function takes a 2-D array (draws × probes, one probe per column) and returns outputs ×
probes, so every unit draw is probed in one call (in chunks of :data:`BATCH_COLUMNS` columns for large maps).

Every mode checks that the function is zero at zero and linear at a seeded point, and raises ``ValueError``
naming the first output and draw that disagree.

**Cost before work.** The map is held dense (outputs × draws references, and as many Fractions while probing),
so once the number of outputs is known (after the call at zero) the memory this needs is estimated and the
probe refused beyond ``call_memory_bytes``. Each call of the function runs under
:func:`reference.core.user_code.call_user`: whatever it raises is one ``ValueError`` naming it, and each call may
take ``call_seconds`` and add ``call_memory_bytes`` of address space (defaults 60 s and 4 GiB; ``None``: no limit).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from reference.core.linalg import Matrix
from reference.core.options import check_choice
from reference.core.user_code import DEFAULT_MEMORY_BYTES, DEFAULT_SECONDS, CallLimits, UserFunction, check_limits
from reference.core.validate import check_positive_int, to_fraction

ProbeInputs = Literal["exact", "integer", "integer-float64", "float64", "float32"]
PROBE_INPUTS: tuple[ProbeInputs, ...] = ("exact", "integer", "integer-float64", "float64", "float32")
#: Most draws a probe accepts (the maps feed the dense exact audits).
MAX_PROBE_DRAWS = 20_000
#: Columns per call in batch mode (draws × columns float64 values per call).
BATCH_COLUMNS = 1024
#: Multiple of the unit roundoff a probed value may differ from its rational.
ROUNDOFF_MULTIPLE = 16

_ZERO = Fraction(0)


def unit_roundoff(dtype: npt.DTypeLike) -> Fraction:
    """The unit roundoff of a float dtype, exactly.

    Args:
        dtype: a numpy float dtype or its name: float32 (u = 2⁻²⁴) or float64 (u = 2⁻⁵³).

    Raises:
        ValueError: any other dtype.
    """
    if np.dtype(dtype) == np.float32:
        return Fraction(1, 1 << 24)
    if np.dtype(dtype) == np.float64:
        return Fraction(1, 1 << 53)
    raise ValueError(f"dtype must be float32 or float64, got {dtype!r}")


def default_denominator_bound(dtype: npt.DTypeLike) -> int:
    """The largest D with 1/D² > 4·16·u: two rationals of denominator <= D differ by more than twice the
    tolerance at magnitude 1, so at most one fits a value.

    Args:
        dtype: a numpy float dtype or its name: float32 or float64.

    Raises:
        ValueError: any other dtype.
    """
    tolerance = ROUNDOFF_MULTIPLE * unit_roundoff(dtype)
    bound = math.isqrt(int(1 / (4 * tolerance)))
    while Fraction(1, bound * bound) <= 4 * tolerance:
        bound -= 1
    return bound


def probe_linear_map(
    function: Callable[..., Any],
    *,
    draws: int,
    inputs: ProbeInputs = "exact",
    batch: bool = False,
    max_denominator: int | None = None,
    seed: int = 0,
    call_seconds: float | None = DEFAULT_SECONDS,
    call_memory_bytes: int | None = DEFAULT_MEMORY_BYTES,
) -> Matrix:
    """The exact map B (outputs × draws) of a linear ``function`` of the noise draws (module docstring).

    Args:
        function: the user's linear function of the noise draws (draws -> the outputs' noise), taking what
            ``inputs`` names (a tuple of Fractions, or a 1-D numpy array; 2-D, draws × probes, with ``batch``) and
            returning the outputs (outputs × probes with ``batch``).
        draws: the number of noise draws d (the length of the function's argument), 1 <= d <= :data:`MAX_PROBE_DRAWS`.
        inputs: what the function computes with: ``"exact"`` (default), ``"integer"``, ``"integer-float64"``,
            ``"float64"`` or ``"float32"`` (module docstring).
        batch: True when the function takes a 2-D array of probes (one per column), not with ``"exact"``; default
            False.
        max_denominator: the largest denominator of a recognised entry of a float output, a positive integer; None
            (default): :func:`default_denominator_bound` of the output dtype. Not with ``inputs="integer"``.
        seed: the non-negative integer seeding the re-check point and the linearity pairs (default 0).
        call_seconds: the wall-clock seconds each call of ``function`` may take, in (0, 86400] (default 60); None:
            no limit.
        call_memory_bytes: the address space each call may add, in bytes, at least 2**20 (default 4 GiB), also the
            bound on the dense map's estimated memory; None: no limit.

    Returns:
        B, outputs × draws, exact.

    Raises:
        ValueError: a bad option, a function that raises or passes a limit, or one that is not zero at zero or not
            linear (naming the first output and draw that disagree).
        TypeError: ``batch`` not a bool.
    """
    limits = check_limits(call_seconds, call_memory_bytes, seconds_name="call_seconds",
                          memory_name="call_memory_bytes")
    if not callable(function):
        raise ValueError(f"function must be callable (the noise draws -> the outputs' noise), got {type(function).__name__}")
    count = check_positive_int(draws, "draws")
    if count > MAX_PROBE_DRAWS:
        raise ValueError(f"draws must be at most {MAX_PROBE_DRAWS}, got {count}")
    kind = check_choice(inputs, "inputs", PROBE_INPUTS)
    if not isinstance(batch, bool):
        raise TypeError("batch must be True or False")
    if batch and kind == "exact":
        raise ValueError("batch probing takes an array: use inputs='float64', 'float32' or 'integer'")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")

    with UserFunction(function, role="function", limits=limits) as guarded:
        if kind == "exact":
            return _probe_exact(guarded, count, seed, limits)
        return _probe_arrays(guarded, count, kind, batch, max_denominator, seed, limits)


def _probe_arrays(guarded: Callable[..., Any], count: int, kind: ProbeInputs, batch: bool,
                  max_denominator: int | None, seed: int, limits: CallLimits) -> Matrix:
    dtype: Any = np.int64 if kind.startswith("integer") else np.dtype(kind)
    # the dtype the function computes its outputs in: its input dtype, or float64 for integer-in/float-out
    output_dtype: Any = np.dtype(np.float64) if kind == "integer-float64" else dtype
    if kind == "integer":
        if max_denominator is not None:
            raise ValueError("max_denominator applies to float outputs only")
        denominator = 0
    else:
        denominator = default_denominator_bound(output_dtype) if max_denominator is None else check_positive_int(
            max_denominator, "max_denominator")
    outputs, rows, cols, values = _float_columns(guarded, count, dtype, batch, limits)
    own = (usable_deviation(*linearity_deviation(guarded, outputs, count, dtype, batch, seed), output_dtype)
           if values.dtype.kind == "f" else _ZERO)
    entries = _recognise(values, output_dtype, denominator, rows, cols, own)
    _recheck(guarded, outputs, rows, cols, entries, count, dtype, batch, seed, own, output_dtype)
    return _dense(outputs, count, rows, cols, entries)


#: Bytes per entry of the dense map while probing: a reference in the result, one in the probed columns and a
#: share of the Fractions (an over-estimate for sparse maps, whose zeros share one object).
BYTES_PER_ENTRY = 24


def _refuse_if_too_large(outputs: int, count: int, limits: CallLimits) -> None:
    """Refuse before probing a map whose dense form needs more than the memory limit (module docstring)."""
    needed = outputs * count * BYTES_PER_ENTRY
    if limits.memory_bytes is not None and needed > limits.memory_bytes:
        raise ValueError(f"draws: a map of {outputs} outputs × {count} draws needs about {needed / (1 << 30):.3g} GiB "
                         f"held densely, above call_memory_bytes = {limits.memory_bytes / (1 << 30):.3g} GiB; probe "
                         "fewer draws or raise call_memory_bytes")


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


def _probe_exact(function: Callable[..., Any], count: int, seed: int, limits: CallLimits) -> Matrix:
    zeros = [_ZERO] * count
    zero = _exact_values(_sequence(function(tuple(zeros)), "at zero"))
    if not zero:
        raise ValueError("function must return at least one output")
    _check_zero(zero)
    outputs = len(zero)
    _refuse_if_too_large(outputs, count, limits)
    one = Fraction(1)
    columns: list[list[Fraction]] = []
    for j in range(count):
        zeros[j] = one
        column = _exact_values(_sequence(function(tuple(zeros)), f"for draw {j}"))
        zeros[j] = _ZERO
        if len(column) != outputs:
            raise ValueError(f"function returned {len(column)} outputs for draw {j}, {outputs} at zero")
        columns.append(column)
    rng = random.Random(seed)
    point = [Fraction(rng.randint(-1000, 1000), rng.randint(1, 97)) for _ in range(count)]
    actual = _exact_values(_sequence(function(tuple(point)), "at the seeded point"))
    if len(actual) != outputs:
        raise ValueError(f"function returned {len(actual)} outputs at the seeded point, {outputs} at zero")
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


def _sequence(values: object, where: str) -> Sequence[object]:
    """The function's outputs as a sequence of numbers (``ValueError`` naming the call otherwise)."""
    if isinstance(values, np.ndarray):
        if values.ndim != 1:
            raise ValueError(f"function must return a 1-D sequence of numbers {where}, got shape {values.shape}")
        return list(values.tolist())
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise ValueError(f"function must return a sequence of numbers {where}, got {type(values).__name__}")
    return values


def _check_zero(values: Sequence[object]) -> None:
    for i, value in enumerate(values):
        if value != 0:
            raise ValueError(f"function is not linear: output {i} is {value!r} at the zero noise vector")


# ----------------------------------------------------------------------------------------- array inputs


def _call(function: Callable[..., Any], argument: np.ndarray, shape_note: str) -> np.ndarray:
    returned = function(argument)
    try:
        values = np.asarray(returned)
    except (ValueError, TypeError, OverflowError):  # ragged lists, objects numpy cannot read
        raise ValueError(f"function must return an array of numbers ({shape_note}), got a "
                         f"{type(returned).__name__} numpy cannot read as one") from None
    if values.size == 0:
        raise ValueError("function must return at least one output")
    if values.dtype.kind not in "iuf":
        raise ValueError(f"function must return numbers ({shape_note}), got dtype {values.dtype}")
    if values.dtype.kind == "f" and not np.all(np.isfinite(values)):
        where = tuple(int(index) for index in np.argwhere(~np.isfinite(values))[0])
        raise ValueError(f"function returned a non-finite value {float(values[where])!r} at output index "
                         f"{where[0] if len(where) == 1 else where} ({shape_note})")
    return values


def _float_columns(
    function: Callable[..., Any], count: int, dtype: Any, batch: bool, limits: CallLimits
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
        _refuse_if_too_large(outputs, count, limits)
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
        _refuse_if_too_large(outputs, count, limits)
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


def _recognise(values: np.ndarray, dtype: Any, denominator: int, rows: np.ndarray, cols: np.ndarray,
               own: Fraction = _ZERO) -> list[Fraction]:
    """Exact entries: integers directly; other floats as the closest rational within the dtype's tolerance, or
    failing that the simplest one within the function's own measured rounding ``own`` (each distinct value
    once)."""
    distinct, first_index, inverse = np.unique(values, return_index=True, return_inverse=True)
    if values.dtype.kind in "iu":
        exact = [Fraction(int(value)) for value in distinct.tolist()]
    else:
        if denominator == 0:
            raise ValueError("inputs='integer': the function returned floats; probe it with inputs='integer-float64' "
                             "(integer draws in, floats out) or 'float64'")
        tolerance = ROUNDOFF_MULTIPLE * unit_roundoff(dtype)
        exact = []
        for index, value in enumerate(distinct.tolist()):
            if value == int(value):
                exact.append(Fraction(int(value)))
                continue
            where = int(first_index[index])
            exact.append(_rational(value, tolerance, denominator, int(rows[where]), int(cols[where]), own))
    return [exact[index] for index in inverse.reshape(-1).tolist()]


def _rational(value: float, tolerance: Fraction, denominator: int, row: int, column: int,
              own: Fraction = _ZERO) -> Fraction:
    exact = Fraction(value)
    candidate = exact.limit_denominator(denominator)
    if abs(candidate - exact) <= tolerance * max(Fraction(1), abs(exact)):
        return candidate
    if own:  # the function's own rounding is wider than the dtype's: the simplest rational within it
        simplest = simplest_between(exact - own, exact + own)
        if simplest.denominator <= denominator:
            return simplest
    if _looks_float32(value, tolerance):
        raise ValueError(
            f"entry ({row}, {column}) = {value!r} is a float32 value (it is exactly representable in float32 and "
            "within float32 rounding of a simple rational, not within float64 rounding): the function computes "
            "in float32, probe it with inputs='float32'"
        )
    raise ValueError(
        f"entry ({row}, {column}) = {value!r} is not within {float(tolerance):.3g} (relative) or the function's "
        f"measured rounding {float(own):.3g} of a rational with denominator <= {denominator}: raise "
        "max_denominator, or the map is not rational"
    )


def _looks_float32(value: float, tolerance: Fraction) -> bool:
    """A value probed at float64 tolerance that is really a float32 result: representable in float32 and within
    float32 rounding of a rational of float32's denominator bound."""
    single = unit_roundoff(np.float32)
    if tolerance <= ROUNDOFF_MULTIPLE * single and float(np.float32(value)) == value:
        exact = Fraction(value)
        candidate = exact.limit_denominator(default_denominator_bound(np.float32))
        # a residue near 0 is cancellation (a solve, a non-linearity), not a float32 rounding of a non-zero entry
        return candidate != 0 and abs(candidate - exact) <= ROUNDOFF_MULTIPLE * single * max(Fraction(1), abs(exact))
    return False


def simplest_between(low: Fraction, high: Fraction) -> Fraction:
    """The rational of smallest denominator (then smallest magnitude) in [low, high], by continued fractions.

    Args:
        low: the lower end, exact.
        high: the upper end, exact, at least ``low``.

    Raises:
        ValueError: ``low > high``.
    """
    if low > high:
        raise ValueError("simplest_between needs low <= high")
    if low <= 0 <= high:
        return Fraction(0)
    if high < 0:
        return -simplest_between(-high, -low)
    whole = math.ceil(low)
    if whole <= high:
        return Fraction(whole)
    floor = math.floor(low)  # low and high lie in (floor, floor + 1)
    return floor + 1 / simplest_between(1 / (high - floor), 1 / (low - floor))


#: Seeded point pairs on which a float function's own deviation from linearity is measured.
LINEARITY_TRIALS = 3
#: Multiple of the measured deviation from linearity the re-check allows.
DEVIATION_MULTIPLE = 16


def _at(function: Callable[..., Any], point: np.ndarray, dtype: Any, batch: bool, outputs: int) -> np.ndarray:
    argument = point.astype(dtype)
    actual = _call(function, argument.reshape(-1, 1) if batch else argument, "the re-check")
    actual = actual[:, 0] if batch else actual
    if actual.shape != (outputs,):
        raise ValueError(f"function returned shape {actual.shape} at the re-check point, expected ({outputs},)")
    return actual


def linearity_deviation(function: Callable[..., Any], outputs: int, count: int, dtype: Any, batch: bool,
                        seed: int) -> tuple[Fraction, Fraction]:
    """The function's own rounding, measured: max |f(x + y) − f(x) − f(y)| over seeded pairs of small integer
    points (exact in the dtype), and the largest output seen. Linear code that computes through a solve or a
    pseudo-inverse cancels large intermediate terms, so its outputs carry rounding the recovered map cannot see.

    Args:
        function: the user's function, already guarded (as :func:`probe_linear_map` calls it).
        outputs: the number of outputs it returns.
        count: the number of draws (the length of its argument).
        dtype: the numpy dtype of its argument.
        batch: True when it takes a 2-D array of probes (a point is passed as one column).
        seed: the probe's seed (the pairs use ``seed + 1``).

    Returns:
        (the largest deviation, the largest output magnitude seen), exact.
    """
    rng = np.random.default_rng(seed + 1)
    worst, size = _ZERO, _ZERO
    for _ in range(LINEARITY_TRIALS):
        first, second = rng.integers(-8, 9, size=count), rng.integers(-8, 9, size=count)
        values = [_at(function, point, dtype, batch, outputs) for point in (first, second, first + second)]
        exact = [[Fraction(value) for value in array.tolist()] for array in values]
        for i in range(outputs):
            worst = max(worst, abs(exact[2][i] - exact[0][i] - exact[1][i]))
            size = max(size, abs(exact[0][i]), abs(exact[1][i]), abs(exact[2][i]))
    return worst, size


def usable_deviation(worst: Fraction, size: Fraction, dtype: Any) -> Fraction:
    """The measured deviation if it can be rounding (at most √u of the outputs' size), else 0: a larger one is
    a non-linearity (or code computing in a narrower dtype) and widens nothing.

    Args:
        worst: the measured deviation from linearity, exact (:func:`linearity_deviation`).
        size: the largest output magnitude seen, exact.
        dtype: the float dtype the outputs are computed in (float32 or float64).
    """
    return worst if worst * worst <= unit_roundoff(dtype) * size * size else _ZERO


def _recheck(function: Callable[..., Any], outputs: int, rows: np.ndarray, cols: np.ndarray,
             entries: Sequence[Fraction], count: int, dtype: Any, batch: bool, seed: int,
             own_deviation: Fraction = _ZERO, output_dtype: Any = None) -> None:
    """Exact re-check at a seeded point of small integers: |f(x) − B x| within the summation bound of the
    recovered map, or within :data:`DEVIATION_MULTIPLE` times the function's measured deviation from linearity
    (:func:`linearity_deviation`: its own rounding), whichever is larger."""
    rng = np.random.default_rng(seed)
    point = rng.integers(-8, 9, size=count)
    actual = _at(function, point, dtype, batch, outputs)
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
    # the function computes in its input dtype, or in float64 for integer-in/float-out (an integer function
    # returning floats in the plain integer mode was refused before)
    roundoff = unit_roundoff(dtype if output_dtype is None else output_dtype) if is_float else _ZERO
    own = DEVIATION_MULTIPLE * own_deviation if is_float else _ZERO
    for i, value in enumerate(actual.tolist()):
        observed = Fraction(value) if is_float else Fraction(int(value))
        steps = terms[i] + 2
        gamma = steps * roundoff / (1 - steps * roundoff) if is_float else _ZERO
        allowed = max(gamma * magnitude[i], own)
        if abs(observed - expected[i]) > allowed:
            raise ValueError(
                f"function is not linear in the draws: at a seeded integer point output {i} is {value!r}, the "
                f"recovered map gives {float(expected[i])!r} (allowed rounding {float(allowed):.3g}: the summation "
                f"bound, or {DEVIATION_MULTIPLE} times the function's measured deviation from linearity)"
            )
