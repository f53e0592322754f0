"""InfTDA (TDA paper, Boninsegna, Algorithm 1): top-down discrete Gaussian release of a tree of prefix counts.

TDA's entry module: the twins (docs/architecture.md, the twin rule) :func:`reference.tda.exact.inftda` and
:func:`reference.tda.numeric.inftda`, by the names users know, ``inftda_exact`` and ``inftda_numeric``; what both
share is :mod:`reference.tda.topdown`'s.

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

from reference.tda.exact import inftda as inftda_exact
from reference.tda.numeric import inftda as inftda_numeric
from reference.tda.topdown import Progress, Projection

__all__ = ["Progress", "Projection", "inftda_exact", "inftda_numeric"]
