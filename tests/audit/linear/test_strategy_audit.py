"""The noisy-strategy path (noise matrix the identity, Q = CᵀC by an integer product) and the large-size
participation bounds, against the general audit and against hand counts."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from reference.audit.linear import pattern_maxima
from reference.audit.linear.audit import audit_linear_noise
from reference.audit.linear.participation import min_separation
from reference.audit.linear.pattern_maxima import max_quadratic
from reference.audit.linear.size_limits import SizeLimits


def test_identity_path_matches_the_general_audit() -> None:
    # B = 2P (P the reversal permutation) is not a multiple of the identity, so the general dense audit runs:
    # Q = Cᵀ(4I)⁻¹C = CᵀC/4, a quarter of the fast path's Q = CᵀC, pattern by pattern and model by model; B = 2I
    # takes the fast path with Q = CᵀC/2² and agrees with the general one
    rng = np.random.default_rng(2)
    strategy = rng.integers(-3, 4, size=(9, 9))
    for model in ("counts", "signed", "vector"):
        scheme = min_separation(separation=2, times=3, contribution=model)
        fast = audit_linear_noise(np.eye(9, dtype=np.int64), strategy, "gaussian", scale=1, participation=scheme)
        general = audit_linear_noise(2 * np.eye(9, dtype=np.int64)[::-1], strategy, "gaussian", scale=1,
                                     participation=scheme)
        doubled = audit_linear_noise(2 * np.eye(9, dtype=np.int64), strategy, "gaussian", scale=1,
                                     participation=scheme)
        assert fast.pattern_maximum is not None and general.pattern_maximum is not None
        assert doubled.pattern_maximum is not None
        assert "identity" in fast.explanation and "identity" not in general.explanation
        assert "c = 2" in doubled.explanation
        assert fast.pattern_maximum.lower == 4 * general.pattern_maximum.lower == 4 * doubled.pattern_maximum.lower
        assert fast.pattern_maximum.upper == 4 * general.pattern_maximum.upper == 4 * doubled.pattern_maximum.upper


def test_banded_strategy_within_the_separation_is_exact() -> None:
    # C banded Toeplitz with coefficients 64, 63, ..., 1: columns 128 apart share no row, so Δ² is the sum of
    # the diagonal over the best pattern: Σ_{m=1}^{64} m² = 64·65·129/6 = 89,440 per participation (every
    # column j <= n − 64 holds the full band), times 2
    steps, band = 256, 64
    strategy = np.zeros((steps, steps), dtype=np.int64)
    for offset in range(band):
        strategy[np.arange(offset, steps), np.arange(0, steps - offset)] = band - offset
    for model in ("signed", "vector"):
        scheme = min_separation(separation=128, times=2, contribution=model)
        verdict = audit_linear_noise(np.eye(steps, dtype=np.int64), strategy, "gaussian", scale=1,
                                     participation=scheme)
        assert verdict.l2_sensitivity_squared == 2 * 89_440
        assert verdict.pattern_maximum is not None and verdict.pattern_maximum.exact
        assert "banded" in verdict.pattern_maximum.method


def test_vectorised_row_bounds_against_the_exact_ones() -> None:
    rng = random.Random(5)
    for inputs, separation, times in [(12, 3, 3), (20, 4, 2), (30, 5, 4), (9, 20, 3)]:
        half = [[rng.randint(0, 9) for _ in range(inputs)] for _ in range(inputs)]
        quadratic = [[half[i][j] + half[j][i] for j in range(inputs)] for i in range(inputs)]
        scheme = min_separation(separation=separation, times=times)
        exact = [pattern_maxima._best_containing(scheme, quadratic[i], i) for i in range(inputs)]
        certified = pattern_maxima._certified_row_bounds(scheme, quadratic)
        assert all(e <= c <= e * (1 + Fraction(1, 10**12)) for e, c in zip(exact, certified))
        truth = max_quadratic(scheme, quadratic, 1)
        assert truth.exact
        # no enumeration and no exact row bounds: the vectorised bound
        bounded = max_quadratic(scheme, quadratic, 1, limits=SizeLimits(enumeration_work=1, bound_work=1))
        assert "vectorised" in bounded.method
        assert bounded.lower <= truth.upper <= bounded.upper


def _pseudo_inverse_tree(leaves: int) -> np.ndarray:
    rows: list[list[float]] = []
    size = leaves
    while size >= 1:
        rows.extend([float(start <= j < start + size) for j in range(leaves)] for start in range(0, leaves, size))
        size //= 2
    return np.asarray(np.linalg.pinv(np.array(rows, dtype=np.float64)))


def test_float_built_pseudo_inverse_gaussian(monkeypatch: pytest.MonkeyPatch) -> None:
    # B = pinv(H) of a binary tree over 16 leaves, in floats, read exactly; W = I. Three routes must agree:
    # the general sparse elimination, the exact integer solve, and the Arb enclosure (forced here on 16 outputs)
    from reference.audit.linear import dyadic, strategy_audit

    noise, workload = _pseudo_inverse_tree(16), np.eye(16, dtype=np.int64)
    fast = audit_linear_noise(noise, workload, "gaussian", scale=1)
    assert "full row rank" in fast.explanation
    with monkeypatch.context() as patched:
        # not "float-built", neither as exact entries nor as a float64 array: the general path
        patched.setattr(strategy_audit, "FLOAT_DENOMINATOR", 2**2000)
        patched.setattr(dyadic, "FLOAT_BITS", 2000)
        general = audit_linear_noise(noise, workload, "gaussian", scale=1)
        assert "full row rank" not in general.explanation
    assert fast.l2_sensitivity_squared == general.l2_sensitivity_squared
    assert fast.l2_sensitivity_squared is not None and abs(fast.l2_sensitivity_squared - 5) < Fraction(1, 10**12)
    with monkeypatch.context() as patched:
        patched.setattr(strategy_audit, "MAX_EXACT_OUTPUTS", 4)
        enclosed = audit_linear_noise(noise, workload, "gaussian", scale=1)
    bracket = enclosed.pattern_maximum
    assert bracket is not None and "Arb enclosure" in bracket.method
    assert bracket.lower <= fast.l2_sensitivity_squared <= bracket.upper
    assert bracket.upper - bracket.lower < Fraction(1, 10**50)
    # a claim at the exact value is inside the bracket: holds only with a tolerance; 2% under-noising fails
    exact_rho = fast.l2_sensitivity_squared / 2
    assert enclosed.renyi_verdict(rho=exact_rho, rtol=Fraction(1, 10**12)).verdict == "holds"
    assert enclosed.renyi_verdict(rho=exact_rho * Fraction(98, 100), rtol=Fraction(1, 10**12)).verdict == "fails"


def test_a_large_dense_audit_is_refused_up_front() -> None:
    steps = 2048
    strategy = np.tril(np.ones((steps, steps), dtype=np.int64))
    scheme = min_separation(separation=128, times=16, contribution="vector")
    # B = 2P (P the reversal permutation) is not a multiple of the identity: the general dense audit, estimated
    # at about 870 s, is refused before it starts
    with pytest.raises(ValueError, match=r"estimated at \d+ s of CPU, over max_seconds = 60"):
        audit_linear_noise(2 * np.eye(steps, dtype=np.int64)[::-1], strategy, "gaussian", scale=1,
                           participation=scheme)
    with pytest.raises(ValueError, match="max_seconds must be an integer >= 1"):
        audit_linear_noise(np.eye(2, dtype=np.int64), np.eye(2, dtype=np.int64), "gaussian", scale=1, max_seconds=0)
