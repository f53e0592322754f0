"""Audits to point at other people's implementations, in two families and what they share.

* :mod:`reference.audit.calibration` — certified verdicts on a claimed (ε, δ) or ρ for a calibration constant
  (Gaussian, Laplace, ℓ2-Laplace, discrete Gaussian noise); :mod:`reference.audit.height_function` — a user's
  tree-height function against the exact integer height. Both stand on their own.
* :mod:`reference.audit.linear` — the **linear-noise** family: the exact privacy of a release ``W x + B z``
  (matrices, probing a user's noise function, participation schemes, the Laplace LP, integer lattices, Rényi
  claims, the verdict).
* :mod:`reference.audit.samples` — the **sample** family: noise drawn by an implementation against the law it
  should have (laws and designs, exact sufficient statistics, power, a user's sampler function at scale, reports).
"""
