"""``CᵀC`` of an integer matrix exactly, by float64 BLAS products that cannot round.

An integer of magnitude below 2⁵³ is a double. If every term C_ki·C_kj and every partial sum of a column dot
product is such an integer, a float64 matrix product is exact whatever order or blocking the BLAS adds in (with or
without fused multiply-adds): no operation has anything to round. That holds when

    rows · (largest |entry|)² < 2⁵³.

A matrix with larger entries (a float-built strategy scaled to integers by a power of two, entries near 2⁵⁸) is
split into base-2^b digits C = Σ_k 2^(b·k)·C_k with b small enough that every digit product C_aᵀC_b is exact in
that sense; ``CᵀC = Σ_{a,b} 2^(b·(a+b))·C_aᵀC_b`` is then summed per power in int64 (a few terms, each below 2⁵³) and
the powers combined in Python integers. Each digit product is checked against the bound with exact integers
before it is taken; when no split applies, None (the caller uses FLINT). A mostly-zero matrix (a banded
strategy) takes scipy.sparse int64 products instead: one when its largest column ℓ1 norm times its largest entry
stays below 2⁶³ (then no partial sum of a dot product can wrap), else the same digit split with the powers
combined on the result's non-zeros only.
"""

from __future__ import annotations

import numpy as np

#: Integers below this magnitude are exact in float64.
EXACT_DOUBLE = 2**53
#: Most digits a matrix is split into (digit products grow as the square of it).
MAX_DIGITS = 6
#: A matrix with fewer than one non-zero in this many entries takes scipy's sparse int64 product instead.
SPARSE_FACTOR = 8


def _digits(matrix: np.ndarray, width: int, count: int) -> list[np.ndarray]:
    """Signed base-2^width digits: C = Σ_k 2^(width·k)·digit_k, the low digits in [0, 2^width), the top one
    signed (arithmetic shift)."""
    mask = (1 << width) - 1
    digits = [(matrix >> (width * k)) & mask for k in range(count - 1)]
    digits.append(matrix >> (width * (count - 1)))
    return digits


def _sparse_gram(values: np.ndarray, largest: int) -> list[list[int]] | None:
    """CᵀC of a mostly-zero int64 matrix by scipy.sparse int64 products, whole or on base-2^b digits (each product
    bounded so that no partial sum can reach 2⁶³ / (2·digits)), the powers combined in Python ints on the
    non-zeros of the result only; None when no split keeps the bound."""
    from scipy import sparse

    compressed = sparse.csc_array(values)
    size = compressed.shape[1]
    column_l1 = int(np.abs(values).sum(axis=0, dtype=object).max())  # exact (Python ints)
    if column_l1 * largest < 2**63:  # every partial sum of a column dot product fits int64
        return (compressed.T @ compressed).toarray().tolist()  # type: ignore[no-any-return]
    longest = int(np.diff(compressed.indptr).max())  # most non-zeros in a column: terms of one dot product
    width = (62 - longest.bit_length() - MAX_DIGITS.bit_length()) // 2 - 1
    if width < 4:
        return None
    count = -(-(largest.bit_length() + 1) // width)
    if count > MAX_DIGITS:
        return None
    digits = [sparse.csc_array((digit, compressed.indices, compressed.indptr), shape=compressed.shape)
              for digit in _digits(compressed.data, width, count)]
    magnitudes = [max(abs(int(digit.data.max())), abs(int(digit.data.min()))) for digit in digits]
    keys: list[np.ndarray] = []
    parts: list[np.ndarray] = []
    for a in range(count):
        for b in range(a, count):
            if longest * magnitudes[a] * magnitudes[b] * 2 * count >= 2**63:
                return None
            product = sparse.coo_array(digits[a].T @ digits[b])
            row, col = product.coords
            for first, second in ((row, col), (col, row)) if a != b else ((row, col),):
                keys.append(first.astype(np.int64) * size + second)
                parts.append(product.data.astype(object) * (1 << (width * (a + b))))
    key = np.concatenate(keys)
    order = np.argsort(key, kind="stable")
    key, value = key[order], np.concatenate(parts)[order]
    starts = np.flatnonzero(np.concatenate(([True], key[1:] != key[:-1])))
    totals = np.add.reduceat(value, starts) if value.size else value
    result = [[0] * size for _ in range(size)]
    for position, total in zip(key[starts].tolist(), totals.tolist()):
        result[position // size][position % size] = total
    return result


def exact_gram(matrix: np.ndarray) -> list[list[int]] | None:
    """``CᵀC`` of a 2-D int64 array, exact, as rows of Python ints; None when no digit split keeps the float64
    products exact (module docstring).

    Args:
        matrix: C, a 2-D numpy integer array (entries of magnitude below 2⁶²).
    """
    rows = matrix.shape[0]
    if not matrix.size or matrix.dtype.kind not in "iu":
        return None
    values = matrix.astype(np.int64)
    largest = max(abs(int(values.max())), abs(int(values.min())))
    if largest >= 2**62:
        return None
    nonzero = int(np.count_nonzero(values))
    if nonzero * SPARSE_FACTOR < values.size:  # mostly zeros (a banded strategy): sparse int64 products
        found = _sparse_gram(values, largest)
        if found is not None:
            return found
    if rows * largest * largest < EXACT_DOUBLE:  # one product
        single = values.astype(np.float64)
        return np.asarray(single.T @ single).astype(np.int64).tolist()  # type: ignore[no-any-return]
    room = EXACT_DOUBLE // max(rows, 1)  # a digit product's terms must stay below this
    width = (room.bit_length() - 1) // 2 - 1  # (2^(width+1))² <= room: the signed top digit has one more bit
    if width < 4:
        return None
    count = -(-(largest.bit_length() + 1) // width)
    if count > MAX_DIGITS:
        return None
    digits = _digits(values, width, count)
    magnitudes = [max(abs(int(digit.max())), abs(int(digit.min()))) for digit in digits]
    floats = [digit.astype(np.float64) for digit in digits]
    sums: dict[int, np.ndarray] = {}
    for a in range(count):
        for b in range(a, count):
            if rows * magnitudes[a] * magnitudes[b] >= EXACT_DOUBLE:
                return None
            product = np.asarray(floats[a].T @ floats[b]).astype(np.int64)  # exact: each term and sum < 2⁵³
            term = product if a == b else product + product.T  # C_bᵀC_a = (C_aᵀC_b)ᵀ
            sums[a + b] = term if a + b not in sums else sums[a + b] + term  # at most count terms < 2⁵⁴: int64
    top = 2 * (count - 1)  # every power 0..top occurs (a + b takes each value)
    total = sums[top].astype(object)
    for power in range(top - 1, -1, -1):  # Horner in Python ints: exact
        total = total * (1 << width) + sums[power].astype(object)
    return total.tolist()  # type: ignore[no-any-return]


__all__ = ["EXACT_DOUBLE", "exact_gram"]
