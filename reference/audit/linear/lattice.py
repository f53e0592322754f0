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

Method (exact integers throughout): the scaled noise matrix D·B and the shifts D·W v are first made sparse by first
differences when that helps (a unimodular row operation on both, so membership is unchanged), then reduced by
sparse unimodular column elimination (:mod:`reference.audit.linear.elimination`): a row whose gcd is one of its entries is
cleared with that pivot; a shift whose entry there is not a multiple of the gcd is outside the lattice at once,
with the dual ``e_row/gcd``. What is left (rows with no such entry) goes to the Hermite normal form (python-flint):
the coordinates ``c`` of a remaining shift in the HNF basis ``H`` solve a triangular system on the pivot columns;
``W v ∈ L`` iff ``c`` is integral, and otherwise column ``i`` of ``H_p⁻¹`` at the first non-integral ``c_i`` is the
dual vector. Dual vectors are extended back through the eliminated rows so that they vanish on every pivot column.
Tree mechanisms reduce completely in the elimination, so T = 2,000 outputs take seconds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from flint import fmpq, fmpq_mat, fmpz_mat

from reference.audit.linear import elimination as sparse
from reference.core.linalg import Matrix, fraction_of, to_flint
from reference.core.validate import Neighbours, check_neighbours, fraction_text
from reference.core.verdict import ShortRepr, Verdict


@dataclass(frozen=True)
class LatticeLeak(ShortRepr):
    """A neighbouring difference whose output shift is outside the noise lattice, and the functional that shows it.

    For every integer noise draw ``z``, ``functional · (B z)`` is a multiple of ``modulus``; the two neighbours'
    outputs give values of ``functional · y`` that differ by ``shift`` (not a multiple of ``modulus``) modulo it.
    """

    difference: tuple[int, ...]  # v, over the inputs
    functional: tuple[int, ...]  # g, over the outputs
    modulus: int  # q >= 1 (q = 1 when the shift itself is fractional: the fractional part of the output leaks)
    shift: Fraction  # (g · W v) mod q, non-zero

    def residue(self, output: Sequence[object]) -> Fraction:
        """``(functional · output) mod modulus`` of one release: it does not depend on the noise.

        Args:
            output: one release y, one value per output (an int, Fraction, decimal string or float; each is read through
                its ``str``, so a float counts as the decimal it prints).

        Raises:
            ValueError: ``output`` does not have one entry per output of the functional.
        """
        if len(output) != len(self.functional):
            raise ValueError(f"output has {len(output)} entries, the functional {len(self.functional)}")
        total = sum((Fraction(g) * Fraction(str(value)) for g, value in zip(self.functional, output)), Fraction(0))
        return total % self.modulus

    @property
    def verdict(self) -> Verdict:
        """A leak is a refutation of any privacy claim: "fails"."""
        return "fails"

    def summary(self) -> str:
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
            "verdict": self.verdict,
            "summary": self.summary(),
            "difference": list(self.difference),
            "functional": list(self.functional),
            "modulus": self.modulus,
            "shift": fraction_text(self.shift),
        }


@dataclass(frozen=True)
class LatticeVerdict:
    """Whether every neighbouring shift ``W v`` lies in the noise lattice ``B ℤ^d``."""

    in_lattice: bool
    lattice_rank: int | None  # the rank of B ℤ^d; None when a leak found during the elimination ended the test
    leak: LatticeLeak | None
    #: when B has a trivial kernel: the unique integer draw shift u (B u = W v) of each neighbouring difference
    integer_shifts: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] | None
    #: when B has a kernel: one integer shift u (sparse, B u = W v) per neighbouring difference, in the order of
    #: :func:`neighbouring_differences` (found by the elimination; not the smallest in general), None if not found
    some_integer_shifts: tuple[dict[int, int], ...] | None = None


def neighbouring_differences(inputs: int, neighbours: Neighbours) -> list[tuple[int, ...]]:
    """``add_remove``: e_j (the sign does not matter for a lattice); ``substitution``: e_i − e_j, i < j.

    Args:
        inputs: the number of inputs n (columns of W).
        neighbours: ``"add_remove"`` (n differences) or ``"substitution"`` (n(n − 1)/2 differences).

    Returns:
        The differences v as integer tuples of length ``inputs``.
    """
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


