"""The KARY counters' input and numeric noise: the 0/1 stream, the noise option, the scale h/ε and the draws.

Every counter (:mod:`reference.kary.counters`, :mod:`reference.kary.counters_runs`) checks its stream with
:func:`check_stream` and its ``noise`` with :func:`check_noise`, takes the Laplace scale h/ε from
:func:`numeric_scale` and draws a whole block of noise values with :func:`fill_block` (the stream of
``reference.samplers.numeric.laplace`` / ``discrete_laplace`` of the block's size).
"""

from __future__ import annotations

import numpy as np

from reference.core.options import CounterNoise, choices
from reference.core.validate import RealLike, positive_real
from reference.samplers import numeric as numeric_samplers

__all__ = ["check_noise", "check_stream", "fill_block", "finish_outputs", "numeric_scale"]

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


def check_noise(noise: object) -> CounterNoise:
    """``noise`` as one of the numeric counters' laws (``ValueError`` naming ``noise`` otherwise).

    ``noise`` chooses only the law: the exact discrete Laplace counter is a twin of its own
    (:class:`reference.kary.exact.OnlineCounter`), which ``"exact"`` is refused with a pointer to.

    Args:
        noise: anything: accepted when it is ``"laplace"`` or ``"discrete-laplace"``.
    """
    if noise == "laplace":
        return "laplace"
    if noise == "discrete-laplace":
        return "discrete-laplace"
    hint = "; the exact counter is reference.kary.exact.OnlineCounter" if noise == "exact" else ""
    raise ValueError(f"noise must be one of {choices(CounterNoise)}, got {noise!r}{hint}")


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


def finish_outputs(prefix: np.ndarray, noise: np.ndarray, kind: str) -> np.ndarray:
    """The noisy outputs: ``prefix + noise``, written into ``noise`` (int64 for the discrete noise).

    Args:
        prefix: the true prefix counts, one per output.
        noise: the outputs' noise sums (float64; NaN only where an index was not drawn, an internal error).
        kind: ``"laplace"`` or ``"discrete-laplace"``.
    """
    if np.isnan(noise.sum()):  # an internal invariant: every index an output uses was drawn
        raise ArithmeticError("an output used a noise index that was not drawn")
    np.add(prefix, noise, out=noise)
    return noise.astype(np.int64) if kind == "discrete-laplace" else noise
