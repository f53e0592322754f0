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
