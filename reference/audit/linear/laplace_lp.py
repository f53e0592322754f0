"""The smallest ℓ1 draw shift of a linear-noise release, certified exactly from a floating-point LP.

For the release ``W x + B z`` with i.i.d. Laplace(b) draws, a neighbouring difference ``v`` moves the output mean by
``y = W v``. Any ``u`` with ``B u = y`` turns one output law into the other by shifting the draws, so the privacy
loss is at most ``‖u‖₁/b``; the audit wants ``min{‖u‖₁ : B u = y}``, a linear programme whose dual is
``max{λ · y : ‖Bᵀ λ‖∞ <= 1}`` (equal optimal values).

The LP is solved in floating point (scipy's HiGHS), and nothing of that solution is trusted:

* **upper bound** — the support of the float primal solution is re-solved exactly (``B_S u_S = y`` over the
  rationals, python-flint); if that fails, the minimum-norm rational solution is used. Either way ``B u = y`` is
  checked exactly, so ``‖u‖₁`` is a certified upper bound;
* **lower bound** — the float dual ``λ`` is rounded to nearby rationals and divided by ``max |Bᵀ λ|`` when that
  exceeds 1, so it is exactly dual-feasible, and ``λ · y`` is a certified lower bound (weak duality).

When the two meet (they do whenever the optimal dual has small denominators, as for 0/±1 tree matrices) the
value is exact.

Why the LP value is the mechanism's ε and not only an upper bound (the proof program is
:mod:`reference_verification.audit.proofs.laplace_lp`): let ``λ`` be dual-optimal, ``a = Bᵀ λ`` (``|a_j| <= 1``) and ``OPT = λ · y``. By complementary slackness
``|a_j| = 1`` on the support of an optimal ``u``, so the tail of ``λ · (B z) = Σ a_j z_j`` is
``P[Σ a_j z_j >= s] ~ C s^(k−1) e^(−s/b)`` with ``k >= 1`` the number of ``|a_j| = 1``. For the event
``{λ · output >= s}`` the two neighbours' probabilities have ratio ``P[≥ s − OPT] / P[≥ s] → e^(OPT/b)`` as
``s → ∞``: the privacy loss comes arbitrarily close to ``OPT/b``, which shifting the draws by ``u`` never exceeds.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from reference.audit.linear import elimination as sparse
from reference.audit.linear.elimination import Sparse
from reference.audit.linear.size_limits import DEFAULT_LIMITS, SizeLimits
from reference.core.linalg import Matrix

#: Denominators tried when rounding the float dual to rationals (largest last).
DUAL_DENOMINATORS = (10**3, 10**6, 10**9)
#: A float primal entry below this is treated as zero when reading off the support.
SUPPORT_THRESHOLD = 1e-9


@dataclass(frozen=True)
class ShiftNorm:
    """Certified bounds on ``min{‖u‖₁ : B u = y}``: ``lower <= value <= upper``, exact when equal."""

    lower: Fraction
    upper: Fraction
    shift: tuple[Fraction, ...]  # a u attaining ``upper`` (B u = y exactly)
    dual: tuple[Fraction, ...]  # a λ attaining ``lower`` (‖Bᵀ λ‖∞ <= 1 exactly)

    @property
    def exact(self) -> bool:
        """The bounds meet."""
        return self.lower == self.upper


@dataclass(frozen=True)
class _Problem:
    """B as sparse exact columns and as the float LP constraint matrix [B, −B] (built once per B), with the limit
    of the exact refinement (``slackness_support``)."""

    columns: list[Sparse]
    outputs: int
    constraint: Any  # scipy.sparse matrix: [B, −B]·2^(−shift), its largest entry in [1, 2)
    limits: SizeLimits = DEFAULT_LIMITS
    #: the float LP is of 2^(−shift)·B (exact: a power of two), so that a B scaled to integers (2^54 entries from
    #: a float-built matrix) does not defeat the solver's tolerances; its dual times 2^(−shift) is B's
    shift: int = 0

    @property
    def unit(self) -> Fraction:
        """2^(−shift): the normalised LP's dual times this is a dual of B's."""
        return Fraction(2) ** -self.shift
    #: the largest exact solve the refinement skipped for ``slackness_support`` (0: none), for the verdict's text
    skipped: list[int] = field(default_factory=list, compare=False)

    def skipped_note(self) -> str:
        """The clause saying a wide bracket was not refined (estimate, limit, flag), or empty."""
        if not self.skipped:
            return ""
        return ("; not refined by an exact solve: "
                + self.limits.over("slackness_support", max(self.skipped), "columns"))


def _problem(noise_matrix: Matrix, limits: SizeLimits = DEFAULT_LIMITS) -> _Problem:
    return problem_of_columns(sparse.sparse_columns(noise_matrix), len(noise_matrix), limits=limits)


def problem_of_columns(columns: list[Sparse], outputs: int, *, limits: SizeLimits = DEFAULT_LIMITS) -> _Problem:
    """The LP data for B given by its sparse exact columns.

    Args:
        columns: B (outputs × draws) by its sparse exact columns, row index to non-zero entry.
        outputs: the number of rows of B.
        limits: the limits of the exact refinement of a wide bracket (``slackness_support``); default
            :data:`~reference.audit.linear.size_limits.DEFAULT_LIMITS`.
    """
    from scipy.sparse import csc_matrix  # imported here: scipy is slow to import

    draws = len(columns)
    rows = [i for column in columns for i in column]
    cols = [j for j, column in enumerate(columns) for _ in column]
    values = np.array([float(v) for column in columns for v in column.values()], dtype=np.float64)
    shift = int(np.frexp(np.max(np.abs(values)))[1]) - 1 if len(values) else 0
    positive = csc_matrix((np.ldexp(values, -shift), (rows, cols)), shape=(outputs, draws))
    from scipy.sparse import hstack

    return _Problem(columns, outputs, hstack([positive, -positive], format="csc"), limits, shift=shift)


def _solve(problem: _Problem, target: Sparse, fallback: Sparse) -> tuple[Fraction, Fraction, Sparse, Sparse]:
    """Certified (lower, upper, u, λ) for one target (module docstring); ``fallback`` solves B u = y exactly."""
    from scipy.optimize import linprog  # imported here: scipy.optimize is slow to import

    if sparse.apply(problem.columns, fallback) != target:
        raise ValueError("fallback must solve B u = target exactly")
    draws = len(problem.columns)
    y = np.zeros(problem.outputs)
    for i, value in target.items():
        y[i] = math.ldexp(float(value), -problem.shift)
    solved = linprog(np.ones(2 * draws), A_eq=problem.constraint, b_eq=y, bounds=(0, None), method="highs")
    best, lower = fallback, Fraction(0)
    dual: Sparse = {}
    if solved.status == 0:
        # the dual first: when it already meets the known solution, that solution is optimal (no re-solve)
        lower, dual = _certified_dual(problem, target, solved.eqlin.marginals, sparse.l1(best))
        primal = solved.x[:draws] - solved.x[draws:]
        support = [j for j in range(draws) if abs(primal[j]) > SUPPORT_THRESHOLD]
        if support and lower < sparse.l1(best):
            candidate = _exact_on_support(problem, support, target)
            if candidate is not None and sparse.l1(candidate) < sparse.l1(best):
                best = candidate
            if lower < sparse.l1(best):  # the roundings may meet the smaller value now
                lower, dual = _certified_dual(problem, target, solved.eqlin.marginals, sparse.l1(best))
        if _too_wide(lower, sparse.l1(best)):
            best, lower, dual = _refine(problem, target, primal, solved.eqlin.marginals, best, lower, dual)
    upper = sparse.l1(best)
    return min(lower, upper), upper, best, dual


#: A certified bracket wider than this (relative) is refined from the float basis.
REFINE_WIDTH = Fraction(1, 10**9)


def _too_wide(lower: Fraction, upper: Fraction) -> bool:
    return upper - lower > REFINE_WIDTH * upper


def _refine(problem: _Problem, target: Sparse, primal: np.ndarray, marginals: np.ndarray, best: Sparse,
            lower: Fraction, dual: Sparse) -> tuple[Sparse, Fraction, Sparse]:
    """Exact re-solves from the float basis when the bracket is too wide.

    Primal: all columns, the float solution's largest |u_j| first, solved exactly: a basic solution on the float
    vertex's columns completed to a basis (an elimination in index order may pivot on a float-built B's rounding
    debris: bounds of 1e19 for a true 4). Dual: complementary slackness on the exact primal's support S (entries
    above 1e-9 of its largest), B_Sᵀ λ = sign(u_S), solved exactly as the float dual plus the least correction
    (λ = λ_f + B_S w with (B_Sᵀ B_S) w = sign(u_S) − B_Sᵀ λ_f), then divided by max_j |B_jᵀ λ| when that exceeds 1:
    dual-feasible exactly, so λ · y is a certified lower bound, equal to ‖u‖₁ when both are optimal."""
    # every column, the float solution's largest first: the elimination pivots on the float vertex's columns and
    # completes them to a basis with the others (a float-built B rarely has y in the exact span of the support)
    order = sorted(range(len(primal)), key=lambda j: -abs(primal[j]))
    if order:
        candidate = _basis_solution(problem, order, target)
        if candidate is not None and sparse.l1(candidate) < sparse.l1(best):
            best = candidate
    # complementary slackness where the exact solution is not rounding debris
    largest = max((abs(Fraction(value)) for value in best.values()), default=Fraction(0))
    support = sorted(j for j, value in best.items() if abs(Fraction(value)) > largest / 10**9)
    exact_dual = _slackness_dual(problem, support, best, marginals)
    if exact_dual is not None:
        value = sum((exact_dual.get(i, Fraction(0)) * entry for i, entry in target.items()), Fraction(0))
        if value > lower:
            lower, dual = value, exact_dual
    return best, lower, dual


def _basis_solution(problem: _Problem, order: list[int], target: Sparse) -> Sparse | None:
    """An exact solution of B u = y on a basis of col(B) chosen greedily in ``order`` (a column joins when it
    raises the float rank: a guide only), solved exactly by the normal equations and checked exactly."""
    from flint import fmpq, fmpq_mat

    dense = problem.constraint[:, : len(problem.columns)].toarray()
    rank = int(np.linalg.matrix_rank(dense))
    if rank > problem.limits.slackness_support:
        problem.skipped.append(rank)
    if rank == 0 or rank > problem.limits.slackness_support:
        return None
    chosen: list[int] = []
    for j in order:
        trial = [*chosen, j]
        if int(np.linalg.matrix_rank(dense[:, trial])) == len(trial):
            chosen = trial
            if len(chosen) == rank:
                break
    basis = fmpq_mat(problem.outputs, len(chosen))
    for k, j in enumerate(chosen):
        for i, entry in problem.columns[j].items():
            fraction = Fraction(entry)
            basis[i, k] = fmpq(fraction.numerator, fraction.denominator)
    rhs = fmpq_mat(problem.outputs, 1)
    for i, value in target.items():
        fraction = Fraction(value)
        rhs[i, 0] = fmpq(fraction.numerator, fraction.denominator)
    transposed = basis.transpose()
    try:
        solution = (transposed * basis).solve(transposed * rhs)
    except ZeroDivisionError:  # the float rank over-counted: the exact columns are dependent
        return None
    if basis * solution != rhs:
        return None  # y is not in the exact span of the chosen columns
    candidate: Sparse = {}
    for k, j in enumerate(chosen):
        cell = solution[k, 0]
        if cell != 0:
            candidate[j] = Fraction(int(cell.p), int(cell.q))
    return candidate if sparse.apply(problem.columns, candidate) == target else None


def _slackness_dual(problem: _Problem, support: list[int], best: Sparse, marginals: np.ndarray) -> Sparse | None:
    from flint import fmpq, fmpq_mat

    if len(support) > problem.limits.slackness_support:
        problem.skipped.append(len(support))
    if not support or len(support) > problem.limits.slackness_support:
        return None
    rows = sorted({i for j in support for i in problem.columns[j]})
    index = {i: position for position, i in enumerate(rows)}
    basis = fmpq_mat(len(rows), len(support))
    for k, j in enumerate(support):
        for i, entry in problem.columns[j].items():
            fraction = Fraction(entry)
            basis[index[i], k] = fmpq(fraction.numerator, fraction.denominator)
    unit = problem.unit
    start = [Fraction(float(marginals[i])) * unit if i < len(marginals) else Fraction(0) for i in rows]
    start_vector = fmpq_mat(len(rows), 1, [fmpq(v.numerator, v.denominator) for v in start])
    signs = fmpq_mat(len(support), 1, [1 if Fraction(best[j]) > 0 else -1 for j in support])
    transposed = basis.transpose()
    try:
        correction = (transposed * basis).solve(signs - transposed * start_vector)
    except ZeroDivisionError:  # dependent support columns: no unique least correction
        return None
    solution = start_vector + basis * correction
    candidate: dict[int, Fraction] = {}
    for position, i in enumerate(rows):
        cell = solution[position, 0]
        candidate[i] = Fraction(int(cell.p), int(cell.q))
    # the float dual off the support's rows keeps its (exact) float values
    for i, value in enumerate(marginals):
        if value and i not in index:
            candidate[i] = Fraction(float(value)) * unit
    largest = max((abs(sum((candidate[i] * Fraction(entry) for i, entry in column.items() if i in candidate),
                           Fraction(0))) for column in problem.columns), default=Fraction(0))
    if largest == 0:
        return None
    if largest > 1:
        candidate = {i: value / largest for i, value in candidate.items()}
    return {i: value for i, value in candidate.items() if value}


def _exact_on_support(problem: _Problem, support: list[int], target: Sparse) -> Sparse | None:
    """An exact solution of B_S u_S = y on the float solution's support, or None when there is none."""
    reduction = sparse.eliminate([problem.columns[j] for j in support], [target], problem.outputs, integral=False,
                                 track=True)
    if reduction.targets[0] or reduction.solutions is None:
        return None  # the remainder is not zero: y is not in the span of the support's columns
    candidate = {support[j]: value for j, value in reduction.solutions[0].items() if value}
    return candidate if sparse.apply(problem.columns, candidate) == target else None


