"""The exact maximum range variance of C_depth and all its maximisers, for depths far beyond all O(n²) ranges.

A route independent of the closed form and of its proof (``verification/cip/proofs/max_range_variance.py``): it
uses neither the digit recursion of the prefix variances nor the two maximising grid points, only

* prefix variances from the Haar decomposition (the same eigen-expansion as ``ranges.range_variance``): the
  indicator of the first l leaves has Haar coefficient tent_h(l mod 2^h) = min(l mod 2^h, 2^h − l mod 2^h) at
  the one node of each height h that it cuts, so 4^depth · Var = l² + Σ_h 3 · tent_h(l mod 2^h)² · 4^(depth − h)
  — exact int64 (below 2^46 at depth 20), vectorised over all l and built height by height in O(2^depth);
* Definition 3.1's halves: a range of C_depth lies in one half (a range of C_(depth−1)) or takes the last l1 leaves
  of the left half and the first l2 of the right one; by the reflection symmetry its variance is
  p(l1) + p(l2) − l1·l2/4^(depth−1) with p the prefix variance of C_(depth−1), so 4^(depth−1) times it is
  S(l1) + S(l2) − l1·l2 with S integer;
* for every l2, the largest S(l1) − l2·l1 read off the upper convex hull of the points (l1, S(l1)) (exact int64
  slope comparisons, the hull by vectorised pruning passes), and every maximising l1 found by an exact
  vectorised scan.

So the maximum over all ranges at depth D costs O(2^D) integer operations in numpy (depth 24: 2^23-point hulls;
each pruning pass here drops about half the remaining points) instead of the O(4^D) of
``ranges.all_range_statistics``, with which it is cross-checked where both run.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from reference.core.validate import check_depth

#: Largest depth: the crossing ranges of depth D use prefix variances of depth D − 1, scaled by 4^(D−1) into
#: int64 (below 2^(2D + log2(3D)) — 2^52 at D = 24, under the hull's 2^62) and arrays of 2^(D−1) + 1 of them.
MAX_HALVES_DEPTH = 24


@dataclass(frozen=True)
class RangeMaximum:
    """The largest variance of a range sum of N(0, C_depth) (σ = 1) and every range [first, last] attaining it."""

    depth: int
    max_variance: Fraction
    maximisers: tuple[tuple[int, int], ...]  # lexicographic order


def scaled_prefix_variances(depth: int) -> np.ndarray:
    """4^depth · Var(sum of the first l leaves of C_depth) for l = 0..2^depth, exact int64, from the Haar expansion.

    The Haar part H_depth(l) = Σ_(h=1..depth) 3 · tent_h(l mod 2^h)² · 4^(depth − h) is built height by height
    from the top of the tree down to the leaves' parents, in O(2^depth) rather than O(depth · 2^depth): its
    terms below the root's height depend on l only through l mod 2^(depth − 1), so over l = 0..2^depth they are
    4 · H_(depth − 1) on the left half repeated on the right (H vanishes at multiples of 2^depth), and the root
    adds 3 · tent_depth(l)², tent_depth(l) = min(l, 2^depth − l).

    Args:
        depth: the tree's depth, an integer in [0, 23] (2**depth + 1 int64 values; the scaling by 4**depth stays
            below 2**62).
    """
    depth = check_depth(depth, maximum=MAX_HALVES_DEPTH - 1)
    haar = np.zeros(2, dtype=np.int64)  # depth 0: no node above the leaves
    for height in range(1, depth + 1):
        lengths = np.arange((1 << height) + 1, dtype=np.int64)
        tent = np.minimum(lengths, (1 << height) - lengths)
        # Haar vector of the node of this height: eigenvalue 3/2^height, squared norm 2^height
        haar = 4 * np.concatenate((haar[:-1], haar)) + 3 * tent * tent
    lengths = np.arange((1 << depth) + 1, dtype=np.int64)
    return lengths * lengths + haar  # the all-ones eigenvector: eigenvalue 2^-depth, squared norm 2^depth


#: The hull's exact int64 slope comparisons need |values| < 2^62 (their differences fit) and fewer than 2^31 points
#: (a remainder times a run, both below the number of points, fits).
_HULL_VALUE_BOUND = 1 << 62
_HULL_POINT_BOUND = 1 << 31


def _slope_at_most(
    left: tuple[np.ndarray, np.ndarray, np.ndarray], right: tuple[np.ndarray, np.ndarray, np.ndarray]
) -> np.ndarray:
    """Elementwise dy/dx (left) <= dy/dx (right), exact: each slope as (floor, remainder, run), dx > 0.

    A slope q + r/dx with 0 <= r < dx compares by q first, then r_left·dx_right against r_right·dx_left — products
    below the square of the number of points, where dy·dx itself would leave int64.
    """
    floor_left, rest_left, run_left = left
    floor_right, rest_right, run_right = right
    steeper_floor: np.ndarray = floor_left < floor_right
    same_floor: np.ndarray = floor_left == floor_right
    at_most: np.ndarray = steeper_floor | (same_floor & (rest_left * run_right <= rest_right * run_left))
    return at_most


def _upper_hull(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Vertices (x, y) of the upper convex hull of the points (x, values[x]), left to right (collinear dropped).

    Vectorised pruning: a point whose incoming edge is not steeper than its outgoing one lies on or below the
    chord of its two neighbours, so it is no vertex of the hull of the current points; dropping all such points
    at once keeps that hull, and a pass that drops none leaves exactly its vertices (strictly decreasing edge
    slopes). Each pass is exact int64 (see ``_slope_at_most``); the passes needed here grow like the depth.
    """
    if len(values) >= _HULL_POINT_BOUND or (
        len(values) and (int(values.max()) >= _HULL_VALUE_BOUND or int(values.min()) <= -_HULL_VALUE_BOUND)
    ):
        raise ValueError(f"the hull needs fewer than 2^31 points below 2^62 in size; got {len(values)} points")
    xs = np.arange(len(values), dtype=np.int64)
    ys = np.asarray(values, dtype=np.int64)
    while len(xs) >= 3:
        runs = np.diff(xs)
        floors, rests = np.divmod(np.diff(ys), runs)
        inner = _slope_at_most((floors[:-1], rests[:-1], runs[:-1]), (floors[1:], rests[1:], runs[1:]))
        if not inner.any():
            break
        keep = np.concatenate(([True], ~inner, [True]))
        xs, ys = xs[keep], ys[keep]
    return xs, ys


