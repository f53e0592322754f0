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
* Privacy. Gaussian: ρ = Δ²/(2σ²) and the exact (ε, δ)-profile δ(ε) =
  ``gaussian_delta(epsilon=ε, sigma=σ, sensitivity_squared=Δ²)``.
  Laplace: ε = Δ1/b, exact when ker B = {0} (the release is then equivalent to A x + z). Otherwise the smallest
  draw shift min{‖u‖₁ : B u = w_j} is a linear programme, certified both ways from a float solution
  (:mod:`reference.audit.linear.laplace_lp`): ε is exact when the bounds meet, else ``[epsilon_lower, epsilon]``.
* Integer noise (``discrete-laplace``, ``discrete-gaussian``): a shift must also be an *integer* combination of
  B's columns (:mod:`reference.audit.linear.lattice`). If one is not, the release leaks: a functional of one output,
  taken modulo an integer, decodes the neighbouring difference (the witness is reported; ε = ∞). If all are and
  B has a trivial kernel, the integer draw shift u is unique and ε = max ‖u‖₁/b (discrete Laplace) or
  ρ = max ‖u‖²/(2σ²) (discrete Gaussian; CKS Proposition 5) exactly; with a kernel they are not computed here.
* Verdict against a claim (:meth:`LinearNoiseVerdict.verdict`): ``"holds"``, ``"fails"`` or ``"inconclusive"``.

Example — two counts released with independent Laplace(2) noise (B = I) through the workload W = [[1, 0],
[1, 1]]: ε = 1 exactly::

    >>> from reference.audit.linear.audit import audit_linear_noise
    >>> verdict = audit_linear_noise([[1, 0], [0, 1]], [[1, 0], [1, 1]], "laplace", scale=2)
    >>> verdict.epsilon, verdict.verdict_on(epsilon="1/2")
    (Fraction(1, 1), 'fails')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from reference.audit.linear.column_matrix import (
    ColumnMatrix,
    IntegerArray,
    RationalColumns,
    SparseColumns,
    UsedColumns,
    check_scan,
)
from reference.audit.linear.dense import dense_linear_noise_audit, draw_weights, smallest_integer_shifts
from reference.audit.linear.dyadic import float_built_array, scaled_to_integers
from reference.audit.linear.elimination import narrow
from reference.audit.linear.lu_certified import certified_gaussian_audit
from reference.audit.linear.masked_draws import mask_infinite_draws
from reference.audit.linear.matrix_files import MATRIX_SUFFIXES as MATRIX_SUFFIXES
from reference.audit.linear.matrix_files import MAX_TEXT_ENTRIES as MAX_TEXT_ENTRIES
from reference.audit.linear.matrix_files import check_float_entries as check_float_entries
from reference.audit.linear.matrix_files import check_float_shape as check_float_shape
from reference.audit.linear.matrix_files import check_text_entries as check_text_entries
from reference.audit.linear.matrix_files import float_matrix as float_matrix
from reference.audit.linear.matrix_files import load_exact_matrix as load_exact_matrix
from reference.audit.linear.matrix_files import load_matrix_columns as load_matrix_columns
from reference.audit.linear.matrix_files import text_entry_count as text_entry_count
from reference.audit.linear.participation import Participation
from reference.audit.linear.size_limits import DEFAULT_LIMITS, SizeLimits, size_limits_or_default
from reference.audit.linear.sparse_input import scipy_columns
from reference.audit.linear.strategy_audit import (
    float_built,
    full_row_rank_gaussian,
    identity_multiple,
    strategy_participation_audit,
)
from reference.audit.linear.verdict import (
    MAX_DIMENSION,
    MAX_ENUMERATED_SHIFTS,
    MAX_SPARSE_DIMENSION,
    NOISE_KINDS,
    LinearNoiseVerdict,
    check_noise,
    check_rtol,
    exact_matrix,
    not_private_verdict,
)
from reference.audit.linear.zero_matrices import zero_noise_verdict
from reference.core.input_types import MatrixLike, SparseMatrix
from reference.core.linalg import Matrix
from reference.core.options import LinearNoise
from reference.core.validate import (
    Neighbours,
    RationalLike,
    check_neighbours,
    check_positive_int,
    positive_fraction,
)


