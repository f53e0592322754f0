"""InfTDA (TDA paper, Boninsegna, Algorithm 1): top-down discrete Gaussian release of a tree of prefix counts.

The mechanism (TDA Algorithm 1)
--------------------------------
Input: the tree of prefix counts of n records over a :class:`~reference.tda.data.Hierarchy` of d attributes
(:func:`~reference.tda.data.prefix_counts`) and a zCDP budget ρ > 0. Neighbours: ``substitution`` (n is public;
the root is released exactly). With σ² = d/ρ (:func:`reference.tda.calibration.inftda_sigma_squared`):

1. V_0 = {(root, n)}.
2. For level = 1, ..., d, for every released node (u, c) of level - 1 (the root always; below it only nodes
   released with c > 0, TDA Algorithm 1 line 9): the vector of the counts of **all** |X_level| children of u
   — children with true count 0 included, so the universe X_level of each attribute (the hierarchy's category
   list) decides how many noisy values a node gets — plus |X_level| independent N_Z(0, σ²) draws (line 6); then
   IntOpt (line 7: the closest vector in ℓ∞ of non-negative integers summing to c, ties by (value, index));
   the children with a positive projected count are released (lines 8-10).
3. The output is the released tree; its level d (the leaves) is the synthetic dataset D~ (a full contingency
   table; :func:`~reference.tda.data.expand_records` turns it into records).

The universes X_level must be data-independent (declared) for the privacy guarantee to hold: they decide which
children receive noise. A universe taken from the data's observed values is not private (see
:mod:`reference.tda.data`).

So every released level sums to n, every released node's children sum to it, and counts are integers >= 0
(zero nodes are not stored: :class:`~reference.tda.data.PrefixTree` is sparse). Privacy (TDA Theorem 1, ρ-zCDP)
is established in :mod:`reference.tda.calibration`; IntOpt is post-processing.

Memory: a level holds the released nodes of the level above and a (released parents) × |X_level| block of
noisy counts, so the work and memory are proportional to the released (non-zero) nodes of the output times
the category counts, never to the full universe |X_1|...|X_d|.

Draw order (both paths)
-----------------------
Levels 1, ..., d in order; within a level, the released parents in ascending lexicographic order of their
prefix (tuples of category indices); within a parent, its children by ascending category index. The exact path
draws each parent's |X_level| values with one ``discrete_gaussian(σ², source, size=|X_level|)`` call (element 0
first); the numeric path draws a whole level with one numpy ``discrete_gaussian(σ², m·|X_level|, rng)`` call
(m released parents) and reads it row-major in the same (parent, child) order. The root draws nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

import numpy as np

from reference.core.randomness import RandomBits, check_source
from reference.core.rng import RngLike, as_generator
from reference.core.validate import RationalLike, RealLike, positive_fraction, positive_real
from reference.samplers.exact import discrete_gaussian as exact_discrete_gaussian
from reference.samplers.numeric import discrete_gaussian as numeric_discrete_gaussian
from reference.tda.calibration import inftda_sigma_squared
from reference.tda.data import Hierarchy, Prefix, PrefixTree
from reference.tda.intopt import intopt

__all__ = ["Progress", "Projection", "inftda_exact", "inftda_numeric"]

#: IntOpt's signature: (noisy integer vector, total c >= 0) -> non-negative integers summing to c.
Projection = Callable[[Sequence[int], int], tuple[int, ...]]
#: Progress callback: called after each level with (level, d, number of nodes released at that level).
Progress = Callable[[int, int, int], None]


def _check_inputs(tree: object, hierarchy: object) -> tuple[PrefixTree, Hierarchy]:
    if not isinstance(hierarchy, Hierarchy):
        raise TypeError(f"hierarchy must be a Hierarchy, got {type(hierarchy).__name__}")
    if not isinstance(tree, PrefixTree):
        raise TypeError(f"tree must be a PrefixTree (see reference.tda.data.prefix_counts), got {type(tree).__name__}")
    if tree.hierarchy != hierarchy:
        raise ValueError("tree must be a PrefixTree over the given hierarchy")
    if not tree.is_consistent():
        raise ValueError("tree must be consistent (every node's children sum to it), as prefix_counts makes it")
    return tree, hierarchy


def _check_callbacks(projection: object, progress: object) -> tuple[Projection, Progress | None]:
    if projection is None:
        chosen = intopt
    elif callable(projection):
        chosen = projection
    else:
        raise TypeError(f"projection must be callable (values, total) -> tuple of ints, got {type(projection)}")
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be callable (level, d, released) or None, got {type(progress).__name__}")
    return chosen, progress


def _project(projection: Projection, noisy: Sequence[int], total: int, parent: Prefix) -> tuple[int, ...]:
    """Apply IntOpt and check its postcondition (length, integers >= 0, sum = total)."""
    result = tuple(projection(noisy, total))
    if (
        len(result) != len(noisy)
        or any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in result)
        or sum(result) != total
    ):
        raise RuntimeError(f"projection broke its contract at node {parent!r}: {result!r} for total {total}")
    return result


def _level_nodes(tree: PrefixTree) -> list[dict[Prefix, int]]:
    """The true tree's non-zero nodes grouped by level (index 0..d)."""
    levels: list[dict[Prefix, int]] = [{} for _ in range(tree.hierarchy.depth + 1)]
    for key, value in tree.counts.items():
        levels[len(key)][key] = value
    return levels


