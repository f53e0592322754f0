"""Digits of the KARY paper, exactly: standard and offset k-ary representations, heights, Algorithm 2's noise.

KARY paper (Andersson, Pagh, Steiner, Torkamani, "Count on Your Elders"). The paper's ``k`` is ``arity``
here, ``w`` is ``width``, ``h`` is ``height`` and ``T`` is ``horizon``. Digit vectors are tuples, least
significant digit first (``digits[0]`` is the paper's t_1, the multiplier of arity**0).

* Definition 3.2 (:func:`digits`): the unique vector in [0, k−1]^w with sum k^(i−1) t_i = t.
* Definition 3.8 (:func:`offset_digits`, odd arity): the unique vector in [−(k−1)/2, (k−1)/2]^w with the same
  sum; it represents every integer in [−(k^w − 1)/2, (k^w − 1)/2].
* Definition C.1 (:func:`even_offset_digits`, even arity, Appendix C): digits in [−k/2 + 1, k/2]; they
  represent every integer in [−(k/2 − 1)(k^w − 1)/(k − 1), k(k^w − 1)/(2(k − 1))].

Both offset representations are the standard digits of a shifted value: with c = ⌊(k − 1)/2⌋ and
M = c (k^w − 1)/(k − 1) (the number whose w digits all equal c), offset digit i of t is standard digit i of
t + M, minus c. The digit functions below do *not* use this identity (they divide with a balanced
remainder); the dynamic programme of :mod:`reference.kary.mse` does, and the two are cross-checked.

Heights are computed with integer arithmetic only (:func:`height_for_horizon`): the paper's
h = ⌈log_k(T + 1)⌉ (Algorithm 1) and h = ⌈log_k(2T)⌉ (Algorithm 2) are the smallest h whose representation
holds every t in 1..T, and that is how they are computed here.

Algorithm 2 (:func:`algorithm_2_noise_indices`): for output t it walks the offset digits from the most
significant one, and for each level ℓ = h..1 it repeats |t_ℓ| times ``p ← p + sgn(t_ℓ) k^(ℓ−1)`` and adds the
noise value z_p. The indices it visits are returned in that order; their number is ‖rep(t, h)‖₁
(:func:`algorithm_2_noise_count`). For even arity the same walk over Definition C.1's digits is Appendix C's
variant of the algorithm.
"""

from __future__ import annotations

from typing import Literal

from reference.core.exact_text import message_value
from reference.core.validate import check_positive_int

#: What needs odd or even arity, and where to go otherwise (the texts of :func:`check_arity`'s errors).
ODD_OFFSET = "the offset representation of Definition 3.8"
USE_EVEN = "for even arity use even_offset_digits (Appendix C, Definition C.1)"
EVEN_OFFSET = "Definition C.1 (Appendix C)"
USE_ODD = "for odd arity use offset_digits (Definition 3.8)"


def check_arity(
    arity: int,
    *,
    parity: Literal["any", "odd", "even"] = "any",
    minimum: int | None = None,
    needed_by: str = "",
    otherwise: str = "",
) -> int:
    """``arity`` as an int >= ``minimum`` (default 2, or 3 when it must be odd) of the requested parity.

    The one arity check of the KARY package. ``needed_by`` names what requires the parity and ``otherwise`` says
    where to go instead; both appear in the one-line error.

    Args:
        arity: the value to check (an integer is accepted).
        parity: ``"any"`` (default), ``"odd"`` or ``"even"``.
        minimum: the smallest arity accepted, or ``None`` for 2 (3 when it must be odd).
        needed_by: what requires the parity, named in the error (default empty).
        otherwise: where to go instead, named in the error (default empty).
    """
    low = minimum if minimum is not None else (3 if parity == "odd" else 2)
    value = check_positive_int(arity, "arity", minimum=low)
    if (parity == "odd" and value % 2 == 0) or (parity == "even" and value % 2 == 1):
        reason = f" for {needed_by}" if needed_by else ""
        advice = f"; {otherwise}" if otherwise else ""
        raise ValueError(f"arity must be {parity}{reason}, got {message_value(value)}{advice}")
    return value


#: Most digits (a width or a tree height) accepted: arity**width is built exactly, and 4096 digits of any arity
#: >= 2 hold horizons past 10**1233, far beyond any stream.
MAX_WIDTH = 4096


def check_width(value: int, name: str = "width") -> int:
    """A digit count (``width``, ``height``): an integer in [1, MAX_WIDTH], checked before any arity**width.

    Args:
        value: the digit count to check (an integer in [1, 4096] is accepted).
        name: the parameter name the error uses (default ``"width"``).
    """
    result = check_positive_int(value, name)
    if result > MAX_WIDTH:
        raise ValueError(
            f"{name} must be an integer in [1, {MAX_WIDTH}] (arity**{name} is built exactly), got {message_value(result)}"
        )
    return result


