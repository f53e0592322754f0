"""KARY Algorithms 1 and 2 (vectorised, any supported arity) for many runs in one call: ``runs × T`` outputs.

Row ``i`` of :func:`algorithm_1_runs` (:func:`algorithm_2_runs`) equals, value for value,
``algorithm_1(stream, arity, epsilon, numpy.random.default_rng(s), noise)`` (``algorithm_2_batch``) with ``s`` the
per-run seed of run ``first_run + i`` (:func:`reference.core.rng.run_seeds`, the children ``SeedSequence.spawn``
gives one root). Each run draws its noise block from its own generator, in the single-run order (Algorithm 1:
z_1..z_T; Algorithm 2: one value per used index p, increasing), written into that run's row. The noise sums then
run once for a tile of rows: the single-run code takes replicates on leading axes, and its additions are
elementwise, in the walk's order, so every run's sums are the same floating-point numbers as alone.

With an all-zero stream the outputs are the noise itself (what the sampler audits test).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from reference.core.options import CounterNoise
from reference.core.rng import SeedLike, run_seeds
from reference.core.validate import RationalLike, check_positive_int
from reference.kary import counter_input
from reference.kary.digits import check_arity, height_for_horizon
from reference.kary.noise_indices import used_mask
from reference.kary.walk_sums import noise_sums

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["algorithm_1_runs", "algorithm_2_runs"]


#: Values per tile of runs: the noise sums of a tile (about ``k/(k-1)`` passes over ``P × tile`` values per level)
#: stay in the 2 MiB cache instead of streaming the whole batch from memory at every level.
TILE_VALUES = 1 << 16


def _runs(
    stream: np.ndarray, kind: str, scale: float, mask: np.ndarray, sums: Callable[[np.ndarray], np.ndarray],
    runs: int, seed: SeedLike, first_run: int,
) -> np.ndarray:
    """``runs × T`` noisy prefix counts: per tile of runs, each run's draws written into its row (increasing p,
    NaN where ``mask`` is False), the noise sums ``sums`` of the tile's rows, plus the prefix counts (the
    single-run ``_finish`` on every row)."""
    count = check_positive_int(runs, "runs", minimum=0)
    seeds = run_seeds(seed, count, check_positive_int(first_run, "first_run", minimum=0))
    dense = bool(mask[1:].all())  # Algorithm 1: every index 1..P drawn, straight into the row
    used_indices = np.flatnonzero(mask)
    prefix = np.cumsum(stream).astype(np.float64)
    out = np.empty((count, stream.size), dtype=np.int64 if kind == "discrete-laplace" else np.float64)
    tile = max(1, TILE_VALUES // mask.size)
    values = np.full((min(tile, count), mask.size), np.nan)  # unused indices stay NaN in every tile
    block = np.empty(used_indices.size, dtype=np.float64)
    for start in range(0, count, tile):
        stop = min(start + tile, count)
        for row, child in enumerate(seeds[start:stop]):
            generator = np.random.default_rng(child)
            if dense:
                counter_input.fill_block(values[row, 1:], kind, scale, generator)
            else:
                counter_input.fill_block(block, kind, scale, generator)
                values[row, used_indices] = block
        noise = sums(values[: stop - start])
        if np.isnan(noise.sum()):  # an internal invariant: every index an output uses was drawn
            raise ArithmeticError("an output used a noise index that was not drawn")
        np.add(noise, prefix, out=out[start:stop], casting="unsafe")
    return out


def algorithm_1_runs(
    stream: npt.ArrayLike, arity: int, epsilon: RationalLike, runs: int, seed: SeedLike,
    noise: CounterNoise = "laplace", first_run: int = 0,
) -> np.ndarray:
    """``runs`` independent runs of :func:`reference.kary.counters.algorithm_1` on ``stream`` (``runs × T``).

    Args:
        stream: the 0/1 input stream x_1..x_T (T >= 1), a one-dimensional sequence or array.
        arity: k, an integer >= 2.
        epsilon: ε > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        runs: the number of runs (rows), an integer >= 0.
        seed: the batch's root seed: an integer >= 0, a ``numpy.random.SeedSequence`` or a ``Generator`` (whose seed
            sequence spawns the runs; ``first_run`` must then be 0).
        noise: ``"laplace"`` (float outputs) or ``"discrete-laplace"`` (int64 outputs).
        first_run: the index of the first run in the batch, an integer >= 0 (default 0): a block of a larger batch.
    """
    x = counter_input.check_stream(stream)
    k = check_arity(arity)
    kind = counter_input.check_noise(noise)
    steps = int(x.size)
    height = height_for_horizon(k, steps, offset=False)
    scale = counter_input.numeric_scale(epsilon, height)
    mask = np.ones(steps + 1, dtype=bool)
    mask[0] = False

    def sums(values: np.ndarray) -> np.ndarray:
        return noise_sums(values, k, steps, height, offset=False)[..., 1:]

    return _runs(x, kind, scale, mask, sums, runs, seed, first_run)


def algorithm_2_runs(
    stream: npt.ArrayLike, arity: int, epsilon: RationalLike, runs: int, seed: SeedLike,
    noise: CounterNoise = "laplace", first_run: int = 0,
) -> np.ndarray:
    """``runs`` independent runs of :func:`reference.kary.counters.algorithm_2_batch` (any arity >= 2: odd by
    Definition 3.8's digits, even by Appendix C's).

    Args:
        stream: the 0/1 input stream x_1..x_T (T >= 1), a one-dimensional sequence or array.
        arity: k, an integer >= 2.
        epsilon: ε > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        runs: the number of runs (rows), an integer >= 0.
        seed: the batch's root seed: an integer >= 0, a ``numpy.random.SeedSequence`` or a ``Generator`` (whose seed
            sequence spawns the runs; ``first_run`` must then be 0).
        noise: ``"laplace"`` (float outputs) or ``"discrete-laplace"`` (int64 outputs).
        first_run: the index of the first run in the batch, an integer >= 0 (default 0): a block of a larger batch.
    """
    x = counter_input.check_stream(stream)
    k = check_arity(arity)
    kind = counter_input.check_noise(noise)
    steps = int(x.size)
    height = height_for_horizon(k, steps, offset=True)
    scale = counter_input.numeric_scale(epsilon, height)
    def sums(values: np.ndarray) -> np.ndarray:
        return noise_sums(values, k, steps, height, offset=True)[..., 1:]

    return _runs(x, kind, scale, used_mask(k, steps, height), sums, runs, seed, first_run)
