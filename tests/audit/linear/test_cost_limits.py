"""The cost limits of the participation maxima, the contribution models, the integer shift search and the Laplace
LP refinement: each, set low, refuses (``bound_work``) or leaves a bracket whose text names the estimate, the
limit and the flag; raised (the defaults), the same input is decided to the value derived by hand."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from reference.audit.linear import elimination
from reference.audit.linear.audit import audit_linear_noise
from reference.audit.linear.laplace_lp import max_shift_norm_of, problem_of_columns
from reference.audit.linear.participation import Participation, any_records, min_separation, once_per_block
from reference.audit.linear.size_limits import SizeLimits
from reference.cli.main import main
from reference.core.options import LinearNoise

# C x + N(0, I): six outputs over five inputs, every Gram entry >= 0
CHAIN = np.array([[1, 0, 0, 0, 0], [1, 1, 0, 0, 0], [0, 1, 1, 0, 0], [0, 0, 1, 1, 0], [0, 0, 0, 1, 1],
                  [1, 0, 0, 0, 1]])
IDENTITY = np.eye(6, dtype=np.int64)
# Q = CᵀC of the columns (1,0,1), (1,1,0), (0,1,-1): Q_00 = Q_11 = Q_22 = 2, Q_01 = Q_12 = 1, Q_02 = -1 (a
# frustrated triangle: no signs make every entry non-negative)
FRUSTRATED = np.array([[1, 1, 0], [0, 1, 1], [1, 0, -1]])


def pattern_value(scheme: Participation) -> Fraction:
    """max over the scheme's patterns S (all of them, by brute force) of 1_Sᵀ CᵀC 1_S for C = CHAIN."""
    import itertools

    gram = CHAIN.T @ CHAIN
    best = 0
    for size in range(1, 6):
        for pattern in itertools.combinations(range(5), size):
            if all(scheme.allows(pattern[:k], pattern[k]) for k in range(1, size)):
                best = max(best, int(gram[np.ix_(pattern, pattern)].sum()))
    return Fraction(best)


def chain_audit(scheme: Participation, limits: SizeLimits) -> object:
    return audit_linear_noise(IDENTITY, CHAIN, "gaussian", scale=1, participation=scheme, size_limits=limits)


def test_enumeration_work() -> None:
    scheme = min_separation(separation=2, times=2)
    truth = pattern_value(scheme)  # 7: inputs 0 and 4 (Q_00 + Q_44 + 2 Q_04 = 3 + 2 + 2)
    assert truth == 7
    bounded = chain_audit(scheme, SizeLimits(enumeration_work=1)).pattern_maximum  # type: ignore[attr-defined]
    assert bounded.lower <= truth < bounded.upper  # the float row bounds' rounding margin: a bracket
    assert "22 steps, over enumeration_work = 1; raise it with --max-enumeration-work" in bounded.method
    exact = chain_audit(scheme, SizeLimits(enumeration_work=22)).pattern_maximum  # type: ignore[attr-defined]
    assert exact.exact and exact.upper == truth and "enumeration of all 11 patterns" in exact.method


def test_bound_work_is_a_refusal() -> None:
    scheme = any_records(records=2)
    with pytest.raises(ValueError, match=r"row bounds need 50 steps, over bound_work = 49; raise it with "
                                         r"--max-bound-work"):  # 5 inputs² × 2
        chain_audit(scheme, SizeLimits(enumeration_work=1, bound_work=49))
    found = chain_audit(scheme, SizeLimits(enumeration_work=1, bound_work=50)).pattern_maximum  # type: ignore[attr-defined]
    assert found.exact and found.upper == pattern_value(scheme)


def test_vector_bound_work() -> None:
    scheme = min_separation(separation=2, times=2)
    with pytest.raises(ValueError, match=r"--max-bound-work .*50 steps, over vector_bound_work = 1; raise it "
                                         r"with --max-vector-bound-work"):
        chain_audit(scheme, SizeLimits(enumeration_work=1, bound_work=1, vector_bound_work=1))
    found = chain_audit(scheme, SizeLimits(enumeration_work=1, bound_work=1,
                                           vector_bound_work=50)).pattern_maximum  # type: ignore[attr-defined]
    assert "vectorised" in found.method and found.lower == pattern_value(scheme) <= found.upper