def column_matrix(value: ColumnMatrix | MatrixLike | SparseMatrix, name: str,
                  limits: SizeLimits = DEFAULT_LIMITS) -> ColumnMatrix:
    """An exact matrix for the sparse audit: a :class:`ColumnMatrix` as it is, a 2-D numpy integer array without
    a per-entry conversion (its size checked first), a scipy.sparse matrix by its stored entries only, anything
    else validated by :func:`exact_matrix`.

    Args:
        value: the matrix: a :class:`ColumnMatrix`, a 2-D numpy integer or float array (a float entry read as the
            binary rational it is), a scipy.sparse matrix, or rows of exact numbers (ints, Fractions, ``"p/q"`` or
            decimal strings).
        name: the parameter the matrix was given as (``"noise_matrix"``, ``"workload"``), named in a refusal.
        limits: the size limits applied (sparse dimension, non-zeros, float entries, scanned entries); default
            :data:`~reference.audit.linear.size_limits.DEFAULT_LIMITS`.

    Raises:
        ValueError: an empty, ragged, non-finite or over-limit matrix (the message names the limit's flag).
        TypeError: an entry that is not an exact number.
    """
    if isinstance(value, ColumnMatrix):
        return value
    if hasattr(value, "tocoo") and hasattr(value, "nnz"):  # scipy.sparse, without importing it for every call
        return scipy_columns(value, name, max_dimension=limits.sparse_dimension, max_nonzeros=limits.nonzeros,
                             max_float_entries=limits.text_entries)
    if isinstance(value, np.ndarray) and value.ndim == 2 and np.issubdtype(value.dtype, np.floating):
        return RationalColumns(float_matrix(value, name, limits))
    if isinstance(value, np.ndarray) and value.ndim == 2 and np.issubdtype(value.dtype, np.integer):
        rows, cols = value.shape
        if rows < 1 or cols < 1:
            raise ValueError(f"{name} must have at least one row and one column")
        check_scan(rows, cols, value.dtype.itemsize, name, limits.scanned_entries)
        return IntegerArray(value)
    try:
        return RationalColumns(exact_matrix(value, name, limits.sparse_dimension))
    except ValueError as error:
        if "rows and columns" in str(error):  # the size limit: say how to raise it
            raise ValueError(f"{error}; {SizeLimits.hint('sparse_dimension')}") from None
        raise


def dense_input(matrix: ColumnMatrix, name: str, limits: SizeLimits = DEFAULT_LIMITS) -> Matrix:
    """The dense exact form of ``matrix`` for the dense audit, its size checked first.


    Args:
        matrix: the matrix to expand.
        name: the parameter the matrix was given as, named in a refusal.
        limits: the size limits (``dense_dimension`` bounds rows and columns); default
            :data:`~reference.audit.linear.size_limits.DEFAULT_LIMITS`.

    Raises:
        ValueError: more rows or columns than ``limits.dense_dimension``.
    """
    if matrix.rows > limits.dense_dimension or matrix.cols > limits.dense_dimension:
        raise ValueError(
            f"{name} is {matrix.rows}x{matrix.cols}; at most {limits.dense_dimension} rows and columns for "
            "substitution neighbours, draw_variances, participation or infinite_variance_draws (the dense exact "
            f"audit; add_remove neighbours take larger matrices); {SizeLimits.hint('dense_dimension')}"
        )
    return matrix.dense()


#: CPU seconds of the dense exact audit's rational elimination of [B | W] per output × (draws + inputs)² , as
#: measured on 256 × (256 + 256) integer-Toeplitz inputs (1.7 s under load 12): an estimate, not a bound.
DENSE_SECONDS_PER_STEP = 1.7 / (256 * 512 * 512)
#: The default limit on the estimated seconds of the dense exact audit (``max_seconds``, ``--max-seconds``).
DEFAULT_MAX_SECONDS = 60


