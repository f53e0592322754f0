"""What both InfTDA twins share (:mod:`reference.tda.exact`, :mod:`reference.tda.numeric`): the checks of the
true tree and the callbacks, the projection's contract, the true tree's levels.

The mechanism itself, its draw order and its privacy are described in :mod:`reference.tda.mechanism`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from reference.tda.data import Hierarchy, Prefix, PrefixTree
from reference.tda.intopt import intopt

__all__ = ["Progress", "Projection", "check_callbacks", "check_inputs", "level_nodes", "project"]

#: IntOpt's signature: (noisy integer vector, total c >= 0) -> non-negative integers summing to c.
Projection = Callable[[Sequence[int], int], tuple[int, ...]]
#: Progress callback: called after each level with (level, d, number of nodes released at that level).
Progress = Callable[[int, int, int], None]


def check_inputs(tree: object, hierarchy: object) -> tuple[PrefixTree, Hierarchy]:
    """The true tree and its hierarchy, checked: a consistent :class:`~reference.tda.data.PrefixTree` over
    ``hierarchy`` (a ``TypeError`` or ``ValueError`` naming the parameter otherwise).

    Args:
        tree: anything: accepted when it is a consistent PrefixTree over ``hierarchy``.
        hierarchy: anything: accepted when it is a :class:`~reference.tda.data.Hierarchy`.
    """
    if not isinstance(hierarchy, Hierarchy):
        raise TypeError(f"hierarchy must be a Hierarchy, got {type(hierarchy).__name__}")
    if not isinstance(tree, PrefixTree):
        raise TypeError(f"tree must be a PrefixTree (see reference.tda.data.prefix_counts), got {type(tree).__name__}")
    if tree.hierarchy != hierarchy:
        raise ValueError("tree must be a PrefixTree over the given hierarchy")
    if not tree.is_consistent():
        raise ValueError("tree must be consistent (every node's children sum to it), as prefix_counts makes it")
    return tree, hierarchy


def check_callbacks(projection: object, progress: object) -> tuple[Projection, Progress | None]:
    """The projection (``None``: IntOpt) and the progress callback, checked callable.

    Args:
        projection: anything: accepted when it is ``None`` or callable (values, total) -> integers.
        progress: anything: accepted when it is ``None`` or callable (level, d, released).
    """
    if projection is None:
        chosen = intopt
    elif callable(projection):
        chosen = projection
    else:
        raise TypeError(f"projection must be callable (values, total) -> tuple of ints, got {type(projection)}")
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be callable (level, d, released) or None, got {type(progress).__name__}")
    return chosen, progress


def project(projection: Projection, noisy: Sequence[int], total: int, parent: Prefix) -> tuple[int, ...]:
    """Apply IntOpt and check its postcondition (length, integers >= 0, sum = total).

    Args:
        projection: the projection (values, total) -> non-negative integers summing to total.
        noisy: the noisy children counts of ``parent``.
        total: c, the released count of ``parent`` (>= 0).
        parent: the parent's prefix (named in the error when the projection breaks its contract).
    """
    result = tuple(projection(noisy, total))
    if (
        len(result) != len(noisy)
        or any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in result)
        or sum(result) != total
    ):
        raise RuntimeError(f"projection broke its contract at node {parent!r}: {result!r} for total {total}")
    return result


def level_nodes(tree: PrefixTree) -> list[dict[Prefix, int]]:
    """The true tree's non-zero nodes grouped by level (index 0..d).

    Args:
        tree: a :class:`~reference.tda.data.PrefixTree`.
    """
    levels: list[dict[Prefix, int]] = [{} for _ in range(tree.hierarchy.depth + 1)]
    for key, value in tree.counts.items():
        levels[len(key)][key] = value
    return levels
