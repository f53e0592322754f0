"""KaryAppendixC.v computes the Python objects: Algorithm 2's noise counts for even k and Proof C.2's recursion.

Coq evaluates (``Eval vm_compute``; rationals as numerator/denominator pairs) the number of noise values of every
output t = 1..T_h (``noise_indices`` with top digit k/2, Definition C.1's digits) and the printed recursion
``appendix_c_recursion`` for even arities and heights; the values are compared with ``reference.kary.mse``
(``algorithm_2_total_noise_count`` counts by digit sums per t, ``appendix_c_recursion`` sums the printed
increments) and ``appendix_c_horizon``, and the proved identity (the total equals c_h) is evaluated on them.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from reference_verification.coq import Build, run_snippet
from reference_verification.coq_text import parse_coq_value

from reference.kary.mse import algorithm_2_total_noise_count, appendix_c_horizon, appendix_c_recursion

HEADER = """From mathcomp Require Import all_ssreflect ssralg ssrint rat.
From Reference Require Import KaryAlgorithm2 KaryAppendixC.
Local Open Scope ring_scope.
Definition frac (q : rat) := (numq q, denq q).
Definition case (arity height horizon : nat) :=
  (sumn [seq size (noise_indices arity (arity %/ 2) height t) | t <- iota 1 horizon],
   frac (appendix_c_recursion arity height), appendix_c8 arity height).
"""

#: (even arity, height) with the horizon T_h small enough for Coq's unary naturals.
CASES = [(2, 1), (2, 2), (2, 3), (2, 4), (4, 1), (4, 2), (4, 3), (6, 1), (6, 2), (8, 1), (8, 2)]


def _horizon(arity: int, height: int) -> int:
    """T_h from its defining equation 2(k − 1)T_h = k(k^h − 1), independently of the package."""
    numerator = arity * (arity**height - 1)
    assert numerator % (2 * (arity - 1)) == 0
    return numerator // (2 * (arity - 1))


@pytest.fixture(scope="module")
def coq_cases(coq_build: Build) -> dict[tuple[int, int], object]:
    commands = [f"Eval vm_compute in case {arity} {height} {_horizon(arity, height)}." for arity, height in CASES]
    printed = run_snippet(coq_build, HEADER + "\n".join(commands) + "\n", "KaryAppendixCCases")
    values = [parse_coq_value(chunk) for chunk in printed.split("\n     = ") if chunk.strip()]
    assert len(values) == len(CASES), printed[:500]
    return dict(zip(CASES, values))


@pytest.mark.parametrize(("arity", "height"), CASES)
def test_noise_totals_and_recursion_agree(coq_cases: dict[tuple[int, int], object], arity: int, height: int) -> None:
    total, (numerator, denominator), scaled = coq_cases[(arity, height)]  # type: ignore[misc]
    horizon = _horizon(arity, height)
    assert horizon == appendix_c_horizon(arity, height)
    assert total == algorithm_2_total_noise_count(arity, horizon)
    recursion = Fraction(numerator, denominator)
    assert recursion == appendix_c_recursion(arity, height)
    # the closed form of the proof, 8 c_h = Σ_(l=1..h) (k l + 2) k^l, computed here from its formula
    assert scaled == sum((arity * level + 2) * arity**level for level in range(1, height + 1))
    assert 8 * recursion == scaled
    assert total == recursion  # the proved identity, evaluated


def test_the_horizon_matters() -> None:
    """One output past T_h (its value needs a digit above the window) the total no longer equals c_h: the
    theorem's horizon hypothesis is not decorative."""
    arity, height = 4, 2
    horizon = _horizon(arity, height)
    assert algorithm_2_total_noise_count(arity, horizon - 1) != appendix_c_recursion(arity, height)
