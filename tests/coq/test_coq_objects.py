"""The Coq definitions compute the same objects as the Python exact layer, so the theorems speak about them.

Coq evaluates its definitions on small parameters (``Eval vm_compute``) and prints them; the printed values are
read back and compared with the Python functions' outputs on every input of the range.
"""

from __future__ import annotations

import pytest
from reference_verification.coq import Build, run_snippet
from reference_verification.coq_text import parse_coq_value

from reference.kary import digits as kary_digits

HEADER = """From mathcomp Require Import all_ssreflect ssralg ssrint.
From Reference Require Import KaryDigits.
Local Open Scope ring_scope.
Definition int_range (a b : int) : seq int := [seq a + Posz i | i <- iota 0 (absz (b - a)).+1].
Definition table (arity low : int) (width : nat) :=
  let lowest := low * repunit arity width in
  let highest := (low + arity - 1) * repunit arity width in
  (lowest, highest, [seq (t, rep arity low width t) | t <- int_range lowest highest]).
"""

WIDTH = 3
#: (kind, arity, the window's lowest digit): the digit sets of Definitions 3.2, 3.8 and C.1.
CASES = [
    ("standard", 2, 0),
    ("standard", 3, 0),
    ("standard", 5, 0),
    ("odd", 3, -1),
    ("odd", 5, -2),
    ("odd", 7, -3),
    ("even", 2, 0),
    ("even", 4, -1),
    ("even", 6, -2),
]


def _python_digits(kind: str, value: int, arity: int) -> tuple[int, ...]:
    if kind == "standard":
        return kary_digits.digits(value, arity, WIDTH)
    if kind == "odd":
        return kary_digits.offset_digits(value, arity, WIDTH)
    return kary_digits.even_offset_digits(value, arity, WIDTH)


