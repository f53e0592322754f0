"""Mills' ratio from cached Taylor models (``reference.privacy.mills_ratio``): every ball contains mpmath's
R(x) = √(π/2) e^{x²/2} erfc(x/√2) at 300 bits (points, balls with a radius, cell edges, both tiers), is about as
narrow as the tier, and the inputs no cell serves are refused. Planted wrong cells (the Taylor sum cut short
without its remainder ball; the remainder bounded at the cell's right edge, where the moments are smallest) are
caught by the same containment check, and the remainder ball is what makes a short cell safe again.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Iterator
from pathlib import Path

import mpmath
import pytest
from flint import arb, arb_poly, ctx

import reference.privacy.mills_ratio as mills
from reference.core.certified import working_precision

MP = mpmath.mp.clone()
MP.prec = 300


def mp_mills(x: mpmath.mpf) -> mpmath.mpf:
    """R(x) = Φ(-x)/φ(x) in mpmath, written from erfc (independent of the module's recurrence)."""
    return MP.sqrt(MP.pi / 2) * MP.exp(x * x / 2) * MP.erfc(x / MP.sqrt(2))


def exact(value: arb) -> mpmath.mpf:
    """An exact Arb number (a midpoint or a radius) as an mpmath number (300 bits hold it exactly here)."""
    mantissa, exponent = value.man_exp()
    return MP.mpf(int(mantissa)) * MP.mpf(2) ** int(exponent)


def contains(ball: arb, value: mpmath.mpf) -> bool:
    middle, radius = exact(ball.mid()), exact(ball.rad())
    return bool(middle - radius <= value <= middle + radius)


def points() -> Iterator[float]:
    """Random points in the cells' range, the cell centres' neighbourhoods and their midpoints (the reach's edge)."""
    draws = random.Random(35)
    for _ in range(60):
        yield draws.uniform(0.0, 12.0)
    for _ in range(20):
        yield draws.uniform(12.0, 63.9)
    spacing, reach = float(mills.CELL_SPACING.mid()), float(mills.CELL_REACH.mid())
    for centre in (0.0, spacing, 1.75, 2.0, 10.0, 63.5):  # 2: the first cell of the closed-form remainder bound
        yield from (centre, centre + spacing / 2 - 1e-9, max(centre - spacing / 2 + 1e-9, 0.0), centre + spacing / 2)
        yield from (centre + reach * 0.999, max(centre - reach * 0.999, 0.0))
    yield mills.CELL_LIMIT - spacing / 2 - 1e-9  # the last cell's far side


@pytest.fixture
def fresh_cells() -> Iterator[None]:
    """Cells built inside the test (and dropped after), so a planted cell never leaks into other tests."""
    saved = list(mills._CELLS_64), list(mills._CELLS_128), bytes(mills._REQUESTED_64), bytes(mills._REQUESTED_128)
    mills.forget_cells()
    yield
    mills._CELLS_64[:], mills._CELLS_128[:] = saved[0], saved[1]
    mills._REQUESTED_64[:], mills._REQUESTED_128[:] = saved[2], saved[3]


@pytest.mark.parametrize("precision", [53, 64, 100, 128])
def test_every_ball_contains_mpmath_and_is_narrow(precision: int) -> None:
    for point in points():
        with working_precision(precision):
            ball = mills.mills_ratio_ball(arb(point), eager=True)
        assert ball is not None, point
        truth = mp_mills(MP.mpf(point))
        assert contains(ball, truth), (precision, point)
        # about as narrow as the working precision (a few units in the last place)
        assert exact(ball.rad()) <= truth * MP.mpf(2) ** -(precision - 4), (precision, point)


def test_a_ball_with_a_radius_contains_r_over_all_of_it() -> None:
    with working_precision(64):
        ball = mills.mills_ratio_ball(arb(3.3, 0.004), eager=True)
    assert ball is not None
    for point in (3.296, 3.3, 3.304):  # R is decreasing: both ends and the middle
        assert contains(ball, mp_mills(MP.mpf(point)))


@pytest.mark.parametrize(
    ("precision", "value"),
    [(64, arb(-0.5)), (64, arb(64.5)), (64, arb(1000)), (129, arb(3)), (64, arb(3, 0.05)), (64, arb("nan"))],
)
def test_what_no_cell_serves_is_refused(precision: int, value: arb) -> None:
    with working_precision(precision):
        assert mills.mills_ratio_ball(value, eager=True) is None


def test_a_cell_is_built_at_its_fifth_request_at_its_tier_and_kept(fresh_cells: None) -> None:
    index = round(2.6 / float(mills.CELL_SPACING.mid()))
    with working_precision(64):
        for _ in range(4):  # four unanswered requests: the caller takes Arb's erfc
            assert mills.mills_ratio_ball(arb(2.6)) is None and mills._CELLS_64[index] is None
        assert mills.mills_ratio_ball(arb(3.0)) is None  # another cell's request leaves this one's count alone
        first = mills.mills_ratio_ball(arb(2.6001))  # the same cell a fifth time: built now
        assert first is not None and mills._CELLS_64[index] is not None and mills._CELLS_128[index] is None
        assert mills.mills_ratio_ball(arb(2.6)) is not None
    with working_precision(100):
        assert mills.mills_ratio_ball(arb(2.6), eager=True) is not None
        assert ctx.prec == 100  # the build restored the caller's precision
    assert mills._CELLS_128[index] is not None


def test_a_one_off_comparison_grid_builds_no_cell(fresh_cells: None, monkeypatch: pytest.MonkeyPatch) -> None:
    # the benchmarks' one-off grid (the peers' 40 points, read from the benchmarks themselves) asks no cell more than
    # three times: below the build threshold, so a single calibration pays for no build it would not use again
    from reference.privacy.gaussian import sigma_exact

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[2] / "benchmarks" / "peers"))
    grid = importlib.import_module("peers_common").GAUSSIAN_GRID
    assert len(grid) == 40
    for epsilon, delta in grid:
        sigma_exact(epsilon=epsilon, delta=delta, sensitivity_squared=1)
    assert mills.forget_cells() == 0
    assert max(mills._REQUESTED_64) == 0  # forget_cells dropped the requests too


