"""reference: an exact, formally checked reference implementation of three families of DP mechanisms.

Papers (cited by short name and statement number everywhere in this package):

* **CIP** — correlated Gaussian input perturbation with Cascade Sampling (Dharangutte, Gao, Gong, Wang).
* **KARY** — k-ary tree mechanisms with subtraction for continual counting (Andersson, Pagh, Steiner, Torkamani).
* **TDA** — the InfTDA top-down mechanism for hierarchical counts (Boninsegna).

The map (``help(reference)``), bottom layer first; a module imports only its own package and lower layers:

=======================  ==============================================================================
``reference.core``       exact linear algebra, certified reals and the certified bisection, random bits and
                         generators, input validation
``reference.privacy``    paper-independent privacy: Gaussian, Laplace and discrete-Gaussian profiles, zCDP,
                         composition
``reference.samplers``   exact (integer arithmetic on random bits) and fast (numpy) discrete Laplace and
                         Gaussian samplers, certified pmfs, goodness of fit (``fit``)
``reference.cip``        CIP's mechanisms: ``exact/`` and ``numeric/`` twins, ``calibration``, ``mechanism``,
                         ``sensitivity``
``reference.kary``       KARY's mechanisms: ``digits``, ``tree``, ``mse``, ``counters``, ``constants``,
                         ``threshold``
``reference.tda``        TDA's mechanism: ``data``, ``intopt``, ``mechanism``, ``calibration``
``reference.audit``      tools pointed at other people's code: calibration, linear-noise and sampler audits
``reference.testing``    assertions for other projects' test suites, hypothesis strategies
``reference.cli``        the command line (``python -m reference``), one module per command group
=======================  ==============================================================================

The verification of the papers (claims registry, cross-checks, proof programs, the report) is a separate
package, ``reference_verification`` (the repository's ``verification/`` folder), installed beside this one. It
imports ``reference``; nothing here imports or names it: it adds the ``report`` command through an entry point.

Conventions (docs/conventions.md): the papers' ``k`` is never a parameter name — ``depth`` (CIP: n = 2**depth leaves),
``arity`` (KARY), ``level`` (TDA), ``horizon`` (stream length T). ``sigma`` is a standard deviation;
Laplace(b) has density exp(−|x|/b)/(2b); the discrete Gaussian's ``sigma_squared`` is a scale, not its variance.
Calibrations name their neighbouring relation, ``"add_remove"`` (one count changes by one) or
``"substitution"`` (one record moves between cells). ``log`` is natural. Leaves are in natural order and tree
nodes are ``(level, position)`` with level 0 the root (arrays of all nodes in level order, node (l, p) at index
2**l − 1 + p); ranges are ``[first, last]``, 0-based, inclusive. Exact inputs are ``int``, ``Fraction`` or
strings such as ``"1/3"`` or ``"1e-6"`` — never ``float``; irrational results are :class:`CertifiedReal`
enclosures. Samplers take a ``numpy.random.Generator`` or an integer seed and document their draw order; the
exact samplers take a :class:`SeededRandomBits` or :class:`SystemRandomBits` source. ``as_json()`` gives a
result's JSON form (rationals as ``"p/q"``, reals as decimal strings).

The names below are the entry points; each module's docstring states its own conventions.
"""

from typing import TYPE_CHECKING

from reference.core.version import VERSION

