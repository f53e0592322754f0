"""Everything of CIP (Dharangutte, Gao, Gong, Wang): correlated Gaussian input perturbation with Cascade Sampling.

``exact/`` holds the exact twins (C_depth, ranges, errors, cascade covariance, general trees, two dimensions) and
``numeric/`` the samplers and realised errors, module for module; ``tree`` (general binary trees, shared by both),
``sensitivity`` (Δ² per neighbouring relation), ``privacy`` (the σ of Theorems 3.8 and 3.9, as printed),
``calibration`` (the paper's σ beside the exact one),
``mechanism`` (release and answer workloads), ``whitening`` (whitening and a rigorous normality test). The
proof programs, cross-checks and the paper's registry are the verification's (``verification/cip/``).
"""

from typing import TYPE_CHECKING

from reference.core.face import lazy_face

if TYPE_CHECKING:  # where each public name comes from; imported on first use (reference.core.face)
    from .calibration import (
        CascadeCalibration,
        GaussianCalibration,
        StructuredCalibration,
        calibrate_cascade,
        calibrate_gaussian,
        calibrate_general_tree,
        calibrate_two_dim,
        calibrated_stream,
    )
    from .exact import errors as cip_errors
    from .exact import matrix as cip_matrix
    from .exact import ranges as cip_ranges
    from .exact.ranges import RangeStatistics, all_range_statistics, range_variance
    from .mechanism import CorrelatedInputPerturbation
    from .numeric.cascade import cascade_leaves, cascade_tree, level_view
    from .numeric.errors import expected_worst_error, worst_range_error
    from .numeric.general_tree import general_tree_leaves, general_tree_nodes
    from .numeric.streaming import StreamingCascade
    from .numeric.two_dim import two_dim_leaves, two_dim_nodes
    from .privacy import sigma_theorem_3_8, sigma_theorem_3_9
    from .sensitivity import cascade_sensitivity_squared, mahalanobis_sensitivity_squared
    from .tree import BinaryTree, balanced_tree

__all__ = [
    "BinaryTree",
    "CascadeCalibration",
    "CorrelatedInputPerturbation",
    "GaussianCalibration",
    "RangeStatistics",
    "StreamingCascade",
    "StructuredCalibration",
    "all_range_statistics",
    "balanced_tree",
    "calibrate_cascade",
    "calibrate_gaussian",
    "calibrate_general_tree",
    "calibrate_two_dim",
    "calibrated_stream",
    "cascade_leaves",
    "cascade_sensitivity_squared",
    "cascade_tree",
    "cip_errors",
    "cip_matrix",
    "cip_ranges",
    "expected_worst_error",
    "general_tree_leaves",
    "general_tree_nodes",
    "level_view",
    "mahalanobis_sensitivity_squared",
    "range_variance",
    "sigma_theorem_3_8",
    "sigma_theorem_3_9",
    "two_dim_leaves",
    "two_dim_nodes",
    "worst_range_error",
]

__getattr__, __dir__ = lazy_face(__name__)
