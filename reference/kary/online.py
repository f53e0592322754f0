"""KARY Algorithm 2 as an online counter: the walk both twins step through.

:class:`OnlineWalk` holds what the listing stores (KARY Algorithm 2): the running count of the input, the offset
digits of t, per level the walk's position and running noise after levels h..ℓ, and the *live* noise values (a
dict p -> z_p). A value is drawn when the walk first needs it and forgotten after its last use
(:func:`~reference.kary.noise_indices.noise_lifetime`), so at most ‖rep(t, h)‖₁ <= h·⌊k/2⌋ values are held
(Lemma 4.12's h(k − 1)/2 for odd arity) and memory never grows with T. Incrementing t changes digits 1..m only;
levels m..1 are re-walked from the cached level m + 1, so a step costs O(m k) additions (O(k) amortised, O(h k)
at worst) and its result is bit-identical to the full walk.

The twins say how a value is drawn and what an output is: :class:`reference.kary.numeric.OnlineCounter`
(numpy's Laplace or discrete Laplace, floats or ints) and :class:`reference.kary.exact.OnlineCounter` (the exact
discrete Laplace on a :class:`~reference.core.randomness.RandomBits` source, ints). Draw order in both: one draw
per newly needed index, in the order the walk first visits them (time, then level from h down, then step).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from reference.core.user_code import user_real
from reference.core.validate import check_positive_int
from reference.kary.counter_input import check_stream
from reference.kary.digits import check_arity, height_for_horizon
from reference.kary.noise_indices import noise_lifetime

__all__ = ["OnlineWalk"]


class OnlineWalk:
    """Algorithm 2's online walk over the offset digits of t (module docstring), with the draws left to a twin.

    A twin defines ``_draw()`` (one fresh noise value) and may redefine ``_output(count, noise)`` (the released
    value at t; by default ``count + noise``). Attributes: ``time`` (steps consumed), ``height``, ``live_count``
    (values held between steps), ``max_live_count`` (the most held at once, during a step), ``draws`` (values
    drawn so far; each index is drawn once).

    Args:
        arity: k, the tree's arity, an integer >= 2 (odd: Algorithm 2; even: Appendix C's variant).
        horizon: T, the number of steps the counter is calibrated for, an integer >= 1.
        noise_function: ``None``, or a function index p -> noise value that replaces the sampler.
    """

    #: The law's name, as the twin's ``noise`` option spells it (set by each twin).
    noise: str = ""

    def __init__(self, arity: int, horizon: int, noise_function: Callable[[int], float] | None = None) -> None:
        self.arity: int = check_arity(arity)
        self.horizon: int = check_positive_int(horizon, "horizon")
        self.height: int = height_for_horizon(self.arity, self.horizon, offset=True)
        self._function = noise_function
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
        raise NotImplementedError  # each twin draws its own law

    def _output(self, count: int, noise: float) -> float:
        return count + noise

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
        return (f"{type(self).__name__}(arity={self.arity}, horizon={self.horizon}, noise={self.noise}, "
                f"height={self.height}, time={self.time})")

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
        result = self._output(self._count, self._running[1])
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
