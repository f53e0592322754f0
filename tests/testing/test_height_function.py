"""assert_height_function: the float-logarithm heights of public code are caught at the first wrong horizon; the
exact heights pass; the command line says the same."""

from __future__ import annotations

import json
import math

import pytest

from reference.audit.height_function import step_horizons
from reference.cli.main import main
from reference.kary.digits import height_for_horizon
from reference.testing import assert_height_function


def float_offset_height(horizon: int) -> int:
    return math.ceil(math.log(2 * horizon + 1, 5))  # log(125, 5) = 3.0000000000000004


def test_float_log_height_is_caught_at_the_first_power() -> None:
    # horizon 62: 2·62 + 1 = 125 = 5³, the exact height is 3 (capacity (5³ − 1)/2 = 62)
    with pytest.raises(AssertionError, match=r"first at horizon 62: returned 4, the exact height is 3"):
        assert_height_function(float_offset_height, arity=5, offset=True)


def test_exact_heights_hold_and_raising_functions_are_named() -> None:
    for arity in (2, 3, 4, 5, 7, 10):
        for offset in (False, True):
            checked = assert_height_function(lambda t, a=arity, o=offset: height_for_horizon(a, t, offset=o),
                                             arity=arity, offset=offset)
            assert checked.verdict == "holds" and checked.horizons_checked > 2000
    # a function that raises cannot give a verdict: one line naming it and the first horizon where it raised
    with pytest.raises(ValueError, match=r"height function .*<lambda> raised OverflowError.* at horizon \d+"):
        assert_height_function(lambda t: t.bit_length() if t < 10**15 else int(2.0**t),
                               arity=2, offset=False)


def test_step_horizons_cover_every_power() -> None:
    points = set(step_horizons(3, offset=False))
    for exponent in range(1, 40):
        assert {3**exponent - 1, 3**exponent, 3**exponent + 1} <= points


def test_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "height", "--function", "tests.testing.test_height_function:float_offset_height",
                 "--arity", "5", "--offset", "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["verdict"] == "fails" and out["first_horizon"] == 62 and out["expected"] == 3
