"""Paper-independent privacy accounting, certified with Arb ball arithmetic.

``gaussian`` (the exact Gaussian profile, the smallest σ, the classical mechanism's formula),
``laplace_profile`` (the exact multivariate Laplace profile and smallest scale),
``laplace_audit`` (certified verdicts for Laplace noise), ``pure_composition`` (optimal composition of pure DP),
``zcdp`` and ``discrete_gaussian_profile`` (zCDP conversions, the discrete Gaussian's exact δ(ε)),
``formula_search`` (where a closed-form σ stops being private). The papers' own statements live with their
paper: CIP's σ formulas in :mod:`reference.cip.privacy`, KARY's Laplace statements in :mod:`reference.kary.privacy`
and :mod:`reference.kary.theorem_1_3`.
"""
