"""The twin rule (docs/architecture.md): a paper's exact and numeric forms live in sibling modules named ``exact``
and ``numeric``; a public name both define has the same parameters, in the same order and of the same kind,
apart from exactness (the exact twin's random-bit ``source`` where the numeric one has a numpy ``rng``); and a
``noise`` option is a ``Literal`` of laws only, each of which the function accepts at run time."""

from __future__ import annotations

import importlib
import inspect
import typing
from collections.abc import Callable

import pytest

#: The twin pairs the rule covers, as (exact module, numeric module).
TWINS = [("reference.kary.exact", "reference.kary.numeric"), ("reference.tda.exact", "reference.tda.numeric"),
         ("reference.samplers.exact", "reference.samplers.numeric")]

#: What exactness renames: the source of randomness.
EXACTNESS = {"source": "rng"}


def public(module_name: str) -> dict[str, Callable[..., object]]:
    module = importlib.import_module(module_name)
    return {name: getattr(module, name) for name in module.__all__}


def parameters(function: Callable[..., object]) -> list[tuple[str, inspect._ParameterKind]]:
    target = function.__init__ if inspect.isclass(function) else function
    found = [(EXACTNESS.get(p.name, p.name), p.kind) for p in inspect.signature(target).parameters.values()]
    return [item for item in found if item[0] != "self"]


@pytest.mark.parametrize(("exact", "numeric"), TWINS)
def test_twins_share_their_names_and_parameters(exact: str, numeric: str) -> None:
    exact_names, numeric_names = public(exact), public(numeric)
    shared = set(exact_names) & set(numeric_names)
    assert shared, "twins with no name in common"
    for name in sorted(shared):
        assert parameters(exact_names[name]) == parameters(numeric_names[name]), name


def laws(function: Callable[..., object]) -> tuple[typing.Any, ...]:
    """The values of the ``noise`` parameter's annotation, which must be a ``Literal`` alias."""
    target = function.__init__ if inspect.isclass(function) else function
    annotation = inspect.signature(target).parameters["noise"].annotation
    hint = eval(annotation, vars(importlib.import_module(target.__module__)))  # a postponed annotation: its name
    assert typing.get_origin(hint) is typing.Literal, f"{function.__qualname__}: noise is not a Literal"
    return typing.get_args(hint)


def test_the_twins_take_kary_noise_as_a_law_that_works() -> None:
    """Every law the ``noise`` Literal admits runs (no option value refused at run time); "exact" is no law."""
    from reference.core.randomness import SeededRandomBits
    from reference.kary import exact, numeric

    stream = [1, 0, 1, 1, 0, 1, 0]
    for function in (numeric.algorithm_1, numeric.algorithm_2_batch, numeric.algorithm_3):
        assert "exact" not in laws(function)
        for law in laws(function):
            assert len(function(stream, 3, 1, rng=1, noise=law)) == len(stream), (function, law)
    assert "exact" not in laws(numeric.OnlineCounter)
    for law in laws(numeric.OnlineCounter):
        assert len(numeric.OnlineCounter(3, 1, len(stream), rng=1, noise=law).run(stream)) == len(stream)
    for law in laws(exact.OnlineCounter):
        counter = exact.OnlineCounter(3, 1, len(stream), source=SeededRandomBits(1), noise=law)
        assert all(isinstance(value, int) for value in counter.run(stream))


def test_the_faces_bind_the_twins_under_the_names_users_know() -> None:
    import reference.kary
    import reference.tda
    from reference.kary import counters, numeric
    from reference.tda import exact, mechanism
    from reference.tda import numeric as tda_numeric

    assert reference.tda.inftda_exact is exact.inftda is mechanism.inftda_exact
    assert reference.tda.inftda_numeric is tda_numeric.inftda is mechanism.inftda_numeric
    for name in ("OnlineCounter", "algorithm_1", "algorithm_2_batch", "algorithm_3"):
        assert getattr(reference.kary, name) is getattr(numeric, name) is getattr(counters, name)
