"""Paper-independent privacy accounting, certified with Arb ball arithmetic.

``gaussian`` (the exact Gaussian profile, the smallest σ, the classical and CIP Theorem 3.8/3.9 formulas),
``laplace`` and ``laplace_profile`` (Laplace and ℓ2-Laplace calibrations, the exact multivariate profile),
``laplace_audit`` (certified verdicts for Laplace noise), ``pure_composition`` (optimal composition of pure DP),
``zcdp`` and ``discrete_gaussian_profile`` (zCDP conversions, the discrete Gaussian's exact δ(ε)),
``formula_search`` (where a closed-form σ stops being private).
"""
