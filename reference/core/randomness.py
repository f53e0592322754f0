"""Sources of uniformly random bits for the exact samplers (:mod:`reference.samplers.exact`).

The exact samplers never see a float: everything they do is integer arithmetic on the bits a
:class:`RandomBits` source hands out. A source has two methods:

* ``randbits(bits)`` — an integer uniform on ``{0, ..., 2**bits - 1}`` (``bits >= 0``; ``randbits(0) == 0``
  and consumes nothing);
* ``randbelow(n)`` — an integer uniform on ``{0, ..., n - 1}`` (``n >= 1``).

Every source here implements ``randbelow`` the same way, by rejection from ``randbits`` (so that it is exactly
uniform and its bit consumption is defined by ``randbits`` alone): with ``width = (n - 1).bit_length()`` draw
``r = randbits(width)`` until ``r < n`` and return ``r`` (``randbelow(1)`` returns 0 and consumes no bits; each
try succeeds with probability ``n / 2**width > 1/2``).

Sources:

* :class:`SystemRandomBits` — the operating system's entropy through :mod:`secrets` (``secrets.randbits``);
  for real releases. Not reproducible.
* :class:`SeededRandomBits` — reproducible, for tests: ``randbits(bits)`` is exactly
  ``random.Random(seed).getrandbits(bits)`` on one ``random.Random`` object (CPython's Mersenne Twister
  MT19937 seeded by ``init_by_array`` with the 32-bit words of the non-negative integer ``seed``; a request
  of ``bits`` bits takes ``ceil(bits / 32)`` 32-bit outputs, filling the result from its least significant
  word, and keeps the top bits of the last output). The bits depend only on the MT19937 output stream,
  whose integer seeding is platform independent and which ``random.random()`` — whose sequence Python's
  documentation guarantees for a given seed — is built from as well; so a seed gives the same samples
  everywhere. It is *not* a cryptographic generator: never use it for a release.
* :class:`ScriptedBits` — replays a fixed bit string (most significant bit first) and raises
  :class:`BitsExhausted` past its end; used to enumerate a sampler's behaviour on every bit string.
* :class:`CountingBits` — wraps any source and counts the bits consumed (``bits_used``) and the calls.
"""

from __future__ import annotations

import numbers
import random
import secrets
from abc import ABC, abstractmethod
from typing import Protocol, runtime_checkable

from reference.core.exact_text import message_value


@runtime_checkable
class RandomBits(Protocol):
    """A source of independent uniformly random bits (see the module docstring for the contract)."""

    def randbits(self, bits: int) -> int:
        """An integer uniform on ``{0, ..., 2**bits - 1}``.

        Args:
            bits: the number of random bits, an integer >= 0.
        """
        ...

    def randbelow(self, n: int) -> int:
        """An integer uniform on ``{0, ..., n - 1}``.

        Args:
            n: the exclusive upper bound, an integer >= 1.
        """
        ...


def _check_bits(bits: object) -> int:
    if type(bits) is int and bits >= 0:  # the common case, without the slow numbers.Integral ABC check
        return bits
    if isinstance(bits, bool) or not isinstance(bits, numbers.Integral):
        raise TypeError(f"bits must be an integer >= 0, got {bits!r}")
    value = int(bits)
    if value < 0:
        raise ValueError(f"bits must be an integer >= 0, got {message_value(value)}")
    return value


def _check_bound(n: object) -> int:
    if type(n) is int and n >= 1:  # the common case, without the slow numbers.Integral ABC check
        return n
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise TypeError(f"n must be an integer >= 1, got {n!r}")
    value = int(n)
    if value < 1:
        raise ValueError(f"n must be an integer >= 1, got {message_value(value)}")
    return value


class _RejectionBelow(ABC):
    """``randbelow`` by rejection from ``randbits`` (shared by every source of this module)."""

    @abstractmethod
    def randbits(self, bits: int) -> int:
        """``bits`` uniform random bits as a non-negative integer (each source supplies its own)."""

    def randbelow(self, n: int) -> int:
        """Uniform on ``{0, ..., n - 1}``: ``randbits((n - 1).bit_length())`` until the value is below ``n``.

        Args:
            n: the bound, an integer >= 1.
        """
        bound = _check_bound(n)
        width = (bound - 1).bit_length()
        while True:
            value = self.randbits(width)
            if value < bound:
                return value


class SystemRandomBits(_RejectionBelow):
    """Bits from the operating system's cryptographic entropy source (``secrets.randbits``). For releases."""

    def randbits(self, bits: int) -> int:
        """``secrets.randbits(bits)`` (0 for ``bits == 0``).

        Args:
            bits: the number of random bits, an integer >= 0.
        """
        width = _check_bits(bits)
        return secrets.randbits(width) if width else 0

    def __repr__(self) -> str:
        return "SystemRandomBits()"


