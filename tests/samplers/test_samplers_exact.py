"""Exact samplers (reference.samplers.exact), bit sources (reference.core.randomness) and certified pmfs
(reference.samplers.pmf).

Reference values are computed independently with mpmath at 50+ digits from the definitions (explicit finite
sums with a truncation far beyond double precision), never copied from the code's output. Statistical tests
are seeded; each has false-alarm probability <= 1e-9 and this file runs 10 of them (total <= 1e-8).
"""

from __future__ import annotations

import random
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_verification.samplers import checks as sc
from reference_verification.samplers import exact_checks as xc

from reference.core.certified import CertifiedReal
from reference.core.randomness import (
    BitsExhausted,
    CountingBits,
    ScriptedBits,
    SeededRandomBits,
    SystemRandomBits,
    check_source,
)
from reference.samplers import exact as es
from reference.samplers import pmf as discrete

DIGITS = 60


def mp(value: Fraction) -> mpmath.mpf:
    return mpmath.mpf(value.numerator) / value.denominator


def contains(enclosure: CertifiedReal, value: mpmath.mpf) -> bool:
    """Whether an mpmath value (60 digits) lies in the enclosure; the enclosures are ~1e-24 wide, far wider
    than mpmath's error, so a value outside is a real disagreement."""
    return bool(mp(enclosure.lower) <= value <= mp(enclosure.upper))


def gaussian_reference(sigma_squared: Fraction) -> tuple[mpmath.mpf, int]:
    """Z = Σ_{|y| <= Y} exp(-y²/(2σ²)) with Y so large that the omitted terms are below 1e-70 (relative)."""
    with mpmath.workdps(DIGITS):
        s2 = mp(sigma_squared)
        cut = int(mpmath.ceil(mpmath.sqrt(2 * s2 * 170))) + 2  # exp(-170) ~ 1e-74
        total = mpmath.fsum(mpmath.exp(-mpmath.mpf(y * y) / (2 * s2)) for y in range(-cut, cut + 1))
        return total, cut


# ------------------------------------------------------------------------------------------------ bit sources


def test_seeded_bits_are_random_random_getrandbits() -> None:
    source, twin = SeededRandomBits(12345), random.Random(12345)
    for width in (1, 5, 31, 32, 33, 64, 100, 0, 7):
        assert source.randbits(width) == (twin.getrandbits(width) if width else 0)


def test_seeded_bits_reproducible_and_seed_dependent() -> None:
    first = [SeededRandomBits(7).randbits(64) for _ in range(2)]
    assert first[0] == first[1]
    assert SeededRandomBits(7).randbits(64) != SeededRandomBits(8).randbits(64)


def test_randbelow_range_and_rejection_width() -> None:
    counting = CountingBits(SeededRandomBits(3))
    values = [counting.randbelow(6) for _ in range(600)]
    assert set(values) == set(range(6))
    # each try uses (6 - 1).bit_length() = 3 bits
    assert counting.bits_used == 3 * counting.calls
    assert CountingBits(SeededRandomBits(0)).randbelow(1) == 0


def test_scripted_bits_read_most_significant_first() -> None:
    script = ScriptedBits(0b1011001, 7)
    assert script.randbits(1) == 1
    assert script.randbits(3) == 0b011
    assert script.randbits(0) == 0
    assert script.randbits(3) == 0b001
    with pytest.raises(BitsExhausted):
        script.randbits(1)


def test_counting_bits_counts_sampler_draws() -> None:
    counting = CountingBits(SeededRandomBits(1))
    es.discrete_gaussian(2, source=counting, size=50)
    assert counting.bits_used >= 50 and counting.calls > 0


