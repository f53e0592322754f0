"""The linear-noise audit's report on one claim: complete JSON (the command line prints it unchanged) and the
units hint when a failure looks like a noise parameter in the wrong units.

The scales the claims need are derived by hand here: for y = x + σ z (B = W = [[1]], Δ² = 1) ρ = 1/(2σ²), so a
ρ claim needs σ² >= 1/(2ρ); Laplace y = x + b z (Δ1 = 1) has ε = 1/b, so an ε claim needs b >= 1/ε.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from reference.audit.linear.audit import audit_linear_noise
from reference.audit.linear.claim_report import claim_report, compare_with_oracle
from reference.audit.linear.verdict import LinearNoiseVerdict
from reference.audit.units import scale_units_error, variance_units_error
from reference.cli.main import main
from reference.core.options import LinearNoise
from reference.core.validate import RationalLike

ONE = [[1]]


def gaussian(scale: RationalLike) -> LinearNoiseVerdict:
    return audit_linear_noise(ONE, ONE, "gaussian", scale=scale)


def test_variance_passed_as_standard_deviation_is_named() -> None:
    # ρ = 2 needs σ² = 1/4, σ = 1/2; the variance 1/4 given as σ gives ρ = 8: fails, and the hint says why
    report = claim_report(audit_linear_noise(ONE, ONE, "gaussian", scale="1/4"), rho=2)
    assert report.verdict == "fails"
    assert report.units is not None and "a variance passed as a standard deviation?" in report.units
    assert "sigma >= 0.5," in report.units and report.units in report.summary()
    assert report.as_json()["units"] == report.units


def test_standard_deviation_passed_as_variance_is_named() -> None:
    # ρ = 1/50 needs σ = 5; a code that takes σ as the variance has standard deviation √5 ≈ 2.236: given 2.2
    report = claim_report(audit_linear_noise(ONE, ONE, "gaussian", scale="2.2"), rho="1/50")
    assert report.verdict == "fails"
    assert report.units is not None and "a standard deviation passed as a variance?" in report.units


def test_laplace_rate_passed_as_scale_is_named() -> None:
    # ε = 1/4 needs b = 4; the rate ε/Δ = 1/4 given as b: ε = 4, fails
    report = claim_report(audit_linear_noise(ONE, ONE, "laplace", scale="1/4"), epsilon="1/4")
    assert report.verdict == "fails"
    assert report.units is not None and "a rate 1/b" in report.units and "b >= 4" in report.units


def test_no_units_hint_on_a_plain_shortfall_or_a_pass() -> None:
    # 10% under the needed σ = 1/2 (ρ = 2): a real shortfall, in the right units
    short = claim_report(audit_linear_noise(ONE, ONE, "gaussian", scale="9/20"), rho=2)
    assert short.verdict == "fails" and short.units is None
    held = claim_report(audit_linear_noise(ONE, ONE, "gaussian", scale="1/4"), rho=8)
    assert held.verdict == "holds" and held.units is None
    laplace = claim_report(audit_linear_noise(ONE, ONE, "laplace", scale="3"), epsilon="1/4")  # needs b = 4
    assert laplace.verdict == "fails" and laplace.units is None


def test_gaussian_epsilon_delta_claim_units() -> None:
    # the Gaussian (ε, δ) claim: the σ it needs is below 1 at ε = 4, δ = 1/10 (δ(ε) at σ = 1/2, Δ = 1 is
    # Φ(1 − 2) − e⁴ Φ(−1 − 2) ≈ 0.159 − 54.6·0.00135 ≈ 0.085 < 1/10); a σ near its square fails with the hint
    from reference.privacy.gaussian import sigma_exact

    needed = sigma_exact(epsilon=4, delta=Fraction(1, 10), sensitivity_squared=1).sigma
    assert needed < Fraction(1, 2)
    report = claim_report(gaussian(needed * needed), epsilon=4, delta="1/10")
    assert report.verdict == "fails" and report.units is not None and "variance passed as a standard" in report.units
    assert report.delta_at_epsilon is not None and report.delta_at_epsilon.lower > Fraction(1, 10)


def test_rdp_curve_units() -> None:
    # RDP(α) = α/(2σ²) at Δ = 1; the curve α ↦ 2α (ρ = 2) needs σ = 1/2 as above
    report = claim_report(audit_linear_noise(ONE, ONE, "gaussian", scale="1/4"), rdp=[(2, 4), (8, 16)])
    assert report.verdict == "fails" and report.units is not None and "variance passed" in report.units


def test_units_tests_stay_silent_near_one() -> None:
    # σ² = 1.05: its square and its root are within 10% of it, so no units error can be told apart
    assert variance_units_error(Fraction(21, 20) ** 2, Fraction(21, 20)) is None
    assert scale_units_error(Fraction(20, 21), Fraction(21, 20)) is None
    assert variance_units_error(Fraction(16), Fraction(4)) == "variance as standard deviation"
    assert variance_units_error(Fraction(2), Fraction(4)) == "standard deviation as variance"


@pytest.mark.parametrize(("noise", "scale", "oracle_diagonal", "question"), [
    ("gaussian", 3, 81, "a variance passed as a standard deviation?"),  # the oracle's noise has std σ² = 9
    ("gaussian", 3, 3, "a standard deviation passed as a variance?"),  # its variance is σ = 3
    ("laplace", Fraction(1, 4), 32, "a rate 1/b"),  # its scale is 1/b = 4: variance 2·16
])
def test_oracle_units(noise: LinearNoise, scale: RationalLike, oracle_diagonal: int, question: str) -> None:
    identity = [[1, 0], [0, 1]]
    oracle = [[oracle_diagonal, 0], [0, oracle_diagonal]]
    compared = compare_with_oracle(identity, oracle, noise=noise, scale=scale)
    assert not compared.matches and compared.units is not None and question in compared.units
    off = compare_with_oracle(identity, [[oracle_diagonal, 1], [1, oracle_diagonal]], noise=noise,
                              scale=scale)  # not a multiple: no units story
    assert not off.matches and off.units is None
    report = claim_report(audit_linear_noise(identity, identity, noise, scale=scale), oracle=compared)
    assert report.verdict == "fails" and report.units == compared.units


def test_cli_prints_the_report_unchanged(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "B.json").write_text("[[1, 0], [1, 1]]")
    (tmp_path / "W.json").write_text("[[1, 0], [1, 1]]")
    files = ["--noise-matrix", str(tmp_path / "B.json"), "--workload", str(tmp_path / "W.json")]
    cases = [
        (["--noise", "gaussian", "--scale", "1/4", "--rho", "2"], {"rho": "2"}, 1),
        (["--noise", "gaussian", "--scale", "4", "--epsilon", "1", "--delta", "1/1000"],
         {"epsilon": "1", "delta": "1/1000"}, 0),
        (["--noise", "laplace", "--scale", "1/4", "--epsilon", "1/4"], {"epsilon": "1/4"}, 1),
        (["--noise", "laplace", "--scale", "2"], {}, 0),
        (["--noise", "gaussian", "--scale", "1", "--rdp", "2:1,4:2"], {"rdp": [(2, 1), (4, 2)]}, 0),
    ]
    for options, claim, status in cases:
        assert main(["audit", "linear-noise", *files, *options, "--json"]) == status
        printed = json.loads(capsys.readouterr().out)
        printed.pop("exit_status", None)
        scale = options[options.index("--scale") + 1]
        audit = audit_linear_noise([[1, 0], [1, 1]], [[1, 0], [1, 1]], options[1], scale=scale)  # type: ignore[arg-type]
        assert printed == claim_report(audit, **claim).as_json()  # type: ignore[arg-type]
        assert {"claim", "claim_record", "rtol", "participation", "pattern_maximum", "units"} <= set(printed)
    # the units line reaches the command line's summary
    assert main(["audit", "linear-noise", *files, "--noise", "laplace", "--scale", "1/4", "--epsilon", "1/4",
                 "--json"]) == 1
    assert "a rate 1/b" in json.loads(capsys.readouterr().out)["summary"]


def test_verdict_json_names_its_scheme_and_tolerance_on_every_path() -> None:
    from reference.audit.linear.participation import any_records

    scheme = any_records(records=2)
    # W has a column outside col(B) (input 1 never reaches the noise): the leak is found before the scheme is
    # used, and the JSON still says under which scheme and tolerance it was asked
    leaked = audit_linear_noise([[1], [0]], [[1, 0], [0, 1]], "gaussian", scale=1, participation=scheme,
                                rtol="1/1000")
    assert leaked.verdict == "fails"
    record = leaked.as_json()
    assert record["participation"] == scheme.as_json() and record["rtol"] == "1/1000"
    # two inputs on one identity draw each: a user with both moves the mean by (1, 1), Δ² = 2
    private = audit_linear_noise([[1, 0], [0, 1]], [[1, 0], [0, 1]], "gaussian", scale=1, participation=scheme)
    record = private.as_json()
    assert record["l2_sensitivity_squared"] == "2" and record["pattern_maximum"]["exact"] is True
    weighted = audit_linear_noise([[1, 0], [0, 1]], [[1, 0], [0, 1]], "gaussian", scale=1, draw_variances=[1, 2])
    assert "draw variances" in weighted.as_json()["l2_sensitivity_squared_kind"]


def test_guide_units_doctest_runs() -> None:
    # the claim_report block of docs/validating.md, run as sphinx's doctest builder runs it in CI
    import doctest
    import re

    text = (Path(__file__).resolve().parents[3] / "docs" / "validating.md").read_text(encoding="utf-8")
    blocks = [block for block in re.findall(r"^```\{doctest\}\n(.*?)^```$", text, re.MULTILINE | re.DOTALL)
              if "claim_report" in block]
    assert len(blocks) == 1
    runner = doctest.DocTestRunner()
    runner.run(doctest.DocTestParser().get_doctest(blocks[0], {}, "validating.md claim_report", None, 0))
    result = runner.summarize(verbose=False)
    assert result.failed == 0 and result.attempted == 5


def test_planted_cascade_with_variance_for_sigma_is_named() -> None:
    # the report's planted cascade: the calibrated σ (for ε = 20, δ = 1/1000, below 1) squared by mistake
    from reference_verification.audits import _examples

    from reference.audit.linear.probe import probe_float_noise_matrix
    from reference.cip.calibration import calibrate_cascade

    epsilon, delta = Fraction(20), Fraction(1, 1000)
    sigma = calibrate_cascade(2, epsilon=epsilon, delta=delta).sigma_exact.sigma
    probed = probe_float_noise_matrix(_examples("my_cascade").my_cascade, 4)
    identity = [[int(i == j) for j in range(4)] for i in range(4)]
    found = {}
    for name, used in (("squared", sigma * sigma), ("right", sigma), ("short", sigma * Fraction(9, 10))):
        audit = audit_linear_noise(probed.matrix, identity, "gaussian", scale=used,
                                   draw_variances=probed.draw_variances)
        found[name] = claim_report(audit, epsilon=epsilon, delta=delta)
    assert found["squared"].verdict == "fails" and found["squared"].units is not None
    assert "a variance passed as a standard deviation?" in found["squared"].units
    assert found["right"].verdict == "holds" and found["right"].units is None
    assert found["short"].verdict == "fails" and found["short"].units is None