def inftda_exact(
    tree: PrefixTree,
    hierarchy: Hierarchy,
    rho: RationalLike,
    source: RandomBits | None = None,
    *,
    projection: Projection | None = None,
    progress: Progress | None = None,
) -> PrefixTree:
    """InfTDA (TDA Algorithm 1) with the exact discrete Gaussian sampler and exact integers.

    ``tree`` is the (consistent) tree of prefix counts over ``hierarchy``; ``rho`` the total zCDP budget ρ > 0,
    an exact rational (int, Fraction, "p/q"; σ² = d/ρ exactly); ``source`` a
    :class:`~reference.core.randomness.RandomBits` (``None``: OS entropy). ``projection`` defaults to IntOpt
    (:func:`reference.tda.intopt.intopt`); ``progress(level, d, released)`` is called after each level.
    Returns the released tree (root = n exactly; see the module docstring for the draw order).

    Args:
        tree: the consistent :class:`~reference.tda.data.PrefixTree` of the true counts.
        hierarchy: the tree's :class:`~reference.tda.data.Hierarchy`.
        rho: the total zCDP budget ρ > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        source: a :class:`~reference.core.randomness.RandomBits` source or ``None`` (OS entropy).
        projection: ``None`` (IntOpt) or a function (values, total) -> projected integers.
        progress: ``None`` or a function (level, d, released) called after each level.
    """
    true_tree, shape = _check_inputs(tree, hierarchy)
    sigma_squared: Fraction = inftda_sigma_squared(shape.depth, rho=positive_fraction(rho, "rho"))
    bits = check_source(source)
    chosen, report = _check_callbacks(projection, progress)
    counts = true_tree.counts
    released: dict[Prefix, int] = {(): true_tree.total}
    parents: list[tuple[Prefix, int]] = [((), true_tree.total)]
    for level, size in enumerate(shape.sizes, start=1):
        following: list[tuple[Prefix, int]] = []
        for prefix, total in parents:
            noise = exact_discrete_gaussian(sigma_squared, bits, size=size)
            noisy = [counts.get((*prefix, child), 0) + noise[child] for child in range(size)]
            for child, value in enumerate(_project(chosen, noisy, total, prefix)):
                if value > 0:
                    following.append(((*prefix, child), value))
        released.update(following)
        parents = following
        if report is not None:
            report(level, shape.depth, len(following))
    return PrefixTree._built(shape, released)  # keys built here, values checked by _project


def inftda_numeric(
    tree: PrefixTree,
    hierarchy: Hierarchy,
    rho: RealLike,
    rng: RngLike = None,
    *,
    projection: Projection | None = None,
    progress: Progress | None = None,
) -> PrefixTree:
    """InfTDA (TDA Algorithm 1), fast path: numpy discrete Gaussian noise, one vectorised draw per level.

    Same contract as :func:`inftda_exact` except: ``rho`` is a real number > 0 (σ² = d/ρ rounded to binary64,
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
    true_tree, shape = _check_inputs(tree, hierarchy)
    budget = positive_real(rho, "rho")
    sigma_squared = shape.depth / budget
    gen = as_generator(rng)
    chosen, report = _check_callbacks(projection, progress)
    levels = _level_nodes(true_tree)
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
        matrix += numeric_discrete_gaussian(sigma_squared, rows * size, gen).reshape(rows, size)
        next_keys: list[Prefix] = []
        next_totals: list[int] = []
        for prefix, total, noisy in zip(parent_keys, parent_totals, matrix.tolist(), strict=True):
            for child, value in enumerate(_project(chosen, noisy, total, prefix)):
                if value > 0:
                    next_keys.append((*prefix, child))
                    next_totals.append(value)
        released.update(zip(next_keys, next_totals, strict=True))
        parent_keys, parent_totals = next_keys, next_totals
        if report is not None:
            report(level, shape.depth, len(next_keys))
    return PrefixTree._built(shape, released)  # keys built here, values checked by _project
