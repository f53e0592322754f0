"""Cross-checks of CIP's two-dimensional noise allocation (Appendix D.3, Algorithm 4): the exact twin against the
construction (Kronecker covariance, rectangle variances, sensitivity), the D.3 worked example, and the numeric
sampler's linear map, structure and covariance. Shared machinery (exhaustive runs, scripted linear maps, the
summary type) comes from :mod:`reference_verification.cip.checks.general_tree`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from fractions import Fraction

import numpy as np

from reference.cip.exact import general_tree as cip_general_tree
from reference.cip.exact import two_dim as cip_two_dim
from reference.cip.numeric.two_dim import two_dim_leaves, two_dim_nodes
from reference.cip.sensitivity import mahalanobis_sensitivity_squared
from reference.cip.whitening import DEFAULT_ALPHA, ldl_whitening, whitened_normal_test
from reference.core.statistical_check import StatisticalCheck
from reference.core.validate import NEIGHBOURS, check_depth, check_positive_int, positive_real

from .cascade import UNIT_ROUNDOFF, DeterministicCheck
from .general_tree import CheckSummary, all_one, compare_map, exhaustive, linear_map


def _depth_pairs(max_depth: int) -> Iterator[tuple[int, int]]:
    top = check_depth(max_depth, "max_depth", maximum=3)
    return ((r, c) for r in range(top + 1) for c in range(top + 1))


def _pair(case: tuple[int, int]) -> str:
    return f"row_depth {case[0]}, column_depth {case[1]}"


def check_two_dim_kronecker(max_depth: int = 3) -> DeterministicCheck:
    """The covariance of Algorithm 4's cells, computed from the construction, equals
    ``C_row_depth ⊗ C_column_depth`` (:func:`reference.core.linalg.kron`) for all depths up to ``max_depth``."""
    return exhaustive(
        "Algorithm 4: covariance is C_r (x) C_c",
        _depth_pairs(max_depth),
        lambda p: cip_two_dim.covariance(*p) == cip_two_dim.covariance_kronecker(*p),
        _pair,
    )


def check_two_dim_rectangles(max_depth: int = 3) -> DeterministicCheck:
    """D.3 claims: every (row node, column node) rectangle has variance σ² (from the construction, and as the
    sum of its cells), and ``X_{I,J} = X_{I0,J} + X_{I1,J} = X_{I,J0} + X_{I,J1}`` exactly."""

    def holds(pair: tuple[int, int]) -> bool:
        built = cip_two_dim.rectangle_variances(*pair)
        return (
            all_one(built.values())
            and built == cip_two_dim.rectangle_variances_from_cells(*pair)
            and cip_two_dim.is_consistent(*pair)
        )

    return exhaustive("Algorithm 4: rectangles", _depth_pairs(max_depth), holds, _pair)


def two_dim_sensitivity_prediction(row_depth: int, column_depth: int, neighbours: str) -> Fraction:
    """The closed forms derived from the Kronecker structure (module docstring of
    :mod:`reference.cip.exact.two_dim`), written out independently of that module's enumeration."""
    a, b = 1 + Fraction(row_depth, 3), 1 + Fraction(column_depth, 3)
    if neighbours == "add_remove":
        return a * b
    if row_depth and column_depth:
        return 2 * a * b - Fraction(8, 9)
    return Fraction(2 + 2 * (row_depth + column_depth), 3)


