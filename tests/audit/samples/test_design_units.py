"""A failing design audit names a units error when the samples' second moments are those of another unit."""

from __future__ import annotations

import numpy as np

from reference.audit.samples.law_audit import audit_samples
from reference.audit.samples.laws import Gaussian, Laplace, LinearDesign

MATRIX = [[1, 0], [1, 1]]


def _draws(noise: str, scale: float, runs: int = 5000) -> np.ndarray:
    generator = np.random.default_rng(1)
    z = generator.normal(0, scale, (runs, 2)) if noise == "gaussian" else generator.laplace(0, scale, (runs, 2))
    return z @ np.array(MATRIX, dtype=float).T


def test_a_variance_passed_as_sigma_is_named() -> None:
    report = audit_samples(_draws("gaussian", 9.0), LinearDesign(MATRIX, Gaussian(3)))
    assert report.verdict == "fails" and report.units is not None
    assert "a variance passed as a standard deviation?" in report.units


def test_a_rate_passed_as_the_laplace_scale_is_named() -> None:
    report = audit_samples(_draws("laplace", 0.25), LinearDesign(MATRIX, Laplace(4)))
    assert report.verdict == "fails" and report.units is not None and "a rate 1/b" in report.units


def test_a_plain_shortfall_names_no_units_error() -> None:
    report = audit_samples(_draws("gaussian", 2.4), LinearDesign(MATRIX, Gaussian(3)))  # 20% short: no units error
    assert report.verdict == "fails" and report.units is None


def test_scalar_laws_name_a_units_error_too() -> None:
    from reference.audit.samples.laws import DiscreteGaussian

    generator = np.random.default_rng(4)
    gaussian = audit_samples(generator.normal(0, 9.0, 20_000), Gaussian(3))
    assert gaussian.verdict == "fails" and gaussian.units is not None and "variance passed as a standard" in gaussian.units
    laplace = audit_samples(generator.laplace(0, 0.25, 20_000), Laplace(4))
    assert laplace.verdict == "fails" and laplace.units is not None and "a rate 1/b" in laplace.units
    # σ² = 100 declared; the sampler used 100 as its standard deviation: variance 10⁴ = the declared one squared
    discrete = audit_samples(np.rint(generator.normal(0, 100.0, 20_000)), DiscreteGaussian(100))
    assert discrete.verdict == "fails" and discrete.units is not None and "variance passed as a standard" in discrete.units
    short = audit_samples(np.rint(generator.normal(0, 2.4, 20_000)), DiscreteGaussian(9))  # 20% short: no units error
    assert short.verdict == "fails" and short.units is None
