"""Every Gaussian calibration on a grid of extreme but valid parameters answers, or refuses in one line.

The grid crosses the edges of what the exact API accepts (δ down to 1e-10000 and up to 1 - 1e-100, σ and Δ² over
twenty thousand decades, ε from 1e-10000 to 1e300). The property checked is the robustness rule: no exception
other than a one-line ``ValueError`` / ``ArithmeticError`` (an undecided certificate), and an answer's certified
ends on the right sides of δ, re-evaluated here with mpmath where its direct formula resolves them (δ(ε) above
1e-300 and σ/Δ within 1e±6, so the two tails cancel by at most 20 of its 60 digits).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction
from typing import TypeVar

import mpmath

from reference.privacy.gaussian import gaussian_delta, gaussian_epsilon, sigma_exact

MP = mpmath.mp.clone()
MP.dps = 80
T = TypeVar("T")

DELTAS = [Fraction(1, 10**10000), Fraction(1, 2**16610), Fraction(1, 10**300), Fraction(1, 2), 1 - Fraction(1, 10**100)]
SIGMAS = [Fraction(1, 10**5000), Fraction(1, 10**300), Fraction(1), Fraction(10**300), Fraction(10**5000)]
SENSITIVITIES_SQUARED = [Fraction(1, 10**15000), Fraction(1, 10**10000), Fraction(1), Fraction(10**10000)]
EPSILONS = [Fraction(1, 10**10000), Fraction(1, 10**300), Fraction(1, 2), Fraction(10**300)]


def mp_of(value: Fraction) -> mpmath.mpf:
    return MP.mpf(value.numerator) / value.denominator


def mp_delta(epsilon: Fraction, s: mpmath.mpf) -> mpmath.mpf:
    """δ(ε) at σ/Δ = s, the direct formula at 80 digits."""
    eps = mp_of(epsilon)
    return MP.ncdf(1 / (2 * s) - eps * s) - MP.exp(eps) * MP.ncdf(-1 / (2 * s) - eps * s)


def resolvable(epsilon: Fraction, s: mpmath.mpf) -> bool:
    return bool(MP.mpf(10) ** -6 <= s <= MP.mpf(10) ** 6 and epsilon < 10**3 and mp_delta(epsilon, s) > MP.mpf(10) ** -300)


def ratio(sigma: Fraction, sensitivity_squared: Fraction) -> mpmath.mpf:
    return MP.sqrt(mp_of(sigma * sigma / sensitivity_squared))


def answered_or_refused(function: Callable[..., T], **arguments: object) -> T | None:
    try:
        return function(**arguments)
    except (ValueError, ArithmeticError) as refusal:
        assert "\n" not in str(refusal) and str(refusal)
        return None


def test_gaussian_epsilon_on_the_extreme_grid() -> None:
    checked = 0
    for delta, sigma, d2 in itertools.product(DELTAS, SIGMAS, SENSITIVITIES_SQUARED):
        found = answered_or_refused(gaussian_epsilon, delta=delta, sigma=sigma, sensitivity_squared=d2)
        if found is None:
            continue
        s = ratio(sigma, d2)
        for end, sufficient in ((found.upper, True), (found.lower, False)):
            if end > 0 and resolvable(end, s) and abs(mp_delta(end, s) / mp_of(delta) - 1) > MP.mpf(10) ** -40:
                assert (mp_delta(end, s) <= mp_of(delta)) == sufficient
                checked += 1
    assert checked >= 3  # the grid's ordinary corner (σ = Δ = 1) is re-checked, not only refusals


def test_sigma_exact_on_the_extreme_grid() -> None:
    checked = 0
    for epsilon, delta, d2 in itertools.product(EPSILONS, DELTAS, SENSITIVITIES_SQUARED):
        found = answered_or_refused(sigma_exact, epsilon=epsilon, delta=delta, sensitivity_squared=d2)
        if found is None:
            continue
        for end, sufficient in ((found.sigma, True), (found.sigma_below, False)):
            s = ratio(end, d2)
            if resolvable(epsilon, s) and abs(mp_delta(epsilon, s) / mp_of(delta) - 1) > MP.mpf(10) ** -40:
                assert (mp_delta(epsilon, s) <= mp_of(delta)) == sufficient
                checked += 1
    assert checked >= 4


def test_gaussian_delta_on_the_extreme_grid() -> None:
    checked = 0
    for epsilon, sigma, d2 in itertools.product(EPSILONS, SIGMAS, SENSITIVITIES_SQUARED):
        found = answered_or_refused(gaussian_delta, epsilon=epsilon, sigma=sigma, sensitivity_squared=d2)
        if found is None:
            continue
        s = ratio(sigma, d2)
        if resolvable(epsilon, s):
            value, slack = mp_delta(epsilon, s), MP.mpf(10) ** -40 * mp_delta(epsilon, s)
            assert mp_of(found.lower) - slack <= value <= mp_of(found.upper) + slack
            checked += 1
    assert checked >= 2
