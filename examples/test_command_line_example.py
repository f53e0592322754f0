"""Worked example (a CI job): the audit commands on each faulty implementation of ``examples/`` and its correction.

A CI job calls ``reference audit ...`` on matrices or samples its own code produced and reads the exit
status: 0 when the claim holds, 1 when it fails, 3 when the audit cannot decide, 2 on bad input. Each case below
writes the matrices as a user would (exact entries in JSON), runs the command (through ``main``, the function
behind the ``reference`` console script) and checks the verdict, the exit status and what the JSON says is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from reference_verification.planted import (
    correct_integer_kary,
    correct_kary,
    end_of_block_kary,
    off_by_one_digits_kary,
    parity_leak_kary,
    shared_noise_kary,
    user_level_inftda,
)
from reference_verification.planted.my_cascade import my_cascade

from examples.test_cip_example import DELTA, EPSILON
from reference.audit.linear.probe import probe_float_noise_matrix
from reference.cip.calibration import calibrate_cascade
from reference.cli.main import main
from reference.kary.digits import algorithm_2_noise_indices, height_for_horizon
from reference.tda.calibration import inftda_level_sensitivity_squared, inftda_sigma_squared


def _write(path: Path, rows: Sequence[Sequence[object]]) -> str:
    path.write_text(json.dumps([[str(entry) for entry in row] for row in rows]))
    return str(path)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    status = main([*argv, "--json"])
    return status, json.loads(capsys.readouterr().out)


def _prefix(horizon: int) -> list[list[int]]:
    return [[int(j <= t) for j in range(horizon)] for t in range(horizon)]


def _linear(capsys: pytest.CaptureFixture[str], tmp_path: Path, matrix: Sequence[Sequence[object]], noise: str,
            scale: Fraction, epsilon: Fraction) -> tuple[int, dict[str, Any]]:
    return _run(capsys, "audit", "linear-noise", "--noise-matrix", _write(tmp_path / "B.json", matrix),
                "--workload", _write(tmp_path / "W.json", _prefix(len(matrix))), "--noise", noise,
                "--scale", str(scale), "--epsilon", str(epsilon))


def test_shared_noise_fails_with_the_input_the_noise_cannot_hide(capsys: pytest.CaptureFixture[str],
                                                                  tmp_path: Path) -> None:
    status, out = _linear(capsys, tmp_path, shared_noise_kary.noise_matrix(), "laplace",
                          shared_noise_kary.noise_scale(), shared_noise_kary.CLAIMED_EPSILON)
    assert (status, out["verdict"], out["epsilon"]) == (1, "fails", "infinity")
    assert out["witness"]["input_outside_noise_span"] is not None


def test_the_correct_counter_holds_at_exactly_its_claim(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out = _linear(capsys, tmp_path, correct_kary.noise_matrix(), "laplace", correct_kary.noise_scale(),
                          correct_kary.CLAIMED_EPSILON)
    assert (status, out["verdict"], out["epsilon"]) == (0, "holds", "1")


@pytest.mark.parametrize(("fixed", "status", "verdict", "epsilon"), [(False, 1, "fails", "10/3"),
                                                                     (True, 0, "holds", "1")])
def test_the_end_of_block_off_by_one_gets_an_exact_epsilon(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fixed: bool, status: int, verdict: str, epsilon: str
) -> None:
    matrix = end_of_block_kary.noise_matrix(fixed=fixed)  # read off the counter, one unit draw at a time
    got, out = _linear(capsys, tmp_path, matrix, "laplace", end_of_block_kary.noise_scale(),
                       end_of_block_kary.CLAIMED_EPSILON)
    assert (got, out["verdict"], out["epsilon"]) == (status, verdict, epsilon)
    # the faulty counter draws more noise than it has outputs: the shift is the LP's, not the unique one
    assert (out["kernel_dimension"] > 0) == (not fixed)


def test_the_integer_parity_leak_fails_with_its_decoder(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out = _linear(capsys, tmp_path, parity_leak_kary.noise_matrix(), "discrete-laplace",
                          parity_leak_kary.noise_scale(), parity_leak_kary.CLAIMED_EPSILON)
    assert (status, out["verdict"]) == (1, "fails")
    assert out["witness"]["modulus"] == 2  # a parity of the outputs is the same for every noise draw
    status, out = _linear(capsys, tmp_path, correct_integer_kary.noise_matrix(), "discrete-laplace",
                          correct_integer_kary.noise_scale(), correct_integer_kary.CLAIMED_EPSILON)
    assert (status, out["verdict"], out["epsilon"]) == (0, "holds", "1")


@pytest.mark.parametrize(("sigma_squared", "status"), [
    (user_level_inftda.sigma_squared(3, Fraction(1, 2), 3), 1),  # sqrt(2m) level sensitivity: fails
    (inftda_sigma_squared(3, rho=Fraction(1, 2), contributions=3), 0),  # sqrt(2)·m: holds
])
def test_user_level_inftda_is_judged_per_level(capsys: pytest.CaptureFixture[str], sigma_squared: Fraction,
                                               status: int) -> None:
    attributes, rho, users = 3, Fraction(1, 2), 3
    got, out = _run(capsys, "audit", "calibration", "--mechanism", "discrete-gaussian",
                    "--sigma-squared", str(sigma_squared),
                    "--sensitivity-squared", str(inftda_level_sensitivity_squared([2, 2, 2], 1, contributions=users)),
                    "--rho", str(rho / attributes))
    assert (got, out["verdict"]) == (status, "holds" if status == 0 else "fails")


@pytest.mark.parametrize("faulty", [True, False])
def test_variance_for_sigma_in_a_cascade(capsys: pytest.CaptureFixture[str], tmp_path: Path, faulty: bool) -> None:
    sigma = calibrate_cascade(2, epsilon=EPSILON, delta=DELTA).sigma_exact.sigma
    probed = probe_float_noise_matrix(my_cascade, 4)  # the hand-written cascade's map, exactly
    identity = [[int(i == j) for j in range(4)] for i in range(4)]
    status, out = _run(capsys, "audit", "linear-noise", "--noise", "gaussian",
                       "--noise-matrix", _write(tmp_path / "B.json", probed.matrix),
                       "--draw-variances", _write(tmp_path / "d.json", [probed.draw_variances]),
                       "--workload", _write(tmp_path / "W.json", identity),
                       "--scale", str(sigma * sigma if faulty else sigma),
                       "--epsilon", str(EPSILON), "--delta", str(DELTA))
    assert (status, out["verdict"]) == ((1, "fails") if faulty else (0, "holds"))


@pytest.mark.parametrize("faulty", [True, False])
def test_wrong_covariance_in_samples(capsys: pytest.CaptureFixture[str], tmp_path: Path, faulty: bool) -> None:
    arity, epsilon, horizon, runs = 5, 1.0, 62, 40_000
    if faulty:  # the top level skipped in the digit walk: the covariance is wrong
        samples = off_by_one_digits_kary.faulty_kary_noise(arity, epsilon, horizon, runs, 32)
    else:  # the same draws summed over Algorithm 2's indices, as the oracle says
        height = height_for_horizon(arity, horizon, offset=True)
        rows = [algorithm_2_noise_indices(t, arity, height) for t in range(1, horizon + 1)]
        indices = sorted({p for row in rows for p in row})
        matrix = np.array([[float(p in row) for p in indices] for row in rows])
        draws = np.random.default_rng(33).laplace(0.0, height / epsilon, size=(runs, len(indices)))
        samples = draws @ matrix.T
    path = tmp_path / "samples.npy"
    np.save(path, samples)
    status, out = _run(capsys, "audit", "samplers", "--mechanism", "kary", "--arity", str(arity),
                       "--epsilon", str(epsilon), "--samples", str(path))
    assert status == (1 if faulty else 0), out
