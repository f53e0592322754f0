"""InfTDA (TDA Algorithm 1), fast path: the numeric twin of :mod:`reference.tda.exact`.

:func:`inftda` draws numpy's discrete Gaussian with σ² = d/ρ in binary64, one vectorised draw per level, from a
numpy generator. The mechanism and its draw order: :mod:`reference.tda.mechanism` (whose ``inftda_numeric`` this
is).
"""

from __future__ import annotations

import numpy as np

from reference.core.rng import RngLike, as_generator
from reference.core.validate import RealLike, positive_real
from reference.samplers.numeric import discrete_gaussian as numeric_discrete_gaussian
from reference.tda.data import Hierarchy, Prefix, PrefixTree
from reference.tda.topdown import Progress, Projection, check_callbacks, check_inputs, level_nodes, project

__all__ = ["inftda"]


def inftda(
    tree: PrefixTree,
    hierarchy: Hierarchy,
    rho: RealLike,
    rng: RngLike = None,
    *,
    projection: Projection | None = None,
    progress: Progress | None = None,
) -> PrefixTree:
    """InfTDA (TDA Algorithm 1), fast path: numpy discrete Gaussian noise, one vectorised draw per level.

    Same contract as :func:`reference.tda.exact.inftda` except: ``rho`` is a real number > 0 (σ² = d/ρ rounded to binary64,
    and the noise is :func:`reference.samplers.numeric.discrete_gaussian`, within float rounding of
    N_Z(0, σ²)); ``rng`` is a ``numpy.random.Generator``, a seed or ``None``. The true children counts of a
    level are scattered into an (m released parents) × |X_level| int64 matrix, the level's noise added in one
    operation, then IntOpt is applied row by row (exact Python integers). Counts must fit in int64.

    Args:
        tree: the consistent :class:`~reference.tda.data.PrefixTree` of the true counts (int64 range).
        hierarchy: the tree's :class:`~reference.tda.data.Hierarchy`.
        rho: the total zCDP budget ρ > 0, a real number.
        rng: a ``numpy.random.Generator``, an integer seed or ``None`` (fresh OS entropy).
        projection: ``None`` (IntOpt) or a function (values, total) -> projected integers.
        progress: ``None`` or a function (level, d, released) called after each level.
    """
    true_tree, shape = check_inputs(tree, hierarchy)
    budget = positive_real(rho, "rho")
    sigma_squared = shape.depth / budget
    gen = as_generator(rng)
    chosen, report = check_callbacks(projection, progress)
    levels = level_nodes(true_tree)
    released: dict[Prefix, int] = {(): true_tree.total}
    parent_keys: list[Prefix] = [()]
    parent_totals: list[int] = [true_tree.total]
    for level, size in enumerate(shape.sizes, start=1):
        rows = len(parent_keys)
        row_of = {key: row for row, key in enumerate(parent_keys)}
        matrix = np.zeros((rows, size), dtype=np.int64)
        for key, value in levels[level].items():
            row = row_of.get(key[:-1])
            if row is not None:
                matrix[row, key[-1]] = value
        matrix += numeric_discrete_gaussian(sigma_squared, size=rows * size, rng=gen).reshape(rows, size)
        next_keys: list[Prefix] = []
        next_totals: list[int] = []
        for prefix, total, noisy in zip(parent_keys, parent_totals, matrix.tolist(), strict=True):
            for child, value in enumerate(project(chosen, noisy, total, prefix)):
                if value > 0:
                    next_keys.append((*prefix, child))
                    next_totals.append(value)
        released.update(zip(next_keys, next_totals, strict=True))
        parent_keys, parent_totals = next_keys, next_totals
        if report is not None:
            report(level, shape.depth, len(next_keys))
    return PrefixTree._built(shape, released)  # keys built here, values checked by _project
