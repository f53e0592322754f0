"""The CIP mechanism: release ``x + noise`` with correlated Gaussian noise, answer workloads from it.

Answers are computed from the released vector, so they are consistent (every answer is ``W x'`` for the one
released ``x'``) and unbiased (the noise has mean zero) by construction.

Data lengths that are not a power of two — the layout choice
------------------------------------------------------------
* ``layout="pad"`` (default): the cells are the first ``length`` leaves of the perfect tree of depth
  ``(length − 1).bit_length()``; the remaining leaves hold a public 0. The noise is Cascade Sampling on the full
  tree, and only the real cells are released. Releasing a subset of the padded release is post-processing, so
  the mechanism is calibrated with the sensitivity of the full padded release: ``add_remove`` Δ² = 1 + depth/3,
  ``substitution`` Δ² from the highest common ancestor of two real cells (``reference.cip.exact.general_tree
  .padded_sensitivity_squared``).
* ``layout="balanced"``: the cells are the leaves of the balanced binary tree over ``length`` leaves (split
  ⌈m/2⌉ | ⌊m/2⌋) and the noise is Algorithm 3 on it; Δ² from the tree's split structure
  (``reference.cip.exact.general_tree.sensitivity_squared``). Every node of this tree has variance σ².

In both cases σ is the exact smallest σ for (ε, δ) (``reference.privacy.gaussian.sigma_exact``), a rational
certified sufficient by Arb ball arithmetic.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from reference.cip.exact import general_tree as cip_general_tree
from reference.cip.numeric.cascade import cascade_leaves
from reference.cip.numeric.general_tree import general_tree_leaves
from reference.cip.tree import balanced_tree
from reference.core.options import Layout
from reference.core.rng import as_generator
from reference.core.validate import (
    Neighbours,
    RationalLike,
    check_neighbours,
    check_positive_int,
    open_unit_fraction,
    positive_fraction,
)
from reference.privacy.gaussian import ExactSigma, sigma_exact

if TYPE_CHECKING:
    import numpy.typing as npt


def _check_layout(layout: object) -> Layout:
    if layout == "pad":
        return "pad"
    if layout == "balanced":
        return "balanced"
    raise ValueError(f"layout must be 'pad' or 'balanced'; got {layout!r}")


@dataclass(frozen=True)
class CorrelatedInputPerturbation:
    """A calibrated CIP mechanism for data vectors of a fixed length. Build it with :meth:`calibrate`."""

    length: int
    epsilon: Fraction
    delta: Fraction
    neighbours: Neighbours
    layout: Layout
    sensitivity_squared: Fraction
    calibration: ExactSigma

    def __repr__(self) -> str:
        return (f"CorrelatedInputPerturbation(sigma <= {self.calibration.decimal()} (rounded up), length={self.length}, "
                f"epsilon={self.epsilon}, delta={self.delta}, neighbours={self.neighbours}, layout={self.layout})")

    @classmethod
    def calibrate(
        cls,
        length: int,
        *,
        epsilon: RationalLike,
        delta: RationalLike,
        neighbours: Neighbours = "add_remove",
        layout: Layout = "pad",
    ) -> CorrelatedInputPerturbation:
        """Calibrate for ``length`` cells at (ε, δ) under the given neighbouring relation and layout.

        Args:
            length: the number of cells, an integer >= 1.
            epsilon: the target ε > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
            delta: the target δ in (0, 1), exact (int, Fraction or str such as ``"1/3"``; not float).
            neighbours: ``"add_remove"`` (one cell changes by 1) or ``"substitution"`` (one unit moves between cells).
            layout: ``"pad"`` (the first ``length`` leaves of the perfect cascade) or ``"balanced"`` (the balanced tree
                over ``length`` leaves).
        """
        size = check_positive_int(length, "length")
        eps = positive_fraction(epsilon, "epsilon")
        target = open_unit_fraction(delta, "delta")
        relation = check_neighbours(neighbours)
        shape = _check_layout(layout)
        if shape == "pad":
            sensitivity = cip_general_tree.padded_sensitivity_squared(size, relation)
        else:
            sensitivity = cip_general_tree.sensitivity_squared(balanced_tree(size), relation)
        return cls(
            size,
            eps,
            target,
            relation,
            shape,
            sensitivity,
            sigma_exact(epsilon=eps, delta=target, sensitivity_squared=sensitivity),
        )

    @property
    def sigma(self) -> float:
        """σ (standard deviation of every tree node's noise) as a float: the certified-sufficient rational σ
        rounded up to the next float, so the float never undercuts the certificate."""
        value = float(self.calibration.sigma)
        return value if Fraction(value) >= self.calibration.sigma else float(np.nextafter(value, np.inf))

    @property
    def depth(self) -> int:
        """Height of the tree the noise is drawn on (padded perfect tree, or the balanced tree)."""
        return (self.length - 1).bit_length()

    def noise(self, rng: np.random.Generator | int | None = None) -> np.ndarray:
        """One draw of the noise on the ``length`` cells.

        Draw order: ``pad`` — ``cascade_leaves(depth, σ, rng)`` then the first ``length`` leaves are kept;
        ``balanced`` — ``general_tree_leaves(balanced_tree(length), σ, rng)``.

        Args:
            rng: a ``numpy.random.Generator``, an integer seed or ``None`` (fresh OS entropy).
        """
        generator = as_generator(rng)
        if self.layout == "pad":
            return np.asarray(cascade_leaves(self.depth, self.sigma, generator)[: self.length])
        return np.asarray(general_tree_leaves(balanced_tree(self.length), self.sigma, generator))

    def release(self, data: npt.ArrayLike, rng: np.random.Generator | int | None = None) -> np.ndarray:
        """``data + noise``: the private release (a float vector of the same length).

        Args:
            data: the true cell values, a one-dimensional array of ``length`` finite numbers.
            rng: a ``numpy.random.Generator``, an integer seed or ``None`` (fresh OS entropy).
        """
        values = np.asarray(data, dtype=np.float64)
        if values.ndim != 1 or values.shape[0] != self.length:
            raise ValueError(f"data must be a one-dimensional vector of length {self.length}, got shape {values.shape}")
        if not np.all(np.isfinite(values)):
            raise ValueError("data must contain only finite values")
        return np.asarray(values + self.noise(rng))

    def answer(self, released: npt.ArrayLike, workload: npt.ArrayLike) -> np.ndarray:
        """``W @ released`` for a workload matrix of shape (queries, length).

        Args:
            released: the released vector of ``length`` values.
            workload: the workload matrix W, shape (queries, ``length``), finite entries.
        """
        vector = np.asarray(released, dtype=np.float64)
        if vector.ndim != 1 or vector.shape[0] != self.length:
            raise ValueError(f"released must be a vector of length {self.length}, got shape {vector.shape}")
        matrix = np.asarray(workload, dtype=np.float64)
        if matrix.ndim != 2 or matrix.shape[1] != self.length:
            raise ValueError(f"workload must have shape (queries, {self.length}), got {matrix.shape}")
        if not np.all(np.isfinite(matrix)):
            raise ValueError("workload must contain only finite values")
        return matrix @ vector

    def answer_ranges(self, released: npt.ArrayLike, ranges: npt.ArrayLike) -> np.ndarray:
        """Range sums ``Σ_{t=first}^{last} released_t`` for an array of [first, last] pairs (0-based, inclusive).

        Args:
            released: the released vector of ``length`` values.
            ranges: an integer array of shape (queries, 2) of [first, last] pairs, 0 <= first <= last < ``length``.
        """
        vector = np.asarray(released, dtype=np.float64)
        if vector.ndim != 1 or vector.shape[0] != self.length:
            raise ValueError(f"released must be a vector of length {self.length}, got shape {vector.shape}")
        pairs = np.asarray(ranges)
        if pairs.ndim != 2 or pairs.shape[1] != 2 or not np.issubdtype(pairs.dtype, np.integer):
            raise ValueError("ranges must be an integer array of [first, last] pairs")
        if pairs.size and (pairs.min() < 0 or pairs.max() >= self.length or np.any(pairs[:, 0] > pairs[:, 1])):
            raise ValueError(f"ranges must satisfy 0 <= first <= last < {self.length}")
        prefix = np.concatenate(([0.0], np.cumsum(vector)))
        return np.asarray(prefix[pairs[:, 1] + 1] - prefix[pairs[:, 0]])
