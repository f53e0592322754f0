"""TDA Appendix A (utility of InfTDA): the printed proof's error step."""

from __future__ import annotations

from ...core.claims import Budget, Claim, CoqTheorem, Method, Outcome, Status

PAPER = "TDA"


def check_error_step(budget: Budget) -> Outcome:
    from ..checks import intopt as intopt_checks

    result = intopt_checks.check_error_lemma(max_dim=budget.pick(2, 3))
    return Outcome(Status.VERIFIED if result.holds else Status.REFUTED, result.summary())


def claims() -> list[Claim]:
    """All entries of Appendix A."""
    return [
        Claim(
            PAPER,
            "Appendix A (error step)",
            "for true counts x >= 0 and noisy y: ‖x − IntOpt(y, c)‖∞ <= 2‖y − x‖∞ + |c − Σx|",
            Method.EXHAUSTIVE,
            check_error_step,
            "Verified exhaustively on small universes (a finite check, not a proof for all inputs).",
            implements=("reference.tda.intopt.intopt", "reference.tda.intopt.chebyshev_distance"),
            coq=(
                CoqTheorem(
                    "TdaErrorStep.v",
                    "appendix_a_error_step",
                    "for every noisy input y with d >= 1 entries, every total c >= 0 (for c < 0 IntOpt never stops: "
                    "intopt_diverges), every order of line 4 and every vector x of d non-negative integers: when the "
                    "printed loop stops, ‖x − IntOpt(y, c)‖∞ <= 2‖y − x‖∞ + |c − Σx| (adjust_close: a non-negative "
                    "vector with total c lies within |c − Σx| of x; then the triangle inequality and intopt_optimal)",
                    whole=True,
                ),
            ),
        ),
    ]
