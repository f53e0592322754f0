"""Audits to point at other people's implementations, in two families and what they share.

* :mod:`reference.audit.calibration` — certified verdicts on a claimed (ε, δ) or ρ for a calibration constant
  (Gaussian, Laplace, ℓ2-Laplace, discrete Gaussian noise); :mod:`reference.audit.height_function` — a user's
  tree-height function against the exact integer height. Both stand on their own.
* :mod:`reference.audit.linear` — the **linear-noise** family: the exact privacy of a release ``W x + B z``
  (matrices, probing a user's noise function, participation schemes, the Laplace LP, integer lattices, Rényi
  claims, the verdict).
* :mod:`reference.audit.samples` — the **sample** family: noise drawn by an implementation against the law it
  should have (laws and designs, exact sufficient statistics, power, a user's sampler function at scale, reports).

Example — a σ of 3 for (1, 1e-5)-DP at Δ² = 1 is too little, and a linear release of two counts with
Laplace(2) noise is 1-DP::

    >>> from reference.audit.calibration import audit_gaussian
    >>> audit_gaussian(sigma=3, sensitivity_squared=1, epsilon=1, delta="1e-5").verdict
    'fails'
    >>> from reference.audit.linear.audit import audit_linear_noise
    >>> audit_linear_noise([[1, 0], [0, 1]], [[1, 0], [1, 1]], "laplace", scale=2).verdict_on(epsilon=1)
    'holds'
"""

from typing import TYPE_CHECKING

from reference.core.face import lazy_face

if TYPE_CHECKING:  # where each public name comes from; imported on first use (reference.core.face)
    from .calibration import (
        CalibrationVerdict,
        audit_discrete_gaussian,
        audit_gaussian,
        audit_laplace,
        audit_laplace_l2,
    )
    from .linear.audit import LinearNoiseVerdict, audit_linear_noise
    from .linear.probe import probe_noise_matrix
    from .samples.audit import audit_cascade_samples, audit_kary_noise
    from .samples.report import SamplerAuditReport

__all__ = [
    "CalibrationVerdict",
    "LinearNoiseVerdict",
    "SamplerAuditReport",
    "audit_cascade_samples",
    "audit_discrete_gaussian",
    "audit_gaussian",
    "audit_kary_noise",
    "audit_laplace",
    "audit_laplace_l2",
    "audit_linear_noise",
    "probe_noise_matrix",
]

__getattr__, __dir__ = lazy_face(__name__)
