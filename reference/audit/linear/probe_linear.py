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
probes, so every unit draw is probed in one call (in chunks of :data:`BATCH_COLUMNS` columns for large maps); a block
of at most 8 MiB is passed read-only and kept between probes, a fresh writable one given to a function that raises on
it (:mod:`reference.audit.linear.probe_blocks`).

Every mode checks that the function is zero at zero and linear at a seeded point, and raises ``ValueError``
naming the first output and draw that disagree.

:func:`probe_linear_columns` probes the same way and returns the map as sparse exact columns: the non-zeros are
kept as numpy arrays while probing, each distinct value is recognised once, and the re-checks run on arrays
(:mod:`reference.audit.linear.probe_recheck`: exact int64 sums and error-free float transformations, with a
``Fraction`` only where a float screen cannot decide), so its memory and exact work grow with the map's
non-zeros, not with outputs × draws.

**Cost before work.** :func:`probe_linear_map` holds the map dense (outputs × draws references), so once the
number of outputs is known (after the call at zero) the memory this needs is estimated and the probe refused
beyond ``call_memory_bytes``; :func:`probe_linear_columns` counts the non-zeros as they are found and stops as soon
as they would need more (:data:`BYTES_PER_NONZERO` each). Each call of the function runs under
:func:`reference.core.user_code.call_user`: whatever it raises is one ``ValueError`` naming it, and each call may
take ``call_seconds`` and add ``call_memory_bytes`` of address space (defaults 60 s and 4 GiB; ``None``: no limit).
The one-draw-per-call array probes make thousands of calls of what may be a microsecond function, so their unit
draws and the ten calls of the checks that follow share one memory cap set when they start
(:class:`reference.core.user_code.UserFunction`'s ``block_memory_bytes``): twice ``call_memory_bytes`` plus
:data:`UNIT_PROBE_SLACK_BYTES` and 160 bytes per output above what the process then holds — the probe's own arrays
meanwhile stay below ``call_memory_bytes`` (16 bytes per non-zero, refused beyond it) plus one buffer of columns
and the checks' outputs (80 bytes per output; their points are drawn before the cap is set), so each call may
still add at least ``call_memory_bytes``, and at most about twice it; a watchdog thread keeps their time limit
(``watchdog=True``: the same limit per call, no system call per call). The checks' calls (in batch mode one call,
every point a column) come before any check is decided; the unit draws' values are checked finite first.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

import numpy as np

from reference.audit.linear.column_matrix import SparseColumns
from reference.audit.linear.probe_blocks import call_on_unit_block
from reference.audit.linear.probe_calls import UNIT_BLOCKS as UNIT_BLOCKS
from reference.audit.linear.probe_calls import UnitBlocks as UnitBlocks
from reference.audit.linear.probe_calls import as_numbers, at_zero, is_sparse
from reference.audit.linear.probe_columns import ProbedColumns
from reference.audit.linear.probe_linearity import (
    DEVIATION_MULTIPLE as DEVIATION_MULTIPLE,
)
from reference.audit.linear.probe_linearity import (
    LINEARITY_TRIALS as LINEARITY_TRIALS,
)
from reference.audit.linear.probe_linearity import (
    check_finite,
    check_points,
    check_values,
    deviation_at_pairs,
    recheck_map,
    zero_and_checks,
)
from reference.audit.linear.probe_linearity import linearity_deviation as linearity_deviation
from reference.audit.linear.probe_linearity import usable_deviation as usable_deviation
from reference.audit.linear.probe_values import ROUNDOFF_MULTIPLE as ROUNDOFF_MULTIPLE
from reference.audit.linear.probe_values import default_denominator_bound as default_denominator_bound
from reference.audit.linear.probe_values import recognise_values
from reference.audit.linear.probe_values import simplest_between as simplest_between
from reference.audit.linear.probe_values import unit_roundoff as unit_roundoff
from reference.core.exact_text import message_value
from reference.core.linalg import Matrix
from reference.core.options import check_choice
from reference.core.user_code import DEFAULT_MEMORY_BYTES, DEFAULT_SECONDS, CallLimits, UserFunction, check_limits
from reference.core.validate import check_positive_int, to_fraction