if TYPE_CHECKING:  # the type checker sees the real imports; at run time each name is imported on first use
    from reference.audit.calibration import (
        CalibrationVerdict,
        audit_discrete_gaussian,
        audit_gaussian,
        audit_laplace,
        audit_laplace_l2,
    )
    from reference.audit.linear.audit import LinearNoiseVerdict, audit_linear_noise
    from reference.audit.linear.probe import probe_noise_matrix
    from reference.audit.samples.audit import audit_cascade_samples, audit_kary_noise
    from reference.audit.samples.report import SamplerAuditReport
    from reference.cip.calibration import (
        CascadeCalibration,
        GaussianCalibration,
        StructuredCalibration,
        calibrate_cascade,
        calibrate_gaussian,
        calibrate_general_tree,
        calibrate_two_dim,
        calibrated_stream,
    )
    from reference.cip.exact import errors as cip_errors
    from reference.cip.exact import matrix as cip_matrix
    from reference.cip.exact import ranges as cip_ranges
    from reference.cip.exact.ranges import RangeStatistics, all_range_statistics, range_variance
    from reference.cip.mechanism import CorrelatedInputPerturbation
    from reference.cip.numeric.cascade import cascade_leaves, cascade_tree, level_view
    from reference.cip.numeric.errors import expected_worst_error, worst_range_error
    from reference.cip.numeric.general_tree import general_tree_leaves, general_tree_nodes
    from reference.cip.numeric.streaming import StreamingCascade
    from reference.cip.numeric.two_dim import two_dim_leaves, two_dim_nodes
    from reference.cip.privacy import sigma_theorem_3_8, sigma_theorem_3_9
    from reference.cip.sensitivity import cascade_sensitivity_squared, mahalanobis_sensitivity_squared
    from reference.cip.tree import BinaryTree, balanced_tree
    from reference.core.certified import CertifiedReal
    from reference.core.randomness import SeededRandomBits, SystemRandomBits
    from reference.kary.constants import certified_argmin, leading_constant
    from reference.kary.counters import OnlineCounter, algorithm_1, algorithm_2_batch, algorithm_3
    from reference.kary.digits import digits, even_offset_digits, height_for_horizon, offset_digits
    from reference.kary.mse import algorithm_2_mse, algorithm_2_mse_digit_programme
    from reference.kary.privacy import l2_laplace_scale, laplace_scale
    from reference.kary.tree import algorithm_1_mse_digit_programme, check_factorization, sensitivities
    from reference.privacy.discrete_gaussian_profile import discrete_gaussian_delta, discrete_gaussian_epsilon
    from reference.privacy.gaussian import (
        ExactSigma,
        GaussianVerdict,
        check_gaussian,
        gaussian_delta,
        gaussian_epsilon,
        sigma_classical,
        sigma_exact,
    )
    from reference.privacy.laplace_profile import laplace_delta, laplace_epsilon, laplace_scale_exact
    from reference.privacy.zcdp import epsilon_from_rho_tight, rho_from_epsilon_delta
    from reference.samplers.exact import discrete_gaussian, discrete_laplace
    from reference.tda.calibration import inftda_calibration, inftda_sigma_squared
    from reference.tda.data import Hierarchy, PrefixTree, default_dataset, prefix_counts, read_csv, write_csv
    from reference.tda.intopt import intopt, intopt_literal
    from reference.tda.mechanism import inftda_exact, inftda_numeric

