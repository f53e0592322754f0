"""Paper-independent privacy accounting, certified with Arb ball arithmetic.

``gaussian`` (the exact Gaussian profile, the smallest σ, the classical mechanism's formula),
``laplace_profile`` (the exact multivariate Laplace profile), ``laplace_scale`` (its smallest scale),
``laplace_audit`` (certified verdicts for Laplace noise), ``pure_composition`` (optimal composition of pure DP),
``zcdp`` and ``discrete_gaussian_profile`` (zCDP conversions, the discrete Gaussian's exact δ(ε)),
``formula_search`` (where a closed-form σ stops being private). The papers' own statements live with their
paper: CIP's σ formulas in :mod:`reference.cip.privacy`, KARY's Laplace statements in :mod:`reference.kary.privacy`
and :mod:`reference.kary.theorem_1_3`.
"""

from typing import TYPE_CHECKING

from reference.core.face import lazy_face

if TYPE_CHECKING:  # where each public name comes from; imported on first use (reference.core.face)
    from .discrete_gaussian_profile import discrete_gaussian_delta, discrete_gaussian_epsilon
    from .gaussian import ExactSigma, gaussian_delta, gaussian_epsilon, sigma_classical, sigma_exact
    from .laplace_profile import laplace_delta, laplace_epsilon
    from .laplace_scale import laplace_scale_exact
    from .zcdp import epsilon_from_rho_tight, rho_from_epsilon_delta

__all__ = [
    "ExactSigma",
    "discrete_gaussian_delta",
    "discrete_gaussian_epsilon",
    "epsilon_from_rho_tight",
    "gaussian_delta",
    "gaussian_epsilon",
    "laplace_delta",
    "laplace_epsilon",
    "laplace_scale_exact",
    "rho_from_epsilon_delta",
    "sigma_classical",
    "sigma_exact",
]

__getattr__, __dir__ = lazy_face(__name__)
