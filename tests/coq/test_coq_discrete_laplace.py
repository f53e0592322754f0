"""The Coq discrete Laplace theorems speak about the linear-noise audit's verdicts.

``DiscreteLaplacePrivacy.v`` proves: if W e_j = B u_j with u_j an integer vector for every input j, the release
W x + B z (z i.i.d. discrete Laplace of scale b) is ε-DP for the neighbours x' = x ± e_j with
ε = max_j ‖u_j‖₁/b ([workload_dp_probability]); if some shift is B u for no integer u, one output set has
probability 1 under x and 0 under x' ([lattice_leak_probability], [lattice_leak_not_dp]). Here, on small integer examples:

- the shifts u_j are found independently (every integer vector of a box, the smallest ℓ1 norm among those with
  B u = W e_j, exact rationals), and the audit's ε equals max_j ‖u_j‖₁/b;
- Coq evaluates its own ε ([epsilon], the numerator max_j ‖u_j‖₁ through its [norm1]) on those shifts and proves
  it equal to the audit's ε · b over b — and the instance of [workload_dp_probability] with that ε compiles;
- for a shift outside the lattice the audit's verdict is "fails" for every ε, with a certificate that W e_j is
  B u for no integer u (a functional g with g·B ≡ 0 and g·W e_j ≢ 0 modulo q), which is the hypothesis of
  [lattice_leak].
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from reference_verification.coq import Build, run_snippet

from reference.audit.linear.audit import audit_linear_noise

HEADER = """From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint matrix.
From mathcomp.classical Require Import classical_sets.
From mathcomp.analysis Require Import reals ereal sequences exp.
From Reference Require Import DiscreteLaplacePrivacy.
Local Open Scope ring_scope.
(* the integer shift u_j of input j, read from a list of lists *)
Definition shift (shifts : seq (seq int)) (n j : nat) : 'cV[int]_n := \\col_(i < n) nth 0 (nth [::] shifts j) i.
Lemma numerator shifts n d : (\\max_(j < d) norm1 (shift shifts n j)
  = \\max_(j < d) \\sum_(i < n) absz (nth 0%R (nth [::] shifts j) i))%N.
Proof. by apply: eq_bigr => j _; apply: eq_bigr => i _; rewrite mxE. Qed.
"""

#: (name, B, W, b): the noise matrix (outputs × draws), the workload (outputs × inputs), the scale.
PRIVATE = [
    ("identity noise, a 0/1 workload", [[1, 0, 0], [0, 1, 0], [0, 0, 1]], [[1, 0], [1, 1], [0, 1]], Fraction(3)),
    ("a tree strategy as noise", [[1, 0], [1, 1], [0, 1]], [[1, -1], [3, -1], [2, 0]], Fraction(5, 2)),
    ("a kernel in B: u not unique", [[1, 1]], [[2, 1]], Fraction(1, 2)),
    # KARY: one draw per vertex of the binary tree of height 2 (4 leaves, 2 parents), W the tree strategy R:
    # u_j = R e_j has one 1 per level, so ε = h/b
    ("the KARY tree of arity 2, height 2", [[int(i == k) for k in range(6)] for i in range(6)],
     [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1], [1, 1, 0, 0], [0, 0, 1, 1]], Fraction(2)),
]
#: Shifts outside the lattice: doubled noise (the parity leak) and a half-integer workload.
LEAKING = [
    ("doubled noise", [[2, 0], [0, 2]], [[1, 0], [0, 1]], Fraction(1)),
    ("a half in the workload", [[1, 0], [0, 1]], [[1, 0], [Fraction(1, 2), 1]], Fraction(1)),
]
BOX = 3  # the independent search tries every integer u with |u_i| <= BOX


def _smallest_integer_shift(noise: list[list[int]], column: list[Fraction]) -> tuple[int, ...] | None:
    """The integer u with B u = column and the smallest ℓ1 norm among |u_i| <= BOX (None when there is none)."""
    draws = len(noise[0])
    found = [u for u in itertools.product(range(-BOX, BOX + 1), repeat=draws)
             if all(sum(row[i] * u[i] for i in range(draws)) == entry for row, entry in zip(noise, column))]
    return min(found, key=lambda u: (sum(map(abs, u)), u)) if found else None


def _columns(workload: list[list[int | Fraction]]) -> list[list[Fraction]]:
    return [[Fraction(row[j]) for row in workload] for j in range(len(workload[0]))]


@pytest.mark.parametrize(("name", "noise", "workload", "scale"), PRIVATE)
def test_the_audits_epsilon_is_the_coq_epsilon(
    coq_build: Build, name: str, noise: list[list[int]], workload: list[list[int]], scale: Fraction
) -> None:
    shifts = [_smallest_integer_shift(noise, column) for column in _columns(workload)]
    assert all(u is not None for u in shifts), name
    largest = max(sum(map(abs, u)) for u in shifts if u is not None)
    verdict = audit_linear_noise(noise, workload, "discrete-laplace", scale=scale)
    assert verdict.private and verdict.lattice_leak is None
    assert verdict.epsilon == Fraction(largest) / scale, (name, verdict.epsilon, largest)
    assert verdict.verdict_on(epsilon=Fraction(largest) / scale) == "holds"
    numerator = verdict.epsilon * scale
    assert numerator.denominator == 1
    lists = "[:: " + "; ".join("[:: " + "; ".join(f"({value})%Z" for value in u) + "]" for u in shifts
                                if u is not None) + "]"
    draws, inputs, outputs = len(noise[0]), len(workload[0]), len(noise)
    us = f"(fun j : 'I_{inputs} => shift {lists} {draws} j)"
    snippet = HEADER + f"""
