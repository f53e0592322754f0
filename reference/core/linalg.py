"""Exact linear algebra over the rationals (``fractions.Fraction``).

Matrices are tuples of row tuples so that they are immutable and hashable. Everything here is exact: no
float ever enters. The routines are the textbook ones (Gauss–Jordan elimination with exact pivots), written
out because exactness, not speed, is the point; use them for the small instances that certify the fast
structured formulas elsewhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from flint import fmpq, fmpq_mat

Matrix: TypeAlias = tuple[tuple[Fraction, ...], ...]
Vector: TypeAlias = tuple[Fraction, ...]

ZERO = Fraction(0)
ONE = Fraction(1)


def as_matrix(rows: Sequence[Sequence[object]]) -> Matrix:
    """Build a :data:`Matrix` from nested sequences of ints or Fractions (floats are refused).

    Args:
        rows: the rows, nested sequences of ``int`` or ``Fraction`` entries, all of one length (a float, a bool or
            anything else is a TypeError; rows of different lengths a ValueError).
    """
    result = []
    width = None
    for row in rows:
        converted = []
        for entry in row:
            if isinstance(entry, bool) or not isinstance(entry, (int, Fraction)):
                raise TypeError(f"matrix entries must be int or Fraction, got {type(entry).__name__}")
            converted.append(Fraction(entry))
        if width is None:
            width = len(converted)
        elif len(converted) != width:
            raise ValueError("matrix rows must all have the same length")
        result.append(tuple(converted))
    return tuple(result)


def shape(matrix: Matrix) -> tuple[int, int]:
    """(rows, columns).

    Args:
        matrix: an exact :data:`Matrix` (a tuple of equal-length row tuples of Fractions); the empty matrix has shape
            (0, 0).
    """
    return len(matrix), (len(matrix[0]) if matrix else 0)


def identity(size: int) -> Matrix:
    """The ``size`` x ``size`` identity.

    Args:
        size: the number of rows and columns, an integer >= 0.
    """
    return tuple(tuple(ONE if i == j else ZERO for j in range(size)) for i in range(size))


def transpose(matrix: Matrix) -> Matrix:
    """The transpose.

    Args:
        matrix: an exact :data:`Matrix` (a tuple of equal-length row tuples of Fractions).
    """
    return tuple(zip(*matrix)) if matrix else ()


def matmul(left: Matrix, right: Matrix) -> Matrix:
    """The exact product ``left @ right``.

    Args:
        left: an exact :data:`Matrix` (a tuple of equal-length row tuples of Fractions), rows × inner.
        right: an exact :data:`Matrix` (a tuple of equal-length row tuples of Fractions), inner × columns (a ValueError
            when the inner sizes differ).
    """
    rows, inner = shape(left)
    inner_right, cols = shape(right)
    if inner != inner_right:
        raise ValueError(f"cannot multiply {rows}x{inner} by {inner_right}x{cols}")
    columns = transpose(right)
    return tuple(tuple(sum((a * b for a, b in zip(row, col)), ZERO) for col in columns) for row in left)


def matvec(matrix: Matrix, vector: Sequence[Fraction]) -> Vector:
    """The exact product ``matrix @ vector``.

    Args:
        matrix: an exact :data:`Matrix` (a tuple of equal-length row tuples of Fractions), rows × columns.
        vector: the exact vector, ``columns`` Fractions (a ValueError when its length differs).
    """
    if matrix and len(matrix[0]) != len(vector):
        raise ValueError("matrix and vector sizes differ")
    return tuple(sum((a * b for a, b in zip(row, vector)), ZERO) for row in matrix)


def quadratic_form(matrix: Matrix, vector: Sequence[Fraction]) -> Fraction:
    """``vector^T matrix vector`` exactly.

    Args:
        matrix: a square exact :data:`Matrix`, size × size.
        vector: the exact vector, ``size`` Fractions.
    """
    return sum((v * w for v, w in zip(vector, matvec(matrix, vector))), ZERO)


def _eliminate(matrix: Matrix, augment: Matrix | None) -> tuple[list[list[Fraction]], Fraction, list[Fraction]]:
    """Gauss–Jordan elimination with row swaps; returns (reduced augmented rows, determinant, pivots).

    The pivots are those met *without* swaps when the matrix is positive definite (Sylvester: all leading
    principal minors positive iff all pivots of unpivoted elimination are positive), so they are recorded
    in order for :func:`is_positive_definite`.
    """
    size, cols = shape(matrix)
    if size != cols:
        raise ValueError(f"expected a square matrix, got {size}x{cols}")
    extra = augment if augment is not None else tuple(() for _ in range(size))
    rows = [list(matrix[i]) + list(extra[i]) for i in range(size)]
    determinant = ONE
    pivots: list[Fraction] = []
    for col in range(size):
        pivot_row = next((r for r in range(col, size) if rows[r][col] != 0), None)
        if pivot_row is None:
            return rows, ZERO, pivots
        if pivot_row != col:
            rows[col], rows[pivot_row] = rows[pivot_row], rows[col]
            determinant = -determinant
        pivot = rows[col][col]
        pivots.append(pivot)
        determinant *= pivot
        inverse_pivot = ONE / pivot
        rows[col] = [entry * inverse_pivot for entry in rows[col]]
        pivot_values = rows[col]
        for r in range(size):
            if r != col:
                factor = rows[r][col]
                if factor:
                    rows[r] = [a - factor * b for a, b in zip(rows[r], pivot_values)]
    return rows, determinant, pivots


def inverse(matrix: Matrix) -> Matrix:
    """The exact inverse by Gauss–Jordan elimination; ``ValueError`` if the matrix is singular.

    Args:
        matrix: a square exact :data:`Matrix` (a ValueError if it is not square or is singular).
    """
    size = len(matrix)
    rows, determinant, _ = _eliminate(matrix, identity(size))
    if determinant == 0:
        raise ValueError("matrix is singular")
    return tuple(tuple(row[size:]) for row in rows)


def determinant(matrix: Matrix) -> Fraction:
    """The exact determinant by elimination.

    Args:
        matrix: a square exact :data:`Matrix` (a ValueError if it is not square).
    """
    _, det, _ = _eliminate(matrix, None)
    return det


def is_positive_definite(matrix: Matrix) -> bool:
    """Exact test: symmetric and every pivot of elimination *without row swaps* is positive (Sylvester).

    Args:
        matrix: an exact :data:`Matrix`; one that is not square or not symmetric is not positive definite (False, no
            error).
    """
    size, cols = shape(matrix)
    if size != cols or any(matrix[i][j] != matrix[j][i] for i in range(size) for j in range(i)):
        return False
    rows = [list(row) for row in matrix]
    for col in range(size):
        pivot = rows[col][col]
        if pivot <= 0:
            return False
        for r in range(col + 1, size):
            factor = rows[r][col] / pivot
            if factor:
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col])]
    return True


def kron(left: Matrix, right: Matrix) -> Matrix:
    """The Kronecker product ``left ⊗ right``.

    Args:
        left: an exact :data:`Matrix` (a tuple of equal-length row tuples of Fractions) (the block pattern).
        right: an exact :data:`Matrix` (a tuple of equal-length row tuples of Fractions) (the block each entry of
            ``left`` scales).
    """
    return tuple(tuple(a * b for a in left_row for b in right_row) for left_row in left for right_row in right)


def diagonal(matrix: Matrix) -> Vector:
    """The main diagonal.

    Args:
        matrix: a square exact :data:`Matrix` (its first ``rows`` diagonal entries are read).
    """
    return tuple(matrix[i][i] for i in range(len(matrix)))


def row_sums(matrix: Matrix) -> Vector:
    """The sum of each row.

    Args:
        matrix: an exact :data:`Matrix` (a tuple of equal-length row tuples of Fractions).
    """
    return tuple(sum(row, ZERO) for row in matrix)


def to_flint(matrix: Matrix) -> fmpq_mat:
    """The exact matrix as a FLINT rational matrix (for fast exact products, ranks and solves).

    Args:
        matrix: an exact :data:`Matrix` (a tuple of equal-length row tuples of Fractions) with at least one row.
    """
    from flint import fmpq, fmpq_mat  # imported here: the Fraction routines above do not need FLINT

    rows, columns = len(matrix), len(matrix[0])
    return fmpq_mat(rows, columns, [fmpq(entry.numerator, entry.denominator) for row in matrix for entry in row])


def from_flint(matrix: fmpq_mat) -> Matrix:
    """A FLINT rational matrix back as an exact :data:`Matrix` of Fractions.

    Args:
        matrix: a FLINT rational matrix (``fmpq_mat``).
    """
    return tuple(tuple(fraction_of(matrix[i, j]) for j in range(matrix.ncols())) for i in range(matrix.nrows()))


def rref_pivots(reduced: fmpq_mat, width: int) -> list[int]:
    """The pivot columns of a FLINT reduced row echelon form, row by row, looking only at its first ``width``
    columns (the rest may be an augmented right-hand side); the rows below the last pivot are zero there.

    Args:
        reduced: a FLINT rational matrix in reduced row echelon form (as ``fmpq_mat.rref()`` returns it).
        width: how many leading columns to look at for pivots (the coefficient columns; later columns are an augmented
            right-hand side).
    """
    pivots: list[int] = []
    for i in range(reduced.nrows()):
        pivot = next((j for j in range(width) if reduced[i, j] != 0), None)
        if pivot is None:
            break
        pivots.append(pivot)
    return pivots


def fraction_of(value: fmpq) -> Fraction:
    """One entry of a FLINT rational matrix (an ``fmpq``) as a Fraction.

    Args:
        value: one entry of a FLINT rational matrix (an ``fmpq``, read through its ``p`` and ``q``); anything without
            them is a TypeError.
    """
    numerator, denominator = getattr(value, "p", None), getattr(value, "q", None)
    if numerator is None or denominator is None:
        raise TypeError(f"expected a FLINT rational (fmpq), got {type(value).__name__}")
    return Fraction(int(numerator), int(denominator))