#: name → (module, attribute) of every entry point, imported on first access (PEP 562) so that
#: ``import reference`` and the command line's start-up do not pay for sympy or scipy
_LAZY: dict[str, tuple[str, str]] = {
    "CalibrationVerdict": ("reference.audit.calibration", "CalibrationVerdict"),
    "audit_discrete_gaussian": ("reference.audit.calibration", "audit_discrete_gaussian"),
    "audit_gaussian": ("reference.audit.calibration", "audit_gaussian"),
    "audit_laplace": ("reference.audit.calibration", "audit_laplace"),
    "audit_laplace_l2": ("reference.audit.calibration", "audit_laplace_l2"),
    "LinearNoiseVerdict": ("reference.audit.linear.audit", "LinearNoiseVerdict"),
    "audit_linear_noise": ("reference.audit.linear.audit", "audit_linear_noise"),
    "probe_noise_matrix": ("reference.audit.linear.probe", "probe_noise_matrix"),
    "SamplerAuditReport": ("reference.audit.samples.report", "SamplerAuditReport"),
    "audit_cascade_samples": ("reference.audit.samples.audit", "audit_cascade_samples"),
    "audit_kary_noise": ("reference.audit.samples.audit", "audit_kary_noise"),
    "CascadeCalibration": ("reference.cip.calibration", "CascadeCalibration"),
    "GaussianCalibration": ("reference.cip.calibration", "GaussianCalibration"),
    "StructuredCalibration": ("reference.cip.calibration", "StructuredCalibration"),
    "calibrate_cascade": ("reference.cip.calibration", "calibrate_cascade"),
    "calibrate_gaussian": ("reference.cip.calibration", "calibrate_gaussian"),
    "calibrate_general_tree": ("reference.cip.calibration", "calibrate_general_tree"),
    "calibrate_two_dim": ("reference.cip.calibration", "calibrate_two_dim"),
    "calibrated_stream": ("reference.cip.calibration", "calibrated_stream"),
    "cip_errors": ("reference.cip.exact.errors", ""),
    "cip_matrix": ("reference.cip.exact.matrix", ""),
    "cip_ranges": ("reference.cip.exact.ranges", ""),
    "RangeStatistics": ("reference.cip.exact.ranges", "RangeStatistics"),
    "all_range_statistics": ("reference.cip.exact.ranges", "all_range_statistics"),
    "range_variance": ("reference.cip.exact.ranges", "range_variance"),
    "CorrelatedInputPerturbation": ("reference.cip.mechanism", "CorrelatedInputPerturbation"),
    "cascade_leaves": ("reference.cip.numeric.cascade", "cascade_leaves"),
    "cascade_tree": ("reference.cip.numeric.cascade", "cascade_tree"),
    "level_view": ("reference.cip.numeric.cascade", "level_view"),
    "expected_worst_error": ("reference.cip.numeric.errors", "expected_worst_error"),
    "worst_range_error": ("reference.cip.numeric.errors", "worst_range_error"),
    "general_tree_leaves": ("reference.cip.numeric.general_tree", "general_tree_leaves"),
    "general_tree_nodes": ("reference.cip.numeric.general_tree", "general_tree_nodes"),
    "StreamingCascade": ("reference.cip.numeric.streaming", "StreamingCascade"),
    "two_dim_leaves": ("reference.cip.numeric.two_dim", "two_dim_leaves"),
    "two_dim_nodes": ("reference.cip.numeric.two_dim", "two_dim_nodes"),
    "sigma_theorem_3_8": ("reference.cip.privacy", "sigma_theorem_3_8"),
    "sigma_theorem_3_9": ("reference.cip.privacy", "sigma_theorem_3_9"),
    "cascade_sensitivity_squared": ("reference.cip.sensitivity", "cascade_sensitivity_squared"),
    "mahalanobis_sensitivity_squared": ("reference.cip.sensitivity", "mahalanobis_sensitivity_squared"),
    "BinaryTree": ("reference.cip.tree", "BinaryTree"),
    "balanced_tree": ("reference.cip.tree", "balanced_tree"),
    "CertifiedReal": ("reference.core.certified", "CertifiedReal"),
    "SeededRandomBits": ("reference.core.randomness", "SeededRandomBits"),
    "SystemRandomBits": ("reference.core.randomness", "SystemRandomBits"),
    "certified_argmin": ("reference.kary.constants", "certified_argmin"),
    "leading_constant": ("reference.kary.constants", "leading_constant"),
    "OnlineCounter": ("reference.kary.counters", "OnlineCounter"),
    "algorithm_1": ("reference.kary.counters", "algorithm_1"),
    "algorithm_2_batch": ("reference.kary.counters", "algorithm_2_batch"),
    "algorithm_3": ("reference.kary.counters", "algorithm_3"),
    "digits": ("reference.kary.digits", "digits"),
    "even_offset_digits": ("reference.kary.digits", "even_offset_digits"),
    "height_for_horizon": ("reference.kary.digits", "height_for_horizon"),
    "offset_digits": ("reference.kary.digits", "offset_digits"),
    "algorithm_2_mse": ("reference.kary.mse", "algorithm_2_mse"),
    "algorithm_2_mse_digit_programme": ("reference.kary.mse", "algorithm_2_mse_digit_programme"),
    "l2_laplace_scale": ("reference.kary.privacy", "l2_laplace_scale"),
    "laplace_scale": ("reference.kary.privacy", "laplace_scale"),
    "algorithm_1_mse_digit_programme": ("reference.kary.tree", "algorithm_1_mse_digit_programme"),
    "check_factorization": ("reference.kary.tree", "check_factorization"),
    "sensitivities": ("reference.kary.tree", "sensitivities"),
    "discrete_gaussian_delta": ("reference.privacy.discrete_gaussian_profile", "discrete_gaussian_delta"),
    "discrete_gaussian_epsilon": ("reference.privacy.discrete_gaussian_profile", "discrete_gaussian_epsilon"),
    "ExactSigma": ("reference.privacy.gaussian", "ExactSigma"),
    "GaussianVerdict": ("reference.privacy.gaussian", "GaussianVerdict"),
    "check_gaussian": ("reference.privacy.gaussian", "check_gaussian"),
    "gaussian_delta": ("reference.privacy.gaussian", "gaussian_delta"),
    "gaussian_epsilon": ("reference.privacy.gaussian", "gaussian_epsilon"),
    "sigma_classical": ("reference.privacy.gaussian", "sigma_classical"),
    "sigma_exact": ("reference.privacy.gaussian", "sigma_exact"),
    "laplace_delta": ("reference.privacy.laplace_profile", "laplace_delta"),
    "laplace_epsilon": ("reference.privacy.laplace_profile", "laplace_epsilon"),
    "laplace_scale_exact": ("reference.privacy.laplace_profile", "laplace_scale_exact"),
    "epsilon_from_rho_tight": ("reference.privacy.zcdp", "epsilon_from_rho_tight"),
    "rho_from_epsilon_delta": ("reference.privacy.zcdp", "rho_from_epsilon_delta"),
    "discrete_gaussian": ("reference.samplers.exact", "discrete_gaussian"),
    "discrete_laplace": ("reference.samplers.exact", "discrete_laplace"),
    "inftda_calibration": ("reference.tda.calibration", "inftda_calibration"),
    "inftda_sigma_squared": ("reference.tda.calibration", "inftda_sigma_squared"),
    "Hierarchy": ("reference.tda.data", "Hierarchy"),
    "PrefixTree": ("reference.tda.data", "PrefixTree"),
    "default_dataset": ("reference.tda.data", "default_dataset"),
    "prefix_counts": ("reference.tda.data", "prefix_counts"),
    "read_csv": ("reference.tda.data", "read_csv"),
    "write_csv": ("reference.tda.data", "write_csv"),
    "intopt": ("reference.tda.intopt", "intopt"),
    "intopt_literal": ("reference.tda.intopt", "intopt_literal"),
    "inftda_exact": ("reference.tda.mechanism", "inftda_exact"),
    "inftda_numeric": ("reference.tda.mechanism", "inftda_numeric"),
}


