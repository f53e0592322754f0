"""The Coq definitions compute the same objects as the Python exact layer, so the theorems speak about them.

Coq evaluates its definitions on small parameters (``Eval vm_compute``) and prints them; the printed values are
read back and compared with the Python functions' outputs on every input of the range.
"""

from __future__ import annotations

import pytest

from reference.kary import digits as kary_digits
from reference.verification.coq import Build, parse_coq_value, run_snippet

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
