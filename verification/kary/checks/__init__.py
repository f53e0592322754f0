"""KARY's cross-checks (finite or seeded statistical verification) used by its claims and tests.

``structure`` (vertices, factorization, sensitivities, MSE), ``counters`` (the numeric counters against the exact
layer), ``constants`` (every quoted constant, certified), ``threshold`` (HUU thresholds, Appendix C),
``laplace`` (the Laplace calibrations against the exact profile).
"""