ProbeInputs = Literal["exact", "integer", "integer-float64", "float64", "float32"]
PROBE_INPUTS: tuple[ProbeInputs, ...] = ("exact", "integer", "integer-float64", "float64", "float32")
#: Most draws a probe accepts (the maps feed the dense exact audits).
MAX_PROBE_DRAWS = 20_000
#: Most draws a sparse probe (:func:`probe_linear_columns`) accepts.
MAX_SPARSE_PROBE_DRAWS = 1_000_000
#: Most columns per call in batch mode.
BATCH_COLUMNS = 1024
#: Most columns per call with sparse unit blocks (a block costs one stored entry per column).
SPARSE_BATCH_COLUMNS = 1 << 16
#: Most bytes of one block of unit probes in batch mode (draws × columns × the dtype's size): fewer columns per
#: call for many draws.
BATCH_BYTES = 1 << 26
_ZERO = Fraction(0)


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
    """The exact map B (outputs × draws) of a linear ``function`` of the noise draws (module docstring), dense.

    For a large sparse map, :func:`probe_linear_columns` probes the same way and keeps only the non-zeros.

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
    limits, count, kind = _checked(function, draws, inputs, batch, seed, call_seconds, call_memory_bytes,
                                   MAX_PROBE_DRAWS)
    probed = _probe(function, count, kind, batch, max_denominator, seed, limits, dense=True)
    return _dense(probed, count)


def probe_linear_columns(
    function: Callable[..., Any],
    *,
    draws: int,
    inputs: ProbeInputs = "exact",
    batch: bool = False,
    max_denominator: int | None = None,
    seed: int = 0,
    call_seconds: float | None = DEFAULT_SECONDS,
    call_memory_bytes: int | None = DEFAULT_MEMORY_BYTES,
    unit_blocks: UnitBlocks = "dense",
) -> SparseColumns:
    """The exact map B of a linear ``function`` of the noise draws as sparse exact columns, probed and re-checked
    as :func:`probe_linear_map` does (module docstring) but holding only the non-zeros: memory and the exact work
    grow with the map's non-zeros, not with outputs × draws. The result feeds
    :func:`reference.audit.linear.audit.audit_linear_noise` directly.

    Args:
        function: the user's linear function of the noise draws, as for :func:`probe_linear_map`.
        draws: the number of noise draws d, 1 <= d <= :data:`MAX_SPARSE_PROBE_DRAWS`.
        inputs: what the function computes with: ``"exact"`` (default), ``"integer"``, ``"integer-float64"``,
            ``"float64"`` or ``"float32"`` (module docstring).
        batch: True when the function takes a 2-D array of probes (one per column), not with ``"exact"``; default
            False. The probes go in blocks of at most :data:`BATCH_COLUMNS` columns and :data:`BATCH_BYTES` bytes.
        max_denominator: the largest denominator of a recognised entry of a float output, a positive integer; None
            (default): :func:`default_denominator_bound` of the output dtype. Not with ``inputs="integer"``.
        seed: the non-negative integer seeding the re-check point and the linearity pairs (default 0).
        call_seconds: the wall-clock seconds each call of ``function`` may take, in (0, 86400] (default 60); None:
            no limit.
        call_memory_bytes: the address space each call may add, in bytes, at least 2**20 (default 4 GiB), also the
            bound on the probed map's memory (:data:`BYTES_PER_NONZERO` per non-zero, counted as the probe
            proceeds); None: no limit.
        unit_blocks: with ``batch``, how the probes are passed: ``"dense"`` (default: numpy arrays, draws × probes)
            or ``"sparse"`` (scipy.sparse csc arrays of the same shape, one stored entry per unit column, up to
            :data:`SPARSE_BATCH_COLUMNS` columns per call; the function may return a scipy.sparse matrix, whose
            stored entries are read, or a numpy array). Sparse blocks keep a sparse function's work — and the
            probe's — linear in the map's non-zeros; the check points are passed as sparse arrays too.

    Returns:
        B as :class:`~reference.audit.linear.column_matrix.SparseColumns` (outputs × draws; each column a dict from
        output index to its non-zero exact entry, an int where integral).

    Raises:
        ValueError: a bad option, a function that raises or passes a limit, a map over the memory bound, or one
            that is not zero at zero or not linear (naming the first output and draw that disagree).
        TypeError: ``batch`` not a bool.
    """
    limits, count, kind = _checked(function, draws, inputs, batch, seed, call_seconds, call_memory_bytes,
                                   MAX_SPARSE_PROBE_DRAWS)
    blocks = check_choice(unit_blocks, "unit_blocks", UNIT_BLOCKS)
    if blocks == "sparse" and not batch:
        raise ValueError("unit_blocks='sparse' passes blocks of probes: it needs batch=True")
    probed = _probe(function, count, kind, batch, max_denominator, seed, limits, dense=False, unit_blocks=blocks)
    return _columns(probed, count)


def _checked(function: object, draws: int, inputs: object, batch: object, seed: object, call_seconds: object,
             call_memory_bytes: object, most: int) -> tuple[CallLimits, int, ProbeInputs]:
    limits = check_limits(call_seconds, call_memory_bytes, seconds_name="call_seconds",
                          memory_name="call_memory_bytes")
    if not callable(function):
        raise ValueError(f"function must be callable (the noise draws -> the outputs' noise), got {type(function).__name__}")
    count = check_positive_int(draws, "draws")
    if count > most:
        raise ValueError(f"draws must be at most {most}, got {message_value(count)}")
    kind = check_choice(inputs, "inputs", PROBE_INPUTS)
    if not isinstance(batch, bool):
        raise TypeError("batch must be True or False")
    if batch and kind == "exact":
        raise ValueError("batch probing takes an array: use inputs='float64', 'float32' or 'integer'")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    return limits, count, kind


@dataclass(frozen=True)
class _Probed:
    """A probed map, sparse: non-zero k sits at (rows[k], cols[k]) and is ``distinct[inverse[k]]``."""

    outputs: int
    rows: np.ndarray
    cols: np.ndarray
    distinct: list[Fraction]
    inverse: np.ndarray


def _probe(function: Callable[..., Any], count: int, kind: ProbeInputs, batch: bool, max_denominator: int | None,
           seed: int, limits: CallLimits, *, dense: bool, unit_blocks: UnitBlocks = "dense") -> _Probed:
    if kind == "exact":
        with UserFunction(function, role="function", limits=limits) as guarded:
            return _probe_exact(guarded, count, seed, limits, dense)
    return _probe_arrays(function, count, kind, batch, max_denominator, seed, limits, dense, unit_blocks)


#: Bytes beyond twice ``call_memory_bytes`` in the memory cap of the unit probes (a block of buffered columns
#: and its temporaries).
UNIT_PROBE_SLACK_BYTES = 1 << 26


def _probe_arrays(function: Callable[..., Any], count: int, kind: ProbeInputs, batch: bool,
                  max_denominator: int | None, seed: int, limits: CallLimits, dense: bool,
                  unit_blocks: UnitBlocks = "dense") -> _Probed:
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
    # the checks' points (drawn before the unit calls' memory cap: count × 10 integers)
    pairs, point = check_points(count, seed)
    checks: tuple[np.ndarray | None, np.ndarray]
    with UserFunction(function, role="function", limits=limits) as guarded:
        if batch:  # a few calls, each under its own memory cap; the first at zero and at the checks' points
            zero, checks = zero_and_checks(guarded, count, dtype, (pairs, point), unit_blocks)
        else:
            zero = at_zero(guarded, count, dtype, batch, unit_blocks)
            # the linearity pairs only for float outputs, whose rounding they measure
            points = (pairs if zero.dtype.kind == "f" else None, point)
        if dense:
            _refuse_if_too_large(zero.shape[0], count, limits)
        if batch:
            parts = _float_columns(guarded, zero, count, dtype, batch, limits, dense, unit_blocks)
    if not batch:
        # thousands of calls of a 1-D function, then the ten calls of the checks: one memory cap for all of them
        # (module docstring); meanwhile the probe holds at most 16 bytes per non-zero (below call_memory_bytes by
        # the refusals), the temporaries of one buffer of columns and the checks' outputs (80 bytes per output)
        block = None if limits.memory_bytes is None else (2 * limits.memory_bytes + UNIT_PROBE_SLACK_BYTES
                                                          + 160 * zero.shape[0])
        with UserFunction(function, role="function", limits=limits, block_memory_bytes=block,
                          watchdog=True) as unit_calls:
            call = unit_calls.one_argument()
            parts = _float_columns(call, zero, count, dtype, batch, limits, dense, unit_blocks)
            checks = check_values(call, zero.shape[0], points, dtype, batch, unit_blocks)
    outputs, rows, cols, values = _joined(count, *parts)
    return _checked_map(function, limits, checks, outputs, rows, cols, values, count, dtype, output_dtype,
                        denominator, batch, seed, unit_blocks, point)


def _checked_map(function: Callable[..., Any], limits: CallLimits, checks: tuple[np.ndarray | None, np.ndarray],
                 outputs: int, rows: np.ndarray, cols: np.ndarray, values: np.ndarray, count: int, dtype: Any,
                 output_dtype: Any, denominator: int, batch: bool, seed: int, unit_blocks: UnitBlocks,
                 point: np.ndarray) -> _Probed:
    """The probed values recognised and re-checked (module docstring) from the function's outputs at the checks'
    points (``checks``: :func:`reference.audit.linear.probe_linearity.check_values`) and the re-check ``point``."""
    check_finite(checks)  # after the unit draws' own (in _joined), which name the draw
    at_pairs, actual = checks
    own = _ZERO
    if values.dtype.kind == "f":
        if at_pairs is None:  # integer at zero, floats at a unit draw: the pairs are measured now
            with UserFunction(function, role="function", limits=limits) as guarded:
                measured = linearity_deviation(guarded, outputs, count, dtype, batch, seed, unit_blocks)
        else:
            measured = deviation_at_pairs(at_pairs)
        own = usable_deviation(*measured, output_dtype)
    distinct, inverse = recognise_values(values, output_dtype, denominator, rows, cols, own)
    recheck_map(function, outputs, rows, cols, distinct, inverse, count, dtype, batch, seed, own, output_dtype,
                unit_blocks, actual=actual, point=point)
    kept = np.array([value != 0 for value in distinct], dtype=bool)[inverse] if distinct else inverse == 0
    if not kept.all():  # rounding residues recognised as zero (a solve's cancellation) are not entries
        rows, cols, inverse = rows[kept], cols[kept], inverse[kept]
    return _Probed(outputs, rows, cols, distinct, inverse)


#: Bytes per entry of the dense map while probing: a reference in the result, one in the probed columns and a
#: share of the Fractions (an over-estimate for sparse maps, whose zeros share one object).
BYTES_PER_ENTRY = 24
#: Bytes per non-zero of a sparse probe: its position and float value while probing, then a dict entry and an
#: exact number in the result.
BYTES_PER_NONZERO = 160


def _refuse_if_too_large(outputs: int, count: int, limits: CallLimits) -> None:
    """Refuse before probing a map whose dense form needs more than the memory limit (module docstring)."""
    needed = outputs * count * BYTES_PER_ENTRY
    if limits.memory_bytes is not None and needed > limits.memory_bytes:
        raise ValueError(f"draws: a map of {outputs} outputs × {count} draws needs about {needed / (1 << 30):.3g} GiB "
                         f"held densely, above call_memory_bytes = {limits.memory_bytes / (1 << 30):.3g} GiB; probe "
                         "fewer draws or raise call_memory_bytes")


def _refuse_if_too_many(nonzeros: int, probed: int, count: int, limits: CallLimits) -> None:
    """Refuse, as soon as it is seen, a sparse map whose non-zeros need more than the memory limit."""
    needed = nonzeros * BYTES_PER_NONZERO
    if limits.memory_bytes is not None and needed > limits.memory_bytes:
        raise ValueError(f"draws: {nonzeros:,} non-zeros in the first {probed} of {count} draws need about "
                         f"{needed / (1 << 30):.3g} GiB held exactly, above call_memory_bytes = "
                         f"{limits.memory_bytes / (1 << 30):.3g} GiB; probe fewer draws or raise call_memory_bytes")


def _dense(probed: _Probed, count: int) -> Matrix:
    """The map as a :data:`Matrix` (zeros share one object: building it costs one reference per entry)."""
    table = [[_ZERO] * count for _ in range(probed.outputs)]
    distinct = probed.distinct
    for row, col, index in zip(probed.rows.tolist(), probed.cols.tolist(), probed.inverse.tolist()):
        table[row][col] = distinct[index]
    return tuple(tuple(row) for row in table)


def _columns(probed: _Probed, count: int) -> SparseColumns:
    """The map as sparse exact columns (ints where integral), their dicts built when first read."""
    return ProbedColumns(probed.outputs, count, probed.rows, probed.cols, probed.distinct, probed.inverse)


# ----------------------------------------------------------------------------------------- exact inputs


def _exact_values(values: Sequence[object]) -> list[Fraction]:
    # ints and Fractions pass through without the general parser (the common case, and the hot loop)
    return [value if type(value) is Fraction else Fraction(value) if type(value) is int
            else to_fraction(value, "function output") for value in values]


def _probe_exact(function: Callable[..., Any], count: int, seed: int, limits: CallLimits, dense: bool) -> _Probed:
    zeros = [_ZERO] * count
    zero = _exact_values(_sequence(function(tuple(zeros)), "at zero"))
    if not zero:
        raise ValueError("function must return at least one output")
    _check_zero(zero)
    outputs = len(zero)
    if dense:
        _refuse_if_too_large(outputs, count, limits)
    one = Fraction(1)
    rows: list[int] = []
    cols: list[int] = []
    entries: list[Fraction] = []
    for j in range(count):
        zeros[j] = one
        column = _exact_values(_sequence(function(tuple(zeros)), f"for draw {j}"))
        zeros[j] = _ZERO
        if len(column) != outputs:
            raise ValueError(f"function returned {len(column)} outputs for draw {j}, {outputs} at zero")
        found = [i for i, entry in enumerate(column) if entry]
        rows += found
        cols += [j] * len(found)
        entries += [column[i] for i in found]
        if not dense:
            _refuse_if_too_many(len(entries), j + 1, count, limits)
    rng = random.Random(seed)
    point = [Fraction(rng.randint(-1000, 1000), rng.randint(1, 97)) for _ in range(count)]
    actual = _exact_values(_sequence(function(tuple(point)), "at the seeded point"))
    if len(actual) != outputs:
        raise ValueError(f"function returned {len(actual)} outputs at the seeded point, {outputs} at zero")
    expected = [_ZERO] * outputs
    for row, col, entry in zip(rows, cols, entries):
        expected[row] += entry * point[col]
    for i in range(outputs):
        if actual[i] != expected[i]:
            raise ValueError(f"function is not linear in the draws: output {i} at a seeded rational point is "
                             f"{actual[i]}, the probed map gives {expected[i]}")
    return _Probed(outputs, np.array(rows, dtype=np.int64), np.array(cols, dtype=np.int64), entries,
                   np.arange(len(entries), dtype=np.int64))


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


def batch_width(count: int, itemsize: int, unit_blocks: UnitBlocks = "dense") -> int:
    """Columns per block of unit probes: dense blocks at most :data:`BATCH_COLUMNS` wide and :data:`BATCH_BYTES`
    large; sparse blocks (one stored entry per column) at most :data:`SPARSE_BATCH_COLUMNS` wide.

    Args:
        count: the number of draws (rows of a block).
        itemsize: bytes per entry of the probes' dtype.
        unit_blocks: ``"dense"`` (numpy arrays, default) or ``"sparse"`` (scipy.sparse columns).
    """
    if unit_blocks == "sparse":
        return min(count, SPARSE_BATCH_COLUMNS)
    return max(1, min(BATCH_COLUMNS, BATCH_BYTES // (count * itemsize)))


def _block_entries(returned: Any, shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The non-zeros of a block of results (a numpy array or a scipy.sparse matrix), ordered by column (the
    draws' order), then by row: (rows, columns, values)."""
    if is_sparse(returned):
        if returned.shape != shape:
            raise ValueError(f"batch: expected shape {shape}, got {returned.shape}")
        if returned.dtype.kind not in "iuf":
            raise ValueError(f"function must return numbers (outputs × probes), got dtype {returned.dtype}")
        entries = returned.tocsc()
        entries.sum_duplicates()  # scipy's convention: entries stored twice add up; sorted within each column
        values = entries.data
        cols = np.repeat(np.arange(shape[1]), np.diff(entries.indptr))
        keep = values != 0
        return entries.indices[keep].astype(np.int64), cols[keep], values[keep]
    block = as_numbers(returned, "outputs × probes", finite=False)
    if block.shape != shape:
        raise ValueError(f"batch: expected shape {shape}, got {block.shape}")
    # the non-zeros in memory order, then stably by column (as int16 when the columns fit: numpy sorts 16-bit keys
    # stably by radix, ten times faster than int64 keys in an unsorted order)
    flat = np.flatnonzero(block != 0)
    rows, cols = np.divmod(flat, shape[1])
    order = np.argsort(cols.astype(np.int16) if shape[1] <= np.iinfo(np.int16).max else cols, kind="stable")
    rows, cols = rows[order], cols[order]
    return rows, cols, block.reshape(-1)[flat[order]] if block.flags.c_contiguous else block[rows, cols]