def test_improve_work() -> None:
    scheme = once_per_block(block=2)
    truth = pattern_value(scheme)  # 11, by brute force over the 17 patterns (one input per block of two)
    unimproved = chain_audit(scheme, SizeLimits(enumeration_work=1, improve_work=1)).pattern_maximum  # type: ignore[attr-defined]
    assert unimproved.lower < truth == unimproved.upper
    assert "single swaps skipped: 180 steps per round, over improve_work = 1; raise it with --max-improve-work" in (
        unimproved.method)
    improved = chain_audit(scheme, SizeLimits(enumeration_work=1, improve_work=180)).pattern_maximum  # type: ignore[attr-defined]
    assert improved.exact and improved.upper == truth


def frustrated_audit(model: str, limits: SizeLimits) -> object:
    return audit_linear_noise(np.eye(3, dtype=np.int64), FRUSTRATED, "gaussian", scale=1,
                              participation=any_records(records=3, contribution=model),  # type: ignore[arg-type]
                              size_limits=limits)


def test_sign_enumeration() -> None:
    # signed: max over s of sᵀQs = 6 + 2 max(s0s1 + s1s2 − s0s2) = 6 + 2 = 8 (three of the four sign classes)
    few = frustrated_audit("signed", SizeLimits(enumeration_work=1, sign_enumeration=1)).pattern_maximum  # type: ignore[attr-defined]
    assert "a pattern of 3 inputs, over sign_enumeration = 1; raise it with --max-sign-enumeration" in few.method
    assert few.lower == 8 and few.upper == 12  # the upper bound sum |Q_ij| = 6 + 6
    enumerated = frustrated_audit("signed", SizeLimits(enumeration_work=1, sign_enumeration=3)).pattern_maximum  # type: ignore[attr-defined]
    assert "--max-sign-enumeration" not in enumerated.method and enumerated.lower == 8
    assert frustrated_audit("signed", SizeLimits()).pattern_maximum.upper == 8  # type: ignore[attr-defined]


def test_sdp_size_and_patterns() -> None:
    # vector: unit vectors at 60° (g01 = g12 = 1/2, g02 = −1/2) give 6 + 2·3/2 = 9, the SDP optimum
    small = frustrated_audit("vector", SizeLimits(sdp_size=2)).pattern_maximum  # type: ignore[attr-defined]
    assert small.lower == 8 and small.upper == 12
    assert "a pattern of 3 inputs, over sdp_size = 2; raise it with --max-sdp-size" in small.method
    raised = frustrated_audit("vector", SizeLimits(sdp_size=3)).pattern_maximum  # type: ignore[attr-defined]
    assert raised.lower <= 9 <= raised.upper and raised.upper - raised.lower < Fraction(1, 10**9)
    # two frustrated triples over four inputs (sum |Q_ij| = 14 on the largest): one bracketed, the second stopped
    workload = np.array([[1, 1, 0, 0], [0, 1, 1, 0], [1, 0, -1, 0], [0, 1, 0, 1], [0, 0, 1, -1]])

    def vector(limits: SizeLimits) -> object:
        return audit_linear_noise(np.eye(5, dtype=np.int64), workload, "gaussian", scale=1,
                                  participation=any_records(records=3, contribution="vector"),
                                  size_limits=limits).pattern_maximum

    one = vector(SizeLimits(sdp_patterns=1))
    assert one.upper == 14 and "2 patterns, over sdp_patterns = 1; raise it with --max-sdp-patterns" in one.method  # type: ignore[attr-defined]
    two = vector(SizeLimits(sdp_patterns=2))
    assert two.upper - two.lower < Fraction(1, 10**9) and "--max-sdp-patterns" not in two.method  # type: ignore[attr-defined]


