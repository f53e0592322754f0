"""The one result type of a seeded statistical check: both ways of deciding, the rule enforced, the JSON form."""

from __future__ import annotations

import pytest

from reference.core.statistical_check import StatisticalCheck
from reference.core.verdict import VerdictResult


def test_a_p_value_check_holds_iff_the_p_value_exceeds_the_false_alarm() -> None:
    passing = StatisticalCheck.by_p_value(name="fit", statistic=3.5, p_value=0.2, false_alarm=1e-9, samples=100,
                                          detail="chi-square", subtests=4)
    failing = StatisticalCheck.by_p_value(name="fit", statistic=99.0, p_value=1e-12, false_alarm=1e-9, samples=100,
                                          detail="chi-square")
    assert (passing.verdict, failing.verdict) == ("holds", "fails")
    assert isinstance(passing, VerdictResult)
    assert passing.summary() == "PASS fit: n = 100, statistic 3.5, p = 0.2 (false alarm 1e-09); chi-square"
    record = passing.as_json()
    assert record["subtests"] == 4 and "threshold" not in record and record["verdict"] == "holds"
    assert "subtests" not in failing.as_json()


def test_a_threshold_check_holds_iff_the_statistic_is_within_the_threshold() -> None:
    at = StatisticalCheck.by_threshold(name="KS", statistic=1.0, threshold=1.0, false_alarm=1e-9, samples=8000,
                                       detail="worst at t = 3")
    over = StatisticalCheck.by_threshold(name="KS", statistic=1.5, threshold=1.0, false_alarm=1e-9, samples=8000,
                                         detail="worst at t = 3")
    assert (at.holds, over.holds) == (True, False)
    assert over.summary() == ("KS: FAILED, statistic 1.5 (threshold 1), 8000 samples, false-alarm probability "
                              "<= 1.0e-09; worst at t = 3")
    assert "p_value" not in at.as_json() and at.as_json()["threshold"] == 1.0


def test_a_verdict_that_contradicts_its_rule_is_refused() -> None:
    with pytest.raises(ValueError, match="disagrees"):
        StatisticalCheck("fit", 1.0, 1e-12, 1e-9, True, 10, "typed by hand")
    with pytest.raises(ValueError, match="exactly one"):
        StatisticalCheck("fit", 1.0, 0.5, 1e-9, True, 10, "both", threshold=2.0)
    with pytest.raises(ValueError, match="exactly one"):
        StatisticalCheck("fit", 1.0, None, 1e-9, True, 10, "neither")