#: Bytes of the buffer holding the one-at-a-time columns before their non-zeros are found in one pass (512 KiB:
#: the copies and the scan stay in the processor's cache, 0.5 ms faster at T = 1,024 than one 8 MiB buffer) ...
COLUMN_BUFFER_BYTES = 1 << 19
#: ... unless that holds fewer than :data:`COLUMN_BUFFER_ROWS` columns: then up to 8 MiB (a pass per few columns of
#: many outputs would cost more in numpy calls than the cache saves: 9% more at T = 10,000).
LARGE_COLUMN_BUFFER_BYTES = 1 << 23
COLUMN_BUFFER_ROWS = 64

_Parts = tuple[int, list[np.ndarray], list[np.ndarray], list[np.ndarray], Any]


def _float_columns(
    function: Callable[..., Any], zero: np.ndarray, count: int, dtype: Any, batch: bool, limits: CallLimits,
    dense: bool = True, unit_blocks: UnitBlocks = "dense",
) -> _Parts:
    """The function at every unit draw (``zero``: its value at zero), kept sparse: (outputs, row indices per part,
    non-zeros per draw, values per part, the zero call's dtype), joined by :func:`_joined` after the calls."""
    found_rows: list[np.ndarray] = []
    found_counts: list[np.ndarray] = []  # non-zeros per draw: the column indices are built once at the end
    found_values: list[np.ndarray] = []

    def kept(rows: np.ndarray, counts: np.ndarray, values: np.ndarray, probed: int) -> None:
        found_rows.append(rows)
        found_counts.append(counts)
        found_values.append(values)
        if not dense:
            _refuse_if_too_many(sum(part.size for part in found_rows), probed, count, limits)

    outputs = zero.shape[0]
    if batch:
        width = batch_width(count, np.dtype(dtype).itemsize, unit_blocks)
        for start in range(0, count, width):
            stop = min(count, start + width)
            rows, cols, values = _block_entries(call_on_unit_block(function, count, start, stop, dtype, unit_blocks),
                                                (outputs, stop - start))
            kept(rows, np.bincount(cols, minlength=stop - start), values, stop)
        return outputs, found_rows, found_counts, found_values, zero.dtype
    # the columns are copied into a buffer (a draw per row) and their non-zeros found for a whole buffer at once:
    # a numpy call per buffer instead of several per draw
    rows_per_buffer = COLUMN_BUFFER_BYTES // (8 * outputs)
    if rows_per_buffer < COLUMN_BUFFER_ROWS:
        rows_per_buffer = LARGE_COLUMN_BUFFER_BYTES // (8 * outputs)
    rows_per_buffer = max(1, min(count, rows_per_buffer))
    buffer = np.empty((rows_per_buffer, outputs), dtype=zero.dtype)
    filled = 0

    def flush(probed: int) -> None:
        nonlocal filled
        if filled:
            block = buffer[:filled]
            # a boolean mask first: numpy finds the non-zeros of a bool array several times faster than of floats
            draws_in_block, rows = np.divmod(np.flatnonzero(block != 0), outputs)
            kept(rows, np.bincount(draws_in_block, minlength=filled), block.reshape(-1)[
                draws_in_block * outputs + rows], probed)
            filled = 0

    unit = np.zeros(count, dtype=dtype)
    shape, kind = zero.shape, buffer.dtype
    slots = list(buffer)  # a view per row: assigning into a view skips the buffer's index parsing
    for j in range(count):
        unit[j] = 1
        column = function(unit)
        # the unit draw is reset only once the column is copied: a function may return its argument or a view of it
        # the common case (an array of the buffer's dtype and shape) is checked in one line: the function may take
        # microseconds, and this loop runs once per draw
        if type(column) is not np.ndarray or column.dtype is not kind or column.shape != shape:
            column = as_numbers(column, "a 1-D array", finite=False)
            if column.shape != shape:
                raise ValueError(f"function returned shape {column.shape} for draw {j}, {zero.shape} at zero")
            if column.dtype != kind:  # a draw whose outputs come in another dtype: kept on its own
                flush(j)
                rows = np.flatnonzero(column != 0)
                kept(rows, np.array([rows.size]), column[rows], j + 1)
                unit[j] = 0
                continue
        slots[filled][...] = column
        unit[j] = 0
        filled += 1
        if filled == rows_per_buffer:
            flush(j + 1)
    flush(count)
    return outputs, found_rows, found_counts, found_values, zero.dtype


def _joined(count: int, outputs: int, found_rows: list[np.ndarray], found_counts: list[np.ndarray],
            found_values: list[np.ndarray], zero_dtype: Any) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """The probed parts as (outputs, rows, columns, values), values in one dtype; a nan or an infinity refused
    naming the output and the draw."""
    kinds = {values.dtype.kind for values in found_values if values.size} or {np.dtype(zero_dtype).kind}
    common = np.float64 if "f" in kinds else np.int64
    all_rows = np.concatenate(found_rows).astype(np.int64, copy=False) if found_rows else np.zeros(0, dtype=np.int64)
    all_cols = np.repeat(np.arange(count, dtype=np.int64), np.concatenate(found_counts) if found_counts else 0)
    values = (np.concatenate([part.astype(common, copy=False) for part in found_values]) if found_values
              else np.zeros(0, dtype=common))
    if values.dtype.kind == "f":
        bad = np.flatnonzero(~np.isfinite(values))
        if bad.size:
            first = int(bad[0])
            raise ValueError(f"function returned a non-finite value {float(values[first])!r} at output index "
                             f"{int(all_rows[first])} for draw {int(all_cols[first])}")
    return outputs, all_rows, all_cols, values