def audit_linear_noise(
    noise_matrix: MatrixLike | SparseMatrix,
    workload: MatrixLike | SparseMatrix,
    noise: LinearNoise,
    *,
    scale: RationalLike,
    neighbours: Neighbours = "add_remove",
    contributions: int = 1,
    draw_variances: Sequence[object] | None = None,
    participation: Participation | None = None,
    infinite_variance_draws: Sequence[int] | None = None,
    rtol: RationalLike | float = 0,
    draw_scales: Sequence[object] | None = None,
    max_seconds: int = DEFAULT_MAX_SECONDS,
    size_limits: SizeLimits | None = None,
) -> LinearNoiseVerdict:
    """Audit the release ``W x + B z`` exactly (module docstring). ``noise_matrix`` B is outputs × draws,
    ``workload`` W is outputs × inputs, ``noise`` is one of :data:`NOISE_KINDS` (``scale`` = σ for the Gaussian
    kinds, b for the Laplace kinds); ``scale`` is a positive exact rational. A 2-D numpy float array is read
    exactly (each entry the binary rational it is). With Laplace or Gaussian noise, float64 matrices (numpy or
    scipy.sparse, the other one float64 or integer) are audited as ``2^s·B`` and ``2^s·W`` in int64 when those
    fit: the same release scaled, the same ε and Δ², on the integer paths (:mod:`reference.audit.linear.dyadic`).
    With Gaussian noise and add/remove neighbours, an integer B that is square with unit pivots is solved by a
    compiled sparse LU and certified in integers (:mod:`reference.audit.linear.lu_certified`).

    ``draw_scales`` (laplace only): independent draws of scales b·s_j instead of b (a budget split across the
    levels of a tree, say). A draw of scale b·s_j is s_j times one of scale b, so the release is audited with
    B·diag(s) in place of B, exactly.

    ``max_seconds``: the dense exact audit (substitution neighbours, draw variances, participation with a noise
    matrix other than the identity, masked draws) is refused before any work when its estimated CPU time
    (cubic in the size) exceeds it.

    ``rtol`` (in [0, 1); a float is read exactly): the relative tolerance of the claims later decided on the
    verdict (:meth:`LinearNoiseVerdict.verdict_on`, :meth:`LinearNoiseVerdict.renyi_verdict`): ε, δ(ε), ρ or
    RDP(α) may exceed the claimed value by this relative amount — for matrices built in floating point, whose
    exact sensitivities are off by rounding. The excess itself is reported beside it
    (:meth:`LinearNoiseVerdict.excess_text`).

    ``neighbours``: ``"add_remove"`` (v = ±e_j) or ``"substitution"`` (v = e_i − e_j); ``contributions`` m: one
    user changes up to m records, so v ranges over the integer points of conv{m·(generating differences)}. The
    ℓ1 quantities are convex in v and the ℓ2² ones convex quadratics, so their maxima sit at the vertices: ε
    scales by m and Δ² by m² (and the lattice of integer shifts is generated by the m = 1 differences).

    ``draw_variances`` (Gaussian only): independent draws with variances σ²·d_j instead of σ² (for example
    CIP's cascade, whose split draws have variance 3/4). Then Δ² = max_j w_jᵀ (B D Bᵀ)⁺ w_j and no strategy
    or ℓ1 sensitivity is reported (the implied strategy involves √d_j).

    ``participation`` (``add_remove`` only, instead of ``contributions``): a rule saying which inputs one user
    touches (:mod:`reference.audit.linear.participation`); the sensitivities are maxima over its patterns S of the
    difference 1_S, exact by enumeration or dynamic programming where the structure allows, else certified
    bounds (the method is named in ``pattern_maximum``).

    ``infinite_variance_draws`` (gaussian and laplace): column indices of B whose draws have infinite variance
    (nodes given a zero budget); the release is audited with their directions projected out
    (:mod:`reference.audit.linear.masked_draws`), and ``outputs`` counts the directions that remain. With
    ``draw_variances`` (one per column of B) the finite draws keep theirs: the Mahalanobis Δ² is the limit of the
    one with the masked draws' variances growing without bound.

    ``size_limits``: the sizes refused before the work they bound
    (:class:`reference.audit.linear.size_limits.SizeLimits`; default :data:`~reference.audit.linear.size_limits.DEFAULT_LIMITS`);
    every refusal names the field (and the command line's flag) that raises its limit.

    Args:
        noise_matrix: B, outputs × draws: rows of exact numbers, a 2-D numpy array (float read exactly) or a
            scipy.sparse matrix.
        workload: W, outputs × inputs, in the same forms.
        noise: the law of each draw: ``"gaussian"``, ``"laplace"``, ``"discrete-gaussian"`` or ``"discrete-laplace"``.
        scale: σ (Gaussian kinds) or b (Laplace kinds), a positive exact rational.
        neighbours: ``"add_remove"`` (one record added or removed) or ``"substitution"`` (one record replaced by
            another).
        contributions: records per user, a positive integer (each moves one input by one).
        draw_variances: relative variances per draw (Gaussian kinds), positive exact numbers, one per column of B.
        participation: a multi-participation scheme (``reference.audit.linear.participation``), or ``None``.
        infinite_variance_draws: column indices of B whose draws carry no budget (projected out exactly).
        rtol: the relative excess allowed over a claim decided later, >= 0 (a float is read exactly).
        draw_scales: Laplace only: per-draw scale factors s_j (draw j has scale b·s_j), positive exact numbers.
        max_seconds: the estimated cost above which the audit is refused before it starts, a positive integer.
        size_limits: the size limits to apply (``reference.audit.linear.size_limits.SizeLimits``); ``None``: defaults.
    """
    tolerance = check_rtol(rtol)
    limits = size_limits_or_default(size_limits)
    noise_float_built = False
    if noise in ("laplace", "gaussian"):
        # float64 matrices are dyadic: one power of two makes both integer, the same release scaled (dyadic.py);
        # for Gaussian noise Δ² = max w_jᵀ(B D Bᵀ)⁺w_j is unchanged when B and W are scaled together
        noise_float_built = noise == "gaussian" and float_built_array(noise_matrix)
        for value, name in ((noise_matrix, "noise_matrix"), (workload, "workload")):
            if isinstance(value, np.ndarray) and value.ndim == 2 and np.issubdtype(value.dtype, np.floating):
                check_float_shape(value.shape, name, limits)  # the refusal a float array gets unscaled
        integers = scaled_to_integers(noise_matrix, workload)
        if integers is not None:
            noise_matrix, workload = integers
        else:
            noise_float_built = False  # not scaled: the exact paths see the float entries as they are
    if draw_scales is not None:
        if noise != "laplace":
            raise ValueError("draw_scales is supported for laplace noise (gaussian noise takes draw_variances; an "
                             "integer draw scaled is no longer integer-valued)")
        noise_matrix = scaled_draws(column_matrix(noise_matrix, "noise_matrix", limits), draw_scales)
    verdict = _audit(noise_matrix, workload, noise, scale, neighbours, contributions, draw_variances, participation,
                     infinite_variance_draws, check_positive_int(max_seconds, "max_seconds"), limits,
                     noise_float_built)
    # the verdict records what it was asked under, so that its as_json is complete: the tolerance, the scheme
    # (also on the paths that do not reach it, a leak found first) and whether Δ² is noise-normalised
    return replace(verdict, rtol=tolerance, participation=participation or verdict.participation,
                   draw_variances_given=draw_variances is not None)


