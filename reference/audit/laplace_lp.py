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
:mod:`reference.audit.proofs.laplace_lp`): let ``λ`` be dual-optimal, ``a = Bᵀ λ`` (``|a_j| <= 1``) and ``OPT = λ · y``. By complementary slackness
``|a_j| = 1`` on the support of an optimal ``u``, so the tail of ``λ · (B z) = Σ a_j z_j`` is
``P[Σ a_j z_j >= s] ~ C s^(k−1) e^(−s/b)`` with ``k >= 1`` the number of ``|a_j| = 1``. For the event
``{λ · output >= s}`` the two neighbours' probabilities have ratio ``P[≥ s − OPT] / P[≥ s] → e^(OPT/b)`` as
``s → ∞``: the privacy loss comes arbitrarily close to ``OPT/b``, which shifting the draws by ``u`` never exceeds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from flint import fmpq, fmpq_mat

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


def _flint(rows: Sequence[Sequence[Fraction]]) -> fmpq_mat:
    return fmpq_mat(len(rows), len(rows[0]), [fmpq(e.numerator, e.denominator) for row in rows for e in row])


def _exact_solution(columns: Matrix, target: Sequence[Fraction]) -> list[Fraction] | None:
    """One rational solution of ``columns · u = target``, or None when there is none."""
    system = _flint(columns)
    rows, cols = system.nrows(), system.ncols()
    augmented = fmpq_mat(rows, cols + 1, [
        value for i in range(rows) for value in [*(system[i, j] for j in range(cols)),
                                                  fmpq(target[i].numerator, target[i].denominator)]
    ])
    reduced, rank = augmented.rref()
    solution = [Fraction(0)] * cols
    for i in range(rank):
        pivot = next((j for j in range(cols + 1) if reduced[i, j] != 0), None)
        if pivot is None or pivot == cols:
            return None  # a row 0 = c != 0: inconsistent
        value = reduced[i, cols]
        solution[pivot] = Fraction(int(value.p), int(value.q))
    return solution


def _residual_is_zero(matrix: Matrix, u: Sequence[Fraction], target: Sequence[Fraction]) -> bool:
    return all(sum((a * b for a, b in zip(row, u) if a and b), Fraction(0)) == t for row, t in zip(matrix, target))


def shift_norm(noise_matrix: Matrix, target: Sequence[Fraction], fallback: Sequence[Fraction]) -> ShiftNorm:
    """Certified ``min{‖u‖₁ : B u = target}`` (module docstring). ``fallback`` is a known exact solution (for
    example the minimum-norm one), used as the upper bound when the float support does not re-solve."""
    from scipy.optimize import linprog  # imported here: scipy.optimize is slow to import

    outputs, draws = len(noise_matrix), len(noise_matrix[0])
    dense = np.array([[float(e) for e in row] for row in noise_matrix])
    y = np.array([float(t) for t in target])
    cost = np.ones(2 * draws)
    solved = linprog(cost, A_eq=np.hstack([dense, -dense]), b_eq=y, bounds=(0, None), method="highs")
    best = list(fallback)
    if not _residual_is_zero(noise_matrix, best, target):
        raise ValueError("fallback must solve B u = target exactly")
    lower = Fraction(0)
    dual: tuple[Fraction, ...] = tuple(Fraction(0) for _ in range(outputs))
    if solved.status == 0:
        primal = solved.x[:draws] - solved.x[draws:]
        support = [j for j in range(draws) if abs(primal[j]) > SUPPORT_THRESHOLD]
        if support:
            columns = tuple(tuple(row[j] for j in support) for row in noise_matrix)
            partial = _exact_solution(columns, target)
            if partial is not None:
                candidate = [Fraction(0)] * draws
                for j, value in zip(support, partial):
                    candidate[j] = value
                if _residual_is_zero(noise_matrix, candidate, target) and _l1(candidate) < _l1(best):
                    best = candidate
        lower, dual = _certified_dual(noise_matrix, target, solved.eqlin.marginals)
    upper = _l1(best)
    return ShiftNorm(min(lower, upper), upper, tuple(best), dual)


def _l1(vector: Sequence[Fraction]) -> Fraction:
    return sum((abs(value) for value in vector), Fraction(0))


def _certified_dual(
    noise_matrix: Matrix, target: Sequence[Fraction], marginals: np.ndarray
) -> tuple[Fraction, tuple[Fraction, ...]]:
    """The best exactly feasible rounding of the float dual, and its value λ · target (a lower bound)."""
    draws = len(noise_matrix[0])
    best_value, best_dual = Fraction(0), tuple(Fraction(0) for _ in target)
    for limit in DUAL_DENOMINATORS:
        rounded = [Fraction(float(value)).limit_denominator(limit) for value in marginals]
        largest = max(
            (abs(sum((row[j] * lam for row, lam in zip(noise_matrix, rounded) if row[j] and lam), Fraction(0)))
             for j in range(draws)),
            default=Fraction(0),
        )
        if largest > 1:
            rounded = [value / largest for value in rounded]
        value = sum((lam * t for lam, t in zip(rounded, target)), Fraction(0))
        if value > best_value:
            best_value, best_dual = value, tuple(rounded)
    return best_value, best_dual
