"""The exact maximum range variance of C_depth and all its maximisers, for depths far beyond all O(n²) ranges.

A route independent of the closed form and of its proof (``verification/cip/proofs/max_range_variance.py``): it
uses neither the digit recursion of the prefix variances nor the two maximising grid points, only

* prefix variances from the Haar decomposition (the same eigen-expansion as ``ranges.range_variance``): the
  indicator of the first l leaves has Haar coefficient tent_h(l mod 2^h) = min(l mod 2^h, 2^h − l mod 2^h) at
  the one node of each height h that it cuts, so 4^depth · Var = l² + Σ_h 3 · tent_h(l mod 2^h)² · 4^(depth − h)
  — exact int64 (below 2^46 at depth 20), vectorised over all l;
* Definition 3.1's halves: a range of C_depth lies in one half (a range of C_(depth−1)) or takes the last l1 leaves
  of the left half and the first l2 of the right one; by the reflection symmetry its variance is
  p(l1) + p(l2) − l1·l2/4^(depth−1) with p the prefix variance of C_(depth−1), so 4^(depth−1) times it is
  S(l1) + S(l2) − l1·l2 with S integer;
* for every l2, the largest S(l1) − l2·l1 read off the upper convex hull of the points (l1, S(l1)) (exact
  integers, O(n) after the hull), and every maximising l1 found by an exact vectorised scan.

So the maximum over all ranges at depth D costs O(2^D) integer operations (depth 21: 2^20-point hulls) instead of
the O(4^D) of ``ranges.all_range_statistics``, with which it is cross-checked where both run.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from reference.core.validate import check_depth

#: Largest depth: the crossing ranges of depth D use prefix variances of depth D − 1, scaled by 4^(D−1) into
#: int64 (below 2^(2D + log2(3D)) — 2^47 at D = 22) and a Python loop over 2^(D−1) hull points.
MAX_HALVES_DEPTH = 22


@dataclass(frozen=True)
class RangeMaximum:
    """The largest variance of a range sum of N(0, C_depth) (σ = 1) and every range [first, last] attaining it."""

    depth: int
    max_variance: Fraction
    maximisers: tuple[tuple[int, int], ...]  # lexicographic order


def scaled_prefix_variances(depth: int) -> np.ndarray:
    """4^depth · Var(sum of the first l leaves of C_depth) for l = 0..2^depth, exact int64, from the Haar expansion."""
    depth = check_depth(depth, maximum=MAX_HALVES_DEPTH - 1)
    lengths = np.arange((1 << depth) + 1, dtype=np.int64)
    scaled = lengths * lengths  # the all-ones eigenvector: eigenvalue 2^-depth, squared norm 2^depth
    for height in range(1, depth + 1):
        offset = lengths & ((1 << height) - 1)
        tent = np.minimum(offset, (1 << height) - offset)
        # Haar vector of a node of this height: eigenvalue 3/2^height, squared norm 2^height
        scaled += 3 * tent * tent * (1 << (2 * (depth - height)))
    return scaled


def _upper_hull(values: list[int]) -> tuple[list[int], list[int]]:
    """Vertices (x, y) of the upper convex hull of the points (x, values[x]), left to right (collinear dropped)."""
    xs: list[int] = []
    ys: list[int] = []
    for x, y in enumerate(values):
        while len(xs) >= 2 and (ys[-1] - ys[-2]) * (x - xs[-2]) <= (y - ys[-2]) * (xs[-1] - xs[-2]):
            xs.pop()
            ys.pop()
        xs.append(x)
        ys.append(y)
    return xs, ys


def _crossing_maximum(half_depth: int) -> tuple[int, list[tuple[int, int]]]:
    """max over 0 <= l1, l2 <= 2^half_depth of S(l1) + S(l2) − l1·l2 and every maximising (l1, l2)."""
    scaled = scaled_prefix_variances(half_depth)
    values = [int(v) for v in scaled.tolist()]
    xs, ys = _upper_hull(values)
    best_by_slope = [0] * len(values)
    vertex = 0
    # slope l2 from the largest down: the optimal hull vertex moves right (the hull's edge slopes decrease)
    for slope in range(len(values) - 1, -1, -1):
        while vertex + 1 < len(xs) and ys[vertex + 1] - ys[vertex] >= slope * (xs[vertex + 1] - xs[vertex]):
            vertex += 1
        best_by_slope[slope] = ys[vertex] - slope * xs[vertex]
    totals = [values[l2] + best_by_slope[l2] for l2 in range(len(values))]
    best = max(totals)
    pairs: list[tuple[int, int]] = []
    lengths = np.arange(len(values), dtype=np.int64)
    for l2 in (l2 for l2, total in enumerate(totals) if total == best):
        target = best_by_slope[l2]
        pairs.extend((int(l1), l2) for l1 in np.flatnonzero(scaled - l2 * lengths == target))
    return best, pairs


def range_maxima(depth: int) -> list[RangeMaximum]:
    """The maximum range variance and its maximisers for every depth 0..depth, by halves (module docstring)."""
    depth = check_depth(depth, maximum=MAX_HALVES_DEPTH)
    results = [RangeMaximum(0, Fraction(1), ((0, 0),))]
    for level in range(1, depth + 1):
        half = 1 << (level - 1)
        previous = results[-1]
        inside = [(a, b) for a, b in previous.maximisers] + [(a + half, b + half) for a, b in previous.maximisers]
        scaled_best, pairs = _crossing_maximum(level - 1)
        crossing_best = Fraction(scaled_best, 4 ** (level - 1))
        # a pair with l1 = 0 or l2 = 0 is a range inside one half, already among ``inside`` if it is maximal
        crossing = [(half - l1, half - 1 + l2) for l1, l2 in pairs if l1 > 0 and l2 > 0]
        if crossing_best > previous.max_variance:
            best, where = crossing_best, crossing
        elif crossing_best == previous.max_variance:
            best, where = crossing_best, inside + crossing
        else:
            best, where = previous.max_variance, inside
        results.append(RangeMaximum(level, best, tuple(sorted(set(where)))))
    return results