def lattice_audit(noise_matrix: Matrix, workload: Matrix, neighbours: Neighbours = "add_remove") -> LatticeVerdict:
    """Decide exactly whether every neighbouring shift is an integer combination of B's columns (module docstring).

    ``noise_matrix`` (outputs × draws) and ``workload`` (outputs × inputs) are exact rational matrices, already
    validated (see :func:`reference.audit.linear.audit.exact_matrix`); ``neighbours`` is ``"add_remove"`` or
    ``"substitution"``. A shift outside the rational span of B raises ``ValueError``: the caller decides the
    rational span first (the continuous test).

    Args:
        noise_matrix: B, outputs × draws, exact and validated.
        workload: W, outputs × inputs, exact and validated.
        neighbours: ``"add_remove"`` (default) or ``"substitution"`` (needs at least two inputs).

    Raises:
        ValueError: substitution with one input, or a shift outside the rational span of B.
    """
    relation = check_neighbours(neighbours)
    outputs, draws, inputs = len(noise_matrix), len(noise_matrix[0]), len(workload[0])
    if relation == "substitution" and inputs < 2:
        raise ValueError("substitution neighbours need at least two inputs")
    scale = _denominator_lcm(noise_matrix)  # D·B is an integer matrix; its lattice is D·L
    columns = sparse.sparse_columns(noise_matrix, scale)
    generators = _generators(inputs, relation)
    workload_columns = sparse.sparse_columns(workload)
    targets = [sparse.combine(workload_columns, v, scale) for v in generators]  # y = D · W v, rational in general
    # a unimodular row operation on both sides when it sparsifies: membership is unchanged (module docstring)
    columns, targets, differenced = sparse.sparsest_form(columns, targets, outputs)
    reduction = sparse.eliminate(columns, targets, outputs, integral=True, track=True)
    rank: int | None = None  # not needed once a leak is found during the elimination
    failure = reduction.failure
    if failure is None:
        residual_rank, failure = _residual_membership(reduction)
        rank = len(reduction.pivots) + residual_rank
    if failure is not None:
        index, residual_dual = failure
        dual = sparse.extend_dual(residual_dual, reduction.pivots)
        if differenced:  # f·(P y) = Σ_i f_i (y_i − y_(i−1)) = (Pᵀ f)·y with (Pᵀ f)_i = f_i − f_(i+1)
            dual = {i: dual.get(i, Fraction(0)) - dual.get(i + 1, Fraction(0)) for i in range(outputs)}
        return LatticeVerdict(False, rank, _leak(generators[index], _dense(dual, outputs), scale, workload), None)
    unique = None
    if rank == draws:
        differences = neighbouring_differences(inputs, relation)
        if reduction.solutions is not None and not reduction.columns:
            # every column was pivoted on: the tracked combinations solve B u = y for each generator exactly
            per_generator = reduction.solutions
            unique = tuple((v, _dense_integers(_solution_of(v, per_generator, relation), draws)) for v in differences)
        else:
            unique = _unique_integer_shifts(noise_matrix, workload, differences)
        return LatticeVerdict(True, rank, None, unique)
    found = None
    if reduction.solutions is not None and not any(reduction.targets):
        # every shift reduced to zero in the elimination: the tracked u are integer solutions (not unique)
        shifts = []
        for v in neighbouring_differences(inputs, relation):
            shift = _solution_of(v, reduction.solutions, relation)
            if any(Fraction(value).denominator != 1 for value in shift.values()):
                raise ArithmeticError("a tracked integer shift is not integral")
            shifts.append({j: int(value) for j, value in shift.items() if value})
        found = tuple(shifts)
    return LatticeVerdict(True, rank, None, None, found)


def _solution_of(difference: tuple[int, ...], per_generator: list[dict[int, Fraction]],
                 relation: Neighbours) -> dict[int, Fraction]:
    """u for a neighbouring difference, from the generators' solutions (linear: u(e_i − e_j) = u(e_0 − e_j) −
    u(e_0 − e_i) for substitution, with u(e_0 − e_0) = 0)."""
    if relation == "add_remove":
        return per_generator[difference.index(1)]
    plus, minus = difference.index(1), difference.index(-1)
    out = dict(per_generator[minus - 1])  # generator j − 1 is e_0 − e_j
    if plus:
        for i, value in per_generator[plus - 1].items():
            out[i] = out.get(i, Fraction(0)) - value
    return out


def _dense_integers(vector: dict[int, Fraction], size: int) -> tuple[int, ...]:
    if any(value.denominator != 1 for value in vector.values()):
        raise ArithmeticError("the unique solution of B u = W v is not integral although W v is in the lattice")
    return tuple(int(vector.get(i, 0)) for i in range(size))


