"""Error metrics of the CIP mechanism (CIP paper, Definitions 3.10–3.12), exactly where a closed form exists.

For ``W`` a workload and noise ``s ~ N(0, σ² C_depth)``, each query's error ``(W s)_q`` is Gaussian with
variance ``σ² v_q``, ``v_q = w_qᵀ C w_q``. Hence, exactly:

* Definition 3.10, expected total squared error: ``err_2 = σ² Σ_q v_q`` (a rational when σ² is);
* Definition 3.11, worst-case expected error: ``err^∞ = σ sqrt(2/π) max_q sqrt(v_q)`` (E|N(0, v)| = sqrt(2v/π));
  returned as an exact sympy expression;
* Definition 3.12, expected worst-case error ``E max_q |(W s)_q|`` has no closed form: see
  ``reference.cip.numeric.errors`` for its Monte Carlo estimate.

Two workloads are provided, as in the paper: ``"ranges"`` (all n(n+1)/2 contiguous ranges) and ``"nodal"``
(the 2n − 1 nodes of the tree).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from reference.cip.exact import ranges as cip_ranges
from reference.core.exact_text import message_value
from reference.core.options import Workload, check_choice
from reference.core.validate import RationalLike, check_depth, check_positive_int, positive_fraction

WORKLOADS: tuple[Workload, ...] = ("ranges", "nodal")


def _check_workload(workload: object) -> Workload:
    return check_choice(workload, "workload", WORKLOADS)


def nodal_variances(depth: int) -> dict[tuple[int, int], Fraction]:
    """Variance (σ = 1) of every tree node ``(level, position)``, each computed as a range variance in
    O(depth) (node (l, p) is the range of the leaves it covers). Theorem 3.3 says each is 1; this computes it.

    Args:
        depth: the cascade's depth, an integer in [0, 16] (2**depth leaves, 2**(depth + 1) − 1 nodes).
    """
    depth = check_depth(depth, maximum=cip_ranges.MAX_ALL_RANGES_DEPTH)
    result = {}
    for level in range(depth + 1):
        width = 1 << (depth - level)
        for position in range(1 << level):
            first = position * width
            result[(level, position)] = cip_ranges.range_variance(depth, first, first + width - 1)
    return result


@dataclass(frozen=True)
class WorkloadVariances:
    """Summary of the per-query variances ``v_q`` (σ = 1) of a workload."""

    workload: Workload
    depth: int
    queries: int
    total: Fraction
    maximum: Fraction


def workload_variances(depth: int, workload: Workload) -> WorkloadVariances:
    """Number of queries, total and maximum per-query variance (σ = 1), exactly.

    Args:
        depth: the cascade's depth, an integer in [0, 16] (2**depth cells).
        workload: which queries: ``"ranges"`` (all n(n+1)/2 contiguous ranges) or ``"nodal"`` (the 2n − 1 tree
            nodes).
    """
    workload = _check_workload(workload)
    if workload == "ranges":
        stats = cip_ranges.all_range_statistics(depth)
        return WorkloadVariances(workload, stats.depth, stats.count, stats.total_variance, stats.max_variance)
    variances = nodal_variances(depth)
    values = list(variances.values())
    return WorkloadVariances(workload, depth, len(values), sum(values, Fraction(0)), max(values))


def expected_total_squared_error(depth: int, sigma_squared: RationalLike, workload: Workload) -> Fraction:
    """Definition 3.10: ``E ‖W s‖²₂ = σ² Σ_q v_q``, exactly (σ² an exact rational).

    Args:
        depth: the cascade's depth, an integer in [0, 16] (2**depth cells).
        sigma_squared: the noise variance σ² > 0 (not σ), an exact rational: int, Fraction or a string such as
            ``"1/3"``; a float is refused.
        workload: which queries: ``"ranges"`` (all n(n+1)/2 contiguous ranges) or ``"nodal"`` (the 2n − 1 tree
            nodes).
    """
    variance = positive_fraction(sigma_squared, "sigma_squared")
    return variance * workload_variances(depth, workload).total


def worst_case_expected_error(depth: int, sigma: RationalLike, workload: Workload) -> Any:
    """Definition 3.11: ``max_q E|(W s)_q| = σ sqrt(2/π) sqrt(max_q v_q)`` as an exact sympy expression.

    Args:
        depth: the cascade's depth, an integer in [0, 16] (2**depth cells).
        sigma: the noise standard deviation σ > 0 (not σ²), an exact rational: int, Fraction or a string such as
            ``"3/2"``; a float is refused.
        workload: which queries: ``"ranges"`` (all n(n+1)/2 contiguous ranges) or ``"nodal"`` (the 2n − 1 tree
            nodes).
    """
    import sympy  # imported here: sympy costs more than half a second at start-up, and only this needs it

    scale = positive_fraction(sigma, "sigma")
    maximum = workload_variances(depth, workload).maximum
    return sympy.Rational(scale.numerator, scale.denominator) * sympy.sqrt(
        2 * sympy.Rational(maximum.numerator, maximum.denominator) / sympy.pi
    )


def root_mean_square_error(depth: int, sigma_squared: RationalLike, workload: Workload) -> Fraction:
    """``err_2 / m`` (mean squared error per query), exactly; its square root is what Proposition 3.13's left
    side compares with Definition 3.11.

    Args:
        depth: the cascade's depth, an integer in [0, 16] (2**depth cells).
        sigma_squared: the noise variance σ² > 0 (not σ), an exact rational: int, Fraction or a string such as
            ``"1/3"``; a float is refused.
        workload: which queries: ``"ranges"`` (all n(n+1)/2 contiguous ranges) or ``"nodal"`` (the 2n − 1 tree
            nodes).
    """
    variances = workload_variances(depth, workload)
    return positive_fraction(sigma_squared, "sigma_squared") * variances.total / variances.queries


def nodal_workload(depth: int) -> np.ndarray:
    """The (2n − 1) x n 0/1 matrix of all tree-node queries, rows in level order (node (l, p) at row
    2**l − 1 + p), as exact integers (int64).

    Args:
        depth: the tree's depth, an integer in [0, 16] (2**depth columns, 2**(depth + 1) − 1 rows).
    """
    depth = check_depth(depth, maximum=cip_ranges.MAX_ALL_RANGES_DEPTH)
    n = 1 << depth
    matrix = np.zeros(((2 << depth) - 1, n), dtype=np.int64)
    for level in range(depth + 1):
        width = 1 << (depth - level)
        for position in range(1 << level):
            matrix[(1 << level) - 1 + position, position * width : (position + 1) * width] = 1
    return matrix


def range_bounds(length: int) -> Iterator[tuple[int, int]]:
    """Every contiguous range [first, last] of ``length`` cells, in lexicographic (first, last) order: the rows of
    :func:`range_workload`, without the matrix (a count of them costs no memory).

    Args:
        length: the number of cells n, an integer >= 1 (n(n+1)/2 ranges are yielded).
    """
    n = check_positive_int(length, "length")
    for first in range(n):
        for last in range(first, n):
            yield first, last


def range_workload(length: int) -> np.ndarray:
    """The n(n+1)/2 x n 0/1 matrix of all contiguous ranges, rows in lexicographic (first, last) order, int64.

    Args:
        length: the number of cells n, an integer in [1, 4096] (the matrix has n(n+1)/2 rows and n columns).
    """
    n = check_positive_int(length, "length")
    if n > 4096:
        raise ValueError(f"length must be at most 4096 for the dense range workload, got {message_value(n)}")
    bounds = np.array(list(range_bounds(n)), dtype=np.int64).reshape(-1, 2)
    cells = np.arange(n, dtype=np.int64)
    # row (a, b) is 1 on the cells a..b
    return ((cells >= bounds[:, :1]) & (cells <= bounds[:, 1:])).astype(np.int64)


def sample_ranges_law(length: int) -> dict[tuple[int, int], Fraction]:
    """The exact law of :func:`reference.cip.numeric.errors.sample_ranges` (CIP Appendix E.5's scheme), computed by
    following its draws: a coin with P(heads) = 2/(n+1); heads: one cell uniform among n, range [c, c]; tails: a
    first cell uniform among n and a second uniform among the other n − 1 (drawn from n − 1 values, skipping
    over the first), range [min, max]. Returns {(first, last): probability} over the ranges that occur.

    For n = 1 the coin shows heads with probability 1 and the tails branch (no pair of distinct cells) has weight 0.

    Args:
        length: n, the number of cells, an integer in [1, 512] (the tails branch enumerates n(n − 1) draws).
    """
    n = check_positive_int(length, "length")
    if n > 512:
        raise ValueError(f"length must be at most 512 for the exact law, got {message_value(n)}")
    heads = Fraction(2, n + 1)
    law = {(cell, cell): heads / n for cell in range(n)}
    if n >= 2:
        for first in range(n):
            for drawn in range(n - 1):
                second = drawn + (drawn >= first)  # the numeric sampler's skip over the first cell
                key = (min(first, second), max(first, second))
                law[key] = law.get(key, Fraction(0)) + (1 - heads) / (n * (n - 1))
    return law
