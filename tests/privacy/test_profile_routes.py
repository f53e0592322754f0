"""The four routes of the fast profile (``profile_with_density``): δ(ε) from two Mills' ratio cells, from a cell
for R(u) and Arb's erfc for e^ε Φ(−v), from erfc for Φ(−u) and a cell for R(v), and from two erfc. Each ball
must contain δ(ε) = Φ(−u) − e^ε Φ(−v) (Balle–Wang) and the density ball φ(u), both written out in mpmath at 60
digits, at random (ε, σ/Δ) points and the comparison grid's corners. A planted wrong variant (the erfc argument
scaled by 1 + 2**-40 instead of 1/√2 exactly) is caught by the same containment check.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from fractions import Fraction

import mpmath
import pytest
from flint import arb, fmpq

import reference.privacy.gaussian_profile as profile
import reference.privacy.mills_ratio as mills
from reference.core.certified import working_precision

MP = mpmath.mp.clone()
MP.dps = 60

Route = str
ROUTES: tuple[Route, ...] = ("both cells", "head cell", "tail cell", "no cell")


def points() -> Iterator[tuple[Fraction, Fraction]]:
    """(ε, s = σ/Δ) with u < v < 64 (where cells can serve v), some with u < 0 (no cell serves u)."""
    yield from ((Fraction(1, 100), Fraction(94)), (Fraction(20), Fraction(1, 4)), (Fraction(1, 2), Fraction(46, 10)),
                (Fraction(5), Fraction(69, 100)), (Fraction(1, 10), Fraction(3)))
    draws = random.Random(3535)
    for _ in range(25):
        epsilon = Fraction(draws.randint(1, 4000), 200)  # 0.005 to 20
        ratio = Fraction(draws.randint(20, 40000), 400)  # 0.05 to 100
        yield epsilon, min(ratio, 12 / epsilon)  # εs <= 12: δ above about 1e-40, the calibrations' range


def mp_delta_and_density(epsilon: Fraction, ratio: Fraction) -> tuple[mpmath.mpf, mpmath.mpf]:
    eps, s = MP.mpf(epsilon.numerator) / epsilon.denominator, MP.mpf(ratio.numerator) / ratio.denominator
    lower, upper = eps * s - 1 / (2 * s), eps * s + 1 / (2 * s)
    return MP.ncdf(-lower) - MP.exp(eps) * MP.ncdf(-upper), MP.npdf(lower)


def contains(ball: arb, value: mpmath.mpf) -> bool:
    (middle, middle_exponent), (radius, radius_exponent) = ball.mid().man_exp(), ball.rad().man_exp()
    centre = MP.mpf(int(middle)) * MP.mpf(2) ** int(middle_exponent)
    spread = MP.mpf(int(radius)) * MP.mpf(2) ** int(radius_exponent)
    return bool(centre - spread <= value <= centre + spread)


def routed(route: Route) -> Callable[[arb], arb | None]:
    """A stand-in for ``mills_ratio_ball`` answering (with a cell built at once) only the requests of ``route``:
    the first call of each pair asks R(u), the second R(v)."""
    calls: list[int] = []

    def answer(value: arb) -> arb | None:
        calls.append(1)
        head = len(calls) % 2 == 1
        wanted = route == "both cells" or (route == "head cell" and head) or (route == "tail cell" and not head)
        return mills.mills_ratio_ball(value, eager=True) if wanted else None

    return answer


@pytest.fixture
def fresh_cells() -> Iterator[None]:
    mills.forget_cells()
    yield
    mills.forget_cells()


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("precision", [64, 128])
def test_every_route_contains_mpmaths_delta_and_density(
    route: Route, precision: int, fresh_cells: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(profile, "mills_ratio_ball", routed(route))
    for epsilon, ratio in points():
        with working_precision(precision):
            value, density = profile.profile_with_density(
                arb(fmpq(epsilon.numerator, epsilon.denominator)), arb(fmpq(ratio.numerator, ratio.denominator)))
        exact_delta, exact_density = mp_delta_and_density(epsilon, ratio)
        assert value.is_finite() and contains(value, exact_delta), (route, epsilon, ratio)
        assert contains(density, exact_density), (route, epsilon, ratio)
        # as narrow as the working precision allows after the tails' cancellation (not a vacuous ball)
        assert value.rad() < abs(value.mid()) * arb(2) ** -(precision // 2), (route, epsilon, ratio)


@pytest.mark.parametrize("route", ["head cell", "no cell"])
def test_a_wrong_erfc_scale_is_caught(route: Route, fresh_cells: None, monkeypatch: pytest.MonkeyPatch) -> None:
    # a planted wrong variant of the routes that call erfc: the argument scaled by 1/√2 (1 + 2**-40), an error far
    # below a float's reach but far above the 64-bit balls' width
    monkeypatch.setattr(profile, "mills_ratio_ball", routed(route))
    monkeypatch.setattr(profile, "_inverse_root_two", lambda: arb(2).rsqrt() * (1 + arb(2) ** -40))
    missed = 0
    for epsilon, ratio in points():
        with working_precision(64):
            value, _ = profile.profile_with_density(
                arb(fmpq(epsilon.numerator, epsilon.denominator)), arb(fmpq(ratio.numerator, ratio.denominator)))
        missed += not contains(value, mp_delta_and_density(epsilon, ratio)[0])
    assert missed >= 25  # of 30 points (the far tails barely move)