def _certified_dual(problem: _Problem, target: Sparse, marginals: np.ndarray,
                    upper: Fraction) -> tuple[Fraction, Sparse]:
    """The best exactly feasible rounding of the float dual, and its value λ · target (a lower bound); the
    roundings stop once one meets ``upper`` (a known primal value: nothing can exceed it)."""
    best_value = Fraction(0)
    best_dual: Sparse = {}
    unit = problem.unit
    for limit in DUAL_DENOMINATORS:
        # rounded on the normalised LP's scale (duals near 1), then scaled exactly to B's
        rounded = {i: Fraction(float(value)).limit_denominator(limit) * unit
                   for i, value in enumerate(marginals) if value}
        # integral duals (0/±1 tree matrices) as ints: the feasibility sums below stay in int arithmetic
        rounded = {i: sparse.narrow(value) for i, value in rounded.items() if value}
        largest = max((abs(sum((rounded[i] * entry for i, entry in column.items() if i in rounded), Fraction(0)))
                       for column in problem.columns), default=Fraction(0))
        if largest > 1:
            rounded = {i: value / largest for i, value in rounded.items()}
        value = sum((rounded[i] * entry for i, entry in target.items() if i in rounded), Fraction(0))
        if value > best_value:
            best_value, best_dual = value, rounded
        if best_value >= upper:
            break
    return best_value, best_dual


