"""Exact mean squared error of the KARY paper's Algorithms 1 and 2 for every horizon T, and Lemmas 3.5 and 4.7's
closed forms.

Algorithm 2 (k-ary tree mechanism with subtraction, odd arity k >= 3) sets h = ⌈log_k(2T)⌉ (computed by
:func:`reference.kary.digits.height_for_horizon`), draws i.i.d. Laplace(h/ε) noise values z_p (the scale
Lemma 4.5's privacy proof uses: ℓ1 sensitivity h) and adds to output t the noise values whose indices
:func:`~reference.kary.digits.algorithm_2_noise_indices` lists. Those indices are distinct, so the
output's variance is ‖rep(t, h)‖₁ · 2h²/ε² (Laplace(b) has variance 2b²), and the mean squared error over
t = 1..T is

    MSE = (2h²/ε²) · (1/T) Σ_{t=1}^{T} ‖rep(t, h)‖₁.

Every function returns ε²·MSE (or ε²·Var), an exact ``Fraction`` (ε cancels).

Two independent computations of the sum:

* :func:`algorithm_2_mse` enumerates t = 1..T and counts each t's offset digits by balanced division
  (up to :data:`MAX_ENUMERATION_HORIZON`);
* :func:`algorithm_2_mse_digit_programme` uses the shift identity: with c = ⌊(k − 1)/2⌋ and M = c(k^h − 1)/(k − 1),
  offset digit ℓ of t equals standard digit ℓ of t + M minus c, so the sum is G(M + T) − G(M) with
  G(N) = Σ_{n=0}^{N} Σ_ℓ |d_ℓ(n) − c| over the h standard digits (leading zeros included: they are offset
  digits −c). G is a count over the base-k digits of N: at level ℓ (weight w = k^(ℓ−1)) the digit of n runs
  through 0..k−1 in blocks of w, so ⌊(N+1)/(kw)⌋ full cycles contribute w Σ_d |d − c| each and the partial
  cycle contributes w Σ_{d<a} |d − c| + b |a − c|, where (N + 1) mod kw = a w + b. O(h) integer operations,
  so T = 10^12 takes microseconds.

Even arity: the same formulas with Definition C.1's digits (−k/2 + 1..k/2) and the height that fits T are
Appendix C's variant; :func:`appendix_c_recursion` is Proof C.2's recursion and :func:`claim_1_leading_term`
Claim 1's main term, for comparison.

:func:`lemma_4_7_closed_form` is the printed Lemma 4.7, k(1 − 1/k²) h³ / (2(1 − 1/k^h)) (times ε²), which the
paper states for T = (k^h − 1)/2 only.

Algorithm 1 sets h = ⌈log_k(T + 1)⌉ and scale b = h/ε, so ε²·MSE = (2h²/T) Σ_{t=1}^{T} ‖digits(t)‖₁
(:func:`algorithm_1_mse` by enumeration, :func:`algorithm_1_mse_digit_programme` by a digit programme for any T,
:func:`lemma_3_5_closed_form` the printed Lemma 3.5 at T = k^h − 1).
"""

from __future__ import annotations

import bisect
import functools
import math
from fractions import Fraction

from reference.core.exact_text import message_value
from reference.core.validate import check_positive_int
from reference.kary.digits import MAX_WIDTH, check_arity, check_width, height_for_horizon, offset_capacity

#: What needs odd arity here (the text of the error).
LEMMA_4_7 = "Lemma 4.7 (stated for odd arity >= 3)"

#: Largest horizon :func:`algorithm_2_mse` enumerates (use :func:`algorithm_2_mse_digit_programme` beyond).
MAX_ENUMERATION_HORIZON = 2_000_000


# ------------------------------------------------------------------------------------------ enumeration


def algorithm_2_total_noise_count(arity: int, horizon: int) -> int:
    """Σ_{t=1}^{T} ‖rep(t, h)‖₁ by enumerating t (balanced division per t), h = Algorithm 2's height.

    Odd arity: Definition 3.8's digits; even arity: Definition C.1's (Appendix C). T <= 2·10^6.

    Args:
        arity: k, an integer >= 2.
        horizon: T, an integer in [1, 2·10^6] (enumerated).
    """
    k = check_arity(arity)
    steps = check_positive_int(horizon, "horizon")
    if steps > MAX_ENUMERATION_HORIZON:
        raise ValueError(
            f"horizon must be <= {MAX_ENUMERATION_HORIZON} for enumeration, got {message_value(steps)}; use algorithm_2_mse_digit_programme"
        )
    top = k // 2
    total = 0
    for time in range(1, steps + 1):
        number = time
        while number:
            digit = number % k
            if digit > top:
                digit -= k
            total += abs(digit)
            number = (number - digit) // k
    return total


