"""Float matrices as integers: a float64 matrix is a matrix of dyadic rationals (each entry m·2^e), so one power of
two 2^s clears every denominator, and ``2^s·B``, ``2^s·W`` are integer matrices read exactly.

For continuous noise the release ``2^s·(W x + B z)`` is an invertible function of ``W x + B z`` (same privacy
loss), and the audit's quantities are those of the pair: a draw shift ``u`` with ``B u = W v`` is one with
``2^s·B u = 2^s·W v``, so ε, Δ², the strategy and the LP bounds are unchanged. The integer pair takes the audit's
integer paths (no Fraction per entry; an ``int64`` workload is differenced in numpy) instead of one exact
rational per float entry: a float-built hierarchical mechanism at 1,024 leaves in 4 s of CPU instead of 10 s.

Only when every entry scaled fits in ``int64`` (the float's 53-bit mantissas spread over at most 10 binary
orders of magnitude, as a strategy optimised in floats has): otherwise the matrices are read as rationals as before.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np


def _stored_values(matrix: object) -> np.ndarray | None:
    """The stored values of a 2-D numpy array or a scipy.sparse matrix of float64 or integer dtype, else None."""
    from scipy import sparse

    if sparse.issparse(matrix):
        data = np.asarray(matrix.data)  # type: ignore[attr-defined]
    elif isinstance(matrix, np.ndarray) and matrix.ndim == 2:
        data = matrix.ravel()
    else:
        return None
    return data if data.dtype == np.float64 or np.issubdtype(data.dtype, np.integer) else None


def clearing_power(values: np.ndarray) -> int:
    """The least s >= 0 with every ``values[i]·2^s`` an integer (finite float64 values; integers give 0).

    Args:
        values: finite float64 values, or integers (any shape; zeros allowed).
    """
    if np.issubdtype(values.dtype, np.integer):
        return 0
    nonzero = values[values != 0]
    if not nonzero.size:
        return 0
    mantissa, exponent = np.frexp(nonzero)  # value = mantissa·2^exponent, |mantissa| in [1/2, 1)
    integer = np.abs(mantissa * 2.0**53).astype(np.int64)  # exact: a 53-bit integer mantissa
    trailing = np.log2((integer & -integer).astype(np.float64)).astype(np.int64)  # its trailing zero bits
    return max(0, int(np.max(53 - exponent - trailing)))


#: A float entry whose binary denominator exceeds 2^FLOAT_BITS marks a matrix built in floating point (as
#: :data:`reference.audit.linear.strategy_audit.FLOAT_DENOMINATOR` does for exact entries).
FLOAT_BITS = 20


def float_built_array(matrix: object) -> bool:
    """Is ``matrix`` a float64 numpy or scipy.sparse matrix with an entry whose binary denominator exceeds
    2^:data:`FLOAT_BITS` (a strategy optimised in floats, not a float array of small dyadic values)?

    Args:
        matrix: anything given as a matrix to the audit (what is not a float64 numpy array or scipy matrix: False).
    """
    values = _stored_values(matrix)
    if values is None or values.dtype != np.float64 or not np.all(np.isfinite(values)):
        return False
    return clearing_power(values) > FLOAT_BITS


def _largest(values: np.ndarray) -> int:
    """max |value| rounded up to an integer, exactly (0 for no values)."""
    if not values.size:
        return 0
    if np.issubdtype(values.dtype, np.integer):
        return max(abs(int(values.max())), abs(int(values.min())))
    return math.ceil(float(np.max(np.abs(values))))


def scaled_to_integers(noise_matrix: Any, workload: Any) -> tuple[Any, Any] | None:
    """``(2^s·B, 2^s·W)`` as int64 (numpy dense or scipy.sparse, each in its own form) when one of them is float64,
    the other float64 or integer, and every scaled entry fits; None otherwise (then nothing is changed).

    Args:
        noise_matrix: B, a 2-D numpy array or a scipy.sparse matrix, float64 or integer (anything else: None).
        workload: W, in the same forms.
    """
    from scipy import sparse

    values = [_stored_values(noise_matrix), _stored_values(workload)]
    arrays = [value for value in values if value is not None]
    if len(arrays) < 2 or all(np.issubdtype(array.dtype, np.integer) for array in arrays):
        return None
    if not all(np.issubdtype(array.dtype, np.integer) or np.all(np.isfinite(array)) for array in arrays):
        return None  # refused later, naming the matrix
    power = max(clearing_power(array) for array in arrays)
    if max(_largest(array) for array in arrays) << power >= 2**63:
        return None

    def scaled(matrix: Any) -> Any:
        if sparse.issparse(matrix):
            result = matrix.copy()
            result.data = _scaled_values(result.data, power)
            return result
        return _scaled_values(matrix, power)

    return scaled(noise_matrix), scaled(workload)


def _scaled_values(array: np.ndarray, power: int) -> np.ndarray:
    """array·2^power as int64 (exact: the caller checked the bound)."""
    if np.issubdtype(array.dtype, np.integer):
        return np.asarray(np.left_shift(array.astype(np.int64), power), dtype=np.int64)
    return np.asarray(np.ldexp(array, power), dtype=np.float64).astype(np.int64)


__all__ = ["FLOAT_BITS", "clearing_power", "float_built_array", "scaled_to_integers"]