def shift_norm(noise_matrix: Matrix, target: Sequence[Fraction], fallback: Sequence[Fraction], *,
               limits: SizeLimits = DEFAULT_LIMITS) -> ShiftNorm:
    """Certified ``min{‖u‖₁ : B u = target}`` (module docstring). ``fallback`` is a known exact solution (for
    example the minimum-norm one), used as the upper bound when the float support does not re-solve.

    Args:
        noise_matrix: B, outputs × draws, exact.
        target: y = W v, the output mean's shift, one exact entry per output (dense).
        fallback: an exact solution of B u = ``target``, one entry per draw (dense).
        limits: the limits of the exact refinement (``slackness_support``); default
            :data:`~reference.audit.linear.size_limits.DEFAULT_LIMITS`.

    Raises:
        ValueError: ``fallback`` does not solve B u = ``target`` exactly.
    """
    problem = _problem(noise_matrix, limits)
    dense_target = {i: value for i, value in enumerate(target) if value}
    lower, upper, best, dual = _solve(problem, dense_target, {j: v for j, v in enumerate(fallback) if v})
    return ShiftNorm(lower, upper, tuple(Fraction(best.get(j, 0)) for j in range(len(problem.columns))),
                     tuple(Fraction(dual.get(i, 0)) for i in range(problem.outputs)))