class SeededRandomBits(_RejectionBelow):
    """Reproducible bits: ``random.Random(seed).getrandbits`` (Mersenne Twister; tests only, not for releases).

    ``seed`` is an integer >= 0. Two objects with the same seed produce the same bit stream on every platform.

    Args:
        seed: an integer >= 0; the same seed gives the same bit stream on every platform.
    """

    def __init__(self, seed: int) -> None:
        if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
            raise TypeError(f"seed must be an integer >= 0, got {seed!r}")
        if int(seed) < 0:
            raise ValueError(f"seed must be an integer >= 0, got {int(seed)}")
        self.seed: int = int(seed)
        self._generator: random.Random = random.Random(self.seed)

    def randbits(self, bits: int) -> int:
        """``random.Random(seed).getrandbits(bits)`` on this object's generator (0 for ``bits == 0``).

        Args:
            bits: the number of random bits, an integer >= 0.
        """
        width = _check_bits(bits)
        return int(self._generator.getrandbits(width)) if width else 0

    def __repr__(self) -> str:
        return f"SeededRandomBits({self.seed})"


class BitsExhausted(Exception):
    """Raised by :class:`ScriptedBits` when a sampler asks for more bits than the script holds."""


class ScriptedBits(_RejectionBelow):
    """Replays the ``length``-bit string ``value`` (most significant bit first), then raises ``BitsExhausted``.

    ``randbits(b)`` returns the next ``b`` bits of the script read as a binary number, first bit most
    significant. ``used`` is the number of bits handed out so far.

    Args:
        value: the script's bits read as one binary number, first bit most significant: an integer in [0, 2**length).
        length: the number of bits in the script, an integer >= 0 (leading zero bits of ``value`` count).
    """

    def __init__(self, value: int, length: int) -> None:
        self.length: int = _check_bits(length)
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(f"value must be an integer in [0, 2**length), got {value!r}")
        if not 0 <= int(value) < (1 << self.length):
            raise ValueError(f"value must be an integer in [0, 2**length) = [0, {1 << self.length}), got {message_value(value)}")
        self.value: int = int(value)
        self.used: int = 0

    def randbits(self, bits: int) -> int:
        """The next ``bits`` bits of the script; ``BitsExhausted`` if fewer remain.

        Args:
            bits: the number of random bits, an integer >= 0 (a bool or non-integer is a TypeError; a negative count a
                ValueError).
        """
        width = _check_bits(bits)
        remaining = self.length - self.used
        if width > remaining:
            raise BitsExhausted(f"asked for {width} bits with {remaining} left in a {self.length}-bit script")
        self.used += width
        return (self.value >> (self.length - self.used)) & ((1 << width) - 1)


class CountingBits(_RejectionBelow):
    """Wraps a source and counts what is drawn: ``bits_used`` (total bits) and ``calls`` (``randbits`` calls).

    ``randbelow`` is implemented here by rejection from the wrapped source's ``randbits`` (as every source of
    this module does), so the count is exact whichever source is wrapped.

    Args:
        source: the :class:`RandomBits` source to draw from and count (None: a fresh :class:`SystemRandomBits`).
    """

    def __init__(self, source: RandomBits) -> None:
        self.source: RandomBits = check_source(source)
        self.bits_used: int = 0
        self.calls: int = 0

    def randbits(self, bits: int) -> int:
        """The wrapped source's ``randbits(bits)``, counted.

        Args:
            bits: the number of random bits, an integer >= 0 (a bool or non-integer is a TypeError; a negative count a
                ValueError).
        """
        width = _check_bits(bits)
        self.bits_used += width
        self.calls += 1
        return self.source.randbits(width) if width else 0

    def __repr__(self) -> str:
        return f"CountingBits({self.source!r}, bits_used={self.bits_used})"


def check_source(source: object, name: str = "source") -> RandomBits:
    """Return ``source`` if it is a :class:`RandomBits` (has ``randbits`` and ``randbelow``), else ``TypeError``.

    ``None`` gives a fresh :class:`SystemRandomBits` (OS entropy). A ``random.Random`` instance is refused:
    its ``randbelow`` is private and its bit consumption version-dependent; wrap a seed in
    :class:`SeededRandomBits` instead.

    Args:
        source: anything the caller passed as a bit source: accepted when it is a :class:`RandomBits` (has ``randbits``
            and ``randbelow``) other than a ``random.Random``; None gives a fresh :class:`SystemRandomBits`.
        name: the parameter's name, as the refusal names it (default ``"source"``).
    """
    if source is None:
        return SystemRandomBits()
    if isinstance(source, random.Random) or not isinstance(source, RandomBits):
        raise TypeError(
            f"{name} must be a RandomBits source (SystemRandomBits(), SeededRandomBits(seed), ...) or None, "
            f"got {type(source).__name__}"
        )
    return source