def scaled_draws(matrix: ColumnMatrix, draw_scales: Sequence[object]) -> ColumnMatrix:
    """B·diag(s): column j of B times the positive exact rational s_j.

    Args:
        matrix: the noise matrix B (outputs × draws).
        draw_scales: the factors s_j, one per column of B, each a positive exact rational (int, Fraction or
            ``"p/q"``/decimal string).

    Raises:
        TypeError: ``draw_scales`` is not a sequence.
        ValueError: a factor that is not positive, or not one per column.
    """
    if isinstance(draw_scales, (str, bytes)) or not hasattr(draw_scales, "__iter__"):
        raise TypeError("draw_scales must be a sequence of positive exact rationals")
    scales = [positive_fraction(value, "draw_scales") for value in draw_scales]
    if len(scales) != matrix.cols:
        raise ValueError(f"draw_scales has {len(scales)} entries, noise_matrix has {matrix.cols} columns")
    # column by column on the stored entries: a large sparse B never becomes dense here
    return SparseColumns(matrix.rows, matrix.cols, [{i: narrow(value * scale) for i, value in column.items()}
                                                    for column, scale in zip(matrix.columns(False), scales)])


def check_dense_estimate(noise: ColumnMatrix, workload: ColumnMatrix, max_seconds: int) -> None:
    """Refuse, before any work, a dense exact audit whose estimated time exceeds ``max_seconds``.

    Args:
        noise: the noise matrix B (outputs × draws).
        workload: the workload W (outputs × inputs).
        max_seconds: the most estimated CPU seconds allowed (:data:`DENSE_SECONDS_PER_STEP` × outputs ×
            (draws + inputs)²).

    Raises:
        ValueError: the estimate exceeds ``max_seconds``.
    """
    estimate = DENSE_SECONDS_PER_STEP * noise.rows * (noise.cols + workload.cols) ** 2
    if estimate > max_seconds:
        raise ValueError(
            f"the dense exact audit of a {noise.rows}x{noise.cols} noise matrix and {workload.cols} inputs is "
            f"estimated at {estimate:.0f} s of CPU, over max_seconds = {max_seconds} (raise it with max_seconds / "
            "--max-seconds; a noise matrix equal to the identity takes the fast strategy path)"
        )


