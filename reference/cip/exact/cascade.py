"""Exact twin of Cascade Sampling (``reference.cip.numeric.cascade``): the covariance of all 2n − 1 node values.

Computed from Algorithm 1's construction, not from Definition 3.1, so that comparing the two is a check of
Proposition 3.5 (and of Theorem 3.3 for the internal nodes). With σ = 1 and nodes in level order (node (l, p)
at index 2**l − 1 + p), Algorithm 1 sets, for the children of node u,
``X_{u0} = X_u/2 + (√3/2) Y_u`` and ``X_{u1} = X_u/2 − (√3/2) Y_u``, with ``Y_u`` independent of every node
outside u's subtree. Hence, exactly (the √3 only ever appears squared):

* ``Var X_w = 1/4 Var X_u + 3/4 = 1`` when ``Var X_u = 1`` (the root is N(0, 1));
* for siblings, ``Cov(X_{u0}, X_{u1}) = 1/4 Var X_u − 3/4``;
* for a child w of u and any node v outside u's subtree, ``Cov(X_w, X_v) = 1/2 Cov(X_u, X_v)``;
* for a child w of u, ``Cov(X_w, X_u) = 1/2 Var X_u``.

Filling the matrix in level order uses only entries already filled. Everything is a ``Fraction``.
"""

from __future__ import annotations

from fractions import Fraction

from reference.core.linalg import Matrix
from reference.core.validate import check_depth

#: The node covariance has (2**(depth+1) − 1)² entries; depth 8 is 261 121 Fractions.
MAX_TREE_DEPTH = 8


def node_covariance(depth: int) -> Matrix:
    """Covariance (σ = 1) of all 2n − 1 node values produced by Algorithm 1, in level order, exactly.

    Args:
        depth: the cascade's depth, an integer in [0, 8] (2**depth leaves, 2**(depth + 1) − 1 nodes; node (l, p)
            at index 2**l − 1 + p).
    """
    depth = check_depth(depth, maximum=MAX_TREE_DEPTH)
    size = (2 << depth) - 1
    cov = [[Fraction(0)] * size for _ in range(size)]
    cov[0][0] = Fraction(1)
    for w in range(1, size):
        parent = (w - 1) // 2
        sibling = w - 1 if w % 2 == 0 else w + 1  # the right child (even index) follows its left sibling
        cov[w][w] = cov[parent][parent] / 4 + Fraction(3, 4)
        for v in range(w):
            if v == sibling:  # the left sibling was filled already: they share Y_parent with opposite signs
                value = cov[parent][parent] / 4 - Fraction(3, 4)
            elif v == parent:
                value = cov[parent][parent] / 2
            else:  # v is outside the parent's subtree (it precedes w in level order and is not w's sibling)
                value = cov[parent][v] / 2
            cov[w][v] = cov[v][w] = value
    return tuple(tuple(row) for row in cov)


def leaf_covariance(depth: int) -> Matrix:
    """The leaf block of :func:`node_covariance`: what Proposition 3.5 says equals C_depth.

    Args:
        depth: the cascade's depth, an integer in [0, 8]: the block is 2**depth × 2**depth Fractions.
    """
    full = node_covariance(depth)
    first = (1 << depth) - 1
    return tuple(tuple(row[first:]) for row in full[first:])
