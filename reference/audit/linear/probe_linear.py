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
draws share one memory cap set when they start (:class:`reference.core.user_code.UserFunction`'s
``block_memory_bytes``): twice ``call_memory_bytes`` plus :data:`UNIT_PROBE_SLACK_BYTES` and 64 bytes per output
above what the process then holds — the probe's own arrays meanwhile stay below ``call_memory_bytes`` (16 bytes
per non-zero, refused beyond it) plus one buffer of columns, so each call may still add at least
``call_memory_bytes``, and at most about twice it.
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import islice
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from reference.audit.linear.column_matrix import SparseColumns
from reference.audit.linear.elimination import Sparse, narrow
from reference.audit.linear.probe_recheck import common_denominator, exact_deviation, integer_recheck
from reference.core.exact_text import message_value
from reference.core.linalg import Matrix
from reference.core.options import check_choice
from reference.core.user_code import DEFAULT_MEMORY_BYTES, DEFAULT_SECONDS, CallLimits, UserFunction, check_limits
from reference.core.validate import check_positive_int, to_fraction

ProbeInputs = Literal["exact", "integer", "integer-float64", "float64", "float32"]
#: How batch mode passes the unit draws: numpy arrays, or scipy.sparse csc arrays (one stored entry per column).
UnitBlocks = Literal["dense", "sparse"]
UNIT_BLOCKS: tuple[UnitBlocks, ...] = ("dense", "sparse")
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
    with UserFunction(function, role="function", limits=limits) as guarded:
        zero = _at_zero(guarded, count, dtype, batch, unit_blocks)
        if dense:
            _refuse_if_too_large(zero.shape[0], count, limits)
        if batch:  # a few calls: each under its own memory cap
            parts = _float_columns(guarded, zero, count, dtype, batch, limits, dense, unit_blocks)
    if not batch:
        # thousands of calls of a 1-D function: one memory cap for all of them (module docstring); meanwhile the
        # probe holds at most 16 bytes per non-zero (below call_memory_bytes by the refusals) and the temporaries
        # of one buffer of columns
        block = None if limits.memory_bytes is None else (2 * limits.memory_bytes + UNIT_PROBE_SLACK_BYTES
                                                          + 64 * zero.shape[0])
        with UserFunction(function, role="function", limits=limits, block_memory_bytes=block) as unit_calls:
            parts = _float_columns(unit_calls, zero, count, dtype, batch, limits, dense, unit_blocks)
    outputs, rows, cols, values = _joined(count, *parts)
    with UserFunction(function, role="function", limits=limits) as guarded:
        return _checked_map(guarded, outputs, rows, cols, values, count, dtype, output_dtype, denominator, batch,
                            seed, unit_blocks)


def _checked_map(guarded: Callable[..., Any], outputs: int, rows: np.ndarray, cols: np.ndarray, values: np.ndarray,
                 count: int, dtype: Any, output_dtype: Any, denominator: int, batch: bool, seed: int,
                 unit_blocks: UnitBlocks) -> _Probed:
    """The probed values recognised and re-checked (module docstring)."""
    own = (usable_deviation(*linearity_deviation(guarded, outputs, count, dtype, batch, seed, unit_blocks),
                            output_dtype) if values.dtype.kind == "f" else _ZERO)
    distinct, inverse = _recognise(values, output_dtype, denominator, rows, cols, own)
    _recheck(guarded, outputs, rows, cols, distinct, inverse, count, dtype, batch, seed, own, output_dtype,
             unit_blocks)
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
    """The map as sparse exact columns (ints where integral), built column by column from the sorted non-zeros."""
    order = np.argsort(probed.cols, kind="stable")
    narrowed = [narrow(value) for value in probed.distinct]
    # one iterator over (row, value) in column order, cut into the columns: no list slices
    entries = zip(probed.rows[order].tolist(), map(narrowed.__getitem__, probed.inverse[order].tolist()))
    columns: list[Sparse] = [dict(islice(entries, size))
                             for size in np.bincount(probed.cols, minlength=count).tolist()]
    return SparseColumns(probed.outputs, count, columns)


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


