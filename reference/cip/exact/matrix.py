"""The covariance C_depth of correlated input perturbation (CIP paper, Definition 3.1), exactly.

Conventions
-----------
* ``depth`` is the height of the perfect binary tree; there are ``n = 2**depth`` leaves (data cells), in
  natural integer order; the child labelled 0 is the left (lower) one.
* ``C_0 = (1)``; ``C_1 = [[1, -1/2], [-1/2, 1]]``; ``C_{i+1} = [[C_i, -J_i / 2**(2i+1)], [-J_i / 2**(2i+1), C_i]]``
  (the LaTeX rendering of the paper; the OCR rendering prints the exponent as ``2^i + 1``, which the
  registry shows to be wrong: it breaks Theorem 3.3 and Proposition 3.5).
* Entry (i, j) depends only on the height ``h`` of the lowest common ancestor of leaves i and j, which is the
  bit length of ``i XOR j``: 1 on the diagonal, ``-2**(1 - 2h)`` off it.
* Tree nodes are addressed by ``(level, position)``: level 0 is the root, level ``depth`` the leaves; node
  ``(l, p)`` covers leaves ``[p * 2**(depth - l), (p + 1) * 2**(depth - l))``.

Everything here is exact (``Fraction``). The inverse is computed two independent ways — by Gauss–Jordan
elimination on the matrix and by the block recursion of Lemma B.2 — so that each checks the other.
"""

from __future__ import annotations

from fractions import Fraction

from reference.core import linalg
from reference.core.linalg import Matrix, Vector, fraction_of
from reference.core.validate import check_depth

#: Depth above which building the dense exact matrix is refused (2**12 = 4096 rows of Fractions is ~16M
#: entries; beyond that use the structured formulas, which never build the matrix).
MAX_DENSE_DEPTH = 12


def lca_height(i: int, j: int) -> int:
    """Height of the lowest common ancestor of leaves ``i`` and ``j`` (0 when ``i == j``).

    Args:
        i: a leaf index, an integer >= 0 (0-based, natural order; not checked against a depth).
        j: another leaf index, an integer >= 0.
    """
    return (i ^ j).bit_length()


def covariance_entry_from_height(height: int) -> Fraction:
    """C(i, j) for leaves whose lowest common ancestor has the given height (Definition 3.1).

    Args:
        height: the height of the two leaves' lowest common ancestor, an integer >= 0 (0 means the same leaf,
            the diagonal; h >= 1 gives −2**(1 − 2h)). Not checked against a depth.
    """
    if height == 0:
        return Fraction(1)
    return -Fraction(1, 2 ** (2 * height - 1))


