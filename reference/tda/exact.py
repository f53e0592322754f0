"""InfTDA (TDA Algorithm 1) with exact noise: the exact twin of :mod:`reference.tda.numeric`.

:func:`inftda` draws the exact discrete Gaussian N_Z(0, σ²) with σ² = d/ρ an exact rational, from a
:class:`~reference.core.randomness.RandomBits` source, and computes in exact integers. The mechanism and its draw
order: :mod:`reference.tda.mechanism` (whose ``inftda_exact`` this is).
"""

from __future__ import annotations

from fractions import Fraction

from reference.core.randomness import RandomBits, check_source
from reference.core.validate import RationalLike, positive_fraction
from reference.samplers.exact import discrete_gaussian as exact_discrete_gaussian
from reference.tda.calibration import inftda_sigma_squared
from reference.tda.data import Hierarchy, Prefix, PrefixTree
from reference.tda.topdown import Progress, Projection, check_callbacks, check_inputs, project

__all__ = ["inftda"]


def inftda(
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
    true_tree, shape = check_inputs(tree, hierarchy)
    sigma_squared: Fraction = inftda_sigma_squared(shape.depth, rho=positive_fraction(rho, "rho"))
    bits = check_source(source)
    chosen, report = check_callbacks(projection, progress)
    counts = true_tree.counts
    released: dict[Prefix, int] = {(): true_tree.total}
    parents: list[tuple[Prefix, int]] = [((), true_tree.total)]
    for level, size in enumerate(shape.sizes, start=1):
        following: list[tuple[Prefix, int]] = []
        for prefix, total in parents:
            noise = exact_discrete_gaussian(sigma_squared, source=bits, size=size)
            noisy = [counts.get((*prefix, child), 0) + noise[child] for child in range(size)]
            for child, value in enumerate(project(chosen, noisy, total, prefix)):
                if value > 0:
                    following.append(((*prefix, child), value))
        released.update(following)
        parents = following
        if report is not None:
            report(level, shape.depth, len(following))
    return PrefixTree._built(shape, released)  # keys built here, values checked by _project
