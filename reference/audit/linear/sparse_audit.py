"""The linear-noise audit for add/remove neighbours by sparse exact elimination (memory and time ~ non-zeros).

The same verdict as the dense exact audit (:func:`reference.audit.linear.audit.dense_linear_noise_audit`, its twin,
paired in the tests), computed without a dense matrix:

* B and W are taken in their sparsest form (first differences of the rows where that at least halves the
  non-zeros: ``B u = y`` iff ``P B u = P y`` with P unimodular, so solutions, spans and lattices are unchanged);
* one rational sparse column elimination of B, tracking combinations, gives rank B, whether every w_j is in
  col(B) (else the first that is not), an exact solution ``u_j`` of ``B u_j = w_j`` for each input and a basis K of
  ker B (the combinations reduced to zero);
* the minimum-norm solution is ``a_j = u_j − K G⁻¹ Kᵀ u_j`` with ``G = Kᵀ K`` (the projection of u_j onto the
  row space of B): ℓ1 = max ‖a_j‖₁, and ℓ2² = max ‖a_j‖² = max ‖u_j‖² − cᵀ G⁻¹ c with ``c = Kᵀ u_j`` — this is
  w_jᵀ (B Bᵀ)⁺ w_j, the dense audit's Mahalanobis sensitivity;
* Laplace with ker B ≠ 0: the certified LP of :mod:`reference.audit.linear.laplace_lp`, started from the ``u_j``;
* integer noise: the integral (unimodular) elimination of :mod:`reference.audit.linear.elimination` on the scaled B decides
  lattice membership; a failure found there gives the leaking functional at once. When the rational elimination
  above already pivoted only on ±1 entries of integer vectors, it is that integral elimination, step for step
  (:func:`reference.audit.linear.elimination.unit_pivots_on_integers`), and is not redone. An instance that elimination
  does not reduce completely (a residual lattice) goes to the dense audit when it is small enough, else it is
  refused in one line.
"""

from __future__ import annotations

import math
from fractions import Fraction

from flint import fmpq, fmpq_mat, fmpz_mat

from reference.audit.linear import elimination as sparse
from reference.audit.linear.column_matrix import ColumnMatrix, check_nonzeros
from reference.audit.linear.elimination import Sparse
from reference.audit.linear.laplace_lp import max_integer_shift_norm_of, max_shift_norm_of, problem_of_columns
from reference.audit.linear.lattice import LatticeLeak
from reference.audit.linear.size_limits import DEFAULT_LIMITS, SizeLimits
from reference.core.exact_text import exact_text
from reference.core.linalg import Matrix

#: Largest strategy matrix (draws × inputs entries) returned as a dense :data:`Matrix` by the sparse audit, by
#: default (``SizeLimits.strategy_entries``, ``--max-strategy-entries``).
MAX_STRATEGY_ENTRIES = DEFAULT_LIMITS.strategy_entries
#: Most kernel entries times inputs for the minimum-norm projection (its cost), by default.
MAX_PROJECTION_WORK = DEFAULT_LIMITS.projection_work


#: Largest kernel of B the minimum-norm projection takes: its Gram matrix costs size² sparse dot products and an
#: exact size³ inverse (an all-zero 5000 × 5005 B has a kernel of 5005: minutes, refused in a line instead).
MAX_KERNEL_DIMENSION = DEFAULT_LIMITS.kernel_dimension


def _sparsest(noise: ColumnMatrix, workload: ColumnMatrix,
              limits: SizeLimits = DEFAULT_LIMITS) -> tuple[list[Sparse], list[Sparse], bool]:
    """B's and W's columns in their sparsest common form (module docstring), non-zeros checked before building."""
    plain = noise.nonzeros(False) + workload.nonzeros(False)
    differenced_count = noise.nonzeros(True) + workload.nonzeros(True)
    differenced = 2 * differenced_count < plain
    check_nonzeros(differenced_count if differenced else plain, "noise_matrix and workload", limits.nonzeros)
    return noise.columns(differenced), workload.columns(differenced), differenced


def _dot(left: Sparse, right: Sparse) -> Fraction:
    if len(right) < len(left):
        left, right = right, left
    return sum(value * right[i] for i, value in left.items() if i in right)  # type: ignore[return-value]


