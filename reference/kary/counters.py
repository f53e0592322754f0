"""The KARY paper's k-ary tree mechanisms for continual counting, numerically (Algorithms 1, 2 and 3).

KARY paper: Andersson, Pagh, Steiner, Torkamani, "Count on Your Elders: Laplace vs Gaussian Noise".
The paper's ``k`` is ``arity``, ``T`` is ``horizon``, ``h`` is ``height`` and ``t`` (1-based) is ``time``.
The input stream is a sequence of 0/1 values x_1..x_T; every function returns the noisy prefix counts
Σ_{j<=t} x_j + noise_t for t = 1..T.

* :func:`algorithm_1` — Algorithm 1 (k-ary tree, no subtraction), h = ⌈log_k(T + 1)⌉, Laplace(h/ε) noise on
  every vertex. The vertices it uses are exactly the intervals [r − k^(ℓ−1) + 1, r] with ℓ − 1 the number of
  trailing zero base-k digits of r, one per right end r in 1..T (a k-th child is never used, since a standard
  digit is at most k − 1), so its noise values are indexed by r = the ``p`` after line 12, and output t is
  the true prefix count plus the noise values visited by the standard-digit walk of t.
* :class:`OnlineCounter` / :func:`algorithm_2_batch` — Algorithm 2 (offset digits of Definition 3.8 for odd
  arity, h = ⌈log_k(2T)⌉; for even arity Appendix C's variant: Definition C.1's digits −k/2 + 1..k/2 and the
  smallest h whose capacity k(k^h − 1)/(2(k − 1)) holds T), Laplace(h/ε) noise z_p (the scale of Lemma 4.5: ℓ1 sensitivity h). **What the listing
  stores**: line 14 outputs the *true* prefix count plus ``noise``; only the noise values z_p are indexed by
  the tree, no block sums are stored. (Line 14 prints x_t where it means x_j.) So the online counter keeps a
  running count of the input and the live noise values only.
* :func:`algorithm_3` — Algorithm 3, the tree-like version the privacy proof uses (not online): it pads the
  stream with zeros to the k^h leaves of the tree, releases every vertex of levels 1..h with its own
  Laplace(h/ε) noise, and adds left-most / subtracts right-most children. Line 15 prints the subtracted
  vertex as [p − k^(ℓ−1) − 1, p]; the vertex of the tree is [p − k^(ℓ−1) + 1, p] (that is what is used).

Lifetime of a noise value (Proposition 4.10, made explicit; :func:`noise_lifetime`): write p's offset digits
and let q be the lowest level with a non-zero digit d, U = p − d k^(q−1), w = k^(q−1). z_p is added at time t
iff t agrees with p above level q and t's level-q digit has the sign of d and magnitude >= |d| (the walk's
position after the levels above q must equal U, a multiple of k w, and two digits differ by less than k).
With digits −c..k − 1 − c (c = ⌊(k − 1)/2⌋) the lower q − 1 digits hold [−c(w − 1)/(k − 1),
(k − 1 − c)(w − 1)/(k − 1)] =: [a, b], so z_p is used exactly for t in [p + a, U + (k − 1 − c)w + b] when d > 0
and t in [U − c w + a, p + b] when d < 0 (intersected with [1, T]); for odd arity these are
[p − (w − 1)/2, U + (k w − 1)/2] and [U − (k w − 1)/2, p + (w − 1)/2]. The online counter forgets z_p after
the last of these times.

Noise-value-to-vertex map (Proposition 4.3's sign argument, made explicit; :func:`algorithm_2_vertex`): the
vertex Algorithm 3 uses where Algorithm 2 uses z_p is [p − k^(q−1) + 1, p], added, when d > 0 and
[p + 1, p + k^(q−1)], subtracted, when d < 0. The map is injective and every vertex has a fixed sign, so with
z_p = sign · ν(vertex) the two algorithms compute the same outputs (checked exhaustively in
:mod:`reference_verification.kary.checks.counters`).

Randomness and draw order (``rng`` is a numpy Generator, a seed or None; ``noise="exact"`` takes a
:class:`reference.core.randomness.RandomBits` source):

* :func:`algorithm_1`: one block of T draws, z_r for r = 1..T in increasing order.
* :func:`algorithm_2_batch`: one block with one draw per noise index p that some output t <= T uses, in
  increasing order of p.
* :class:`OnlineCounter`: one draw (``size=1``) each time a noise index is needed for the first time, in the
  order Algorithm 2's walk first visits them (time, then level from h down, then step): each value is
  ``samplers.numeric.laplace(h/ε, 1, rng)`` (one exponential, then one raw word for its sign); the batch and the
  online counter assign draws to indices in different orders, so the same seed gives *different* (equally
  distributed) outputs in the two.
* :func:`algorithm_3`: one block with one draw per vertex of levels 1..h of the padded tree: level 1 left to
  right, then level 2, ..., level h.

Each function also takes ``noise_function``: a deterministic replacement for the sampler (index -> value; for
Algorithm 3 (level, j) -> value for the vertex [1 + j k^(ℓ−1), (j + 1) k^(ℓ−1)]), used by the verification to
compare the algorithms exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from reference.core.options import CounterNoise
from reference.core.randomness import RandomBits, check_source
from reference.core.rng import RngLike, as_generator
from reference.core.user_code import UNLIMITED, UserFunction, checked_real, user_array, user_real
from reference.core.validate import RealLike, check_positive_int, positive_fraction, positive_real
from reference.kary.batch_cost import check_batch_cost, check_slots
from reference.kary.digits import check_arity, height_for_horizon
from reference.samplers import exact as exact_samplers
from reference.samplers import numeric as numeric_samplers

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = [
    "OnlineCounter",
    "algorithm_1",
    "algorithm_1_noise_from_values",
    "algorithm_2_batch",
    "algorithm_2_noise_from_values",
    "algorithm_2_used_indices",
    "algorithm_2_vertex",
    "algorithm_3",
    "noise_lifetime",
]

_NOISE_KINDS: tuple[str, ...] = ("laplace", "discrete-laplace", "exact")


# ------------------------------------------------------------------------------------------- validation


def check_stream(stream: object) -> np.ndarray:
    """The stream as an int64 array of 0/1 values (ValueError naming ``stream`` otherwise).

    Args:
        stream: anything: accepted when it is a non-empty one-dimensional sequence or array of 0/1 values.
    """
    if isinstance(stream, (str, bytes)):
        raise TypeError("stream must be a sequence of 0/1 values, not a string")
    try:
        array = np.asarray(stream)
    except (TypeError, ValueError) as error:
        raise TypeError(f"stream must be a sequence of 0/1 values: {error}") from None
    if array.ndim != 1:
        raise ValueError(f"stream must be one-dimensional, got shape {array.shape}")
    if array.size == 0:
        raise ValueError("stream must hold at least one value (horizon T >= 1)")
    if array.dtype == np.bool_:
        return array.astype(np.int64)
    if not (np.issubdtype(array.dtype, np.integer) or np.issubdtype(array.dtype, np.floating)):
        raise ValueError(f"stream must contain only 0/1 values, got dtype {array.dtype}")
    if not (array.min() >= 0 and array.max() <= 1 and (np.issubdtype(array.dtype, np.integer) or _integral(array))):
        bad = np.flatnonzero((array != 0) & (array != 1))
        raise ValueError(f"stream must contain only 0/1 values; stream[{int(bad[0])}] = {array[bad[0]]!r}")
    return array.astype(np.int64, copy=False)


def _integral(array: np.ndarray) -> bool:
    """True when a float array holds only 0.0 and 1.0 (its range is already known to be [0, 1])."""
    return bool(np.all((array == 0) | (array == 1)))


def check_noise(noise: object, *, vectorised: bool = False) -> str:
    """``noise`` as one of the accepted kinds (``ValueError`` naming ``noise`` otherwise).

    Args:
        noise: ``"laplace"``, ``"discrete-laplace"`` or (not ``vectorised``) ``"exact"``.
        vectorised: ``True`` when the caller is vectorised (no exact noise).
    """
    kinds = _NOISE_KINDS[:2] if vectorised else _NOISE_KINDS
    if noise not in kinds:
        raise ValueError(f"noise must be one of {kinds}, got {noise!r}")
    return str(noise)


def numeric_scale(epsilon: RealLike, height: int) -> float:
    """The Laplace scale h/ε of the numeric noises, a float.

    Args:
        epsilon: ε > 0, a real number.
        height: h, the tree's height, an integer >= 1.
    """
    return height / positive_real(epsilon, "epsilon")


def fill_block(out: np.ndarray, kind: str, scale: float, rng: np.random.Generator) -> None:
    """Fill contiguous float64 ``out`` with the draws of the numeric sampler (the same stream as
    ``numeric_samplers.laplace`` / ``discrete_laplace`` of ``out.size``; discrete values are integers, exact in binary64).

    Args:
        out: a contiguous float64 array to fill.
        kind: ``"laplace"`` or ``"discrete-laplace"``.
        scale: the Laplace scale h/ε > 0.
        rng: the ``numpy.random.Generator`` to draw with.
    """
    if kind == "laplace":
        numeric_samplers.laplace_fill(out, scale, rng)
    elif kind == "discrete-laplace":
        numeric_samplers.discrete_laplace_fill(out, scale, rng)
    else:
        raise ValueError(f"noise must be 'laplace' or 'discrete-laplace' for the vectorised algorithms, got {kind!r}")


def _finish(prefix: np.ndarray, noise: np.ndarray, kind: str) -> np.ndarray:
    if np.isnan(noise.sum()):  # an internal invariant: every index an output uses was drawn
        raise ArithmeticError("an output used a noise index that was not drawn")
    np.add(prefix, noise, out=noise)
    return noise.astype(np.int64) if kind == "discrete-laplace" else noise


# ------------------------------------------------------------------------------------------- digit rules


def _lowest_digit(index: int, arity: int) -> tuple[int, int]:
    """(q, d): the lowest level q with a non-zero offset digit d of ``index`` > 0."""
    top = arity // 2
    number, level = index, 1
    while True:
        digit = number % arity
        if digit > top:
            digit -= arity
        if digit:
            return level, digit
        number //= arity
        level += 1


def _lower_range(arity: int, weight: int) -> tuple[int, int]:
    """The values q − 1 offset digits hold (weight = k^(q−1)): [−c(w − 1)/(k − 1), (k − 1 − c)(w − 1)/(k − 1)].

    c = ⌊(k − 1)/2⌋; odd arity gives ±(w − 1)/2 (Definition 3.8), even arity Definition C.1's range.
    """
    center = (arity - 1) // 2
    span = (weight - 1) // (arity - 1)
    return -center * span, (arity - 1 - center) * span


def noise_lifetime(index: int, arity: int, horizon: int) -> tuple[int, int]:
    """(first, last): the times t in 1..``horizon`` at which Algorithm 2 adds z_``index`` (module docstring).

    Returns ``(first, min(last, horizon))``; if ``first > horizon`` the index is never used (then
    ``first > last`` is returned as is). Any ``arity`` >= 2 (even arity: Appendix C's variant), ``index`` >= 1.

    Args:
        index: the noise index p, an integer >= 1.
        arity: k, an integer >= 2.
        horizon: T, an integer >= 1.
    """
    k = check_arity(arity)
    steps = check_positive_int(horizon, "horizon")
    p = check_positive_int(index, "index")
    level, digit = _lowest_digit(p, k)
    weight = k ** (level - 1)
    upper = p - digit * weight
    low, high = _lower_range(k, weight)
    if digit > 0:
        first, last = p + low, upper + (k // 2) * weight + high
    else:
        first, last = upper - ((k - 1) // 2) * weight + low, p + high
    return first, min(last, steps)


def algorithm_2_vertex(index: int, arity: int) -> tuple[int, int, int]:
    """(level, j, sign): the vertex [1 + j k^(ℓ−1), (j + 1) k^(ℓ−1)] Algorithm 3 adds (sign +1) or subtracts
    (sign −1) where Algorithm 2 adds z_``index`` (module docstring).

    Args:
        index: the noise index p, an integer >= 1.
        arity: k, an integer >= 2.
    """
    k = check_arity(arity)
    p = check_positive_int(index, "index")
    level, digit = _lowest_digit(p, k)
    weight = k ** (level - 1)
    if digit > 0:
        return level, p // weight - 1, 1
    return level, p // weight, -1


# ------------------------------------------------------------------------------ vectorised noise sums


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


def algorithm_2_used_indices(arity: int, horizon: int) -> np.ndarray:
    """A boolean mask over p = 0..P_bound: True where some output t <= ``horizon`` of Algorithm 2 adds z_p.

    By the lifetime rule (module docstring) z_p is used iff its first time is <= T. With c = ⌊(k − 1)/2⌋ and
    weight w at level ℓ: a positive digit e (p = k m' w + e w) is used iff p <= T + c(w − 1)/(k − 1); a negative
    one (p = k m' w − j w) iff k m' w <= T + c(k w − 1)/(k − 1). P_bound = T + c(k^(h−1) − 1)/(k − 1) bounds
    every used index ((k^(h−1) − 1)/2 for odd arity). Even arity: Appendix C's variant (digits −c..c + 1).

    Args:
        arity: k, an integer >= 2.
        horizon: T, an integer >= 1.
    """
    k = check_arity(arity)
    steps = check_positive_int(horizon, "horizon")
    height = height_for_horizon(k, steps, offset=True)
    return used_mask(k, steps, height)


def used_mask(arity: int, horizon: int, height: int) -> np.ndarray:
    """A boolean mask over the noise indices p = 0..P: True where Algorithm 2 uses z_p for some t <= ``horizon``.

    Args:
        arity: k, an integer >= 2.
        horizon: T, an integer >= 1.
        height: h, Algorithm 2's height for T.
    """
    k, center = arity, (arity - 1) // 2
    bound = horizon + center * ((k ** (height - 1) - 1) // (k - 1))
    mask = np.zeros(bound + 1, dtype=bool)
    for level in range(1, height + 1):
        weight = k ** (level - 1)
        # only steps whose first index lies within the bound can mark anything: O(min(k, T/weight)) per level,
        # not O(k) (a huge arity with a short stream would otherwise loop k/2 times for nothing)
        reach = bound // weight
        for step in range(1, min(k - center - 1, reach) + 1):  # positive digits 1..k − 1 − c
            stop = min(bound, horizon + center * ((weight - 1) // (k - 1))) + 1
            mask[step * weight : stop : k * weight] = True
        for step in range(max(1, k - reach), center + 1):  # negative digits −1..−c
            stop = min(bound, horizon + center * ((k * weight - 1) // (k - 1)) - step * weight) + 1
            if stop > (k - step) * weight:
                mask[(k - step) * weight : stop : k * weight] = True
    return mask


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


# ------------------------------------------------------------------------------------- Algorithms 1, 2


def algorithm_1(
    stream: npt.ArrayLike,
    arity: int,
    epsilon: RealLike,
    rng: RngLike = None,
    noise: CounterNoise = "laplace",
    *,
    noise_function: Callable[[np.ndarray], np.ndarray] | None = None,
) -> np.ndarray:
    """Algorithm 1 (k-ary tree mechanism): the T noisy prefix counts of the 0/1 ``stream``.

    h = ⌈log_k(T + 1)⌉ (``height_for_horizon(offset=False)``), noise Laplace(h/ε) (or discrete Laplace with
    that scale, ``noise="discrete-laplace"``, int64 outputs) on every used vertex; draws: one block z_1..z_T.
    ``noise_function`` maps the array of right ends r = 1..T to their noise values (replaces the sampler).

    Args:
        stream: the 0/1 input stream x_1..x_T (T >= 1): a one-dimensional sequence or array of 0/1 integers or booleans.
        arity: k, the tree's arity, an integer >= 2.
        epsilon: ε > 0, a real number.
        rng: a ``numpy.random.Generator``, an integer seed or ``None`` (fresh OS entropy).
        noise: ``"laplace"`` (float outputs) or ``"discrete-laplace"`` (numpy sampler, int64 outputs).
        noise_function: ``None``, or a function from the int64 array of right ends r = 1..T to an array of T noise
            values.
    """
    x = check_stream(stream)
    k = check_arity(arity)
    kind = check_noise(noise, vectorised=True)
    steps = int(x.size)
    height = height_for_horizon(k, steps, offset=False)
    scale = numeric_scale(epsilon, height)
    values = np.full(steps + 1, np.nan)
    if noise_function is not None:
        values[1:] = user_array(noise_function, np.arange(1, steps + 1, dtype=np.int64), role="noise_function",
                                shape=(steps,))
    else:
        fill_block(values[1:], kind, scale, as_generator(rng))
    sums = noise_sums(values, k, steps, height, offset=False)[1:]
    return _finish(np.cumsum(x), sums, kind)


def algorithm_2_batch(
    stream: npt.ArrayLike,
    arity: int,
    epsilon: RealLike,
    rng: RngLike = None,
    noise: CounterNoise = "laplace",
    *,
    noise_function: Callable[[np.ndarray], np.ndarray] | None = None,
) -> np.ndarray:
    """Algorithm 2 (k-ary tree with subtraction), all T outputs at once (vectorised); even ``arity``: Appendix C.

    h = ⌈log_k(2T)⌉ for odd arity (Definition C.1's capacity for even), noise Laplace(h/ε) (``noise="discrete-laplace"``: discrete Laplace with scale h/ε,
    int64 outputs). Draws: one block, one value per used index p in increasing p
    (:func:`algorithm_2_used_indices`). ``noise_function`` maps an int64 array of indices p to values.

    Args:
        stream: the 0/1 input stream x_1..x_T (T >= 1): a one-dimensional sequence or array of 0/1 integers or booleans.
        arity: k, the tree's arity, an integer >= 2 (odd: Algorithm 2; even: Appendix C's variant).
        epsilon: ε > 0, a real number.
        rng: a ``numpy.random.Generator``, an integer seed or ``None`` (fresh OS entropy).
        noise: ``"laplace"`` (float outputs) or ``"discrete-laplace"`` (numpy sampler, int64 outputs).
        noise_function: ``None``, or a function from an int64 array of indices p to an array of their noise values.
    """
    x = check_stream(stream)
    k = check_arity(arity)
    kind = check_noise(noise, vectorised=True)
    steps = int(x.size)
    height = height_for_horizon(k, steps, offset=True)
    check_slots(steps + (k ** (height - 1) - 1) // 2, k, steps)  # P_bound of used_mask
    scale = numeric_scale(epsilon, height)
    mask = used_mask(k, steps, height)
    values = np.full(mask.size, np.nan)
    if noise_function is not None:
        used = np.flatnonzero(mask)
        values[used] = user_array(noise_function, used.astype(np.int64), role="noise_function", shape=used.shape)
    else:
        block = np.empty(int(np.count_nonzero(mask)), dtype=np.float64)
        fill_block(block, kind, scale, as_generator(rng))
        values[mask] = block
    sums = noise_sums(values, k, steps, height, offset=True)[1:]
    return _finish(np.cumsum(x), sums, kind)


class OnlineCounter:
    """Algorithm 2 as an online counter: :meth:`step` consumes x_t and returns the noisy prefix count at t.

    State: the running count of the input, the offset digits of t, per level the walk's position and running
    noise after levels h..ℓ, and the *live* noise values (a dict p -> z_p). A value is drawn when the walk
    first needs it and forgotten after its last use (:func:`noise_lifetime`), so at most ‖rep(t, h)‖₁ <=
    h·⌊k/2⌋ values are held (Lemma 4.12's h(k − 1)/2 for odd arity) and memory never grows with T. Incrementing t changes digits
    1..m only; levels m..1 are re-walked from the cached level m + 1, so a step costs O(m k) additions
    (O(k) amortised, O(h k) at worst) and its result is bit-identical to the full walk.

    ``noise``: ``"laplace"`` (floats), ``"discrete-laplace"`` (numpy sampler, int outputs) or ``"exact"``
    (exact discrete Laplace with the rational scale h/ε, ``epsilon`` an exact rational, ``rng`` a RandomBits
    source or None; int outputs). Draw order: one draw of size 1 per newly needed index, in first-use order.
    ``noise_function`` (index -> value) replaces the sampler.

    Attributes: ``time`` (steps consumed), ``height``, ``live_count`` (values held between steps),
    ``max_live_count`` (the most held at once, during a step), ``draws`` (values drawn so far; each index is
    drawn once).

    Args:
        arity: k, the tree's arity, an integer >= 2.
        epsilon: ε > 0: a real number for the numeric noises; an exact rational (int, Fraction or str) for
            ``noise="exact"``.
        horizon: T, the number of steps the counter is calibrated for, an integer >= 1.
        rng: a ``numpy.random.Generator``, an integer seed or ``None`` (fresh OS entropy); for ``noise="exact"`` a
            :class:`~reference.core.randomness.RandomBits` source or ``None``.
        noise: ``"laplace"`` (floats), ``"discrete-laplace"`` (numpy sampler, int outputs) or ``"exact"`` (exact
            discrete Laplace, int outputs).
        noise_function: ``None``, or a function index p -> noise value that replaces the sampler.
    """

    def __init__(
        self,
        arity: int,
        epsilon: RealLike,
        horizon: int,
        rng: RngLike | RandomBits = None,
        noise: CounterNoise = "laplace",
        *,
        noise_function: Callable[[int], float] | None = None,
    ) -> None:
        self.arity: int = check_arity(arity)
        self.horizon: int = check_positive_int(horizon, "horizon")
        self.noise: str = check_noise(noise)
        self.height: int = height_for_horizon(self.arity, self.horizon, offset=True)
        self._function = noise_function
        self._exact_scale: Fraction | None = None
        self._scale = 0.0
        if self.noise == "exact":
            self._exact_scale = self.height / positive_fraction(epsilon, "epsilon")
            self._source = check_source(rng, "rng")
        else:
            self._scale = numeric_scale(epsilon, self.height)
            self._generator = as_generator(rng)
        self.time: int = 0
        self._count = 0
        self._digits = [0] * self.height
        self._weights = [self.arity**level for level in range(self.height)]
        self._position = [0] * (self.height + 2)  # index ℓ: walk position after levels h..ℓ
        self._running: list[float] = [0] * (self.height + 2)
        self._live: dict[int, float] = {}
        self._expiry: dict[int, list[int]] = {}
        self.max_live_count: int = 0
        self.draws: int = 0

    @property
    def live_count(self) -> int:
        """How many noise values are held now (between steps: those still needed after the current time)."""
        return len(self._live)

    def _draw(self) -> float:
        if self._function is not None:
            raise AssertionError("unreachable")  # pragma: no cover
        if self.noise == "laplace":
            return float(numeric_samplers.laplace(self._scale, 1, self._generator)[0])
        if self.noise == "discrete-laplace":
            return int(numeric_samplers.discrete_laplace(self._scale, 1, self._generator)[0])
        assert self._exact_scale is not None  # set whenever the noise is exact discrete Laplace
        return int(exact_samplers.discrete_laplace(self._exact_scale, self._source))

    def _value(self, index: int) -> float:
        value = self._live.get(index)
        if value is not None:
            return value
        value = (user_real(self._function, index, role="noise_function") if self._function is not None
                 else self._draw())
        self.draws += 1
        self._live[index] = value
        last = noise_lifetime(index, self.arity, self.horizon)[1]
        self._expiry.setdefault(last, []).append(index)
        self.max_live_count = max(self.max_live_count, len(self._live))
        return value

    def __repr__(self) -> str:
        return (f"OnlineCounter(arity={self.arity}, horizon={self.horizon}, noise={self.noise}, height={self.height}, "
                f"time={self.time})")

    def step(self, bit: int) -> float:
        """Consume x_t (0 or 1) and return the noisy prefix count at t (int for the discrete noises).

        Args:
            bit: x_t, 0 or 1.
        """
        if not isinstance(bit, (int, np.integer, np.bool_)) or int(bit) not in (0, 1):
            raise ValueError(f"stream values must be 0 or 1, got {bit!r} at time {self.time + 1}")
        if self.time >= self.horizon:
            raise ValueError(f"cannot step past the horizon {self.horizon}")
        self.time += 1
        self._count += int(bit)
        top = self.arity // 2  # the largest digit: (k − 1)/2 (Definition 3.8) or k/2 (Definition C.1)
        level = 0
        self._digits[0] += 1
        while self._digits[level] > top:  # carry to the smallest digit; stays within the height (time <= capacity)
            self._digits[level] -= self.arity
            level += 1
            self._digits[level] += 1
        for current in range(level + 1, 0, -1):  # levels m..1 (1-based), from the cached level m + 1
            position, running = self._position[current + 1], self._running[current + 1]
            digit = self._digits[current - 1]
            move = self._weights[current - 1] if digit > 0 else -self._weights[current - 1]
            for _ in range(abs(digit)):
                position += move
                running = running + self._value(position)
            self._position[current], self._running[current] = position, running
        noise = self._running[1]
        if self.noise == "laplace" and self._function is None:
            result: float = float(self._count) + noise
        else:
            result = self._count + noise
        for index in self._expiry.pop(self.time, []):
            del self._live[index]
        return result

    def run(self, stream: Sequence[int] | np.ndarray) -> list[float]:
        """Step through ``stream`` (validated as 0/1 first) and return the outputs.

        Args:
            stream: the 0/1 values to consume, a sequence or one-dimensional array (within the horizon).
        """
        values = check_stream(stream)
        return [self.step(int(bit)) for bit in values]


# ------------------------------------------------------------------------------------------- Algorithm 3


def algorithm_3(
    stream: npt.ArrayLike,
    arity: int,
    epsilon: RealLike,
    rng: RngLike = None,
    noise: CounterNoise = "laplace",
    *,
    noise_function: Callable[[int, int], float] | None = None,
) -> np.ndarray:
    """Algorithm 3 (the tree version of Algorithm 2 for the privacy proof), as a distributional oracle.

    The stream is padded with zeros to k^h leaves; every vertex [1 + j k^(ℓ−1), (j + 1) k^(ℓ−1)] of levels
    ℓ = 1..h gets Σ̂ = Σ + noise (Laplace(h/ε), or discrete Laplace with that scale); output t adds the
    left-most children / subtracts the right-most ones as lines 9–19 direct (subtracted vertex
    [p − k^(ℓ−1) + 1, p]). Draws: one block over the vertices, level 1 left to right, then level 2, ...
    ``noise_function(level, j)`` replaces the sampler. Python loop: meant for small T.

    Args:
        stream: the 0/1 input stream x_1..x_T (T >= 1): a one-dimensional sequence or array of 0/1 integers or booleans.
        arity: k, the tree's arity, an integer >= 2.
        epsilon: ε > 0, a real number.
        rng: a ``numpy.random.Generator``, an integer seed or ``None`` (fresh OS entropy).
        noise: ``"laplace"`` (float outputs) or ``"discrete-laplace"`` (numpy sampler, int64 outputs).
        noise_function: ``None``, or a function (level, j) -> noise value of vertex j of that level.
    """
    x = check_stream(stream)
    k = check_arity(arity)
    kind = check_noise(noise, vectorised=True)
    steps = int(x.size)
    height = height_for_horizon(k, steps, offset=True)
    check_slots(k**height, k, steps)
    scale = numeric_scale(epsilon, height)
    leaves = k**height
    padded = np.zeros(leaves + 1, dtype=np.int64)
    padded[1 : steps + 1] = np.cumsum(x)
    padded[steps + 1 :] = padded[steps]  # prefix sums of the zero-padded stream
    counts = [k ** (height - level + 1) for level in range(1, height + 1)]
    if noise_function is None:
        block = np.empty(sum(counts), dtype=np.float64)
        fill_block(block, kind, scale, as_generator(rng))
        offsets = np.concatenate(([0], np.cumsum(counts)))
        vertex_noise = [block[offsets[i] : offsets[i + 1]] for i in range(height)]
    else:
        guarded = UserFunction(noise_function, role="noise_function", limits=UNLIMITED)

        def checked(level: int, j: int) -> float:
            return checked_real(guarded(level, j), noise_function, (level, j), "noise_function")

        vertex_noise = [
            np.array([checked(level, j) for j in range(counts[level - 1])], dtype=np.float64)
            for level in range(1, height + 1)
        ]
    top = k // 2
    out = np.empty(steps, dtype=np.float64)
    for time in range(1, steps + 1):
        rep, number = [], time
        for _ in range(height):
            digit = number % k
            if digit > top:
                digit -= k
            rep.append(digit)
            number = (number - digit) // k
        count, position = 0.0, 0
        for level in range(height, 0, -1):
            weight = k ** (level - 1)
            digit = rep[level - 1]
            for _ in range(abs(digit)):
                if digit > 0:
                    start, end = position + 1, position + weight
                    count += float(padded[end] - padded[start - 1]) + vertex_noise[level - 1][(end // weight) - 1]
                    position += weight
                else:
                    start, end = position - weight + 1, position
                    count -= float(padded[end] - padded[start - 1]) + vertex_noise[level - 1][(end // weight) - 1]
                    position -= weight
        out[time - 1] = count
    return out.astype(np.int64) if kind == "discrete-laplace" else out
