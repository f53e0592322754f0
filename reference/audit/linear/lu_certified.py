"""The unique draw shifts of a square integer noise matrix, from a compiled float sparse LU, certified in integers.

When B (outputs × draws, its unused draws dropped) is square and invertible, every add/remove difference w_j has
the one draw shift u_j = B⁻¹ w_j, which is also the minimum-norm one: Δ² = max ‖u_j‖², Δ1 = max ‖u_j‖₁, and the
strategy is unique. The pure-Python sparse elimination finds the u_j one non-zero at a time; here the work is
done by compiled code (SuperLU through ``scipy.sparse.linalg.splu``, scipy's sparse integer products) and the
result is *certified* in exact integers, so no float enters it:

1. B and W in their sparsest common form (first differences of the rows where that at least halves the
   non-zeros, as the elimination does: ``B u = w`` iff ``P B u = P w``, P unimodular).
2. When B is triangular up to a reordering of rows and columns with pivots ±1 — a perfect matching of rows to
   draws with entries ±1 and no cycle among the other non-zeros, found by compiled graph routines on the
   pattern (the tree counter and its differences: each output adds one new draw) — det B = ±1 and U = B⁻¹ W is
   computed by exact int64 substitution level by level (step 4 without a factorisation), then certified by
   step 5. Only otherwise, steps 3 and 4:
3. one float64 sparse LU ``Pr B Pc = L U``; it is used only when L and U are integral in float64, L has a unit
   diagonal and U a diagonal of ±1, and then ``L U = Pr B Pc`` is checked in int64 (an integer LU with unit
   pivots: det B = ±1, so B is invertible and every u_j is integral);
4. U = B⁻¹ W by sparse triangular solves in int64, one sparse product per level of the factors' dependency
   graphs (few levels for tree-shaped counters: 13 at T = 10,000);
5. ``B U = W`` checked exactly in int64 — the certificate: with B invertible the solution is unique, so these
   are the u_j whatever the arithmetic that proposed them.

Every int64 product is preceded by a float64 bound of the same product of absolute values (below 2⁶², with
room for the bound's own rounding), so no product can wrap. Whatever does not pass (a singular or non-square B,
a non-integral factor, a pivot other than ±1, too many levels or non-zeros, a bound or a check that fails) gives
None: the caller then runs the exact elimination, which decides every case.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

import numpy as np

from reference.audit.linear.column_matrix import ColumnMatrix, IntegerArray, check_nonzeros, check_scan
from reference.audit.linear.size_limits import DEFAULT_LIMITS, SizeLimits
from reference.audit.linear.sparse_input import check_header
from reference.audit.linear.verdict import LinearNoiseVerdict
from reference.core.npz_files import SparseHeader

#: Most levels of a factor's dependency graph solved level by level (one sparse product each); beyond, the
#: elimination runs (a chain-shaped factor would need one product per row).
MAX_LEVELS = 2_000
#: The largest magnitude a float64 bound of an int64 product may reach (2⁶² with room for the bound's rounding).
_SAFE = float(2**61)


@dataclass(frozen=True)
class CertifiedShifts:
    """The certified unique draw shifts: ``shifts`` (draws × inputs, int64 CSC, column j is u_j) solve
    ``B u_j = w_j`` exactly for the B given with its zero columns dropped (``kept``: the draws kept, in order).
    ``draws``: row k of ``shifts`` is the shift of (kept) draw ``draws[k]`` (None: row k is draw k) — the column
    norms do not depend on the order. ``route``: how they were found (substitution or a float LU)."""

    shifts: Any
    kept: np.ndarray
    differenced: bool
    route: Literal["triangular", "lu"] = "lu"
    draws: np.ndarray | None = None

    def in_draw_order(self) -> Any:
        """The shifts with row k the shift of (kept) draw k (CSC int64)."""
        from scipy import sparse

        if self.draws is None:
            return self.shifts
        return sparse.csc_array(_remap(self.shifts, self.draws, None))


@dataclass(frozen=True)
class IntegerForm:
    """An integer matrix as a scipy CSC int64 ``matrix``: the matrix itself, or (``differenced``) its row first
    differences (row i minus row i − 1), the form a prefix workload is sparse in."""

    matrix: Any
    differenced: bool


def integer_sparse(value: object, name: str, limits: SizeLimits = DEFAULT_LIMITS) -> IntegerForm | None:
    """``value`` as a scipy CSC int64 matrix when it is an integer matrix held compactly (a scipy.sparse integer
    matrix, a 2-D numpy integer array, a :class:`ColumnMatrix` of ints — the latter in its sparser form), its size
    checked as the sparse audit checks it; None for anything else (rational rows, floats), which the exact paths
    read.

    Args:
        value: anything given as a matrix to the audit (what is not an integer matrix held compactly: None).
        name: the parameter it was given as, named in a refusal.
        limits: the size limits (sparse dimension and non-zeros for scipy matrices, scanned entries for arrays).

    Raises:
        ValueError: a matrix over a size limit (the same refusal as the exact paths give).
    """
    from scipy import sparse

    if isinstance(value, IntegerArray):
        value = value.array
    if sparse.issparse(value) and len(value.shape) == 2:  # type: ignore[attr-defined]
        dtype = np.dtype(value.dtype)  # type: ignore[attr-defined]
        if not np.issubdtype(dtype, np.signedinteger) and not (np.issubdtype(dtype, np.unsignedinteger)
                                                               and dtype.itemsize < 8):
            return None
        rows, cols = (int(size) for size in value.shape)  # type: ignore[attr-defined]
        if rows < 1 or cols < 1:
            return None
        check_header(SparseHeader(str(value.format), rows, cols, int(value.nnz), dtype), name,  # type: ignore[attr-defined]
                     max_dimension=limits.sparse_dimension, max_nonzeros=limits.nonzeros,
                     max_float_entries=limits.text_entries)
        coordinates = sparse.coo_array(value)
        data = np.asarray(coordinates.data).astype(np.int64)  # widened before repeated positions are summed
        if data.size and float(np.abs(data.astype(np.float64)).max()) * data.size >= _SAFE:
            return None
        row, col = coordinates.coords
        matrix = sparse.csc_array((data, (row, col)), shape=(rows, cols))  # repeated positions summed
        matrix.eliminate_zeros()
        return IntegerForm(matrix, False)
    if isinstance(value, np.ndarray) and value.ndim == 2 and np.issubdtype(value.dtype, np.integer):
        rows, cols = value.shape
        if rows < 1 or cols < 1 or value.dtype == np.uint64:
            return None
        check_scan(rows, cols, value.dtype.itemsize, name, limits.scanned_entries)
        return IntegerForm(sparse.csc_array(np.asarray(value).astype(np.int64)), False)
    if isinstance(value, ColumnMatrix):  # its sparser form, read column by column (ints only)
        differenced = 2 * value.nonzeros(True) < value.nonzeros(False)
        check_nonzeros(value.nonzeros(differenced), name, limits.nonzeros)  # before its entries become a matrix
        columns = value.columns(differenced)
        if not all(isinstance(entry, int) for column in columns for entry in column.values()):
            return None
        matrix = _from_columns(columns, value.rows, value.cols)
        return None if matrix is None else IntegerForm(matrix, differenced)
    return None


def _from_columns(columns: list[dict[int, Any]], rows: int, cols: int) -> Any | None:
    from scipy import sparse

    lengths = np.fromiter((len(column) for column in columns), dtype=np.int64, count=cols)
    indices = np.fromiter((i for column in columns for i in column), dtype=np.int64, count=int(lengths.sum()))
    values = [entry for column in columns for entry in column.values()]
    if values and max(abs(int(v)) for v in values) >= 2**62:
        return None
    data = np.array(values, dtype=np.int64)
    pointers = np.concatenate(([0], np.cumsum(lengths)))
    return sparse.csc_array((data, indices, pointers), shape=(rows, cols))


def _difference(matrix: Any) -> Any:
    """P·matrix, P the first-difference matrix (row i minus row i − 1), in int64."""
    from scipy import sparse

    rows = matrix.shape[0]
    first = sparse.eye_array(rows, format="csr", dtype=np.int64) - sparse.eye_array(rows, k=-1, format="csr",
                                                                                   dtype=np.int64)
    result = (first @ matrix).tocsc()
    result.eliminate_zeros()
    return result


def _difference_nonzeros(matrix: Any) -> int:
    """The non-zeros of P·matrix (:func:`_difference`) counted without forming it, for a CSC matrix without
    explicit zeros: entry (i, j) of P·matrix is M[i, j] − M[i − 1, j], non-zero only at a stored row i (unless
    the stored entry above equals it) or just below a stored row i whose next row is not stored."""
    matrix.sort_indices()
    rows, data, indices = matrix.shape[0], matrix.data, matrix.indices
    if not data.size:
        return 0
    column = np.repeat(np.arange(matrix.shape[1]), np.diff(matrix.indptr))
    # the stored entry before this one is the row just above, in the same column
    follows = np.zeros(data.size, dtype=bool)
    follows[1:] = (column[1:] == column[:-1]) & (indices[1:] == indices[:-1] + 1)
    above = np.zeros(data.size, dtype=data.dtype)
    above[1:] = data[:-1]
    above[~follows] = 0
    at_stored = int(np.count_nonzero(data != above))
    followed = np.append(follows[1:], False)  # the next row is stored, and counted above
    below = int(np.count_nonzero(~followed & (indices + 1 < rows)))
    return at_stored + below


def _bounded_product(left: Any, right: Any, right_largest: float | None = None) -> Any | None:
    """left @ right in int64, or None when it might not fit: every entry and partial sum of the product is at most
    (largest row sum of |left|) · (largest |right|), required below 2⁶¹ (computed in float64, whose relative
    rounding is far inside the factor 4 to 2⁶³). ``right_largest``: the largest |right| when known (an upper
    bound serves)."""
    left = left.tocsr()
    if left.nnz and right.nnz:
        row_sums = np.add.reduceat(np.abs(left.data).astype(np.float64), left.indptr[:-1][np.diff(left.indptr) > 0])
        largest = float(np.abs(right.data).max()) if right_largest is None else right_largest
        if float(row_sums.max()) * largest >= _SAFE:
            return None
    product = left @ right
    product.eliminate_zeros()
    return product


def _levels(strict: Any, limit: int) -> np.ndarray | None:
    """The level of each row of a CSR dependency matrix (row i depends on the rows of its non-zero columns): 0
    for none, else 1 + the largest level among the rows it depends on — by rounds, each levelling the rows whose
    dependencies are all levelled (O(non-zeros) in all); None past ``limit`` levels or for a cycle (rows never
    levelled)."""
    size = strict.shape[0]
    pending = np.diff(strict.indptr).astype(np.int64)  # dependencies of each row not yet levelled
    dependents = strict.tocsc()  # column j: the rows that depend on row j
    level = np.full(size, -1, dtype=np.int64)
    frontier = np.flatnonzero(pending == 0)
    depth = 0
    while frontier.size:
        if depth > limit:
            return None
        level[frontier] = depth
        starts, counts = dependents.indptr[frontier], np.diff(dependents.indptr)[frontier]
        total = int(counts.sum())
        if not total:
            break
        # the entries of the frontier's columns, their ranges concatenated
        offsets = np.repeat(starts - (np.cumsum(counts) - counts), counts) + np.arange(total)
        reached = dependents.indices[offsets]
        pending -= np.bincount(reached, minlength=size)
        frontier = np.unique(reached[pending[reached] == 0])  # those levelled now (sorting the few, not all)
        depth += 1
    return None if np.any(level < 0) else level


def _remap(matrix: Any, rows: np.ndarray | None, cols: np.ndarray | None) -> Any:
    """The matrix with row i moved to ``rows[i]`` and column j to ``cols[j]`` (None: kept), as CSR int64."""
    from scipy import sparse

    entries = sparse.coo_array(matrix)
    row, col = entries.coords
    return sparse.csr_array((entries.data, (row if rows is None else rows[row], col if cols is None else cols[col])),
                            shape=matrix.shape)


def _inverse(permutation: np.ndarray) -> np.ndarray:
    inverse = np.empty_like(permutation)
    inverse[permutation] = np.arange(permutation.size, dtype=permutation.dtype)
    return inverse


def _triangular_solve(strict: Any, diagonal: np.ndarray, right: Any, rows_in: np.ndarray | None,
                      rows_out: np.ndarray | None, limits: SizeLimits) -> Any | None:
    """X with (D + strict) X = R in int64 (:func:`_level_solve`); row k of X is returned at ``rows_out[k]``
    (None: unmoved). None past the limits or a bound."""
    found = _level_solve(strict, diagonal, right, rows_in, limits)
    if found is None:
        return None
    solution, order = found
    return _remap(solution, order if rows_out is None else rows_out[order], None)


def _level_solve(strict: Any, diagonal: np.ndarray, right: Any, rows_in: np.ndarray | None,
                 limits: SizeLimits) -> tuple[Any, np.ndarray] | None:
    """X with (D + strict) X = R in int64 (D = diag(±1), strict with an acyclic dependency graph: triangular up to
    a symmetric reordering), level by level: a row's level is one more than the largest among the rows it depends
    on, so the rows of one level depend only on rows of lower levels and each level is one sparse product. R is
    ``right`` with its row i moved to ``rows_in[i]`` (None: unmoved). Returned in the order solved, as (Y, order)
    with row k of Y the row ``order[k]`` of X (moving 10⁶ solved entries back costs more than the solve's
    products; what is row-order-free, column norms and B X = W with B's columns reordered, reads Y). None past the
    limits or a bound."""

    size = strict.shape[0]
    identity = np.arange(size)
    rows_in = identity if rows_in is None else rows_in
    if not strict.nnz:  # a diagonal system: X = D R, rows moved in one step
        solution = _remap(right, rows_in, None)
        solution.data *= np.repeat(diagonal, np.diff(solution.indptr))
        return solution, identity
    level = _levels(strict, MAX_LEVELS)
    if level is None:
        return None
    order = np.argsort(level, kind="stable")
    position = _inverse(order)
    permuted = _remap(strict, position, position)  # strictly block lower triangular in level order
    right_permuted = _remap(right, position[rows_in], None)
    sign = diagonal[order]
    bounds = np.searchsorted(level[order], np.arange(int(level.max()) + 2))
    solved = _RowBuffer(size, right.shape[1], max(1024, 2 * right.nnz))
    for depth in range(len(bounds) - 1):
        start, stop = int(bounds[depth]), int(bounds[depth + 1])
        block = right_permuted[start:stop]
        if start:
            product = _bounded_product(permuted[start:stop, :start], solved.rows(start), solved.largest)
            if product is None:
                return None
            block = block - product
        block.data *= np.repeat(sign[start:stop], np.diff(block.indptr))  # divide by ±1
        block.eliminate_zeros()
        if block.nnz and float(np.abs(block.data).max()) >= _SAFE:
            return None
        if solved.filled + block.nnz > limits.nonzeros:
            return None
        solved.append(block, start, stop)
    return solved.rows(size), order


class _RowBuffer:
    """The rows solved so far, in CSR arrays that grow by doubling: each level reads them as one matrix without
    copying (a stack of the blocks would copy every solved row once per level)."""

    def __init__(self, rows: int, cols: int, capacity: int) -> None:
        self.cols = cols
        self.index = np.int32 if max(rows, cols, capacity) < 2**30 else np.int64
        self.data = np.empty(capacity, dtype=np.int64)
        self.indices = np.empty(capacity, dtype=self.index)
        self.indptr = np.zeros(rows + 1, dtype=self.index)
        self.filled = 0
        self.largest = 0.0  # the largest |entry| so far, for the product bound

    def append(self, block: Any, start: int, stop: int) -> None:
        need = self.filled + block.nnz
        if need > self.data.size:
            capacity = max(2 * self.data.size, need)
            if capacity >= 2**30 and self.index == np.int32:
                self.index = np.int64
                self.indptr = self.indptr.astype(np.int64)
            self.data = np.concatenate([self.data[:self.filled], np.empty(capacity - self.filled, dtype=np.int64)])
            self.indices = np.concatenate([self.indices[:self.filled].astype(self.index),
                                           np.empty(capacity - self.filled, dtype=self.index)])
        self.data[self.filled:need] = block.data
        self.indices[self.filled:need] = block.indices
        self.indptr[start + 1:stop + 1] = self.filled + block.indptr[1:]
        if block.nnz:
            self.largest = max(self.largest, float(np.abs(block.data).max()))
        self.filled = need

    def rows(self, count: int) -> Any:
        """The first ``count`` rows (all solved) as a CSR matrix over the buffers."""
        from scipy import sparse

        end = int(self.indptr[count])
        return sparse.csr_array((self.data[:end], self.indices[:end], self.indptr[:count + 1]),
                                shape=(count, self.cols), copy=False)


def _integer_factor(part: Any, lower: bool) -> tuple[Any, np.ndarray] | None:
    """A float64 triangular factor as (its strictly triangular part, its diagonal) in int64, or None when an entry
    is not an integer below 2⁵², lies on the wrong side, or a diagonal entry is missing."""
    from scipy import sparse

    entries = sparse.coo_array(part)
    row, col = entries.coords
    data = entries.data
    if data.size and (not np.array_equal(data, np.round(data)) or float(np.abs(data).max()) >= 2.0**52):
        return None
    if np.any(row < col) if lower else np.any(row > col):
        return None
    on_diagonal = row == col
    diagonal = np.zeros(part.shape[0], dtype=np.int64)
    diagonal[row[on_diagonal]] = data[on_diagonal].astype(np.int64)
    if np.count_nonzero(on_diagonal) != part.shape[0]:
        return None
    strict = sparse.csr_array((data[~on_diagonal].astype(np.int64), (row[~on_diagonal], col[~on_diagonal])),
                              shape=part.shape)
    return strict, diagonal


def _signed_permutation(matrix: Any) -> bool:
    """Is the square CSC matrix a signed permutation (one entry ±1 in every row and every column)?"""
    rows, cols = matrix.shape
    if rows != cols or matrix.nnz != rows or not np.all(np.diff(matrix.indptr) == 1):
        return False
    return bool(np.all(np.abs(matrix.data) == 1) and np.unique(matrix.indices).size == rows)


def _permuted_triangular(b_matrix: Any) -> tuple[Any, np.ndarray, np.ndarray] | None:
    """B as a triangular matrix with pivots ±1 up to a permutation of its columns and a reordering of its rows, or
    None: (strict, diagonal, matched) with column i of ``B[:, matched]`` holding B's entry of row i on its diagonal
    (``diagonal``, all ±1) and ``strict`` the rest (CSR int64), whose dependency graph has no cycle — so one
    symmetric reordering makes ``B[:, matched]`` triangular and det B = ±1. The matching and the cycle test are
    compiled graph routines on the non-zero pattern (no arithmetic); counters whose every output adds one new draw
    have this shape (the tree counter, its first differences)."""
    from scipy import sparse
    from scipy.sparse.csgraph import connected_components, maximum_bipartite_matching

    size = b_matrix.shape[0]
    rows_form = sparse.csr_array(b_matrix)
    matched = np.asarray(maximum_bipartite_matching(rows_form, perm_type="column"))  # row i: its column matched[i]
    if np.any(matched < 0):
        return None  # no perfect matching: structurally singular (the elimination decides)
    square = rows_form[:, matched]
    diagonal = np.asarray(square.diagonal()).astype(np.int64)
    if not np.all(np.abs(diagonal) == 1):
        return None  # a matched pivot other than ±1 (another matching might serve: the LU path tries)
    strict = sparse.csr_array(square - sparse.diags_array(diagonal, format="csr", dtype=np.int64))
    strict.eliminate_zeros()
    components, _ = connected_components(strict, directed=True, connection="strong")
    if components != size:
        return None  # a cycle: no symmetric reordering is triangular (the float LU path handles it)
    return strict, diagonal, matched


def _triangular_shifts(b_matrix: Any, w_matrix: Any, limits: SizeLimits) -> tuple[Any, np.ndarray] | None:
    """B⁻¹ W (CSC int64, its rows in the order solved: row k is the shift of draw ``draws[k]``) and ``draws``, by
    exact substitution when B is a permuted triangular matrix with pivots ±1 (:func:`_permuted_triangular`),
    certified by ``B U = W`` in int64; None otherwise."""
    from scipy import sparse

    found = _permuted_triangular(b_matrix)
    if found is None:
        return None
    strict, diagonal, matched = found
    # B[:, matched] X' = W, and row i of X' is the shift of B's draw matched[i]; row k of the solution is row
    # order[k] of X', the shift of draw matched[order[k]]
    solved = _level_solve(strict, diagonal, w_matrix, None, limits)
    if solved is None:
        return None
    solution, order = solved
    draws = matched[order]
    check = _bounded_product(sparse.csc_array(b_matrix)[:, draws], solution)
    if check is None or (check != w_matrix).nnz:
        return None
    return sparse.csc_array(solution), draws


def certified_shifts(noise: IntegerForm, workload: IntegerForm,
                     limits: SizeLimits = DEFAULT_LIMITS) -> CertifiedShifts | None:
    """The unique exact draw shifts B⁻¹ W (module docstring), or None when this path does not certify them.

    Args:
        noise: B (outputs × draws), from :func:`integer_sparse`.
        workload: W (outputs × inputs), from :func:`integer_sparse`.
        limits: the size limits (``nonzeros`` bounds the shifts' non-zeros).
    """
    from scipy import sparse
    from scipy.sparse.linalg import splu

    b_matrix, w_matrix = noise.matrix, workload.matrix
    kept = np.flatnonzero(np.diff(b_matrix.indptr) > 0)  # draws no output uses do not affect privacy
    if kept.size < b_matrix.shape[1]:
        b_matrix = b_matrix[:, kept]
    size = b_matrix.shape[0]
    if b_matrix.shape[1] != size or w_matrix.shape[0] != size:
        return None
    if noise.differenced or workload.differenced:  # one is held differenced only: difference the other
        differenced = True
        b_matrix = b_matrix if noise.differenced else _difference(b_matrix)
        w_matrix = w_matrix if workload.differenced else _difference(w_matrix)
    else:  # the sparser common form, as the elimination chooses it
        differenced = 2 * (_difference_nonzeros(b_matrix) + _difference_nonzeros(w_matrix)) < (b_matrix.nnz
                                                                                              + w_matrix.nnz)
        if differenced:
            b_matrix, w_matrix = _difference(b_matrix), _difference(w_matrix)
    # the sparse audit's refusal, on the form it would hold (the limit bounds the work and memory of both)
    check_nonzeros(int(b_matrix.nnz + w_matrix.nnz), "noise_matrix and workload", limits.nonzeros)
    # B triangular up to permutations with pivots ±1 (det B = ±1 from its pattern and diagonal): exact
    # substitution, no float factorisation
    triangular = _triangular_shifts(b_matrix, w_matrix, limits)
    if triangular is not None:
        return CertifiedShifts(triangular[0], kept, differenced, "triangular", triangular[1])
    try:
        factor = splu(sparse.csc_array(b_matrix, dtype=np.float64), permc_spec="COLAMD")
    except RuntimeError:  # exactly singular in floats (B may still be invertible: the elimination decides)
        return None
    lower, upper = _integer_factor(factor.L, lower=True), _integer_factor(factor.U, lower=False)
    if lower is None or upper is None:
        return None
    (lower_strict, lower_diagonal), (upper_strict, upper_diagonal) = lower, upper
    if not (np.all(lower_diagonal == 1) and np.all(np.abs(upper_diagonal) == 1)):
        return None  # a pivot other than ±1: the shifts may be fractions (the elimination computes them)
    # B invertible: from B U = W below when W is a signed permutation (det B · det U = det W = ±1; the prefix and
    # identity workloads in their sparse forms), else from L U = Pr B Pc exactly (SuperLU moves row i of B to
    # perm_r[i] and column j to perm_c[j]) with unit pivots
    if not _signed_permutation(w_matrix):
        identity = sparse.eye_array(size, format="csr", dtype=np.int64)
        product = _bounded_product(lower_strict + identity,
                                   upper_strict + sparse.diags_array(upper_diagonal, dtype=np.int64, format="csr"))
        if product is None or (product != _remap(b_matrix, factor.perm_r, factor.perm_c)).nnz:
            return None
    # B X = W  <=>  L U Z = Pr W with X = Z's rows moved back (row perm_c[j] of Z is row j of X)
    forward = _triangular_solve(lower_strict, lower_diagonal, w_matrix, factor.perm_r, None, limits)
    if forward is None:
        return None
    backward = _triangular_solve(upper_strict, upper_diagonal, forward, None, _inverse(factor.perm_c), limits)
    if backward is None:
        return None
    shifts = sparse.csc_array(backward)
    check = _bounded_product(b_matrix, shifts)
    if check is None or (check != w_matrix).nnz:
        return None
    return CertifiedShifts(shifts, kept, differenced)


def _largest_column_sum(matrix: Any, squared: bool) -> int:
    """max_j Σ_i |X_ij| (or Σ_i X_ij²) of a CSC int64 matrix, exact: in int64 when a float bound allows it, else
    in Python ints."""
    values = matrix.data
    if not values.size:
        return 0
    magnitudes = np.abs(values).astype(np.float64)
    lengths = np.diff(matrix.indptr)
    nonempty = lengths > 0
    if float(magnitudes.max()) ** (2 if squared else 1) * float(lengths.max()) < _SAFE:
        terms = values * values if squared else np.abs(values)
        return int(np.add.reduceat(terms, matrix.indptr[:-1][nonempty]).max())
    best = 0
    for j in np.flatnonzero(nonempty).tolist():
        column = [int(v) for v in values[matrix.indptr[j]:matrix.indptr[j + 1]].tolist()]
        best = max(best, sum(v * v for v in column) if squared else sum(abs(v) for v in column))
    return best


def certified_gaussian_audit(noise_matrix: object, workload: object, scale: Fraction, users: int,
                             limits: SizeLimits = DEFAULT_LIMITS) -> LinearNoiseVerdict | None:
    """The Gaussian add/remove verdict of an integer B that is square and invertible once its unused draws are
    dropped, from :func:`certified_shifts`; None when that path does not apply or does not certify (the caller
    then runs the exact elimination). Δ² = m²·max ‖B⁻¹ w_j‖² exactly (B⁻¹ w_j is the only, hence the
    minimum-norm, draw shift), the ℓ1 sensitivity m·max ‖B⁻¹ w_j‖₁, and the unique strategy B⁻¹ W when it has at
    most ``limits.strategy_entries`` entries.

    Args:
        noise_matrix: anything given as B to the audit (a scipy.sparse or numpy integer matrix, an integer
            :class:`ColumnMatrix`; anything else gives None).
        workload: anything given as W to the audit, in the same forms.
        scale: the Gaussian standard deviation σ, a positive Fraction.
        users: the contributions m per user, a positive integer.
        limits: the size limits applied to the inputs, the shifts' non-zeros and the strategy returned.

    Raises:
        ValueError: an input over a size limit (the refusal the exact paths give).
    """
    from reference.core.exact_text import exact_text

    noise = integer_sparse(noise_matrix, "noise_matrix", limits)
    if noise is None:
        return None
    target = integer_sparse(workload, "workload", limits)
    if target is None:
        return None
    found = certified_shifts(noise, target, limits)
    if found is None:
        return None
    shifts = found.shifts
    draws, inputs = shifts.shape
    l1 = users * Fraction(_largest_column_sum(shifts, squared=False))
    squared = users * users * Fraction(_largest_column_sum(shifts, squared=True))
    rho = squared / (2 * scale * scale)
    strategy = None
    if draws * inputs <= limits.strategy_entries:
        strategy = tuple(tuple(Fraction(entry) for entry in row) for row in found.in_draw_order().toarray().tolist())
    how = ("B a permuted triangular matrix with pivots +-1: u_j = B^-1 w_j by exact integer substitution, "
           "certified by the integer check B U = W" if found.route == "triangular" else
           "B square and invertible: u_j = B^-1 w_j from a float sparse LU, certified by the integer checks "
           "L U = P B Q with unit pivots and B U = W")
    text = (f"private: Gaussian Mahalanobis sensitivity^2 = {exact_text(squared)}, rho = {exact_text(rho)} (exact; "
            f"{how}); delta(eps) exact")
    return LinearNoiseVerdict(
        noise="gaussian", scale=scale, outputs=draws, inputs=inputs, draws=draws, rank=draws,
        neighbours="add_remove", contributions=users, kernel_dimension=0, private=True, first_offending_column=None,
        strategy=strategy, strategy_unique=True, l1_sensitivity=l1, l2_sensitivity_squared=squared, epsilon=None,
        epsilon_exact=False, rho=rho, explanation=text, epsilon_lower=None,
        unused_draws=noise.matrix.shape[1] - found.kept.size,
    )
