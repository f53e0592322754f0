"""Small implementations of Algorithm 2 (KARY) for the linear-noise audit: one correct, two deliberately faulty.

Each module exposes ``ARITY``, ``HEIGHT``, ``HORIZON``, ``CLAIMED_EPSILON``, ``noise_scale()`` (the Laplace
scale it uses), ``noise_matrix()`` (outputs × draws) and ``release_noise(z)`` (the outputs' noise as a
deterministic function of the draws, for probing).
"""
