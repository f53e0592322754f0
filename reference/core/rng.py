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
#: A batch's root seed (:func:`run_seeds`): a non-negative integer, a ``SeedSequence`` or a ``Generator``.
SeedLike = int | np.random.SeedSequence | np.random.Generator


def as_generator(rng: object, name: str = "rng") -> np.random.Generator:
    """Return a ``numpy.random.Generator`` for ``rng`` (a Generator, a non-negative int seed, or None).

    Raises ``TypeError`` naming ``name`` for anything else (including ``bool``, floats and the legacy
    ``RandomState``, whose streams differ from ``Generator``'s), and ``ValueError`` for a negative seed.

    Args:
        rng: anything the caller passed as ``rng``: accepted when it is a ``numpy.random.Generator`` (used as is), an
            integer seed >= 0 (PCG64) or None (fresh operating-system entropy).
        name: the parameter's name, as a refusal names it (default ``"rng"``).
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


def run_seeds(seed: SeedLike, runs: int, first_run: int = 0, name: str = "seed") -> list[np.random.SeedSequence]:
    """The per-run seeds of runs ``first_run .. first_run + runs - 1`` of a batch: the children
    ``SeedSequence.spawn`` gives a root seed sequence, built directly from their spawn keys so that a block of
    runs in the middle of a batch needs neither the earlier children nor a shared counter.

    ``seed``: a non-negative integer (the root is ``SeedSequence(seed)``), a ``SeedSequence`` (its children
    ``first_run ...`` from its ``spawn_key``; its own spawn counter is not used or advanced), or a
    ``Generator`` (its seed sequence *spawns* ``runs`` children, advancing it, so successive calls give fresh
    runs; ``first_run`` must then be 0). Child ``i`` of a root equals ``root.spawn(i + 1)[i]`` of a fresh root.

    Args:
        seed: the batch's root seed: an integer >= 0, a ``numpy.random.SeedSequence`` or a ``Generator`` (see above);
            anything else is a TypeError naming ``name``.
        runs: how many runs' seeds to return, an integer >= 0.
        first_run: the index of the first run in the batch, an integer >= 0 (default 0; must be 0 for a Generator).
        name: the parameter's name, as a refusal names it (default ``"seed"``).
    """
    if isinstance(runs, bool) or not isinstance(runs, numbers.Integral) or runs < 0:
        raise ValueError(f"runs must be a non-negative integer, got {runs!r}")
    if isinstance(first_run, bool) or not isinstance(first_run, numbers.Integral) or first_run < 0:
        raise ValueError(f"first_run must be a non-negative integer, got {first_run!r}")
    if isinstance(seed, np.random.Generator):
        if first_run:
            raise ValueError("first_run must be 0 when the seed is a Generator (its seed sequence spawns the runs)")
        sequence = seed.bit_generator.seed_seq
        if not isinstance(sequence, np.random.SeedSequence):
            raise TypeError(f"{name} must be a Generator seeded from a SeedSequence")
        return list(sequence.spawn(int(runs)))
    if isinstance(seed, np.random.SeedSequence):
        root = seed
    elif isinstance(seed, numbers.Integral) and not isinstance(seed, bool) and int(seed) >= 0:
        root = np.random.SeedSequence(int(seed))
    else:
        raise TypeError(f"{name} must be a non-negative integer, a numpy SeedSequence or a Generator; got {seed!r}")
    return [
        np.random.SeedSequence(root.entropy, spawn_key=(*root.spawn_key, first_run + index), pool_size=root.pool_size)
        for index in range(int(runs))
    ]
