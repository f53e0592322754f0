"""The tree structure of the KARY paper's mechanisms, exactly: vertices, R, L, sensitivities, covariance, MSE.

KARY paper (Andersson, Pagh, Steiner, Torkamani, "Count on Your Elders"), §3.1–§4.3 and Appendix B. The
paper's ``k`` is ``arity``, ``h`` is ``height``, ``T`` is ``horizon``; times are 1-based as in the paper.

Vertices (Definition 3.1). A vertex of the k-ary tree T_{k,h} is a pair ``(level, index)`` with
1 <= level <= h + 1 and 0 <= index < k^(h − level + 1); it is the interval of leaves
[1 + index·k^(level−1), (index + 1)·k^(level−1)]. Level 1 holds the leaves, level h + 1 the root.

* Algorithm 1 (:func:`algorithm_1_vertices`): for output t it walks the standard digits of t from the most
  significant one and, for each level ℓ, adds t_ℓ vertices [p + 1, p + k^(ℓ−1)], p ← p + k^(ℓ−1).
* Algorithm 3 (:func:`algorithm_3_signed_vertices`): the same walk over the offset digits (Definition 3.8;
  Definition C.1 for even arity, Appendix C). A positive digit adds [p + 1, p + k^(ℓ−1)] and sets
  p ← p + k^(ℓ−1); a negative digit subtracts [p − k^(ℓ−1) + 1, p] and sets p ← p − k^(ℓ−1). (The printed
  line 15 reads [p − k^(ℓ−1) − 1, p], an interval of k^(ℓ−1) + 2 leaves that is no vertex: a
  typo, refuted in the registry's entry for Algorithm 3.) Each vertex is identified by the p after its update (Proof 4.4): :func:`vertex_of_noise_index`
  maps an index p of Algorithm 2 to its signed vertex, and the sequences are cross-checked against
  :func:`reference.kary.digits.algorithm_2_noise_indices`.

Matrices. For a horizon T (default: the largest one the height holds, k^h − 1 without subtraction and
:func:`~reference.kary.digits.offset_capacity` with it) the *used* vertices are those some output
t <= T uses, sorted by (level, index). R (:func:`strategy_matrix`) has one 0/1 row per used vertex over the
T inputs; L (:func:`reconstruction_matrix`) has one row per output with the vertex signs (+1 / −1 / 0), and
L·R = A, the T×T lower-triangular all-ones matrix (:func:`check_factorization`). The sensitivities
(:func:`sensitivities`) are read off R's columns: ℓ1 = max column sum, ℓ2² = max column sum of squares
(entries are 0/1, so both are the largest number of used vertices containing one input). At the capacity
exactly T vertices are used (each is named by the p after its update, a bijection with [1, T]), so L and R
are square T×T, both invertible since A is.

Noise. With i.i.d. noise of variance v = 2b² (Laplace(b)) on every vertex, the outputs' noise has covariance
v·L·Lᵀ (:func:`output_covariance`) and output t has variance v·‖rep(t, h)‖₁ (:func:`per_step_variances`).
Algorithm 2's unsigned noise z_p has the same covariance because a vertex always enters with the same sign
(Proof 4.4); :func:`check_algorithm_2_covariance` checks this exactly.

MSE and live noise. Algorithm 1's exact MSE is :mod:`reference.kary.mse`'s (beside Algorithm 2's); the noise
values alive at once in Algorithm 2, :func:`reference.kary.noise_indices.live_noise_count`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from reference.core.exact_text import message_value
from reference.core.linalg import Matrix
from reference.core.validate import RationalLike, check_positive_int, positive_fraction
from reference.kary.digits import (
    algorithm_2_noise_indices,
    check_arity,
    check_width,
    digits,
    offset_capacity,
    representation,
)

#: A vertex of T_{k,h}: (level, index), the interval [1 + index·k^(level−1), (index + 1)·k^(level−1)].
Vertex = tuple[int, int]
#: A signed vertex used by Algorithm 3: (sign, level, index) with sign +1 (added) or −1 (subtracted).
SignedVertex = tuple[int, int, int]

#: Largest horizon the matrix functions accept (R, L and the covariance are dense T-row matrices).
# The dense exact products (L·R, L·Lᵀ) are T × rows × T in Python Fractions: about 3.4 s at T = 400 and some
# 20 s near T = 1,000 on two cores (check_factorization at T = 1,562 ran past 20 s), so the limit is 600.
MAX_MATRIX_HORIZON = 600
#: Largest height for the dense exact matrices (2**64 - 1 already exceeds any horizon they accept).
MAX_MATRIX_HEIGHT = 64


# ------------------------------------------------------------------------------------------- validation


def _check_bool(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be a bool, got {value!r}")
    return value


def capacity(arity: int, height: int, *, subtraction: bool) -> int:
    """The largest horizon a tree of ``height`` serves: k^h − 1 (Algorithm 1) or the offset capacity (2/3).

    With subtraction: (k^h − 1)/2 for odd arity (Definition 3.8), k(k^h − 1)/(2(k − 1)) for even (C.1).

    Args:
        arity: k, an integer >= 2.
        height: h, an integer in [1, 4096].
        subtraction: ``True`` for Algorithm 3's tree with subtraction (offset digits), ``False`` for Algorithm 1's
            (standard digits).
    """
    k = check_arity(arity)
    h = check_width(height, "height")
    if _check_bool(subtraction, "subtraction"):
        return offset_capacity(k, h)
    return int(k**h - 1)


def _check_time(time: object, arity: int, height: int, *, subtraction: bool, name: str = "time") -> int:
    t = check_positive_int(time, name)
    top = capacity(arity, height, subtraction=subtraction)
    if t > top:
        raise ValueError(f"{name} must be in [1, {top}] for arity {arity}, height {height}, got {message_value(t)}")
    return t


def _check_horizon(horizon: object, arity: int, height: int, *, subtraction: bool) -> int:
    top = capacity(arity, height, subtraction=subtraction)
    steps = top if horizon is None else check_positive_int(horizon, "horizon")
    if steps > top:
        raise ValueError(f"horizon must be at most {top} for arity {arity} and height {height}, got {message_value(steps)}")
    if steps > MAX_MATRIX_HORIZON:
        raise ValueError(f"horizon must be at most {MAX_MATRIX_HORIZON} for dense exact matrices, got {message_value(steps)}")
    # every level costs a walk with arity**level powers per output: a horizon of at most 3,000 needs at most 12
    # levels at any arity >= 2, so a taller tree only adds empty levels (at arity 10**30 and height 1,000 it ran
    # for minutes)
    if height > MAX_MATRIX_HEIGHT:
        raise ValueError(f"height must be at most {MAX_MATRIX_HEIGHT} for dense exact matrices, got {message_value(height)}")
    return steps


# ------------------------------------------------------------------------------------------- vertices


def vertex_interval(vertex: Vertex, arity: int) -> tuple[int, int]:
    """The leaves [first, last] (1-based, inclusive) a vertex ``(level, index)`` covers (Definition 3.1).

    Args:
        vertex: ``(level, index)``, level >= 1 and index >= 0.
        arity: k, an integer >= 2.
    """
    k = check_arity(arity)
    level, index = vertex
    check_positive_int(level, "level")
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        raise ValueError(f"index must be a non-negative integer, got {index!r}")
    width = k ** (level - 1)
    return (1 + index * width, (index + 1) * width)


#: Most vertices one output may list: the count is the sum of the digits' magnitudes, known before the walk
#: (a huge arity makes single digits astronomically large). Measured: 600,000 vertices take `kary vertices`
#: 8.2 s of CPU and 112 MB of JSON, so a million ran past 20 s on a loaded machine; 200,000 take about 3 s.
MAX_LISTED_VERTICES = 200_000


def listed_vertex_count(rep: Sequence[int]) -> int:
    """The number of vertices a walk over the digits ``rep`` lists: one per unit of each digit's magnitude
    (Algorithm 1 adds ``t_ℓ`` vertices at level ℓ; Algorithm 3 adds or subtracts ``|t_ℓ|``).

    Args:
        rep: the digits of a time (standard or offset), a sequence of integers.
    """
    return sum(abs(digit) for digit in rep)


def _check_vertex_count(rep: Sequence[int], time: int) -> None:
    count = listed_vertex_count(rep)
    if count > MAX_LISTED_VERTICES:
        shown = str(count) if count < 10**12 else f"about 10**{len(str(count)) - 1}"
        raise ValueError(
            f"time {time if time < 10**30 else 'of ' + str(len(str(time))) + ' digits'} uses {shown} vertices at "
            f"this arity, more than the {MAX_LISTED_VERTICES} one output may list: use a smaller time or arity"
        )


def algorithm_1_vertices(time: int, arity: int, height: int) -> tuple[Vertex, ...]:
    """The vertices whose noisy counts Algorithm 1 adds for output ``time`` (1 <= time <= k^h − 1), in order.

    Lines 7–14: t ← rep_k(t, h) (standard digits); p ← 0; for ℓ = h..1, t_ℓ times: add Σ̂([p + 1, p + k^(ℓ−1)])
    — the vertex (ℓ, p / k^(ℓ−1)) — and p ← p + k^(ℓ−1).

    Args:
        time: t, an integer in [1, k^h − 1].
        arity: k, an integer >= 2.
        height: h, an integer in [1, 4096].
    """
    k = check_arity(arity)
    h = check_width(height, "height")
    t = _check_time(time, k, h, subtraction=False)
    rep = digits(t, k, h)
    _check_vertex_count(rep, t)
    vertices: list[Vertex] = []
    position = 0
    for level in range(h, 0, -1):
        width = k ** (level - 1)
        for _ in range(rep[level - 1]):
            vertices.append((level, position // width))
            position += width
    if position != t:  # the digits sum to t: an invariant
        raise ArithmeticError("Algorithm 1's walk did not end at t")
    return tuple(vertices)


def algorithm_3_signed_vertices(time: int, arity: int, height: int) -> tuple[SignedVertex, ...]:
    """The signed vertices Algorithm 3 combines for output ``time``, in order: (sign, level, index).

    Offset digits (Definition 3.8, or C.1 for even arity); for ℓ = h..1, |t_ℓ| times: a positive digit adds
    [p + 1, p + k^(ℓ−1)] = vertex (ℓ, p / k^(ℓ−1)) and p ← p + k^(ℓ−1); a negative digit subtracts
    [p − k^(ℓ−1) + 1, p] = vertex (ℓ, p / k^(ℓ−1) − 1) and p ← p − k^(ℓ−1) (the corrected line 15).
    ``time`` must lie in [1, offset_capacity(arity, height)].

    Args:
        time: t, an integer in [1, offset_capacity(arity, height)].
        arity: k, an integer >= 2.
        height: h, an integer in [1, 4096].
    """
    k = check_arity(arity)
    h = check_width(height, "height")
    t = _check_time(time, k, h, subtraction=True)
    rep = representation(t, k, h)
    _check_vertex_count(rep, t)
    signed: list[SignedVertex] = []
    position = 0
    for level in range(h, 0, -1):
        width = k ** (level - 1)
        digit = rep[level - 1]
        for _ in range(abs(digit)):
            if digit > 0:
                signed.append((1, level, position // width))
                position += width
            else:
                signed.append((-1, level, position // width - 1))
                position -= width
    if position != t:
        raise ArithmeticError("Algorithm 3's walk did not end at t")
    return tuple(signed)


def vertex_of_noise_index(index: int, arity: int, height: int) -> SignedVertex:
    """The signed vertex of Algorithm 3 that Algorithm 2's noise index p stands for (Proof 4.4).

    Let ℓ be the lowest level with a non-zero offset digit of p and w = k^(ℓ−1). If that digit is positive,
    p is the right end of an added vertex: (+1, ℓ, p/w − 1); if negative, p is one less than the left end of a
    subtracted vertex: (−1, ℓ, p/w). ``index`` must lie in [1, offset_capacity(arity, height)].

    Args:
        index: Algorithm 2's noise index p, an integer in [1, offset_capacity(arity, height)].
        arity: k, an integer >= 2.
        height: h, an integer in [1, 4096].
    """
    k = check_arity(arity)
    h = check_width(height, "height")
    p = _check_time(index, k, h, subtraction=True, name="index")
    rep = representation(p, k, h)
    level = next(position for position, digit in enumerate(rep, 1) if digit != 0)
    width = k ** (level - 1)
    if rep[level - 1] > 0:
        return (1, level, p // width - 1)
    return (-1, level, p // width)


# ------------------------------------------------------------------------------------------- matrices


def _signed_rows(arity: int, height: int, steps: int, subtraction: bool) -> list[tuple[SignedVertex, ...]]:
    if subtraction:
        return [algorithm_3_signed_vertices(t, arity, height) for t in range(1, steps + 1)]
    return [
        tuple((1, level, index) for level, index in algorithm_1_vertices(t, arity, height)) for t in range(1, steps + 1)
    ]


def used_vertices(arity: int, height: int, *, subtraction: bool, horizon: int | None = None) -> tuple[Vertex, ...]:
    """The vertices some output t in 1..T uses (Algorithm 1, or Algorithm 3 with ``subtraction``), sorted.

    ``horizon`` defaults to :func:`capacity`; at most :data:`MAX_MATRIX_HORIZON`.

    Args:
        arity: k, an integer >= 2.
        height: h, an integer in [1, 64] (dense exact matrices).
        subtraction: ``True`` for Algorithm 3's tree with subtraction (offset digits), ``False`` for Algorithm 1's
            (standard digits).
        horizon: T, an integer in [1, 600] within the tree's capacity, or ``None`` for the capacity.
    """
    k = check_arity(arity)
    h = check_width(height, "height")
    sub = _check_bool(subtraction, "subtraction")
    steps = _check_horizon(horizon, k, h, subtraction=sub)
    return tuple(sorted({(level, index) for row in _signed_rows(k, h, steps, sub) for _, level, index in row}))


def strategy_matrix(
    arity: int, height: int, *, subtraction: bool = False, horizon: int | None = None
) -> list[list[int]]:
    """R: one 0/1 row per used vertex (order of :func:`used_vertices`) over the T inputs.

    R[v][i − 1] = 1 iff input i lies in vertex v's interval. Below the capacity Algorithm 3 may use a vertex
    that reaches past T (t = 5, k = 3, h = 3 subtracts [6, 6] and [7, 9]): those leaves are padding, always
    zero, so they are dropped from R and L·R = A still holds. At the capacity no used vertex ends after the
    capacity (Proposition 4.1). Use :func:`padded_width` for the number of leaves the used vertices reach.

    Args:
        arity: k, an integer >= 2.
        height: h, an integer in [1, 64] (dense exact matrices).
        subtraction: ``True`` for Algorithm 3's tree with subtraction (offset digits), ``False`` for Algorithm 1's
            (standard digits) (default ``False``).
        horizon: T, an integer in [1, 600] within the tree's capacity, or ``None`` for the capacity.
    """
    k = check_arity(arity)
    h = check_width(height, "height")
    sub = _check_bool(subtraction, "subtraction")
    steps = _check_horizon(horizon, k, h, subtraction=sub)
    rows = []
    for vertex in used_vertices(k, h, subtraction=sub, horizon=steps):
        first, last = vertex_interval(vertex, k)
        rows.append([1 if first <= i <= last else 0 for i in range(1, steps + 1)])
    return rows


def padded_width(arity: int, height: int, *, subtraction: bool, horizon: int | None = None) -> int:
    """The last leaf any used vertex covers: the input length Algorithm 3 (or 1) needs, padding included.

    Args:
        arity: k, an integer >= 2.
        height: h, an integer in [1, 64] (dense exact matrices).
        subtraction: ``True`` for Algorithm 3's tree with subtraction (offset digits), ``False`` for Algorithm 1's
            (standard digits).
        horizon: T, an integer in [1, 600] within the tree's capacity, or ``None`` for the capacity.
    """
    k = check_arity(arity)
    h = check_width(height, "height")
    sub = _check_bool(subtraction, "subtraction")
    steps = _check_horizon(horizon, k, h, subtraction=sub)
    return max(vertex_interval(vertex, k)[1] for vertex in used_vertices(k, h, subtraction=sub, horizon=steps))


def reconstruction_matrix(
    arity: int, height: int, *, subtraction: bool, horizon: int | None = None
) -> list[list[int]]:
    """L: one row per output t = 1..T, columns the used vertices; entry +1 (added), −1 (subtracted) or 0.

    Args:
        arity: k, an integer >= 2.
        height: h, an integer in [1, 64] (dense exact matrices).
        subtraction: ``True`` for Algorithm 3's tree with subtraction (offset digits), ``False`` for Algorithm 1's
            (standard digits).
        horizon: T, an integer in [1, 600] within the tree's capacity, or ``None`` for the capacity.
    """
    k = check_arity(arity)
    h = check_width(height, "height")
    sub = _check_bool(subtraction, "subtraction")
    steps = _check_horizon(horizon, k, h, subtraction=sub)
    columns = {vertex: column for column, vertex in enumerate(used_vertices(k, h, subtraction=sub, horizon=steps))}
    matrix = []
    for row in _signed_rows(k, h, steps, sub):
        line = [0] * len(columns)
        for sign, level, index in row:
            if line[columns[(level, index)]] != 0:
                raise ArithmeticError(f"vertex {(level, index)} used twice by one output")
            line[columns[(level, index)]] = sign
        matrix.append(line)
    return matrix


def _int_matmul(left: list[list[int]], right: list[list[int]]) -> list[list[int]]:
    columns = list(zip(*right)) if right else []
    return [[sum(a * b for a, b in zip(row, column)) for column in columns] for row in left]


def check_factorization(arity: int, height: int, *, subtraction: bool, horizon: int | None = None) -> bool:
    """Whether L·R equals A (the T×T lower-triangular all-ones matrix) exactly, integer arithmetic.

    Args:
        arity: k, the tree's arity, an integer >= 2.
        height: h, an integer in [1, 64].
        subtraction: ``True`` for Algorithm 2's tree with subtraction, ``False`` for Algorithm 1's.
        horizon: T, an integer in [1, 600] within the tree's capacity, or ``None`` for the capacity.
    """
    k = check_arity(arity)
    h = check_width(height, "height")
    sub = _check_bool(subtraction, "subtraction")
    steps = _check_horizon(horizon, k, h, subtraction=sub)
    product = _int_matmul(
        reconstruction_matrix(k, h, subtraction=sub, horizon=steps),
        strategy_matrix(k, h, subtraction=sub, horizon=steps),
    )
    return product == [[1 if j <= i else 0 for j in range(steps)] for i in range(steps)]


@dataclass(frozen=True)
class Sensitivities:
    """ℓ1 and ℓ2 sensitivity of R (one input flipped changes every used vertex containing it by one)."""

    l1: int
    l2_squared: int  # ℓ2 sensitivity = sqrt(l2_squared); exact as a square
    column_counts: tuple[int, ...]  # for each input i, how many used vertices contain it
    levels_used: tuple[int, ...]  # the levels that hold at least one used vertex

    @property
    def l2(self) -> float:
        """ℓ2 sensitivity as a float (display only; the exact value is sqrt(l2_squared))."""
        return math.sqrt(self.l2_squared)


def sensitivities(arity: int, height: int, *, subtraction: bool, horizon: int | None = None) -> Sensitivities:
    """The ℓ1 and ℓ2 sensitivity of R, computed from its columns (not assumed equal to the height).

    Verified equal to h (the paper's Δ1) for every small tree and horizon; the argument: an input lies in at
    most one vertex per level 1..h + 1 and the root is never used, so ℓ1 <= h; input 1 lies in (ℓ, 0) for
    every ℓ, and (ℓ, 0) is used by t = k^(ℓ−1) <= T (ℓ < h) and, for ℓ = h, by t = T, whose leading digit is
    positive because h is minimal. Not every vertex is used (k = 3, h = 2 with subtraction never uses leaf 2).

    Args:
        arity: k, the tree's arity, an integer >= 2.
        height: h, an integer in [1, 64].
        subtraction: ``True`` for Algorithm 2's tree with subtraction, ``False`` for Algorithm 1's.
        horizon: T, an integer in [1, 600] within the tree's capacity, or ``None`` for the capacity.
    """
    k = check_arity(arity)
    h = check_width(height, "height")
    sub = _check_bool(subtraction, "subtraction")
    steps = _check_horizon(horizon, k, h, subtraction=sub)
    matrix = strategy_matrix(k, h, subtraction=sub, horizon=steps)
    counts = tuple(sum(abs(row[i]) for row in matrix) for i in range(steps))
    squares = tuple(sum(row[i] * row[i] for row in matrix) for i in range(steps))
    levels = tuple(sorted({level for level, _ in used_vertices(k, h, subtraction=sub, horizon=steps)}))
    return Sensitivities(l1=max(counts), l2_squared=max(squares), column_counts=counts, levels_used=levels)


def output_covariance(
    arity: int, height: int, scale: RationalLike, *, subtraction: bool, horizon: int | None = None
) -> Matrix:
    """2b²·L·Lᵀ: the exact covariance of the outputs' noise with i.i.d. Laplace(``scale``) vertex noise.

    Args:
        arity: k, an integer >= 2.
        height: h, an integer in [1, 64] (dense exact matrices).
        scale: the Laplace scale b > 0 of every vertex, exact (int, Fraction or str such as ``"1/3"``; not float).
        subtraction: ``True`` for Algorithm 3's tree with subtraction (offset digits), ``False`` for Algorithm 1's
            (standard digits).
        horizon: T, an integer in [1, 600] within the tree's capacity, or ``None`` for the capacity.
    """
    k = check_arity(arity)
    h = check_width(height, "height")
    b = positive_fraction(scale, "scale")
    sub = _check_bool(subtraction, "subtraction")
    steps = _check_horizon(horizon, k, h, subtraction=sub)
    left = reconstruction_matrix(k, h, subtraction=sub, horizon=steps)
    gram = _int_matmul(left, [list(column) for column in zip(*left)])
    variance = 2 * b * b
    return tuple(tuple(variance * entry for entry in row) for row in gram)


def check_algorithm_2_covariance(arity: int, height: int, *, horizon: int | None = None) -> bool:
    """Whether L·Lᵀ (Algorithm 3, signed) equals the count of shared noise indices of Algorithm 2 (unsigned).

    Args:
        arity: k, an integer >= 2.
        height: h, an integer in [1, 64] (dense exact matrices).
        horizon: T, an integer in [1, 600] within the tree's capacity, or ``None`` for the capacity.
    """
    k = check_arity(arity)
    h = check_width(height, "height")
    steps = _check_horizon(horizon, k, h, subtraction=True)
    left = reconstruction_matrix(k, h, subtraction=True, horizon=steps)
    gram = _int_matmul(left, [list(column) for column in zip(*left)])
    noise = [set(algorithm_2_noise_indices(t, k, h)) for t in range(1, steps + 1)]
    return all(gram[i][j] == len(noise[i] & noise[j]) for i in range(steps) for j in range(steps))


# ------------------------------------------------------------------------------------------- variances


def _digit_l1(time: int, arity: int, height: int, subtraction: bool) -> int:
    rep = representation(time, arity, height) if subtraction else digits(time, arity, height)
    return sum(abs(digit) for digit in rep)


def per_step_variances(
    arity: int, height: int, scale: RationalLike, *, subtraction: bool, horizon: int | None = None
) -> tuple[Fraction, ...]:
    """Var of output t = 1..T: 2b²·‖rep(t, h)‖₁ (standard digits, or offset digits with ``subtraction``).

    Args:
        arity: k, an integer >= 2.
        height: h, an integer in [1, 64] (dense exact matrices).
        scale: the Laplace scale b > 0 of every vertex, exact (int, Fraction or str such as ``"1/3"``; not float).
        subtraction: ``True`` for Algorithm 3's tree with subtraction (offset digits), ``False`` for Algorithm 1's
            (standard digits).
        horizon: T, an integer in [1, 600] within the tree's capacity, or ``None`` for the capacity.
    """
    k = check_arity(arity)
    h = check_width(height, "height")
    b = positive_fraction(scale, "scale")
    sub = _check_bool(subtraction, "subtraction")
    steps = _check_horizon(horizon, k, h, subtraction=sub)
    return tuple(2 * b * b * _digit_l1(t, k, h, sub) for t in range(1, steps + 1))


@dataclass(frozen=True)
class MaximumVariance:
    """The largest per-step variance and every time t at which it is attained."""

    value: Fraction
    times: tuple[int, ...]


def maximum_step_variance(
    arity: int, height: int, scale: RationalLike, *, subtraction: bool, horizon: int | None = None
) -> MaximumVariance:
    """The maximum of :func:`per_step_variances` and where it is attained (1-based times).

    Args:
        arity: k, an integer >= 2.
        height: h, an integer in [1, 64] (dense exact matrices).
        scale: the Laplace scale b > 0 of every vertex, exact (int, Fraction or str such as ``"1/3"``; not float).
        subtraction: ``True`` for Algorithm 3's tree with subtraction (offset digits), ``False`` for Algorithm 1's
            (standard digits).
        horizon: T, an integer in [1, 600] within the tree's capacity, or ``None`` for the capacity.
    """
    variances = per_step_variances(arity, height, scale, subtraction=subtraction, horizon=horizon)
    top = max(variances)
    return MaximumVariance(value=top, times=tuple(t for t, v in enumerate(variances, 1) if v == top))