def _planted(cut: int, *, remainder: str) -> arb_poly:
    """A wrong cell at centre 3: the Taylor sum cut after ``cut`` terms, with no remainder ball ("none"), with the
    remainder bounded at the right edge c + w ("right", where the moments are smallest), or correctly ("left")."""
    with working_precision(192):
        centre = arb(3)
        coefficients = _taylor_prefix(centre, cut)
        if remainder != "none":
            edge = centre + (mills.CELL_REACH if remainder == "right" else -mills.CELL_REACH)
            bound = abs(_taylor_prefix(edge, cut + 1)[-1])
            coefficients.append(arb(0).union(-bound if cut % 2 else bound))
        return arb_poly(coefficients)


def _taylor_prefix(point: arb, count: int) -> list[arb]:
    """The first ``count`` Taylor coefficients of R at ``point`` from mpmath's derivatives (an independent
    route: R^(n)(x) by numerical differentiation at 120 bits, divided by n!)."""
    context = mpmath.mp.clone()
    context.prec = 120
    values = context.taylor(lambda x: context.sqrt(context.pi / 2) * context.exp(x * x / 2) * context.erfc(x / context.sqrt(2)),
                            context.mpf(float(point.mid())), count - 1)
    # 30 digits: their error (1e-30 relative) is far below the 64-bit evaluation's radius (1e-19)
    return [arb(context.nstr(value, 30)) for value in values]


def test_planted_cells_are_caught_and_the_remainder_ball_repairs_a_short_one() -> None:
    reach = float(mills.CELL_REACH.mid())
    offsets = [reach * (index / 6 - 1) for index in range(13)]  # the whole reach of the cell at 3
    with working_precision(64):
        missed = {
            kind: sum(not contains(_planted(4, remainder=kind)(arb(offset)), mp_mills(MP.mpf(3 + offset)))
                      for offset in offsets)
            for kind in ("none", "right", "left")
        }
    assert missed["none"] > 0  # a cut sum without a remainder ball: the containment check catches it
    assert missed["right"] > 0  # a remainder bounded where the moments are smallest: caught too
    assert missed["left"] == 0  # the Lagrange remainder bounded at the left edge: wide, but it contains R


def test_forgetting_the_cells_counts_them_and_they_are_rebuilt(fresh_cells: None) -> None:
    with working_precision(64):
        first = mills.mills_ratio_ball(arb(5.1), eager=True)
        mills.mills_ratio_ball(arb(9.9), eager=True)
        mills.mills_ratio_ball(arb(20.0))  # requested once: not built, and the request is forgotten too
        assert mills.forget_cells() == 2 and mills.forget_cells() == 0
        assert mills.mills_ratio_ball(arb(20.0)) is None
        again = mills.mills_ratio_ball(arb(5.1), eager=True)
    assert first is not None and again is not None and first.mid() == again.mid() and first.rad() == again.rad()


@pytest.mark.parametrize("order", [0, 1, 2, 7, 16, 25])
def test_the_moment_bound_at_zero_is_mpmaths(order: int) -> None:
    # q_n = M_n(0)/n! = 2^((n-1)/2) Γ((n+1)/2) / n!, the remainder bound of the cells near 0 (a wrong recurrence
    # would make it too small, and the cells unsafe)
    with working_precision(128):
        ball = mills._moment_at_zero(order)
    truth = MP.mpf(2) ** (MP.mpf(order - 1) / 2) * MP.gamma(MP.mpf(order + 1) / 2) / MP.factorial(order)
    assert contains(ball, truth)
