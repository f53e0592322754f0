"""Sparse exact column elimination, shared by the integer-lattice test and the Laplace LP certificates.

Noise matrices of tree mechanisms are sparse (a draw reaches O(log T) outputs after first differences) and their
workloads are prefix sums; dense exact linear algebra on them costs O(T³) Fraction operations, the sparse
elimination here about O(T log T). Vectors are ``dict[row, value]`` with exact values; integral values are kept
as ``int`` (exact, and several times faster than ``Fraction``), which the ``Fraction`` annotations admit at
run time because the two mix exactly.

:func:`eliminate` performs column operations that clear one row at a time:

* ``integral=True`` (the lattice test): only pivots equal, up to sign, to the gcd of their row, so every column
  operation is integral and unimodular (the lattice ``B ℤ^d`` is unchanged); a target whose pivot-row entry is
  not a multiple of that gcd is outside the lattice, reported as a failure with the dual vector ``e_row/gcd``;
* ``integral=False`` (rational solutions): any non-zero pivot (±1 preferred, then the smallest).

Pivoting on row r clears it from every other column and from every target (subtracting a multiple of the pivot
column), so a target lies in the lattice (span) iff its remainder, zero on row r, lies in that of the remaining
columns. Rows are taken sparsest first (Markowitz-like), which keeps the fill-in of tree-shaped matrices small.
With ``track``, each column carries its combination of the original columns and each target the multiples it
had subtracted: a target reduced to zero comes with an exact ``u``, ``B u = target``.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from reference.core.linalg import Matrix

#: A sparse exact vector: row → non-zero value (``int`` where integral).
Sparse = dict[int, Fraction]


def narrow(value: Fraction | int) -> Fraction:
    """An integral value as an ``int`` (exact, and int arithmetic is several times faster than Fraction's).

    Args:
        value: an exact value, an int or a Fraction.
    """
    if isinstance(value, int):
        return value  # type: ignore[return-value]
    return int(value) if value.denominator == 1 else value  # type: ignore[return-value]


def sparse_columns(matrix: Matrix, scale: int = 1) -> list[Sparse]:
    """The columns of ``scale · matrix`` as sparse vectors.

    Args:
        matrix: the exact matrix, rows of Fractions (at least one row).
        scale: the integer factor applied to every entry (default 1; a common denominator clears the matrix to
            integers).
    """
    out: list[Sparse] = [{} for _ in range(len(matrix[0]))]
    for i, row in enumerate(matrix):
        for j, value in enumerate(row):
            if value:
                # integral entries stay in int arithmetic (no Fraction is built for them)
                out[j][i] = narrow(value.numerator * scale if value.denominator == 1 else value * scale)
    return out


def combine(columns: Sequence[Mapping[int, Fraction]], vector: Sequence[int], scale: int = 1) -> Sparse:
    """``scale · Σ_j v_j column_j``, sparse.

    Args:
        columns: the matrix by its sparse columns (row index to non-zero exact entry).
        vector: the integer coefficients v_j, one per column (a neighbouring difference such as e_j or e_i − e_j).
        scale: an integer factor on the result (default 1).
    """
    support = [j for j, coefficient in enumerate(vector) if coefficient]
    if len(support) == 1 and scale * vector[support[0]] == 1:
        return dict(columns[support[0]])  # a unit difference: the column itself (the common add/remove case)
    out: dict[int, Fraction] = {}
    for j in support:
        factor = scale * vector[j]
        for i, value in columns[j].items():
            out[i] = out.get(i, 0) + factor * value
    return {i: narrow(value) for i, value in out.items() if value}


def apply(columns: Sequence[Mapping[int, Fraction]], vector: Mapping[int, Fraction]) -> Sparse:
    """``B u`` for B given by its sparse columns and a sparse u.

    Args:
        columns: B by its sparse columns (row index to non-zero exact entry).
        vector: u as a sparse vector, column index of B to exact coefficient.
    """
    out: dict[int, Fraction] = {}
    for j, coefficient in vector.items():
        for i, value in columns[j].items():
            out[i] = out.get(i, 0) + coefficient * value
    return {i: value for i, value in out.items() if value}


def _over_common_denominator(whole: int, by_denominator: dict[int, int]) -> Fraction:
    """whole + Σ numerator/denominator over ``by_denominator`` (denominator → summed numerators), one Fraction."""
    common = math.lcm(*by_denominator)
    return Fraction(whole * common + sum(numerator * (common // denominator)
                                         for denominator, numerator in by_denominator.items()), common)


def l1(vector: Mapping[int, Fraction]) -> Fraction:
    """‖u‖₁, exact: ints summed as ints, Fractions' numerators per denominator, then one Fraction (a Fraction sum
    would take a gcd at every term).

    Args:
        vector: a sparse exact vector (index to int or Fraction).
    """
    whole = 0
    by_denominator: dict[int, int] = {}
    for value in vector.values():
        if isinstance(value, int):
            whole += abs(value)
        else:
            by_denominator[value.denominator] = by_denominator.get(value.denominator, 0) + abs(value.numerator)
    return _over_common_denominator(whole, by_denominator)


def squared_norm(vector: Mapping[int, Fraction]) -> Fraction:
    """‖u‖², exact (as :func:`l1`).

    Args:
        vector: a sparse exact vector (index to int or Fraction).
    """
    whole = 0
    by_denominator: dict[int, int] = {}
    for value in vector.values():
        if isinstance(value, int):
            whole += value * value
        else:
            square = value.denominator * value.denominator
            by_denominator[square] = by_denominator.get(square, 0) + value.numerator * value.numerator
    return _over_common_denominator(whole, by_denominator)


def nonzeros(vectors: Sequence[Mapping[int, object]]) -> int:
    """The number of stored entries.

    Args:
        vectors: sparse vectors (index to stored entry).
    """
    return sum(len(vector) for vector in vectors)


def difference(vector: Mapping[int, Fraction], outputs: int) -> Sparse:
    """P y with (P y)_0 = y_0 and (P y)_i = y_i − y_(i−1) (first differences: P is lower bidiagonal with unit
    diagonal, so unimodular).

    Args:
        vector: y as a sparse exact vector, row index to value.
        outputs: the number of rows (an entry at the last row has no row below to subtract it from).
    """
    out: Sparse = dict(vector)
    for i, value in vector.items():  # subtract y_(i−1) at i, i.e. y_i at i + 1
        if i + 1 < outputs:
            out[i + 1] = out.get(i + 1, 0) - value
    return {i: value for i, value in out.items() if value}


def sparsest_form(columns: Sequence[Mapping[int, Fraction]], targets: Sequence[Mapping[int, Fraction]],
                  outputs: int) -> tuple[list[Sparse], list[Sparse], bool]:
    """The columns and targets, first-differenced when that at least halves their non-zeros (prefix workloads and
    the tree noise that goes with them), and whether they were: ``B u = y`` iff ``P B u = P y``, and ``P`` is
    unimodular, so solutions and lattice membership are unchanged.

    Args:
        columns: B's columns as sparse exact vectors (row index to value).
        targets: the right-hand sides y_k as sparse exact vectors on the same rows.
        outputs: the number of rows of B.
    """
    differenced_columns = [difference(c, outputs) for c in columns]
    differenced_targets = [difference(t, outputs) for t in targets]
    if 2 * (nonzeros(differenced_columns) + nonzeros(differenced_targets)) < nonzeros(columns) + nonzeros(targets):
        return differenced_columns, differenced_targets, True
    return [dict(c) for c in columns], [dict(t) for t in targets], False


@dataclass
class Reduction:
    """What :func:`eliminate` leaves: the pivots (row, column snapshot) in elimination order, the residual columns
    and targets (all zero on the pivot rows), the rows not pivoted on, an integral failure, tracked solutions."""

    pivots: list[tuple[int, Sparse]]
    columns: list[Sparse]
    targets: list[Sparse]
    rows: list[int]
    #: (target index, dual vector on the rows) when a target was shown outside the lattice (``integral`` only)
    failure: tuple[int, Sparse] | None
    #: with ``track``: per target, u with B u = target − remainder (an exact solution when the remainder is 0)
    solutions: list[Sparse] | None
    #: with ``track``: the combinations of the original columns that the elimination reduced to zero (zero
    #: columns included as unit vectors); with ``integral=False`` and every row reduced, a basis of ker B
    kernel: list[Sparse] | None = None


def _axpy(vector: Sparse, column: Mapping[int, Fraction], factor: Fraction, key: int,
          index: dict[int, set[int]] | None) -> None:
    """vector += factor · column, keeping the row index of non-zeros (when given) up to date."""
    for i, value in column.items():
        new = vector.get(i, 0) + factor * value
        if new:
            if index is not None and i not in vector:
                index.setdefault(i, set()).add(key)
            vector[i] = new
        elif i in vector:
            del vector[i]
            if index is not None:
                index[i].discard(key)


def _quotient(numerator: Fraction, divisor: Fraction, integral: bool) -> Fraction:
    """numerator / divisor, exact (floor division when ``integral``: the divisor divides it there); int when
    integral, without building a Fraction for the common case of int entries and a ±1 pivot."""
    if integral:
        return narrow(numerator // divisor)
    if isinstance(numerator, int) and isinstance(divisor, int) and numerator % divisor == 0:
        return numerator // divisor
    return narrow(Fraction(numerator) / divisor)


def eliminate(columns: Sequence[Mapping[int, Fraction]], targets: Sequence[Mapping[int, Fraction]], outputs: int,
              *, integral: bool, track: bool = False) -> Reduction:
    """Sparse column elimination (module docstring).

    Args:
        columns: B's columns as sparse exact vectors (row index to int or Fraction); not modified.
        targets: the right-hand sides to reduce, sparse on the same rows; not modified.
        outputs: the number of rows of B (the rows never pivoted on are reported in ``rows``).
        integral: True for unimodular integral steps only (the lattice test; B and the targets integral), False for
            rational solutions.
        track: True to carry each column's combination of the original columns and each target's solution
            (``solutions`` and ``kernel`` of the result); default False.
    """
    cols: dict[int, Sparse] = {j: dict(column) for j, column in enumerate(columns) if column}
    tgts: list[Sparse] = [dict(target) for target in targets]
    combos: dict[int, Sparse] = {j: {j: 1} for j in cols} if track else {}  # type: ignore[dict-item]
    solutions: list[Sparse] | None = [{} for _ in targets] if track else None
    row_cols: dict[int, set[int]] = {}
    for j, column in cols.items():
        for i in column:
            row_cols.setdefault(i, set()).add(j)
    row_tgts: dict[int, set[int]] = {}
    for k, target in enumerate(tgts):
        for i in target:
            row_tgts.setdefault(i, set()).add(k)
    heap = [(len(js), i) for i, js in row_cols.items()]
    heapq.heapify(heap)
    pivots: list[tuple[int, Sparse]] = []
    done: set[int] = set()
    while heap:
        count, row = heapq.heappop(heap)
        if row in done:
            continue
        members = row_cols.get(row, set())
        if count != len(members):
            heapq.heappush(heap, (len(members), row))
            continue
        if not members:
            continue
        if integral:
            # an entry equal (up to sign) to the gcd of the row divides every other: integral column operations
            divisor = math.gcd(*(int(cols[j][row]) for j in members))
            candidates = [j for j in members if abs(cols[j][row]) == divisor]
            if not candidates:
                continue  # no entry divides the row (yet): left to the residual
        else:
            smallest = min(abs(cols[j][row]) for j in members)
            candidates = [j for j in members if abs(cols[j][row]) == smallest]
        pivot = min(candidates, key=lambda j: len(cols[j]))
        column = cols.pop(pivot)
        value = column[row]
        if integral:
            for k in row_tgts.get(row, set()):
                if (Fraction(tgts[k][row]) / value).denominator != 1:
                    # every lattice vector is a multiple of the gcd on this row and the target is not: the dual
                    # e_row/gcd is integral on the lattice and not on the target
                    return Reduction(pivots, [], [], [], (k, {row: Fraction(1, abs(value))}), None)
        for i in column:
            row_cols[i].discard(pivot)
        combo = combos.pop(pivot, {})
        for j in list(members - {pivot}):
            factor = _quotient(cols[j][row], value, integral)
            _axpy(cols[j], column, -factor, j, row_cols)
            if track:
                _axpy(combos[j], combo, -factor, j, None)
        for k in list(row_tgts.get(row, set())):
            multiple = _quotient(tgts[k][row], value, integral)
            _axpy(tgts[k], column, -multiple, k, row_tgts)
            if solutions is not None:
                _axpy(solutions[k], combo, multiple, k, None)
        pivots.append((row, column))
        done.add(row)
        for i in column:
            if i not in done:
                heapq.heappush(heap, (len(row_cols[i]), i))
    rows = [i for i in range(outputs) if i not in done]
    kernel: list[Sparse] | None = None
    if track:
        kernel = [{j: Fraction(1)} for j, column in enumerate(columns) if not column]
        kernel.extend(combos[j] for j, column in cols.items() if not column)
    return Reduction(pivots, [c for c in cols.values() if c], tgts, rows, None, solutions, kernel)


def unit_pivots_on_integers(reduction: Reduction, columns: Sequence[Mapping[int, Fraction]],
                            targets: Sequence[Mapping[int, Fraction]]) -> bool:
    """Whether a rational elimination (``integral=False``) of these columns and targets was already integral and
    unimodular: every entry an ``int`` and every pivot ±1. Then ``integral=True`` would take the same steps — a
    row holding a ±1 has gcd 1, its candidates are its ±1 entries either way, and every quotient by ±1 is the same
    int — so its reduction (pivots, remainders, tracked integer solutions) is this one, and need not be redone.

    Args:
        reduction: the result of :func:`eliminate` with ``integral=False`` on ``columns`` and ``targets``.
        columns: the columns that elimination was given.
        targets: the targets that elimination was given.
    """
    return (all(abs(column[row]) == 1 for row, column in reduction.pivots)
            and all(isinstance(value, int) for vector in (*columns, *targets) for value in vector.values()))


def extend_dual(dual: Sparse, pivots: Sequence[tuple[int, Mapping[int, Fraction]]]) -> Sparse:
    """Extend a dual vector from the residual rows to the pivot rows so that it vanishes on every pivot column:
    in reverse elimination order, f_r = −(Σ_(i≠r) f_i c_i)/c_r, as each pivot column is zero on the rows pivoted
    before it. The lattice (span) is generated by the pivot columns and the residual ones, and each target differs
    from its remainder by a combination of them, so the extended f still separates.

    Args:
        dual: the dual vector f on the residual rows, row index to exact value.
        pivots: the elimination's pivots, (row, pivot column) in elimination order (:attr:`Reduction.pivots`).
    """
    extended = dict(dual)
    for row, column in reversed(pivots):
        total = sum((extended[i] * value for i, value in column.items() if i != row and i in extended), Fraction(0))
        if total:
            extended[row] = -total / column[row]
    return extended
