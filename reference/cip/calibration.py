"""Calibrations as a user (or the command line) asks for them: the paper's σ next to the exact smallest σ.

Each result names its neighbouring relation and carries the exact inputs, the exact sensitivity, the paper's σ
(a certified enclosure, or the reason it is refused outside the theorem's range) and the exact σ with its
certificate. ``as_json`` gives the JSON form (rationals as "p/q", reals as decimal strings), as everywhere in the package.

Example — Cascade Sampling at depth 4 for (1, 1e-6)-DP: Δ² = 7/3, σ certified and rounded up::

    >>> from reference.cip.calibration import calibrate_cascade
    >>> calibration = calibrate_cascade(depth=4, epsilon=1, delta="1e-6")
    >>> calibration.sensitivity_squared, calibration.sigma_exact.decimal(6)
    (Fraction(7, 3), '6.45331')
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from reference.cip.exact import matrix as cip_matrix
from reference.cip.privacy import sigma_theorem_3_9
from reference.cip.sensitivity import cascade_sensitivity_squared
from reference.core.certified import CertifiedReal
from reference.core.exact_text import exact_text, message_value
from reference.core.validate import (
    MAX_EXACT_DEPTH,
    Neighbours,
    RationalLike,
    check_depth,
    check_neighbours,
    fraction_text,
    open_unit_fraction,
    positive_fraction,
)
from reference.privacy.gaussian import ExactSigma, sigma_classical, sigma_exact

if TYPE_CHECKING:
    from reference.cip.numeric.streaming import StreamingCascade
    from reference.cip.tree import BinaryTree


#: What ``recommended_sigma`` is, in the calibrations' JSON and human output.
RECOMMENDED_SIGMA = ("sigma_exact, the smallest σ giving (ε, δ)-DP (the exact Gaussian privacy profile, certified); "
                     "the formula's σ below is larger: more noise than needed")


@dataclass(frozen=True)
class CascadeCalibration:
    """σ for the CIP mechanism x + N(0, σ² C_depth) at (ε, δ)."""

    depth: int
    epsilon: Fraction
    delta: Fraction
    neighbours: Neighbours
    max_precision_diagonal: Fraction
    sensitivity_squared: Fraction
    sigma_paper: CertifiedReal | None
    sigma_paper_refused: str | None
    sigma_exact: ExactSigma

    def __repr__(self) -> str:
        return (f"CascadeCalibration(recommended sigma = {self.sigma_exact.decimal()} (rounded up), depth={self.depth}, "
                f"epsilon={exact_text(self.epsilon)}, delta={exact_text(self.delta)}, neighbours={self.neighbours})")

    def as_json(self) -> dict[str, Any]:
        """The JSON form of ``calibrate cascade``."""
        return {
            # the value to use first, named: the paper's σ is shown beside it for comparison
            "recommended_sigma": self.sigma_exact.decimal(),
            "recommended_sigma_rounded": "up",
            "recommended": RECOMMENDED_SIGMA,
            "depth": self.depth,
            "epsilon": fraction_text(self.epsilon),
            "delta": fraction_text(self.delta),
            "neighbours": self.neighbours,
            "max_precision_diagonal": fraction_text(self.max_precision_diagonal),
            "sensitivity_squared": fraction_text(self.sensitivity_squared),
            "sigma_paper": self.sigma_paper.decimal(rounded="up") if self.sigma_paper else None,
            "sigma_paper_rounded": "up",
            "sigma_paper_interval": self.sigma_paper.as_json("up") if self.sigma_paper else None,
            "sigma_paper_refused": self.sigma_paper_refused,
            "sigma_exact": self.sigma_exact.decimal(),
            "sigma_exact_rounded": "up",
            "sigma_exact_certificate": self.sigma_exact.as_json(),
        }


def calibrate_cascade(
    depth: int,
    *,
    epsilon: RationalLike,
    delta: RationalLike,
    neighbours: Neighbours = "add_remove",
) -> CascadeCalibration:
    """Theorem 3.9's σ (add/remove, ε ∈ (0,1], δ ∈ (0,1/2] only) and the exact smallest σ for C_depth.

    The exact σ uses the exact Mahalanobis sensitivity Δ² of the chosen neighbouring relation (add_remove:
    max diag C⁻¹ = 1 + depth/3; substitution: max over cell pairs of (e_i − e_j)ᵀ C⁻¹ (e_i − e_j)) and the
    Gaussian mechanism's exact privacy profile; it works for every ε > 0 and δ ∈ (0, 1).

    Args:
        depth: the cascade's depth (2**depth leaves, one per input cell).
        epsilon: the target ε > 0.
        delta: the target δ in (0, 1).
        neighbours: ``"add_remove"`` (one cell changes by 1) or ``"substitution"`` (one unit moves between cells).

    Returns:
        Both σ; ``recommended_sigma`` in :meth:`~CascadeCalibration.as_json` (and the repr) is the exact one.

    Example:
        >>> from reference.cip.calibration import calibrate_cascade
        >>> calibrated = calibrate_cascade(10, epsilon="1/2", delta="1e-6")
        >>> calibrated.sensitivity_squared  # 1 + depth/3 (Corollary B.3)
        Fraction(13, 3)
        >>> calibrated.sigma_exact.decimal()[:10]
        '16.7732704'
    """
    depth = check_depth(depth)
    eps = positive_fraction(epsilon, "epsilon")
    target = open_unit_fraction(delta, "delta")
    relation = check_neighbours(neighbours)
    sensitivity = cascade_sensitivity_squared(depth, relation)
    paper: CertifiedReal | None = None
    refused: str | None = None
    if relation != "add_remove":
        refused = "Theorem 3.9 is stated for add_remove neighbours (‖x − x'‖₁ <= 1); use sigma_exact"
    else:
        try:
            paper = sigma_theorem_3_9(depth, epsilon=eps, delta=target)
        except ValueError as exc:
            refused = str(exc)
    return CascadeCalibration(
        depth=depth,
        epsilon=eps,
        delta=target,
        neighbours=relation,
        max_precision_diagonal=cip_matrix.max_precision_diagonal(depth),
        sensitivity_squared=sensitivity,
        sigma_paper=paper,
        sigma_paper_refused=refused,
        sigma_exact=sigma_exact(epsilon=eps, delta=target, sensitivity_squared=sensitivity),
    )


@dataclass(frozen=True)
class GaussianCalibration:
    """σ for the scalar Gaussian mechanism with ℓ2 sensitivity Δ at (ε, δ)."""

    sensitivity: Fraction
    epsilon: Fraction
    delta: Fraction
    sigma_classical: CertifiedReal | None
    sigma_classical_refused: str | None
    sigma_exact: ExactSigma

    def __repr__(self) -> str:
        return (f"GaussianCalibration(recommended sigma = {self.sigma_exact.decimal()} (rounded up), "
                f"sensitivity={exact_text(self.sensitivity)}, epsilon={exact_text(self.epsilon)}, "
                f"delta={exact_text(self.delta)})")

    def as_json(self) -> dict[str, Any]:
        """The JSON form of ``calibrate gaussian``."""
        return {
            # the value to use first, named: the textbook σ is shown beside it for comparison
            "recommended_sigma": self.sigma_exact.decimal(),
            "recommended_sigma_rounded": "up",
            "recommended": RECOMMENDED_SIGMA,
            "sensitivity": fraction_text(self.sensitivity),
            "epsilon": fraction_text(self.epsilon),
            "delta": fraction_text(self.delta),
            "sigma_classical": self.sigma_classical.decimal(rounded="up") if self.sigma_classical else None,
            "sigma_classical_rounded": "up",
            "sigma_classical_interval": self.sigma_classical.as_json("up") if self.sigma_classical else None,
            "sigma_classical_refused": self.sigma_classical_refused,
            "sigma_exact": self.sigma_exact.decimal(),
            "sigma_exact_rounded": "up",
            "sigma_exact_certificate": self.sigma_exact.as_json(),
        }


def calibrate_gaussian(*, epsilon: RationalLike, delta: RationalLike, sensitivity: RationalLike) -> GaussianCalibration:
    """The classical σ = Δ sqrt(2 log(1.25/δ))/ε (ε < 1 only) and the exact smallest σ, for ℓ2 sensitivity Δ.

    Args:
        epsilon: the target ε > 0.
        delta: the target δ in (0, 1).
        sensitivity: Δ > 0, the ℓ2 sensitivity (Δ itself; :func:`~reference.privacy.gaussian.sigma_exact` takes
            Δ²).

    Example:
        The exact σ is the one to use; the classical formula asks for about 30% more noise here:

        >>> from reference.cip.calibration import calibrate_gaussian
        >>> calibrated = calibrate_gaussian(epsilon="1/2", delta="1e-6", sensitivity=1)
        >>> float(calibrated.sigma_exact.sigma) < float(calibrated.sigma_classical.upper)
        True
    """
    delta_l2 = positive_fraction(sensitivity, "sensitivity")
    eps = positive_fraction(epsilon, "epsilon")
    target = open_unit_fraction(delta, "delta")
    classical: CertifiedReal | None = None
    refused: str | None = None
    try:
        classical = sigma_classical(epsilon=eps, delta=target, sensitivity_squared=delta_l2**2)
    except ValueError as exc:
        refused = str(exc)
    return GaussianCalibration(
        sensitivity=delta_l2,
        epsilon=eps,
        delta=target,
        sigma_classical=classical,
        sigma_classical_refused=refused,
        sigma_exact=sigma_exact(epsilon=eps, delta=target, sensitivity_squared=delta_l2**2),
    )


@dataclass(frozen=True)
class StructuredCalibration:
    """σ for a correlated Gaussian mechanism whose Δ² comes from an exact precision matrix (general binary tree,
    Algorithm 3; two dimensions, Algorithm 4). The paper states no constant for these: Δ² is derived here, and
    Theorem 3.8's formula ``sqrt(2 Δ² log(2/δ))/ε`` is shown beside the exact σ where its range allows."""

    description: str
    epsilon: Fraction
    delta: Fraction
    neighbours: Neighbours
    sensitivity_squared: Fraction
    sigma_theorem_3_8: CertifiedReal | None
    sigma_theorem_3_8_refused: str | None
    sigma_exact: ExactSigma

    def as_json(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "mechanism": self.description,
            "epsilon": fraction_text(self.epsilon),
            "delta": fraction_text(self.delta),
            "neighbours": self.neighbours,
            "sensitivity_squared": fraction_text(self.sensitivity_squared),
            "sigma_theorem_3_8": self.sigma_theorem_3_8.decimal(rounded="up") if self.sigma_theorem_3_8 else None,
            "sigma_theorem_3_8_rounded": "up",
            "sigma_theorem_3_8_interval": self.sigma_theorem_3_8.as_json("up") if self.sigma_theorem_3_8 else None,
            "sigma_theorem_3_8_refused": self.sigma_theorem_3_8_refused,
            "sigma_exact": self.sigma_exact.decimal(),
            "sigma_exact_rounded": "up",
            "sigma_exact_certificate": self.sigma_exact.as_json(),
        }


