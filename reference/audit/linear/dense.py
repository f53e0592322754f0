"""The linear-noise audit by dense exact linear algebra (python-flint): every neighbour relation, draw
variances, participation schemes and the masking of infinite-variance draws; the exact twin of
:mod:`reference.audit.linear.sparse_audit` for add/remove neighbours. The method is described in
:mod:`reference.audit.linear.audit`."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction

from flint import fmpq, fmpq_mat

from reference.audit.linear import elimination as sparse
from reference.audit.linear.contribution import max_pattern_l1, max_pattern_quadratic
from reference.audit.linear.integer_shift import box_points, integer_kernel_basis, minimum_integer_shift
from reference.audit.linear.laplace_lp import max_integer_shift_norm, max_shift_norm
from reference.audit.linear.lattice import lattice_audit, neighbouring_differences
from reference.audit.linear.participation import Participation
from reference.audit.linear.pattern_maxima import integer_rows
from reference.audit.linear.pattern_walk import PatternMaximum
from reference.audit.linear.size_limits import DEFAULT_LIMITS, SizeLimits
from reference.audit.linear.verdict import (
    MAX_ENUMERATED_SHIFTS,
    LinearNoiseVerdict,
    discrete_laplace_bound_verdict,
    not_private_verdict,
)
from reference.core.exact_text import exact_text
from reference.core.linalg import Matrix, fraction_of, from_flint, rref_pivots, to_flint
from reference.core.options import LinearNoise
from reference.core.validate import (
    Neighbours,
    fraction_text,
    positive_fraction,
)


def draw_weights(draw_variances: Sequence[object] | None, draws: int) -> tuple[Fraction, ...] | None:
    """The draws' relative variances as exact positive rationals, one per draw; None when none are given.


    Args:
        draw_variances: the ``draw_variances`` a caller gave: a sequence of positive exact numbers (int, Fraction,
            ``"p/q"``/decimal string), or None.
        draws: the number of draws (columns of B) the sequence must match.

    Raises:
        TypeError: ``draw_variances`` is not a sequence.
        ValueError: an entry that is not positive, or not one per draw.
    """
    if draw_variances is None:
        return None
    if isinstance(draw_variances, (str, bytes)) or not hasattr(draw_variances, "__iter__"):
        raise TypeError("draw_variances must be a sequence of positive exact rationals")
    weights = tuple(positive_fraction(value, "draw_variances") for value in draw_variances)
    if len(weights) != draws:
        raise ValueError(f"draw_variances has {len(weights)} entries, noise_matrix has {draws} columns")
    return weights


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
    pivots = rref_pivots(reduced, n)
    system_rank = len(pivots)
    for column in range(rhs.ncols()):
        if any(reduced[i, n + column] != 0 for i in range(system_rank, reduced.nrows())):
            return system_rank, column, None
    solution = fmpq_mat(n, rhs.ncols())
    for i, pivot in enumerate(pivots):
        for column in range(rhs.ncols()):
            solution[pivot, column] = reduced[i, n + column]
    return system_rank, None, solution


def dense_linear_noise_audit(b_matrix: Matrix, w_matrix: Matrix, kind: LinearNoise, sc: Fraction,
                             weights: tuple[Fraction, ...] | None, relation: Neighbours,
                             users: int, *, participation: Participation | None = None,
                             unused_draws: int = 0, limits: SizeLimits = DEFAULT_LIMITS) -> LinearNoiseVerdict:
    """The audit by dense exact linear algebra (python-flint), for every neighbour relation and draw variances:
    the twin of :func:`reference.audit.linear.sparse_audit.sparse_linear_noise_audit` for add/remove.

    Args:
        b_matrix: B, outputs × draws, exact (validated).
        w_matrix: W, outputs × inputs, exact (validated).
        kind: the noise kind, one of :data:`~reference.audit.linear.verdict.NOISE_KINDS`.
        sc: the noise scale (σ for the Gaussian kinds, b for the Laplace kinds), a positive Fraction.
        weights: the draws' relative variances, one per column of B (Gaussian only), or None for all 1.
        relation: the neighbour relation, ``"add_remove"`` or ``"substitution"``.
        users: the contributions m per user, a positive integer (ε scales by m, Δ² by m²).
        participation: a participation scheme (add_remove with one contribution only), or None.
        unused_draws: the zero columns already dropped from B, recorded in the verdict (default 0).
        limits: the cost limits of the participation maxima, the integer shift search and the LP refinement;
            default :data:`~reference.audit.linear.size_limits.DEFAULT_LIMITS`.
    """
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
        "unused_draws": unused_draws,
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
    unique = rank == draws
    strategy: Matrix | None = None
    l1: Fraction | None = None
    pattern_l2: PatternMaximum | None = None
    pattern_l1: PatternMaximum | None = None
    l2_squared: Fraction | None = None
    if participation is not None:
        if kind == "gaussian":  # the other kinds' maxima are taken over their own quantities below
            numerators, shared_denominator = quadratic.numer_denom()
            pattern_l2 = max_pattern_quadratic(
                participation, [[int(entry) for entry in row] for row in numerators.tolist()], int(shared_denominator),
                limits=limits)
            l2_squared = pattern_l2.upper
    else:
        l2_squared = users * users * max(_quadratic_form(quadratic, v) for v in differences)
    if weights is None:
        strategy = from_flint(b.transpose() * y)
        if participation is not None:
            if kind == "laplace" and not unique:
                raise ValueError("participation: Laplace noise with ker B != 0 (a non-unique strategy) is not "
                                 "supported; the LP over the draw shifts takes single differences only")
            if kind == "laplace":
                columns, scale_l1 = integer_rows(tuple(zip(*strategy)))
                pattern_l1 = max_pattern_l1(participation, columns, scale_l1, limits=limits)
                l1 = pattern_l1.upper
        else:
            strategy_columns = sparse.sparse_columns(strategy)  # A v = Σ_j v_j A[:, j], sparse
            l1 = users * max(sparse.l1(sparse.combine(strategy_columns, v)) for v in differences)
    epsilon: Fraction | None = None
    rho: Fraction | None = None
    if kind in ("discrete-laplace", "discrete-gaussian"):
        return _integer_noise_verdict(
            common, b_matrix, w_matrix, draws - rank, strategy, l1, l2_squared, relation, users, participation,
            limits
        )
    epsilon_lower: Fraction | None = None
    if kind == "laplace":
        assert l1 is not None and strategy is not None
        epsilon = l1 / sc
        text = f"private: Laplace epsilon = l1/b = {exact_text(epsilon)} is exact (B has a trivial kernel)"
        if not unique:
            epsilon_lower, epsilon = _laplace_epsilon_bounds(b_matrix, w_matrix, strategy, sc / users, differences,
                                                             limits)
            if epsilon_lower == epsilon:
                text = f"private: Laplace epsilon = {exact_text(epsilon)} exactly (LP over the draw shifts, certified both ways)"
            else:
                text = f"private: Laplace epsilon in [{exact_text(epsilon_lower)}, {exact_text(epsilon)}] (LP bounds, certified; ker B != 0)"
    else:
        assert l2_squared is not None
        rho = l2_squared / (2 * sc * sc)
        text = f"private: Gaussian Mahalanobis sensitivity^2 = {exact_text(l2_squared)}, rho = {exact_text(rho)} (exact); delta(eps) exact"
    pattern = pattern_l1 if kind == "laplace" else pattern_l2
    if pattern is not None:
        what = "l1 sensitivity" if kind == "laplace" else "Mahalanobis sensitivity^2"
        value = (f"= {exact_text(pattern.upper)}" if pattern.exact
                 else f"in [{exact_text(pattern.lower)}, {exact_text(pattern.upper)}]")
        consequence = "Laplace epsilon = l1/b" if kind == "laplace" else (
            f"rho {'=' if pattern.exact else '<='} {exact_text(pattern.upper / (2 * sc * sc))}")
        assert participation is not None
        text = (f"private: {what} {value} over the patterns of '{participation.describe()}' ({pattern.method}); "
                + consequence)
        if kind == "laplace":
            assert l1 is not None
            epsilon = l1 / sc
            epsilon_lower = pattern.lower / sc
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
        epsilon_exact=kind == "laplace" and (unique or epsilon_lower == epsilon)
        and (pattern is None or pattern.exact),
        rho=rho,
        explanation=text,
        epsilon_lower=epsilon_lower,
        rho_is_bound=kind == "gaussian" and pattern is not None and not pattern.exact,
        participation=participation,
        pattern_maximum=pattern,
    )


def _quadratic_form(matrix: fmpq_mat, vector: Sequence[int]) -> Fraction:
    """vᵀ Q v for an integer vector v with few non-zero entries."""
    support = [j for j, value in enumerate(vector) if value]
    return sum((vector[i] * vector[j] * fraction_of(matrix[i, j]) for i in support for j in support), Fraction(0))


def _laplace_epsilon_bounds(
    b_matrix: Matrix, w_matrix: Matrix, strategy: Matrix, scale: Fraction, differences: Sequence[Sequence[int]],
    limits: SizeLimits,
) -> tuple[Fraction, Fraction]:
    """Certified [lower, upper] of max_v min{‖u‖₁ : B u = W v} / scale over the neighbouring differences v
    (:func:`reference.audit.linear.laplace_lp.max_shift_norm`; the minimum-norm strategy supplies a solution where the
    sparse elimination does not)."""
    workload_columns = sparse.sparse_columns(w_matrix)
    targets = [sparse.combine(workload_columns, vector) for vector in differences]
    strategy_columns: list[sparse.Sparse] = []  # A (draws × inputs) by columns, built on first need

    def fallback(k: int) -> sparse.Sparse:
        if not strategy_columns:
            strategy_columns.extend(sparse.sparse_columns(strategy))
        return sparse.combine(strategy_columns, differences[k])  # A v = Σ_j v_j A[:, j]

    lower, upper = max_shift_norm(b_matrix, targets, fallback, limits=limits)
    return lower / scale, upper / scale


def _smallest_integer_shifts(b_matrix: Matrix, shifts: Sequence[Mapping[int, int]],
                             limits: SizeLimits) -> tuple[int | None, str]:
    scale = math.lcm(*(entry.denominator for row in b_matrix for entry in row))
    return integer_shift_search(sparse.sparse_columns(b_matrix, scale), len(b_matrix), shifts, limits=limits)


def smallest_integer_shifts(integer_columns: Sequence[Mapping[int, Fraction]], outputs: int,
                            shifts: Sequence[Mapping[int, int]], *, limits: SizeLimits = DEFAULT_LIMITS) -> int | None:
    """max over the differences of the smallest integer ‖u‖₁ (exact enumeration over the integer kernel, on small
    instances: :mod:`reference.audit.linear.integer_shift`), or None when an instance is too large; B is given by its
    integer (scaled) sparse columns.

    Args:
        integer_columns: B's columns scaled to integers (one common denominator cleared), each a map from row index
            to its non-zero entry.
        outputs: the number of rows of B.
        shifts: the integer draw shifts to minimise over, one per neighbouring difference, each a map from draw
            index to its non-zero entry.
        limits: the limits applied (``shift_points``: kernel combinations per difference); default
            :data:`~reference.audit.linear.size_limits.DEFAULT_LIMITS`.
    """
    return integer_shift_search(integer_columns, outputs, shifts, limits=limits)[0]


def integer_shift_search(integer_columns: Sequence[Mapping[int, Fraction]], outputs: int,
                         shifts: Sequence[Mapping[int, int]], *,
                         limits: SizeLimits = DEFAULT_LIMITS) -> tuple[int | None, str]:
    """:func:`smallest_integer_shifts` and, when it is None, why: the clause naming the estimate, the limit and
    the flag that raises it (empty when the maximum was enumerated).

    Args:
        integer_columns: B's columns scaled to integers, as for :func:`smallest_integer_shifts`.
        outputs: the number of rows of B.
        shifts: the integer draw shifts to minimise over, one per neighbouring difference.
        limits: the limits applied (``shift_points``); default
            :data:`~reference.audit.linear.size_limits.DEFAULT_LIMITS`.
    """
    if len(shifts) > MAX_ENUMERATED_SHIFTS:
        return None, f"the exact minimum is enumerated for at most {MAX_ENUMERATED_SHIFTS} differences"
    basis = integer_kernel_basis(integer_columns, outputs)
    draws = len(integer_columns)
    found: list[int] = []
    for shift in shifts:
        value = minimum_integer_shift(basis, shift, draws, limits.shift_points)
        if value is None:
            return None, ("the exact minimum was not enumerated: "
                          + limits.over("shift_points", box_points(basis, shift, draws), "kernel combinations"))
        found.append(value)
    return max(found, default=0), ""


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
    participation: Participation | None = None,
    limits: SizeLimits = DEFAULT_LIMITS,
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
            explanation="not private: the noise is integer-valued and " + found.leak.summary(),
            lattice_leak=found.leak,
        )
    if found.integer_shifts is None and participation is not None:
        raise ValueError("participation: integer noise whose draw shifts are not unique (B has a kernel) is not "
                         "supported")
    if found.integer_shifts is None:
        if found.some_integer_shifts is not None:
            # an integer shift u per difference bounds the loss from above (shift the draws by u); for discrete
            # Laplace the LP is tried for a smaller integral u. Upper bounds only: no lower bound is claimed
            differences = neighbouring_differences(len(w_matrix[0]), relation)
            if kind == "discrete-laplace":
                targets = [sparse.combine(sparse.sparse_columns(w_matrix), v) for v in differences]
                _, best = max_integer_shift_norm(b_matrix, targets, found.some_integer_shifts, limits=limits)
                smallest, note = _smallest_integer_shifts(b_matrix, found.some_integer_shifts, limits)
                return discrete_laplace_bound_verdict(
                    fields, largest_shift_norm=best, smallest_integer_shift=smallest, users=users, scale=scale,
                    note=note,
                )
            l2_bound = max((sum(value * value for value in u.values()) for u in found.some_integer_shifts),
                           default=0)
            rho_bound = users * users * Fraction(l2_bound) / (2 * scale * scale)
            return LinearNoiseVerdict(
                **fields,  # type: ignore[arg-type]
                private=True, epsilon=None, epsilon_exact=False, rho=rho_bound, rho_is_bound=True,
                explanation=f"private: every shift is B u with an integer u (B has a kernel, u not unique); "
                f"discrete Gaussian rho <= max ||u||^2/(2 sigma^2) = {exact_text(rho_bound)} (upper bound)",
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
    if participation is not None:
        return _integer_participation_verdict(fields, found.integer_shifts, participation, kind, scale, limits)
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
            f"max ||u||_1/b = {exact_text(epsilon)} (exact)",
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
        f"max ||u||^2/(2 sigma^2) = {exact_text(rho)} (exact)",
    )


def _integer_participation_verdict(
    fields: Mapping[str, object],
    integer_shifts: Sequence[tuple[Sequence[int], Sequence[int]]],
    participation: Participation,
    kind: object,
    scale: Fraction,
    limits: SizeLimits,
) -> LinearNoiseVerdict:
    """Unique integer draw shifts u_j per input: a pattern S shifts the draws by U 1_S, so discrete Laplace ε is
    max ‖U 1_S‖₁/b and the discrete Gaussian ρ is max ‖U 1_S‖²/(2σ²), maximised over the patterns."""
    inputs = len(integer_shifts)
    columns: list[list[int]] = [[] for _ in range(inputs)]
    for difference, shift in integer_shifts:
        columns[list(difference).index(1)] = list(shift)
    text = f"over the patterns of '{participation.describe()}'"
    if participation.contribution == "vector":
        raise ValueError("participation: contribution 'vector' (an l2 ball of real vectors) is defined for gaussian "
                         "noise; integer noise takes 'counts' or 'signed'")
    if kind == "discrete-laplace":
        found = max_pattern_l1(participation, columns, 1, limits=limits)
        epsilon, lower = found.upper / scale, found.lower / scale
        value = fraction_text(epsilon) if found.exact else f"in [{exact_text(lower)}, {exact_text(epsilon)}]"
        return LinearNoiseVerdict(
            **fields,  # type: ignore[arg-type]
            private=True, epsilon=epsilon, epsilon_exact=found.exact, epsilon_lower=lower, rho=None,
            explanation=f"private: unique integer shifts; discrete Laplace epsilon = max ||U 1_S||_1/b {value} "
            f"{text} ({found.method})", participation=participation, pattern_maximum=found,
        )
    gram = [[sum(a * b for a, b in zip(left, right)) for right in columns] for left in columns]
    found = max_pattern_quadratic(participation, gram, 1, limits=limits)
    rho = found.upper / (2 * scale * scale)
    return LinearNoiseVerdict(
        **fields,  # type: ignore[arg-type]
        private=True, epsilon=None, epsilon_exact=False, rho=rho, rho_is_bound=not found.exact,
        explanation=f"private: unique integer shifts; discrete Gaussian rho = max ||U 1_S||^2/(2 sigma^2) "
        f"{'=' if found.exact else '<='} {exact_text(rho)} {text} ({found.method})",
        participation=participation, pattern_maximum=found,
    )