def max_shift_norm(noise_matrix: Matrix, targets: Sequence[Sparse], fallback: Callable[[int], Sparse], *,
                   limits: SizeLimits = DEFAULT_LIMITS) -> tuple[Fraction, Fraction]:
    """Certified bounds on ``max_k min{‖u‖₁ : B u = y_k}``, solving as few LPs as the bounds allow.

    Exact solutions for every target come first from one sparse elimination (``fallback(k)`` supplies one for a
    target the elimination leaves a remainder on, e.g. the minimum-norm one): their norms are upper bounds. Then
    the target with the largest upper bound gets its LP (certified both ways), until the largest upper bound is
    met by a certified lower bound: for tree mechanisms, whose eliminated solutions are already optimal, one LP.

    Args:
        noise_matrix: B, outputs × draws, exact.
        targets: the shifts y_k = W v_k of the neighbouring differences, sparse exact vectors on the outputs.
        fallback: called with a target's index k when the elimination leaves it a remainder; returns an exact
            solution u of B u = y_k, sparse on the draws.
        limits: the limits of the exact refinement (``slackness_support``); default
            :data:`~reference.audit.linear.size_limits.DEFAULT_LIMITS`.

    Returns:
        (certified lower bound, certified upper bound) on the maximum.
    """
    problem = _problem(noise_matrix, limits)
    # B u = y iff P B u = P y (P the invertible first-difference map): same solutions, sparser elimination
    columns, reduced_targets, _ = sparse.sparsest_form(problem.columns, targets, problem.outputs)
    reduction = sparse.eliminate(columns, reduced_targets, problem.outputs, integral=False, track=True)
    assert reduction.solutions is not None
    solutions = [solution if not remainder else fallback(k)
                 for k, (solution, remainder) in enumerate(zip(reduction.solutions, reduction.targets))]
    return _lazy_maximum(problem, targets, solutions, integral=False)


