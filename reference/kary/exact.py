"""The KARY paper's counters with exact noise: the exact twin of :mod:`reference.kary.numeric`.

:class:`OnlineCounter` is Algorithm 2 as an online counter (the walk of :class:`~reference.kary.online.OnlineWalk`)
whose noise values are exact discrete Laplace draws with the rational scale h/ε
(:func:`reference.samplers.exact.discrete_laplace` on a :class:`~reference.core.randomness.RandomBits` source),
and whose outputs are exact integers. Its parameters are the numeric twin's, apart from exactness: ``epsilon`` is
an exact rational and the randomness a ``source`` of random bits; ``noise`` chooses the law and admits the one
this twin draws. The vectorised Algorithms 1, 2 and 3 sum floats and exist in the numeric twin only.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from reference.core.options import ExactCounterNoise
from reference.core.randomness import RandomBits, check_source
from reference.core.validate import RationalLike, positive_fraction
from reference.kary.online import OnlineWalk
from reference.samplers import exact as exact_samplers

__all__ = ["OnlineCounter"]


def check_exact_noise(noise: object) -> ExactCounterNoise:
    """``noise`` as the exact counter's law (``ValueError`` naming ``noise`` otherwise).

    Args:
        noise: anything: accepted when it is ``"discrete-laplace"``.
    """
    if noise == "discrete-laplace":
        return "discrete-laplace"
    raise ValueError(f"noise must be one of ('discrete-laplace',), got {noise!r} (the exact counter draws the exact "
                     "discrete Laplace; Laplace noise is reference.kary.numeric.OnlineCounter's)")


class OnlineCounter(OnlineWalk):
    """Algorithm 2 as an online counter with exact discrete Laplace noise: :meth:`step` consumes x_t and returns
    the noisy prefix count at t, an exact integer.

    Draw order: one draw per newly needed index, in first-use order, each
    ``samplers.exact.discrete_laplace(h/ε, source)``. ``noise_function`` (index -> value) replaces the sampler.
    Attributes: those of :class:`~reference.kary.online.OnlineWalk`.

    Args:
        arity: k, the tree's arity, an integer >= 2.
        epsilon: ε > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        horizon: T, the number of steps the counter is calibrated for, an integer >= 1.
        source: a :class:`~reference.core.randomness.RandomBits` source or ``None`` (OS entropy).
        noise: ``"discrete-laplace"`` (the exact discrete Laplace with scale h/ε; the only law of this twin).
        noise_function: ``None``, or a function index p -> noise value that replaces the sampler.
    """

    def __init__(
        self,
        arity: int,
        epsilon: RationalLike,
        horizon: int,
        source: RandomBits | None = None,
        noise: ExactCounterNoise = "discrete-laplace",
        *,
        noise_function: Callable[[int], float] | None = None,
    ) -> None:
        super().__init__(arity, horizon, noise_function)
        self.noise: ExactCounterNoise = check_exact_noise(noise)
        self._scale: Fraction = self.height / positive_fraction(epsilon, "epsilon")
        self._source = check_source(source, "source")

    def _draw(self) -> float:
        return int(exact_samplers.discrete_laplace(self._scale, source=self._source))
