"""The peer comparison scripts (benchmarks/peers/) without the peers: their 50-digit mpmath cross-checks agree
with the project's certified values, their verdicts call an unsafe value unsafe, and a missing peer is a
printed skip line, not a crash. No timing is asserted (the scripts report ratios; CI has no peers)."""

from __future__ import annotations

import importlib
import sys
from fractions import Fraction
from pathlib import Path
from types import ModuleType

import mpmath
import pytest

from reference.core.certified import CertifiedReal
from reference.privacy.discrete_gaussian_profile import discrete_gaussian_delta
from reference.privacy.gaussian import sigma_exact
from reference.privacy.zcdp import epsilon_from_rho_tight

SCRIPTS = Path(__file__).resolve().parents[2] / "benchmarks" / "peers"
#: Every module a script imports from a peer: set to None in sys.modules, importing it raises ImportError.
PEER_MODULES = (
    "dp_accounting", "dp_accounting.rdp", "dp_accounting.pld", "autodp", "autodp.calibrator_zoo",
    "autodp.mechanism_zoo", "opendp", "opendp.prelude", "prv_accountant", "tmlt", "tmlt.core",
    "tmlt.core.measurements", "tmlt.core.measurements.converters", "tmlt.core.measurements.noise_mechanisms",
)


def _script(name: str) -> ModuleType:
    if str(SCRIPTS) not in sys.path:
        sys.path.insert(0, str(SCRIPTS))
    return importlib.import_module(name)


@pytest.fixture
def no_peers(monkeypatch: pytest.MonkeyPatch) -> None:
    for module in PEER_MODULES:
        monkeypatch.setitem(sys.modules, module, None)


@pytest.mark.parametrize(("epsilon", "delta"), [("1/100", "1e-3"), ("1", "1e-9"), ("20", "1e-15")])
def test_the_mpmath_sigma_lies_in_the_certified_enclosure(epsilon: str, delta: str) -> None:
    script, common = _script("gaussian_sigma"), _script("peers_common")
    exact = sigma_exact(epsilon=epsilon, delta=delta, sensitivity_squared=1)
    root = script.mp_sigma(Fraction(epsilon), Fraction(delta))
    assert common.agrees(root, exact.enclosure)
    # and the same enclosure shifted up by ten times its width (1e-12, relative) is noticed
    shift = 1 + Fraction(1, 10**11)
    assert not common.agrees(root, CertifiedReal(exact.sigma_below * shift, exact.sigma * shift))


@pytest.mark.parametrize(("rho", "delta"), [("1/10000", "1e-3"), ("1/2", "1e-6"), ("20", "1e-15")])
def test_the_mpmath_tight_conversion_lies_in_the_certified_enclosure(rho: str, delta: str) -> None:
    script, common = _script("zcdp_conversion"), _script("peers_common")
    assert common.agrees(
        script.mp_tight_epsilon(Fraction(rho), Fraction(delta)), epsilon_from_rho_tight(rho=rho, delta=delta)
    )


@pytest.mark.parametrize(("sigma", "epsilon"), [("1/2", "1/100"), ("2", "1"), ("8", "4")])
def test_the_mpmath_lattice_sum_lies_in_the_certified_enclosure(sigma: str, epsilon: str) -> None:
    script, common = _script("discrete_gaussian_delta"), _script("peers_common")
    scale = Fraction(sigma)
    exact = discrete_gaussian_delta(epsilon=epsilon, sigma_squared=scale * scale, sensitivity=1)
    assert common.agrees(script.mp_delta(scale, Fraction(epsilon)), exact)


def test_a_sigma_just_below_the_optimum_is_judged_unsafe_and_one_above_safe() -> None:
    script = _script("gaussian_sigma")
    point = (Fraction(1), Fraction(1, 10**6))
    root = script.mp_sigma(*point)
    below, above = script.judge_sigma(point, root, float(root * (1 - mpmath.mpf(10) ** -9))), script.judge_sigma(
        point, root, float(root * (1 + mpmath.mpf(10) ** -9))
    )
    assert below.unsafe and below.excess < 0 and below.worst > 0
    assert not above.unsafe and above.excess > 0


@pytest.mark.parametrize(
    ("name", "argv", "expected_skips"),
    [
        ("gaussian_sigma", ["--points", "2"], ("dp_accounting", "autodp", "opendp", "prv_accountant", "Tumult Core")),
        ("zcdp_conversion", ["--points", "2"], ("dp_accounting", "autodp", "opendp", "prv_accountant", "Tumult Core")),
        ("discrete_gaussian_delta", ["--points", "2"], ("dp_accounting", "autodp", "opendp", "prv_accountant")),
        ("discrete_gaussian_sampler", ["--samples", "2000"], ("opendp", "Tumult Core")),
    ],
)
@pytest.mark.usefixtures("no_peers")
def test_a_script_without_its_peers_prints_skip_lines_and_the_project_row(
    name: str, argv: list[str], expected_skips: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    status = _script(name).main(argv)
    printed = capsys.readouterr().out
    assert status == 0, printed
    for peer in expected_skips:
        assert f"skip {peer}" in printed
    assert "Traceback" not in printed
    assert "| reference " in printed  # the project's own row of the table
    assert "cross-check FAILED" not in printed
