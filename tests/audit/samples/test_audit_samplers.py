"""Tests of the sampler audit (reference.audit.samples.audit).

False alarms: the four "correct sampler passes" tests (three full audits, the JSON round trip, and the
marginals of the decorrelated test) each rely on one audit at alpha = 1e-7 (the audit's stated false-alarm
bound), at most 5e-7 in total; the fault-detection tests can only fail by a *missed* detection, which
does not count towards the false-alarm budget. Everything is seeded.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

# examples/ lives at the repository root, which pytest puts on sys.path (``pythonpath`` in pyproject.toml)
from reference_verification.planted.float_log_height_kary import faulty_kary_noise as float_log_noise
from reference_verification.planted.off_by_one_digits_kary import faulty_kary_noise as off_by_one_noise
from reference_verification.planted.variance_for_std_cascade import faulty_cascade_samples

from reference.audit.samples.audit import audit_cascade_samples, audit_kary_noise, load_samples
from reference.audit.samples.design_audit import linear_design
from reference.cip.numeric.cascade import cascade_leaves
from reference.kary.counters import algorithm_2_batch

ALPHA = 1e-7


def _cascade(depth: int, sigma: float, runs: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.stack([cascade_leaves(depth, sigma, rng) for _ in range(runs)])


def _kary(arity: int, epsilon: float, horizon: int, runs: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    zeros = np.zeros(horizon, dtype=np.int64)
    return np.stack([algorithm_2_batch(zeros, arity, epsilon, rng) for _ in range(runs)])


def test_correct_cascade_passes() -> None:
    report = audit_cascade_samples(_cascade(4, 2.0, 20_000, 11), 4, sigma=2.0, alpha=ALPHA)
    assert report.holds, report.failures
    assert [c.name for c in report.checks] == ["marginals", "node variances", "covariance", "pooled scale"]
    assert sum(c.false_alarm for c in report.checks) <= ALPHA * (1 + 1e-12)
    assert report.as_json()["verdict"] == "holds"


def test_correct_kary_passes() -> None:
    report = audit_kary_noise(_kary(5, 1.0, 62, 40_000, 12), 5, epsilon=1.0, alpha=ALPHA)
    assert report.holds, report.failures
    assert report.checks[1].subtests == 62 * 61 // 2


def test_correct_kary_arity_3_passes() -> None:
    report = audit_kary_noise(_kary(3, 0.5, 13, 20_000, 13), 3, epsilon=0.5, alpha=ALPHA)
    assert report.holds, report.failures


def test_variance_for_std_is_caught() -> None:
    report = audit_cascade_samples(faulty_cascade_samples(4, 2.0, 20_000, 21), 4, sigma=2.0, alpha=ALPHA)
    assert not report.holds
    names = {c.name: c for c in report.checks}
    assert not names["marginals"].holds and not names["node variances"].holds
    assert any("leaf variance at coordinate" in f and "too large" in f for f in report.failures)
    assert any("node variance at level 2" in f and "too large" in f for f in report.failures)


def test_scaled_leaf_is_named() -> None:
    samples = _cascade(3, 1.0, 20_000, 22)
    samples[:, 5] *= 1.2
    report = audit_cascade_samples(samples, 3, sigma=1.0, alpha=ALPHA)
    assert not report.holds
    assert any("leaf variance at coordinate 5 too large" in f for f in report.failures)
    assert not any("coordinate 4" in f for f in report.checks[0].failures)


def test_independent_leaves_fail_covariance_and_nodes() -> None:
    # i.i.d. N(0, 1) leaves have the right marginals but the wrong covariance (C_depth is not I).
    samples = np.random.default_rng(23).standard_normal((20_000, 8))
    report = audit_cascade_samples(samples, 3, sigma=1.0, alpha=ALPHA)
    names = {c.name: c for c in report.checks}
    assert names["marginals"].holds
    assert not names["covariance"].holds
    assert any("node variance at level 0, position 0 too large" in f for f in report.failures)


def test_float_log_height_is_caught() -> None:
    import math

    assert math.ceil(math.log(125, 5)) == 4  # the floating-point fault the example relies on
    report = audit_kary_noise(float_log_noise(5, 1.0, 62, 40_000, 31), 5, epsilon=1.0, alpha=ALPHA)
    assert not report.holds
    assert any("marginal variance at step" in f and "too large" in f for f in report.failures)


def test_off_by_one_digits_is_caught() -> None:
    report = audit_kary_noise(off_by_one_noise(5, 1.0, 62, 40_000, 32), 5, epsilon=1.0, alpha=ALPHA)
    assert not report.holds
    # step 25 has offset digits (0, 0, 1): only the skipped top level contributes noise.
    assert any("marginal variance at step 25 too small" in f for f in report.failures)
    assert not report.checks[1].holds
    assert any("covariance entry" in f for f in report.failures)


def test_laplace_product_variance() -> None:
    # one Laplace(1): Var(L^2) = 24 - 4 = 20; independent L1 * L2: E = 4, mean 0 -> 4.
    one, pair = Fraction(1), (Fraction(1), Fraction(0))
    design = linear_design((pair, (Fraction(0), one), (one, one)), "laplace", 1)
    assert design.product_variance(0, 0) == 20
    assert design.product_variance(0, 1) == 4
    # two i.i.d. values, X = L1 + L2: E X^4 = 2*24 + 6*4 = 72, (E X^2)^2 = 16 -> 56.
    assert design.product_variance(2, 2) == 56


def test_load_samples(tmp_path: Path) -> None:
    array = np.arange(6.0).reshape(2, 3)
    np.save(tmp_path / "s.npy", array)
    np.savetxt(tmp_path / "s.csv", array, delimiter=",")
    assert np.array_equal(load_samples(tmp_path / "s.npy"), array)
    assert np.array_equal(load_samples(str(tmp_path / "s.csv")), array)
    (tmp_path / "s.txt").write_text("1,2")
    with pytest.raises(ValueError, match="path"):
        load_samples(tmp_path / "s.txt")
    with pytest.raises(ValueError, match="path"):
        load_samples(tmp_path / "missing.npy")
    (tmp_path / "bad.csv").write_text("1,x\n")
    with pytest.raises(ValueError, match="path"):
        load_samples(tmp_path / "bad.csv")


def test_bad_inputs() -> None:
    good = np.zeros((10, 4))
    with pytest.raises(ValueError, match="samples"):
        audit_cascade_samples(np.zeros((10, 5)), 2, sigma=1.0)
    with pytest.raises(ValueError, match="samples"):
        audit_cascade_samples(np.zeros(4), 2, sigma=1.0)
    with pytest.raises(TypeError, match="samples"):
        audit_cascade_samples([[0.0] * 4] * 10, 2, sigma=1.0)
    nan = good.copy()
    nan[3, 1] = np.nan
    with pytest.raises(ValueError, match="finite"):
        audit_cascade_samples(nan, 2, sigma=1.0)
    inf = good.copy()
    inf[0, 0] = np.inf
    with pytest.raises(ValueError, match="finite"):
        audit_cascade_samples(inf, 2, sigma=1.0)
    with pytest.raises(ValueError, match="samples"):
        audit_cascade_samples(np.zeros((1, 4)), 2, sigma=1.0)
    with pytest.raises((ValueError, TypeError), match="depth"):
        audit_cascade_samples(good, -1, sigma=1.0)
    with pytest.raises((ValueError, TypeError), match="depth"):
        audit_cascade_samples(good, 2.5, sigma=1.0)
    with pytest.raises((ValueError, TypeError), match="depth"):
        audit_cascade_samples(np.zeros((10, 512)), 9, sigma=1.0)
    for sigma in (0.0, -1.0, float("nan"), float("inf")):
        with pytest.raises((ValueError, TypeError), match="sigma"):
            audit_cascade_samples(good, 2, sigma=sigma)
    with pytest.raises((ValueError, TypeError), match="alpha"):
        audit_cascade_samples(good, 2, sigma=1.0, alpha=0.0)
    with pytest.raises(TypeError, match="samples"):
        audit_cascade_samples(np.zeros((10, 4), dtype=complex), 2, sigma=1.0)
    kary = np.zeros((5000, 4))
    with pytest.raises(ValueError, match="arity"):
        audit_kary_noise(kary, 4, epsilon=1.0)
    with pytest.raises(TypeError, match="arity"):
        audit_kary_noise(kary, 3.0, epsilon=1.0)
    with pytest.raises((ValueError, TypeError), match="epsilon"):
        audit_kary_noise(kary, 3, epsilon=-1.0)
    with pytest.raises(ValueError, match="samples"):
        audit_kary_noise(np.zeros((10, 4)), 3, epsilon=1.0)  # too few runs for the median of means
    with pytest.raises(ValueError, match="samples"):
        audit_kary_noise(np.zeros((5000, 0)), 3, epsilon=1.0)
    with pytest.raises(ValueError, match="samples"):
        audit_kary_noise(np.zeros(5), 3, epsilon=1.0)


def test_kary_decorrelated_noise_fails_covariance_only() -> None:
    # Shuffling each column independently keeps every marginal exact but makes the outputs independent.
    samples = _kary(3, 1.0, 13, 20_000, 41)
    rng = np.random.default_rng(42)
    for column in range(samples.shape[1]):
        samples[:, column] = rng.permutation(samples[:, column])
    report = audit_kary_noise(samples, 3, epsilon=1.0, alpha=ALPHA)
    assert report.checks[0].holds  # marginals: a false alarm here has probability <= ALPHA / 2
    assert not report.checks[1].holds
    assert any("covariance entry" in f and "differs" in f for f in report.failures)


def test_report_json_roundtrip() -> None:
    import json

    report = audit_cascade_samples(_cascade(2, 1.0, 2_000, 43), 2, sigma=1.0, alpha=ALPHA)
    data = json.loads(json.dumps(report.as_json()))
    assert data["audit"].startswith("cascade samples")
    assert [c["property"] for c in data["checks"]] == ["marginals", "node variances", "covariance", "pooled scale"]
    assert float(data["alpha"]) == ALPHA


def test_the_in_memory_audit_runs_the_streamed_pooled_scale_test() -> None:
    # σ 1% too large at depth 6 with 4,000 runs: every per-node band is about ±20% wide, but the pooled statistic
    # (256,000 dof, standard deviation of the variance ratio 0.28%) sees the 2% variance error at ~7 standard
    # deviations; a missed detection is the only way this can fail (no false-alarm budget used)
    from reference.audit.samples.cascade_stream import CascadeMoments
    from reference.cip.numeric.cascade_runs import cascade_leaves_runs

    depth, runs = 6, 4_000
    samples = cascade_leaves_runs(depth, 1.01, runs, 31)
    report = audit_cascade_samples(samples, depth, sigma=1.0, alpha=ALPHA)
    failed = {check.name for check in report.checks if not check.holds}
    assert "pooled scale" in failed and not failed & {"marginals", "node variances"}
    streamed = CascadeMoments(depth, 1.0)
    streamed.add(samples)
    pooled = next(check for check in report.checks if check.name == "pooled scale")
    same = streamed.pooled_check(ALPHA / 4)  # one code path: the same statistic and test at the same level
    assert (pooled.statistic, pooled.detail, pooled.holds) == (same.statistic, same.detail, same.holds)


def test_the_file_audit_states_the_deviation_it_sees(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """At 300 runs of depth 3 a 2% scale error is out of reach: inconclusive (exit 3) with the runs needed; held to
    the deviation the report says it detects, the same samples hold (exit 0): the stated power and the verdict
    agree."""
    import json

    from reference.cli.main import main

    np.save(tmp_path / "s.npy", _cascade(3, 1.0, 300, 9))
    argv = ["audit", "samplers", "--mechanism", "cascade", "--samples", str(tmp_path / "s.npy"), "--depth", "3",
            "--sigma", "1", "--alpha", "1e-7", "--json"]
    assert main(argv) == 3
    out = json.loads(capsys.readouterr().out)
    assert out["verdict"] == "inconclusive" and out["runs_needed"] > 300
    seen = float(out["detectable_deviation"])
    assert 0.02 < seen < 1
    assert main([*argv, "--smallest-deviation", repr(seen * 1.01)]) == 0