def _residual_membership(reduction: sparse.Reduction) -> tuple[int, tuple[int, dict[int, Fraction]] | None]:
    """The rank of the residual lattice and, if a remaining target is outside it, (its index, a dual vector on the
    residual rows with integer values on the residual lattice and a non-integer one on the target)."""
    rows, residual = reduction.rows, reduction.columns
    position = {row: p for p, row in enumerate(rows)}
    if not residual:
        if any(target for target in reduction.targets):
            raise ValueError("a neighbouring shift is outside the rational span of the noise matrix")
        return 0, None
    size = len(rows)
    integer = fmpz_mat(len(residual), size)  # the residual columns as rows: the HNF spans the lattice by rows
    for r, column in enumerate(residual):
        for i, value in column.items():
            integer[r, position[i]] = int(value)  # integral: the scaled noise matrix
    hermite = integer.hnf()
    basis = [r for r in range(hermite.nrows()) if any(hermite[r, c] != 0 for c in range(size))]
    rank = len(basis)
    pivots = [next(c for c in range(size) if hermite[r, c] != 0) for r in basis]
    active = [k for k, target in enumerate(reduction.targets) if target]
    if not active:
        return rank, None
    shifts = fmpq_mat(size, len(active))
    for place, k in enumerate(active):
        for i, entry in reduction.targets[k].items():
            shifts[position[i], place] = fmpq(entry.numerator, entry.denominator)
    basis_rows = fmpq_mat(rank, size, [hermite[r, c] for r in basis for c in range(size)])
    pivot_block = fmpq_mat(rank, rank, [hermite[r, c] for r in basis for c in pivots])  # H_p, r × r
    pivot_shifts = fmpq_mat(rank, len(active), [shifts[p, k] for p in pivots for k in range(len(active))])
    coordinates = pivot_block.transpose().solve(pivot_shifts)  # c with H_pᵀ c = y_p, one column per target
    if basis_rows.transpose() * coordinates != shifts:
        raise ValueError("a neighbouring shift is outside the rational span of the noise matrix")
    for place, k in enumerate(active):
        first = next((i for i in range(rank) if coordinates[i, place].q != 1), None)
        if first is not None:
            # f with H_p f_p = e_first on the pivot coordinates: f · (basis row i) = δ_(i, first), so f is integral
            # on the lattice and f · y = c_first, not an integer
            unit = fmpq_mat(rank, 1, [fmpq(int(i == first)) for i in range(rank)])
            solved = pivot_block.solve(unit)
            return rank, (k, {rows[p]: fraction_of(solved[q, 0]) for q, p in enumerate(pivots) if solved[q, 0] != 0})
    return rank, None


def _dense(vector: dict[int, Fraction] | list[Fraction], size: int) -> list[Fraction]:
    if isinstance(vector, list):
        return vector
    return [vector.get(i, Fraction(0)) for i in range(size)]


def _leak(difference: tuple[int, ...], dual: list[Fraction], scale: int, workload: Matrix) -> LatticeLeak:
    """The dual vector f (integral on the scaled lattice D·L, not on D·W v) as an integer functional on the output."""
    outputs = len(dual)
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
    if shift == 0:  # cannot happen: the dual is not integral on the shift
        raise ArithmeticError("the dual functional does not separate the neighbours")
    return LatticeLeak(difference, tuple(functional), modulus, shift)


def _unique_integer_shifts(
    noise_matrix: Matrix, workload: Matrix, differences: Sequence[tuple[int, ...]]
) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """The unique u with B u = W v for each difference v (B of full column rank), integral as W v is in the
    lattice: u = (BᵀB)⁻¹ Bᵀ W v, all differences in one exact solve."""
    draws, inputs = len(noise_matrix[0]), len(workload[0])
    b = to_flint(noise_matrix)
    w = to_flint(workload)
    per_input = (b.transpose() * b).solve(b.transpose() * w)  # draws × inputs: u for each e_j
    result = []
    for v in differences:
        support = [j for j in range(inputs) if v[j]]
        values = [sum((fraction_of(per_input[i, j]) * v[j] for j in support), Fraction(0)) for i in range(draws)]
        if any(value.denominator != 1 for value in values):
            raise ArithmeticError("the unique solution of B u = W v is not integral although W v is in the lattice")
        result.append((v, tuple(int(value) for value in values)))
    return tuple(result)
