"""TDA Section 1's contingency-table baseline: the error rate e^((d−k)/2) fails once an attribute has 3 values."""

from __future__ import annotations

from reference_verification.core.claims import Budget, Status
from reference_verification.tda.checks.baseline import cells_summed, check_contingency_table_error


def test_cells_summed_by_hand() -> None:
    # a 1-way marginal (attribute 0 = 1) of a 3 x 3 x 3 table adds the 3·3 = 9 cells with that first entry
    assert cells_summed((3, 3, 3), (0,), (1,)) == 9
    assert cells_summed((2, 3, 4), (), ()) == 24  # the 0-way marginal (the total) adds every cell
    assert cells_summed((2, 3, 4), (0, 1, 2), (1, 2, 3)) == 1


def test_the_printed_rate_is_refuted_with_its_counterexample() -> None:
    # independent reasoning: with |X_i| = 3 the variance factor 3^(d−k) over e^(d−k) is (3/e)^(d−k) -> infinity
    outcome = check_contingency_table_error(Budget(quick=True))
    assert outcome.status is Status.REFUTED
    assert "|X_i| = 3" in str(outcome.counterexample) and outcome.corrected
