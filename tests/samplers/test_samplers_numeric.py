"""Numeric numpy samplers (reference.samplers.numeric) against the certified pmfs, and the rigour of the
statistical machinery of reference.samplers.fit.

Statistical tests are seeded; each has false-alarm probability <= 1e-9 and this file runs 20 of them
(total <= 2e-8). The tests that a wrong distribution is *rejected* use fixed seeds and deviations so large
that the verdict is not in doubt.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from reference_verification.samplers import checks as sc
from scipy import special, stats

from reference.samplers import fit as goodness
from reference.samplers import numeric as ns


@pytest.mark.parametrize(
    ("kind", "parameter"),
    [
        ("discrete-laplace", "1"),
        ("discrete-laplace", "1/3"),
        ("discrete-laplace", "17/2"),
        ("discrete-laplace", "1/5"),
        ("discrete-laplace", "1000"),
        ("discrete-gaussian", "1/4"),
        ("discrete-gaussian", "1"),
        ("discrete-gaussian", "10"),
        ("discrete-gaussian", "1000000"),
    ],
)
def test_numeric_samplers_fit_their_pmf(kind: str, parameter: str) -> None:
    fit = sc.check_fit(kind, "numeric", parameter, samples=100_000, seed=21)
    assert fit.holds, fit.summary()
    moments = sc.check_moments(kind, "numeric", parameter, samples=100_000, seed=22)
    assert moments.holds, moments.summary()


@pytest.mark.parametrize("scale", ["1", "5/2"])
def test_numeric_laplace_fits(scale: str) -> None:
    check = sc.check_laplace_fit(scale, samples=50_000, seed=4)
    assert check.holds, check.summary()


def test_wrong_distributions_are_rejected() -> None:
    values = ns.discrete_laplace(1, size=20_000, rng=5)
    assert not goodness.fit_to_distribution(values, "discrete-laplace", "6/5").holds
    assert not goodness.moments_of_distribution(values, "discrete-laplace", "3/2").holds
    gaussian = ns.discrete_gaussian(2, size=20_000, rng=6)
    assert not goodness.fit_to_distribution(gaussian, "discrete-gaussian", "9/5").holds
    assert not goodness.moments_of_distribution(gaussian + 1, "discrete-gaussian", 2).holds  # shifted mean
    # a single impossible-looking value: 40 is ~1e-175 likely under N_Z(0, 2)
    assert not goodness.fit_to_distribution(np.append(gaussian, 40), "discrete-gaussian", 2).holds


def _documented_signs(gen: np.random.Generator, count: int) -> list[int]:
    """The documented random signs, read one bit at a time: bit i mod 64 (from the least significant) of raw
    word i // 64 set means negative."""
    words = [int(word) for word in gen.bit_generator.random_raw(-(-count // 64))]
    return [-1 if (words[i // 64] >> (i % 64)) & 1 else 1 for i in range(count)]


def _documented_magnitudes(gen: np.random.Generator, t: float, count: int) -> list[int]:
    """ceil(t·E - c), c = 1 - t log(2/(1 + exp(-1/t))), from the docstring's derivation."""
    shift = 1.0 - t * math.log(2.0 / (1.0 + math.exp(-1.0 / t)))
    return [math.ceil(t * float(e) - shift) for e in gen.standard_exponential(count)]


@pytest.mark.parametrize("scale", [1e-3, 0.2, 1.0, 2.5, 1e3, 1e9])
def test_magnitude_shift_gives_the_discrete_laplace_tail(scale: float) -> None:
    """P[ceil(t E - c) >= m] = exp(-(m - 1 + c)/t) must be the target's 2 q^m / (1 + q), q = exp(-1/t), for all
    m >= 1, i.e. exp(-(c - 1)/t) = 2/(1 + q); and 0 < c < 1 so that the magnitude is never negative."""
    shift = ns._magnitude_shift(scale)
    assert 0 < shift < 1
    q = Fraction(math.exp(-1.0 / scale))
    left = math.exp(-(shift - 1.0) / scale)
    assert left == pytest.approx(float(2 / (1 + q)), rel=1e-12)


def test_draw_order_laplace() -> None:
    """Documented: E = standard_exponential(n), then the random signs; value i = ±b·E_i."""
    gen = np.random.default_rng(7)
    exponentials = gen.standard_exponential(300)
    signs = _documented_signs(gen, 300)
    expected = [sign * 2.5 * float(e) for sign, e in zip(signs, exponentials)]
    np.testing.assert_array_equal(ns.laplace("5/2", size=300, rng=7), np.array(expected))


def test_draw_order_discrete_laplace() -> None:
    """Documented: magnitudes ceil(t·E - c) from n exponentials, then the random signs."""
    gen = np.random.default_rng(8)
    magnitudes = _documented_magnitudes(gen, 2.5, 1000)
    signs = _documented_signs(gen, 1000)
    expected = [sign * magnitude for sign, magnitude in zip(signs, magnitudes)]
    np.testing.assert_array_equal(ns.discrete_laplace("5/2", size=1000, rng=8), np.array(expected))


def test_draw_order_discrete_gaussian() -> None:
    """Re-implements the documented draw order from the docstring and compares bit for bit."""
    s2, size = 3.0, 500
    gen = np.random.default_rng(9)
    t = math.floor(math.sqrt(s2)) + 1
    steps = max(math.floor(64 * ns.acceptance_probability(s2)), 29)
    out: list[int] = []
    while len(out) < size:
        needed = size - len(out)
        n = math.ceil(64 * (needed + 3 * math.isqrt(needed)) / steps) + 8
        magnitudes = _documented_magnitudes(gen, t, n)
        uniforms = gen.random(n)
        signs = _documented_signs(gen, n)
        keep = [s * m for s, m, u in zip(signs, magnitudes, uniforms) if u < math.exp((m - s2 / t) ** 2 * (-0.5 / s2))]
        out.extend(keep[:needed])
    np.testing.assert_array_equal(ns.discrete_gaussian(3, size=size, rng=9), np.array(out))


def test_acceptance_probability_is_the_rounds_acceptance() -> None:
    """Against the definition: Σ_y P_Laplace(y) exp(-(|y| - σ²/t)²/(2σ²)), summed term by term."""
    for s2 in (0.09, 0.5, 3.0, 40.0):
        t = math.floor(math.sqrt(s2)) + 1
        q = math.exp(-1.0 / t)
        total = math.fsum(
            (1 - q) / (1 + q) * q ** abs(y) * math.exp(-((abs(y) - s2 / t) ** 2) / (2 * s2)) for y in range(-400, 401)
        )
        assert ns.acceptance_probability(s2) == pytest.approx(total, rel=1e-8)
        assert total >= ns.ACCEPTANCE_FLOOR


def test_reproducible_with_seed_and_generator() -> None:
    for sampler in (ns.discrete_laplace, ns.discrete_gaussian, ns.laplace):
        a = sampler(2, size=300, rng=17)
        b = sampler(2, size=300, rng=np.random.default_rng(17))
        np.testing.assert_array_equal(a, b)
        assert not np.array_equal(a, sampler(2, size=300, rng=18))


def test_shapes_and_types() -> None:
    assert ns.discrete_gaussian(1, size=0, rng=0).shape == (0,)
    assert ns.discrete_gaussian(Fraction(1, 3), size=10, rng=0).dtype == np.int64
    assert ns.discrete_laplace("1/2", size=10, rng=0).dtype == np.int64
    assert ns.laplace(1, size=10, rng=0).dtype == np.float64
    # tiny σ²: a non-zero draw needs an exponential above (1 - σ²)²/(2σ²) ≈ 49, probability ~1e-21 per candidate
    assert not np.any(ns.discrete_gaussian("1/100", size=1000, rng=0))


@pytest.mark.parametrize(
    ("call", "error", "name"),
    [
        (lambda: ns.discrete_gaussian(0, size=5), ValueError, "sigma_squared"),
        (lambda: ns.discrete_gaussian(-1.0, size=5), ValueError, "sigma_squared"),
        (lambda: ns.discrete_gaussian(float("nan"), size=5), ValueError, "sigma_squared"),
        (lambda: ns.discrete_gaussian(1e30, size=5), ValueError, "sigma_squared"),
        (lambda: ns.discrete_laplace(0, size=5), ValueError, "scale"),
        (lambda: ns.discrete_laplace(1e13, size=5), ValueError, "scale"),
        (lambda: ns.laplace(-2, size=5), ValueError, "scale"),
        (lambda: ns.discrete_laplace(1, size=-1), ValueError, "size"),
        (lambda: ns.discrete_laplace(1, size=2.0), TypeError, "size"),
        (lambda: ns.discrete_gaussian(1, size=5, rng=1.5), TypeError, "rng"),
        (lambda: sc.check_fit("gaussian", "exact", 1), ValueError, "kind"),
        (lambda: sc.check_fit("discrete-gaussian", "fast", 1), ValueError, "layer"),
        (lambda: sc.check_fit("discrete-gaussian", "exact", 1, alpha=2.0), ValueError, "alpha"),
    ],
)
def test_bad_inputs_name_the_parameter(call: object, error: type[Exception], name: str) -> None:
    with pytest.raises(error, match=name):
        call()  # type: ignore[operator]


# ------------------------------------------------------------------------------------------------ rigour


def _exact_multinomial_tail(samples: int, probabilities: tuple[float, float, float], threshold: float) -> float:
    """P[Pearson X² >= threshold] for a 3-cell multinomial, by enumerating every outcome."""
    p = np.array(probabilities)
    expected = samples * p
    total = 0.0
    for a in range(samples + 1):
        b = np.arange(samples - a + 1)
        c = samples - a - b
        log_pmf = (
            special.gammaln(samples + 1)
            - special.gammaln(a + 1)
            - special.gammaln(b + 1)
            - special.gammaln(c + 1)
            + a * math.log(p[0])
            + b * math.log(p[1])
            + c * math.log(p[2])
        )
        x2 = (a - expected[0]) ** 2 / expected[0] + (b - expected[1]) ** 2 / expected[1]
        x2 = x2 + (c - expected[2]) ** 2 / expected[2]
        total += float(np.exp(log_pmf[x2 >= threshold]).sum())
    return total


@pytest.mark.parametrize("threshold", [20.0, 41.44653167389282, 60.0])
def test_pearson_bound_is_an_upper_bound(threshold: float) -> None:
    probabilities = (0.45, 0.45, 0.1)
    exact = _exact_multinomial_tail(600, probabilities, threshold)
    bound = goodness.pearson_tail_bound([600 * q for q in probabilities], threshold, 600)
    assert exact <= bound


def test_chi_square_approximation_understates_far_tail() -> None:
    """The reason the checks do not use the chi-square p-value: at the 1e-9 quantile of chi-square(2) the exact
    multinomial tail is several times larger (expected counts 270, 270, 60)."""
    threshold = float(stats.chi2.isf(1e-9, 2))
    assert _exact_multinomial_tail(600, (0.45, 0.45, 0.1), threshold) > 3e-9


def test_chernoff_bound_against_exact_binomial() -> None:
    """The Chernoff bound used for moments is an upper bound on an exactly known tail (Bernoulli sums)."""
    weights = np.array([0.0, 1.0])
    logs = np.log(np.array([0.7, 0.3]))
    for observed in (350.0, 380.0, 250.0):
        upper = observed >= 300
        bound = goodness._chernoff(observed, 1000, weights, logs, upper)
        exact = stats.binom.sf(observed - 1, 1000, 0.3) if upper else stats.binom.cdf(observed, 1000, 0.3)
        assert exact <= bound <= 1.0
