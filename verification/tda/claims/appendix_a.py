"""TDA Appendix A (utility of InfTDA): the printed proof's error step."""

from __future__ import annotations

from ...core.claims import Budget, Outcome, Status

PAPER = "TDA"


def check_error_step(budget: Budget) -> Outcome:
    from ..checks import intopt as intopt_checks

    result = intopt_checks.check_error_lemma(max_dim=budget.pick(2, 3))
    return Outcome(Status.VERIFIED if result.holds else Status.REFUTED, result.summary())
