"""Every parameter of every function (public method, hand-written class constructor) on the top-level face of
``reference`` has an ``Args:`` entry in its docstring, which the API pages render as its description, and none is typed
``object`` or left untyped: a reader learns from the page what each parameter accepts.

A constructor's parameters may be described in the class docstring (as the API page shows them there). Every
public function and method of every public module (what the recursive API reference renders) is held to the same
rule, with no module exempt (a boundary that takes anything the caller was given says so, and only then may it be typed
``object``).
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
import re
from collections.abc import Callable, Iterator

import pytest

import reference


def library_modules() -> list[str]:
    """Every public module of the library (no part of its name starts with an underscore)."""
    names = [info.name for info in pkgutil.walk_packages(reference.__path__, "reference.")]
    return sorted(name for name in names if not any(part.startswith("_") for part in name.split(".")))


def _documented(function: Callable[..., object], owner: type | None) -> str:
    texts = [inspect.getdoc(function) or ""]
    if owner is not None:
        texts.insert(0, inspect.getdoc(owner) or "")
    return "\n".join(texts)


def face_functions() -> Iterator[tuple[str, Callable[..., object], type | None]]:
    """(public name, function, owning class or None) for every function of the face, every public method of its
    classes and every hand-written constructor (its parameters may be described in the class docstring)."""
    for name in reference.__all__:
        value = getattr(reference, name)
        if inspect.isfunction(value):
            yield name, value, None
        elif inspect.isclass(value):
            constructor = vars(value).get("__init__")
            if inspect.isfunction(constructor) and not dataclasses.is_dataclass(value):
                yield f"{name}.__init__", constructor, value
            # the methods a user calls on the class, its own and those it inherits from the library's bases
            members: dict[str, object] = {}
            for base in reversed(value.__mro__):
                if base.__module__.startswith("reference."):
                    members.update(vars(base))
            for member_name, member in members.items():
                if isinstance(member, (classmethod, staticmethod)):
                    member = member.__func__
                if not member_name.startswith("_") and inspect.isfunction(member):
                    yield f"{name}.{member_name}", member, None


def described(docstring: str, parameter: str) -> bool:
    """Whether ``docstring`` has an ``Args:`` section with an entry ``parameter: description``."""
    if "Args:" not in docstring:
        return False
    section = docstring.split("Args:", 1)[1]
    return re.search(rf"^\s+{re.escape(parameter)}( \([^)]*\))?: \S", section, re.MULTILINE) is not None


def takes_anything(docstring: str, parameter: str) -> bool:
    """Whether the ``Args:`` entry of ``parameter`` starts with "anything": a boundary that takes whatever the
    caller was given and refuses, in one line, what it does not accept (its entry says what that is)."""
    if "Args:" not in docstring:
        return False
    section = docstring.split("Args:", 1)[1]
    return re.search(rf"^\s+{re.escape(parameter)}( \([^)]*\))?: anything\b", section, re.MULTILINE) is not None


def gaps(function: Callable[..., object], owner: type | None) -> list[str]:
    docstring = _documented(function, owner)
    found = []
    # a validator (check_*, or a parameter whose entry starts "anything") takes whatever the caller was given and
    # says what it accepts: object is its true type
    validator = function.__name__.startswith("check_")
    for parameter in inspect.signature(function).parameters.values():
        if parameter.name in ("self", "cls") or parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        annotation = parameter.annotation
        validated = validator or takes_anything(docstring, parameter.name)
        if annotation is inspect.Parameter.empty or (annotation in ("object", object) and not validated):
            typed = "nothing" if annotation is inspect.Parameter.empty else "object"
            found.append(f"{parameter.name} is typed {typed}")
        if not described(docstring, parameter.name):
            found.append(f"{parameter.name} has no Args: entry")
    return found


def module_functions() -> Iterator[tuple[str, Callable[..., object], type | None]]:
    """(qualified name, function, owning class or None) for every public function and method defined in a public
    module of the library (what the recursive API reference renders)."""
    for module_name in library_modules():
        module = importlib.import_module(module_name)
        for name, value in vars(module).items():
            if name.startswith("_") or getattr(value, "__module__", None) != module_name:
                continue
            if inspect.isfunction(value):
                yield f"{module_name}.{name}", value, None
            elif inspect.isclass(value):
                constructor = vars(value).get("__init__")
                if inspect.isfunction(constructor) and not dataclasses.is_dataclass(value):
                    yield f"{module_name}.{name}.__init__", constructor, value
                for member_name, member in vars(value).items():
                    if isinstance(member, (classmethod, staticmethod)):
                        member = member.__func__
                    if not member_name.startswith("_") and inspect.isfunction(member):
                        yield f"{module_name}.{name}.{member_name}", member, None


FACE = list(face_functions())
MODULES = list(module_functions())


def test_the_face_is_walked() -> None:
    names = {name for name, _, _ in FACE}
    assert {"sigma_exact", "calibrate_cascade", "algorithm_1", "OnlineCounter.__init__", "OnlineCounter.step",
            "CertifiedReal.decimal", "inftda_exact"} <= names
    assert len(FACE) > 50


@pytest.mark.parametrize(("name", "function", "owner"), FACE, ids=[name for name, _, _ in FACE])
def test_every_parameter_is_typed_and_described(name: str, function: Callable[..., object], owner: type | None) -> None:
    assert not gaps(function, owner), f"{name}: {'; '.join(gaps(function, owner))}"


@pytest.mark.parametrize(("name", "function", "owner"), MODULES, ids=[name for name, _, _ in MODULES])
def test_every_parameter_of_every_module_is_typed_and_described(
    name: str, function: Callable[..., object], owner: type | None
) -> None:
    assert not gaps(function, owner), f"{name}: {'; '.join(gaps(function, owner))}"


def test_the_check_sees_a_missing_entry_and_an_object_type() -> None:
    def documented(*, epsilon: int, tree: object) -> None:
        """A function.

        Args:
            epsilon: ε > 0.
        """

    assert gaps(documented, None) == ["tree is typed object", "tree has no Args: entry"]

    def check_tree(tree: object) -> None:
        """A validator.

        Args:
            tree: anything: accepted when it is a tree.
        """

    assert gaps(check_tree, None) == []  # a validator's parameter is whatever the caller passed

    def read_tree(tree: object, label: object) -> None:
        """A boundary.

        Args:
            tree: anything the caller was given: accepted when it is a tree.
            label: the tree's label.
        """

    assert gaps(read_tree, None) == ["label is typed object"]
    assert not described("Args:\n    epsilons: many.", "epsilon")
    assert described("Text.\n\nArgs:\n    epsilon (int): ε > 0.", "epsilon")