def _call(function: Callable[..., Any], argument: Any, shape_note: str, finite: bool = True) -> np.ndarray:
    """One call, its result read as an array of numbers (``finite``: checked finite here; the unit probes check
    their non-zeros once at the end instead, where a nan or an infinity is kept). A scipy.sparse result (sparse
    unit blocks) is made dense: only the small calls (at zero, the check points) come here."""
    return _as_numbers(function(argument), shape_note, finite)


def _as_numbers(returned: object, shape_note: str, finite: bool = True) -> np.ndarray:
    """A function's result as a numpy array of numbers, or the one-line refusal (see :func:`_call`)."""
    if type(returned) is np.ndarray:  # the common case, without the checks of other types
        values = returned
    elif _is_sparse(returned):
        values = returned.toarray()  # type: ignore[attr-defined]
    else:
        try:
            values = np.asarray(returned)
        except (ValueError, TypeError, OverflowError):  # ragged lists, objects numpy cannot read
            raise ValueError(f"function must return an array of numbers ({shape_note}), got a "
                             f"{type(returned).__name__} numpy cannot read as one") from None
    if values.size == 0:
        raise ValueError("function must return at least one output")
    if values.dtype.kind not in "iuf":
        raise ValueError(f"function must return numbers ({shape_note}), got dtype {values.dtype}")
    if finite and values.dtype.kind == "f" and not np.all(np.isfinite(values)):
        where = tuple(int(index) for index in np.argwhere(~np.isfinite(values))[0])
        raise ValueError(f"function returned a non-finite value {float(values[where])!r} at output index "
                         f"{where[0] if len(where) == 1 else where} ({shape_note})")
    return values


def _is_sparse(value: object) -> bool:
    """A scipy.sparse matrix or array (scipy is not imported for this: a sparse value means it already is)."""
    sparse_module = sys.modules.get("scipy.sparse")
    return sparse_module is not None and bool(sparse_module.issparse(value))


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


def _argument(points: np.ndarray, dtype: Any, unit_blocks: UnitBlocks) -> Any:
    """Points (draws × probes) as the function takes them in batch mode: a numpy array, or a scipy.sparse csc
    array of the same values."""
    if unit_blocks == "sparse":
        import scipy.sparse

        return scipy.sparse.csc_array(points.astype(dtype))
    return points.astype(dtype)


def _unit_block(count: int, start: int, stop: int, dtype: Any, unit_blocks: UnitBlocks) -> Any:
    """The unit draws start, ..., stop − 1 as the columns of one block."""
    width = stop - start
    if unit_blocks == "sparse":
        import scipy.sparse

        return scipy.sparse.csc_array((np.ones(width, dtype=dtype), np.arange(start, stop), np.arange(width + 1)),
                                      shape=(count, width))
    probes = np.zeros((count, width), dtype=dtype)
    probes[np.arange(start, stop), np.arange(width)] = 1
    return probes