def _python_range(kind: str, arity: int) -> tuple[int, int]:
    """The range each Python function accepts, read off its validation (the values just outside are refused)."""
    top = {"standard": arity**WIDTH - 1}.get(kind, kary_digits.offset_capacity(arity, WIDTH))
    low = 0 if kind == "standard" else -((arity - 1) // 2) * ((arity**WIDTH - 1) // (arity - 1))
    for outside in (low - 1, top + 1):
        with pytest.raises(ValueError):
            _python_digits(kind, outside, arity)
    return low, top


@pytest.fixture(scope="module")
def coq_tables(coq_build: Build) -> dict[tuple[str, int], object]:
    commands = [f"Eval vm_compute in table {arity} ({low}) {WIDTH}." for _, arity, low in CASES]
    printed = run_snippet(coq_build, HEADER + "\n".join(commands) + "\n", "KaryTables")
    values = [chunk for chunk in printed.split("\n     = ") if chunk.strip()]
    assert len(values) == len(CASES), printed[:500]
    return {(kind, arity): parse_coq_value(value) for (kind, arity, _), value in zip(CASES, values)}


@pytest.mark.parametrize(("kind", "arity", "low"), CASES)
def test_digits_of_every_value_agree(coq_tables: dict[tuple[str, int], object], kind: str, arity: int, low: int) -> None:
    lowest, highest, table = coq_tables[(kind, arity)]  # type: ignore[misc]
    assert (lowest, highest) == _python_range(kind, arity)
    assert [t for t, _ in table] == list(range(lowest, highest + 1))
    for value, coq_digits in table:
        assert tuple(coq_digits) == _python_digits(kind, value, arity), (kind, arity, value)
        assert all(low <= digit <= low + arity - 1 for digit in coq_digits)


INTOPT_HEADER = """From mathcomp Require Import all_ssreflect ssralg ssrint.
From Reference Require Import IntOpt IntOptFast.
Local Open Scope ring_scope.
(* the number of iterations the printed loop makes (at most [fuel]) *)
Fixpoint iterations x c order (fuel : nat) (s : state) : nat :=
  if running x c s then (if fuel is f.+1 then (iterations x c order f (step x c order s)).+1 else 0%N) else 0%N.
Definition intopt_table (x : seq int) (c : int) :=
  (intopt_literal x c, iterations x c (tie_order x) (iteration_bound x c) (start x c),
   intopt_fast x c (tie_order x)).
"""

#: (noisy counts x, total c): ties, negative entries, c = 0, a total far below and far above sum(x), d = 1.
INTOPT_CASES = [
    ((0, 0), 1),
    ((3, -2, 5, 0), 4),
    ((10, 0, 0), 0),
    ((5, 5), 0),
    ((4, 4), 6),
    ((-3, -1, 2), 10),
    ((7,), 3),
    ((2, 2, 2, 2), 3),
    ((1, -4, 9, 0, 3), 2),
    ((0, 0, 0), 0),
    ((-5, 12, 3), 25),
    ((6, -6, 6, -6), 5),
]


def test_intopt_agrees_with_python(coq_build: Build) -> None:
    from reference.tda.intopt import intopt, intopt_literal_with_count

    def coq_list(values: tuple[int, ...]) -> str:
        return "[:: " + "; ".join(f"({v})" for v in values) + "]"

    commands = [f"Eval vm_compute in intopt_table {coq_list(x)} ({c})." for x, c in INTOPT_CASES]
    printed = run_snippet(coq_build, INTOPT_HEADER + "\n".join(commands) + "\n", "IntOptTable")
    values = [chunk for chunk in printed.split("\n     = ") if chunk.strip()]
    assert len(values) == len(INTOPT_CASES), printed[:500]
    for (x, c), value in zip(INTOPT_CASES, values):
        output, iterations, fast = parse_coq_value(value)  # type: ignore[misc]
        trace = intopt_literal_with_count(x, c)
        assert tuple(output) == trace.output == tuple(fast) == intopt(x, c), (x, c)
        assert iterations == trace.iterations, (x, c)


CIP_HEADER = """From mathcomp Require Import all_ssreflect ssralg ssrint rat.
From Reference Require Import CipMatrix.
Local Open Scope ring_scope.
(* a rational as (numerator, denominator), which the test reads back exactly *)
Definition frac (q : rat) := (numq q, denq q).
Definition table (f : nat -> nat -> rat) (depth : nat) :=
  [seq [seq frac (f i j) | j <- iota 0 (2 ^ depth)] | i <- iota 0 (2 ^ depth)].
"""


@pytest.mark.parametrize("depth", [0, 1, 2, 3])
def test_cip_matrices_agree_with_python(coq_build: Build, depth: int) -> None:
    """C_depth, Lemma B.2's X_depth and the lowest-common-ancestor heights, entry by entry."""
    from fractions import Fraction

    from reference.cip.exact import matrix as cip_matrix

    commands = [
        f"Eval vm_compute in table (cov {depth}) {depth}.",
        f"Eval vm_compute in table (prec {depth}) {depth}.",
        f"Eval vm_compute in [seq [seq lca {depth} i j | j <- iota 0 (2 ^ {depth})] | i <- iota 0 (2 ^ {depth})].",
    ]
    printed = run_snippet(coq_build, CIP_HEADER + "\n".join(commands) + "\n", f"CipTable{depth}")
    values = [parse_coq_value(chunk) for chunk in printed.split("\n     = ") if chunk.strip()]
    assert len(values) == 3, printed[:500]
    cov, prec, heights = values

    def as_fractions(table: object) -> tuple[tuple[Fraction, ...], ...]:
        return tuple(tuple(Fraction(p, q) for p, q in row) for row in table)  # type: ignore[attr-defined]

    assert as_fractions(cov) == cip_matrix.covariance(depth)
    assert as_fractions(prec) == cip_matrix.inverse_by_lemma_b2(depth) == cip_matrix.inverse_by_elimination(depth)
    size = 2**depth
    assert heights == [[cip_matrix.lca_height(i, j) for j in range(size)] for i in range(size)]
    for i in range(size):
        for j in range(size):
            assert Fraction(*prec[i][j]) == cip_matrix.precision_entry_from_height(depth, heights[i][j])


SENSITIVITY_HEADER = """From mathcomp Require Import all_ssreflect.
From Reference Require Import KarySensitivity.
(* the rows of R over the vertices whose first leaf is at most T: (level, index, [covers t | t = 1..T]) *)
Definition rows (arity height horizon : nat) :=
  flatten [seq [seq (l.+1, j, [seq covers arity l j t | t <- iota 1 horizon])
                 | j <- iota 0 (arity ^ (height - l)) & used arity l j horizon]
          | l <- iota 0 height].
"""

#: (arity, height, horizon) with horizon <= arity**height - 1 (Algorithm 1's capacity): full and truncated trees.
SENSITIVITY_CASES = [(2, 3, 7), (2, 3, 5), (3, 2, 8), (3, 2, 6), (4, 2, 11), (5, 2, 13)]


def test_tree_strategy_agrees_with_python(coq_build: Build) -> None:
    """Coq's vertices cover the leaves Python's vertex_interval says; Python's R is a subset of Coq's rows; every
    column of Coq's rows has exactly h ones (the proved theorem, evaluated) and Python's columns at most h."""
    from reference.kary import tree as kary_tree

    commands = [f"Eval vm_compute in rows {k} {h} {horizon}." for k, h, horizon in SENSITIVITY_CASES]
    printed = run_snippet(coq_build, SENSITIVITY_HEADER + "\n".join(commands) + "\n", "KaryRows")
    values = [parse_coq_value(chunk) for chunk in printed.split("\n     = ") if chunk.strip()]
    assert len(values) == len(SENSITIVITY_CASES), printed[:500]
    for (arity, height, horizon), rows in zip(SENSITIVITY_CASES, values):
        coq_rows = {}
        for level, index, covered in rows:  # type: ignore[attr-defined]
            first, last = kary_tree.vertex_interval((level, index), arity)
            assert first <= horizon
            assert list(covered) == [first <= t <= last for t in range(1, horizon + 1)]
            coq_rows[(level, index)] = [int(bit) for bit in covered]
        assert all(sum(row[t] for row in coq_rows.values()) == height for t in range(horizon))
        python_vertices = kary_tree.used_vertices(arity, height, subtraction=False, horizon=horizon)
        assert set(python_vertices) <= set(coq_rows)
        python_matrix = kary_tree.strategy_matrix(arity, height, subtraction=False, horizon=horizon)
        assert python_matrix == [coq_rows[vertex] for vertex in python_vertices]


SUMS_HEADER = """From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint.
From Reference Require Import KaryDigits KarySums.
Local Open Scope ring_scope.
(* the same sums as the theorems, with folds (MathComp's big sums do not reduce under vm_compute) *)
Definition l1 (s : seq int) : int := foldr (fun d acc => `|d| + acc) 0 s.
Definition total (arity low : int) (height : nat) (a b : int) : int :=
  foldr (fun t acc => l1 (rep arity low height t) + acc) 0 (int_range a b).
"""


@pytest.mark.parametrize(("arity", "height"), [(2, 1), (2, 4), (3, 3), (5, 2), (7, 2), (4, 3)])
def test_kary_sums_agree_with_python(coq_build: Build, arity: int, height: int) -> None:
    """Coq's digit-norm sums over the maximal horizon equal the Python digit functions' and the proved identities."""
    from reference.kary import digits as kary_digits
    from reference.kary import mse as kary_mse

    top = arity**height - 1
    commands = [f"Eval vm_compute in total {arity} 0 {height} 0 {top}."]
    odd = arity % 2 == 1
    if odd:
        half, bound = (arity - 1) // 2, (arity**height - 1) // 2
        commands.append(f"Eval vm_compute in total {arity} (-{half}) {height} (-{bound}) {bound}.")
    printed = run_snippet(coq_build, SUMS_HEADER + "\n".join(commands) + "\n", "KarySumsTable")
    values = [parse_coq_value(chunk) for chunk in printed.split("\n     = ") if chunk.strip()]
    standard = values[0]
    assert standard == sum(sum(kary_digits.digits(t, arity, height)) for t in range(top + 1))
    assert standard == kary_mse.algorithm_1_total_vertex_count(arity, top)
    assert 2 * standard == height * (arity - 1) * arity**height  # lemma_3_5_sum
    if odd:
        offset = values[1]
        assert offset == sum(
            sum(abs(d) for d in kary_digits.offset_digits(t, arity, height)) for t in range(-bound, bound + 1)
        )
        assert offset == 2 * sum(kary_digits.algorithm_2_noise_count(t, arity, height) for t in range(1, bound + 1))
        assert 4 * offset == height * (arity**2 - 1) * arity ** (height - 1)  # lemma_4_7_sum


RANGE_MAX_HEADER = """From mathcomp Require Import all_ssreflect ssralg ssrint rat.
From Reference Require Import CipMatrix CipRangeMax CipRangeAll.
Local Open Scope ring_scope.
Definition frac (q : rat) := (numq q, denq q).
(* pv K l and rv D x len are big sums, which vm_compute does not unfold (bigop is locked): the same block sum as a fold *)
Definition fold_sum (f : nat -> rat) (n : nat) := foldr (fun i acc => f i + acc) 0 (iota 0 n).
Definition block_sum (K l : nat) := fold_sum (fun i => fold_sum (fun j => cov K i j) l) l.
(* per K: the prefix variances by block sums of cov and by the digit programme, A K, and 2 alpha K - a K ^ 2,
   the crossing maximum (crossing_maximum_attained) *)
Definition range_table (K : nat) :=
  ([seq frac (block_sum K l) | l <- iota 0 (2 ^ K).+1], [seq frac (phi K l) | l <- iota 0 (2 ^ K).+1],
   A K, frac (2%:R * alpha K - a K * a K)).
(* every range x .. x + len - 1 of C_D: (x, len, the block sum as a fold, as rv's body reads) and cbound D *)
Definition block_at (D x len : nat) := fold_sum (fun i => fold_sum (fun j => cov D (x + i) (x + j)) len) len.
Definition all_ranges_table (D : nat) :=
  ([seq (x, len, frac (block_at D x len)) | x <- iota 0 (2 ^ D), len <- iota 1 (2 ^ D - x)], frac (cbound D)).
"""


@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_cip_range_maximum_objects_agree_with_python(coq_build: Build, level: int) -> None:
    """Coq's prefix variances (block sums of cov and the digit programme), its maximising point A K and the
    crossing maximum, against the Python exact layer (Haar range variances, the sweep over halves)."""
    from fractions import Fraction

    from reference.cip.exact import range_maximum
    from reference.cip.exact import ranges as cip_ranges

    printed = run_snippet(coq_build, RANGE_MAX_HEADER + f"Eval vm_compute in range_table {level}.\n", f"CipRange{level}")
    block_sums, digits, point, maximum = parse_coq_value(printed.split("\n     = ")[-1])  # type: ignore[misc]
    python = [Fraction(0)] + [cip_ranges.range_variance(level, 0, length - 1) for length in range(1, 2**level + 1)]
    assert [Fraction(p, q) for p, q in block_sums] == python
    assert [Fraction(p, q) for p, q in digits] == python
    best = range_maximum.range_maxima(level + 1)[level + 1]
    if level >= 1:  # depth K + 1 >= 2: the single maximiser [2^K − A K, 2^K − 1 + A K]
        assert best.maximisers == ((2**level - point, 2**level - 1 + point),)
    assert Fraction(*maximum) == best.max_variance


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_cip_all_range_variances_agree_with_python(coq_build: Build, depth: int) -> None:
    """Every range's block sum of Coq's cov (the body of rv) and Coq's bound cbound D, against the Python exact
    range variances and the maximum by the definition."""
    from fractions import Fraction

    from reference.cip.exact import ranges as cip_ranges

    printed = run_snippet(coq_build, RANGE_MAX_HEADER + f"Eval vm_compute in all_ranges_table {depth}.\n", f"CipAll{depth}")
    table, bound = parse_coq_value(printed.split("\n     = ")[-1])  # type: ignore[misc]
    python = {(a, b): cip_ranges.range_variance_by_sum(depth, a, b) for a in range(2**depth) for b in range(a, 2**depth)}
    assert {(x, x + length - 1): Fraction(p, q) for x, length, (p, q) in table} == python
    assert Fraction(*bound) == max(python.values())
