"""The linear audit's verdict for the common square case, in one exact integer solve.

A continual counter usually has as many draws as outputs and an invertible noise map B (one noise value per
tree node, per output's last node, ...). Then the implied strategy A = B⁻¹W is unique, and for Gaussian or
Laplace noise with ``add_remove`` neighbours and one contribution the whole verdict of
:func:`reference.audit.linear.audit.audit_linear_noise` follows from A's columns: Δ² = max_j ‖A e_j‖²,
Δ1 = max_j ‖A e_j‖₁, ρ = Δ²/(2σ²), ε = Δ1/b (exact: the kernel of B is trivial). :func:`square_noise_verdict`
computes A with one fraction-free solve over the integers (python-flint's ``fmpz_mat.solve``, B and W scaled
to integers) instead of the general path's rational eliminations, and returns the same verdict; it returns
``None`` whenever the case is not this one (B not square, singular, or other options), so the caller falls back.
"""

from __future__ import annotations

import math
from fractions import Fraction

from flint import fmpq_mat, fmpz_mat

from reference.audit.linear.audit import MAX_DIMENSION, LinearNoiseVerdict
from reference.core.linalg import Matrix
from reference.core.options import LinearNoise
from reference.core.validate import fraction_text


def _integer_entries(matrix: Matrix) -> tuple[list[int], int]:
    """Row-major integer entries over one common denominator."""
    denominator = math.lcm(*{entry.denominator for row in matrix for entry in row})
    if denominator == 1:
        return [entry.numerator for row in matrix for entry in row], 1
    return [int(entry * denominator) for row in matrix for entry in row], denominator


def square_noise_verdict(
    noise_matrix: Matrix, workload: Matrix, noise: LinearNoise, scale: Fraction
) -> LinearNoiseVerdict | None:
    """The verdict of ``audit_linear_noise(noise_matrix, workload, noise, scale)`` when B is square and
    invertible and the noise is ``gaussian`` or ``laplace`` (``None`` otherwise).

    Args:
        noise_matrix: B, outputs × draws, exact and validated.
        workload: W, outputs × inputs, exact and validated.
        noise: the noise kind; only ``"gaussian"`` and ``"laplace"`` are handled here.
        scale: σ (Gaussian) or b (Laplace), a positive Fraction.
    """
    outputs = len(noise_matrix)
    if noise not in ("gaussian", "laplace") or not outputs or len(noise_matrix[0]) != outputs:
        return None
    if len(workload) != outputs or not workload[0] or max(outputs, len(workload[0])) > MAX_DIMENSION:
        return None
    inputs = len(workload[0])
    b_entries, b_denominator = _integer_entries(noise_matrix)
    w_entries, w_denominator = _integer_entries(workload)
    try:
        # B' = b_d B, W' = w_d W: A = B⁻¹W = (b_d / w_d) B'⁻¹ W'
        solved = fmpz_mat(outputs, outputs, b_entries).solve(fmpz_mat(outputs, inputs, w_entries))
    except ZeroDivisionError:  # singular: the general path names the offending column
        return None
    if isinstance(solved, fmpq_mat):
        numerators, common = solved.numer_denom()
        rows = [[int(entry) for entry in row] for row in numerators.tolist()]
        solution_denominator = int(common)
    else:  # an integral solution may come back as an integer matrix
        rows = [[int(entry) for entry in row] for row in solved.tolist()]
        solution_denominator = 1
    factor = Fraction(b_denominator, w_denominator * solution_denominator)
    squares = [0] * inputs
    absolutes = [0] * inputs
    for row in rows:
        for j, entry in enumerate(row):
            if entry:
                squares[j] += entry * entry
                absolutes[j] += abs(entry)
    l2_squared = max(squares) * factor * factor
    l1 = max(absolutes) * factor
    cache: dict[int, Fraction] = {0: Fraction(0)}

    def exact(entry: int) -> Fraction:
        found = cache.get(entry)
        if found is None:
            found = cache[entry] = entry * factor
        return found

    strategy = tuple(tuple(exact(entry) for entry in row) for row in rows)
    common_fields = {"noise": noise, "scale": scale, "neighbours": "add_remove", "contributions": 1,
                     "outputs": outputs, "inputs": inputs, "draws": outputs, "rank": outputs,
                     "kernel_dimension": 0, "private": True, "first_offending_column": None,
                     "strategy": strategy, "strategy_unique": True, "l1_sensitivity": l1,
                     "l2_sensitivity_squared": l2_squared}
    if noise == "laplace":
        epsilon = l1 / scale
        return LinearNoiseVerdict(
            **common_fields,  # type: ignore[arg-type]
            epsilon=epsilon, epsilon_exact=True, rho=None,
            explanation=f"private: Laplace epsilon = l1/b = {fraction_text(epsilon)} is exact (B has a trivial kernel)",
        )
    rho = l2_squared / (2 * scale * scale)
    return LinearNoiseVerdict(
        **common_fields,  # type: ignore[arg-type]
        epsilon=None, epsilon_exact=False, rho=rho,
        explanation=f"private: Gaussian Mahalanobis sensitivity^2 = {fraction_text(l2_squared)}, rho = {fraction_text(rho)} (exact); "
        "delta(eps) exact",
    )