def _block_entries(returned: Any, shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The non-zeros of a block of results (a numpy array or a scipy.sparse matrix), ordered by column (the
    draws' order), then by row: (rows, columns, values)."""
    if _is_sparse(returned):
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
    block = _as_numbers(returned, "outputs × probes", finite=False)
    if block.shape != shape:
        raise ValueError(f"batch: expected shape {shape}, got {block.shape}")
    # the non-zeros in memory order, then stably by column
    rows, cols = np.divmod(np.flatnonzero(block != 0), shape[1])
    order = np.argsort(cols, kind="stable")
    rows, cols = rows[order], cols[order]
    return rows, cols, block[rows, cols]


#: Bytes of the buffer holding the one-at-a-time columns before their non-zeros are found in one pass.
COLUMN_BUFFER_BYTES = 1 << 23

_Parts = tuple[int, list[np.ndarray], list[int], list[np.ndarray], Any]


def _at_zero(function: Callable[..., Any], count: int, dtype: Any, batch: bool, unit_blocks: UnitBlocks) -> np.ndarray:
    """The function at the zero draws, checked zero: outputs × 1 in batch mode, else 1-D."""
    if batch:
        zero = _call(function, _argument(np.zeros((count, 1)), dtype, unit_blocks), "outputs × probes")
        if zero.ndim != 2 or zero.shape[1] != 1:
            raise ValueError(f"batch: the function must return outputs × probes, got shape {zero.shape}")
        _check_zero(zero[:, 0].tolist())
        return zero
    zero = _call(function, np.zeros(count, dtype=dtype), "a 1-D array")
    if zero.ndim != 1:
        raise ValueError(f"function must return a 1-D array, got shape {zero.shape}")
    _check_zero(zero.tolist())
    return zero


def _float_columns(
    function: Callable[..., Any], zero: np.ndarray, count: int, dtype: Any, batch: bool, limits: CallLimits,
    dense: bool = True, unit_blocks: UnitBlocks = "dense",
) -> _Parts:
    """The function at every unit draw (``zero``: its value at zero), kept sparse: (outputs, row indices per part,
    non-zeros per draw, values per part, the zero call's dtype), joined by :func:`_joined` after the calls."""
    found_rows: list[np.ndarray] = []
    found_counts: list[int] = []  # non-zeros per draw: the column indices are built once at the end
    found_values: list[np.ndarray] = []

    def kept(rows: np.ndarray, counts: list[int], values: np.ndarray, probed: int) -> None:
        found_rows.append(rows)
        found_counts.extend(counts)
        found_values.append(values)
        if not dense:
            _refuse_if_too_many(sum(part.size for part in found_rows), probed, count, limits)

    outputs = zero.shape[0]
    if batch:
        width = batch_width(count, np.dtype(dtype).itemsize, unit_blocks)
        for start in range(0, count, width):
            stop = min(count, start + width)
            rows, cols, values = _block_entries(function(_unit_block(count, start, stop, dtype, unit_blocks)),
                                                (outputs, stop - start))
            kept(rows, np.bincount(cols, minlength=stop - start).tolist(), values, stop)
        return outputs, found_rows, found_counts, found_values, zero.dtype
    # the columns are copied into a buffer (a draw per row) and their non-zeros found for a whole buffer at once:
    # a numpy call per buffer instead of several per draw
    rows_per_buffer = max(1, min(count, COLUMN_BUFFER_BYTES // (8 * outputs)))
    buffer = np.empty((rows_per_buffer, outputs), dtype=zero.dtype)
    filled = 0

    def flush(probed: int) -> None:
        nonlocal filled
        if filled:
            block = buffer[:filled]
            # a boolean mask first: numpy finds the non-zeros of a bool array several times faster than of floats
            draws_in_block, rows = np.divmod(np.flatnonzero(block != 0), outputs)
            kept(rows, np.bincount(draws_in_block, minlength=filled).tolist(), block.reshape(-1)[
                draws_in_block * outputs + rows], probed)
            filled = 0

    unit = np.zeros(count, dtype=dtype)
    shape, kind = zero.shape, buffer.dtype
    for j in range(count):
        unit[j] = 1
        column = function(unit)
        unit[j] = 0
        # the common case (an array of the buffer's dtype and shape) is checked in one line: the function may take
        # microseconds, and this loop runs once per draw
        if type(column) is not np.ndarray or column.dtype != kind or column.shape != shape:
            column = _as_numbers(column, "a 1-D array", finite=False)
            if column.shape != shape:
                raise ValueError(f"function returned shape {column.shape} for draw {j}, {zero.shape} at zero")
            if column.dtype != kind:  # a draw whose outputs come in another dtype: kept on its own
                flush(j)
                rows = np.flatnonzero(column != 0)
                kept(rows, [rows.size], column[rows], j + 1)
                continue
        buffer[filled] = column
        filled += 1
        if filled == rows_per_buffer:
            flush(j + 1)
    flush(count)
    return outputs, found_rows, found_counts, found_values, zero.dtype


def _joined(count: int, outputs: int, found_rows: list[np.ndarray], found_counts: list[int],
            found_values: list[np.ndarray], zero_dtype: Any) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """The probed parts as (outputs, rows, columns, values), values in one dtype; a nan or an infinity refused
    naming the output and the draw."""
    kinds = {values.dtype.kind for values in found_values if values.size} or {np.dtype(zero_dtype).kind}
    common = np.float64 if "f" in kinds else np.int64
    all_rows = np.concatenate(found_rows).astype(np.int64, copy=False) if found_rows else np.zeros(0, dtype=np.int64)
    all_cols = np.repeat(np.arange(count, dtype=np.int64), found_counts)
    values = (np.concatenate([part.astype(common, copy=False) for part in found_values]) if found_values
              else np.zeros(0, dtype=common))
    if values.dtype.kind == "f":
        bad = np.flatnonzero(~np.isfinite(values))
        if bad.size:
            first = int(bad[0])
            raise ValueError(f"function returned a non-finite value {float(values[first])!r} at output index "
                             f"{int(all_rows[first])} for draw {int(all_cols[first])}")
    return outputs, all_rows, all_cols, values


def _recognise(values: np.ndarray, dtype: Any, denominator: int, rows: np.ndarray, cols: np.ndarray,
               own: Fraction = _ZERO) -> tuple[list[Fraction], np.ndarray]:
    """Exact entries, each distinct value once: integers directly; other floats as the closest rational within the
    dtype's tolerance, or failing that the simplest one within the function's own measured rounding ``own``.
    Returns the distinct exact values and, per non-zero, the index of its value."""
    distinct, first_index, inverse = np.unique(values, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    if values.dtype.kind in "iu":
        return [Fraction(int(value)) for value in distinct.tolist()], inverse
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
    return exact, inverse


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


def _at(function: Callable[..., Any], point: np.ndarray, dtype: Any, batch: bool, outputs: int,
        unit_blocks: UnitBlocks = "dense") -> np.ndarray:
    argument = _argument(point.reshape(-1, 1), dtype, unit_blocks) if batch else point.astype(dtype)
    actual = _call(function, argument, "the re-check")
    actual = actual[:, 0] if batch else actual
    if actual.shape != (outputs,):
        raise ValueError(f"function returned shape {actual.shape} at the re-check point, expected ({outputs},)")
    return actual


def linearity_deviation(function: Callable[..., Any], outputs: int, count: int, dtype: Any, batch: bool,
                        seed: int, unit_blocks: UnitBlocks = "dense") -> tuple[Fraction, Fraction]:
    """The function's own rounding, measured: max |f(x + y) − f(x) − f(y)| over seeded pairs of small integer
    points (exact in the dtype), and the largest output seen. Linear code that computes through a solve or a
    pseudo-inverse cancels large intermediate terms, so its outputs carry rounding the recovered map cannot see.
    Exact, computed on arrays (:func:`reference.audit.linear.probe_recheck.exact_deviation`); in batch mode all
    the points go in one call.

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
    rng = np.random.default_rng(seed + 1)
    points = []
    for _ in range(LINEARITY_TRIALS):
        first, second = rng.integers(-8, 9, size=count), rng.integers(-8, 9, size=count)
        points += [first, second, first + second]
    if batch:
        values = _call(function, _argument(np.stack(points, axis=1), dtype, unit_blocks), "the linearity check")
        if values.shape != (outputs, len(points)):
            raise ValueError(f"batch: expected shape {(outputs, len(points))} at the linearity check, got "
                             f"{values.shape}")
        columns = [values[:, index] for index in range(len(points))]
    else:
        columns = [_at(function, point, dtype, batch, outputs) for point in points]
    columns = [column.astype(np.float64) for column in columns]
    worst = max(exact_deviation(*columns[index:index + 3]) for index in range(0, len(columns), 3))
    size = Fraction(float(max(np.max(np.abs(column)) for column in columns)))
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
             distinct: list[Fraction], inverse: np.ndarray, count: int, dtype: Any, batch: bool, seed: int,
             own_deviation: Fraction = _ZERO, output_dtype: Any = None, unit_blocks: UnitBlocks = "dense") -> None:
    """Exact re-check at a seeded point of small integers: |f(x) − B x| within the summation bound of the
    recovered map, or within :data:`DEVIATION_MULTIPLE` times the function's measured deviation from linearity
    (:func:`linearity_deviation`: its own rounding), whichever is larger. On arrays in int64 when B's entries
    over their common denominator fit (:func:`reference.audit.linear.probe_recheck.integer_recheck`), else with
    Fractions per non-zero."""
    rng = np.random.default_rng(seed)
    point = rng.integers(-8, 9, size=count)
    actual = _at(function, point, dtype, batch, outputs, unit_blocks)
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