Lemma audit_epsilon (R : realType) (b : R) : epsilon b {us} = {numerator.numerator}%:R / b.
Proof. by rewrite /epsilon numerator !big_ord_recr !big_ord0. Qed.
(* the instance of workload_dp_probability: with these shifts the release is epsilon-DP at the audit's epsilon *)
Lemma audit_dp (R : realType) (W : 'M[R]_({outputs}, {inputs})) (B : 'M[R]_({outputs}, {draws})) (b : R) :
  0 < b -> (forall j, W *m delta_mx j ord0 = noise B ({us} j)) ->
  forall x x', histogram_neighbours x x' -> forall S,
  (probability (fun x => W *m x) B b x S
    <= (expR ({numerator.numerator}%:R / b))%:E * probability (fun x => W *m x) B b x' S)%E.
Proof. by move=> b_gt0 columns x x' xx' S; rewrite -(audit_epsilon R b); exact: workload_dp_probability. Qed.
"""
    run_snippet(coq_build, snippet, "DiscreteLaplaceAudit")
    wrong = snippet.replace(f"= {numerator.numerator}%:R / b.", f"= {numerator.numerator + 1}%:R / b.")
    with pytest.raises(RuntimeError, match="DiscreteLaplaceWrong"):  # a wrong constant is caught by Coq
        run_snippet(coq_build, wrong, "DiscreteLaplaceWrong")


@pytest.mark.parametrize(("name", "noise", "workload", "scale"), LEAKING)
def test_a_shift_outside_the_lattice_fails_for_every_epsilon(
    name: str, noise: list[list[int]], workload: list[list[int | Fraction]], scale: Fraction
) -> None:
    columns = _columns(workload)
    assert any(_smallest_integer_shift(noise, column) is None for column in columns), name
    verdict = audit_linear_noise(noise, workload, "discrete-laplace", scale=scale)
    leak = verdict.lattice_leak
    assert not verdict.private and leak is not None
    for epsilon in (Fraction(1, 10), Fraction(1), Fraction(10**6)):
        assert verdict.verdict_on(epsilon=epsilon) == "fails"  # lattice_leak_not_dp: no epsilon bounds the pair
    # the certificate: g·(B z) is a multiple of q for every integer z, g·(W v) is not, so W v is B u for no
    # integer u — the hypothesis of lattice_leak
    functional, modulus = leak.functional, leak.modulus
    for draw in range(len(noise[0])):
        assert sum(Fraction(g) * row[draw] for g, row in zip(functional, noise)) % modulus == 0
    moved = [sum((Fraction(row[j]) * v for j, v in enumerate(leak.difference)), Fraction(0)) for row in workload]
    assert sum((Fraction(g) * entry for g, entry in zip(functional, moved)), Fraction(0)) % modulus != 0
