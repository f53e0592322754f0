"""The KARY paper's k-ary tree mechanisms for continual counting, numerically: the numeric twin (Algorithms
1, 2 and 3, and the online counter; the exact twin is :mod:`reference.kary.exact`).

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

Which noise values Algorithm 2 uses and when, and which vertex of Algorithm 3 each stands for (Propositions
4.10 and 4.3, made explicit), are :mod:`reference.kary.noise_indices`'s; the vectorised noise sums
:mod:`reference.kary.walk_sums`'s; the stream and noise checks and the numeric draws
:mod:`reference.kary.counter_input`'s.

Randomness and draw order (``rng`` is a numpy Generator, a seed or None; ``noise`` chooses the law, Laplace or
numpy's discrete Laplace, never exactness: the exact discrete Laplace counter is :mod:`reference.kary.exact`'s):

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

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from reference.core.options import CounterNoise
from reference.core.rng import RngLike, as_generator
from reference.core.user_code import UNLIMITED, UserFunction, checked_real, user_array
from reference.core.validate import RealLike
from reference.kary.batch_cost import check_slots
from reference.kary.counter_input import check_noise, check_stream, fill_block, finish_outputs, numeric_scale
from reference.kary.digits import check_arity, height_for_horizon
from reference.kary.noise_indices import used_mask
from reference.kary.online import OnlineWalk
from reference.kary.walk_sums import noise_sums
from reference.samplers import numeric as numeric_samplers

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["OnlineCounter", "algorithm_1", "algorithm_2_batch", "algorithm_3"]


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
    kind = check_noise(noise)
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
    return finish_outputs(np.cumsum(x), sums, kind)


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
    (:func:`~reference.kary.noise_indices.algorithm_2_used_indices`). ``noise_function`` maps an int64 array of indices p to values.

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
    kind = check_noise(noise)
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
    return finish_outputs(np.cumsum(x), sums, kind)


class OnlineCounter(OnlineWalk):
    """Algorithm 2 as an online counter with numeric noise: :meth:`step` consumes x_t and returns the noisy
    prefix count at t (the walk: :class:`~reference.kary.online.OnlineWalk`).

    ``noise``: ``"laplace"`` (floats) or ``"discrete-laplace"`` (numpy sampler, int outputs); the exact discrete
    Laplace counter is :class:`reference.kary.exact.OnlineCounter`. Draw order: one draw of size 1 per newly
    needed index, in first-use order: each value is ``samplers.numeric.laplace(h/ε, 1, rng)`` (one exponential,
    then one raw word for its sign). ``noise_function`` (index -> value) replaces the sampler.

    Attributes: ``time`` (steps consumed), ``height``, ``live_count`` (values held between steps),
    ``max_live_count`` (the most held at once, during a step), ``draws`` (values drawn so far; each index is
    drawn once).

    Args:
        arity: k, the tree's arity, an integer >= 2.
        epsilon: ε > 0, a real number.
        horizon: T, the number of steps the counter is calibrated for, an integer >= 1.
        rng: a ``numpy.random.Generator``, an integer seed or ``None`` (fresh OS entropy).
        noise: ``"laplace"`` (floats) or ``"discrete-laplace"`` (numpy sampler, int outputs).
        noise_function: ``None``, or a function index p -> noise value that replaces the sampler.
    """

    def __init__(
        self,
        arity: int,
        epsilon: RealLike,
        horizon: int,
        rng: RngLike = None,
        noise: CounterNoise = "laplace",
        *,
        noise_function: Callable[[int], float] | None = None,
    ) -> None:
        super().__init__(arity, horizon, noise_function)
        self.noise: CounterNoise = check_noise(noise)
        self._scale = numeric_scale(epsilon, self.height)
        self._generator = as_generator(rng)

    def _draw(self) -> float:
        if self.noise == "laplace":
            return float(numeric_samplers.laplace(self._scale, size=1, rng=self._generator)[0])
        return int(numeric_samplers.discrete_laplace(self._scale, size=1, rng=self._generator)[0])

    def _output(self, count: int, noise: float) -> float:
        if self.noise == "laplace" and self._function is None:
            return float(count) + noise
        return count + noise


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
    kind = check_noise(noise)
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