def _structured(
    description: str, sensitivity: Fraction, epsilon: Fraction, delta: Fraction, relation: Neighbours
) -> StructuredCalibration:
    from reference.cip.privacy import sigma_theorem_3_8

    paper: CertifiedReal | None = None
    refused: str | None = None
    if relation != "add_remove":
        refused = "Theorem 3.8 is stated for add_remove neighbours; use sigma_exact"
    else:
        try:
            paper = sigma_theorem_3_8(epsilon=epsilon, delta=delta, max_precision_diagonal=sensitivity)
        except ValueError as exc:
            refused = str(exc)
    return StructuredCalibration(
        description,
        epsilon,
        delta,
        relation,
        sensitivity,
        paper,
        refused,
        sigma_exact(epsilon=epsilon, delta=delta, sensitivity_squared=sensitivity),
    )


def calibrate_general_tree(
    tree: BinaryTree,
    *,
    epsilon: RationalLike,
    delta: RationalLike,
    neighbours: Neighbours = "add_remove",
) -> StructuredCalibration:
    """σ for Algorithm 3's noise on ``tree`` (a :class:`reference.cip.tree.BinaryTree`).

    Δ² from the tree's split structure (exact; ``reference.cip.exact.general_tree.sensitivity_squared``).

    Args:
        tree: the tree, a :class:`~reference.cip.tree.BinaryTree` (``TypeError`` otherwise).
        epsilon: the target ε > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        delta: the target δ in (0, 1), exact (int, Fraction or str such as ``"1/3"``; not float).
        neighbours: ``"add_remove"`` (one cell changes by 1) or ``"substitution"`` (one unit moves between cells).
    """
    from reference.cip.exact import general_tree as cip_general_tree
    from reference.cip.tree import BinaryTree

    if not isinstance(tree, BinaryTree):
        raise TypeError(f"tree must be a BinaryTree, got {type(tree).__name__}")
    eps = positive_fraction(epsilon, "epsilon")
    target = open_unit_fraction(delta, "delta")
    relation = check_neighbours(neighbours)
    sensitivity = cip_general_tree.sensitivity_squared(tree, relation)
    return _structured(f"general binary tree with {tree.leaf_count} leaves", sensitivity, eps, target, relation)


