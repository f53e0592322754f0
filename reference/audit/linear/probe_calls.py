"""Calling a user's noise function during a probe: its result read as an array of numbers (or the one-line
refusal), the probe points as the function takes them in batch mode, and one evaluation at a point.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, Literal

import numpy as np

#: How batch mode passes the unit draws: numpy arrays, or scipy.sparse csc arrays (one stored entry per column).
UnitBlocks = Literal["dense", "sparse"]
UNIT_BLOCKS: tuple[UnitBlocks, ...] = ("dense", "sparse")


def call_numbers(function: Callable[..., Any], argument: Any, shape_note: str, finite: bool = True) -> np.ndarray:
    """One call, its result read as an array of numbers (``finite``: checked finite here; the unit probes check
    their non-zeros once at the end instead, where a nan or an infinity is kept). A scipy.sparse result (sparse
    unit blocks) is made dense: only the small calls (at zero, the check points) come here.

    Args:
        function: the user's function, already guarded.
        argument: what it is called with (a point, or a block of points in batch mode).
        shape_note: the expected shape, named in a refusal.
        finite: check the values finite here (default True).
    """
    return as_numbers(function(argument), shape_note, finite)


def as_numbers(returned: object, shape_note: str, finite: bool = True) -> np.ndarray:
    """A function's result as a numpy array of numbers, or the one-line refusal (see :func:`call_numbers`).

    Args:
        returned: anything the function returned (an array, a scipy.sparse matrix, a list of numbers).
        shape_note: the expected shape, named in a refusal.
        finite: check the values finite here (default True).
    """
    if type(returned) is np.ndarray:  # the common case, without the checks of other types
        values = returned
    elif is_sparse(returned):
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


def is_sparse(value: object) -> bool:
    """A scipy.sparse matrix or array (scipy is not imported for this: a sparse value means it already is).

    Args:
        value: anything (a function's result).
    """
    sparse_module = sys.modules.get("scipy.sparse")
    return sparse_module is not None and bool(sparse_module.issparse(value))


def probe_argument(points: np.ndarray, dtype: Any, unit_blocks: UnitBlocks) -> Any:
    """Points (draws × probes) as the function takes them in batch mode: a numpy array, or a scipy.sparse csc
    array of the same values.

    Args:
        points: the points, draws × probes.
        dtype: the numpy dtype the function takes.
        unit_blocks: ``"dense"`` (a numpy array) or ``"sparse"`` (a scipy.sparse csc array).
    """
    if unit_blocks == "sparse":
        import scipy.sparse

        return scipy.sparse.csc_array(points.astype(dtype))
    return points.astype(dtype)


def evaluate_at(function: Callable[..., Any], point: np.ndarray, dtype: Any, batch: bool, outputs: int,
                unit_blocks: UnitBlocks = "dense", finite: bool = True) -> np.ndarray:
    """The function's outputs at one point (of the re-check or the linearity check), their shape checked.

    Args:
        function: the user's function, already guarded.
        point: one point of the draws (1-D integers).
        dtype: the numpy dtype the function takes.
        batch: True when it takes a 2-D array of probes (the point is passed as one column).
        outputs: the number of outputs it returns.
        unit_blocks: in batch mode, ``"dense"`` (default) or ``"sparse"``.
        finite: check the values finite here (default True; False: the caller checks them later).
    """
    argument = probe_argument(point.reshape(-1, 1), dtype, unit_blocks) if batch else point.astype(dtype)
    actual = call_numbers(function, argument, "the re-check", finite)
    actual = actual[:, 0] if batch else actual
    if actual.shape != (outputs,):
        raise ValueError(f"function returned shape {actual.shape} at the re-check point, expected ({outputs},)")
    return actual


def check_zero_outputs(values: np.ndarray) -> None:
    """The function's outputs at the zero draws all zero (a nan is not), or the one-line refusal naming the first.

    Args:
        values: the outputs at zero, 1-D.
    """
    nonzero = np.flatnonzero(values != 0)
    if nonzero.size:
        first = int(nonzero[0])
        raise ValueError(f"function is not linear: output {first} is {values[first].item()!r} at the zero noise "
                         "vector")


def at_zero(function: Callable[..., Any], count: int, dtype: Any, batch: bool, unit_blocks: UnitBlocks) -> np.ndarray:
    """The function at the zero draws, checked zero: outputs × 1 in batch mode, else 1-D.

    Args:
        function: the user's function, already guarded.
        count: the number of draws.
        dtype: the numpy dtype the function takes.
        batch: True when it takes a 2-D array of probes.
        unit_blocks: in batch mode, ``"dense"`` or ``"sparse"``.
    """
    if batch:
        zero = call_numbers(function, probe_argument(np.zeros((count, 1)), dtype, unit_blocks), "outputs × probes")
        if zero.ndim != 2 or zero.shape[1] != 1:
            raise ValueError(f"batch: the function must return outputs × probes, got shape {zero.shape}")
        check_zero_outputs(zero[:, 0])
        return zero
    zero = call_numbers(function, np.zeros(count, dtype=dtype), "a 1-D array")
    if zero.ndim != 1:
        raise ValueError(f"function must return a 1-D array, got shape {zero.shape}")
    check_zero_outputs(zero)
    return zero
