"""reference: an exact, formally checked reference implementation of differentially private mechanisms.

Implemented: CIP — correlated Gaussian input perturbation with Cascade Sampling (Dharangutte, Gao, Gong, Wang);
the certified privacy calibrations, conversions and exact samplers the KARY and TDA mechanisms stand on
(:mod:`reference.privacy`, :mod:`reference.samplers.exact`) and the calibration audit.

Conventions (see README): ``depth`` is the height of a perfect binary tree with n = 2**depth leaves (never a bare
``k``); ``sigma`` is a standard deviation; calibrations name their neighbouring relation, ``"add_remove"`` (one
count changes by one) or ``"substitution"`` (one record moves between cells); ``log`` is natural; leaves are in
natural order and tree nodes are ``(level, position)`` with level 0 the root (arrays of all nodes are in level
order, node (l, p) at index 2**l − 1 + p); ranges are ``[first, last]``, 0-based, inclusive. Exact inputs are
``int``, ``Fraction`` or strings such as ``"1/3"`` — never ``float``. Samplers take a ``numpy.random.Generator``
or an integer seed and document their draw order.

The exact layer lives in :mod:`reference.exact` (``cip_matrix``, ``cip_ranges``, ``cip_errors``, ``cascade``,
``cip_general_tree``, ``cip_two_dim``, ``linalg``), the numeric layer in :mod:`reference.numeric`, the privacy
calibrations in :mod:`reference.privacy`. The names below are the entry points.
"""

from reference.audit.calibration import CalibrationVerdict, audit_discrete_gaussian, audit_gaussian, audit_laplace, audit_laplace_l2
from reference.cip.calibration import CascadeCalibration, GaussianCalibration, StructuredCalibration, calibrate_cascade, calibrate_gaussian, calibrate_general_tree, calibrate_two_dim, calibrated_stream
from reference.cip.exact import errors as cip_errors
from reference.cip.exact import matrix as cip_matrix
from reference.cip.exact import ranges as cip_ranges
from reference.cip.exact.ranges import RangeStatistics, all_range_statistics, range_variance
from reference.cip.numeric.cascade import cascade_leaves, cascade_tree, level_view
from reference.cip.numeric.errors import expected_worst_error, worst_range_error
from reference.cip.mechanism import CorrelatedInputPerturbation
from reference.cip.numeric.general_tree import BinaryTree, balanced_tree, general_tree_leaves, general_tree_nodes
from reference.cip.numeric.streaming import StreamingCascade
from reference.cip.numeric.two_dim import two_dim_leaves, two_dim_nodes
from reference.core.certified import CertifiedReal
from reference.privacy.gaussian import (
    ExactSigma,
    GaussianVerdict,
    check_gaussian,
    gaussian_delta,
    gaussian_epsilon,
    sigma_classical,
    sigma_exact,
    sigma_theorem_3_8,
    sigma_theorem_3_9,
)
from reference.cip.sensitivity import cascade_sensitivity_squared, mahalanobis_sensitivity_squared

__version__ = "0.1.0"

__all__ = [
    "BinaryTree",
    "CalibrationVerdict",
    "CascadeCalibration",
    "CertifiedReal",
    "CorrelatedInputPerturbation",
    "ExactSigma",
    "GaussianCalibration",
    "GaussianVerdict",
    "RangeStatistics",
    "StreamingCascade",
    "StructuredCalibration",
    "__version__",
    "all_range_statistics",
    "audit_discrete_gaussian",
    "audit_gaussian",
    "audit_laplace",
    "audit_laplace_l2",
    "balanced_tree",
    "calibrate_cascade",
    "calibrate_gaussian",
    "calibrate_general_tree",
    "calibrate_two_dim",
    "calibrated_stream",
    "cascade_leaves",
    "cascade_sensitivity_squared",
    "cascade_tree",
    "check_gaussian",
    "cip_errors",
    "cip_matrix",
    "cip_ranges",
    "expected_worst_error",
    "gaussian_delta",
    "gaussian_epsilon",
    "general_tree_leaves",
    "general_tree_nodes",
    "level_view",
    "mahalanobis_sensitivity_squared",
    "range_variance",
    "sigma_classical",
    "sigma_exact",
    "sigma_theorem_3_8",
    "sigma_theorem_3_9",
    "two_dim_leaves",
    "two_dim_nodes",
    "worst_range_error",
]
