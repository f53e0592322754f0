"""Every public function (``reference.__all__``) with one parameter at a time given a bad value of each kind —
NaN, inf, complex, a string, empty, a wrong shape — is refused in one line naming that parameter; a normal
return is a silent accept, anything but ValueError/TypeError a traceback (``tests.fuzz.campaign.run_message_sweep``;
``python -m tests.fuzz --cli 0 --api 0 --sweep`` prints the counts)."""

from __future__ import annotations

import inspect

import reference
from tests.fuzz.api_cases import SCALAR_BAD, STRUCTURED_BAD, names_the_parameter, sweep_calls

KINDS = {"nan", "inf", "complex", "string", "empty", "wrong shape"}


def test_every_kind_is_in_every_pool() -> None:
    assert set(SCALAR_BAD) == KINDS
    for name, pool in STRUCTURED_BAD.items():
        assert set(pool) == KINDS, name


def test_the_sweep_reaches_most_public_functions() -> None:
    """Functions left out are those with a required parameter of no known kind (a tree, a callable, a path)."""
    swept = {call.function for call, _ in sweep_calls()}
    functions = {name for name in reference.__all__ if inspect.isfunction(getattr(reference, name))}
    assert len(swept) >= 50 and swept <= functions


def test_the_naming_check_is_strict() -> None:
    assert names_the_parameter("sensitivity_squared", "sensitivity squared must be > 0, got 0")
    assert names_the_parameter("depth", "depth must be an integer in [0, 40], got 'abc'")
    assert not names_the_parameter("depth", "The truth value of an array with more than one element is ambiguous")
    assert not names_the_parameter("depth", "depth must be an integer\nTraceback ...")


def test_every_bad_value_of_every_kind_is_refused_naming_its_parameter() -> None:
    from tests.fuzz.campaign import run_message_sweep

    tally = run_message_sweep(seconds=20.0, memory_gib=4.0)
    assert tally.calls > 900
    assert tally.failures == 0 and tally.counts["unnamed"] == 0, tally.summary("message sweep")
    assert tally.counts["baseline refused"] == 0, tally.summary("message sweep")  # every parameter checked strictly
