"""The string options of the public API, one ``Literal`` alias per idea, and the one check that reads them.

A ``Literal`` type lets a user's type checker (``mypy --strict``) flag ``noise="laplce"`` in the user's own code;
:func:`check_option` refuses the same value at run time with one line naming the parameter and the accepted
values, for callers that do not type-check. Every public function that takes one of these options states its
alias in its signature and checks it once, at the boundary.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, TypeVar, get_args

#: The neighbouring relation of a calibration: one count changes by one (``add_remove``) or one record moves
#: from one cell to another (``substitution``).
Neighbours = Literal["add_remove", "substitution"]
#: How CIP handles a length that is not a power of two: pad to the next power of two, or Algorithm 3's
#: balanced binary tree over the cells.
Layout = Literal["pad", "balanced"]
#: The law of the numeric KARY counters' noise: continuous Laplace or numpy's discrete Laplace (a law only: the
#: exact counter is a twin of its own, whose law is :data:`ExactCounterNoise`).
CounterNoise = Literal["laplace", "discrete-laplace"]
#: The law of the exact KARY counter's noise: the exact discrete Laplace.
ExactCounterNoise = Literal["discrete-laplace"]
#: The i.i.d. noise of a linear mechanism under audit (``W x + B z``).
LinearNoise = Literal["gaussian", "laplace", "discrete-gaussian", "discrete-laplace"]
#: The CIP error workloads: all ranges or all tree nodes.
Workload = Literal["ranges", "nodal"]
#: The parity an arity must have for a KARY statement.
Parity = Literal["any", "odd", "even"]
#: The zCDP to (ε, δ) conversion: the tight one (CKS 2020, Corollary 13) or the simple ρ + 2 sqrt(ρ log(1/δ)).
ConversionMethod = Literal["tight", "simple"]
#: The KARY leading-constant families (Theorem 3.7, Corollary 4.9, Corollary C.3).
LeadingConstantFamilyKey = Literal["theorem_3_7", "corollary_4_9", "corollary_c3"]
#: The side a certified value printed as one decimal is rounded to.
Rounding = Literal["up", "down"]
#: The laws :func:`reference.testing.assert_samples_match` compares noise samples with.
SampledLaw = Literal["cascade", "kary", "design", "gaussian", "laplace", "discrete-gaussian", "discrete-laplace",
                     "tda-level"]

def choices(alias: object) -> tuple[str, ...]:
    """The accepted values of a ``Literal`` alias, in the order it lists them.

    Args:
        alias: anything that is a ``Literal`` alias of this module, such as :data:`Neighbours` (read with
            ``typing.get_args``; a typing special form, so it has no narrower static type than ``object``).
    """
    return tuple(str(value) for value in get_args(alias))


def check_option(value: object, name: str, alias: object) -> str:
    """``value`` if it is one of ``alias``'s values, else a ``ValueError`` naming ``name`` and the values.

    The typed checks (``check_neighbours``, the layout, noise and workload checks) narrow the result to their
    alias; this one is for the boundary of a function whose option is used as a plain string.

    Args:
        value: anything the caller passed: accepted when it is a string equal to one of ``alias``'s values.
        name: the parameter's name, as the refusal names it.
        alias: a ``Literal`` alias of this module (:data:`LinearNoise`, :data:`Workload`, ...) whose values are
            accepted.
    """
    return check_choice(value, name, choices(alias))


Choice = TypeVar("Choice", bound=str)


def check_choice(value: object, name: str, accepted: Sequence[Choice]) -> Choice:
    """The one of ``accepted`` that ``value`` is (a string equal to it), typed as ``accepted``'s values (pass a
    tuple of a ``Literal`` alias's values to get the alias back); else a ``ValueError`` naming ``name`` and the
    accepted values.

    Args:
        value: anything the caller passed: accepted when it is a string equal to one of ``accepted``.
        name: the parameter's name, as the refusal names it.
        accepted: the accepted strings, in the order the refusal lists them (a tuple of a ``Literal`` alias's values
            types the result as the alias).
    """
    if isinstance(value, str):
        for option in accepted:
            if value == option:
                return option
    raise ValueError(f"{name} must be one of {', '.join(accepted)}; got {value!r}")


__all__ = [
    "ConversionMethod",
    "CounterNoise",
    "ExactCounterNoise",
    "Layout",
    "LeadingConstantFamilyKey",
    "LinearNoise",
    "Neighbours",
    "Parity",
    "Rounding",
    "SampledLaw",
    "Workload",
    "check_choice",
    "check_option",
    "choices",
]
