"""TdaIntOptBound.v computes the Python objects: IntOpt's line 2 start, the ceiling bound and the optimal distance.

Coq evaluates IntOpt.v's ``z_start`` (line 2), ``maxabs``, ``ceil_div`` of |c − Σx| by d, ``max0`` of −x and
``chebyshev`` of x and the loop's output (``intopt_literal``) on seeded inputs; the values are compared with
``reference.tda.intopt`` (``initial_state``, ``ceil_div``, ``intopt``, ``chebyshev_distance``), and the proved
statements (footnote 4, the start's norm bound, the lower bound on the optimum) are evaluated on them, with an input
where the bound is not attained (x = (4, 0), c = 0: bound 2, optimum 4).
"""

from __future__ import annotations

import random

from reference_verification.coq import Build, run_snippet
from reference_verification.coq_text import parse_coq_value

from reference.tda.intopt import ceil_div, chebyshev_distance, initial_state, intopt

HEADER = """From mathcomp Require Import all_ssreflect ssralg ssrint.
From Reference Require Import IntOpt TdaIntOptBound.
Local Open Scope ring_scope.
Definition case (x : seq int) (c : int) :=
  (z_start x c, sumz (z_start x c), maxabs (z_start x c), ceil_div `|deficit x c| (size x),
   max0 [seq - v | v <- x], if intopt_literal x c is Some y then chebyshev x y else -1).
"""


def _cases() -> list[tuple[list[int], int]]:
    generator = random.Random(20261128)
    cases = [([4, 0], 0), ([-3, 5, 1], 2), ([2, 2, 2], 9), ([-5], 0), ([0, -1, -2, 7], 3)]
    for _ in range(20):
        size = generator.randint(1, 4)
        cases.append(([generator.randint(-4, 6) for _ in range(size)], generator.randint(0, 9)))
    return cases


def _coq_ints(values: list[int]) -> str:
    return "[:: " + "; ".join(f"({value})%:Z" if value >= 0 else f"(- ({-value})%:Z)" for value in values) + "]"


def test_bound_objects_agree_with_python(coq_build: Build) -> None:
    cases = _cases()
    commands = [f"Eval vm_compute in case {_coq_ints(x)} ({c})%:Z." for x, c in cases]
    printed = run_snippet(coq_build, HEADER + "\n".join(commands) + "\n", "TdaIntOptBound")
    values = [parse_coq_value(chunk) for chunk in printed.split("\n     = ") if chunk.strip()]
    assert len(values) == len(cases), printed[:500]
    for (x, c), value in zip(cases, values):
        start, start_sum, start_norm, ceiling, negative_max, optimum = value  # type: ignore[misc]
        deficit, z, t = initial_state(tuple(x), c)
        assert start == z and start_sum == sum(z) and start_norm == t
        assert ceiling == ceil_div(abs(deficit), len(x))
        assert negative_max == max([0, *(-v for v in x)])
        assert optimum == chebyshev_distance(x, intopt(x, c))
        # the proved statements, evaluated: footnote 4, the start's norm, the lower bound on the optimum
        assert start_sum >= deficit
        assert start_norm <= max(ceiling, negative_max)
        assert len(x) * optimum >= abs(deficit) and optimum >= ceiling and optimum >= -min(x)
    x, c = cases[0]
    _, _, _, ceiling, negative_max, optimum = values[0]  # type: ignore[misc]
    assert (max(ceiling, negative_max), optimum) == (2, 4)  # the bound is a bound, not the optimum