def _integer_dot(left: Sparse, right: dict[int, int]) -> int:
    """The dot product of an integer kernel vector (ints stored as the sparse module's numbers) and an int vector."""
    if len(right) < len(left):
        return sum(value * int(left[i]) for i, value in right.items() if i in left)
    return sum(int(value) * right[i] for i, value in left.items() if i in right)


#: A column as integer numerators over one (not necessarily least) positive denominator.
Scaled = tuple[dict[int, int], int]


def _as_integers(u: Sparse) -> Scaled:
    scale = math.lcm(*(Fraction(value).denominator for value in u.values())) if u else 1
    return {j: int(Fraction(value) * scale) for j, value in u.items()}, scale


def _as_fractions(column: Scaled) -> Sparse:
    numerators, denominator = column
    return {j: sparse.narrow(Fraction(value, denominator)) for j, value in numerators.items() if value}


def _scaled_l1(column: Scaled) -> Fraction:
    return Fraction(sum(abs(value) for value in column[0].values()), column[1])


def _scaled_squared_norm(column: Scaled) -> Fraction:
    return Fraction(sum(value * value for value in column[0].values()), column[1] * column[1])


def _minimum_norm(solutions: list[Sparse], kernel: list[Sparse], limits: SizeLimits = DEFAULT_LIMITS) -> list[Sparse]:
    """The projections a_j = u_j − K G⁻¹ Kᵀ u_j onto the row space of B (module docstring)."""
    return [_as_fractions(column) for column in _projection(solutions, kernel, limits)]


