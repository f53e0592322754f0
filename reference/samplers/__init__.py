"""Discrete Laplace and Gaussian samplers, exact and numeric side by side, with their laws and cross-checks.

``exact`` (CKS samplers in integer arithmetic on random bits; the discrete Gaussian by ``inversion`` of a certified
CDF table, vectorised, with CKS as its twin; ``blocked`` at large σ), ``numeric`` (numpy twins), ``numeric_runs``
(many runs in one call), ``pmf`` (certified pmfs, tails and variances), ``fit`` (seeded goodness-of-fit and
moment tests with rigorous false-alarm bounds). The exhaustive and statistical checks of the samplers themselves
are the verification's (``verification/samplers/``).
"""

from typing import TYPE_CHECKING

from reference.core.face import lazy_face

if TYPE_CHECKING:  # where each public name comes from; imported on first use (reference.core.face)
    from .exact import discrete_gaussian, discrete_laplace

__all__ = [
    "discrete_gaussian",
    "discrete_laplace",
]

__getattr__, __dir__ = lazy_face(__name__)
