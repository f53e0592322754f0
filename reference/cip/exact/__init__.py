"""CIP's exact layer (Fractions, no float): the twins of :mod:`reference.cip.numeric`.

``matrix`` (C_depth of Definition 3.1, inverse, spectrum, determinant), ``ranges`` (range variances, all ranges),
``errors`` (Definitions 3.10–3.11 and the nodal and range workloads), ``cascade`` (Algorithm 1's covariance from
the construction), ``general_tree`` (Algorithm 3), ``two_dim`` (Algorithm 4).
"""

#: No name is imported from the package itself: import its modules (the top-level face, ``reference``, carries
#: the entry points).
__all__: list[str] = []