def check_two_dim_sensitivity(max_depth: int = 3, max_dense_total: int = 5) -> DeterministicCheck:
    """Δ² of Algorithm 4 (both relations): the enumeration in :func:`cip_two_dim.sensitivity_squared` equals
    the written-out closed form for depths up to 12 each, and the dense exact precision's value when both
    depths are at most ``max_depth`` (<= 3) and ``row_depth + column_depth <= max_dense_total``."""

    def holds(pair: tuple[int, int]) -> bool:
        for relation in NEIGHBOURS:
            if pair == (0, 0) and relation == "substitution":
                continue
            value = cip_two_dim.sensitivity_squared(*pair, relation)
            if value != two_dim_sensitivity_prediction(*pair, relation):
                return False
            if sum(pair) <= max_dense_total and max(pair) <= top:
                dense = cip_general_tree.exact_inverse(cip_two_dim.covariance(*pair))
                if value != mahalanobis_sensitivity_squared(dense, relation):
                    return False
        return True

    top = check_depth(max_depth, "max_depth", maximum=3)
    pairs = [(r, c) for r in range(13) for c in range(13)]
    return exhaustive("Algorithm 4: sensitivity", pairs, holds, _pair)


def check_two_by_two_example(quarter: object = None) -> DeterministicCheck:
    """The D.3 worked example: with X, Y, Z, W i.i.d. N(0, 1) the printed X_00, X_01, X_10, X_11 (coefficients
    in Q(√3), exactly, with sympy) are each N(0, 1), every row sum, column sum and the total are N(0, 1),
    X_00 + X_10 = X_0 and X_01 + X_11 = X_1; and the cells are Algorithm 4 with both depths 1 (covariance
    ``C_1 ⊗ C_1``). ``statistic`` = number of failing statements."""
    import sympy

    root3 = sympy.sqrt(3)
    q = sympy.Rational(1, 4) if quarter is None else sympy.sympify(quarter)  # the printed cells' 1/4 (mutations change it)
    # coefficient vectors on (X, Y, Z, W), as printed
    cells = {
        "X00": (q, root3 * q, root3 * q, 3 * q),
        "X01": (q, -root3 * q, root3 * q, -3 * q),
        "X10": (q, root3 * q, -root3 * q, -3 * q),
        "X11": (q, -root3 * q, -root3 * q, 3 * q),
    }
    half = sympy.Rational(1, 2)
    x0 = (half, root3 * half, 0, 0)
    x1 = (half, -root3 * half, 0, 0)

    def add(*vectors: tuple[object, ...]) -> tuple[object, ...]:
        return tuple(sympy.nsimplify(sum(parts)) for parts in zip(*vectors))

    def variance(vector: tuple[object, ...]) -> object:
        return sympy.simplify(sum(entry**2 for entry in vector))  # type: ignore[operator]

    def cov(left: tuple[object, ...], right: tuple[object, ...]) -> object:
        return sympy.simplify(sum(a * b for a, b in zip(left, right)))  # type: ignore[operator]

    c = cells
    statements = {
        "each entry N(0,1)": all(variance(v) == 1 for v in c.values()),
        "row sums N(0,1)": variance(add(c["X00"], c["X01"])) == 1 and variance(add(c["X10"], c["X11"])) == 1,
        "column sums N(0,1)": variance(add(c["X00"], c["X10"])) == 1 and variance(add(c["X01"], c["X11"])) == 1,
        "total N(0,1)": variance(add(*c.values())) == 1,
        "X00 + X10 = X0, X01 + X11 = X1": add(c["X00"], c["X10"]) == add(x0) and add(c["X01"], c["X11"]) == add(x1),
    }
    order = ["X00", "X01", "X10", "X11"]
    kron = cip_two_dim.covariance_kronecker(1, 1)
    statements["covariance is C_1 (x) C_1"] = all(
        cov(c[a], c[b]) == sympy.Rational(kron[i][j].numerator, kron[i][j].denominator)
        for i, a in enumerate(order)
        for j, b in enumerate(order)
    )
    failing = [name for name, ok in statements.items() if not ok]
    detail = f"{len(statements)} statements" + (f"; failing: {failing}" if failing else ", all hold")
    return DeterministicCheck("D.3 2x2 example", float(len(failing)), 0.0, not failing, len(statements), detail)


