"""One way to turn a user's ``rng`` argument into a ``numpy.random.Generator``.

Every randomised function of the numeric layer accepts ``rng: np.random.Generator | int | None``:

* a ``Generator`` is used as is (its state advances, so successive calls give fresh draws);
* an ``int`` (>= 0) is a seed for ``numpy.random.default_rng`` (PCG64), so the same seed gives the same
  output on every platform and numpy version that keeps PCG64's stream;
* ``None`` takes fresh entropy from the operating system (not reproducible).
"""

from __future__ import annotations

import numbers

import numpy as np

RngLike = np.random.Generator | int | None


def as_generator(rng: object, name: str = "rng") -> np.random.Generator:
    """Return a ``numpy.random.Generator`` for ``rng`` (a Generator, a non-negative int seed, or None).

    Raises ``TypeError`` naming ``name`` for anything else (including ``bool``, floats and the legacy
    ``RandomState``, whose streams differ from ``Generator``'s), and ``ValueError`` for a negative seed.
    """
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None:
        return np.random.default_rng()
    # bool is an int subclass; True as a seed is almost certainly a mistake.
    if isinstance(rng, numbers.Integral) and not isinstance(rng, bool):
        seed = int(rng)
        if seed < 0:
            raise ValueError(
                f"{name} must be a non-negative integer seed, a numpy.random.Generator or None; got {seed}"
            )
        return np.random.default_rng(seed)
    raise TypeError(
        f"{name} must be a numpy.random.Generator, a non-negative integer seed or None; got {type(rng).__name__}"
    )
