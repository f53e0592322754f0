"""Mills' ratio ``R(x) = Φ(-x)/φ(x)`` enclosed from cached Taylor models: a rigorous ball at about a third of the
cost of an Arb ``erfc`` at the precisions the σ calibration works at (64 and 128 bits).

Why it is rigorous. ``R(x) = ∫_0^∞ e^{-tx - t²/2} dt``, so its derivatives are ``R^(n)(x) = (-1)^n M_n(x)`` with
the moments ``M_n(x) = ∫_0^∞ t^n e^{-tx - t²/2} dt > 0``, each strictly decreasing in x (the integrand is).
Taylor's theorem with the Lagrange remainder, around a cell centre ``c`` and for ``|h| <= w``:

    R(c + h) = Σ_{n<N} a_n h^n + (-1)^N M_N(ξ)/N! h^N   for some ξ in [c - w, c + w],   a_n = (-1)^n M_n(c)/n!,

and ``0 < M_N(ξ) <= M_N(c - w)``. The coefficients follow from ``R' = xR - 1``: ``a_0 = R(c)`` (one Arb ``erfc``),
``a_1 = c a_0 - 1``, ``(n + 1) a_{n+1} = c a_n + a_{n-1}``, all balls, at a precision well above the tier's and
then rounded to it. The remainder's coefficient is bounded at the cell's left edge x = c - w by the smaller of
``M_N(0)/N!`` (for x >= 0, as M_N decreases) and ``x^-(N+1)`` (``M_N(x) <= ∫ t^N e^{-tx} dt = N!/x^(N+1)`` for
x > 0), and for the one cell reaching below 0 by ``|a_N|`` at x itself. A cell
stores the N coefficient balls and, last, the ball hull of 0 and that signed bound, which contains the
remainder's coefficient. Arb evaluates the polynomial on the ball ``h = x - c`` (after checking ``|h| <= w`` as a
ball comparison), and ball arithmetic contains the exact value for every point of every argument ball: the
result contains ``R(x)`` for every ``x`` in the input ball. The number of terms only decides how narrow the
ball is, never whether it contains ``R(x)``.

Why it is cheap. A cell is built at its fifth request (a one-off calibration builds none) and once (one or two
``erfc`` and some fifty ball operations, 12–22 µs at 64 bits, five to ten times one ``erfc``) and kept;
afterwards ``R(x)`` is one polynomial evaluation in C (9 to 26 terms of the tier's width). Cells are centred on
multiples of :data:`CELL_SPACING` on ``[0, CELL_LIMIT)``; anything else (a negative midpoint, far tails,
precisions above 128 bits, balls wider than a cell's reach) returns None and the caller takes Arb's ``erfc``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from flint import arb, arb_poly, ctx

#: Cell centres per unit (a power of two, so every centre is an exact dyadic number; an integer for the index
#: arithmetic).
_SPACING_INVERSE = 16
#: Distance between cell centres, 1/16.
CELL_SPACING = arb(1.0 / _SPACING_INVERSE)  # a power of two as a float: exact at any ctx.prec

#: Half-width of the interval a cell's remainder bound is valid on: wider than half the spacing, so a ball near
#: the midpoint between two centres still fits the nearer cell.
CELL_REACH = arb(0.046875)  # 3/64

#: Cells cover centres ``0, 1/16, ..., CELL_LIMIT - 1/16`` (the tails the calibration meets lie well inside).
CELL_LIMIT = 64

#: Working precisions served (bits); a cell of tier ``t`` leaves a remainder below 2**-(t + 4) relative.
TIERS = (64, 128)  # the lists _CELLS_64 and _CELLS_128 below

#: Most terms a cell keeps (the remainder target is reached well before at every centre).
MAX_TERMS = 60

_CELL_COUNT = CELL_LIMIT * _SPACING_INVERSE

#: The exact cell centres, and the cells of each tier built so far (the Taylor polynomial in h = x - centre).
_CENTRES = [arb(index / _SPACING_INVERSE) for index in range(_CELL_COUNT)]  # floats: exact
_CELLS_64: list[arb_poly | None] = [None] * _CELL_COUNT
_CELLS_128: list[arb_poly | None] = [None] * _CELL_COUNT
#: Requests of each cell not built yet: a cell is built at its fifth request (four unanswered ones before). A
#: build costs about what six to eight unanswered requests cost in ``erfc`` (12–22 µs against 2–4 µs, less the
#: ~1 µs a cell's evaluation takes). Building once the misses have cost a fixed share of a build (the ski-rental
#: rule) bounds the waste for any pattern of requests: with four misses (about half a build) never more than
#: about 2.5 times what the better of "never build" and "build at once" would have cost (the worst case: the
#: cell is never asked again after its build, 8 + 17 µs against 5 misses' 10 µs), while a repeated
#: grid has its cells from its fifth pass. A one-off comparison grid asks no cell more than three times and
#: builds none (at the third request it built 3 cells used once each, 1.3 µs per σ of wasted builds; at the
#: second, 16).
_REQUESTS_BEFORE_BUILD = 4
_REQUESTED_64, _REQUESTED_128 = bytearray(_CELL_COUNT), bytearray(_CELL_COUNT)


def mills_ratio_ball(value: arb, *, eager: bool = False) -> arb | None:
    """A ball containing ``R(x) = Φ(-x)/φ(x)`` for every x in the ball ``value``, at the current ``ctx.prec``,
    or None when no cell serves it (the caller then uses Arb's ``erfc``).

    A cell is built at its fifth request (the first four answer None), so a one-off calibration pays for no cell
    it would use a few times only: arguments that keep coming back (a sweep, a repeated grid) get one.

    Args:
        value: the argument x as an Arb ball (``flint.arb``), served when its midpoint lies in
            ``[0, CELL_LIMIT - 1/32)`` within one cell's reach and ``ctx.prec`` is at most the largest tier.
        eager: build a missing cell at the first request (default False).
    """
    precision = ctx.prec
    cells = _CELLS_64 if precision <= 64 else _CELLS_128 if precision <= 128 else None
    middle = float(value)  # the midpoint as a float: it only picks the cell (the reach check below is on the ball)
    if cells is None or not 0.0 <= middle < CELL_LIMIT:
        return None
    index = int(middle * _SPACING_INVERSE + 0.5)  # the nearest centre
    if index >= _CELL_COUNT:
        return None
    polynomial = cells[index]
    if polynomial is None and not eager:  # an unanswered request is counted before any ball arithmetic
        requested = _REQUESTED_64 if cells is _CELLS_64 else _REQUESTED_128
        if requested[index] < _REQUESTS_BEFORE_BUILD:
            requested[index] += 1
            return None
    offset = value - _CENTRES[index]  # a ball containing x - c for every x in value (the centre is exact)
    if not abs(offset) <= CELL_REACH:  # a wide or non-finite ball
        return None
    if polynomial is None:
        polynomial = cells[index] = _build_cell(64 if cells is _CELLS_64 else 128, index)
    return polynomial(offset)


def forget_cells() -> int:
    """Drop every built cell and every record of a request (cells are built again at their fifth request) and
    return how many cells there were: for measuring the cost of a cold start, and for tests that must not leave
    cells behind."""
    count = sum(cell is not None for cell in _CELLS_64) + sum(cell is not None for cell in _CELLS_128)
    _CELLS_64[:] = [None] * _CELL_COUNT
    _CELLS_128[:] = [None] * _CELL_COUNT
    _REQUESTED_64[:] = bytes(_CELL_COUNT)
    _REQUESTED_128[:] = bytes(_CELL_COUNT)
    return count


def _build_cell(tier: int, index: int) -> arb_poly:
    """The cell's Taylor polynomial (module docstring), built at ``tier + 48`` bits or more (the forward recurrence
    loses about log2(x²/n) bits at step n at large x) and rounded to ``tier`` bits."""
    saved = ctx.prec
    build = tier + 48  # enough at every centre below CELL_LIMIT (at most 40 bits are lost there)
    try:
        while True:
            ctx.prec = build
            coefficients, accurate = _coefficients(tier, _CENTRES[index])
            if accurate or build >= 8 * tier + 1024:
                break
            build *= 2
        ctx.prec = tier  # coefficients of one or two limbs: the evaluation is three times faster than at tier + 16
        polynomial = arb_poly([+coefficient for coefficient in coefficients])
    finally:
        ctx.prec = saved
    return polynomial


def _coefficients(tier: int, centre: arb) -> tuple[list[arb], bool]:
    """The Taylor coefficients ``a_n = (-1)^n M_n(c)/n!`` for n < N and, last, the remainder's ball ``[0, B_N]``
    (signed) with ``B_N >= M_N(c - w)/N!``; and whether the last term's radius times ``w^n`` is below
    ``R(c) 2**-(tier+8)`` (the recurrence cancels at large x: else the caller rebuilds at a higher precision).

    ``B_n`` is an upper bound of ``M_n(x)/n!`` at the cell's left edge x = c - w, where every M_n is largest over
    the cell: for x >= 0 the smaller of ``M_n(0)/n! = q_n`` (M_n decreases; ``q_0 = √(π/2)``, ``q_1 = 1``,
    ``q_{n+1} = q_{n-1}/(n+1)`` from the moment recurrence at 0) and ``x^-(n+1)`` (``M_n(x) <= ∫ t^n e^{-tx} dt =
    n!/x^(n+1)``, as e^{-t²/2} <= 1); for the one cell with x < 0, ``|a_n|`` at x itself. N is the first order with
    ``B_N w^N`` below ``R(c) 2**-(tier+4)``, found in floats: N only sets how narrow the ball is, and which of
    the valid bounds is used; the bound itself is computed as a ball."""
    edge = centre - CELL_REACH
    at_centre = _taylor(centre)
    first = next(at_centre)
    scale, reach = float(first.mid()), float(CELL_REACH.mid())
    edge_value = float(edge.mid())
    edge_terms = None if edge_value >= 0.0 else [abs(term) for term, _ in zip(_taylor(edge), range(MAX_TERMS))]
    aim = scale * 2.0 ** -(tier + 4)  # below the rounding of the coefficients to the tier
    order, use_zero, previous_q, q = MAX_TERMS - 1, False, _ROOT_HALF_PI_FLOAT, 1.0  # q_{n-1}, q_n at n = 1
    inverse_edge = 1.0 / edge_value if edge_value > 0.0 else math.inf
    closed, power = inverse_edge * inverse_edge, reach  # x^-(n+1), w^n at n = 1
    for candidate in range(2, MAX_TERMS):
        previous_q, q = q, previous_q / candidate  # q_candidate
        closed *= inverse_edge
        power *= reach
        if edge_terms is not None:
            bound = float(edge_terms[candidate].mid())
        else:
            use_zero = q < closed
            bound = q if use_zero else closed
        if bound * power < aim:
            order = candidate
            break
    coefficients = [first] + [term for term, _ in zip(at_centre, range(order - 1))]
    if edge_terms is not None:
        remainder = edge_terms[order]
    elif use_zero:
        remainder = _moment_at_zero(order)
    else:
        remainder = edge ** -(order + 1)
    # the remainder's coefficient (-1)^N M_N(ξ)/N! lies between 0 and (-1)^N B_N
    coefficients.append(_ZERO.union(-remainder if order % 2 else remainder))
    # the recurrence's cancellation widens the later terms most: the last one is checked against R(c) 2**-(tier+8)
    accurate = float(coefficients[-2].rad()) * reach ** (order - 1) <= scale * 2.0 ** -(tier + 8)
    return coefficients, accurate


def _moment_at_zero(order: int) -> arb:
    """``q_order = M_order(0)/order!`` as a ball: ``q_0 = √(π/2)``, ``q_1 = 1``, ``q_{n+1} = q_{n-1}/(n+1)``."""
    value = _ONE if order % 2 else (arb.pi() / 2).sqrt()
    for step in range(2 - order % 2, order + 1, 2):
        value = value / step
    return value


_ZERO, _ONE = arb(0), arb(1)
_ROOT_HALF_PI_FLOAT = math.sqrt(math.pi / 2)


def _taylor(point: arb) -> Iterator[arb]:
    """Yield the Taylor coefficients ``a_0 = R(x), a_1, ...`` of R at an exact point x (balls at the current
    precision), from R' = xR - 1: ``a_1 = x a_0 - 1``, ``(n + 1) a_{n+1} = x a_n + a_{n-1}``; ``a_n`` is
    ``(-1)^n M_n(x)/n!``."""
    previous = (arb.pi() / 2).sqrt() * (point * point / 2).exp() * (point * arb(0.5).sqrt()).erfc()
    current = point * previous - 1
    yield previous
    order = 2
    while True:
        yield current
        previous, current = current, (point * current + previous) / order
        order += 1


__all__ = ["CELL_LIMIT", "CELL_REACH", "CELL_SPACING", "TIERS", "forget_cells", "mills_ratio_ball"]
