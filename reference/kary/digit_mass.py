"""The counting behind Algorithm 2's exact ε²·MSE digit programme (KARY Definitions 3.8 and C.1), fast.

With c = ⌊(k − 1)/2⌋, F = Σ_{d<k} |d − c|, P(a) = Σ_{d<a} |d − c| and M = c·R, R = (k^h − 1)/(k − 1) (the number
whose h digits all equal c), Σ_{t=1}^{T} ‖rep(t, h)‖₁ = G(M + T) − G(M) with
G(N) = Σ_{n=0}^{N} Σ_{ℓ=1}^{h} |d_ℓ(n) − c| (see :mod:`reference.kary.mse`). Write count = N + 1; at level ℓ
(weight w = k^(ℓ−1)) count = q·kw + a·w + b with 0 <= a < k, 0 <= b < w, and the level adds q w F + w P(a) + b|a − c|.
Since q·kw = count − (count mod kw),

    k·G(N) = F·h·count + Σ_ℓ [k (w P(a_ℓ) + b_ℓ |a_ℓ − c|) − F (b_ℓ + a_ℓ w)],

a sum over count's digits alone: no division per level. The digits are read several at a time (a chunk of
``width`` digits, value v, at weight W above the lower part B adds W·U[v] + B·V[v], two per-arity tables), so
T = 10^12 at arity 3 takes 4 chunk steps instead of 26 digit steps. G(M) is closed: M + 1 has digits
c + 1, c, .., c (c + 1 <= k − 1, no carry), every level above the first has |a − c| = 0 and lower part
c(k^ℓ − 1)/(k − 1) + 1 below level ℓ + 1, so G(M) = F (h c R − c(kR − h)/(k − 1))/k + P(c)·R with P(c) = c(c + 1)/2.

Everything per arity (capacities for the height, powers, the chunk tables) is built once and cached.
"""

from __future__ import annotations

import bisect
import functools
import math
from typing import NamedTuple

from reference.core.validate import check_positive_int
from reference.kary.digits import MAX_WIDTH, check_arity, check_width

#: A chunk holds the most digits whose values number at most this many (two tables of that length per arity);
#: an arity above it reads one digit at a time with P and |a − c| in closed form.
CHUNK_VALUES = 8192

#: Horizons up to this find their height in a cached table of capacities; larger ones by a logarithm guess.
HEIGHT_TABLE_HORIZON = 2**128


def _tables(arity: int, width: int) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """(U, V) for chunks of 0..``width`` digits: for v with digits v_0.. (least significant first)

    U[v] = k (Σ_i k^i P(v_i) + Σ_i (v mod k^i)|v_i − c|) − F Σ_i (v mod k^(i+1)),   V[v] = k Σ_i |v_i − c| − F·size.

    Built a digit at a time: v = d·k^(size−1) + v' adds k (k^(size−1) P(d) + v'|d − c|) − F v to U and
    k|d − c| − F to V.
    """
    center = (arity - 1) // 2
    prefix = [0]
    for digit in range(arity):
        prefix.append(prefix[-1] + abs(digit - center))
    distance = [abs(digit - center) for digit in range(arity)]
    full = prefix[arity]
    tables: list[tuple[tuple[int, ...], tuple[int, ...]]] = [((0,), (0,))]
    base = 1
    for _ in range(width):
        lower_upper, lower_lower = tables[-1]
        upper_table = tuple(
            lower_upper[rest] + arity * (base * prefix[digit] + rest * distance[digit]) - full * (digit * base + rest)
            for digit in range(arity)
            for rest in range(base)
        )
        lower_table = tuple(
            lower_lower[rest] + arity * distance[digit] - full for digit in range(arity) for rest in range(base)
        )
        tables.append((upper_table, lower_table))
        base *= arity
    return tuple(tables)


class _Plan(NamedTuple):
    """What :func:`total_noise_count` needs per arity, built once."""

    capacities: tuple[int, ...]  # ⌈(k−1)/2⌉·(k^h − 1)/(k − 1) for h = 1.. until it reaches HEIGHT_TABLE_HORIZON
    shifts: tuple[int, ...]  # M = c·R at each of those heights
    shift_masses: tuple[int, ...]  # k·G(M) − F·h·(M + 1) at each of those heights (:func:`_shift_mass`)
    full: int  # F = Σ_{d<k} |d − c|
    width: int  # digits per chunk (0: one digit at a time, no tables)
    block: int  # k^width
    tables: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]  # (U, V) for chunks of 0..width digits
    blocks: tuple[int, ...]  # k^size for size = 0..width


