"""The numeric samplers for many runs in one call: ``runs × size`` arrays, run ``r`` equal to the single-run sampler.

Row ``i`` of :func:`laplace_runs`, :func:`discrete_laplace_runs` and :func:`discrete_gaussian_runs` is, value
for value, what :func:`reference.samplers.numeric.laplace` (``discrete_laplace``, ``discrete_gaussian``) returns for
the same parameters, ``size`` and ``rng = numpy.random.default_rng(s)``, with ``s`` the per-run seed of run
``first_run + i`` (:func:`reference.core.rng.run_seeds`: the children ``SeedSequence.spawn`` gives one root).
Each run has its own generator, so the runs are drawn one after the other, each straight into its row of one
array by the single-run sampler's own fill function; the parameters are validated once per call.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from reference.core.rng import SeedLike, run_seeds
from reference.core.validate import RealLike, check_positive_int, positive_real
from reference.samplers import numeric

__all__ = ["discrete_gaussian_runs", "discrete_laplace_runs", "laplace_runs"]


def _seeds(runs: int, seed: SeedLike, first_run: int) -> list[np.random.SeedSequence]:
    count = check_positive_int(runs, "runs", minimum=0)
    return run_seeds(seed, count, check_positive_int(first_run, "first_run", minimum=0))


def laplace_runs(scale: RealLike, size: int, runs: int, seed: SeedLike, first_run: int = 0) -> np.ndarray:
    """``runs × size`` Laplace(``scale``) draws, row ``i`` = ``numeric.laplace(scale, size, rng_i)`` (float64).

    Args:
        scale: the Laplace scale b > 0, a real number (int, float, Fraction or str).
        size: the draws per run (columns), an integer >= 0.
        runs: the number of runs (rows), an integer >= 0.
        seed: the batch's root seed: an integer >= 0, a ``numpy.random.SeedSequence`` or a ``Generator`` (whose seed
            sequence spawns the runs; ``first_run`` must then be 0).
        first_run: the index of the first run in the batch, an integer >= 0 (default 0): a block of a larger batch.
    """
    b = positive_real(scale, "scale")
    count = check_positive_int(size, "size", minimum=0)
    seeds = _seeds(runs, seed, first_run)
    return _rows(lambda row, rng: numeric.laplace_fill(row, b, rng), count, np.float64, seeds)


def _rows(
    fill: Callable[[np.ndarray, np.random.Generator], None], count: int, dtype: type,
    seeds: Sequence[np.random.SeedSequence],
) -> np.ndarray:
    """One row per seed: row i is filled in place by ``fill`` with the generator of seed i (the single-run
    sampler's stream)."""
    out: np.ndarray = np.empty((len(seeds), count), dtype=dtype)
    for row, child in enumerate(seeds):
        fill(out[row], np.random.default_rng(child))
    return out


def discrete_laplace_runs(scale: RealLike, size: int, runs: int, seed: SeedLike, first_run: int = 0) -> np.ndarray:
    """``runs × size`` discrete Laplace draws (``P[x] ∝ exp(-|x|/scale)``), row ``i`` =
    ``numeric.discrete_laplace(scale, size, rng_i)`` (int64).

    Args:
        scale: the scale t > 0, a real number (int, float, Fraction or str).
        size: the draws per run (columns), an integer >= 0.
        runs: the number of runs (rows), an integer >= 0.
        seed: the batch's root seed: an integer >= 0, a ``numpy.random.SeedSequence`` or a ``Generator`` (whose seed
            sequence spawns the runs; ``first_run`` must then be 0).
        first_run: the index of the first run in the batch, an integer >= 0 (default 0): a block of a larger batch.
    """
    t = positive_real(scale, "scale")
    if t > numeric.MAX_SCALE:
        raise ValueError(f"scale must be at most {numeric.MAX_SCALE:g} for the float sampler, got {t!r}")
    count = check_positive_int(size, "size", minimum=0)
    seeds = _seeds(runs, seed, first_run)
    return _rows(lambda row, rng: numeric.discrete_laplace_fill(row, t, rng), count, np.float64, seeds).astype(np.int64)


def discrete_gaussian_runs(
    sigma_squared: RealLike, size: int, runs: int, seed: SeedLike, first_run: int = 0
) -> np.ndarray:
    """``runs × size`` draws of ``N_Z(0, σ²)``, row ``i`` = ``numeric.discrete_gaussian(sigma_squared, size, rng_i)``
    (int64).

    Args:
        sigma_squared: the scale σ² > 0, a real number (int, float, Fraction or str).
        size: the draws per run (columns), an integer >= 0.
        runs: the number of runs (rows), an integer >= 0.
        seed: the batch's root seed: an integer >= 0, a ``numpy.random.SeedSequence`` or a ``Generator`` (whose seed
            sequence spawns the runs; ``first_run`` must then be 0).
        first_run: the index of the first run in the batch, an integer >= 0 (default 0): a block of a larger batch.
    """
    s2 = positive_real(sigma_squared, "sigma_squared")
    if s2 > numeric.MAX_SCALE**2:
        raise ValueError(f"sigma_squared must be at most {numeric.MAX_SCALE**2:g} for the float sampler, got {s2!r}")
    count = check_positive_int(size, "size", minimum=0)
    seeds = _seeds(runs, seed, first_run)
    return _rows(lambda row, rng: numeric.discrete_gaussian_fill(row, s2, rng), count, np.int64, seeds)