def test_system_bits_in_range() -> None:
    source = SystemRandomBits()
    assert 0 <= source.randbits(20) < 2**20
    assert 0 <= source.randbelow(10) < 10
    assert isinstance(check_source(None), SystemRandomBits)


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda: SeededRandomBits(-1), ValueError),
        (lambda: SeededRandomBits(True), TypeError),
        (lambda: SeededRandomBits(1.5), TypeError),  # type: ignore[arg-type]
        (lambda: SeededRandomBits(1).randbits(-1), ValueError),
        (lambda: SeededRandomBits(1).randbelow(0), ValueError),
        (lambda: ScriptedBits(8, 3), ValueError),
        (lambda: check_source(random.Random(1)), TypeError),
        (lambda: check_source(object()), TypeError),
    ],
)
def test_bit_source_validation(call: object, error: type[Exception]) -> None:
    with pytest.raises(error):
        call()  # type: ignore[operator]


# ------------------------------------------------------------------------------------------------ exhaustive


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 40), st.integers(1, 40))
def test_bernoulli_exact_by_enumeration(numerator: int, denominator: int) -> None:
    p = Fraction(min(numerator, denominator), denominator)
    masses, unresolved, _ = xc.enumerate_outcomes(lambda s: es.bernoulli(p, source=s), 18)
    one = masses.get(1, Fraction(0))
    assert one <= p <= one + unresolved
    assert unresolved <= Fraction(1, 2**18)  # one bit decides with probability 1/2 at each step


@pytest.mark.parametrize("gamma", ["0", "1/2", "1", "3/2", "7/3", "5"])
def test_bernoulli_exp_minus_by_enumeration(gamma: str) -> None:
    value = Fraction(gamma)
    masses, unresolved, _ = xc.enumerate_outcomes(lambda s: es.bernoulli_exp_minus(value, source=s), 18)
    one = masses.get(1, Fraction(0))
    with mpmath.workdps(DIGITS):
        truth = mpmath.exp(-mp(value))
        assert mp(one) <= truth <= mp(one + unresolved)
    assert unresolved < Fraction(1, 50)


def test_enumeration_check_of_composite_samplers() -> None:
    laplace = xc.check_enumeration("discrete-laplace", 1, 13)
    assert laplace.holds, laplace.summary()
    gaussian = xc.check_enumeration("discrete-gaussian", "1/2", 12)
    assert gaussian.holds, gaussian.summary()
    assert xc.check_enumeration("bernoulli_exp_minus", "1/3", 16).worst_gap < Fraction(1, 1000)


# ------------------------------------------------------------------------------------------------ statistical


@pytest.mark.parametrize(
    ("kind", "parameter"),
    [
        ("discrete-laplace", "1"),
        ("discrete-laplace", "5/2"),
        ("discrete-laplace", "1/3"),
        ("discrete-gaussian", "1/4"),
        ("discrete-gaussian", "1"),
        ("discrete-gaussian", "10"),
    ],
)
def test_exact_samplers_fit_their_pmf(kind: str, parameter: str) -> None:
    fit = sc.check_fit(kind, "exact", parameter, samples=2_000, seed=11)
    assert fit.holds, fit.summary()
    if kind == "discrete-gaussian":
        moments = sc.check_moments(kind, "exact", parameter, samples=2_000, seed=12)
        assert moments.holds, moments.summary()


def test_exact_bernoulli_exp_minus_statistical() -> None:
    check = sc.check_bernoulli_exp_minus("5/2", samples=20_000, seed=3)
    assert check.holds, check.summary()


def test_exact_samplers_reproducible_with_seed() -> None:
    for sampler, parameter in ((es.discrete_laplace, "3/2"), (es.discrete_gaussian, "7/3")):
        first = sampler(parameter, source=SeededRandomBits(99), size=200)
        assert first == sampler(parameter, source=SeededRandomBits(99), size=200)
        assert first != sampler(parameter, source=SeededRandomBits(100), size=200)
    # a vector is the scalars drawn one after the other (the rejection sampler and the discrete Laplace; the
    # inversion sampler's vector draws its words in one request: tests/samplers/test_inversion_sampler.py)
    for sampler in (es.discrete_gaussian_rejection, es.discrete_laplace):
        source = SeededRandomBits(5)
        scalars = [sampler(2, source=source) for _ in range(20)]
        assert scalars == sampler(2, source=SeededRandomBits(5), size=20)


