"""Discrete Laplace and Gaussian samplers, exact and numeric side by side, with their laws and cross-checks.

``exact`` (CKS samplers in integer arithmetic on random bits; the discrete Gaussian by ``inversion`` of a certified
CDF table, vectorised, with CKS as its twin), ``numeric`` (numpy twins), ``numeric_runs`` (many runs in one
call), ``pmf`` (certified pmfs, tails and variances), ``checks`` (seeded goodness-of-fit and moment tests with rigorous false-alarm bounds),
``exact_checks`` (exhaustive enumeration of bit strings, certified facts).
"""