def check_two_dim_linear_map(row_depth: int, column_depth: int, sigma: float = 1.0) -> DeterministicCheck:
    """``two_dim_leaves`` as a linear map of its ``2**(r+c)`` normals: exactly that many are drawn and
    ``A Aᵀ = σ² C_r ⊗ C_c`` up to :func:`linear_map_bound` (``r + c <= 6``)."""
    rows, columns = check_depth(row_depth, "row_depth", maximum=3), check_depth(column_depth, "column_depth", maximum=3)
    sigma = positive_real(sigma, "sigma")
    inputs = 1 << (rows + columns)
    matrix, used = linear_map(lambda g: two_dim_leaves(rows, columns, sigma, g), inputs)
    target = cip_two_dim.covariance_kronecker(rows, columns)
    return compare_map(f"Algorithm 4 linear map, depths {rows}, {columns}", matrix, used, inputs, target, sigma)


def check_two_dim_structure(
    max_depth: int = 3, samples: int = 20, sigma: float = 1.0, seed: int = 0
) -> DeterministicCheck:
    """For all depths up to ``max_depth`` and ``samples`` seeded draws: every rectangle equals the sum of its two
    halves, split by rows and by columns, within ``32 u M`` (``M`` = largest |value| of that draw's rectangle
    array, ``u = 2**-53``); ``two_dim_leaves`` equals the leaf block of ``two_dim_nodes`` bit for bit.

    Why ``32 u M``: a row split is the 1-D step (defect at most ``u`` times the two children plus two roundings
    of the check itself). A column relation at row level ``l`` inherits half the defect of its row parent plus
    the defect of the column cascade ``Y`` scaled by √3/2 plus the roundings of this step; ``(√3/2)|Y|`` is
    half the difference of two computed rectangles, so every magnitude is at most ``M (1 + 2u)``; summing the
    halving series gives at most ``2 · 9 u M`` and the check's own two roundings ``6 u M``: under ``32 u M``.
    ``statistic`` = worst |defect| / (32 u M) (threshold 1), infinity on a leaves mismatch.
    """
    samples = check_positive_int(samples, "samples")
    sigma = positive_real(sigma, "sigma")
    seed = check_positive_int(seed, "seed", minimum=0)
    worst, where, relations, mismatched = 0.0, "none", 0, []
    unit = float(UNIT_ROUNDOFF)
    for number, (rows, columns) in enumerate(_depth_pairs(max_depth)):
        values = two_dim_nodes(rows, columns, sigma, seed + number, size=samples)
        leaves = two_dim_leaves(rows, columns, sigma, seed + number, size=samples)
        if not np.array_equal(values[:, (1 << rows) - 1 :, (1 << columns) - 1 :], leaves):
            mismatched.append((rows, columns))
        scale = 32 * unit * np.max(np.abs(values), axis=(1, 2))[:, None, None]
        inner_rows, inner_columns = (1 << rows) - 1, (1 << columns) - 1
        if inner_rows:
            parents = values[:, :inner_rows, :]
            halves = values[:, 1 : 2 * inner_rows + 1 : 2, :] + values[:, 2 : 2 * inner_rows + 2 : 2, :]
            ratio = float(np.max(np.abs(halves - parents) / scale))
            relations += parents.size
            if ratio > worst:
                worst, where = ratio, f"row split, depths {rows}, {columns}"
        if inner_columns:
            parents = values[:, :, :inner_columns]
            halves = values[:, :, 1 : 2 * inner_columns + 1 : 2] + values[:, :, 2 : 2 * inner_columns + 2 : 2]
            ratio = float(np.max(np.abs(halves - parents) / scale))
            relations += parents.size
            if ratio > worst:
                worst, where = ratio, f"column split, depths {rows}, {columns}"
    statistic = math.inf if mismatched else worst
    detail = f"{relations} rectangle relations; worst defect/(32uM) {worst:.3g} at {where}" + (
        f"; leaves mismatch at {mismatched}" if mismatched else ""
    )
    return DeterministicCheck("Algorithm 4 numeric structure", statistic, 1.0, statistic <= 1.0, relations, detail)


