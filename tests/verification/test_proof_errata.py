"""Steps of the papers' proofs that fail as printed: each is a registry entry, refuted with its smallest
counterexample and a corrected step; and the IntOPT step bound is checked against an O(d²) version."""

from __future__ import annotations

import pytest
from reference_verification.core.claims import Budget, Status, run_claim
from reference_verification.report import build_registry

from reference.tda.intopt import intopt_literal
from reference.tda.intopt_breakpoints import intopt_by_breakpoints, step_bound

REGISTRY = {claim.key: claim for claim in build_registry().claims}
ERRATA = {
    "CIP Theorem 3.15 (union-bound step)": "n = 2",
    "CIP Theorem C.1 (tail-sum step)": "t = σ",
    "KARY Proof 6.1 (product step)": "T = 64",
    "TDA Appendix A (offset step)": "err(u_(k−1)) = 1, |X_k| = 2",
}


@pytest.mark.parametrize("key", sorted(ERRATA))
def test_each_erratum_is_refuted_with_its_smallest_counterexample(key: str) -> None:
    outcome = run_claim(REGISTRY[key], Budget(quick=True)).outcome
    assert outcome.status is Status.REFUTED, outcome.detail
    assert outcome.counterexample is not None and ERRATA[key] in outcome.counterexample
    assert outcome.corrected


def test_the_intopt_step_claim_is_checked_against_a_quadratic_version() -> None:
    outcome = run_claim(REGISTRY["TDA Section 1 (IntOPT steps)"], Budget(quick=True)).outcome
    assert outcome.status is Status.VERIFIED, outcome.detail
    assert "(for the printed loop)" not in REGISTRY["TDA Section 1 (IntOPT steps)"].statement


@pytest.mark.parametrize(("values", "total"), [((5, -2, 3), 4), ((0, 0), 1), ((10**9, 3, -7, 2), 5), ((-4,), 0)])
def test_the_quadratic_intopt_returns_the_printed_loops_output_within_its_bound(values: tuple[int, ...], total: int) -> None:
    found = intopt_by_breakpoints(values=values, total=total)
    if max(values) < 10**6:
        assert found.output == intopt_literal(values, total)
    assert sum(found.output) == total and min(found.output) >= 0
    assert found.steps <= step_bound(len(values))


def test_corollary_c2_names_both_failing_bullets_under_the_range_reading() -> None:
    outcome = run_claim(REGISTRY["CIP Corollary C.2"], Budget(quick=True)).outcome
    assert outcome.status is Status.REFUTED
    assert "the first bullet fails" in outcome.detail and "the second fails too" in outcome.detail
