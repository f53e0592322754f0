"""Shared machinery for the CIP proof programs (``proofs/cip_*.py``).

* The off-diagonal exponent of Definition 3.1, as a function of ``i``: the LaTeX rendering of the paper reads
  ``C_{i+1} = [[C_i, -J_i / 2^(2i+1)], [-J_i / 2^(2i+1), C_i]]``; the OCR rendering prints
  ``2^(2^i + 1)``. Both are provided so that a proof program can be run on either reading; only the first
  makes Theorem 3.3, Proposition 3.5 and Lemma B.2 true (the programs fail on the second).
* :class:`WordRewriter`: exact rewriting of noncommutative sympy words (products of matrix symbols) with
  rules that are the equalities of an induction hypothesis, e.g. ``J*C -> 2**-K * J``. Each rewrite replaces a
  factor by an equal one, so if an expression rewrites to 0 the expression *is* 0 under the hypothesis
  (soundness is all a proof needs; confluence is not claimed).
* Block matrices as nested lists of sympy expressions, multiplied in order (noncommutatively).
* :func:`record_entry_formula`: the lemma, used by several programs, that entry (a, b) of C_depth depends only
  on the height h of the lowest common ancestor of leaves a, b: 1 if h = 0 and -2^(1 - 2h) otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import sympy as sp

from ...core.proof import ProofRecord, is_zero

#: sympy is untyped; expressions are ``Any`` to mypy.
Expr = Any
#: The exponent e(i) in the off-diagonal block -J_i / 2^e(i) of C_{i+1}.
Exponent = Callable[[Expr], Expr]
#: One rewrite rule: a word (tuple of noncommutative symbols) -> (commutative factor, replacement word).
Rules = Mapping[tuple[Expr, ...], tuple[Expr, tuple[Expr, ...]]]

PAPER = "CIP"


def definition_exponent(i: Expr) -> Expr:
    """Definition 3.1 as the LaTeX rendering prints it: 2i + 1."""
    return 2 * i + 1


def ocr_exponent(i: Expr) -> Expr:
    """Definition 3.1 as the OCR rendering prints it: 2^i + 1 (agrees with 2i + 1 only at i = 1, 2)."""
    return 2**i + 1


def off_diagonal_entry(i: Expr, exponent: Exponent = definition_exponent) -> Expr:
    """The value -1/2^e(i) of every entry of the off-diagonal blocks of C_{i+1}."""
    return -sp.Integer(2) ** (-exponent(i))


def entry_by_height(height: Expr) -> Expr:
    """The claimed entry of C for leaves whose lowest common ancestor has height ``height`` >= 1."""
    return -sp.Integer(2) ** (1 - 2 * height)


def fraction_matrix(rows: Sequence[Sequence[int | Fraction]]) -> list[list[Fraction]]:
    """A list-of-lists Fraction matrix."""
    return [[Fraction(x) for x in row] for row in rows]


def fraction_matmul(left: Sequence[Sequence[Fraction]], right: Sequence[Sequence[Fraction]]) -> list[list[Fraction]]:
    """Exact product of two Fraction matrices."""
    return [
        [sum((left[i][m] * right[m][j] for m in range(len(right))), Fraction(0)) for j in range(len(right[0]))]
        for i in range(len(left))
    ]


class WordRewriter:
    """Rewrite products of noncommutative symbols with the equalities of an induction hypothesis."""

    def __init__(self, rules: Rules) -> None:
        self.rules = dict(rules)
        self.longest = max((len(word) for word in self.rules), default=0)

    @staticmethod
    def _split(term: Expr) -> tuple[Expr, list[Expr]]:
        """A monomial as (commutative coefficient, list of noncommutative letters), powers unrolled."""
        commutative, noncommutative = term.args_cnc()
        letters: list[Expr] = []
        for factor in noncommutative:
            if isinstance(factor, sp.Pow) and factor.exp.is_Integer and factor.exp > 0:
                letters.extend([factor.base] * int(factor.exp))
            else:
                letters.append(factor)
        return sp.Mul(*commutative), letters

    def _reduce_word(self, coefficient: Expr, letters: list[Expr]) -> tuple[Expr, list[Expr]]:
        changed = True
        while changed:
            changed = False
            for size in range(self.longest, 1, -1):
                for start in range(len(letters) - size + 1):
                    key = tuple(letters[start : start + size])
                    if key in self.rules:
                        factor, replacement = self.rules[key]
                        coefficient = coefficient * factor
                        letters = letters[:start] + list(replacement) + letters[start + size :]
                        changed = True
                        break
                if changed:
                    break
        return coefficient, letters

    def reduce(self, expr: Expr) -> Expr:
        """Expand, rewrite every monomial to a normal word, and collect."""
        result = sp.Integer(0)
        for term in sp.Add.make_args(sp.expand(sp.sympify(expr))):
            coefficient, letters = self._split(term)
            coefficient, letters = self._reduce_word(coefficient, letters)
            result += coefficient * sp.Mul(*letters)
        return sp.expand(sp.powsimp(sp.expand(result), force=True))

    def equal(self, left: Expr, right: Expr) -> bool:
        """Whether ``left - right`` rewrites to an expression that simplifies to 0."""
        difference = self.reduce(left - right)
        if difference == 0:
            return True
        # coefficients of each remaining word must vanish
        collected: dict[Expr, Expr] = {}
        for term in sp.Add.make_args(difference):
            coefficient, letters = self._split(term)
            word = sp.Mul(*letters)
            collected[word] = collected.get(word, sp.Integer(0)) + coefficient
        return all(is_zero(coefficient) for coefficient in collected.values())


Block = list[list[Expr]]


def block_matmul(left: Block, right: Block) -> Block:
    """Product of two block matrices whose blocks are noncommutative sympy expressions (order kept)."""
    return [
        [sum((left[i][m] * right[m][j] for m in range(len(right))), sp.Integer(0)) for j in range(len(right[0]))]
        for i in range(len(left))
    ]


def blocks_equal(rewriter: WordRewriter, left: Block, right: Block) -> bool:
    """Blockwise equality under the rewriter's hypotheses."""
    return all(
        rewriter.equal(left[i][j], right[i][j]) for i in range(len(left)) for j in range(len(left[0]))
    )


