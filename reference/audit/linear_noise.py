"""Linear-noise audit: is a linear-noise mechanism private at all, and how private?

The audited mechanism releases ``W x + B z`` with ``z`` a vector of i.i.d. noise draws (Gaussian with
standard deviation ``scale``, Laplace with scale ``scale``, or their integer-valued versions, the discrete
Gaussian N_Z(0, scale²) and the discrete Laplace of scale ``scale``), ``W`` the workload (outputs × inputs) and
``B`` the noise matrix (outputs × draws). Everything is exact (``Fraction``; linear algebra by python-flint's
``fmpq_mat``); floats are refused.

* Possibility. The output's noise lives in col(B). If a column w_j of W is not in col(B), changing input j
  moves the output mean out of that subspace: the privacy loss is infinite. The first such column is reported.
* Implied strategy. If W = B A is solvable, A is determined modulo ker(B). The audit reports the minimum-norm
  solution A = B⁺W = Bᵀ Y with (B Bᵀ) Y = W (any solution Y: Bᵀ Y does not depend on the choice), and says
  whether it is the unique one (ker B = {0}).
* Sensitivities (``add_remove``: one input changes by one). ℓ2² = max_j w_jᵀ (B Bᵀ)⁺ w_j (the Mahalanobis
  sensitivity, equal to the largest squared column norm of the minimum-norm A); ℓ1 = largest column ℓ1 norm of
  the minimum-norm A.
* Privacy. Gaussian: ρ = Δ²/(2σ²) and the exact (ε, δ)-profile δ(ε) = ``gaussian_delta(ε, σ, Δ²)``.
  Laplace: ε = Δ1/b, exact when ker B = {0} (the release is then equivalent to A x + z). Otherwise the smallest
  draw shift min{‖u‖₁ : B u = w_j} is a linear programme, certified both ways from a float solution
  (:mod:`reference.audit.laplace_lp`): ε is exact when the bounds meet, else ``[epsilon_lower, epsilon]``.
* Integer noise (``discrete-laplace``, ``discrete-gaussian``): a shift must also be an *integer* combination of
  B's columns (:mod:`reference.audit.lattice`). If one is not, the release leaks: a functional of one output,
  taken modulo an integer, decodes the neighbouring difference (the witness is reported; ε = ∞). If all are and
  B has a trivial kernel, the integer draw shift u is unique and ε = max ‖u‖₁/b (discrete Laplace) or
  ρ = max ‖u‖²/(2σ²) (discrete Gaussian; CKS Proposition 5) exactly; with a kernel they are not computed here.
* Verdict against a claim (:meth:`LinearNoiseVerdict.verdict`): ``"holds"``, ``"fails"`` or ``"inconclusive"``.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Literal

import numpy as np
from flint import fmpq, fmpq_mat

from reference.audit import sparse
from reference.audit.column_matrix import ColumnMatrix, IntegerArray, RationalColumns, check_scan, load_npy_columns
from reference.audit.integer_shift import integer_kernel_basis, minimum_integer_shift
from reference.audit.laplace_lp import max_integer_shift_norm, max_shift_norm
from reference.audit.lattice import LatticeLeak, lattice_audit, neighbouring_differences
from reference.core.certified import CertifiedReal
from reference.core.linalg import Matrix
from reference.core.validate import (
    Neighbours,
    RationalLike,
    check_neighbours,
    check_positive_int,
    fraction_text,
    positive_fraction,
    to_fraction,
)
from reference.privacy.gaussian import gaussian_delta

NoiseKind = Literal["gaussian", "laplace", "discrete-gaussian", "discrete-laplace"]
NOISE_KINDS: tuple[NoiseKind, ...] = ("gaussian", "laplace", "discrete-gaussian", "discrete-laplace")
#: Verdicts of an audit against a claim, and the exit status a command line gives each.
Verdict = Literal["holds", "fails", "inconclusive"]
EXIT_STATUS: dict[Verdict, int] = {"holds": 0, "fails": 1, "inconclusive": 3}

#: Largest number of rows, columns or draws accepted by the dense exact audit (substitution neighbours,
#: draw variances, the dense lattice test).
MAX_DIMENSION = 4_000
#: Largest number of rows or columns of a matrix given as a sequence (the sparse audit, add/remove neighbours).
MAX_SPARSE_DIMENSION = 20_000
#: Most neighbouring differences whose smallest integer shifts are enumerated (integer noise with a kernel).
MAX_ENUMERATED_SHIFTS = 256


# ------------------------------------------------------------------------------------------- validation


def exact_matrix(rows: object, name: str, limit: int = MAX_DIMENSION) -> Matrix:
    """Convert nested sequences (or a 2-D numpy integer array) of exact rationals to a :data:`Matrix`.

    Entries: int, Fraction, numpy integers or strings such as ``"1/3"``; floats and bools are refused with a
    ``TypeError`` naming ``name``. Rows must be non-empty and of equal length, at most ``limit`` of them and of
    at most ``limit`` entries.
    """
    if isinstance(rows, (str, bytes)) or not hasattr(rows, "__iter__"):
        raise TypeError(f"{name} must be a 2-D sequence of exact rationals, got {type(rows).__name__}")
    result: list[tuple[Fraction, ...]] = []
    width: int | None = None
    for index, row in enumerate(rows):
        if isinstance(row, (str, bytes)) or not hasattr(row, "__iter__"):
            raise TypeError(f"{name} must be 2-D: row {index} is a {type(row).__name__}")
        if index >= limit:
            raise ValueError(f"{name} has more than {limit} rows; at most {limit} rows and columns")
        converted = tuple(to_fraction(entry, f"{name}[{index}]") for entry in row)
        if width is None:
            width = len(converted)
        elif len(converted) != width:
            raise ValueError(f"{name}: row {index} has {len(converted)} entries, row 0 has {width}")
        result.append(converted)
    if not result or not width:
        raise ValueError(f"{name} must have at least one row and one column")
    if len(result) > limit or width > limit:
        raise ValueError(f"{name} is {len(result)}x{width}; at most {limit} rows and columns")
    return tuple(result)


def column_matrix(value: object, name: str) -> ColumnMatrix:
    """An exact matrix for the sparse audit: a :class:`ColumnMatrix` as it is, a 2-D numpy integer array without
    a per-entry conversion (its size checked first), anything else validated by :func:`exact_matrix`."""
    if isinstance(value, ColumnMatrix):
        return value
    if isinstance(value, np.ndarray) and value.ndim == 2 and np.issubdtype(value.dtype, np.integer):
        rows, cols = value.shape
        if rows < 1 or cols < 1:
            raise ValueError(f"{name} must have at least one row and one column")
        check_scan(rows, cols, value.dtype.itemsize, name)
        return IntegerArray(value)
    return RationalColumns(exact_matrix(value, name, MAX_SPARSE_DIMENSION))


def dense_input(matrix: ColumnMatrix, name: str) -> Matrix:
    if matrix.rows > MAX_DIMENSION or matrix.cols > MAX_DIMENSION:
        raise ValueError(
            f"{name} is {matrix.rows}x{matrix.cols}; at most {MAX_DIMENSION} rows and columns for substitution "
            "neighbours or draw_variances (the dense exact audit; add_remove neighbours take larger matrices)"
        )
    return matrix.dense()


def check_noise(noise: object) -> NoiseKind:
    for kind in NOISE_KINDS:
        if noise == kind:
            return kind
    raise ValueError(f"noise must be one of {', '.join(NOISE_KINDS)}, got {noise!r}")


def draw_weights(draw_variances: object, draws: int) -> tuple[Fraction, ...] | None:
    if draw_variances is None:
        return None
    if isinstance(draw_variances, (str, bytes)) or not hasattr(draw_variances, "__iter__"):
        raise TypeError("draw_variances must be a sequence of positive exact rationals")
    weights = tuple(positive_fraction(value, "draw_variances") for value in draw_variances)
    if len(weights) != draws:
        raise ValueError(f"draw_variances has {len(weights)} entries, noise_matrix has {draws} columns")
    return weights


def to_flint(matrix: Matrix) -> fmpq_mat:
    rows, cols = len(matrix), len(matrix[0])
    return fmpq_mat(rows, cols, [fmpq(entry.numerator, entry.denominator) for row in matrix for entry in row])


def _entry(value: object) -> Fraction:
    assert isinstance(value, fmpq)
    return Fraction(int(value.p), int(value.q))


def from_flint(matrix: fmpq_mat) -> Matrix:
    return tuple(tuple(_entry(matrix[i, j]) for j in range(matrix.ncols())) for i in range(matrix.nrows()))


def _hstack(left: fmpq_mat, right: fmpq_mat) -> fmpq_mat:
    rows = left.nrows()
    entries: list[fmpq] = []
    for i in range(rows):
        entries.extend(left[i, j] for j in range(left.ncols()))
        entries.extend(right[i, j] for j in range(right.ncols()))
    return fmpq_mat(rows, left.ncols() + right.ncols(), entries)


def _solve_consistent(system: fmpq_mat, rhs: fmpq_mat) -> tuple[int, int | None, fmpq_mat | None]:
    """rank(system), the first rhs column outside col(system) (or None), and one solution if consistent."""
    n = system.ncols()
    reduced, _ = _hstack(system, rhs).rref()
    pivots: list[int] = []
    for i in range(reduced.nrows()):
        pivot = next((j for j in range(n) if reduced[i, j] != 0), None)
        if pivot is None:
            break
        pivots.append(pivot)
    system_rank = len(pivots)
    for column in range(rhs.ncols()):
        if any(reduced[i, n + column] != 0 for i in range(system_rank, reduced.nrows())):
            return system_rank, column, None
    solution = fmpq_mat(n, rhs.ncols())
    for i, pivot in enumerate(pivots):
        for column in range(rhs.ncols()):
            solution[pivot, column] = reduced[i, n + column]
    return system_rank, None, solution


def load_exact_matrix(path: object, name: str = "matrix") -> Matrix:
    """Read an exact matrix from a file (for the CLI): ``.npy`` (integer dtype only; float arrays are refused),
    ``.csv`` (comma-separated entries such as ``1``, ``-1/2``, ``0.25``, read exactly) or ``.json`` (a list of
    rows whose entries are ints or strings such as ``"1/3"``; JSON floats are refused)."""
    if not isinstance(path, (str, Path)):
        raise TypeError(f"{name} must be a file path, got {type(path).__name__}")
    file = Path(path)
    suffix = file.suffix.lower()
    if suffix not in (".npy", ".csv", ".json"):
        raise ValueError(f"{name}: file must end in .npy, .csv or .json, got {file.name!r}")
    if not file.is_file():
        raise ValueError(f"{name}: no such file {str(file)!r}")
    rows: object
    if suffix == ".npy":
        array = np.load(file, allow_pickle=False)
        if array.ndim != 2 or not np.issubdtype(array.dtype, np.integer):
            raise ValueError(f"{name}: a .npy file must hold a 2-D integer array, got {array.ndim}-D {array.dtype}")
        rows = [[int(entry) for entry in row] for row in array.tolist()]
    elif suffix == ".csv":
        with file.open(newline="", encoding="utf-8") as handle:
            rows = [[entry.strip() for entry in row] for row in csv.reader(handle) if row]
    else:
        try:
            rows = json.loads(file.read_text(encoding="utf-8"))
        except json.JSONDecodeError as error:
            raise ValueError(f"{name}: invalid JSON ({error.msg})") from None
        if not isinstance(rows, list):
            raise ValueError(f"{name}: the JSON file must hold a list of rows")
    return exact_matrix(rows, name)


def load_matrix_columns(path: object, name: str = "matrix") -> ColumnMatrix:
    """:func:`load_exact_matrix` for the sparse audit: an integer ``.npy`` file is checked from its header (shape,
    dtype and size refused before any entry is read) and memory-mapped, never converted entry by entry."""
    if isinstance(path, (str, Path)) and Path(path).suffix.lower() == ".npy" and Path(path).is_file():
        return load_npy_columns(Path(path), name)
    return RationalColumns(load_exact_matrix(path, name))


# ------------------------------------------------------------------------------------------- verdict


@dataclass(frozen=True)
class LinearNoiseVerdict:
    """The exact verdict of :func:`audit_linear_noise` (sensitivities for its ``neighbours`` and ``contributions``)."""

    noise: NoiseKind
    scale: Fraction
    neighbours: Neighbours
    contributions: int
    outputs: int
    inputs: int
    draws: int
    rank: int  # rank of B
    kernel_dimension: int  # dim ker B = draws − rank; 0 means the implied strategy is unique
    private: bool  # every workload column lies in col(B)
    first_offending_column: int | None  # 0-based input index whose workload column is outside col(B)
    strategy: Matrix | None  # the minimum-norm A = B⁺W (draws × inputs)
    strategy_unique: bool
    l1_sensitivity: Fraction | None  # max column ℓ1 norm of the minimum-norm A
    l2_sensitivity_squared: Fraction | None  # max_j w_jᵀ (B Bᵀ)⁺ w_j (Mahalanobis, = max column ℓ2² of A)
    epsilon: Fraction | None  # Laplace: Δ1/b
    epsilon_exact: bool  # Laplace: True iff ker B = {0}; else ε is an upper bound
    rho: Fraction | None  # Gaussian: Δ²/(2σ²); discrete Gaussian: max ‖u‖²/(2σ²) when u is unique
    explanation: str
    #: integer noise only: the neighbouring difference whose shift is outside the noise lattice, and its decoder
    lattice_leak: LatticeLeak | None = None
    rho_is_bound: bool = False  # discrete Gaussian with a kernel: rho is an upper bound (one integer shift)
    #: Laplace with ker B != 0: a certified lower bound on ε from the LP dual (``epsilon`` is then the upper one)
    epsilon_lower: Fraction | None = None

    def verdict(self, epsilon: RationalLike | None = None, delta: RationalLike | None = None) -> Verdict:
        """The verdict on a claim: "private at all" without ``epsilon``; else ε-DP, or (ε, δ)-DP with ``delta``.

        ``fails`` when the release is not private or the exact privacy is certified worse than the claim;
        ``holds`` when it is certified at least as good; ``inconclusive`` when only bounds that do not decide it
        are known (an ε upper bound above the claim, or integer noise with a kernel).
        """
        if not self.private:
            return "fails"
        if epsilon is None:
            return "holds"
        claimed = positive_fraction(epsilon, "epsilon")
        target = Fraction(0) if delta is None else to_fraction(delta, "delta")
        if not 0 <= target < 1:
            raise ValueError(f"delta must be in [0, 1), got {fraction_text(target)}")
        if self.noise in ("laplace", "discrete-laplace"):
            if self.epsilon is None:
                return "inconclusive"
            if self.epsilon <= claimed:
                return "holds"
            proven_worse = self.epsilon_exact or (self.epsilon_lower is not None and self.epsilon_lower > claimed)
            return "fails" if proven_worse else "inconclusive"
        if target == 0:
            return "fails"  # Gaussian noise of either kind is never pure ε-DP
        if self.noise == "gaussian":
            achieved = self.delta(claimed)
            if achieved.certainly_le(target):
                return "holds"
            return "fails" if achieved.certainly_gt(target) else "inconclusive"
        if self.rho is None:
            return "inconclusive"
        from reference.privacy.zcdp import epsilon_from_rho_tight

        sufficient = epsilon_from_rho_tight(self.rho, target)  # a sufficient ε for ρ-zCDP, not the exact one
        return "holds" if sufficient.upper <= claimed else "inconclusive"

    def delta(self, epsilon: RationalLike) -> CertifiedReal:
        """Gaussian only: the exact δ(ε) of the release (certified enclosure), Δ² the Mahalanobis sensitivity."""
        if self.noise != "gaussian":
            raise ValueError("delta: the exact (epsilon, delta)-profile is computed for gaussian noise only")
        if not self.private or self.l2_sensitivity_squared is None:
            raise ValueError("delta: the mechanism is not private at all (delta = 1 for every epsilon)")
        return gaussian_delta(epsilon, self.scale, self.l2_sensitivity_squared)


def audit_linear_noise(
    noise_matrix: object,
    workload: object,
    noise: object,
    scale: RationalLike,
    *,
    draw_variances: Sequence[object] | None = None,
    neighbours: str = "add_remove",
    contributions: int = 1,
) -> LinearNoiseVerdict:
    """Audit the release ``W x + B z`` exactly (module docstring). ``noise_matrix`` B is outputs × draws,
    ``workload`` W is outputs × inputs, ``noise`` is one of :data:`NOISE_KINDS` (``scale`` = σ for the Gaussian
    kinds, b for the Laplace kinds); ``scale`` is a positive exact rational.

    ``neighbours``: ``"add_remove"`` (v = ±e_j) or ``"substitution"`` (v = e_i − e_j); ``contributions`` m: one
    user changes up to m records, so v ranges over the integer points of conv{m·(generating differences)}. The
    ℓ1 quantities are convex in v and the ℓ2² ones convex quadratics, so their maxima sit at the vertices: ε
    scales by m and Δ² by m² (and the lattice of integer shifts is generated by the m = 1 differences).

    ``draw_variances`` (Gaussian only): independent draws with variances σ²·d_j instead of σ² (for example
    CIP's cascade, whose split draws have variance 3/4). Then Δ² = max_j w_jᵀ (B D Bᵀ)⁺ w_j and no strategy
    or ℓ1 sensitivity is reported (the implied strategy involves √d_j).
    """
    kind = check_noise(noise)
    sc = positive_fraction(scale, "scale")
    relation = check_neighbours(neighbours)
    users = check_positive_int(contributions, "contributions")
    b_columns = column_matrix(noise_matrix, "noise_matrix")
    w_columns = column_matrix(workload, "workload")
    outputs, draws = b_columns.rows, b_columns.cols
    if w_columns.rows != outputs:
        raise ValueError(f"workload has {w_columns.rows} rows but noise_matrix has {outputs} (one per output)")
    weights = draw_weights(draw_variances, draws)
    if weights is not None and kind != "gaussian":
        raise ValueError("draw_variances is supported for gaussian noise only")
    if relation == "substitution" and w_columns.cols < 2:
        raise ValueError("substitution neighbours need at least two inputs")
    if relation == "add_remove" and weights is None:
        from reference.audit.linear_noise_sparse import sparse_linear_noise_audit

        verdict = sparse_linear_noise_audit(b_columns, w_columns, kind, sc, users)
        assert isinstance(verdict, LinearNoiseVerdict)
        return verdict
    return dense_linear_noise_audit(dense_input(b_columns, "noise_matrix"), dense_input(w_columns, "workload"),
                                    kind, sc, weights, relation, users)


def not_private_verdict(common: Mapping[str, object], kernel_dimension: int, offending: int) -> LinearNoiseVerdict:
    """The verdict when workload column ``offending`` is outside col(B)."""
    return LinearNoiseVerdict(
        **common,  # type: ignore[arg-type]
        kernel_dimension=kernel_dimension,
        private=False,
        first_offending_column=offending,
        strategy=None,
        strategy_unique=False,
        l1_sensitivity=None,
        l2_sensitivity_squared=None,
        epsilon=None,
        epsilon_exact=False,
        rho=None,
        explanation=(
            f"workload column {offending} is not in the column space of the noise matrix: changing input "
            f"{offending} moves the output mean outside the noise's support subspace (infinite privacy loss)"
        ),
    )


def dense_linear_noise_audit(b_matrix: Matrix, w_matrix: Matrix, kind: NoiseKind, sc: Fraction,
                             weights: tuple[Fraction, ...] | None, relation: Neighbours,
                             users: int) -> LinearNoiseVerdict:
    """The audit by dense exact linear algebra (python-flint), for every neighbour relation and draw variances:
    the twin of :func:`reference.audit.linear_noise_sparse.sparse_linear_noise_audit` for add/remove."""
    outputs, draws, inputs = len(b_matrix), len(b_matrix[0]), len(w_matrix[0])
    b = to_flint(b_matrix)
    w = to_flint(w_matrix)
    rank, offending, _ = _solve_consistent(b, w)
    common = {
        "noise": kind,
        "scale": sc,
        "outputs": outputs,
        "inputs": inputs,
        "draws": draws,
        "rank": rank,
        "neighbours": relation,
        "contributions": users,
    }
    if offending is not None:
        return not_private_verdict(common, draws - rank, offending)
    if weights is None:
        gram = b * b.transpose()
    else:
        scaled = tuple(tuple(entry * weight for entry, weight in zip(row, weights)) for row in b_matrix)
        gram = to_flint(scaled) * b.transpose()
    _, still_offending, y = _solve_consistent(gram, w)
    if still_offending is not None or y is None:  # col(B D Bᵀ) = col(B) for D > 0; cannot happen
        raise ArithmeticError("col(B D B^T) differs from col(B)")
    differences = neighbouring_differences(inputs, relation)
    quadratic = w.transpose() * y  # entries w_iᵀ (B D Bᵀ)⁺ w_j
    l2_squared = users * users * max(_quadratic_form(quadratic, v) for v in differences)
    strategy: Matrix | None = None
    l1: Fraction | None = None
    if weights is None:
        strategy = from_flint(b.transpose() * y)
        strategy_columns = sparse.sparse_columns(strategy)  # A v = Σ_j v_j A[:, j], sparse
        l1 = users * max(sparse.l1(sparse.combine(strategy_columns, v)) for v in differences)
    unique = rank == draws
    epsilon: Fraction | None = None
    rho: Fraction | None = None
    if kind in ("discrete-laplace", "discrete-gaussian"):
        return _integer_noise_verdict(
            common, b_matrix, w_matrix, draws - rank, strategy, l1, l2_squared, relation, users
        )
    epsilon_lower: Fraction | None = None
    if kind == "laplace":
        assert l1 is not None and strategy is not None
        epsilon = l1 / sc
        text = f"private: Laplace epsilon = l1/b = {epsilon} is exact (B has a trivial kernel)"
        if not unique:
            epsilon_lower, epsilon = _laplace_epsilon_bounds(b_matrix, w_matrix, strategy, sc / users, differences)
            if epsilon_lower == epsilon:
                text = f"private: Laplace epsilon = {epsilon} exactly (LP over the draw shifts, certified both ways)"
            else:
                text = f"private: Laplace epsilon in [{epsilon_lower}, {epsilon}] (LP bounds, certified; ker B != 0)"
    else:
        rho = l2_squared / (2 * sc * sc)
        text = f"private: Gaussian Mahalanobis sensitivity^2 = {l2_squared}, rho = {rho} (exact); delta(eps) exact"
    return LinearNoiseVerdict(
        **common,  # type: ignore[arg-type]
        kernel_dimension=draws - rank,
        private=True,
        first_offending_column=None,
        strategy=strategy,
        strategy_unique=unique and weights is None,
        l1_sensitivity=l1,
        l2_sensitivity_squared=l2_squared,
        epsilon=epsilon,
        epsilon_exact=kind == "laplace" and (unique or epsilon_lower == epsilon),
        rho=rho,
        explanation=text,
        epsilon_lower=epsilon_lower,
    )


def _quadratic_form(matrix: fmpq_mat, vector: Sequence[int]) -> Fraction:
    """vᵀ Q v for an integer vector v with few non-zero entries."""
    support = [j for j, value in enumerate(vector) if value]
    return sum((vector[i] * vector[j] * _entry(matrix[i, j]) for i in support for j in support), Fraction(0))


def _laplace_epsilon_bounds(
    b_matrix: Matrix, w_matrix: Matrix, strategy: Matrix, scale: Fraction, differences: Sequence[Sequence[int]]
) -> tuple[Fraction, Fraction]:
    """Certified [lower, upper] of max_v min{‖u‖₁ : B u = W v} / scale over the neighbouring differences v
    (:func:`reference.audit.laplace_lp.max_shift_norm`; the minimum-norm strategy supplies a solution where the
    sparse elimination does not)."""
    workload_columns = sparse.sparse_columns(w_matrix)
    targets = [sparse.combine(workload_columns, vector) for vector in differences]
    strategy_columns: list[sparse.Sparse] = []  # A (draws × inputs) by columns, built on first need

    def fallback(k: int) -> sparse.Sparse:
        if not strategy_columns:
            strategy_columns.extend(sparse.sparse_columns(strategy))
        return sparse.combine(strategy_columns, differences[k])  # A v = Σ_j v_j A[:, j]

    lower, upper = max_shift_norm(b_matrix, targets, fallback)
    return lower / scale, upper / scale


def _smallest_integer_shifts(b_matrix: Matrix, shifts: Sequence[Mapping[int, int]]) -> int | None:
    scale = math.lcm(*(entry.denominator for row in b_matrix for entry in row))
    return smallest_integer_shifts(sparse.sparse_columns(b_matrix, scale), len(b_matrix), shifts)


def smallest_integer_shifts(integer_columns: Sequence[Mapping[int, Fraction]], outputs: int,
                            shifts: Sequence[Mapping[int, int]]) -> int | None:
    """max over the differences of the smallest integer ‖u‖₁ (exact enumeration over the integer kernel, on small
    instances: :mod:`reference.audit.integer_shift`), or None when an instance is too large; B is given by its
    integer (scaled) sparse columns."""
    if len(shifts) > MAX_ENUMERATED_SHIFTS:
        return None
    basis = integer_kernel_basis(integer_columns, outputs)
    found = [minimum_integer_shift(basis, shift, len(integer_columns)) for shift in shifts]
    return None if any(value is None for value in found) else max(value for value in found if value is not None)


def _integer_noise_verdict(
    common: Mapping[str, object],
    b_matrix: Matrix,
    w_matrix: Matrix,
    kernel_dimension: int,
    strategy: Matrix | None,
    l1: Fraction | None,
    l2_squared: Fraction | None,
    relation: Neighbours,
    users: int,
) -> LinearNoiseVerdict:
    """The verdict for integer-valued noise, from the lattice test (module docstring)."""
    found = lattice_audit(b_matrix, w_matrix, relation)
    kind, scale = common["noise"], common["scale"]
    assert isinstance(scale, Fraction)
    fields = {
        **common,
        "kernel_dimension": kernel_dimension,
        "first_offending_column": None,
        "strategy": strategy,
        "strategy_unique": False,
        "l1_sensitivity": l1,
        "l2_sensitivity_squared": l2_squared,
    }
    if found.leak is not None:
        return LinearNoiseVerdict(
            **fields,  # type: ignore[arg-type]
            private=False,
            epsilon=None,
            epsilon_exact=False,
            rho=None,
            explanation="not private: the noise is integer-valued and " + found.leak.describe(),
            lattice_leak=found.leak,
        )
    if found.integer_shifts is None:
        if found.some_integer_shifts is not None:
            # an integer shift u per difference bounds the loss from above (shift the draws by u); for discrete
            # Laplace the LP is tried for a smaller integral u. Upper bounds only: no lower bound is claimed
            differences = neighbouring_differences(len(w_matrix[0]), relation)
            if kind == "discrete-laplace":
                targets = [sparse.combine(sparse.sparse_columns(w_matrix), v) for v in differences]
                _, best = max_integer_shift_norm(b_matrix, targets, found.some_integer_shifts)
                smallest = _smallest_integer_shifts(b_matrix, found.some_integer_shifts)
                how = "upper bound"
                if smallest is not None:
                    best, how = Fraction(smallest), "upper bound; the largest smallest integer shift, exact"
                bound = users * best / scale
                return LinearNoiseVerdict(
                    **fields,  # type: ignore[arg-type]
                    private=True, epsilon=bound, epsilon_exact=False, rho=None,
                    explanation=f"private: every shift is B u with an integer u (B has a kernel, u not unique); "
                    f"discrete Laplace epsilon <= max ||u||_1/b = {fraction_text(bound)} ({how})",
                )
            l2_bound = max((sum(value * value for value in u.values()) for u in found.some_integer_shifts),
                           default=0)
            rho_bound = users * users * Fraction(l2_bound) / (2 * scale * scale)
            return LinearNoiseVerdict(
                **fields,  # type: ignore[arg-type]
                private=True, epsilon=None, epsilon_exact=False, rho=rho_bound, rho_is_bound=True,
                explanation=f"private: every shift is B u with an integer u (B has a kernel, u not unique); "
                f"discrete Gaussian rho <= max ||u||^2/(2 sigma^2) = {fraction_text(rho_bound)} (upper bound)",
            )
        return LinearNoiseVerdict(
            **fields,  # type: ignore[arg-type]
            private=True,
            epsilon=None,
            epsilon_exact=False,
            rho=None,
            explanation=(
                "private (every neighbouring shift is an integer combination of the noise draws, so the loss is "
                "finite), but B has a kernel: the integer draw shift is not unique and its minimum is not computed"
            ),
        )
    shifts = [u for _, u in found.integer_shifts]
    if kind == "discrete-laplace":
        worst = users * max(sum(abs(value) for value in u) for u in shifts)
        epsilon = Fraction(worst) / scale
        return LinearNoiseVerdict(
            **fields,  # type: ignore[arg-type]
            private=True,
            epsilon=epsilon,
            epsilon_exact=True,
            rho=None,
            explanation=f"private: every shift is B u with a unique integer u; discrete Laplace epsilon = "
            f"max ||u||_1/b = {fraction_text(epsilon)} (exact)",
        )
    worst_squared = users * users * max(sum(value * value for value in u) for u in shifts)
    rho = Fraction(worst_squared) / (2 * scale * scale)
    return LinearNoiseVerdict(
        **fields,  # type: ignore[arg-type]
        private=True,
        epsilon=None,
        epsilon_exact=False,
        rho=rho,
        explanation=f"private: every shift is B u with a unique integer u; discrete Gaussian rho = "
        f"max ||u||^2/(2 sigma^2) = {fraction_text(rho)} (exact)",
    )
