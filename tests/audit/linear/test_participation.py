"""Participation schemes: pattern counts, exact maxima and certified bounds against brute force; the linear audit
under a scheme against a hand count."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from reference.audit.linear import pattern_walk
from reference.audit.linear.audit import audit_linear_noise
from reference.audit.linear.covariance import kary_prefix_workload
from reference.audit.linear.participation import (
    Participation,
    any_records,
    fixed_epoch,
    min_separation,
    once_per_block,
    parse_participation,
)
from reference.audit.linear.pattern_maxima import max_l1, max_quadratic
from reference.audit.linear.size_limits import SizeLimits

SCHEMES = [any_records(records=2), any_records(records=3), once_per_block(block=3), once_per_block(block=1),
           min_separation(separation=3, times=2), min_separation(separation=2, times=3),
           fixed_epoch(separation=3, times=2), fixed_epoch(separation=2, times=3)]


def patterns(scheme: Participation, inputs: int) -> list[tuple[int, ...]]:
    """Every allowed non-empty pattern, by brute force over all subsets."""
    found = []
    for size in range(1, inputs + 1):
        for subset in itertools.combinations(range(inputs), size):
            if size > scheme.most_inputs(inputs):
                continue
            if scheme.kind == "once-per-block" and len({j // scheme.spacing for j in subset}) < size:
                continue
            if scheme.kind == "min-separation" and any(b - a < scheme.spacing for a, b in itertools.pairwise(subset)):
                continue
            if scheme.kind == "fixed-epoch" and (any((b - a) % scheme.spacing for a, b in itertools.pairwise(subset))
                                                 or subset[-1] - subset[0] > (scheme.records - 1) * scheme.spacing):
                continue
            found.append(subset)
    return found


@pytest.mark.parametrize("scheme", SCHEMES)
def test_counts_and_maxima_against_brute_force(scheme: Participation) -> None:
    rng = random.Random(3)
    inputs = 8
    every = patterns(scheme, inputs)
    assert scheme.count(inputs) == len(every)
    for _ in range(5):
        half = [[rng.randint(-3, 9) for _ in range(inputs)] for _ in range(inputs)]
        quadratic = [[half[i][j] + half[j][i] for j in range(inputs)] for i in range(inputs)]
        columns = [[rng.randint(-4, 4) for _ in range(5)] for _ in range(inputs)]
        truth_q = max(sum(quadratic[i][j] for i in s for j in s) for s in every)
        truth_l1 = max(sum(abs(sum(columns[j][r] for j in s)) for r in range(5)) for s in every)
        exact = max_quadratic(scheme, quadratic, 7)
        assert exact.exact and exact.upper == Fraction(truth_q, 7)
        assert max_l1(scheme, columns, 1).upper == truth_l1
        no_enumeration = SizeLimits(enumeration_work=1)  # force the certified bounds: they must bracket the truth
        bounded = max_quadratic(scheme, quadratic, 7, limits=no_enumeration)
        assert bounded.lower <= Fraction(truth_q, 7) <= bounded.upper
        assert sum(quadratic[i][j] for i in bounded.pattern for j in bounded.pattern) == bounded.lower * 7
        l1 = max_l1(scheme, columns, 1, limits=no_enumeration)
        assert l1.lower <= truth_l1 <= l1.upper
    # a map with one sign per row: the dynamic programme is exact
    positive = [[rng.randint(0, 5) for _ in range(4)] for _ in range(inputs)]
    truth = max(sum(sum(positive[j]) for j in s) for s in every)
    found = max_l1(scheme, positive, 1)
    assert found.exact and found.upper == truth and "dynamic programming" in found.method


@pytest.mark.parametrize("scheme", SCHEMES)
def test_walk_visits_every_pattern_once_depth_first(scheme: Participation) -> None:
    """The one enumeration every exact maximum uses: each allowed pattern once, in lexicographic order (depth
    first, steps ascending), with the state carried along; the maximum is the first pattern attaining it."""
    inputs = 8
    weights = [5, -1, 5, 2, -3, 5, 0, 1]  # ties at 5: the first maximiser in that order is reported

    def extend(state: tuple[int, ...], pattern: tuple[int, ...], step: int) -> tuple[tuple[tuple[int, ...], int]]:
        return (((*state, step), sum(weights[j] for j in (*pattern, step))),)

    visited: list[tuple[int, ...]] = []
    start: tuple[int, ...] = ()

    def visit(pattern: tuple[int, ...], state: tuple[int, ...], value: int) -> None:
        assert state == pattern  # the state rode along the same steps
        visited.append(pattern)

    pattern_walk.walk_patterns(scheme, inputs, start, extend, visit)
    assert visited == sorted(patterns(scheme, inputs))
    every = patterns(scheme, inputs)
    truth = max(sum(weights[j] for j in pattern) for pattern in every)
    first = min(pattern for pattern in every if sum(weights[j] for j in pattern) == truth)
    assert pattern_walk.best_pattern(scheme, inputs, start, extend) == (truth, first, first)
    assert pattern_walk.best_pattern(scheme, 0, start, extend) == (0, (), ())  # no input: the empty pattern


def test_parse_participation() -> None:
    assert parse_participation("once-per-block:4") == once_per_block(block=4)
    assert parse_participation("min-separation:3,2") == min_separation(separation=3, times=2)
    assert parse_participation("any:2") == any_records(records=2)
    assert parse_participation("fixed-epoch:4,3", "vector") == fixed_epoch(separation=4, times=3,
                                                                          contribution="vector")
    with pytest.raises(ValueError, match="contribution must be one of counts, signed, vector"):
        parse_participation("fixed-epoch:4,3", "gradients")
    with pytest.raises(ValueError, match="participation must be"):
        parse_participation("per-tree")


def test_identity_counter_under_schemes() -> None:
    # release the prefix sums with fresh Gaussian noise on each input (B = W = prefix matrix): Δ² is the pattern
    # size, so any:m gives m, once per block of 4 over 12 steps gives 3, min-separation 5 (at most 2) gives 2
    prefix = kary_prefix_workload(12)
    for scheme, expected in [(any_records(records=3), 3), (once_per_block(block=4), 3),
                             (min_separation(separation=5, times=2), 2)]:
        verdict = audit_linear_noise(prefix, prefix, "gaussian", scale=1, participation=scheme)
        assert verdict.l2_sensitivity_squared == expected and verdict.pattern_maximum is not None
        assert verdict.pattern_maximum.exact and verdict.renyi_verdict(rho=Fraction(expected, 2)).verdict == "holds"
        assert verdict.renyi_verdict(rho=Fraction(expected, 2) - Fraction(1, 10**9)).verdict == "fails"
        laplace = audit_linear_noise(prefix, prefix, "laplace", scale=1, participation=scheme)
        assert laplace.epsilon == expected and laplace.epsilon_exact


def test_participation_refuses_what_it_cannot_decide() -> None:
    prefix = kary_prefix_workload(4)
    with pytest.raises(ValueError, match="add_remove"):
        audit_linear_noise(prefix, prefix, "gaussian", scale=1, participation=any_records(records=2), contributions=2)
    with pytest.raises(TypeError, match="participation must come from"):
        audit_linear_noise(prefix, prefix, "gaussian", scale=1, participation="once-per-block:2")  # type: ignore[arg-type]


def test_cli_participation(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    import json
    from pathlib import Path

    from reference.cli.main import main

    folder = Path(str(tmp_path))
    prefix = [[int(j <= i) for j in range(8)] for i in range(8)]
    (folder / "P.json").write_text(json.dumps(prefix))
    argv = ["audit", "linear-noise", "--noise-matrix", str(folder / "P.json"), "--workload", str(folder / "P.json"),
            "--noise", "gaussian", "--scale", "1", "--participation", "once-per-block:4", "--json"]
    assert main([*argv, "--rho", "1"]) == 0  # Δ² = 2 (two blocks), ρ = 1
    out = json.loads(capsys.readouterr().out)
    assert out["l2_sensitivity_squared"] == "2" and out["pattern_maximum"]["exact"] is True
    assert main([*argv, "--rdp", "2:1.99"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["verdict"] == "fails" and "alpha = 2" in out["claim_reason"]
    assert main([*argv[:-1], "--participation", "min-separation:0,2", "--json"]) == 2