def algorithm_2_mse(arity: int, horizon: int) -> Fraction:
    """ε² · MSE of Algorithm 2 over t = 1..``horizon``, by direct enumeration (T <= 2·10^6).

    (2h²/T) Σ_t ‖rep(t, h)‖₁ with h = ⌈log_k(2T)⌉ (odd arity; Appendix C's variant for even arity).

    Args:
        arity: k, the tree's arity, an integer >= 2.
        horizon: T, an integer in [1, 2·10^6].
    """
    k = check_arity(arity)
    steps = check_positive_int(horizon, "horizon")
    if steps > MAX_ENUMERATION_HORIZON:  # before the height, whose digit-width limit would name "width"
        raise ValueError(f"horizon must be <= {MAX_ENUMERATION_HORIZON} for enumeration, got "
                         f"{message_value(steps)}; use algorithm_2_mse_digit_programme")
    height = height_for_horizon(k, steps, offset=True)
    return Fraction(2 * height**2 * algorithm_2_total_noise_count(k, steps), steps)


def algorithm_2_step_variance(time: int, arity: int, horizon: int) -> int:
    """ε² · Var of Algorithm 2's output at ``time`` (1 <= time <= horizon): 2h² ‖rep(t, h)‖₁ (an integer).

    Args:
        time: t, an integer in [1, horizon].
        arity: k, an integer >= 2.
        horizon: T, an integer >= 1.
    """
    k = check_arity(arity)
    steps = check_positive_int(horizon, "horizon")
    t = check_positive_int(time, "time")
    if t > steps:
        raise ValueError(f"time must be in [1, horizon = {steps}], got {message_value(t)}")
    height = height_for_horizon(k, steps, offset=True)
    number, count = t, 0
    while number:
        digit = number % k
        if digit > k // 2:
            digit -= k
        count += abs(digit)
        number = (number - digit) // k
    return 2 * height**2 * count


# ---------------------------------------------------------------------------------- digit programme


def _prefix_mass(upper: int, center: int) -> int:
    """Σ_{d=0}^{upper−1} |d − center| (closed form)."""
    if upper <= center + 1:
        return upper * center - upper * (upper - 1) // 2
    return center * (center + 1) // 2 + (upper - 1 - center) * (upper - center) // 2


def _digit_mass(limit: int, arity: int, height: int, center: int) -> int:
    """G(limit) = Σ_{n=0}^{limit} Σ_{ℓ=1}^{height} |d_ℓ(n) − center|, standard digits of n (width height)."""
    count = limit + 1  # the values 0..limit
    full_cycle = _prefix_mass(arity, center)
    total = 0
    weight = 1
    for _ in range(height):
        block = weight * arity
        cycles, rest = divmod(count, block)
        digit, partial = divmod(rest, weight)
        total += cycles * weight * full_cycle + weight * _prefix_mass(digit, center) + partial * abs(digit - center)
        weight = block
    return total


def algorithm_2_total_noise_count_digit_programme(arity: int, horizon: int) -> int:
    """Σ_{t=1}^{T} ‖rep(t, h)‖₁ by the digit programme (module docstring); exact for any T, O(h) steps.

    Args:
        arity: k, an integer >= 2.
        horizon: T, an integer >= 1.
    """
    k = check_arity(arity)
    steps = check_positive_int(horizon, "horizon")
    height, power = _offset_height(k, steps)
    return _total_digit_programme(k, steps, height, power)


#: Horizons up to this are answered from a cached table of Algorithm 2's capacities per arity.
HEIGHT_TABLE_HORIZON = 2**128


