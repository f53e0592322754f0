"""TdaErrorStep.v computes the Python objects: IntOpt's output, the ℓ∞ distances and the comparison vector w.

Coq evaluates ``intopt_literal`` (IntOpt.v's loop in the Python tie order, with the proved iteration bound as fuel),
``chebyshev`` and ``adjust`` on seeded inputs (noisy y, true counts x >= 0, total c >= 0) and the values are compared
with ``reference.tda.intopt.intopt`` and ``chebyshev_distance``; the proved error step
‖x − IntOpt(y, c)‖∞ <= 2‖y − x‖∞ + |c − Σx| is then evaluated on them, with the case x = (0, 1, 1), y = (1, 0, 0),
c = 2, where the factor 2 is needed (‖x − IntOpt(y, c)‖∞ = 2 > ‖y − x‖∞ + |c − Σx| = 1).
"""

from __future__ import annotations

import random

from reference_verification.coq import Build, run_snippet
from reference_verification.coq_text import parse_coq_value

from reference.tda.intopt import chebyshev_distance, intopt

HEADER = """From mathcomp Require Import all_ssreflect ssralg ssrint.
From Reference Require Import IntOpt TdaErrorStep.
Local Open Scope ring_scope.
Definition case (y x : seq int) (c : int) :=
  (intopt_literal y c, adjust x c, chebyshev y x,
   if intopt_literal y c is Some z then chebyshev x z else 0).
"""


def _cases() -> list[tuple[list[int], list[int], int]]:
    generator = random.Random(20261128)
    cases = [([1, 0, 0], [0, 1, 1], 2), ([3, -2, 5], [1, 0, 2], 1), ([3, -2, 5], [1, 0, 2], 6), ([-4], [0], 0)]
    for _ in range(24):
        size = generator.randint(1, 4)
        cases.append(([generator.randint(-3, 5) for _ in range(size)], [generator.randint(0, 4) for _ in range(size)],
                      generator.randint(0, 9)))
    return cases


def _coq_ints(values: list[int]) -> str:
    return "[:: " + "; ".join(f"({value})%:Z" if value >= 0 else f"(- ({-value})%:Z)" for value in values) + "]"


def test_error_step_objects_agree_with_python(coq_build: Build) -> None:
    cases = _cases()
    commands = [f"Eval vm_compute in case {_coq_ints(y)} {_coq_ints(x)} ({c})%:Z." for y, x, c in cases]
    printed = run_snippet(coq_build, HEADER + "\n".join(commands) + "\n", "TdaErrorStep")
    values = [parse_coq_value(chunk) for chunk in printed.split("\n     = ") if chunk.strip()]
    assert len(values) == len(cases), printed[:500]
    for (y, x, c), value in zip(cases, values):
        output, adjusted, noise_distance, error = value  # type: ignore[misc]
        assert output == list(intopt(y, c))
        assert noise_distance == chebyshev_distance(y, x)
        assert error == chebyshev_distance(x, output)
        # w: non-negative, total c, within |c − Σx| of x (the comparison vector of the proof)
        assert len(adjusted) == len(x) and min(adjusted) >= 0 and sum(adjusted) == c
        assert chebyshev_distance(x, adjusted) <= abs(c - sum(x))
        assert error <= 2 * noise_distance + abs(c - sum(x))  # the proved step, evaluated
    y, x, c = cases[0]
    assert chebyshev_distance(x, intopt(y, c)) > chebyshev_distance(y, x) + abs(c - sum(x))