def _projection(solutions: list[Sparse], kernel: list[Sparse], limits: SizeLimits = DEFAULT_LIMITS) -> list[Scaled]:
    """:func:`_minimum_norm` with each a_j as integers over a denominator: its norms are then int sums, and a
    Fraction per entry is made only for the columns that need one."""
    if not kernel or not any(solutions):  # W = 0 (or B injective): nothing to project, whatever B's kernel
        return [_as_integers(u) for u in solutions]
    if len(kernel) > limits.kernel_dimension:  # its Gram matrix: size² dot products and a size³ exact inverse
        raise ValueError(
            f"noise_matrix: its kernel has dimension {len(kernel)}; the minimum-norm strategy needs the exact "
            f"inverse of a {len(kernel)} × {len(kernel)} Gram matrix (kernel dimension at most "
            f"{limits.kernel_dimension}); {SizeLimits.hint('kernel_dimension')}"
        )
    if sparse.nonzeros(kernel) * max(1, len(solutions)) > limits.projection_work:
        raise ValueError(
            f"noise_matrix: its kernel has dimension {len(kernel)} and {sparse.nonzeros(kernel)} non-zeros; the "
            f"minimum-norm strategy over {len(solutions)} inputs would take about "
            f"{sparse.nonzeros(kernel) * len(solutions):.3g} operations (at most {limits.projection_work:.3g}); "
            f"{SizeLimits.hint('projection_work')}"
        )
    # each basis vector scaled to integers (the projection K G⁻¹ Kᵀ does not depend on the basis): int arithmetic
    kernel = [{j: sparse.narrow(v * scale) for j, v in vector.items()}
              for vector in kernel
              for scale in [math.lcm(*(Fraction(v).denominator for v in vector.values()))]]
    size = len(kernel)
    gram = fmpq_mat(size, size)
    for r in range(size):
        for s in range(r, size):
            value = Fraction(_dot(kernel[r], kernel[s]))
            gram[r, s] = gram[s, r] = fmpq(value.numerator, value.denominator)
    inverse = gram.inv()
    # G⁻¹ = numerators N / one common denominator D: the per-input work stays in int arithmetic
    denominator = math.lcm(*(int(inverse[r, s].q) for r in range(size) for s in range(size)))
    numerators = fmpz_mat(size, size, [int(inverse[r, s].p) * (denominator // int(inverse[r, s].q))
                                       for r in range(size) for s in range(size)])
    # every input at once: u_j = v_j / d_j (v_j integer), c_j = K v_j, and N [c_1 ... c_m] = D·d_j·t_j per column
    # (t_j = G⁻¹ K u_j) by one FLINT integer product instead of a Python matrix-vector product per input
    integral_columns = [_as_integers(u) for u in solutions]
    integral = [numerators for numerators, _ in integral_columns]
    scales = [scale for _, scale in integral_columns]
    products = [[_integer_dot(vector, v) for v in integral] for vector in kernel]  # size × inputs
    moving = [j for j in range(len(solutions)) if any(row[j] for row in products)]
    scaled_t = (numerators * fmpz_mat(size, len(moving), [row[j] for row in products for j in moving])
                if moving else fmpz_mat(size, 0))
    out = list(integral_columns)  # an input with K u_j = 0 is its own projection
    for position, index in enumerate(moving):
        coefficients = [int(scaled_t[r, position]) for r in range(size)]
        change: dict[int, int] = {}  # D·d_j·(K t_j), on the kernel's support only (ints)
        for coefficient, vector in zip(coefficients, kernel):
            if coefficient:
                for j, value in vector.items():
                    change[j] = change.get(j, 0) + coefficient * int(value)
        whole = denominator * scales[index]
        a: dict[int, int] = {j: value * denominator for j, value in integral[index].items()}
        for j, amount in change.items():
            a[j] = a.get(j, 0) - amount
        out[index] = ({j: value for j, value in a.items() if value}, whole)
    return out


def _strategy(columns: list[Sparse], draws: int, limit: int = MAX_STRATEGY_ENTRIES) -> Matrix | None:
    if draws * len(columns) > limit:
        return None
    return tuple(tuple(Fraction(column.get(i, 0)) for column in columns) for i in range(draws))


def sparse_linear_noise_audit(noise: ColumnMatrix, workload: ColumnMatrix, kind: str, scale: Fraction,
                              users: int, limits: SizeLimits = DEFAULT_LIMITS) -> object:
    """The add/remove audit (module docstring); returns a ``LinearNoiseVerdict``; ``limits``: the sizes refused
    (:class:`reference.audit.linear.size_limits.SizeLimits`).

    Args:
        noise: the noise matrix B (outputs × draws).
        workload: the workload W (outputs × inputs), with as many rows as B.
        kind: the noise kind, one of :data:`~reference.audit.linear.verdict.NOISE_KINDS`.
        scale: σ (Gaussian kinds) or b (Laplace kinds), a positive Fraction.
        users: the contributions m per user, a positive integer (ε scales by m, Δ² by m²).
        limits: the size limits applied; default :data:`~reference.audit.linear.size_limits.DEFAULT_LIMITS`.

    Raises:
        ValueError: a size over its limit (the message names the flag that raises it).
    """
    from reference.audit.linear.verdict import LinearNoiseVerdict, not_private_verdict

    outputs, draws, inputs = noise.rows, noise.cols, workload.cols
    columns, targets, differenced = _sparsest(noise, workload, limits)
    reduction = sparse.eliminate(columns, targets, outputs, integral=False, track=True)
    assert reduction.solutions is not None and reduction.kernel is not None
    rank = len(reduction.pivots)
    common = {"noise": kind, "scale": scale, "outputs": outputs, "inputs": inputs, "draws": draws, "rank": rank,
              "neighbours": "add_remove", "contributions": users}
    offending = next((j for j, remainder in enumerate(reduction.targets) if remainder), None)
    if offending is not None:
        return not_private_verdict(common, draws - rank, offending)
    if len(reduction.kernel) != draws - rank:
        raise ArithmeticError("the elimination's kernel basis does not match rank-nullity")
    projected = _projection(reduction.solutions, reduction.kernel, limits)
    projected_l1 = [_scaled_l1(column) for column in projected]
    l1 = users * max(projected_l1)
    l2_squared = users * users * max(_scaled_squared_norm(column) for column in projected)
    strategy = (_strategy([_as_fractions(column) for column in projected], draws, limits.strategy_entries)
                if draws * len(projected) <= limits.strategy_entries else None)
    unique = rank == draws
    if kind in ("discrete-laplace", "discrete-gaussian"):
        integral = reduction if sparse.unit_pivots_on_integers(reduction, columns, targets) else None
        return _integer_noise(noise, workload, columns, targets, differenced, common, draws - rank, strategy, l1,
                              l2_squared, integral, limits)
    epsilon: Fraction | None = None
    epsilon_lower: Fraction | None = None
    rho: Fraction | None = None
    if kind == "laplace":
        epsilon = l1 / scale
        text = f"private: Laplace epsilon = l1/b = {exact_text(epsilon)} is exact (B has a trivial kernel)"
        if not unique:
            problem = problem_of_columns(columns, outputs, limits=limits)
            # the LPs start from the shorter (in l1) of two exact solutions of B u = w_j: the elimination's and the
            # minimum-norm one (for a tree and its consistency form, A e_j: already optimal, so one LP certifies all)
            shortest = [_as_fractions(a) if a_l1 < sparse.l1(u) else u
                        for u, a, a_l1 in zip(reduction.solutions, projected, projected_l1)]
            lower, upper = max_shift_norm_of(problem, targets, shortest)
            epsilon_lower, epsilon = users * lower / scale, users * upper / scale
            if epsilon_lower == epsilon:
                text = f"private: Laplace epsilon = {exact_text(epsilon)} exactly (LP over the draw shifts, certified both ways)"
            else:
                text = (f"private: Laplace epsilon in [{exact_text(epsilon_lower)}, {exact_text(epsilon)}] (LP "
                        f"bounds, certified; ker B != 0{problem.skipped_note()})")
    else:
        rho = l2_squared / (2 * scale * scale)
        text = f"private: Gaussian Mahalanobis sensitivity^2 = {exact_text(l2_squared)}, rho = {exact_text(rho)} (exact); delta(eps) exact"
    return LinearNoiseVerdict(
        **common,  # type: ignore[arg-type]
        kernel_dimension=draws - rank, private=True, first_offending_column=None, strategy=strategy,
        strategy_unique=unique, l1_sensitivity=l1, l2_sensitivity_squared=l2_squared, epsilon=epsilon,
        epsilon_exact=kind == "laplace" and (unique or epsilon_lower == epsilon), rho=rho, explanation=text,
        epsilon_lower=epsilon_lower,
    )


def _leak(input_index: int, dual: Sparse, differenced: bool, scale: int, workload_column: Sparse, outputs: int,
          inputs: int) -> LatticeLeak:
    """The leaking functional on the actual outputs from a dual vector of the scaled (and differenced) system."""
    if differenced:  # f·(P y) = (Pᵀ f)·y with (Pᵀ f)_i = f_i − f_(i+1)
        dual = {i: Fraction(dual.get(i, 0)) - dual.get(i + 1, 0) for i in range(outputs)}
    modulus = math.lcm(*(Fraction(value).denominator for value in dual.values()))
    functional = [int(Fraction(dual.get(i, 0)) * modulus) * scale for i in range(outputs)]
    common = math.gcd(modulus, *functional)
    functional = [value // common for value in functional]
    modulus //= common
    column = dict(workload_column)
    if differenced:  # back to W e_j: prefix sums of the differenced column
        running: Fraction = Fraction(0)
        column = {}
        for i in range(outputs):
            running += workload_column.get(i, 0)
            if running:
                column[i] = running
    shift = sum((functional[i] * value for i, value in column.items()), Fraction(0)) % modulus
    if shift == 0:  # cannot happen: the dual is not integral on the shift
        raise ArithmeticError("the dual functional does not separate the neighbours")
    return LatticeLeak(tuple(int(i == input_index) for i in range(inputs)), tuple(functional), modulus, shift)


def _integer_noise(noise: ColumnMatrix, workload: ColumnMatrix, columns: list[Sparse], targets: list[Sparse],
                   differenced: bool, common: dict[str, object], kernel_dimension: int, strategy: Matrix | None,
                   l1: Fraction, l2_squared: Fraction, integral: sparse.Reduction | None = None,
                   limits: SizeLimits = DEFAULT_LIMITS) -> object:
    """Integer noise: the lattice test by integral elimination, then the exact or bounded loss (module docstring).
    ``integral``: the rational elimination when it was integral and unimodular already
    (:func:`reference.audit.linear.elimination.unit_pivots_on_integers`), which the integral one would repeat step by step."""
    from reference.audit.linear.dense import dense_linear_noise_audit
    from reference.audit.linear.verdict import (
        LinearNoiseVerdict,
        check_noise,
        discrete_laplace_bound_verdict,
    )

    kind, scale, users = common["noise"], common["scale"], common["contributions"]
    assert isinstance(scale, Fraction) and isinstance(users, int)
    outputs, inputs = noise.rows, workload.cols
    denominator = math.lcm(*(Fraction(v).denominator for column in columns for v in column.values()))
    scaled = [{i: sparse.narrow(v * denominator) for i, v in column.items()} for column in columns]
    scaled_targets = [{i: sparse.narrow(v * denominator) for i, v in target.items()} for target in targets]
    reduction = integral if integral is not None else sparse.eliminate(scaled, scaled_targets, outputs, integral=True,
                                                                       track=True)
    fields = {**common, "kernel_dimension": kernel_dimension, "first_offending_column": None,
              "strategy": strategy, "strategy_unique": False, "l1_sensitivity": l1,
              "l2_sensitivity_squared": l2_squared}
    if reduction.failure is not None:
        index, residual_dual = reduction.failure
        dual = sparse.extend_dual(residual_dual, reduction.pivots)
        leak = _leak(index, dual, differenced, denominator, targets[index], outputs, inputs)
        return LinearNoiseVerdict(
            **fields,  # type: ignore[arg-type]
            private=False, epsilon=None, epsilon_exact=False, rho=None,
            explanation="not private: the noise is integer-valued and " + leak.summary(), lattice_leak=leak,
        )
    if reduction.columns or any(reduction.targets) or reduction.solutions is None:
        # a residual lattice is left: its Hermite normal form is dense, so the dense audit decides small cases
        if max(outputs, noise.cols, inputs) <= limits.dense_dimension:
            return dense_linear_noise_audit(noise.dense(), workload.dense(), check_noise(kind), scale, None,
                                            "add_remove", users, limits=limits)
        raise ValueError(
            f"noise_matrix: the integer lattice of this {outputs}x{noise.cols} matrix does not reduce by sparse "
            f"elimination, and the dense test is limited to {limits.dense_dimension} rows and columns; "
            f"{SizeLimits.hint('dense_dimension')}"
        )
    shifts = reduction.solutions
    if any(Fraction(value).denominator != 1 for u in shifts for value in u.values()):
        raise ArithmeticError("a tracked integer shift is not integral")
    if kernel_dimension == 0:
        if kind == "discrete-laplace":
            epsilon = Fraction(users * max(sum(abs(int(v)) for v in u.values()) for u in shifts)) / scale
            return LinearNoiseVerdict(
                **fields,  # type: ignore[arg-type]
                private=True, epsilon=epsilon, epsilon_exact=True, rho=None,
                explanation=f"private: every shift is B u with a unique integer u; discrete Laplace epsilon = "
                f"max ||u||_1/b = {exact_text(epsilon)} (exact)",
            )
        worst = users * users * max(sum(int(v) * int(v) for v in u.values()) for u in shifts)
        rho = Fraction(worst) / (2 * scale * scale)
        return LinearNoiseVerdict(
            **fields,  # type: ignore[arg-type]
            private=True, epsilon=None, epsilon_exact=False, rho=rho,
            explanation=f"private: every shift is B u with a unique integer u; discrete Gaussian rho = "
            f"max ||u||^2/(2 sigma^2) = {exact_text(rho)} (exact)",
        )
    integer_shifts = [{j: int(v) for j, v in u.items() if v} for u in shifts]
    if kind == "discrete-laplace":
        from reference.audit.linear.dense import integer_shift_search

        problem = problem_of_columns(columns, outputs, limits=limits)
        _, best = max_integer_shift_norm_of(problem, targets, integer_shifts)
        smallest, note = integer_shift_search(scaled, outputs, integer_shifts, limits=limits)
        return discrete_laplace_bound_verdict(fields, largest_shift_norm=best, smallest_integer_shift=smallest,
                                              users=users, scale=scale, note=note)
    l2_bound = max((sum(value * value for value in u.values()) for u in integer_shifts), default=0)
    rho_bound = users * users * Fraction(l2_bound) / (2 * scale * scale)
    return LinearNoiseVerdict(
        **fields,  # type: ignore[arg-type]
        private=True, epsilon=None, epsilon_exact=False, rho=rho_bound, rho_is_bound=True,
        explanation=f"private: every shift is B u with an integer u (B has a kernel, u not unique); "
        f"discrete Gaussian rho <= max ||u||^2/(2 sigma^2) = {exact_text(rho_bound)} (upper bound)",
    )