@functools.lru_cache(maxsize=128)
def _height_table(arity: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(capacities upper·(k^h − 1)/(k − 1), powers k^h) for h = 1, 2, .. until the capacity reaches 2^128."""
    upper = arity - 1 - (arity - 1) // 2
    capacities, powers = [], []
    power = arity
    while not capacities or capacities[-1] < HEIGHT_TABLE_HORIZON:
        capacities.append(upper * ((power - 1) // (arity - 1)))
        powers.append(power)
        power *= arity
    return tuple(capacities), tuple(powers)


def _offset_height(arity: int, steps: int) -> tuple[int, int]:
    """(h, k^h) for Algorithm 2 at horizon T: the value of ``height_for_horizon(k, T, offset=True)`` and its power.

    The condition is upper·(k^h − 1)/(k − 1) >= T with upper = k − 1 − ⌊(k − 1)/2⌋; (k^h − 1) is a multiple of
    k − 1, so it is upper·(k^h − 1) >= T(k − 1). A float logarithm only guesses h; exact integer comparisons
    settle it (one or two powers instead of a power per height).
    """
    capacities, powers = _height_table(arity)
    if steps <= capacities[-1]:  # the common case: a binary search in C over the cached capacities
        index = bisect.bisect_left(capacities, steps)
        return index + 1, powers[index]
    upper = arity - 1 - (arity - 1) // 2
    need = steps * (arity - 1)
    try:
        guess = max(1, int(math.log(need / upper + 1, arity)))
    except OverflowError:  # need/upper past the float range: 2^(bits − 1 − bits') < need/upper bounds it below
        guess = max(1, int((need.bit_length() - 1 - upper.bit_length()) / math.log2(arity)))
    if guess > MAX_WIDTH + 1:  # the guess overshoots h by at most one (rounding): h > MAX_WIDTH, refused before k^guess
        check_width(MAX_WIDTH + 1, "width")  # with the message height_for_horizon gives
    power = arity**guess
    while guess > 1 and upper * (power // arity - 1) >= need:
        guess, power = guess - 1, power // arity
    while upper * (power - 1) < need:
        guess, power = guess + 1, power * arity
    if guess > MAX_WIDTH:
        check_width(MAX_WIDTH + 1, "width")
    return guess, power


#: Digit positions are read in chunks of the most digits whose values number at most this many (per-arity
#: tables of that size, built once); an arity above it reads one digit at a time with closed forms.
CHUNK_VALUES = 1024


@functools.lru_cache(maxsize=128)
def _chunk_width(arity: int) -> int:
    """The most base-k digits whose values number at most :data:`CHUNK_VALUES` (0 above that arity)."""
    width = 0
    while arity ** (width + 1) <= CHUNK_VALUES:
        width += 1
    return width


@functools.lru_cache(maxsize=128)
def _chunk_tables(arity: int, width: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per chunk value v (``width`` base-k digits v_0.., least significant first): U[v] and V[v] with

    U[v] = k·(Σ_i k^i P(v_i) + Σ_i (v mod k^i)|v_i − c|) − F Σ_i (v mod k^(i+1)),  V[v] = k Σ_i |v_i − c| − F·width,

    P(d) = Σ_{e<d} |e − c| and F = P(k), so that a chunk at weight W above the lower part B adds W·U[v] + B·V[v] to
    k·G (see :func:`_shifted_mass_times_arity`).
    """
    center = (arity - 1) // 2
    prefix = [0]
    for digit in range(arity):
        prefix.append(prefix[-1] + abs(digit - center))
    full = prefix[arity]
    upper_table, lower_table = [], []
    for value in range(arity**width):
        inner = lows = distances = 0
        rest, weight = value, 1
        for _ in range(width):
            rest, digit = divmod(rest, arity)
            inner += weight * prefix[digit] + (value % weight) * abs(digit - center)
            distances += abs(digit - center)
            weight *= arity
            lows += value % weight
        upper_table.append(arity * inner - full * lows)
        lower_table.append(arity * distances - full * width)
    return tuple(upper_table), tuple(lower_table)


def _shifted_mass_times_arity(arity: int, count: int, height: int) -> int:
    """k·G(count − 1) − F·h·count, G as in :func:`_digit_mass` (h digit positions), F = Σ_{d<k} |d − c|.

    At level ℓ (weight w) with count = q·kw + a·w + b (0 <= a < k, 0 <= b < w) the level adds
    q w F + w P(a) + b |a − c|; q·k·w = count − (count mod kw), so Σ_ℓ q w F = F (h·count − Σ_ℓ (count mod kw))/k,
    and what remains is a sum over the digits of count: k·G − F·h·count = Σ_ℓ [k(w P(a) + b|a − c|) − F(b + a w)].
    Read in chunks of digits through :func:`_chunk_tables`.
    """
    width = _chunk_width(arity)
    total = 0
    lower = 0  # count mod (the weight reached)
    weight = 1
    number = count
    if width == 0:  # large arity: one digit at a time, P and |a − c| in closed form
        center = (arity - 1) // 2
        full = center * (center + 1) // 2 + (arity - 1 - center) * (arity - center) // 2
        for _ in range(height):
            number, digit = divmod(number, arity)
            mass = (digit * center - digit * (digit - 1) // 2 if digit <= center + 1
                    else center * (center + 1) // 2 + (digit - 1 - center) * (digit - center) // 2)
            total += weight * (arity * mass - full * digit) + lower * (arity * abs(digit - center) - full)
            lower += digit * weight
            weight *= arity
        return total
    chunks, last = divmod(height, width)
    upper_table, lower_table = _chunk_tables(arity, width)
    block = arity**width
    for _ in range(chunks):
        number, value = divmod(number, block)
        total += weight * upper_table[value] + lower * lower_table[value]
        lower += value * weight
        weight *= block
    if last:
        upper_table, lower_table = _chunk_tables(arity, last)
        value = number % arity**last
        total += weight * upper_table[value] + lower * lower_table[value]
    return total


def _total_digit_programme(arity: int, steps: int, height: int, power: int) -> int:
    """G(M + T) − G(M) with M = c(k^h − 1)/(k − 1), ``power`` = k^h: G(M + T) by its digits, G(M) in closed form.

    M + 1 has digits c + 1, c, .., c (no carry: c + 1 <= k − 1), so with R = (k^h − 1)/(k − 1) the lower parts
    are count mod k^ℓ = c(k^ℓ − 1)/(k − 1) + 1, every level above the first has |a − c| = 0, and
    G(M) = F (h c R − c (k R − h)/(k − 1))/k + P(c) R, where P(c) = P(c + 1) = c(c + 1)/2.
    """
    center = (arity - 1) // 2
    prefix_center = center * (center + 1) // 2
    full = prefix_center + (arity - 1 - center) * (arity - center) // 2
    repunit = (power - 1) // (arity - 1)
    count = center * repunit + steps + 1
    high = (full * height * count + _shifted_mass_times_arity(arity, count, height)) // arity
    cycles = (height * center * repunit - center * (arity * repunit - height) // (arity - 1)) // arity
    return high - (full * cycles + prefix_center * repunit)


def algorithm_2_mse_digit_programme(arity: int, horizon: int) -> Fraction:
    """ε² · MSE of Algorithm 2 over t = 1..``horizon`` by the digit programme (any T; 10^12 in microseconds).

    Args:
        arity: k, the tree's arity, an integer >= 2.
        horizon: T, an integer >= 1.
    """
    # plain ints in range pass without a call; anything else gets the checkers' one-line refusal
    k = arity if type(arity) is int and arity >= 2 else check_arity(arity)
    steps = horizon if type(horizon) is int and horizon >= 1 else check_positive_int(horizon, "horizon")
    height, power = _offset_height(k, steps)
    return Fraction(2 * height * height * _total_digit_programme(k, steps, height, power), steps)


# ----------------------------------------------------------------------------------- printed forms


def lemma_4_7_closed_form(arity: int, height: int) -> Fraction:
    """Lemma 4.7 as printed, times ε²: k (1 − 1/k²) h³ / (2 (1 − 1/k^h)), stated for T = (k^h − 1)/2.

    Args:
        arity: k, an odd integer >= 3.
        height: h, an integer in [1, 4096].
    """
    k = check_arity(arity, parity="odd", needed_by=LEMMA_4_7)
    h = check_width(height, "height")
    return Fraction(k) * (1 - Fraction(1, k * k)) * h**3 / (2 * (1 - Fraction(1, k**h)))


def lemma_4_7_horizon(arity: int, height: int) -> int:
    """The horizon T = (k^h − 1)/2 at which Lemma 4.7 is stated (odd arity).

    Args:
        arity: k, an odd integer >= 3.
        height: h, an integer in [1, 4096].
    """
    k = check_arity(arity, parity="odd", needed_by=LEMMA_4_7)
    h = check_width(height, "height")
    return int((k**h - 1) // 2)


def appendix_c_horizon(arity: int, height: int) -> int:
    """The horizon T = k(k^h − 1)/(2(k − 1)) of Claim 1 (even arity): the capacity of Definition C.1.

    Args:
        arity: k, an even integer >= 2.
        height: h, an integer in [1, 4096].
    """
    k = check_arity(arity, parity="even", needed_by="Appendix C")
    h = check_width(height, "height")
    return offset_capacity(k, h)


def appendix_c_recursion(arity: int, height: int) -> Fraction:
    """Proof C.2's recursion as printed: c_h = ((k + 2)/4 + k(h − 1)/4)(k/2) k^(h−1) + c_(h−1), c_0 = 0.

    c_h is meant to be the total number of noise values over all t in 1..k(k^h − 1)/(2(k − 1)).

    Args:
        arity: k, an even integer >= 2.
        height: h, an integer in [1, 4096].
    """
    k = check_arity(arity, parity="even", needed_by="Appendix C")
    h = check_width(height, "height")
    total = Fraction(0)
    for level in range(1, h + 1):
        total += (Fraction(k + 2, 4) + Fraction(k * (level - 1), 4)) * Fraction(k, 2) * k ** (level - 1)
    return total


def claim_1_leading_term(arity: int, height: int) -> Fraction:
    """Claim 1's main term, times ε²: k h³ / (2 (1 − 1/k^h)) (the claim adds o(h²)).

    Args:
        arity: k, an even integer >= 2.
        height: h, an integer in [1, 4096].
    """
    k = check_arity(arity, parity="even", needed_by="Appendix C")
    h = check_width(height, "height")
    return Fraction(k * h**3) / (2 * (1 - Fraction(1, k**h)))


# ------------------------------------------------------------------------------------------- Algorithm 1 MSE


def algorithm_1_total_vertex_count(arity: int, horizon: int) -> int:
    """Σ_{t=1}^{T} ‖digits(t)‖₁ by enumeration (T <= :data:`MAX_ENUMERATION_HORIZON`).

    Args:
        arity: k, an integer >= 2.
        horizon: T, an integer in [1, 2·10^6] (enumerated).
    """
    k = check_arity(arity)
    steps = check_positive_int(horizon, "horizon")
    if steps > MAX_ENUMERATION_HORIZON:
        raise ValueError(f"horizon must be <= {MAX_ENUMERATION_HORIZON} for enumeration, got {message_value(steps)}; use the DP")
    total = 0
    for time in range(1, steps + 1):
        number = time
        while number:
            number, digit = divmod(number, k)
            total += digit
    return total


def algorithm_1_total_vertex_count_digit_programme(arity: int, horizon: int) -> int:
    """Σ_{t=1}^{T} ‖digits(t)‖₁ by a digit programme over the digits of N = T + 1 (any T, O(log T) steps).

    Σ_{n<N} s(n): scanning N's digits a_i from the most significant, with σ the digit sum of the prefix, each
    d < a_i at a position with i positions below contributes k^i numbers with digit sum (σ + d)·k^i plus the
    i free low digits' total i·k^i·(k − 1)/2.

    Args:
        arity: k, an integer >= 2.
        horizon: T, an integer >= 1.
    """
    k = check_arity(arity)
    steps = check_positive_int(horizon, "horizon")
    bound = steps + 1
    high_first: list[int] = []
    while bound:
        bound, digit = divmod(bound, k)
        high_first.append(digit)
    high_first.reverse()
    total = 0
    prefix = 0
    length = len(high_first)
    for position, digit in enumerate(high_first):
        below = length - 1 - position
        block = k**below
        free = below * (k - 1) * block // 2
        total += digit * (prefix * block + free) + block * (digit * (digit - 1) // 2)
        prefix += digit
    return total


def algorithm_1_mse(arity: int, horizon: int) -> Fraction:
    """ε²·MSE of Algorithm 1 over t = 1..T by enumeration: (2h²/T) Σ_t ‖rep_k(t, h)‖₁, h = ⌈log_k(T + 1)⌉.

    Args:
        arity: k, an integer >= 2.
        horizon: T, an integer in [1, 2·10^6] (enumerated).
    """
    k = check_arity(arity)
    steps = check_positive_int(horizon, "horizon")
    height = height_for_horizon(k, steps, offset=False)
    return Fraction(2 * height**2 * algorithm_1_total_vertex_count(k, steps), steps)


def algorithm_1_mse_digit_programme(arity: int, horizon: int) -> Fraction:
    """ε²·MSE of Algorithm 1 over t = 1..T by the digit programme (any T; 10^12 is immediate).

    Args:
        arity: k, the tree's arity, an integer >= 2.
        horizon: T, an integer >= 1.
    """
    k = check_arity(arity)
    steps = check_positive_int(horizon, "horizon")
    height = height_for_horizon(k, steps, offset=False)
    return Fraction(2 * height**2 * algorithm_1_total_vertex_count_digit_programme(k, steps), steps)


def lemma_3_5_closed_form(arity: int, height: int) -> Fraction:
    """Lemma 3.5 as printed, times ε²: (k − 1) h³ / (1 − 1/k^h), stated for T = k^h − 1.

    Args:
        arity: k, an integer >= 2.
        height: h, an integer in [1, 4096].
    """
    k = check_arity(arity)
    h = check_width(height, "height")
    return Fraction((k - 1) * h**3) / (1 - Fraction(1, k**h))