def max_shift_norm_of(problem: _Problem, targets: Sequence[Sparse],
                      solutions: list[Sparse]) -> tuple[Fraction, Fraction]:
    """:func:`max_shift_norm` when exact solutions ``B u_k = y_k`` are known already (one per target).

    Args:
        problem: B's LP data (:func:`problem_of_columns`).
        targets: the shifts y_k, sparse exact vectors on the outputs.
        solutions: one exact solution u_k of B u = y_k per target, sparse on the draws (their norms are the first
            upper bounds).

    Returns:
        (certified lower bound, certified upper bound) on the maximum.
    """
    return _lazy_maximum(problem, targets, solutions, integral=False)


def max_integer_shift_norm_of(problem: _Problem, targets: Sequence[Sparse],
                              integer_shifts: Sequence[Mapping[int, int]]) -> tuple[Fraction, Fraction]:
    """:func:`max_integer_shift_norm` for B given as a :func:`problem_of_columns`.

    Args:
        problem: B's LP data (:func:`problem_of_columns`).
        targets: the shifts y_k, sparse exact vectors on the outputs.
        integer_shifts: one known integer solution u_k of B u = y_k per target, draw index to non-zero int.

    Returns:
        (certified lower bound, upper bound on integer shifts) on the maximum.
    """
    return _lazy_maximum(problem, targets, _int_solutions(integer_shifts), integral=True)