def _audit(noise_matrix: object, workload: object, noise: LinearNoise, scale: RationalLike, neighbours: Neighbours,
           contributions: int, draw_variances: Sequence[object] | None, participation: Participation | None,
           infinite_variance_draws: Sequence[int] | None, max_seconds: int = DEFAULT_MAX_SECONDS,
           limits: SizeLimits = DEFAULT_LIMITS, noise_float_built: bool = False) -> LinearNoiseVerdict:
    kind = check_noise(noise)
    sc = positive_fraction(scale, "scale")
    relation = check_neighbours(neighbours)
    users = check_positive_int(contributions, "contributions")
    compiled = (kind == "gaussian" and relation == "add_remove" and draw_variances is None and participation is None
                and infinite_variance_draws is None)
    held_compactly = all(isinstance(value, (np.ndarray, ColumnMatrix)) or hasattr(value, "tocoo")
                         for value in (noise_matrix, workload))
    if compiled and held_compactly:
        # an integer B, square and invertible: its unique shifts from a compiled sparse LU, certified in integers
        # (lu_certified.py); before the inputs become Python numbers, which at T = 10^5 costs more than the audit
        certified = certified_gaussian_audit(noise_matrix, workload, sc, users, limits)
        if certified is not None:
            return certified
    b_columns = column_matrix(noise_matrix, "noise_matrix", limits)
    w_columns = column_matrix(workload, "workload", limits)
    if compiled and not held_compactly:  # the same path for rows of ints, a ColumnMatrix, a .json or .csv file
        certified = certified_gaussian_audit(b_columns, w_columns, sc, users, limits)
        if certified is not None:
            return certified
    outputs, draws = b_columns.rows, b_columns.cols
    if w_columns.rows != outputs:
        raise ValueError(f"workload has {w_columns.rows} rows but noise_matrix has {outputs} (one per output)")
    weights = draw_weights(draw_variances, draws)
    if weights is not None and kind != "gaussian":
        raise ValueError("draw_variances is supported for gaussian noise only")
    if relation == "substitution" and w_columns.cols < 2:
        raise ValueError("substitution neighbours need at least two inputs")
    if participation is not None:
        if not isinstance(participation, Participation):
            raise TypeError("participation must come from reference.audit.linear.participation "
                            "(any_records, once_per_block or min_separation)")
        if relation != "add_remove" or users != 1:
            raise ValueError("participation replaces contributions and needs add_remove neighbours")
    if infinite_variance_draws is not None and kind not in ("gaussian", "laplace"):
        raise ValueError("infinite_variance_draws is supported for gaussian and laplace noise")
    multiple = (identity_multiple(b_columns) if participation is not None and kind == "gaussian" and weights is None
                and infinite_variance_draws is None else None)
    if multiple is not None and participation is not None:
        # C x + z (z ~ N(0, σ²c²I) for B = c·I, a dyadic scaling's 2^s·I): Q = CᵀC/c² by an integer product
        # (strategy_audit), not the general rational elimination
        return strategy_participation_audit(w_columns, sc, participation, limits=limits, noise_multiple=multiple)
    if relation == "add_remove" and weights is None and participation is None and infinite_variance_draws is None:
        # B = 0 is decided from the non-zero counts, before a column becomes a Python object
        degenerate = zero_noise_verdict(b_columns, w_columns, kind, sc, users, limits)
        if degenerate is not None:
            return degenerate
    if (relation == "add_remove" and weights is None and participation is None and infinite_variance_draws is None
            and kind == "gaussian" and (noise_float_built or float_built(b_columns))):
        # a float-built B (denominators 2^52 and up) makes the rational elimination's entries grow: integer
        # arithmetic on d·B instead, when B has full row rank
        fast = full_row_rank_gaussian(b_columns, w_columns, sc, users, limits)
        if fast is not None:
            return fast
    if relation == "add_remove" and weights is None and participation is None and infinite_variance_draws is None:
        from reference.audit.linear.sparse_audit import sparse_linear_noise_audit

        # a draw no output uses (a zero column of B) cannot affect privacy: dropping it leaves the release's
        # law unchanged and removes a kernel direction that would otherwise make integer-noise verdicts bounds
        used_columns = UsedColumns(b_columns)
        sparse_verdict = sparse_linear_noise_audit(used_columns, w_columns, kind, sc, users, limits)
        assert isinstance(sparse_verdict, LinearNoiseVerdict)
        return replace(sparse_verdict, unused_draws=draws - used_columns.cols)
    check_dense_estimate(b_columns, w_columns, max_seconds)
    b_matrix = dense_input(b_columns, "noise_matrix", limits)
    w_matrix = dense_input(w_columns, "workload", limits)
    if infinite_variance_draws is not None:
        infinite = list(infinite_variance_draws)
        w_matrix, b_matrix = mask_infinite_draws(b_matrix, w_matrix, infinite)
        if weights is not None:  # the finite draws keep their variances, in B_f's column order
            weights = tuple(weight for j, weight in enumerate(weights) if j not in set(infinite))
        draws = len(b_matrix[0])
    # the same dropping of unused draws as above
    used = [j for j in range(draws) if any(row[j] for row in b_matrix)]
    unused = draws - len(used)
    if unused and used:
        b_matrix = tuple(tuple(row[j] for j in used) for row in b_matrix)
        weights = None if weights is None else tuple(weights[j] for j in used)
    return dense_linear_noise_audit(b_matrix, w_matrix, kind, sc, weights, relation, users,
                                    participation=participation, unused_draws=unused if used else 0, limits=limits)


__all__ = [
    "MAX_DIMENSION",
    "MAX_ENUMERATED_SHIFTS",
    "MAX_SPARSE_DIMENSION",
    "NOISE_KINDS",
    "LinearNoiseVerdict",
    "SizeLimits",
    "audit_linear_noise",
    "check_noise",
    "column_matrix",
    "dense_input",
    "dense_linear_noise_audit",
    "draw_weights",
    "exact_matrix",
    "load_exact_matrix",
    "load_matrix_columns",
    "not_private_verdict",
    "smallest_integer_shifts",
]