def _check_int(value: object, name: str) -> int:
    """An integer (not bool), possibly negative."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    return int(value)


def digit_offset(arity: int) -> int:
    """c = ⌊(arity − 1)/2⌋: the largest negative offset digit's magnitude (−c is the smallest digit).

    Odd arity (Definition 3.8): digits −c..c; even arity (Definition C.1): digits −c..c + 1.

    Args:
        arity: k, an integer >= 2.
    """
    return (check_arity(arity) - 1) // 2


def offset_capacity(arity: int, width: int) -> int:
    """The largest integer an offset representation with ``width`` digits holds.

    Odd arity: (k^w − 1)/2 (Definition 3.8); even arity: k(k^w − 1)/(2(k − 1)) (Definition C.1).

    Args:
        arity: k, an integer >= 2.
        width: w, an integer in [1, 4096].
    """
    return _offset_capacity(check_arity(arity), check_width(width, "width"))


def _offset_capacity(arity: int, width: int) -> int:
    """:func:`offset_capacity` of an arity and a width already checked (the loops of this module call it)."""
    return int((arity - 1 - (arity - 1) // 2) * ((arity**width - 1) // (arity - 1)))


def _offset_floor(arity: int, width: int) -> int:
    """The most negative integer the offset representation holds: −c (k^w − 1)/(k − 1)."""
    return int(-((arity - 1) // 2) * ((arity**width - 1) // (arity - 1)))


def digits(value: int, arity: int, width: int) -> tuple[int, ...]:
    """Definition 3.2: the ``width`` standard base-``arity`` digits of ``value``, least significant first.

    ``value`` must satisfy 0 <= value <= arity**width − 1 (ValueError naming ``value`` otherwise).

    Args:
        value: the integer, in [0, k^w − 1].
        arity: k, an integer >= 2.
        width: w, an integer in [1, 4096].
    """
    k = check_arity(arity)
    w = check_width(width, "width")
    number = _check_int(value, "value")
    if not 0 <= number < k**w:
        raise ValueError(f"value must be in [0, {k}**{w} − 1] to fit in {w} base-{k} digits, got {message_value(number)}")
    result = []
    for _ in range(w):
        number, digit = divmod(number, k)
        result.append(digit)
    return tuple(result)


def _balanced_digits(number: int, arity: int, width: int, top: int) -> tuple[int, ...]:
    """Digits in [top − arity + 1, top] by division with a remainder in that range (no shift identity)."""
    result = []
    for _ in range(width):
        digit = number % arity
        if digit > top:
            digit -= arity
        result.append(digit)
        number = (number - digit) // arity
    if number != 0:  # unreachable after the range check; kept as an invariant
        raise ArithmeticError("offset digits did not terminate within the width")
    return tuple(result)


def offset_digits(value: int, arity: int, width: int) -> tuple[int, ...]:
    """Definition 3.8: the ``width`` offset digits of ``value`` for odd ``arity``, least significant first.

    Digits lie in [−(k − 1)/2, (k − 1)/2]; ``value`` must satisfy |value| <= (k^w − 1)/2. (The definition
    is stated for positive t; zero and negative values, which the proof of Lemma 4.7 uses, are accepted.)
    Even arity is refused (ValueError naming ``arity``): use :func:`even_offset_digits`.

    Args:
        value: the integer to represent, |value| <= (k^w − 1)/2.
        arity: k, an odd integer >= 3.
        width: w, the number of digits, an integer in [1, 4096].
    """
    k = check_arity(arity, parity="odd", needed_by=ODD_OFFSET, otherwise=USE_EVEN)
    w = check_width(width, "width")
    number = _check_int(value, "value")
    bound = (k**w - 1) // 2
    if not -bound <= number <= bound:
        raise ValueError(
            f"value must be in [−{bound}, {bound}] to fit in {w} offset base-{k} digits (Definition 3.8), got {message_value(number)}"
        )
    return _balanced_digits(number, k, w, (k - 1) // 2)


def even_offset_digits(value: int, arity: int, width: int) -> tuple[int, ...]:
    """Definition C.1 (Appendix C): ``width`` offset digits in [−k/2 + 1, k/2] for even ``arity``.

    ``value`` must lie in [−(k/2 − 1)(k^w − 1)/(k − 1), k(k^w − 1)/(2(k − 1))]. (The printed definition
    states the bound with h where it means w.) Odd arity is refused: use :func:`offset_digits`.

    Args:
        value: the integer to represent, within the bounds above.
        arity: k, an even integer >= 2.
        width: w, the number of digits, an integer in [1, 4096].
    """
    k = check_arity(arity, parity="even", needed_by=EVEN_OFFSET, otherwise=USE_ODD)
    w = check_width(width, "width")
    number = _check_int(value, "value")
    low, high = _offset_floor(k, w), _offset_capacity(k, w)
    if not low <= number <= high:
        raise ValueError(
            f"value must be in [{low}, {high}] to fit in {w} offset base-{k} digits (Definition C.1), got {message_value(number)}"
        )
    return _balanced_digits(number, k, w, k // 2)


def height_for_horizon(arity: int, horizon: int, *, offset: bool) -> int:
    """The smallest height h >= 1 such that every t in 1..``horizon`` is representable with h digits.

    ``offset=False``: standard digits (Algorithm 1, h = ⌈log_k(T + 1)⌉): T <= k^h − 1.
    ``offset=True``: offset digits (Algorithm 2, h = ⌈log_k(2T)⌉ for odd arity): T <= (k^h − 1)/2; for even
    arity Definition C.1's capacity T <= k(k^h − 1)/(2(k − 1)) (Appendix C's "h correctly set").
    Integer arithmetic only.

    Args:
        arity: k, the tree's arity, an integer >= 2.
        horizon: T, the stream length, an integer >= 1.
        offset: ``True`` for offset digits (Algorithm 2), ``False`` for standard digits (Algorithm 1).
    """
    k = check_arity(arity)
    steps = check_positive_int(horizon, "horizon")
    if not isinstance(offset, bool):
        raise TypeError(f"offset must be a bool, got {offset!r}")
    # capacity at height h: k^h − 1 (standard), or c'·(k^h − 1)/(k − 1) (offset, c' = k − 1 − ⌊(k − 1)/2⌋, as
    # _offset_capacity); k^h kept as a running power instead of recomputed at every height
    height, power = 1, k
    upper = k - 1 - (k - 1) // 2
    while (upper * ((power - 1) // (k - 1)) if offset else power - 1) < steps:
        height += 1
        power *= k
        if height > MAX_WIDTH:
            check_width(height, "width")  # refuses it, with the message an explicit width gets
    return height


def _representation(time: int, arity: int, height: int) -> tuple[int, tuple[int, ...]]:
    """(validated arity, offset digits of ``time``) for :func:`representation`."""
    k = check_arity(arity)
    h = check_width(height, "height")
    t = check_positive_int(time, "time")
    capacity = _offset_capacity(k, h)
    if t > capacity:
        raise ValueError(f"time must be in [1, {capacity}] for arity {k} and height {h}, got {message_value(t)}")
    return k, _balanced_digits(t, k, h, k // 2)


def representation(time: int, arity: int, height: int) -> tuple[int, ...]:
    """The offset representation Algorithm 2 uses for ``time``: Definition 3.8 (odd arity) or C.1 (even).

    ``time`` must lie in [1, offset_capacity(arity, height)].

    Args:
        time: t, an integer in [1, offset_capacity(arity, height)].
        arity: k, an integer >= 2.
        height: h, an integer in [1, 4096].
    """
    return _representation(time, arity, height)[1]


def algorithm_2_noise_indices(time: int, arity: int, height: int) -> tuple[int, ...]:
    """The indices p of the noise values z_p that Algorithm 2 adds to output ``time``, in the order it adds them.

    Lines 6–13 of Algorithm 2: t ← rep(t, h); p ← 0; for ℓ = h..1, repeat |t_ℓ| times
    {p ← p + sgn(t_ℓ) k^(ℓ−1); noise ← noise + z_p}. Every index lies in [1, offset_capacity(arity, height)]
    (Proposition 4.1). For even arity the representation is Definition C.1's (Appendix C's variant).

    Args:
        time: t, an integer in [1, offset_capacity(arity, height)].
        arity: k, an integer >= 2.
        height: h, an integer in [1, 4096].
    """
    k, rep = _representation(time, arity, height)
    indices: list[int] = []
    position = 0
    for level in range(len(rep), 0, -1):
        digit = rep[level - 1]
        step = k ** (level - 1) if digit > 0 else -(k ** (level - 1))
        for _ in range(abs(digit)):
            position += step
            indices.append(position)
    return tuple(indices)


def algorithm_2_noise_count(time: int, arity: int, height: int) -> int:
    """How many noise values Algorithm 2 adds to output ``time``: ‖rep(t, h)‖₁ (line 11's executions).

    The indices are distinct (tested against :func:`algorithm_2_noise_indices`), so with i.i.d. noise of
    variance v the output's variance is this count times v.

    Args:
        time: t, an integer in [1, offset_capacity(arity, height)].
        arity: k, an integer >= 2.
        height: h, an integer in [1, 4096].
    """
    return sum(abs(digit) for digit in representation(time, arity, height))
