"""Integer-valued noise: is every neighbouring shift an integer combination of the noise matrix's columns?

The release is ``y = W x + B z`` with ``z`` integer-valued noise of full support on ℤ^d (discrete Laplace,
discrete Gaussian). For neighbours ``x`` and ``x + v`` the two output laws are the laws of ``B z`` shifted by
``W x`` and ``W x + W v``. The noise lives on the lattice ``L = B ℤ^d``:

* if ``W v ∈ L``, say ``W v = B u`` with ``u`` integer, the map ``z ↦ z + u`` carries one law onto the other
  within the support, and the privacy loss is that of shifting the draws by ``u`` (finite; for discrete Laplace
  of scale t it is at most ‖u‖₁/t, for the discrete Gaussian ρ = ‖u‖²/(2σ²), exact when u is unique);
* if ``W v ∉ L`` (but lies in the rational span of B, else the continuous test already fails), there is a dual
  vector ``f`` with ``f · b ∈ ℤ`` for every ``b ∈ L`` and ``f · W v ∉ ℤ``. Scaled to an integer vector ``g = q f``,
  ``g · (B z)`` is a multiple of ``q`` for every draw, so ``(g · y) mod q = (g · W x) mod q`` *deterministically*:
  one output tells ``x`` from ``x + v`` with certainty, and ε = ∞ (the witness :class:`LatticeLeak`).

Method: the Hermite normal form (python-flint, exact integers) of the scaled noise matrix's transpose gives a basis
``H`` of L in echelon form; the coordinates ``c`` of ``W v`` in that basis solve a triangular system on the pivot
columns (exact rationals). ``W v ∈ L`` iff ``c`` is integral; otherwise, for the first non-integral ``c_i``, column
``i`` of ``H_p⁻¹`` (``H_p`` the pivot columns) placed on the pivot coordinates is the dual vector ``f``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from flint import fmpq, fmpq_mat, fmpz_mat

from reference.core.linalg import Matrix
from reference.core.validate import Neighbours, check_neighbours, fraction_text


@dataclass(frozen=True)
class LatticeLeak:
    """A neighbouring difference whose output shift is outside the noise lattice, and the functional that shows it.

    For every integer noise draw ``z``, ``functional · (B z)`` is a multiple of ``modulus``; the two neighbours'
    outputs give values of ``functional · y`` that differ by ``shift`` (not a multiple of ``modulus``) modulo it.
    """

    difference: tuple[int, ...]  # v, over the inputs
    functional: tuple[int, ...]  # g, over the outputs
    modulus: int  # q >= 2
    shift: Fraction  # (g · W v) mod q, non-zero

    def residue(self, output: Sequence[object]) -> Fraction:
        """``(functional · output) mod modulus`` of one release: it does not depend on the noise."""
        if len(output) != len(self.functional):
            raise ValueError(f"output has {len(output)} entries, the functional {len(self.functional)}")
        total = sum((Fraction(g) * Fraction(str(value)) for g, value in zip(self.functional, output)), Fraction(0))
        return total % self.modulus

    def describe(self) -> str:
        """One sentence: the leaking functional, its modulus, and what it reveals."""
        terms = [f"{g:+d}·y[{i}]" for i, g in enumerate(self.functional) if g]
        shown = " ".join(terms[:8]) + (f" … ({len(terms)} terms)" if len(terms) > 8 else "")
        changed = [i for i, value in enumerate(self.difference) if value]
        return (
            f"({shown}) mod {self.modulus} is the same for every noise draw and differs by {fraction_text(self.shift)} "
            f"between neighbours that differ in input(s) {changed}: one output decodes the difference (epsilon = inf)"
        )

    def as_json(self) -> dict[str, object]:
        """JSON form."""
        return {
            "difference": list(self.difference),
            "functional": list(self.functional),
            "modulus": self.modulus,
            "shift": fraction_text(self.shift),
        }


@dataclass(frozen=True)
class LatticeVerdict:
    """Whether every neighbouring shift ``W v`` lies in the noise lattice ``B ℤ^d``."""

    in_lattice: bool
    lattice_rank: int
    leak: LatticeLeak | None
    #: when B has a trivial kernel: the unique integer draw shift u (B u = W v) of each neighbouring difference
    integer_shifts: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] | None


def neighbouring_differences(inputs: int, neighbours: Neighbours) -> list[tuple[int, ...]]:
    """``add_remove``: e_j (the sign does not matter for a lattice); ``substitution``: e_i − e_j, i < j."""
    if neighbours == "add_remove":
        return [tuple(int(i == j) for i in range(inputs)) for j in range(inputs)]
    return [
        tuple(1 if k == i else -1 if k == j else 0 for k in range(inputs))
        for i in range(inputs)
        for j in range(i + 1, inputs)
    ]


def _denominator_lcm(matrix: Matrix) -> int:
    return math.lcm(*(entry.denominator for row in matrix for entry in row))


def _generators(inputs: int, relation: Neighbours) -> list[tuple[int, ...]]:
    """Differences whose integer combinations give every neighbouring difference of the relation.

    ``add_remove``: the e_j. ``substitution``: e_0 − e_j for j >= 1 (e_i − e_j = (e_0 − e_j) − (e_0 − e_i)), so
    every substitution shift is in the lattice iff these are.
    """
    if relation == "add_remove":
        return neighbouring_differences(inputs, relation)
    return [tuple(1 if k == 0 else -1 if k == j else 0 for k in range(inputs)) for j in range(1, inputs)]


def _fraction(value: fmpq) -> Fraction:
    return Fraction(int(value.p), int(value.q))


def lattice_audit(noise_matrix: Matrix, workload: Matrix, neighbours: str = "add_remove") -> LatticeVerdict:
    """Decide exactly whether every neighbouring shift is an integer combination of B's columns (module docstring).

    ``noise_matrix`` (outputs × draws) and ``workload`` (outputs × inputs) are exact rational matrices, already
    validated (see :func:`reference.audit.linear_noise.exact_matrix`); ``neighbours`` is ``"add_remove"`` or
    ``"substitution"``. A shift outside the rational span of B raises ``ValueError``: the caller decides the
    rational span first (the continuous test). The integer linear algebra is python-flint's (HNF, triangular
    solves), so T = 2000 outputs take seconds.
    """
    relation = check_neighbours(neighbours)
    outputs, draws, inputs = len(noise_matrix), len(noise_matrix[0]), len(workload[0])
    if relation == "substitution" and inputs < 2:
        raise ValueError("substitution neighbours need at least two inputs")
    scale = _denominator_lcm(noise_matrix)  # D·B is an integer matrix; its lattice is D·L
    integer_b = fmpz_mat([[int(entry * scale) for entry in row] for row in noise_matrix])
    hermite = integer_b.transpose().hnf()  # rows span D·L, echelon form
    basis = [row for row in range(hermite.nrows()) if any(hermite[row, col] != 0 for col in range(outputs))]
    rank = len(basis)
    pivots = [next(col for col in range(outputs) if hermite[row, col] != 0) for row in basis]
    basis_rows = fmpq_mat(rank, outputs, [hermite[row, col] for row in basis for col in range(outputs)])
    pivot_block = fmpq_mat(rank, rank, [hermite[row, col] for row in basis for col in pivots])  # H_p, r × r
    generators = _generators(inputs, relation)
    # the shifts y = D · W v of every generator, as the columns of one matrix
    shifts = fmpq_mat(outputs, len(generators), [
        fmpq(value.numerator, value.denominator)
        for i in range(outputs)
        for value in (scale * sum((workload[i][j] * v[j] for j in range(inputs) if v[j]), Fraction(0))
                      for v in generators)
    ])
    pivot_shifts = fmpq_mat(rank, len(generators), [shifts[pivot, k] for pivot in pivots for k in range(len(generators))])
    coordinates = pivot_block.transpose().solve(pivot_shifts)  # c with H_pᵀ c = y_p, one column per generator
    if basis_rows.transpose() * coordinates != shifts:
        raise ValueError("a neighbouring shift is outside the rational span of the noise matrix")
    for k in range(len(generators)):
        first = next((i for i in range(rank) if coordinates[i, k].q != 1), None)
        if first is not None:
            return LatticeVerdict(False, rank, _leak(generators[k], first, pivot_block, pivots, outputs, scale,
                                                     workload), None)
    unique = None
    if rank == draws:
        unique = _unique_integer_shifts(noise_matrix, workload, neighbouring_differences(inputs, relation))
    return LatticeVerdict(True, rank, None, unique)


def _leak(
    difference: tuple[int, ...],
    index: int,
    pivot_block: fmpq_mat,
    pivots: list[int],
    outputs: int,
    scale: int,
    workload: Matrix,
) -> LatticeLeak:
    """The dual vector f (column ``index`` of H_p⁻¹, i.e. H_p f_p = e_index, on the pivot coordinates), as an
    integer functional on the output."""
    rank = len(pivots)
    unit = fmpq_mat(rank, 1, [fmpq(int(i == index)) for i in range(rank)])
    column = pivot_block.solve(unit)
    dual = [Fraction(0)] * outputs
    for k, pivot in enumerate(pivots):
        dual[pivot] = _fraction(column[k, 0])
    modulus = math.lcm(*(value.denominator for value in dual))
    # f · (D B z) ∈ ℤ  =>  (q f D) · (B z) ∈ q ℤ: the functional on the actual output is g = q D f
    functional = [int(value * modulus) * scale for value in dual]
    common = math.gcd(modulus, *functional)
    functional = [value // common for value in functional]
    modulus //= common
    shift = sum(
        (functional[i] * workload[i][j] * difference[j] for i in range(outputs) for j in range(len(difference))
         if difference[j] and functional[i]),
        Fraction(0),
    ) % modulus
    if modulus < 2 or shift == 0:  # cannot happen: c_index is not an integer
        raise ArithmeticError("the dual functional does not separate the neighbours")
    return LatticeLeak(difference, tuple(functional), modulus, shift)


def _unique_integer_shifts(
    noise_matrix: Matrix, workload: Matrix, differences: Sequence[tuple[int, ...]]
) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """The unique u with B u = W v for each difference v (B of full column rank), integral as W v is in the
    lattice: u = (BᵀB)⁻¹ Bᵀ W v, all differences in one exact solve."""
    outputs, draws, inputs = len(noise_matrix), len(noise_matrix[0]), len(workload[0])
    b = fmpq_mat(outputs, draws, [fmpq(e.numerator, e.denominator) for row in noise_matrix for e in row])
    w = fmpq_mat(outputs, inputs, [fmpq(e.numerator, e.denominator) for row in workload for e in row])
    per_input = (b.transpose() * b).solve(b.transpose() * w)  # draws × inputs: u for each e_j
    result = []
    for v in differences:
        support = [j for j in range(inputs) if v[j]]
        values = [sum((_fraction(per_input[i, j]) * v[j] for j in support), Fraction(0)) for i in range(draws)]
        if any(value.denominator != 1 for value in values):
            raise ArithmeticError("the unique solution of B u = W v is not integral although W v is in the lattice")
        result.append((v, tuple(int(value) for value in values)))
    return tuple(result)
