"""CIP's numeric layer (numpy): the samplers and realised errors, twins of :mod:`reference.cip.exact`.

``cascade`` (Algorithm 1), ``streaming`` (Remark 3.6, one element at a time), ``general_tree`` (Algorithm 3),
``two_dim`` (Algorithm 4), ``errors`` (realised worst-case range error, Monte Carlo of Definition 3.12).
"""

#: No name is imported from the package itself: import its modules (the top-level face, ``reference``, carries
#: the entry points).
__all__: list[str] = []