def _int_solutions(integer_shifts: Sequence[Mapping[int, int]]) -> list[Sparse]:
    """The shifts as sparse exact vectors: their ints kept as ints (they stand for Fractions, the sparse module's
    convention, and sum several times faster)."""
    return [{j: int(value) for j, value in shift.items()} for shift in integer_shifts]  # type: ignore[misc]


def _lazy_maximum(problem: _Problem, targets: Sequence[Sparse], solutions: list[Sparse], *,
                  integral: bool) -> tuple[Fraction, Fraction]:
    """Bounds on the largest minimum: the target with the largest upper bound gets its certified LP, until that
    bound is met by a certified lower bound. With ``integral``, an LP solution lowers an upper bound only when it
    is integral (the bounds are then on integer shifts; the LP value stays a lower bound, being a relaxation).

    Once an LP's own bracket did not close (a float-built B: the optimal dual has denominators the rounding does
    not reach, so no later bracket closes either), the search stops when the largest upper bound is within
    :data:`REFINE_WIDTH` (relative) of the certified lower bound: the pair returned is still a certified bracket
    of the maximum, as narrow as each LP's own, and an LP per target (thousands, each leaving a bracket of 1e-16)
    would not narrow it further."""
    upper = [Fraction(sparse.l1(solution)) for solution in solutions]
    lower = Fraction(0)
    # two max-heaps of (−bound, target) instead of a scan of every bound per LP (thousands of targets, thousands
    # of LPs: the scans' Fraction comparisons were the largest cost): the unsolved targets, and every target's
    # current bound (entries made stale by a lowered bound are dropped when they surface)
    unsolved = [(-bound, k) for k, bound in enumerate(upper)]
    heapq.heapify(unsolved)
    bounds = list(unsolved)

    def largest_bound() -> Fraction:
        while bounds and -bounds[0][0] != upper[bounds[0][1]]:
            heapq.heappop(bounds)
        return -bounds[0][0] if bounds else Fraction(0)

    open_bracket = False  # some LP's certificates did not meet
    while unsolved:
        _, worst = heapq.heappop(unsolved)
        if upper[worst] <= lower:
            break  # no unsolved target can exceed a value already certified
        found_lower, found_upper, best, _ = _solve(problem, targets[worst], solutions[worst])
        if not integral or all(Fraction(value).denominator == 1 for value in best.values()):
            upper[worst] = Fraction(found_upper)
            heapq.heappush(bounds, (-upper[worst], worst))
        lower = max(lower, found_lower)
        open_bracket = open_bracket or found_lower < found_upper
        if largest_bound() <= lower or (open_bracket and not _too_wide(lower, largest_bound())):
            break
    return lower, largest_bound()


def max_integer_shift_norm(noise_matrix: Matrix, targets: Sequence[Sparse],
                           integer_shifts: Sequence[Mapping[int, int]], *,
                           limits: SizeLimits = DEFAULT_LIMITS) -> tuple[Fraction, Fraction]:
    """Bounds on ``max_k min{‖u‖₁ : B u = y_k, u integral}`` from known integral solutions ``integer_shifts``:
    the LP (certified lower bound, a relaxation) and, where its exact primal is integral, a smaller integral u.
    Targets are taken largest upper bound first until that bound is met by a certified lower bound.

    Args:
        noise_matrix: B, outputs × draws, exact.
        targets: the shifts y_k = W v_k of the neighbouring differences, sparse exact vectors on the outputs.
        integer_shifts: one known integer solution u_k of B u = y_k per target, draw index to non-zero int.
        limits: the limits of the exact refinement (``slackness_support``); default
            :data:`~reference.audit.linear.size_limits.DEFAULT_LIMITS`.

    Returns:
        (certified lower bound, upper bound on integer shifts) on the maximum.
    """
    return _lazy_maximum(_problem(noise_matrix, limits), targets, _int_solutions(integer_shifts), integral=True)