def covariance_entry(depth: int, i: int, j: int) -> Fraction:
    """Entry (i, j) of C_depth, 0-based, without building the matrix.

    Args:
        depth: the tree's depth, an integer in [0, 30] (n = 2**depth leaves).
        i: the row's leaf index, an integer in [0, n − 1].
        j: the column's leaf index, an integer in [0, n − 1].
    """
    depth = check_depth(depth)
    n = 1 << depth
    for name, value in (("i", i), ("j", j)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
            raise ValueError(f"{name} must be an integer leaf index in [0, {n - 1}], got {value!r}")
    return covariance_entry_from_height(lca_height(i, j))


def covariance(depth: int) -> Matrix:
    """C_depth built by the block recursion of Definition 3.1, exactly (``depth`` <= 12).

    Args:
        depth: the tree's depth, an integer in [0, 12] (the matrix is 2**depth × 2**depth Fractions).
    """
    depth = check_depth(depth, maximum=MAX_DENSE_DEPTH)
    current: list[list[Fraction]] = [[Fraction(1)]]
    if depth >= 1:
        current = [[Fraction(1), Fraction(-1, 2)], [Fraction(-1, 2), Fraction(1)]]
    for i in range(1, depth):
        # C_{i+1} from C_i: off-diagonal blocks are -J_i / 2^(2i+1)
        off = -Fraction(1, 2 ** (2 * i + 1))
        size = len(current)
        top = [row + [off] * size for row in current]
        bottom = [[off] * size + row for row in current]
        current = top + bottom
    return tuple(tuple(row) for row in current)


def inverse_by_elimination(depth: int) -> Matrix:
    """C_depth^{-1} by exact elimination on :func:`covariance`, independent of Lemma B.2.

    The matrix is scaled to integers (``2**(2 depth - 1) C`` has integer entries) and inverted by FLINT's
    exact rational elimination (``fmpq_mat.inv``), then checked exactly: ``C @ X == I`` is verified before
    returning, so the result is the inverse whatever the method. Depth 10 (1024 x 1024) takes seconds; the
    pure-Python :func:`reference.core.linalg.inverse` is the independent twin used at small depths.

    Args:
        depth: the tree's depth, an integer in [0, 12] (the inverse is 2**depth × 2**depth; depth 10 takes
            seconds).
    """
    import flint  # local: FLINT is only needed for the large exact inversions

    matrix = covariance(depth)
    n = len(matrix)
    scale = 1 << max(2 * depth - 1, 0)
    scaled = flint.fmpz_mat(n, n, [int(entry * scale) for row in matrix for entry in row])
    inverse_scaled = flint.fmpq_mat(scaled).inv()
    # C^{-1} = scale * (scale C)^{-1}; read back as Fractions
    result = tuple(
        tuple(fraction_of(q) * scale for q in (inverse_scaled[i, j] for j in range(n))) for i in range(n)
    )
    # exact certificate: (scale C) @ (C^{-1}) == scale * I, in integers via FLINT
    check = scaled * flint.fmpq_mat(n, n, [flint.fmpq(x.numerator, x.denominator) for row in result for x in row])
    if check != flint.fmpq_mat(n, n, [scale if i == j else 0 for i in range(n) for j in range(n)]):
        raise ArithmeticError("exact inverse failed its C @ X == I check")
    return result


def inverse_by_lemma_b2(depth: int) -> Matrix:
    """C_depth^{-1} from the block recursion printed as Lemma B.2 (a claim; compare with elimination).

    ``C_1^{-1} = [[4/3, 2/3], [2/3, 4/3]]`` and
    ``C_j^{-1} = [[C_{j-1}^{-1} + J/3, 2J/3], [2J/3, C_{j-1}^{-1} + J/3]]``.
    For depth 0 the inverse of (1) is (1).

    Args:
        depth: the tree's depth, an integer in [0, 12] (the inverse is 2**depth × 2**depth Fractions).
    """
    depth = check_depth(depth, maximum=MAX_DENSE_DEPTH)
    if depth == 0:
        return ((Fraction(1),),)
    current = [[Fraction(4, 3), Fraction(2, 3)], [Fraction(2, 3), Fraction(4, 3)]]
    third, two_thirds = Fraction(1, 3), Fraction(2, 3)
    for _ in range(1, depth):
        size = len(current)
        top = [[entry + third for entry in row] + [two_thirds] * size for row in current]
        bottom = [[two_thirds] * size + [entry + third for entry in row] for row in current]
        current = top + bottom
    return tuple(tuple(row) for row in current)


def precision_entry_from_height(depth: int, height: int) -> Fraction:
    """Entry of C_depth^{-1} for leaves whose lowest common ancestor has the given height.

    Derived from the Haar eigen-decomposition (see :func:`spectrum`), not from Lemma B.2:
    ``C^{-1} = sum over Haar vectors h of h h^T / (lambda_h |h|^2)`` with ``lambda = 2**-depth`` for the
    all-ones vector and ``3 * 2**-l`` for a Haar vector of height l (``|h|^2 = 2**l``). For leaves whose lowest
    common ancestor has height ``h >= 1``: the ones vector gives 1, each Haar vector of height l > h that
    contains both gives +1/3, the one of height h gives -1/3: ``(depth - h + 2) / 3``. On the diagonal:
    ``1 + depth/3``.

    Args:
        depth: the tree's depth, an integer in [0, 30].
        height: the height of the two leaves' lowest common ancestor, an integer in [0, depth] (0 = the
            diagonal).
    """
    depth = check_depth(depth)
    if not 0 <= height <= depth:
        raise ValueError(f"height must be in [0, {depth}], got {height}")
    return _precision_entry_from_height(depth, height)


def _precision_entry_from_height(depth: int, height: int) -> Fraction:
    """:func:`precision_entry_from_height` of a depth and a height already checked."""
    if height == 0:
        return 1 + Fraction(depth, 3)
    return Fraction(depth - height + 2, 3)


def precision_diagonal(depth: int) -> Vector:
    """diag(C_depth^{-1}) by elimination (exact).

    Args:
        depth: the tree's depth, an integer in [0, 12] (a dense exact inverse is built: keep it small).
    """
    return linalg.diagonal(inverse_by_elimination(depth))


def max_precision_diagonal(depth: int) -> Fraction:
    """max_i (C_depth^{-1})_{ii}, exactly, for any depth.

    For ``depth <= 8`` this is read off the inverse computed by elimination; above that, from the Haar
    closed form (:func:`precision_entry_from_height`), which the verification suite checks against
    elimination for every depth up to 10.

    Args:
        depth: the tree's depth, an integer in [0, 30] (at most 8 reads the elimination inverse, above it the
            Haar closed form).
    """
    depth = check_depth(depth)
    if depth <= 8:
        return max(precision_diagonal(depth))
    return _precision_entry_from_height(depth, 0)


def row_sums(depth: int) -> Vector:
    """The row sums of C_depth (Proposition B.1(3) claims each is 2**-depth).

    Args:
        depth: the tree's depth, an integer in [0, 12] (the dense matrix is built).
    """
    return linalg.row_sums(covariance(depth))


def node_variance(matrix: Matrix, depth: int, level: int, position: int) -> Fraction:
    """Variance (σ = 1) of tree node ``(level, position)``: the sum of the covariance block it covers.

    Args:
        matrix: the leaf covariance, a square exact matrix of 2**depth rows (tuples of Fractions, as
            :func:`covariance` returns); not checked.
        depth: the tree's depth, an integer >= 0 matching ``matrix`` (2**depth rows).
        level: the node's level, an integer in [0, depth] (0 = root, ``depth`` = a single leaf).
        position: the node's position within its level, an integer in [0, 2**level − 1] (0 = leftmost).
    """
    width = 1 << (depth - level)
    start = position * width
    return sum((matrix[i][j] for i in range(start, start + width) for j in range(start, start + width)), Fraction(0))


def node_variances(depth: int) -> dict[tuple[int, int], Fraction]:
    """Variance (σ = 1) of every one of the 2n - 1 tree nodes, summed from the dense exact matrix.

    Args:
        depth: the tree's depth, an integer in [0, 12] (the dense matrix is built; 2**(depth + 1) − 1 nodes).
    """
    matrix = covariance(depth)
    return {
        (level, position): node_variance(matrix, depth, level, position)
        for level in range(depth + 1)
        for position in range(1 << level)
    }


def haar_vectors(depth: int) -> list[tuple[int, Vector]]:
    """The (unnormalised) Haar basis of R^n: the all-ones vector, then for each internal node of height j
    the vector that is +1 on its left half and -1 on its right half. Returned with the height (0 for ones).

    Args:
        depth: the tree's depth, an integer in [0, 12] (2**depth vectors of length 2**depth).
    """
    depth = check_depth(depth, maximum=MAX_DENSE_DEPTH)
    n = 1 << depth
    vectors: list[tuple[int, Vector]] = [(0, tuple(Fraction(1) for _ in range(n)))]
    for height in range(1, depth + 1):
        width = 1 << height
        for start in range(0, n, width):
            vector = [Fraction(0)] * n
            for t in range(start, start + width // 2):
                vector[t] = Fraction(1)
            for t in range(start + width // 2, start + width):
                vector[t] = Fraction(-1)
            vectors.append((height, tuple(vector)))
    return vectors


def spectrum(depth: int) -> dict[Fraction, int]:
    """Eigenvalues of C_depth with multiplicities, computed exactly.

    Each Haar vector ``h`` is multiplied by C and the quotient ``(C h)_t / h_t`` is read off; the function
    raises if ``C h`` is not a multiple of ``h`` (so the eigen-structure is computed, not assumed). The
    Haar vectors are mutually orthogonal and there are ``n`` of them, so this is the whole spectrum.

    Args:
        depth: the tree's depth, an integer in [0, 12] (the dense matrix is built and multiplied by every Haar
            vector).
    """
    matrix = covariance(depth)
    result: dict[Fraction, int] = {}
    for _, vector in haar_vectors(depth):
        image = linalg.matvec(matrix, vector)
        support = next(t for t, v in enumerate(vector) if v != 0)
        eigenvalue = image[support] / vector[support]
        if any(image[t] != eigenvalue * vector[t] for t in range(len(vector))):
            raise ArithmeticError("a Haar vector is not an eigenvector of C: the structure assumption fails")
        result[eigenvalue] = result.get(eigenvalue, 0) + 1
    return dict(sorted(result.items()))


def spectrum_closed_form(depth: int) -> dict[Fraction, int]:
    """The spectrum predicted by the Haar structure: 2**-depth once, and 3 * 2**-j with multiplicity
    2**(depth - j) for j = 1..depth. Valid for every depth (proved in ``verification/cip/proofs/spectrum.py``).

    Args:
        depth: the tree's depth, an integer in [0, 30].
    """
    depth = check_depth(depth)
    result = {Fraction(1, 1 << depth): 1}
    for height in range(1, depth + 1):
        value = Fraction(3, 1 << height)
        result[value] = result.get(value, 0) + (1 << (depth - height))
    return dict(sorted(result.items()))


def determinant_closed_form(depth: int) -> Fraction:
    """det C_depth as the product of the closed-form spectrum (exact, any depth up to 30).

    Args:
        depth: the tree's depth, an integer in [0, 30].
    """
    result = Fraction(1)
    for value, multiplicity in spectrum_closed_form(depth).items():
        result *= value**multiplicity
    return result


def determinant(depth: int) -> Fraction:
    """det C_depth by exact elimination on the dense matrix.

    Args:
        depth: the tree's depth, an integer in [0, 12] (exact elimination on the dense matrix: keep it small).
    """
    return linalg.determinant(covariance(depth))


def is_positive_definite(depth: int) -> bool:
    """Exact positive-definiteness test of the dense C_depth (Sylvester's criterion via pivots).

    Args:
        depth: the tree's depth, an integer in [0, 12] (exact pivots of the dense matrix: keep it small).
    """
    return linalg.is_positive_definite(covariance(depth))
