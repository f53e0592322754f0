"""A result's repr is one short line (what a REPL or a failing test shows); the long form is ``summary()``."""

from __future__ import annotations

from fractions import Fraction

import pytest

from reference import CorrelatedInputPerturbation, sigma_exact
from reference.audit.calibration import audit_gaussian, audit_laplace
from reference.audit.linear.audit import audit_linear_noise
from reference.cip.calibration import calibrate_cascade, calibrate_gaussian
from reference.core.certified import CertifiedReal
from reference.core.reprs import compact_repr
from reference.kary.counters import OnlineCounter
from reference.kary.theorem_1_3 import theorem_1_3_report
from reference.tda.calibration import inftda_calibration

#: Longest repr accepted (the dataclass reprs were 0.8 to 2.1 thousand characters of raw fractions).
MAX_REPR = 160


def test_a_verdict_repr_names_its_class_and_verdict_and_leads_the_summary() -> None:
    verdict = audit_gaussian(sigma=3, sensitivity_squared=1, epsilon=1, delta="1e-5")
    text = repr(verdict)
    assert text.startswith("CalibrationVerdict(fails, gaussian: (1, 1/100000)-DP FAILS") and text.endswith(", ...)")
    assert len(text) <= MAX_REPR and len(verdict.summary()) > len(text) - 30


@pytest.mark.parametrize("make", [
    lambda: audit_laplace(scale=2, epsilon="1/2", delta=0, sensitivity_vectors=[[1]]),
    lambda: audit_linear_noise([[1, 0], [0, 1]], [[1, 0], [1, 1]], "laplace", scale=3),
    lambda: sigma_exact(epsilon="1/2", delta="1e-6", sensitivity_squared=1),
    lambda: calibrate_gaussian(sensitivity=1, epsilon="1/2", delta="1e-6"),
    lambda: calibrate_cascade(4, epsilon="1/2", delta="1e-6"),
    lambda: CertifiedReal(Fraction(1, 3), Fraction(1, 2)),
    lambda: CorrelatedInputPerturbation.calibrate(length=1000, epsilon="1/2", delta="1e-6"),
    lambda: OnlineCounter(arity=19, epsilon=1, horizon=10**6, rng=1),
    lambda: inftda_calibration(5, rho="1/2"),
    lambda: theorem_1_3_report(scale=10, l1_sensitivity=8, l2_sensitivity=None, l2_sensitivity_squared=8,
                               delta="1e-6"),
])
def test_every_result_repr_is_one_short_line(make: object) -> None:
    text = repr(make())  # type: ignore[operator]
    assert "\n" not in text and len(text) <= MAX_REPR and "Fraction(" not in text, text


def test_the_calibration_repr_leads_with_the_recommended_sigma() -> None:
    text = repr(calibrate_gaussian(sensitivity=1, epsilon="1/2", delta="1e-6"))
    recommended = sigma_exact(epsilon="1/2", delta="1e-6", sensitivity_squared=1)
    assert text.startswith(f"GaussianCalibration(recommended sigma = {recommended.decimal()} (rounded up)")
    assert 8.0576 < float(recommended.sigma) < 8.0577  # the analytic Gaussian σ (Balle & Wang) at Δ = 1


def test_an_enclosure_repr_is_rounded_outward() -> None:
    assert repr(CertifiedReal(Fraction(1, 3), Fraction(2, 3))) == "CertifiedReal([0.33333333333333333, 0.66666666666666667])"


def test_a_compact_repr_writes_exact_numbers_as_fractions_and_cuts_long_ones() -> None:
    calibration = inftda_calibration(5, rho="1/2")
    text = compact_repr(calibration)
    assert text.startswith("InfTDACalibration(attributes=5, rho=1/2, sigma_squared=10,")  # σ² = d/ρ = 10
    assert len(text) <= MAX_REPR and (text.endswith(", ...)") or text.endswith(")"))