def _shift_mass(arity: int, height: int, repunit: int) -> int:
    """k·G(M) − F·h·M − F·h for M = c·R, R = ``repunit`` = (k^h − 1)/(k − 1) (module docstring's closed form).

    Subtracting F·h·(M + 1) lets the caller add F·h·T only: k·G(M + T) starts at F·h·(M + T + 1).
    """
    center = (arity - 1) // 2
    prefix_center = center * (center + 1) // 2
    full = prefix_center + (arity - 1 - center) * (arity - center) // 2
    cycles = (height * center * repunit - center * (arity * repunit - height) // (arity - 1)) // arity
    return arity * (full * cycles + prefix_center * repunit) - full * height * (center * repunit + 1)


@functools.lru_cache(maxsize=32)
def _plan(arity: int) -> _Plan:
    """The cached per-arity plan (:class:`_Plan`)."""
    upper = arity - 1 - (arity - 1) // 2
    capacities: list[int] = []
    shifts: list[int] = []
    masses: list[int] = []
    power = arity
    while not capacities or capacities[-1] < HEIGHT_TABLE_HORIZON:
        repunit = (power - 1) // (arity - 1)
        capacities.append(upper * repunit)
        shifts.append((arity - 1) // 2 * repunit)
        masses.append(_shift_mass(arity, len(capacities), repunit))
        power *= arity
    width = 0
    while arity ** (width + 1) <= CHUNK_VALUES:
        width += 1
    tables = _tables(arity, width) if width else ()
    center = (arity - 1) // 2
    full = center * (center + 1) // 2 + (arity - 1 - center) * (arity - center) // 2
    return _Plan(tuple(capacities), tuple(shifts), tuple(masses), full, width, arity**width, tables,
                 tuple(arity**size for size in range(width + 1)))


def offset_height(arity: int, horizon: int) -> tuple[int, int]:
    """(h, k^h): the least h with ⌈(k−1)/2⌉·(k^h − 1)/(k − 1) >= T, as ``height_for_horizon(k, T, offset=True)``.

    A float logarithm only guesses h past the table; exact integer comparisons settle it.

    Args:
        arity: k, an integer >= 2.
        horizon: T, an integer >= 1.
    """
    # plain ints in range pass without a call; anything else gets the checkers' one-line refusal
    arity = arity if type(arity) is int and arity >= 2 else check_arity(arity)
    steps = horizon if type(horizon) is int and horizon >= 1 else check_positive_int(horizon, "horizon")
    capacities = _plan(arity).capacities
    if steps <= capacities[-1]:
        index = bisect.bisect_left(capacities, steps)
        return index + 1, arity ** (index + 1)
    upper = arity - 1 - (arity - 1) // 2
    need = steps * (arity - 1)  # upper·(k^h − 1)/(k − 1) >= T  ⟺  upper·(k^h − 1) >= need: k − 1 divides k^h − 1
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


def total_noise_count(arity: int, horizon: int) -> tuple[int, int]:
    """(h, Σ_{t=1}^{T} ‖rep(t, h)‖₁) for Algorithm 2 at arity k and horizon T (module docstring).

    Args:
        arity: k, an integer >= 2.
        horizon: T, an integer >= 1.
    """
    # plain ints in range pass without a call; anything else gets the checkers' one-line refusal
    arity = arity if type(arity) is int and arity >= 2 else check_arity(arity)
    steps = horizon if type(horizon) is int and horizon >= 1 else check_positive_int(horizon, "horizon")
    capacities, shifts, shift_masses, full, width, block, tables, blocks = _plan(arity)  # one unpacking: hot path
    if steps <= capacities[-1]:
        index = bisect.bisect_left(capacities, steps)
        height, shift, shift_mass = index + 1, shifts[index], shift_masses[index]
    else:
        height, power = offset_height(arity, steps)
        repunit = (power - 1) // (arity - 1)
        shift, shift_mass = (arity - 1) // 2 * repunit, _shift_mass(arity, height, repunit)
    # k·G(M + T) − k·G(M), with k·G(M + T) = F·h·(M + T + 1) + the sum over the digits of M + T + 1
    total = full * height * steps - shift_mass
    lower, weight, number = 0, 1, shift + steps + 1
    if width:
        upper_table, lower_table = tables[width]
        chunks, last = divmod(height, width)
        for _ in range(chunks):
            number, value = divmod(number, block)
            total += weight * upper_table[value] + lower * lower_table[value]
            lower += value * weight
            weight *= block
        if last:
            upper_table, lower_table = tables[last]
            value = number % blocks[last]
            total += weight * upper_table[value] + lower * lower_table[value]
    else:  # large arity: one digit at a time, P(a) and |a − c| in closed form
        center = (arity - 1) // 2
        prefix_center = center * (center + 1) // 2
        for _ in range(height):
            number, digit = divmod(number, arity)
            mass = (digit * center - digit * (digit - 1) // 2 if digit <= center + 1
                    else prefix_center + (digit - 1 - center) * (digit - center) // 2)
            total += weight * (arity * mass - full * digit) + lower * (arity * abs(digit - center) - full)
            lower += digit * weight
            weight *= arity
    return height, total // arity