def calibrate_two_dim(
    row_depth: int,
    column_depth: int,
    *,
    epsilon: RationalLike,
    delta: RationalLike,
    neighbours: Neighbours = "add_remove",
) -> StructuredCalibration:
    """σ for Algorithm 4's noise on a 2**row_depth x 2**column_depth grid.

    Δ² from the exact precision C_row⁻¹ ⊗ C_column⁻¹ (``reference.cip.exact.two_dim.sensitivity_squared``).

    Args:
        row_depth: the row tree's depth, an integer >= 0 (2**row_depth rows).
        column_depth: the column tree's depth, an integer >= 0 (2**column_depth columns).
        epsilon: the target ε > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        delta: the target δ in (0, 1), exact (int, Fraction or str such as ``"1/3"``; not float).
        neighbours: ``"add_remove"`` (one cell changes by 1) or ``"substitution"`` (one unit moves between cells).
    """
    from reference.cip.exact import two_dim as cip_two_dim

    eps = positive_fraction(epsilon, "epsilon")
    target = open_unit_fraction(delta, "delta")
    relation = check_neighbours(neighbours)
    sensitivity = cip_two_dim.sensitivity_squared(row_depth, column_depth, relation)
    return _structured(f"two-dimensional grid, depths {row_depth} x {column_depth}", sensitivity, eps, target, relation)


