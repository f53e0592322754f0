"""Cascade Sampling for many runs in one call: ``runs × 2**depth`` leaves, each run equal to :func:`cascade_leaves`.

Run ``r`` of a batch is, bit for bit, ``cascade_leaves(depth, sigma, numpy.random.default_rng(seeds[r]))`` where
``seeds`` are the per-run children of one root seed (:func:`reference.core.rng.run_seeds`, the children
``SeedSequence.spawn`` gives). That equality is exact because

* each run's ``2**depth`` standard normals come from its own generator in one ``standard_normal`` call, which
  yields the same sequence as the single-run sampler's scalar draw followed by its blocks (numpy's Generator
  keeps no state between calls besides the bit generator's);
* the split is the same sequence of IEEE operations, ``h = X * 0.5``, ``y = z * (sqrt(3)/2 * sigma)``,
  ``left = h + y``, ``right = h - y`` (numpy's elementwise ufuncs round each operation separately whatever the
  array shape), only applied to a tile of runs at once.

Why tiles: a level sweep over a whole batch would stream arrays far larger than the cache ``depth`` times; the
runs are processed in tiles of about :data:`TILE_VALUES` values (at least one run), so each level of a tile is
read from cache, while the small top levels are still vectorised over the tile's runs. Memory: the output plus
about twice one tile.
"""

from __future__ import annotations

import numpy as np

from reference.cip.numeric.cascade import MAX_NUMERIC_DEPTH, SQRT3_OVER_2
from reference.core.rng import SeedLike, run_seeds
from reference.core.validate import RealLike, check_depth, check_positive_int, positive_real

__all__ = ["cascade_leaves_runs"]

#: Values per tile of runs (a tile's normals, children and parents stay within a few MiB of cache).
TILE_VALUES = 1 << 17


def _tile(normals: np.ndarray, sigma: float, out: np.ndarray) -> None:
    """The leaves of the runs whose normals are the rows of ``normals`` (root first, then level by level),
    written to ``out`` (same shape). ``normals`` is overwritten (it holds the scaled split noise)."""
    runs, leaves = normals.shape
    parents = normals[:, 0:1] * sigma
    scale = SQRT3_OVER_2 * sigma
    width = 1
    while width < leaves:
        noise = normals[:, width : 2 * width]
        np.multiply(noise, scale, out=noise)
        np.multiply(parents, 0.5, out=parents)
        children = out if 2 * width == leaves else np.empty((runs, 2 * width), dtype=np.float64)
        np.add(parents, noise, out=children[:, 0::2])
        np.subtract(parents, noise, out=children[:, 1::2])
        parents = children
        width *= 2
    if leaves == 1:
        out[:] = parents


def cascade_leaves_runs(depth: int, sigma: RealLike, runs: int, seed: SeedLike, first_run: int = 0) -> np.ndarray:
    """``runs`` independent draws of the ``2**depth`` Cascade Sampling leaves, as a ``runs × 2**depth`` float64
    array: row ``i`` equals ``cascade_leaves(depth, sigma, default_rng(s))`` for ``s`` the per-run seed of run
    ``first_run + i`` of ``seed`` (:func:`reference.core.rng.run_seeds`: an int, a SeedSequence, or a
    Generator whose seed sequence spawns the runs). ``depth`` in ``[0, 40]``, ``sigma > 0`` the standard deviation
    of every node, ``runs >= 0``.

    Args:
        depth: the cascade's depth, an integer in [0, 40].
        sigma: σ > 0, the standard deviation of every node, a real number (int, float, Fraction or str).
        runs: the number of runs (rows), an integer >= 0.
        seed: the batch's root seed: an integer >= 0, a ``numpy.random.SeedSequence`` or a ``Generator`` (whose seed
            sequence spawns the runs; ``first_run`` must then be 0).
        first_run: the index of the first run in the batch, an integer >= 0 (default 0): a block of a larger batch.
    """
    checked_depth = check_depth(depth, "depth", maximum=MAX_NUMERIC_DEPTH)
    checked_sigma = positive_real(sigma, "sigma")
    count = check_positive_int(runs, "runs", minimum=0)
    seeds = run_seeds(seed, count, check_positive_int(first_run, "first_run", minimum=0))
    leaves = 1 << checked_depth
    out = np.empty((count, leaves), dtype=np.float64)
    tile = max(1, TILE_VALUES // leaves)
    normals = np.empty((min(tile, count), leaves), dtype=np.float64)
    for start in range(0, count, tile):
        stop = min(start + tile, count)
        block = normals[: stop - start]
        for row, child in enumerate(seeds[start:stop]):
            np.random.default_rng(child).standard_normal(out=block[row])
        _tile(block, checked_sigma, out[start:stop])
    return out
