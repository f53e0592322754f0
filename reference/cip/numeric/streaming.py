"""Streaming Cascade Sampling (CIP paper, Remark 3.6 and Appendix D.1): the noise of element t, online.

Element ``t`` (``t = 0, 1, 2, ...``) is leaf ``t`` of a perfect binary tree that grows as the stream does:
after ``2**k`` elements the tree has depth ``k``. The first ``t`` outputs have covariance ``sigma**2`` times
the top-left ``t x t`` block of ``C_depth`` for every ``depth`` with ``2**depth >= t`` (the blocks agree
because ``C_{d+1}`` has ``C_d`` as its top-left block).

How it works
------------
* Element 0: the root (a one-leaf tree) is ``X = sigma * z``.
* Element ``t = 2**k`` (``k >= 0``), when all ``2**k`` leaves of the current tree are out: the tree grows a
  new root. The old root ``X_0`` becomes its left child and the new right child is
  ``X_1 = -X_0/2 + (sqrt(3)/2) * sigma * z`` (Remark 3.6), so that ``(X_0, X_1)`` has variances ``sigma**2``
  and covariance ``-sigma**2/2``, exactly the law Algorithm 1 gives two siblings; the new root is
  ``X_0 + X_1``. Then the path from ``X_1`` down to its leftmost leaf (``k`` splits) is generated top-down
  with the split of Algorithm 1, and each right sibling met on the way is kept for later.
* Any other ``t``: the pending right sibling on top of the stack is the node whose leftmost leaf is ``t``;
  its height is the number of trailing zero bits of ``t``, and the path down from it is generated the same
  way.

The printed Algorithm 2 (Appendix D.1) loops over depths ``1 <= i <= k - 1`` of ``{1} x {0,1}^i``: it never
splits ``X_1`` itself (``i = 0``) and stops one level above the new leaves, so for ``k = 1`` it produces no
leaf at all. This module follows the prose (split ``X_1`` and every node below it on the path, ``k`` splits).

The split of a node ``X`` with standard normal ``z`` is computed as in :mod:`reference.cip.numeric.cascade`:
``h = X * 0.5``, ``y = z * (sqrt(3)/2 * sigma)``, left ``h + y``, right ``h - y``.

Order of random draws
---------------------
* element 0: one standard normal (the root);
* element ``2**k``: one standard normal for ``X_1``, then ``k`` for the splits on the path, top-down;
* any other element ``t``: ``tz(t)`` standard normals (``tz`` = trailing zero bits), top-down.

Each element's normals are drawn with one ``Generator.standard_normal(count)`` call, which gives the same
values as ``count`` successive scalar draws. After ``2**k`` elements exactly ``2**k`` normals have been drawn.

Cost and memory: element ``t`` costs ``O(tz(t) + 1)`` (``O(log t)`` worst case, ``O(1)`` amortised since
``tz`` averages below 1); the state is the root and at most ``log2 t`` pending right siblings.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from reference.cip.numeric.cascade import SQRT3_OVER_2
from reference.core.rng import as_generator
from reference.core.validate import check_positive_int, positive_real


class StreamingCascade:
    """Online Cascade Sampling: ``next_noise()`` returns the noise of element 0, 1, 2, ... in turn.

    ``sigma > 0`` is the standard deviation of every tree node, fixed up front (the caller calibrates it for
    the horizon of the stream). ``rng`` is a ``numpy.random.Generator``, an integer seed or ``None``.
    ``horizon`` (optional positive integer) is the number of elements the calibration covers: asking for
    more raises ``ValueError``, and iteration stops there. Without a horizon the stream is unbounded.

    Args:
        sigma: σ > 0, a finite float: the standard deviation of every node, fixed up front.
        rng: a ``numpy.random.Generator``, an integer seed or ``None`` (fresh OS entropy).
        horizon: the number of elements the calibration covers, an integer >= 1, or ``None`` for an unbounded stream.
    """

    __slots__ = ("_count", "_depth", "_gen", "_horizon", "_pending", "_root", "_scale", "_sigma")

    def __init__(
        self,
        sigma: float,
        rng: np.random.Generator | int | None = None,
        horizon: int | None = None,
    ) -> None:
        self._sigma = positive_real(sigma, "sigma")
        self._gen = as_generator(rng, "rng")
        self._horizon = None if horizon is None else check_positive_int(horizon, "horizon")
        self._scale = SQRT3_OVER_2 * self._sigma
        self._count = 0
        # Depth of the smallest perfect tree holding every element produced so far, and its root's value.
        self._depth = 0
        self._root = 0.0
        # Right siblings still to be expanded, deepest last; entry heights decrease towards the top.
        self._pending: list[float] = []

    @property
    def sigma(self) -> float:
        """The standard deviation of every node."""
        return self._sigma

    @property
    def horizon(self) -> int | None:
        """The largest number of elements this stream may produce (``None``: unbounded)."""
        return self._horizon

    @property
    def count(self) -> int:
        """How many elements have been produced."""
        return self._count

    @property
    def depth(self) -> int:
        """Depth of the current tree: the smallest ``d`` with ``2**d >= count`` (0 before any element)."""
        return self._depth

    @property
    def root(self) -> float:
        """Noise of the current tree's root: the sum of the noises of all its ``2**depth`` leaves, produced
        or not (``0.0`` before the first element)."""
        return self._root

    @property
    def pending(self) -> tuple[float, ...]:
        """The right siblings kept for later, deepest last (at most ``depth`` of them)."""
        return tuple(self._pending)

    def _descend(self, value: float, height: int) -> float:
        """Split ``value`` ``height`` times down the left spine, keeping each right child; return the leaf."""
        if height == 0:
            return value
        scale = self._scale
        pending = self._pending
        for z in self._gen.standard_normal(height).tolist():
            half = value * 0.5
            noise = z * scale
            pending.append(half - noise)
            value = half + noise
        return value

    def next_noise(self) -> float:
        """The noise of the next element (element ``count``); ``ValueError`` beyond the horizon."""
        t = self._count
        if self._horizon is not None and t >= self._horizon:
            raise ValueError(
                f"horizon: this stream was calibrated for horizon={self._horizon} elements and all of them "
                "have been produced; a longer stream needs a new sigma calibrated for a longer horizon"
            )
        if t == 0:
            value = self._sigma * float(self._gen.standard_normal())
            self._root = value
        elif t == 1 << self._depth:
            # Every leaf of the current tree is out: grow a new root (Remark 3.6).
            left = self._root
            right = -0.5 * left + float(self._gen.standard_normal()) * self._scale
            self._root = left + right
            value = self._descend(right, self._depth)
            self._depth += 1
        else:
            # Leaf t is the leftmost leaf of the deepest pending right sibling, of height tz(t).
            height = (t & -t).bit_length() - 1
            value = self._descend(self._pending.pop(), height)
        self._count = t + 1
        return value

    def take(self, length: int) -> np.ndarray:
        """The next ``length`` noises as a float64 array (``length`` a non-negative integer).

        Args:
            length: how many noises, an integer >= 0 (within the horizon, if one was set).
        """
        length = check_positive_int(length, "length", minimum=0)
        if self._horizon is not None and self._count + length > self._horizon:
            raise ValueError(
                f"length: {length} more elements would exceed horizon={self._horizon} ({self._count} already produced)"
            )
        return np.array([self.next_noise() for _ in range(length)], dtype=np.float64)

    def __iter__(self) -> Iterator[float]:
        return self

    def __next__(self) -> float:
        if self._horizon is not None and self._count >= self._horizon:
            raise StopIteration
        return self.next_noise()

    def __repr__(self) -> str:
        return f"StreamingCascade(sigma={self._sigma!r}, horizon={self._horizon!r}, count={self._count})"