def _crossing_maximum(half_depth: int) -> tuple[int, list[tuple[int, int]]]:
    """max over 0 <= l1, l2 <= 2^half_depth of S(l1) + S(l2) − l1·l2 and every maximising (l1, l2)."""
    scaled = scaled_prefix_variances(half_depth)
    x, y = _upper_hull(scaled)
    # the best hull vertex for slope l2 is the number of hull edges whose slope dy/dx is >= l2, i.e. whose
    # floor(dy/dx) >= l2 (integers, dx > 0); the edge slopes decrease, so a sorted search finds it (exact int64)
    floors = np.diff(y) // np.diff(x)
    lengths = np.arange(len(scaled), dtype=np.int64)
    vertex = np.searchsorted(-floors, -lengths, side="right")
    best_by_slope = y[vertex] - lengths * x[vertex]
    totals = scaled + best_by_slope
    best = int(totals.max())
    pairs: list[tuple[int, int]] = []
    for l2 in np.flatnonzero(totals == best).tolist():
        target = best_by_slope[l2]
        pairs.extend((int(l1), l2) for l1 in np.flatnonzero(scaled - l2 * lengths == target))
    return best, pairs


def range_maxima(depth: int) -> list[RangeMaximum]:
    """The maximum range variance and its maximisers for every depth 0..depth, by halves (module docstring).

    Args:
        depth: the largest depth, an integer in [0, 24]: one :class:`RangeMaximum` is returned for each depth
            0..depth.
    """
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
