"""assert_height_function: the float-logarithm heights of public code are caught at the first wrong horizon; the
exact heights pass; the command line says the same."""

from __future__ import annotations

import json
import math
from functools import partial

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
            checked = assert_height_function(partial(height_for_horizon, arity, offset=offset),
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


def float_leaves_height(leaves: int) -> int:
    """Real code's layer count from the number of leaves: ceil(log_k n) in floats."""
    return math.ceil(math.log(leaves, 5))


def test_leaf_count_function_and_its_labels() -> None:
    # 125 leaves: exactly 5³, so 3 levels; log(125, 5) = 3.0000000000000004 rounds up to 4: an over-count
    with pytest.raises(AssertionError, match=r"over-count \(conservative\) at leaf count 125: returned 4, the exact "
                                             r"height is 3"):
        assert_height_function(float_leaves_height, arity=5, argument="leaves", horizons=(1, 1000))
    # the integer version holds on the whole range, tried exhaustively
    exact = assert_height_function(lambda n: 0 if n == 1 else (n - 1).bit_length(), arity=2, argument="leaves",
                                   horizons=(1, 5000))
    assert exact.horizons_checked == 5000
    # one level short at every power of 2 plus one: an under-count, unsafe
    with pytest.raises(AssertionError, match=r"under-count \(unsafe\) at leaf count 3: returned 1, the exact "
                                             r"height is 2"):
        assert_height_function(lambda n: n.bit_length() - 1, arity=2, argument="leaves", horizons=(2, 5000))
    with pytest.raises(ValueError, match="offset digits are a horizon notion"):
        assert_height_function(float_leaves_height, arity=5, offset=True, argument="leaves")


def test_user_range_of_horizons() -> None:
    # real code that allocates cannot be called at 2^63: the range keeps every call below 10^6
    calls: list[int] = []

    def allocating(horizon: int) -> int:
        calls.append(horizon)
        return height_for_horizon(3, horizon, offset=False)

    assert_height_function(allocating, arity=3, horizons=(1, 10**6))
    assert max(calls) == 10**6 and min(calls) == 1


def test_cli_leaves_and_range(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "height", "--function", "tests.testing.test_height_function:float_leaves_height",
                 "--arity", "5", "--argument", "leaves", "--horizons", "1:1000", "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["mismatches"][0] == {"argument": 125, "returned": "4", "expected": 3, "kind": "over-count"}
    assert main(["audit", "height", "--function", "tests.testing.test_height_function:float_leaves_height",
                 "--arity", "5", "--horizons", "9:1"]) == 2