def test_shift_points() -> None:
    # outputs z1 + z2 and z2 + z3 (kernel (1, −1, 1)); each input's smallest integer shift has norm 1 (e_1 or e_3)
    noise, workload = [[1, 1, 0], [0, 1, 1]], [[1, 0], [0, 1]]
    boxed = audit_linear_noise(noise, workload, "discrete-laplace", scale=2, size_limits=SizeLimits(shift_points=2))
    assert "3 kernel combinations, over shift_points = 2; raise it with --max-shift-points" in boxed.explanation
    searched = audit_linear_noise(noise, workload, "discrete-laplace", scale=2, size_limits=SizeLimits(shift_points=3))
    assert searched.epsilon == Fraction(1, 2) and "the largest smallest integer shift, exact" in searched.explanation


def test_slackness_support() -> None:
    # B = H⁺ of a binary tree over 8 leaves computed in floats (read exactly); from the elimination's solution
    # (pivots on rounding debris) the bracket on min ‖u‖₁ (ideally 4, leaf 0's path) is wide until refined
    rows = [[int(start <= j < start + size) for j in range(8)] for size in (8, 4, 2, 1) for start in range(0, 8, size)]
    pseudo = np.linalg.pinv(np.array(rows, dtype=float))
    columns = elimination.sparse_columns(tuple(tuple(Fraction(v) for v in row) for row in pseudo.tolist()))
    target = {0: Fraction(1)}
    reduction = elimination.eliminate(columns, [target], 8, integral=False, track=True)
    assert reduction.solutions is not None

    def bracket(limits: SizeLimits) -> tuple[Fraction, Fraction, str]:
        problem = problem_of_columns(columns, 8, limits=limits)
        lower, upper = max_shift_norm_of(problem, [target], [reduction.solutions[0]])  # type: ignore[index]
        return lower, upper, problem.skipped_note()

    lower, upper, note = bracket(SizeLimits(slackness_support=7))
    assert upper - lower > upper * Fraction(1, 10**9)
    assert "8 columns, over slackness_support = 7; raise it with --max-slackness-support" in note
    lower, upper, note = bracket(SizeLimits(slackness_support=8))
    assert note == "" and abs(upper - 4) < Fraction(1, 10**12) and upper - lower < upper * Fraction(1, 10**12)


