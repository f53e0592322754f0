"""Keyword-only parameters that used to be positional: the deprecation path.

A public function whose parameters became keyword-only (so that twins read alike: the samplers' ``size`` and
``source``/``rng``) still accepts the old positional call for a while: :func:`formerly_positional` maps the extra
positional values onto the parameters they used to fill and warns (``DeprecationWarning``, naming the new form),
so old callers keep working and learn the new spelling. ``inspect.signature`` shows the new signature.
"""

from __future__ import annotations

import functools
import inspect
import warnings
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

Params = ParamSpec("Params")
Result = TypeVar("Result")


def formerly_positional(*old_order: str) -> Callable[[Callable[Params, Result]], Callable[Params, Result]]:
    """A decorator: positional values past the function's positional parameters fill ``old_order`` (the
    keyword-only parameters in the order they used to be positional), with a ``DeprecationWarning`` that names
    the keyword form; more positional values than that, or a value given both ways, is the usual ``TypeError``.

    Args:
        old_order: the names of the now keyword-only parameters, in their former positional order.
    """

    def decorate(function: Callable[Params, Result]) -> Callable[Params, Result]:
        parameters = inspect.signature(function).parameters.values()
        kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        leading = [parameter.name for parameter in parameters if parameter.kind in kinds]
        name = function.__name__

        @functools.wraps(function)
        def call(*args: Any, **named: Any) -> Result:
            extra = args[len(leading):]
            if extra:
                if len(extra) > len(old_order):
                    raise TypeError(f"{name}() takes {len(leading)} positional argument"
                                    f"{'' if len(leading) == 1 else 's'}; pass "
                                    f"{', '.join(old_order)} by keyword")
                moved = old_order[:len(extra)]
                for keyword in moved:
                    if keyword in named:
                        raise TypeError(f"{name}() got multiple values for argument {keyword!r}")
                new_form = f"{name}({', '.join([*leading, *(f'{keyword}=...' for keyword in moved)])})"
                warnings.warn(f"{name}: passing {', '.join(moved)} by position is deprecated; use {new_form}",
                              DeprecationWarning, stacklevel=2)
                named.update(zip(moved, extra))
                args = args[:len(leading)]
            return function(*args, **named)

        return call

    return decorate


__all__ = ["formerly_positional"]