def calibrated_stream(
    horizon: int,
    *,
    epsilon: RationalLike,
    delta: RationalLike,
    neighbours: Neighbours = "add_remove",
    rng: np.random.Generator | int | None = None,
) -> tuple[StreamingCascade, ExactSigma]:
    """A :class:`reference.cip.numeric.streaming.StreamingCascade` whose σ is fixed from ``horizon`` (Remark 3.6).

    The first ``horizon`` outputs are the first ``horizon`` leaves of the cascade on the perfect tree of depth
    ``(horizon − 1).bit_length()``, so the calibration is that of the padded release of that tree (Δ² from
    ``reference.cip.exact.general_tree.padded_sensitivity_squared``); the stream refuses to run past the
    horizon. σ is the exact smallest σ, rounded up to the next float. Returns the stream and its certificate.

    Args:
        horizon: the number of stream elements the calibration covers, an integer >= 1; the stream refuses to go past
            it.
        epsilon: the target ε > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        delta: the target δ in (0, 1), exact (int, Fraction or str such as ``"1/3"``; not float).
        neighbours: ``"add_remove"`` (one cell changes by 1) or ``"substitution"`` (one unit moves between cells).
        rng: a ``numpy.random.Generator``, an integer seed or ``None`` (fresh OS entropy), for the stream's draws.
    """
    from reference.cip.exact import general_tree as cip_general_tree
    from reference.cip.numeric.streaming import StreamingCascade
    from reference.core.validate import check_positive_int

    length = check_positive_int(horizon, "horizon")
    if length > 2**MAX_EXACT_DEPTH:  # the padded tree's depth (horizon − 1).bit_length() is bounded, not horizon
        raise ValueError(f"horizon must be at most 2**{MAX_EXACT_DEPTH} (a padded tree of depth {MAX_EXACT_DEPTH}), "
                         f"got {message_value(length)}")
    eps = positive_fraction(epsilon, "epsilon")
    target = open_unit_fraction(delta, "delta")
    relation = check_neighbours(neighbours)
    certificate = sigma_exact(
        epsilon=eps, delta=target, sensitivity_squared=cip_general_tree.padded_sensitivity_squared(length, relation)
    )
    if not Fraction(2**-1000) <= certificate.sigma <= Fraction(2**1000):
        raise ValueError(f"epsilon and delta give the exact sigma {certificate.decimal()}, outside the numeric stream's "
                         "float range [2**-1000, 2**1000]")
    sigma = float(certificate.sigma)
    if Fraction(sigma) < certificate.sigma:
        sigma = float(np.nextafter(sigma, np.inf))
    return StreamingCascade(sigma, rng, horizon=length), certificate
