"""The fuzz harness on a small budget: no traceback, hang, memory failure or silent accept.

The long run is ``python -m tests.fuzz`` (see its docstring); this one keeps CI within a few minutes. The seed
is fixed, so a failure here reproduces with ``python -m tests.fuzz --seed 20261124 --cli 300 --api 200``.
"""

from __future__ import annotations

import pytest

from tests.fuzz.campaign import run_api_campaign, run_cli_campaign

SEED = 20261124


@pytest.mark.parametrize(
    ("surface", "campaign", "examples"), [("command line", run_cli_campaign, 300), ("API", run_api_campaign, 200)]
)
def test_no_failure_on_a_small_budget(surface: str, campaign: object, examples: int) -> None:
    assert callable(campaign)
    tally = campaign(examples, seed=SEED, seconds=20.0, memory_gib=4.0)
    assert tally.calls == examples
    assert tally.failures == 0, tally.summary(surface)


@pytest.mark.parametrize(("surface", "campaign"), [("misbehaving user code", "run_user_code_campaign"),
                                                   ("forged .npy headers", "run_forged_npy_campaign")])
def test_generated_classes_on_a_small_budget(surface: str, campaign: str) -> None:
    """The two generated classes (tests.fuzz.user_code_cases): no failure and no unnamed message in 60 draws."""
    from tests.fuzz import campaign as campaigns

    tally = getattr(campaigns, campaign)(60, seed=SEED, seconds=20.0, memory_gib=4.0)
    assert tally.calls == 60
    assert tally.failures == 0 and tally.counts["unnamed"] == 0, tally.summary(surface)
    assert tally.counts["refused"] > 0  # the draws reached the refusals they are about


def test_certified_values_against_the_oracle_on_a_small_budget(tmp_path: object) -> None:
    """Drawn certified calls (seeded) checked by the mpmath oracle: none unsafe, too wide, crashed or hung."""
    from tests.fuzz.campaign import ORACLE_FAILURES, oracle_summary, run_oracle_campaign

    tally = run_oracle_campaign(25, seed=SEED, seconds=120.0, memory_gib=4.0)
    assert tally.calls == 25
    assert not any(tally.counts[kind] for kind in ORACLE_FAILURES), oracle_summary(tally)


def test_the_harness_sees_each_failure_kind() -> None:
    """The classifier is not blind: planted calls produce each failure kind."""
    from tests.fuzz.campaign import _classify
    from tests.fuzz.isolation import GIB, Isolator

    isolator = Isolator(["tests.fuzz.planted"], seconds=6.0, memory_bytes=2 * GIB)
    from tests.fuzz import planted

    assert _classify(isolator.run(planted.raise_key_error, None), ()) == "traceback"
    assert _classify(isolator.run(planted.sleep_forever, None), ()) == "hang"
    assert _classify(isolator.run(planted.allocate_too_much, None), ()) == "memory"
    assert _classify(isolator.run(planted.accept, None), ("--depth '٣'",)) == "silent accept"
    assert _classify(isolator.run(planted.accept, None), ()) == "ok"
