"""CipRangeSampling.v computes the Python objects: the law of CIP Appendix E.5's range sampler.

Coq evaluates its scheme (``sample_range n``, the coin and the two uniform choices in a finite distribution monad;
rationals printed as numerator/denominator pairs) for n = 1..6: the probability of every range, the scheme's whole
mass and the number of ranges. They are compared with the exact law of the numeric sampler's draws
(``reference.cip.exact.errors.sample_ranges_law``, which draws its pair as an ordered first cell and a skipped-over
second, unlike Coq's unordered pair) and with 1/#ranges counted from ``range_bounds``; a changed coin (P(heads) =
1/(n + 1)), evaluated by the same Coq definitions, is not uniform, so the comparison can fail.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from reference_verification.coq import Build, run_snippet
from reference_verification.coq_text import parse_coq_value

from reference.cip.exact import errors as cip_errors

HEADER = """From mathcomp Require Import all_ssreflect ssralg ssrint rat.
From Reference Require Import CipRangeSampling.
Local Open Scope ring_scope.
Definition frac (q : rat) := (numq q, denq q).
Definition law (d : dist (nat * nat)) (n : nat) := [seq (r, frac (prob d (pred1 r))) | r <- ranges n].
(* the same scheme with P(heads) = 1/(n + 1): a control that is not uniform *)
Definition wrong_coin (n : nat) : dist (nat * nat) :=
  bind (coin (1 / n.+1%:R)) (fun heads =>
    if heads then bind (uniform (cells n)) (fun c => ret (c, c))
    else bind (uniform (pairs n)) (fun ab => ret (span ab))).
"""

LENGTHS = (1, 2, 3, 4, 5, 6)


def _evaluate(coq_build: Build, commands: list[str], name: str) -> list[object]:
    printed = run_snippet(coq_build, HEADER + "\n".join(commands) + "\n", name)
    values = [parse_coq_value(chunk) for chunk in printed.split("\n     = ") if chunk.strip()]
    assert len(values) == len(commands), printed[:500]
    return values


def _law(printed: object) -> dict[tuple[int, int], Fraction]:
    return {(first, last): Fraction(numerator, denominator) for first, last, (numerator, denominator) in printed}  # type: ignore[attr-defined]


@pytest.mark.parametrize("length", LENGTHS)
def test_range_law_agrees_with_python(coq_build: Build, length: int) -> None:
    """Each range's probability, the whole mass and the count, as Coq computes them, equal the Python exact law
    and 1/#ranges; the proved statements (every range 2/(n(n+1)), sum 1) hold on them."""
    law, mass, count, wrong = _evaluate(coq_build, [
        f"Eval vm_compute in law (sample_range {length}) {length}.",
        f"Eval vm_compute in frac (prob (sample_range {length}) predT).",
        f"Eval vm_compute in size (ranges {length}).",
        f"Eval vm_compute in law (wrong_coin {length}) {length}.",
    ], f"CipRangeSampling{length}")
    coq_law = _law(law)
    bounds = list(cip_errors.range_bounds(length))
    assert sorted(coq_law) == sorted(bounds) and count == len(bounds)
    assert coq_law == cip_errors.sample_ranges_law(length)
    assert set(coq_law.values()) == {Fraction(1, len(bounds))}
    assert Fraction(*mass) == 1 == sum(coq_law.values())  # type: ignore[misc]
    assert len(bounds) * 2 == length * (length + 1)
    wrong_law = _law(wrong)
    assert (len(set(wrong_law.values())) > 1) == (length > 1)  # n = 1 has one range, whatever the coin
    assert cip_errors.sample_ranges_law(length) != wrong_law or length == 1