def test_the_command_line_flags(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    np.save(tmp_path / "I.npy", IDENTITY)
    np.save(tmp_path / "C.npy", CHAIN)
    argv = ["audit", "linear-noise", "--noise-matrix", str(tmp_path / "I.npy"), "--workload",
            str(tmp_path / "C.npy"), "--noise", "gaussian", "--scale", "1", "--participation", "any:2",
            "--rho", "7/2", "--json", "--max-enumeration-work", "1"]
    assert main([*argv, "--max-bound-work", "49"]) == 2
    error = capsys.readouterr().err.strip()
    assert "\n" not in error and "50 steps, over bound_work = 49; raise it with --max-bound-work" in error
    assert main([*argv, "--max-bound-work", "50"]) == 0  # Δ² = 7, ρ = 7/2: holds
    assert json.loads(capsys.readouterr().out)["rho"] == "7/2"


def test_an_inconclusive_command_line_verdict_names_the_flag_that_decides_it(tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture[str]) -> None:
    # once per block of 2 over the chain: Δ² = 11 exactly (brute force); without swaps the bracket is [9, 11], so a
    # claim of ρ = 5 (Δ² = 10) is undecided, and decided (fails) once the swaps run
    np.save(tmp_path / "I.npy", IDENTITY)
    np.save(tmp_path / "C.npy", CHAIN)
    argv = ["audit", "linear-noise", "--noise-matrix", str(tmp_path / "I.npy"), "--workload",
            str(tmp_path / "C.npy"), "--noise", "gaussian", "--scale", "1", "--participation", "once-per-block:2",
            "--rho", "5", "--json", "--max-enumeration-work", "1"]
    assert main([*argv, "--max-improve-work", "1"]) == 3
    assert "raise it with --max-improve-work" in capsys.readouterr().out
    assert main([*argv, "--max-improve-work", "180"]) == 1
    assert json.loads(capsys.readouterr().out)["rho"] == "11/2"


def test_enumerated_shifts() -> None:
    # the instance of test_shift_points: two differences, each with smallest integer shift of norm 1 (ε = 1/2)
    noise, workload = [[1, 1, 0], [0, 1, 1]], [[1, 0], [0, 1]]
    bounded = audit_linear_noise(noise, workload, "discrete-laplace", scale=2,
                                 size_limits=SizeLimits(enumerated_shifts=1))
    assert "2 differences to minimise over, over enumerated_shifts = 1; raise it with --max-enumerated-shifts" in \
        bounded.explanation
    searched = audit_linear_noise(noise, workload, "discrete-laplace", scale=2,
                                  size_limits=SizeLimits(enumerated_shifts=2))
    assert searched.epsilon == Fraction(1, 2) and "--max-enumerated-shifts" not in searched.explanation


@pytest.mark.parametrize(("noise", "path"), [
    (np.eye(2, dtype=np.int64), "the compiled LU path (B square, unit pivots)"),
    (np.array([[1, 1, 0], [0, 1, 1]]), "the sparse elimination (B has a kernel)"),
    (np.zeros((2, 2), dtype=np.int64), "the zero-matrix path"),
])
def test_strategy_entries(noise: np.ndarray, path: str) -> None:
    workload = np.eye(2, dtype=np.int64) if noise.any() else np.zeros((2, 2), dtype=np.int64)  # B = W = 0: private
    entries = noise.shape[1] * 2  # draws × inputs
    kind: LinearNoise = "laplace" if not noise.any() else "gaussian"
    full = audit_linear_noise(noise, workload, kind, scale=1, size_limits=SizeLimits(strategy_entries=entries))
    omitted = audit_linear_noise(noise, workload, kind, scale=1, size_limits=SizeLimits(strategy_entries=entries - 1))
    assert full.strategy is not None and omitted.strategy is None, path
    assert full.l2_sensitivity_squared == omitted.l2_sensitivity_squared, path
    if noise.any():  # B A = W for the strategy returned
        assert all(sum(noise[i][k] * full.strategy[k][j] for k in range(noise.shape[1])) == workload[i][j]
                   for i in range(2) for j in range(2))


def test_flint_outputs() -> None:
    # a float-built B (three outputs): the dense FLINT solve by default, the sparse elimination when the limit is
    # below its outputs; the same exact Δ² either way
    generator = np.random.default_rng(7)
    noise, workload = generator.normal(size=(3, 4)), np.eye(3)
    dense = audit_linear_noise(noise, workload, "gaussian", scale=1)
    sparse = audit_linear_noise(noise, workload, "gaussian", scale=1, size_limits=SizeLimits(flint_outputs=2))
    assert "integer arithmetic" in dense.explanation and "integer arithmetic" not in sparse.explanation
    assert dense.l2_sensitivity_squared == sparse.l2_sensitivity_squared


def test_the_new_flags_reach_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the instance of test_enumerated_shifts from files: the smallest shifts not searched with
    # --max-enumerated-shifts 1 (the explanation names the flag), searched with the default
    np.save(tmp_path / "B.npy", np.array([[1, 1, 0], [0, 1, 1]]))
    np.save(tmp_path / "W.npy", np.eye(2, dtype=np.int64))
    argv = ["audit", "linear-noise", "--noise-matrix", str(tmp_path / "B.npy"), "--workload", str(tmp_path / "W.npy"),
            "--noise", "discrete-laplace", "--scale", "2", "--epsilon", "3/4", "--json",
            "--max-strategy-entries", "1", "--max-flint-outputs", "1"]
    assert main([*argv, "--max-enumerated-shifts", "1"]) == 0
    assert "raise it with --max-enumerated-shifts" in capsys.readouterr().out
    assert main(argv) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["epsilon_upper"] == "1/2" and "--max-enumerated-shifts" not in printed["explanation"]
    for flag in ("--max-enumerated-shifts", "--max-strategy-entries", "--max-flint-outputs"):
        with pytest.raises(SystemExit) as refused:
            main([*argv, flag, "0"])
        assert refused.value.code == 2 and "expected a positive integer" in capsys.readouterr().err