def check_two_dim_covariance(
    row_depth: int,
    column_depth: int,
    sigma: float = 1.0,
    samples: int = 20_000,
    seed: int = 0,
    alpha: float = DEFAULT_ALPHA,
) -> StatisticalCheck:
    """``samples`` cell arrays of Algorithm 4 (row-major), whitened with the exact ``C_r ⊗ C_c``, pass the
    i.i.d. N(0, 1) battery (``r + c <= 6``)."""
    rows, columns = check_depth(row_depth, "row_depth", maximum=3), check_depth(column_depth, "column_depth", maximum=3)
    sigma = positive_real(sigma, "sigma")
    samples = check_positive_int(samples, "samples", minimum=2)
    draws = two_dim_leaves(rows, columns, sigma, check_positive_int(seed, "seed", minimum=0), size=samples)
    white = draws.reshape(samples, -1) @ ldl_whitening(cip_two_dim.covariance_kronecker(rows, columns), sigma).T
    return whitened_normal_test(white, alpha, f"Algorithm 4 cell covariance, depths {rows}, {columns}")


def check_two_dim_rectangle_variances(
    row_depth: int,
    column_depth: int,
    sigma: float = 1.0,
    samples: int = 20_000,
    seed: int = 0,
    alpha: float = DEFAULT_ALPHA,
) -> StatisticalCheck:
    """D.3 "every X_{I,J} has the same marginal": per rectangle, ``Σ x² / σ²`` over ``samples`` draws of
    ``two_dim_nodes`` is chi-square with ``samples`` dof (two-sided), union bound over the rectangles."""
    from scipy import stats

    rows, columns = check_depth(row_depth, "row_depth", maximum=4), check_depth(column_depth, "column_depth", maximum=4)
    sigma = positive_real(sigma, "sigma")
    samples = check_positive_int(samples, "samples", minimum=2)
    values = two_dim_nodes(rows, columns, sigma, check_positive_int(seed, "seed", minimum=0), size=samples)
    squares = np.sum((values / sigma) ** 2, axis=0).ravel()
    p_values = np.minimum(1.0, 2.0 * np.minimum(stats.chi2.cdf(squares, samples), stats.chi2.sf(squares, samples)))
    index = int(np.argmin(p_values))
    combined = float(min(1.0, squares.size * p_values[index]))
    detail = (
        f"{squares.size} rectangles; most significant: index {divmod(index, values.shape[2])} with "
        f"sum of squares / sigma^2 = {squares[index]:.6g} for {samples} dof (p = {p_values[index]:.3g})"
    )
    name = f"Algorithm 4 rectangle variances, depths {rows}, {columns}"
    return StatisticalCheck.by_p_value(name=name, statistic=float(squares[index]), p_value=combined, false_alarm=alpha,
                                       samples=samples, detail=detail, subtests=squares.size)


def two_dim_structure_check(max_depth: int = 3, samples: int = 20_000, seed: int = 0) -> CheckSummary:
    """Algorithm 4 for all row and column depths up to ``max_depth`` (<= 3): covariance ``C_r ⊗ C_c`` from the
    construction, every rectangle of variance σ² and consistent both ways (exact), Δ² closed forms against
    the dense precision, the D.3 2x2 example, the sampler's linear map and float structure; plus two
    statistical checks (false alarm 1e-9 each) at depths ``(min(2, max_depth), 1)``."""
    top = check_depth(max_depth, "max_depth", maximum=3)
    rows = min(2, top)
    return CheckSummary(
        (
            check_two_dim_kronecker(top),
            check_two_dim_rectangles(top),
            check_two_dim_sensitivity(top, 2 * top if top < 3 else 5),
            check_two_by_two_example(),
            check_two_dim_linear_map(top, top),
            check_two_dim_structure(top),
            check_two_dim_covariance(rows, 1, 1.0, samples, seed),
            check_two_dim_rectangle_variances(rows, 1, 1.0, samples, seed + 1),
        )
    )
