"""The streamed cascade audit's family test: Haar coefficients counted above fixed magnitudes, exact binomial."""

from __future__ import annotations

import math

import numpy as np
import pytest

from reference.audit.samples.cascade_stream import CascadeMoments
from reference.audit.samples.law_audit import audit_samples
from reference.audit.samples.laws import Cascade
from reference.audit.samples.magnitude_cells import ALTERNATIVES, CUTS, magnitude_check, magnitude_power
from reference.cip.numeric.cascade_runs import cascade_leaves_runs
from reference.cip.whitening import haar_whitening

DEPTH, SIGMA = 9, 1.5  # above the in-memory whitening's depth 8: the streamed audit


def _leaves_from_coefficients(coefficients: np.ndarray) -> np.ndarray:
    """Leaves whose Haar coefficients are ``coefficients`` (runs × 2**DEPTH): the root sum is ``σ w₀`` and each
    node's children are ``(P ± d) / 2`` with ``d = L − R = σ√3 w`` (CIP Theorem 3.3: ``Var(L − R) = 3σ²``). Any
    law of the coefficients with unit variance gives the cascade's covariance exactly."""
    runs = coefficients.shape[0]
    level = SIGMA * coefficients[:, :1]
    used = 1
    while level.shape[1] < 1 << DEPTH:
        width = level.shape[1]
        difference = SIGMA * math.sqrt(3) * coefficients[:, used:used + width]
        used += width
        children = np.empty((runs, 2 * width))
        children[:, 0::2] = (level + difference) / 2
        children[:, 1::2] = (level - difference) / 2
        level = children
    return level


def test_the_counts_are_of_the_whitened_coefficients() -> None:
    """The fold counts ``(L − R)²`` in its scaled units; the cut must be on ``|w|`` of the exact whitening (a wrong
    unit — σ for σ², a missing 3 — moves every count)."""
    depth, sigma = 5, 2.5
    leaves = cascade_leaves_runs(depth, sigma, runs=40, seed=3)
    moments = CascadeMoments(depth, sigma)
    moments.add(leaves[:17])
    moments.add(leaves[17:])
    whitening = haar_whitening(depth, sigma)
    white = leaves @ whitening.T
    siblings = white[:, np.count_nonzero(whitening, axis=1) == 2]  # the rows of two leaves: the leaves' siblings
    assert siblings.shape[1] == 1 << (depth - 1)
    expected = [int(np.count_nonzero(np.abs(siblings) > cut)) for cut in CUTS]
    assert moments.above.tolist() == expected


def test_the_exact_sampler_holds_deep_and_streamed() -> None:
    control = _leaves_from_coefficients(np.random.default_rng(5).standard_normal((40, 1 << DEPTH)))
    assert audit_samples(control, Cascade(DEPTH, SIGMA), alpha=1e-6, smallest_deviation=0.05).verdict == "holds"
    for seed in range(3):
        report = audit_samples(cascade_leaves_runs(DEPTH, SIGMA, runs=40, seed=seed), Cascade(DEPTH, SIGMA),
                               alpha=1e-6, smallest_deviation=0.05)
        check = next(c for c in report.checks if c.name == "whitened magnitudes")
        assert check.holds and report.verdict == "holds"


@pytest.mark.parametrize("alternative", list(ALTERNATIVES))
def test_a_wrong_family_with_the_right_covariance_fails_at_the_runs_stated(alternative: str) -> None:
    """Coefficients of the right variance and the wrong law: every second-moment test passes; the magnitude
    counts fail at the run count the report says gives 99% power."""
    stated = audit_samples(cascade_leaves_runs(DEPTH, SIGMA, runs=4, seed=1), Cascade(DEPTH, SIGMA),
                           alpha=1e-6, smallest_deviation=0.5)
    line = next(p for p in stated.power if alternative in p.alternative)
    assert line.runs_needed is not None
    runs = line.runs_needed
    generator = np.random.default_rng(11)
    shape = (runs, 1 << DEPTH)
    if alternative.startswith("Laplace"):
        coefficients = generator.laplace(0.0, 1 / math.sqrt(2), shape)
    elif alternative.startswith("uniform"):
        coefficients = generator.uniform(-math.sqrt(3), math.sqrt(3), shape)
    else:
        coefficients = generator.standard_t(5, shape) / math.sqrt(5 / 3)
    report = audit_samples(_leaves_from_coefficients(coefficients), Cascade(DEPTH, SIGMA), alpha=1e-6,
                           smallest_deviation=0.5)
    failed = {check.name for check in report.checks if not check.holds}
    assert report.verdict == "fails" and "whitened magnitudes" in failed


def test_power_is_the_binomial_law_at_the_cuts() -> None:
    """Against the oracle's own law the stated detection probability is at most the test's level (a test that
    claimed power against the null would be miscalibrated); against Laplace it grows with the values."""
    from reference.audit.samples.magnitude_cells import _normal_tail

    level = 1e-6
    assert magnitude_power(10_000, level, _normal_tail) <= level
    laplace = ALTERNATIVES["Laplace of the same variance"]
    assert magnitude_power(100, level, laplace) < magnitude_power(1000, level, laplace) <= 1.0
    exact = np.array([round(10_000 * _normal_tail(cut)) for cut in CUTS])
    assert magnitude_check(exact, 10_000, level).holds
    assert not magnitude_check(exact * 2, 10_000, level).holds


@pytest.mark.parametrize(("depth", "runs"), [(3, 5), (14, 16)])  # one piece, and tiles of the leaves
def test_the_fold_and_the_exact_path_count_alike(depth: int, runs: int) -> None:
    from reference.audit.samples.sufficient import GRID_ROOT

    leaves = cascade_leaves_runs(depth, 1.5, runs=runs, seed=2)
    folded, exact = CascadeMoments(depth, 1.5), CascadeMoments(depth, 1.5)
    folded.add(leaves)
    exact._add_scaled_exactly(np.multiply(leaves, GRID_ROOT / 1.5))
    assert folded.above.tolist() == exact.above.tolist() and int(folded.above[0]) > 0
