"""The report's progress lines carry the elapsed time and, once enough tasks are done, an estimate of the rest."""

from __future__ import annotations

from reference_verification.progress import clock, elapsed_and_estimate


def test_the_clock() -> None:
    assert [clock(s) for s in (0, 59.6, 61, 3599, 3600, 7322)] == ["0:00", "1:00", "1:01", "59:59", "1:00:00",
                                                                   "2:02:02"]


def test_the_estimate_scales_the_time_per_finished_task() -> None:
    # 30 of 120 tasks in 60 s: 2 s each, so 90 more take about 180 s
    assert elapsed_and_estimate(60, 30, 120) == "elapsed 1:00, about 3:00 left"


def test_no_estimate_before_a_tenth_of_the_tasks_nor_after_the_last() -> None:
    assert elapsed_and_estimate(5, 1, 120) == "elapsed 0:05"
    assert elapsed_and_estimate(5, 11, 120) == "elapsed 0:05"
    assert elapsed_and_estimate(600, 120, 120) == "elapsed 10:00"