def test_sampler_output_types() -> None:
    assert es.bernoulli("1/2", source=SeededRandomBits(0)) in (0, 1)
    assert es.bernoulli(1, source=SeededRandomBits(0), size=5) == [1] * 5
    assert es.bernoulli(0, source=SeededRandomBits(0), size=5) == [0] * 5
    assert es.discrete_laplace(1, source=SeededRandomBits(0), size=0) == []
    assert isinstance(es.discrete_gaussian(1, source=SeededRandomBits(0)), int)


# ------------------------------------------------------------------------------------------------ pmfs


@pytest.mark.parametrize("sigma_squared", ["1/100", "3/20", "1/6", "1/4", "1", "2", "10", "1000"])
def test_discrete_gaussian_pmf_against_mpmath(sigma_squared: str) -> None:
    s2 = Fraction(sigma_squared)
    total, _ = gaussian_reference(s2)
    with mpmath.workdps(DIGITS):
        assert contains(discrete.discrete_gaussian_normaliser(s2), total)
        for x in (0, 1, 2, 5, -3, 40):
            truth = mpmath.exp(-mpmath.mpf(x * x) / (2 * mp(s2))) / total
            assert contains(discrete.discrete_gaussian_pmf(x, s2), truth)


@pytest.mark.parametrize("sigma_squared", ["1/4", "1", "10"])
def test_discrete_gaussian_pmf_sums_to_one(sigma_squared: str) -> None:
    s2 = Fraction(sigma_squared)
    cut = 12
    pieces = [discrete.discrete_gaussian_pmf(x, s2) for x in range(-cut, cut + 1)]
    tails = [discrete.discrete_gaussian_tail(cut + 1, s2), discrete.discrete_gaussian_cdf(-cut - 1, s2)]
    lower = sum((p.lower for p in pieces + tails), Fraction(0))
    upper = sum((p.upper for p in pieces + tails), Fraction(0))
    assert lower <= 1 <= upper
    assert upper - lower < Fraction(1, 10**20)


@pytest.mark.parametrize(
    ("sigma_squared", "m"), [("1", 1), ("1", 3), ("1", -2), ("1/4", 2), ("10", 0), ("10", 7), ("30", 2), ("30", 25)]
)
def test_discrete_gaussian_tail_against_mpmath(sigma_squared: str, m: int) -> None:
    s2 = Fraction(sigma_squared)
    total, cut = gaussian_reference(s2)
    with mpmath.workdps(DIGITS):
        upper = mpmath.fsum(mpmath.exp(-mpmath.mpf(y * y) / (2 * mp(s2))) for y in range(m, cut + 1)) / total
        assert contains(discrete.discrete_gaussian_tail(m, s2), upper)
        below = mpmath.fsum(mpmath.exp(-mpmath.mpf(y * y) / (2 * mp(s2))) for y in range(-cut, m + 1)) / total
        assert contains(discrete.discrete_gaussian_cdf(m, s2), below)


@pytest.mark.parametrize("sigma_squared", ["1/100", "1/4", "1", "2", "10"])
def test_discrete_gaussian_variance_below_sigma_squared(sigma_squared: str) -> None:
    s2 = Fraction(sigma_squared)
    variance = discrete.discrete_gaussian_variance(s2)
    assert variance.upper < s2  # certified strict inequality
    with mpmath.workdps(150):  # D(10) ~ 1e-82: enough digits to see σ² - Var directly
        s2m = mp(s2)
        cut = int(mpmath.ceil(mpmath.sqrt(2 * s2m * 400))) + 2  # exp(-400) omitted
        weights = [mpmath.exp(-mpmath.mpf(y * y) / (2 * s2m)) for y in range(-cut, cut + 1)]
        second = mpmath.fsum(w * (y - cut) ** 2 for y, w in enumerate(weights)) / mpmath.fsum(weights)
        assert contains(variance, second)
        deficit = discrete.discrete_gaussian_variance_deficit(s2)
        assert mp(deficit.lower) <= s2m - second <= mp(deficit.upper)
        assert deficit.lower > 0


