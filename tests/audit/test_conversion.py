"""The conversion audit: ρ-zCDP or an RDP curve against an (ε, δ) claim, decided between the conversion theorem's
δ (sufficient for every mechanism) and the Gaussian witness's exact δ (no conversion can do better)."""

from __future__ import annotations

import json
from fractions import Fraction

import mpmath
import pytest

from reference.audit.conversion import audit_conversion, rdp_conversion_delta
from reference.cli.main import main

RHO = Fraction(1, 20)
EPSILON = 1


def _gaussian_delta(rho: float, epsilon: float) -> mpmath.mpf:
    """Balle & Wang's δ(ε) for N(0, 1) at Δ = sqrt(2ρ), in 50-digit mpmath (independent of the Arb code)."""
    mpmath.mp.dps = 50
    sensitivity = mpmath.sqrt(2 * mpmath.mpf(rho))
    a = sensitivity / 2 - epsilon / sensitivity
    b = -sensitivity / 2 - epsilon / sensitivity
    return mpmath.ncdf(a) - mpmath.exp(epsilon) * mpmath.ncdf(b)


def _cks_delta(rho: float, epsilon: float) -> mpmath.mpf:
    """inf over α of exp((α-1)(αρ-ε))/(α-1)·(1-1/α)^α, minimised numerically by mpmath."""
    mpmath.mp.dps = 50

    def value(alpha: mpmath.mpf) -> mpmath.mpf:
        return mpmath.exp((alpha - 1) * (alpha * rho - epsilon)) / (alpha - 1) * (1 - 1 / alpha) ** alpha

    best = mpmath.findroot(lambda alpha: mpmath.diff(value, alpha), 10)
    return value(best)


def test_three_verdicts_between_witness_and_conversion() -> None:
    witness = _gaussian_delta(0.05, EPSILON)  # about 1.098e-4
    conversion = _cks_delta(0.05, EPSILON)  # about 3.857e-4
    assert 1.09e-4 < witness < 1.10e-4 and 3.85e-4 < conversion < 3.86e-4
    holds = audit_conversion(epsilon=EPSILON, delta="4e-4", rho=RHO)
    assert holds.verdict == "holds"
    assert abs(holds.sufficient.upper - Fraction(str(conversion))) < Fraction(1, 10**18)
    assert abs(holds.witness.lower - Fraction(str(witness))) < Fraction(1, 10**18)
    assert audit_conversion(epsilon=EPSILON, delta="1e-4", rho=RHO).verdict == "fails"
    between = audit_conversion(epsilon=EPSILON, delta="2e-4", rho=RHO)
    assert between.verdict == "inconclusive" and "between the conversion's delta" in between.summary()
    # the tolerance moves the boundary: 3.8e-4 with rtol 2% covers 3.857e-4
    assert audit_conversion(epsilon=EPSILON, delta="3.8e-4", rho=RHO).verdict == "inconclusive"
    assert audit_conversion(epsilon=EPSILON, delta="3.8e-4", rho=RHO, rtol="0.02").verdict == "holds"


def test_rdp_curve_conversion() -> None:
    # the Gaussian's own curve α ρ at integer orders: the witness is that Gaussian, and each order's conversion
    # lies above its exact δ (a conversion valid for every mechanism must)
    curve = [(alpha, alpha * RHO) for alpha in range(2, 30)]
    witness = _gaussian_delta(0.05, EPSILON)
    for alpha, value in curve:
        found = rdp_conversion_delta(alpha=Fraction(alpha), rdp=value, epsilon=Fraction(EPSILON))
        assert found is not None and found.lower > Fraction(str(witness))
    verdict = audit_conversion(epsilon=EPSILON, delta="1e-3", rdp=curve)
    assert verdict.verdict == "holds" and verdict.witness_rho == RHO and verdict.order == 11
    assert audit_conversion(epsilon=EPSILON, delta="1e-4", rdp=curve).verdict == "fails"
    # a float accountant's curve (a function of α) is read exactly
    assert audit_conversion(epsilon=EPSILON, delta="1e-3", rdp=lambda alpha: alpha * 0.05).verdict == "holds"


def test_cli(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "conversion", "--rho", "1/20", "--epsilon", "1", "--delta", "4e-4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["verdict"] == "holds"
    assert main(["audit", "conversion", "--rho", "1/20", "--epsilon", "1", "--delta", "1e-4"]) == 1
    assert main(["audit", "conversion", "--rho", "1/20", "--epsilon", "1", "--delta", "2e-4"]) == 3
    from pathlib import Path

    curve = Path(str(tmp_path)) / "curve.csv"
    curve.write_text("".join(f"{alpha},{alpha}/20\n" for alpha in range(2, 30)))
    assert main(["audit", "conversion", "--rdp", str(curve), "--epsilon", "1", "--delta", "1e-3"]) == 0
    capsys.readouterr()
    assert main(["audit", "conversion", "--epsilon", "1", "--delta", "1e-3"]) == 2
    assert "exactly one of --rho and --rdp" in capsys.readouterr().err


def test_one_sided_bounds_print_once() -> None:
    # ρ = 1e-9 against ε = 1: the witness's δ is far below what 17 digits certify, printed as one bound
    found = audit_conversion(epsilon=1, delta="1e-5", rdp=[(10**9, 1)])
    assert found.verdict == "holds" and ">= >=" not in found.summary() and "<= <=" not in found.summary()