def __getattr__(name: str) -> object:
    try:
        module_name, attribute = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'reference' has no attribute {name!r}") from None
    import importlib

    module = importlib.import_module(module_name)
    value = module if attribute == "" else getattr(module, attribute)
    globals()[name] = value  # later accesses skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__version__ = VERSION

__all__ = [
    "BinaryTree",
    "CalibrationVerdict",
    "CascadeCalibration",
    "CertifiedReal",
    "CorrelatedInputPerturbation",
    "ExactSigma",
    "GaussianCalibration",
    "GaussianVerdict",
    "Hierarchy",
    "LinearNoiseVerdict",
    "OnlineCounter",
    "PrefixTree",
    "RangeStatistics",
    "SamplerAuditReport",
    "SeededRandomBits",
    "StreamingCascade",
    "StructuredCalibration",
    "SystemRandomBits",
    "__version__",
    "algorithm_1",
    "algorithm_1_mse_digit_programme",
    "algorithm_2_batch",
    "algorithm_2_mse",
    "algorithm_2_mse_digit_programme",
    "algorithm_3",
    "all_range_statistics",
    "audit_cascade_samples",
    "audit_discrete_gaussian",
    "audit_gaussian",
    "audit_kary_noise",
    "audit_laplace",
    "audit_laplace_l2",
    "audit_linear_noise",
    "balanced_tree",
    "calibrate_cascade",
    "calibrate_gaussian",
    "calibrate_general_tree",
    "calibrate_two_dim",
    "calibrated_stream",
    "cascade_leaves",
    "cascade_sensitivity_squared",
    "cascade_tree",
    "certified_argmin",
    "check_factorization",
    "check_gaussian",
    "cip_errors",
    "cip_matrix",
    "cip_ranges",
    "default_dataset",
    "digits",
    "discrete_gaussian",
    "discrete_gaussian_delta",
    "discrete_gaussian_epsilon",
    "discrete_laplace",
    "epsilon_from_rho_tight",
    "even_offset_digits",
    "expected_worst_error",
    "gaussian_delta",
    "gaussian_epsilon",
    "general_tree_leaves",
    "general_tree_nodes",
    "height_for_horizon",
    "inftda_calibration",
    "inftda_exact",
    "inftda_numeric",
    "inftda_sigma_squared",
    "intopt",
    "intopt_literal",
    "l2_laplace_scale",
    "laplace_delta",
    "laplace_epsilon",
    "laplace_scale",
    "laplace_scale_exact",
    "leading_constant",
    "level_view",
    "mahalanobis_sensitivity_squared",
    "offset_digits",
    "prefix_counts",
    "probe_noise_matrix",
    "range_variance",
    "read_csv",
    "rho_from_epsilon_delta",
    "sensitivities",
    "sigma_classical",
    "sigma_exact",
    "sigma_theorem_3_8",
    "sigma_theorem_3_9",
    "two_dim_leaves",
    "two_dim_nodes",
    "worst_range_error",
    "write_csv",
]
