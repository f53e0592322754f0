"""TDA: steps of the printed proofs that fail as printed while the statement they serve survives (errata)."""

from __future__ import annotations

from fractions import Fraction

from ...core.claims import Budget, Claim, Method, Outcome, exhaustive

PAPER = "TDA"


def integer_offset(error: int, dimension: int) -> tuple[int, ...]:
    """The corrected offset for err(u_(k−1)) >= 0: ⌊err/d⌋ + 1 on the first err mod d coordinates, ⌊err/d⌋ on
    the others — integers, non-negative, summing to err, with ‖ξ‖∞ = ⌈err/d⌉ <= err."""
    base, extra = divmod(error, dimension)
    return tuple(base + (1 if j < extra else 0) for j in range(dimension))


def check_offset_step(budget: Budget) -> Outcome:
    """Appendix A: 'If err(u_(k−1)) >= 0 we can take ξ_j = err(u_(k−1))/|X_k| for any j ∈ [|X_k|] as a solution
    satisfying the summation constraint and the inequality constraint in Equation 3'. The problem 𝒫 is over
    non-negative integers (q̄_C(u_(k−1)) ∈ N_0^|X_k|), so q_C + ξ must be an integer vector."""
    top_error, top_dimension = budget.pick((12, 6), (30, 10))
    cases = [(error, dimension) for error in range(0, top_error + 1) for dimension in range(1, top_dimension + 1)]
    corrected_ok = all(
        sum(offset := integer_offset(error, dimension)) == error
        and min(offset) >= 0
        and max(offset) == -(-error // dimension) <= error
        for error, dimension in cases
    )
    outcome = exhaustive(
        cases,
        lambda case: Fraction(case[0], case[1]).denominator == 1,
        lambda case: f"err(u_(k−1)) = {case[0]}, |X_k| = {case[1]}: ξ_j = {Fraction(case[0], case[1])} is not an "
        "integer, so q_C(u_(k−1)) + ξ is not in N_0^|X_k|",
        f"err(u_(k−1)) = 0..{top_error} (outer), |X_k| = 1..{top_dimension} (inner)",
        corrected="take ξ_j = ⌊err/|X_k|⌋ + [j <= err mod |X_k|] (an integer vector, non-negative, summing to "
        "err(u_(k−1))): ‖ξ‖∞ = ⌈err/|X_k|⌉ <= |err(u_(k−1))|, so equation (6) and Theorem 1's utility bound stand",
    )
    note = (
        f" Corrected offset checked on the same cases (integers, >= 0, sum err, ‖ξ‖∞ = ⌈err/|X_k|⌉ <= err): "
        f"{corrected_ok}."
    )
    return Outcome(outcome.status, outcome.detail + note, outcome.counterexample, outcome.corrected)


def claims() -> list[Claim]:
    """The errata of TDA's proofs."""
    return [
        Claim(
            PAPER,
            "Appendix A (offset step)",
            "proof of Theorem 1's utility: for err(u_(k−1)) >= 0, ξ_j = err(u_(k−1))/|X_k| (every j) is a feasible "
            "offset of the integer problem 𝒫(q̃_C(u_(k−1)), q̄(u_(k−1))) (constraints (3) and (4))",
            Method.EXHAUSTIVE,
            check_offset_step,
            "Integer feasibility of the printed offset, and of the corrected one, over small errors and dimensions.",
            implements=("reference.tda.intopt.intopt",),
        ),
    ]