def test_discrete_gaussian_variance_close_to_sigma_squared_for_large_scale() -> None:
    for s2 in (Fraction(100), Fraction(12345, 7)):
        variance = discrete.discrete_gaussian_variance(s2)
        assert variance.upper < s2
        assert s2 - variance.lower < Fraction(1, 10**300)  # D(σ²) ~ 8π²σ⁴ exp(-2π²σ²)


@pytest.mark.parametrize("scale", ["1/3", "1", "5/2", "40"])
def test_discrete_laplace_pmf_and_variance_against_brute_force(scale: str) -> None:
    t = Fraction(scale)
    with mpmath.workdps(DIGITS):
        tm = mp(t)
        cut = int(mpmath.ceil(tm * 200)) + 2  # exp(-200) omitted
        weights = {x: mpmath.exp(-abs(x) / tm) for x in range(-cut, cut + 1)}
        z = mpmath.fsum(weights.values())
        for x in (0, 1, -2, 7):
            assert contains(discrete.discrete_laplace_pmf(x, t), weights[x] / z)
        variance = mpmath.fsum(w * x * x for x, w in weights.items()) / z
        assert contains(discrete.discrete_laplace_variance(t), variance)
        for m in (1, 3, 0, -2):
            tail = mpmath.fsum(w for x, w in weights.items() if x >= m) / z
            assert contains(discrete.discrete_laplace_tail(m, t), tail)
            assert contains(
                discrete.discrete_laplace_cdf(m, t), mpmath.fsum(w for x, w in weights.items() if x <= m) / z
            )


def test_exp_minus_against_mpmath() -> None:
    with mpmath.workdps(DIGITS):
        for gamma in ("1/3", "2", "100"):
            assert contains(discrete.exp_minus(gamma), mpmath.exp(-mp(Fraction(gamma))))
    assert discrete.exp_minus(0) == CertifiedReal.exact(1)


# ------------------------------------------------------------------------------------------------ bad inputs


@pytest.mark.parametrize(
    ("call", "error", "name"),
    [
        (lambda: es.discrete_gaussian(0), ValueError, "sigma_squared"),
        (lambda: es.discrete_gaussian("-1/2"), ValueError, "sigma_squared"),
        (lambda: es.discrete_gaussian(0.5), TypeError, "sigma_squared"),
        (lambda: es.discrete_laplace(0), ValueError, "scale"),
        (lambda: es.discrete_laplace(1.0), TypeError, "scale"),
        (lambda: es.discrete_laplace("abc"), ValueError, "scale"),
        (lambda: es.bernoulli("3/2"), ValueError, "p"),
        (lambda: es.bernoulli(0.5), TypeError, "p"),
        (lambda: es.bernoulli_exp_minus(-1), ValueError, "gamma"),
        (lambda: es.discrete_gaussian(1, source=SeededRandomBits(0), size=-1), ValueError, "size"),
        (lambda: es.discrete_gaussian(1, source=SeededRandomBits(0), size=2.0), TypeError, "size"),  # type: ignore[call-overload]
        (lambda: es.discrete_gaussian(1, source=random.Random(0)), TypeError, "source"),
        (lambda: discrete.discrete_gaussian_pmf(0, 0), ValueError, "sigma_squared"),
        (lambda: discrete.discrete_gaussian_pmf(0.0, 1), TypeError, "x"),
        (lambda: discrete.discrete_gaussian_variance(1.5), TypeError, "sigma_squared"),
        (lambda: discrete.discrete_laplace_pmf(1, "-2"), ValueError, "scale"),
        (lambda: discrete.discrete_laplace_variance(0), ValueError, "scale"),
        (lambda: discrete.discrete_gaussian_tail(True, 1), TypeError, "m"),
    ],
)
def test_bad_inputs_name_the_parameter(call: object, error: type[Exception], name: str) -> None:
    with pytest.raises(error, match=name):
        call()  # type: ignore[operator]


def test_cks_corollary_bounds_hold_certified() -> None:
    check = xc.check_discrete_gaussian_bounds(["1/100", "1/4", "1", "10"], max_m=25)
    assert check.holds, check.summary()
    assert check.cases == 4 * 26