def record_entry_formula(record: ProofRecord, exponent: Exponent = definition_exponent) -> None:
    """Record the lemma: C_depth(a, b) = 1 if a = b, else -2^(1 - 2h) with h the height of the lowest common
    ancestor of leaves a and b (the bit length of a XOR b), for every depth.

    Induction on depth. C_1 = [[1, -1/2], [-1/2, 1]]: the two leaves have lca height 1 and -2^(1-2) = -1/2.
    C_{i+1}: two leaves in the same half have the same top bit, so a XOR b (hence h) is that of their
    positions inside the half, and the entry is C_i's (hypothesis); two leaves in different halves differ in
    the top bit i, so h = i + 1, and the entry is the off-diagonal value -2^(-e(i)), which must equal
    -2^(1 - 2(i+1)) for every i >= 1.
    """
    i = sp.Symbol("i", integer=True, positive=True)
    base = off_diagonal_entry(sp.Integer(0), exponent)  # C_1 = C_(0+1): its off-diagonal block is -2^-e(0)
    record.step(
        f"entry formula, base depth 1: C_1(0,1) = -2^-e(0) = {base} (Definition 3.1) equals -2^(1-2*1) (exact)",
        is_zero(base - entry_by_height(sp.Integer(1))),
    )
    record.step(
        "entry formula, step: the off-diagonal value -2^-e(i) of C_{i+1} equals -2^(1-2(i+1)) for all i >= 1 "
        "(leaves in different halves have lca height i+1; leaves in the same half keep C_i's entry and height)",
        is_zero(off_diagonal_entry(i, exponent) - entry_by_height(i + 1)),
    )
