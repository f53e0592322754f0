"""TdaLevelSensitivity.v computes the Python objects: a level's count vector and its Δ² under substitution.

Coq evaluates ``level_counts`` with the cell of a record at level l taken as the mixed-radix code of its length-l
prefix (the order of ``itertools.product``), on seeded datasets, and the count vectors are compared with
``reference.tda.data.prefix_counts``. Then Coq takes the largest ``squared_distance`` over every dataset of two
records and every substitution of one of them (each pair of neighbours of the form the theorems speak about), and
the value is compared with ``reference.tda.calibration.inftda_level_sensitivity_squared``: 2 on every level with
two prefixes or more, 0 where the prefixes admit a single value (the root; attributes with one category).
"""

from __future__ import annotations

import itertools
import random

import pytest
from reference_verification.coq import Build, run_snippet
from reference_verification.coq_text import parse_coq_value

from reference.tda.calibration import inftda_level_sensitivity_squared
from reference.tda.data import Hierarchy, prefix_counts

HEADER = """From mathcomp Require Import all_ssreflect.
From Reference Require Import TdaLevelSensitivity.
Definition code (sizes : seq nat) (level : nat) (x : seq nat) : nat :=
  foldl (fun acc p => acc * p.1 + p.2) 0 (take level (zip sizes x)).
Definition cells (sizes : seq nat) (level : nat) : nat := foldl muln 1 (take level sizes).
Definition domain (sizes : seq nat) : seq (seq nat) :=
  foldr (fun size acc => [seq i :: x | i <- iota 0 size, x <- acc]) [:: [::]] sizes.
Definition counts (sizes : seq nat) (level : nat) (data : seq (seq nat)) : seq nat :=
  level_counts (code sizes level) (cells sizes level) data.
Definition worst (sizes : seq nat) (level : nat) : nat :=
  let dom := domain sizes in
  foldr maxn 0 [seq let: (y, z) := yz in
                   maxn (squared_distance (counts sizes level [:: x; y]) (counts sizes level [:: z; y]))
                        (squared_distance (counts sizes level [:: y; x]) (counts sizes level [:: y; z]))
               | x <- dom, yz <- [seq (y, z) | y <- dom, z <- dom]].
"""

#: |X_1|, ..., |X_d| of the hierarchies compared (an attribute with one category gives a level with one prefix).
HIERARCHIES = ((2, 3), (3, 2), (1, 3), (2, 1, 2))


def _hierarchy(sizes: tuple[int, ...]) -> Hierarchy:
    return Hierarchy.build([f"a{index}" for index in range(len(sizes))],
                           [[f"c{value}" for value in range(size)] for size in sizes])


def _coq_list(items: object) -> str:
    if isinstance(items, (list, tuple)):
        return "[:: " + "; ".join(_coq_list(item) for item in items) + "]"
    return str(items)


def _evaluate(coq_build: Build, commands: list[str], name: str) -> list[object]:
    printed = run_snippet(coq_build, HEADER + "\n".join(commands) + "\n", name)
    values = [parse_coq_value(chunk) for chunk in printed.split("\n     = ") if chunk.strip()]
    assert len(values) == len(commands), printed[:500]
    return values


@pytest.mark.parametrize("sizes", HIERARCHIES)
def test_level_counts_agree_with_prefix_counts(coq_build: Build, sizes: tuple[int, ...]) -> None:
    """Coq's count vector of every level equals the Python prefix counts, zero for the absent prefixes."""
    generator = random.Random(20261128 + sum(sizes))
    datasets = [[tuple(generator.randrange(size) for size in sizes) for _ in range(generator.randint(1, 6))]
                for _ in range(4)]
    commands = [f"Eval vm_compute in counts {_coq_list(sizes)} {level} {_coq_list(data)}."
                for data in datasets for level in range(len(sizes) + 1)]
    values = iter(_evaluate(coq_build, commands, "TdaCounts"))
    hierarchy = _hierarchy(sizes)
    for data in datasets:
        tree = prefix_counts(data, hierarchy)
        for level in range(len(sizes) + 1):
            prefixes = list(itertools.product(*(range(size) for size in sizes[:level])))
            assert next(values) == [tree.count(prefix) for prefix in prefixes]


@pytest.mark.parametrize("sizes", HIERARCHIES)
def test_worst_substitution_is_the_python_sensitivity(coq_build: Build, sizes: tuple[int, ...]) -> None:
    """The largest squared change over all two-record datasets and substitutions, computed by Coq, is Python's
    Δ² at every level: 2 when the level has two prefixes or more (the proved bound, attained), else 0."""
    levels = range(len(sizes) + 1)
    values = _evaluate(coq_build, [f"Eval vm_compute in worst {_coq_list(sizes)} {level}." for level in levels],
                       "TdaWorst")
    for level, value in zip(levels, values):
        prefixes = 1
        for size in sizes[:level]:
            prefixes *= size
        assert value == inftda_level_sensitivity_squared(sizes, level)
        assert value == (2 if prefixes >= 2 else 0)
