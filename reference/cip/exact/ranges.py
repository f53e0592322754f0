"""Exact variances of contiguous range queries under N(0, C_depth) (σ = 1; multiply by σ² for general σ).

Three independent routes, cross-checked in ``verification/``:

* :func:`range_variance_by_sum` — the definition: the sum of the covariance block ``C[first..last]²``
  (exact Fractions, O(L²)); for small depths only.
* :func:`range_variance` — O(depth) exactly, from the Haar eigen-decomposition of C (``verification/cip/proofs/spectrum.py``):
  for the indicator ``w`` of a range, ``wᵀ C w = L²/4**depth + Σ_v 3 c_v² / 4**height(v)`` where the sum runs over
  internal nodes ``v`` and ``c_v`` = (range ∩ left half of v) − (range ∩ right half of v). Only the nodes that
  contain an end of the range have ``c_v ≠ 0``, at most two per level.
* :func:`all_range_statistics` — every one of the n(n+1)/2 ranges at once, in exact integer arithmetic (numpy
  int64 on the integer matrix ``M = 2**(2 depth − 1) C``), by the column recurrence
  ``F(a, b) = F(a, b−1) + 2 Σ_{i=a}^{b−1} M[i, b] + M[b, b]`` — O(n²) time, O(n) memory; depth 14 in seconds.

Ranges are ``[first, last]`` with 0-based inclusive ends, as everywhere in this package.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from reference.cip.exact import matrix as cip_matrix
from reference.core.validate import check_depth

#: Largest depth for the all-ranges computation: int64 headroom (entries of M are below 2**(2 depth)) and time.
MAX_ALL_RANGES_DEPTH = 16


def _check_range(depth: int, first: int, last: int) -> int:
    n = 1 << depth
    for name, value in (("first", first), ("last", last)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"{name} must be an integer leaf index, got {value!r}")
    if not 0 <= first <= last < n:
        raise ValueError(f"range must satisfy 0 <= first <= last < {n}; got first={first}, last={last}")
    return n


def range_variance_by_sum(depth: int, first: int, last: int) -> Fraction:
    """Var(Σ_{t=first}^{last} X_t) for X ~ N(0, C_depth), by summing the covariance block (definition).

    Args:
        depth: the cascade's depth, an integer in [0, 12] (2**depth cells; the O(L²) sum is for small depths).
        first: the range's first cell, 0-based, in [0, 2**depth − 1].
        last: the range's last cell (inclusive), in [first, 2**depth − 1].
    """
    depth = check_depth(depth, maximum=cip_matrix.MAX_DENSE_DEPTH)
    _check_range(depth, first, last)
    total = Fraction(0)
    for i in range(first, last + 1):
        for j in range(first, last + 1):
            total += cip_matrix.covariance_entry_from_height(cip_matrix.lca_height(i, j))
    return total


def _overlap(first: int, last: int, start: int, stop: int) -> int:
    """Size of [first, last] ∩ [start, stop)."""
    return max(0, min(last + 1, stop) - max(first, start))


def range_variance(depth: int, first: int, last: int) -> Fraction:
    """Var(Σ_{t=first}^{last} X_t) for X ~ N(0, C_depth), exactly, in O(depth) (Haar decomposition).

    Args:
        depth: the cascade's depth, an integer in [0, 30] (2**depth cells).
        first: the range's first cell, 0-based, in [0, 2**depth − 1].
        last: the range's last cell (inclusive), in [first, 2**depth − 1].
    """
    depth = check_depth(depth)
    _check_range(depth, first, last)
    length = last - first + 1
    # ones-vector term: eigenvalue 2**-depth, |1|² = 2**depth
    scaled = length * length  # everything is scaled by 4**depth to stay in integers
    for height in range(1, depth + 1):
        width = 1 << height
        half = width >> 1
        # the nodes of this height containing an end of the range (at most two); others contribute 0
        starts = {(first // width) * width, (last // width) * width}
        for start in starts:
            coefficient = _overlap(first, last, start, start + half) - _overlap(
                first, last, start + half, start + width
            )
            # eigenvalue 3 / 2**height, |h|² = 2**height: contributes 3 c² / 4**height
            scaled += 3 * coefficient * coefficient * (1 << (2 * (depth - height)))
    return Fraction(scaled, 1 << (2 * depth))


@dataclass(frozen=True)
class RangeStatistics:
    """Exact statistics over all n(n+1)/2 contiguous ranges of C_depth (σ = 1)."""

    depth: int
    count: int
    max_variance: Fraction
    argmax: tuple[int, int]  # lexicographically first maximiser [first, last]
    maximisers: tuple[tuple[int, int], ...]  # every maximiser, in lexicographic order
    total_variance: Fraction
    min_variance: Fraction


def _bit_lengths(n: int) -> np.ndarray:
    """``bit_length(x)`` for every x in [0, n), as int64 (exact integer arithmetic)."""
    values = np.arange(n, dtype=np.int64)
    lengths = np.zeros(n, dtype=np.int64)
    while True:
        nonzero = values > 0
        if not nonzero.any():
            return lengths
        lengths += nonzero
        values >>= 1


def all_range_statistics(depth: int) -> RangeStatistics:
    """Maximum, maximisers, minimum and total of the variance over all contiguous ranges, exactly.

    Works on ``M = 2**(2 depth − 1) C`` (integer entries: ``2**(2 depth − 1)`` on the diagonal and
    ``−4**(depth − h)`` for leaves with LCA height h) and the column recurrence in the module docstring, in
    int64 (values stay below 2**63 for depth <= 16; asserted).

    Args:
        depth: the cascade's depth, an integer in [0, 16] (2**depth cells).
    """
    depth = check_depth(depth, maximum=MAX_ALL_RANGES_DEPTH)
    n = 1 << depth
    scale_exponent = max(2 * depth - 1, 0)
    diagonal_value = 1 << scale_exponent
    # off-diagonal value by LCA height h >= 1: C = -2**(1 - 2h), times 2**(2 depth - 1) = -4**(depth - h)
    by_height = np.array([diagonal_value] + [-(1 << (2 * (depth - h))) for h in range(1, depth + 1)], dtype=np.int64)
    bit_lengths = _bit_lengths(n)
    previous = np.zeros(0, dtype=np.int64)  # F(a, b - 1) for a in [0, b - 1]
    best = None
    best_pairs: list[tuple[int, int]] = []
    lowest = None
    total = 0
    for b in range(n):
        column = by_height[bit_lengths[np.arange(b, dtype=np.int64) ^ b]]  # M[i, b] for i < b
        # G(a, b) = Σ_{i=a}^{b-1} M[i, b]: suffix sums of the column
        suffix = np.cumsum(column[::-1])[::-1] if b else column
        current = np.empty(b + 1, dtype=np.int64)
        current[:b] = previous + 2 * suffix + diagonal_value
        current[b] = diagonal_value
        column_max = int(current.max())
        column_min = int(current.min())
        if best is None or column_max > best:
            best = column_max
            best_pairs = [(int(a), b) for a in np.flatnonzero(current == column_max)]
        elif column_max == best:
            best_pairs.extend((int(a), b) for a in np.flatnonzero(current == column_max))
        lowest = column_min if lowest is None else min(lowest, column_min)
        total += int(current.sum(dtype=np.int64))
        previous = current
    assert best is not None and lowest is not None
    best_pairs.sort()
    denominator = 1 << scale_exponent
    return RangeStatistics(
        depth=depth,
        count=n * (n + 1) // 2,
        max_variance=Fraction(best, denominator),
        argmax=best_pairs[0],
        maximisers=tuple(best_pairs),
        total_variance=Fraction(total, denominator),
        min_variance=Fraction(lowest, denominator),
    )


def total_range_variance_by_pair_counts(depth: int) -> Fraction:
    """Σ over all ranges of the variance, by a different route: Σ_{i,j} C_ij · #(ranges containing i and j).

    A range [a, b] contains both i <= j iff a <= i and b >= j: (i + 1)(n − j) ranges. This O(n²) exact double
    sum is an independent cross-check of :func:`all_range_statistics` (depth <= 10).

    Args:
        depth: the cascade's depth, an integer in [0, 10] (an O(4**depth) exact double sum).
    """
    depth = check_depth(depth, maximum=10)
    n = 1 << depth
    total = Fraction(0)
    for i in range(n):
        total += (i + 1) * (n - i)  # diagonal entries are 1
        for j in range(i + 1, n):
            total += 2 * (i + 1) * (n - j) * cip_matrix.covariance_entry_from_height(cip_matrix.lca_height(i, j))
    return total


def independent_total_range_variance(length: int) -> int:
    """Σ over all ranges of the variance when the n leaves carry independent unit-variance noise: Σ_L L(n−L+1).

    Args:
        length: the number of cells n, an integer >= 0 (0 gives 0); not validated, being the independent
            baseline's plain sum.
    """
    return sum(size * (length - size + 1) for size in range(1, length + 1))


def total_range_variance(depth: int) -> Fraction:
    """Σ over all n(n+1)/2 ranges of the variance, exactly, in O(depth) (a closed form; any depth).

    Σ_{a<=b} Var = Σ_i (i + 1)(n − i) + 2 Σ_{i<j} C_ij (i + 1)(n − j), and C_ij depends only on the height h of
    the lowest common ancestor: the pairs of height h are i in the left half and j in the right half of one node
    of width w = 2^h, where the double sum factorises as A_k · B_k with A_k = Σ_i (i + 1) and B_k = Σ_j (n − j),
    both linear in the node's index k; Σ_k A_k B_k is then a sum of k and k² (closed forms). The mean over the
    ranges is this total divided by n(n+1)/2.

    Args:
        depth: the cascade's depth, an integer in [0, 30] (2**depth cells; O(depth) work).
    """
    depth = check_depth(depth)
    n = 1 << depth
    total = Fraction((n * (n + 1) * (n + 2)) // 6)  # Σ_i (i + 1)(n − i) = C(n + 2, 3): the diagonal, C_ii = 1
    for height in range(1, depth + 1):
        width = 1 << height
        half = width >> 1
        nodes = n // width
        slope = half * width  # A_k = slope·k + offset, B_k = start − slope·k
        offset = half * (half + 1) // 2
        start = half * (n - half) - half * (half - 1) // 2
        first = nodes * (nodes - 1) // 2  # Σ k
        second = (nodes - 1) * nodes * (2 * nodes - 1) // 6  # Σ k²
        pairs = slope * start * first - slope * slope * second + offset * start * nodes - slope * offset * first
        total += 2 * cip_matrix.covariance_entry_from_height(height) * pairs
    return total


@dataclass(frozen=True)
class RangeSummary:
    """Exact maximum, maximisers, total and mean of the variance over all n(n+1)/2 ranges (σ = 1), by structure."""

    depth: int
    count: int
    max_variance: Fraction
    argmax: tuple[int, int]  # lexicographically first maximiser [first, last]
    maximisers: tuple[tuple[int, int], ...]
    total_variance: Fraction
    mean_variance: Fraction


def range_summary(depth: int) -> RangeSummary:
    """:func:`all_range_statistics` without the O(4^depth) sweep (no minimum): the maximum and every maximiser by
    the halves' convex-hull sweep (:mod:`reference.cip.exact.range_maximum`, O(2^depth) per depth) and the total by
    :func:`total_range_variance` (O(depth)); depth up to 24.

    Args:
        depth: the cascade's depth, an integer in [0, 24] (2**depth cells).
    """
    from reference.cip.exact.range_maximum import MAX_HALVES_DEPTH, range_maxima

    depth = check_depth(depth, maximum=MAX_HALVES_DEPTH)
    maximum = range_maxima(depth)[-1]
    n = 1 << depth
    count = n * (n + 1) // 2
    total = total_range_variance(depth)
    return RangeSummary(depth, count, maximum.max_variance, maximum.maximisers[0], maximum.maximisers, total,
                        total / count)
