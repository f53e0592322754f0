"""TDA's cross-checks (finite or seeded statistical verification) used by its claims and tests.

``intopt`` (optimality by brute force, the error step), ``mechanism`` (the exact and numeric paths against
Algorithm 1's law, release consistency), ``calibration`` (the level sensitivity and zCDP facts).
"""
