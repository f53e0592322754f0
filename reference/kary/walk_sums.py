"""KARY Algorithms 1 and 2's noise sums, vectorised: the digit walk of every output t = 1..T at once.

Output t of Algorithm 1 adds the noise values its standard-digit walk visits, output t of Algorithm 2 those its
offset-digit walk visits (:mod:`reference.kary.counters`). :func:`noise_sums` forms all T sums level by level
from the top, in the walk's order of additions, so each sum is bit-identical to the sequential walk's;
:func:`algorithm_1_noise_from_values` and :func:`algorithm_2_noise_from_values` are its checked public forms
(given the noise values, the noise of every output). Which indices Algorithm 2 uses is
:mod:`reference.kary.noise_indices`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from reference.core.validate import check_positive_int
from reference.kary.batch_cost import check_batch_cost
from reference.kary.digits import check_arity, height_for_horizon

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["algorithm_1_noise_from_values", "algorithm_2_noise_from_values", "noise_sums"]


def _grid_sizes(horizon: int, arity: int, height: int, center: int) -> list[int]:
    """sizes[ℓ] = number of grid points m = 0..round(T / k^(ℓ−1)) at level ℓ (sizes[1] = T + 1)."""
    sizes = [0, horizon + 1]
    for _ in range(height):
        sizes.append((sizes[-1] - 1 + center) // arity + 1)
    if sizes[height + 1] != 1:  # the horizon fits the height
        raise ArithmeticError("the grid did not close at the root")
    return sizes


def noise_sums(values: np.ndarray, arity: int, horizon: int, height: int, offset: bool) -> np.ndarray:
    """Noise sums of outputs t = 0..T (last axis) from noise values indexed by p (last axis; index 0 unused).

    Leading axes are independent replicates (runs), so a batch of runs stored row by row, as each run's
    generator fills it, is summed without a transpose. Level by level from the top: the walk prefix after levels
    h..ℓ depends only on u = m k^(ℓ−1), t's rounding to a multiple of k^(ℓ−1); m = k m' + e with parent m' and
    digit e (offset: |e| <= c; standard: 0 <= e < k). The running sums are formed in the walk's order, so they
    are bit-identical to the walk's sequential additions (and the same for a run alone or in a batch). Unused
    or missing values are NaN and only reach discarded grid points.

    Args:
        values: the noise values indexed by p on the last axis (index 0 unused); leading axes are runs.
        arity: k, an integer >= 2.
        horizon: T, an integer >= 1.
        height: h, the tree's height for T.
        offset: ``True`` for Algorithm 2's offset digits, ``False`` for Algorithm 1's standard digits.
    """
    check_batch_cost(arity, horizon, height)
    k = arity
    center = (k - 1) // 2 if offset else 0
    sizes = _grid_sizes(horizon, k, height, center) if offset else _standard_sizes(horizon, k, height)
    lead = values.shape[:-1]
    acc = np.zeros((*lead, 1), dtype=np.float64)
    for level in range(height, 0, -1):
        weight = k ** (level - 1)
        parents = sizes[level + 1]
        grid = np.empty((*lead, parents, k), dtype=np.float64)
        grid[..., center] = acc
        current = acc
        for step in range(1, k - center):  # digits 1..k − 1 − c: add the values right of the parent
            view = values[..., step * weight :: k * weight][..., :parents]
            used = view.shape[-1]
            current = np.add(current[..., :used], view, out=grid[..., :used, center + step])
            grid[..., used:, center + step] = np.nan
        current = acc[..., 1:]
        for step in range(1, center + 1):  # digits −1..−c: from the next parent, the values left of it
            view = values[..., (k - step) * weight :: k * weight][..., : parents - 1]
            used = view.shape[-1]
            current = np.add(current[..., :used], view, out=grid[..., 1 : 1 + used, center - step])
            grid[..., 0, center - step] = np.nan
            grid[..., 1 + used :, center - step] = np.nan
        acc = grid.reshape((*lead, parents * k))[..., center : center + sizes[level]]
    return acc


def _standard_sizes(horizon: int, arity: int, height: int) -> list[int]:
    sizes = [0, horizon + 1]
    for _ in range(height):
        sizes.append((sizes[-1] - 1) // arity + 1)
    if sizes[height + 1] != 1:
        raise ArithmeticError("the grid did not close at the root")
    return sizes


def algorithm_2_noise_from_values(values: npt.ArrayLike, arity: int, horizon: int) -> np.ndarray:
    """Noise of Algorithm 2's outputs t = 1..``horizon`` given the noise values: ``values[p]`` is z_p.

    ``values`` has shape (P + 1, ...) with P >= every index used (``values[0]`` is ignored; extra axes are
    independent replicates). Output shape (T, ...). Vectorised, O(T k / (k − 1)) additions.

    Args:
        values: the noise values, shape (P + 1, ...) with ``values[p]`` = z_p (``values[0]`` ignored; extra axes are
            replicates).
        arity: k, an integer >= 2.
        horizon: T, an integer >= 1.
    """
    k = check_arity(arity)
    steps = check_positive_int(horizon, "horizon")
    height = height_for_horizon(k, steps, offset=True)
    array = np.asarray(values, dtype=np.float64)
    if array.ndim < 1:
        raise ValueError("values must have at least one axis (the noise index p)")
    return np.moveaxis(noise_sums(np.moveaxis(array, 0, -1), k, steps, height, offset=True), -1, 0)[1:]


def algorithm_1_noise_from_values(values: npt.ArrayLike, arity: int, horizon: int) -> np.ndarray:
    """Noise of Algorithm 1's outputs t = 1..``horizon`` given ``values[r]`` = noise of the vertex ending at r.

    Args:
        values: ``values[r]`` = the noise of the vertex ending at r, for r = 1..T (``values[0]`` ignored).
        arity: k, an integer >= 2.
        horizon: T, an integer >= 1.
    """
    k = check_arity(arity)
    steps = check_positive_int(horizon, "horizon")
    height = height_for_horizon(k, steps, offset=False)
    array = np.asarray(values, dtype=np.float64)
    if array.ndim < 1:
        raise ValueError("values must have at least one axis (the noise index r)")
    return np.moveaxis(noise_sums(np.moveaxis(array, 0, -1), k, steps, height, offset=False), -1, 0)[1:]
