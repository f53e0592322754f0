"""CIP's cross-checks (finite or seeded statistical verification, never proofs) used by its claims and tests.

``cascade`` (Algorithm 1 and streaming against C_depth), ``general_tree`` (Algorithm 3 and the shared machinery),
``two_dim`` (Algorithm 4 and the D.3 example), ``gaussian`` (Theorems 3.8 and 3.9 against the exact profile).
"""
