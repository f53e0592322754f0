"""Audits to point at other people's implementations.

``calibration`` (certified verdicts on a claimed (ε, δ) or ρ for Gaussian, Laplace, ℓ2-Laplace and discrete
Gaussian noise), ``linear_noise`` (exact privacy of W x + B z: private at all, implied strategy, sensitivities,
ε or δ(ε), covariance against the CIP and KARY oracles), ``samplers`` (a sample of noise against the law it
should have, with a stated false-alarm probability).
"""
