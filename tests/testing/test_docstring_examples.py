"""The examples on the pages users land on first (the testing helpers, the calibration audits, the calibrations)
run as written, with the flags the documentation build's doctests use (ELLIPSIS, IGNORE_EXCEPTION_DETAIL); and
every parameter of the testing helpers is described."""

from __future__ import annotations

import doctest
import inspect

import pytest

import reference.testing as testing

FLAGS = doctest.ELLIPSIS | doctest.IGNORE_EXCEPTION_DETAIL
HELPERS = [getattr(testing, name) for name in testing.__all__ if name.startswith("assert_")]


@pytest.mark.parametrize("function", HELPERS, ids=lambda function: function.__name__)
def test_the_example_runs(function: object) -> None:
    tests = doctest.DocTestFinder().find(function, globs={})
    assert tests and tests[0].examples, f"{function} has no example"  # type: ignore[attr-defined]
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    for test in tests:
        runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


@pytest.mark.parametrize("function", HELPERS, ids=lambda function: function.__name__)
def test_every_parameter_is_described(function: object) -> None:
    doc = inspect.getdoc(function) or ""
    assert "Args:" in doc
    described = doc.split("Args:", 1)[1]
    for name in inspect.signature(function).parameters:  # type: ignore[arg-type]
        assert f"\n    {name}: " in described, f"{function.__name__}: {name} is not described"  # type: ignore[attr-defined]
    assert ": object" not in str(inspect.signature(function))  # type: ignore[arg-type]


def _landing_functions() -> list[object]:
    from reference.audit.calibration import audit_gaussian, audit_laplace
    from reference.cip.calibration import calibrate_cascade, calibrate_gaussian
    from reference.privacy.gaussian import sigma_exact

    return [audit_gaussian, audit_laplace, calibrate_cascade, calibrate_gaussian, sigma_exact]


@pytest.mark.parametrize("function", _landing_functions(), ids=lambda function: function.__name__)
def test_an_audit_or_calibration_example_runs_and_every_parameter_is_described(function: object) -> None:
    test_the_example_runs(function)
    test_every_parameter_is_described(function)
