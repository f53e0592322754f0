"""Participation audits of a noisy strategy ``C x + z`` (the noise matrix the identity), at the sizes DP-FTRL
runs at.

With B = I the release is the strategy's output with i.i.d. Gaussian noise (any later reconstruction, such as
DP-FTRL's prefix sums ``W C⁻¹ (C x + z)``, is post-processing), so ``Q = Wᵀ(BBᵀ)⁺W = CᵀC``, C the workload
given. It is computed in integers by FLINT (C over one common denominator d: ``Q = (dC)ᵀ(dC)/d²``) instead of
the general audit's rational elimination of ``[B | W]`` (cubic in rationals: about 15 minutes at n = 2048).
The maximum over the participation patterns is then :func:`reference.audit.linear.contribution.max_pattern_quadratic`.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from flint import fmpz_mat

from reference.audit.linear.column_matrix import ColumnMatrix, IntegerArray
from reference.audit.linear.contribution import max_pattern_quadratic
from reference.audit.linear.participation import Participation
from reference.audit.linear.pattern_walk import PatternMaximum
from reference.audit.linear.size_limits import DEFAULT_LIMITS, SizeLimits
from reference.audit.linear.verdict import LinearNoiseVerdict
from reference.core.exact_text import exact_text
from reference.core.excess_text import scientific


def is_identity(matrix: ColumnMatrix) -> bool:
    """Is the matrix the identity (square, unit diagonal, nothing else)?

    Args:
        matrix: the noise matrix B.
    """
    if matrix.rows != matrix.cols:
        return False
    return all(column == {j: 1} for j, column in enumerate(matrix.columns(False)))


def strategy_gram(workload: ColumnMatrix) -> tuple[list[list[int]], int]:
    """``CᵀC`` as integer rows over one common denominator: (numerators, denominator).

    Args:
        workload: the strategy C (outputs × inputs), given as the workload of a release whose noise matrix is the
            identity.
    """
    if isinstance(workload, IntegerArray):  # integers already: no per-entry rational on the way
        scaled = fmpz_mat(workload.rows, workload.cols, np.asarray(workload.array).ravel().tolist())
        gram = scaled.transpose() * scaled
        return [[int(entry) for entry in row] for row in gram.tolist()], 1
    scaled, denominator = _integer_matrix(workload)
    gram = scaled.transpose() * scaled
    return [[int(entry) for entry in row] for row in gram.tolist()], denominator * denominator


def strategy_participation_audit(workload: ColumnMatrix, scale: Fraction, participation: Participation, *,
                                 limits: SizeLimits = DEFAULT_LIMITS) -> LinearNoiseVerdict:
    """The Gaussian verdict for ``C x + N(0, σ² I)`` under a participation scheme (module docstring).

    Args:
        workload: the strategy C (outputs × inputs), given as the workload of a release whose noise matrix is the
            identity.
        scale: the Gaussian standard deviation σ, a positive Fraction.
        participation: the participation scheme whose patterns Δ² is maximised over.
        limits: the cost limits of the maximum over the patterns; default
            :data:`~reference.audit.linear.size_limits.DEFAULT_LIMITS`.
    """
    numerators, denominator = strategy_gram(workload)
    found = max_pattern_quadratic(participation, numerators, denominator, limits=limits)
    rho = found.upper / (2 * scale * scale)
    value = (f"= {exact_text(found.upper)}" if found.exact
             else f"in [{exact_text(found.lower)}, {exact_text(found.upper)}]")
    text = (f"private: Mahalanobis sensitivity^2 {value} over the patterns of '{participation.describe()}' "
            f"({found.method}); rho {'=' if found.exact else '<='} {exact_text(rho)} (noise matrix the identity: "
            "Q = C^T C)")
    size = workload.rows
    return LinearNoiseVerdict(
        noise="gaussian", scale=scale, neighbours="add_remove", contributions=1, outputs=size, inputs=workload.cols,
        draws=size, rank=size, kernel_dimension=0, private=True, first_offending_column=None, strategy=None,
        strategy_unique=True, l1_sensitivity=None, l2_sensitivity_squared=found.upper, epsilon=None,
        epsilon_exact=False, rho=rho, explanation=text, rho_is_bound=not found.exact, participation=participation,
        pattern_maximum=found,
    )


#: A noise matrix entry with a denominator above this (a matrix built in floating point, read exactly) sends a
#: Gaussian add/remove audit to the FLINT path below instead of the sparse rational elimination.
FLOAT_DENOMINATOR = 2**20
#: Most outputs for the FLINT Gaussian path (a dense n × n integer solve).
MAX_FLINT_OUTPUTS = 4_000


def _integer_matrix(matrix: ColumnMatrix) -> tuple[fmpz_mat, int]:
    """The matrix as integers over one common denominator."""
    columns = matrix.columns(False)
    denominator = math.lcm(*(Fraction(value).denominator for column in columns for value in column.values()))
    flat = [0] * (matrix.rows * matrix.cols)
    for j, column in enumerate(columns):
        for i, value in column.items():
            flat[i * matrix.cols + j] = int(Fraction(value) * denominator)
    return fmpz_mat(matrix.rows, matrix.cols, flat), denominator


def float_built(matrix: ColumnMatrix) -> bool:
    """Does an entry have a denominator above :data:`FLOAT_DENOMINATOR` (a float-built matrix)?

    Args:
        matrix: the matrix to inspect (an integer array is never float-built).
    """
    if isinstance(matrix, IntegerArray):
        return False
    return any(Fraction(value).denominator > FLOAT_DENOMINATOR for column in matrix.columns(False)
               for value in column.values())


def full_row_rank_gaussian(noise: ColumnMatrix, workload: ColumnMatrix, scale: Fraction,
                           users: int) -> LinearNoiseVerdict | None:
    """Gaussian add/remove for a B of full row rank: Δ² = max_j w_jᵀ (BBᵀ)⁻¹ w_j by FLINT integer arithmetic
    (BBᵀ as one integer product, one multi-modular solve), or None when BBᵀ is singular (the general audit then
    runs). With full row rank every workload column is in col(B): private.

    Args:
        noise: the noise matrix B (outputs × draws).
        workload: the workload W (outputs × inputs).
        scale: the Gaussian standard deviation σ, a positive Fraction.
        users: the contributions m per user, a positive integer (Δ² scales by m²).
    """
    if noise.rows > MAX_FLINT_OUTPUTS:
        return None
    if noise.rows > MAX_EXACT_OUTPUTS:
        return _enclosed_gaussian(noise, workload, scale, users)
    b_integer, b_denominator = _integer_matrix(noise)
    w_integer, w_denominator = _integer_matrix(workload)
    gram = b_integer * b_integer.transpose()  # = d_B² B Bᵀ
    try:
        solved = gram.solve(w_integer)  # G⁻¹ W_int, exact rationals
    except ZeroDivisionError:
        return None
    # Q_jj = (d_B/d_W)² · w_int_jᵀ G⁻¹ w_int_j
    factor = Fraction(b_denominator * b_denominator, w_denominator * w_denominator)
    columns = workload.columns(False)
    best = Fraction(0)
    for j, column in enumerate(columns):
        value = Fraction(0)
        for i, entry in column.items():
            cell = solved[i, j]
            value += int(Fraction(entry) * w_denominator) * Fraction(int(cell.p), int(cell.q))
        best = max(best, value)
    squared = users * users * best * factor
    rho = squared / (2 * scale * scale)
    return _full_row_rank_verdict(
        noise, workload, scale, users, squared, rho,
        f"private: Gaussian Mahalanobis sensitivity^2 = {exact_text(squared)}, rho = {exact_text(rho)} (exact; "
        "B has full row rank: max_j w_j^T (B B^T)^-1 w_j by integer arithmetic); delta(eps) exact")


def _full_row_rank_verdict(noise: ColumnMatrix, workload: ColumnMatrix, scale: Fraction, users: int,
                           squared: Fraction, rho: Fraction, explanation: str,
                           bracket: PatternMaximum | None = None) -> LinearNoiseVerdict:
    """The Gaussian add/remove verdict of a B of full row rank (every workload column lies in col(B): private),
    Δ² = ``squared``; with a ``bracket`` (an enclosure of Δ²) ``squared`` and ``rho`` are its upper ends."""
    return LinearNoiseVerdict(
        noise="gaussian", scale=scale, neighbours="add_remove", contributions=users, outputs=noise.rows,
        inputs=workload.cols, draws=noise.cols, rank=noise.rows, kernel_dimension=noise.cols - noise.rows,
        private=True, first_offending_column=None, strategy=None, strategy_unique=noise.cols == noise.rows,
        l1_sensitivity=None, l2_sensitivity_squared=squared, epsilon=None, epsilon_exact=False, rho=rho,
        explanation=explanation, rho_is_bound=bracket is not None, pattern_maximum=bracket,
    )


#: Most outputs for the exact integer solve of a float-built B: the exact Δ² of such a B is a rational of about
#: n × (bits of an entry) bits (85,000 at n = 256), so beyond this it is enclosed instead.
MAX_EXACT_OUTPUTS = 48
#: Working precision (bits) of the enclosure.
ENCLOSURE_PRECISION = 256


def _enclosed_gaussian(noise: ColumnMatrix, workload: ColumnMatrix, scale: Fraction,
                       users: int) -> LinearNoiseVerdict | None:
    """Δ² = max_j w_jᵀ (BBᵀ)⁻¹ w_j enclosed by Arb ball arithmetic at :data:`ENCLOSURE_PRECISION` bits (the
    entries of a float-built B are dyadic, exact in Arb): a certified bracket, reported as such."""
    from flint import arb_mat, ctx, fmpq

    from reference.core.certified import CertifiedReal

    def exact_entries(matrix: ColumnMatrix) -> arb_mat:
        table = [[fmpq(0)] * matrix.cols for _ in range(matrix.rows)]
        for j, column in enumerate(matrix.columns(False)):
            for i, value in column.items():
                fraction = Fraction(value)
                table[i][j] = fmpq(fraction.numerator, fraction.denominator)
        return arb_mat(table)

    saved = ctx.prec
    ctx.prec = ENCLOSURE_PRECISION
    try:
        b_matrix, w_matrix = exact_entries(noise), exact_entries(workload)
        try:
            solved = (b_matrix * b_matrix.transpose()).solve(w_matrix)
        except ZeroDivisionError:  # singular, or not certified invertible at this precision
            return None
        enclosures = []
        for j, column in enumerate(workload.columns(False)):
            total = sum((solved[i, j] * fmpq(Fraction(value).numerator, Fraction(value).denominator)
                         for i, value in column.items()), solved[0, 0] * 0)
            enclosures.append(CertifiedReal.from_arb(total))
    finally:
        ctx.prec = saved
    lower = max(enclosure.lower for enclosure in enclosures) * users * users
    upper = max(enclosure.upper for enclosure in enclosures) * users * users
    worst = max(range(len(enclosures)), key=lambda j: enclosures[j].upper)
    bracket = PatternMaximum(lower, upper, (worst,), f"Arb enclosure at {ENCLOSURE_PRECISION} bits of max_j w_j^T "
                             "(B B^T)^-1 w_j (B built in floats, full row rank)", workload.cols)
    rho = upper / (2 * scale * scale)
    return _full_row_rank_verdict(
        noise, workload, scale, users, upper, rho,
        f"private: Gaussian Mahalanobis sensitivity^2 in [{scientific(lower, upward=False, digits=17)}, "
        f"{scientific(upper, upward=True, digits=17)}] (certified; {bracket.method}); rho <= "
        f"{scientific(rho, upward=True, digits=17)}", bracket)
