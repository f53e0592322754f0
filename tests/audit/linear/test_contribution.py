"""Contribution models (counts, signed, vector) against brute force over patterns, signs and unit vectors; the
issue's reproducer; the refusal of an unnamed model where the models differ."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from scipy.optimize import minimize

from reference.audit.linear.audit import audit_linear_noise
from reference.audit.linear.contribution import max_pattern_l1, max_pattern_quadratic
from reference.audit.linear.covariance import kary_prefix_workload
from reference.audit.linear.participation import (
    Contribution,
    Participation,
    any_records,
    fixed_epoch,
    min_separation,
    once_per_block,
)
from reference.audit.linear.semidefinite import sdp_bracket
from reference.audit.linear.size_limits import SizeLimits

IDENTITY = [[1, 0], [0, 1]]
DIFFERENCE = [[1, 0], [-1, 1]]  # x0 and x1 - x0


def allowed(scheme: Participation, subset: tuple[int, ...]) -> bool:
    """The scheme's families written out independently of the code (subsets of increasing steps)."""
    if not subset:
        return False
    gaps = [b - a for a, b in itertools.pairwise(subset)]
    if scheme.kind == "any":
        return len(subset) <= scheme.records
    if scheme.kind == "once-per-block":
        return len({j // scheme.spacing for j in subset}) == len(subset)
    if scheme.kind == "min-separation":
        return len(subset) <= scheme.records and all(gap >= scheme.spacing for gap in gaps)
    return all(gap % scheme.spacing == 0 for gap in gaps) and subset[-1] - subset[0] <= (scheme.records - 1) * scheme.spacing


def every_pattern(scheme: Participation, inputs: int) -> list[tuple[int, ...]]:
    return [s for size in range(1, inputs + 1) for s in itertools.combinations(range(inputs), size) if allowed(scheme, s)]


def brute_quadratic(q: np.ndarray, pattern: tuple[int, ...], values: tuple[int, ...]) -> int:
    """max over c ∈ values^S of cᵀ Q_S c (the vertices of [0, 1]^S or [-1, 1]^S)."""
    return max(int(sum(c[a] * c[b] * q[i, j] for a, i in enumerate(pattern) for b, j in enumerate(pattern)))
               for c in itertools.product(values, repeat=len(pattern)))


def numerical_vector(q: np.ndarray, pattern: tuple[int, ...], seed: int) -> float:
    """max Σ Q_ij ⟨c_i, c_j⟩ over unit vectors c_i in dimension |S|, by BFGS from random starts (a general
    optimiser, not the audit's coordinate ascent)."""
    block = q[np.ix_(pattern, pattern)].astype(float)
    size = len(pattern)
    rng = np.random.default_rng(seed)

    def negative(flat: np.ndarray) -> tuple[float, np.ndarray]:
        raw = flat.reshape(size, size)
        norms = np.linalg.norm(raw, axis=1, keepdims=True)
        vectors = raw / norms
        pulled = 2 * block @ vectors  # the gradient in the unit vectors, projected on each sphere's tangent
        tangent = (pulled - np.sum(pulled * vectors, axis=1, keepdims=True) * vectors) / norms
        return -float(np.sum(block * (vectors @ vectors.T))), -tangent.ravel()

    return max(-float(minimize(negative, rng.standard_normal(size * size), jac=True, method="BFGS",
                         options={"gtol": 1e-10}).fun) for _ in range(4))


def maximal(patterns: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """The patterns in no larger one (a zero vector is a contribution, so subsets never give more)."""
    return [p for p in patterns if not any(set(p) < set(other) for other in patterns)]


SCHEMES = [any_records(records=3), once_per_block(block=2), min_separation(separation=2, times=2),
           fixed_epoch(separation=2, times=3), fixed_epoch(separation=3, times=2)]


def with_model(scheme: Participation, model: Contribution) -> Participation:
    from dataclasses import replace

    return replace(scheme, contribution=model)


def test_reproducer_fails_under_signed_and_vector_holds_under_counts() -> None:
    # W = [[1, 0], [-1, 1]], B = I: Q = WᵀW = [[2, -1], [-1, 1]]. Counts: max(2, 1, 2 - 2 + 1) = 2.
    # Signed: s = (1, -1) gives 2 + 2 + 1 = 5; vector: a 2x2 SDP is Σ|Q_ij| = 5 (G_01 = -1). Laplace (A = W):
    # counts max(‖(1,-1)‖₁, ‖(0,1)‖₁, ‖(1,0)‖₁) = 2; signed ‖(1,-1)‖₁ + ‖(0,1)‖₁ with s = (1, -1): 3.
    expected = {"counts": (2, "holds"), "signed": (5, "fails"), "vector": (5, "fails")}
    for model, (delta_squared, at_rho_one) in expected.items():
        scheme = min_separation(separation=1, times=2, contribution=model)  # type: ignore[arg-type]
        verdict = audit_linear_noise(IDENTITY, DIFFERENCE, "gaussian", scale=1, participation=scheme)
        assert verdict.l2_sensitivity_squared == delta_squared
        assert verdict.renyi_verdict(rho=1).verdict == at_rho_one
        assert verdict.renyi_verdict(rho=Fraction(delta_squared, 2)).verdict == "holds"
    laplace_models: tuple[tuple[Contribution, int], ...] = (("counts", 2), ("signed", 3))
    for model, epsilon in laplace_models:
        scheme = min_separation(separation=1, times=2, contribution=model)
        laplace = audit_linear_noise(IDENTITY, DIFFERENCE, "laplace", scale=1, participation=scheme)
        assert laplace.epsilon == epsilon and laplace.epsilon_exact
        assert laplace.verdict_on(epsilon=Fraction(5, 2)) == ("holds" if epsilon == 2 else "fails")
    with pytest.raises(ValueError, match=r"vector.*gaussian"):
        audit_linear_noise(IDENTITY, DIFFERENCE, "laplace", scale=1,
                           participation=min_separation(separation=1, times=2, contribution="vector"))


def test_unnamed_model_refused_only_where_the_models_differ() -> None:
    unnamed = min_separation(separation=1, times=2)
    for noise in ("gaussian", "laplace"):
        with pytest.raises(ValueError, match=r"name the contribution model: 'counts'.*'signed'.*'vector'"):
            audit_linear_noise(IDENTITY, DIFFERENCE, noise, scale=1, participation=unnamed)
    # B = W = the prefix matrix: Q = Wᵀ(WWᵀ)⁻¹W = I, no negative entry, all three models agree (Δ² = 2)
    prefix = kary_prefix_workload(6)
    values = {audit_linear_noise(prefix, prefix, "gaussian", scale=1,
                                 participation=min_separation(separation=3, times=2, contribution=model)
                                 ).l2_sensitivity_squared for model in (None, "counts", "signed", "vector")}
    assert values == {2}
    # a negative entry between inputs that never share a pattern does not matter: Q[0][1] < 0 lies inside block
    # 0, which a pattern touches once (Δ² = max(Q00, Q11) = 2)
    assert audit_linear_noise(IDENTITY, DIFFERENCE, "gaussian", scale=1,
                              participation=once_per_block(block=2)).l2_sensitivity_squared == 2


def test_hundred_twenty_degree_vectors_beat_signs() -> None:
    # Q = 3I − J (PSD, eigenvalues 0, 3, 3). Signed: sᵀQs = 6 − 2(s0s1 + s0s2 + s1s2) >= ... max at two equal signs
    # and one opposite: 6 − 2(−1) = 8. Vector: 6 − 2(G01 + G02 + G12) with the sum at least −3/2 (three unit
    # vectors at 120 degrees): 9. The vector model must be certified in a tight bracket around 9, above 8.
    quadratic = [[2, -1, -1], [-1, 2, -1], [-1, -1, 2]]
    signed = max_pattern_quadratic(any_records(records=3, contribution="signed"), quadratic, 1)
    assert signed.exact and signed.upper == 8
    vector = max_pattern_quadratic(any_records(records=3, contribution="vector"), quadratic, 1)
    assert vector.lower <= 9 <= vector.upper and vector.upper - vector.lower < Fraction(1, 10**11)
    assert "semidefinite" in vector.method
    counts = max_pattern_quadratic(any_records(records=3, contribution="counts"), quadratic, 1)
    assert counts.upper == 2  # a single input: every pair adds 2 − 2 = 0


@pytest.mark.parametrize("scheme", SCHEMES, ids=lambda s: s.describe())
def test_models_against_brute_force_over_patterns_and_signs(scheme: Participation) -> None:
    rng = np.random.default_rng(7)
    inputs = 6
    patterns = every_pattern(scheme, inputs)
    assert scheme.count(inputs) == len(patterns)
    triples = [p for p in patterns if len(p) == 3]
    for trial in range(4):
        factor = rng.integers(-3, 4, size=(inputs + 1, inputs))
        frustrated = trial == 3 and bool(triples)
        if frustrated:
            # three columns at 120 degrees on a pattern: its Gram block is 16(3I − J), where signs give 16 · 8
            # and unit vectors at 120 degrees 16 · 9 (the test below on 3I − J)
            factor = rng.integers(-1, 2, size=(inputs + 1, inputs))
            factor[:, triples[0]] = 0
            factor[:3, triples[0]] = 4 * np.array([[1, 0, -1], [-1, 1, 0], [0, -1, 1]])
        q = factor.T @ factor  # PSD with negative entries
        assert (q < 0).any()
        quadratic = q.tolist()
        counts_truth = max(brute_quadratic(q, p, (0, 1)) for p in patterns)
        signed_truth = max(brute_quadratic(q, p, (-1, 0, 1)) for p in patterns)
        found = {model: max_pattern_quadratic(with_model(scheme, model), quadratic, 5)
                 for model in ("counts", "signed", "vector")}
        assert found["counts"].exact and found["counts"].upper == Fraction(counts_truth, 5)
        assert found["signed"].exact and found["signed"].upper == Fraction(signed_truth, 5)
        # the signed maximiser is a real pattern and signs of that value
        s, signs = found["signed"].pattern, found["signed"].signs
        assert allowed(scheme, s) and sum(signs[a] * signs[b] * q[i, j] for a, i in enumerate(s)
                                          for b, j in enumerate(s)) == signed_truth
        vector_truth = max(numerical_vector(q, p, trial) for p in maximal(patterns)) / 5
        vector = found["vector"]
        assert vector.lower >= found["signed"].lower
        assert float(vector.lower) <= vector_truth * (1 + 1e-9) + 1e-9
        assert vector_truth <= float(vector.upper) * (1 + 1e-9)
        assert vector.upper - vector.lower <= vector.upper * Fraction(1, 10**9)
        if frustrated:
            assert vector.lower > found["signed"].upper
        no_enumeration = SizeLimits(enumeration_work=1)  # the certified brackets without enumeration
        truths: tuple[tuple[Contribution, Fraction], ...] = (("signed", Fraction(signed_truth, 5)),
                                                              ("vector", Fraction(vector_truth)))
        for model, truth in truths:
            bounded = max_pattern_quadratic(with_model(scheme, model), quadratic, 5, limits=no_enumeration)
            assert bounded.lower <= truth * (1 + Fraction(1, 10**9)) and truth <= bounded.upper * (
                1 + Fraction(1, 10**9))


@pytest.mark.parametrize("scheme", SCHEMES, ids=lambda s: s.describe())
def test_l1_models_against_brute_force(scheme: Participation) -> None:
    rng = np.random.default_rng(11)
    inputs = 6
    patterns = every_pattern(scheme, inputs)
    for _ in range(3):
        columns = rng.integers(-3, 4, size=(inputs, 5))

        def brute(values: tuple[int, ...], columns: np.ndarray = columns) -> int:
            return max(int(np.abs(sum(c * columns[j] for c, j in zip(chosen, p))).sum())
                       for p in patterns for chosen in itertools.product(values, repeat=len(p)))

        counts = max_pattern_l1(with_model(scheme, "counts"), columns.tolist(), 1)
        signed = max_pattern_l1(with_model(scheme, "signed"), columns.tolist(), 1)
        assert counts.exact and counts.upper == brute((0, 1))
        assert signed.exact and signed.upper == brute((-1, 0, 1))
        bounded = max_pattern_l1(with_model(scheme, "signed"), columns.tolist(), 1,
                                 limits=SizeLimits(enumeration_work=1))
        assert bounded.lower <= brute((-1, 0, 1)) <= bounded.upper


def test_sdp_bracket_contains_the_optimiser_value() -> None:
    rng = np.random.default_rng(3)
    for size in (2, 5, 9):
        factor = rng.integers(-4, 5, size=(size + 2, size))
        block = (factor.T @ factor).tolist()
        lower, upper = sdp_bracket(block)
        best = numerical_vector(np.array(block), tuple(range(size)), 0)
        assert float(lower) <= best * (1 + 1e-12) and best <= float(upper) * (1 + 1e-12)
        assert upper <= sum(abs(entry) for row in block for entry in row)
    assert SizeLimits().sdp_size >= 16  # DP-FTRL's times per user


def test_cli_reproducer(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    import json
    from pathlib import Path

    from reference.cli.main import main

    folder = Path(str(tmp_path))
    (folder / "I.json").write_text(json.dumps(IDENTITY))
    (folder / "C.json").write_text(json.dumps(DIFFERENCE))
    argv = ["audit", "linear-noise", "--noise-matrix", str(folder / "I.json"), "--workload", str(folder / "C.json"),
            "--noise", "gaussian", "--scale", "1", "--participation", "min-separation:1,2", "--rho", "1", "--json"]
    assert main(argv) == 2  # no model named on a workload with a negative Gram entry
    assert "name the contribution model" in capsys.readouterr().err
    for model, status, delta_squared in (("counts", 0, "2"), ("signed", 1, "5"), ("vector", 1, "5")):
        assert main([*argv, "--contribution", model]) == status
        out = json.loads(capsys.readouterr().out)
        assert out["l2_sensitivity_squared"] == delta_squared and out["participation"]["contribution"] == model
    assert main([*argv[:10], "--contribution", "signed", "--json"]) == 2  # a model without a scheme
    assert main([*argv[:10], "--participation", "fixed-epoch:1,2", "--contribution", "signed", "--rho", "5/2"]) == 0


def test_fixed_epoch_is_tighter_than_min_separation() -> None:
    # B = I, W = I except W[0][4] = 1: Q = WᵀW has Q00 = 1, Q44 = 2, Q04 = 1, other diagonals 1. Fixed epochs of
    # 3 steps, 2 of them, over 6 inputs: the patterns are {t, t+3} and their subsets, so the best is {1, 4} with
    # 1 + 2 = 3. Min-separation 3 (at most 2) also allows {0, 4}: 1 + 2 + 2·1 = 5.
    workload = [[int(i == j) for j in range(6)] for i in range(6)]
    workload[0][4] = 1
    identity = [[int(i == j) for j in range(6)] for i in range(6)]
    for model in ("counts", "signed", "vector"):  # Q >= 0: the three models agree
        fixed = audit_linear_noise(identity, workload, "gaussian", scale=1,
                                   participation=fixed_epoch(separation=3, times=2, contribution=model))
        separated = audit_linear_noise(identity, workload, "gaussian", scale=1,
                                       participation=min_separation(separation=3, times=2, contribution=model))
        assert fixed.l2_sensitivity_squared == 3 and separated.l2_sensitivity_squared == 5
    assert fixed_epoch(separation=3, times=2).count(6) == 6 + 3  # six singletons, three pairs {t, t+3}
