"""The public API cannot be misread: exact numbers are passed by name, in one order of names, one name per idea.

Every public callable of the library (functions, class and static methods, methods, hand-written ``__init__``;
not the generated ``__init__`` of result dataclasses, which users read rather than build) is walked with
``inspect.signature``. A parameter is an exact number when its name is in :data:`EXACT_NUMBERS` (one registry,
so the rule does not depend on annotations); a callable with two or more of them must take every one of them
keyword-only, so that ``check_gaussian(3, "1/2", "1/100", "1/4")`` is a ``TypeError`` rather than a question
about other numbers. Leading structural sizes (``depth``, ``arity``, ``horizon``, ...) may stay positional.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
import re
from collections.abc import Callable, Iterator
from fractions import Fraction

import pytest

import reference

#: Parameter names that carry an exact (or real) number of a privacy statement. One name per idea:
#: ``sensitivity`` is Δ, ``sensitivity_squared`` is Δ², ``sigma`` a standard deviation, ``sigma_squared`` a
#: variance or the discrete Gaussian's scale σ², ``scale`` a Laplace scale b.
EXACT_NUMBERS = (
    "epsilon",
    "epsilons",
    "delta",
    "deltas",
    "rho",
    "rhos",
    "sigma",
    "sigma_squared",
    "scale",
    "max_precision_diagonal",
    "sensitivity",
    "sensitivity_squared",
    "l1_sensitivity",
    "l2_sensitivity",
    "l2_sensitivity_squared",
    "sensitivities",
    "sensitivity_vectors",
    "contributions",
    "tolerance",
    "alpha",
)
#: The one order of names: ε, δ, ρ, the noise (σ, σ², b), the sensitivities, then the relation and the rest.
ORDER = (*EXACT_NUMBERS[:-3], "neighbours", *EXACT_NUMBERS[-3:])
#: Names that would carry Δ² (or Δ) under another name; the idea has one name.
MISNAMED_SENSITIVITY = re.compile(r"^(d2|delta2|delta_?squared|sens\w*|\w*_sq|diagonal|l2_squared)$")
#: Modules that are the verification of the papers (claims, checks, proof programs, the report) or the CLI, not
#: the library a user calls.
NOT_LIBRARY = re.compile(
    r"^reference\.(verification|cli|(cip|kary|tda|audit)\.(claims|checks|proofs)|samplers\.(checks|exact_checks)"
    r"|core\.(claims|proof\w*)|tda\.claims|__main__)(\.|$)"
)


def public_callables() -> Iterator[tuple[str, Callable[..., object]]]:
    """(qualified name, function) for every public callable defined in a library module."""
    for info in pkgutil.walk_packages(reference.__path__, "reference."):
        if NOT_LIBRARY.match(info.name):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if name.startswith("_") or getattr(value, "__module__", None) != module.__name__:
                continue
            if inspect.isfunction(value):
                yield f"{module.__name__}.{name}", value
            elif inspect.isclass(value):
                for member_name, member in vars(value).items():
                    if member_name.startswith("_") and member_name != "__init__":
                        continue
                    if member_name == "__init__" and dataclasses.is_dataclass(value):
                        continue
                    if isinstance(member, (classmethod, staticmethod)):
                        member = member.__func__
                    if inspect.isfunction(member):
                        yield f"{module.__name__}.{name}.{member_name}", member


def parameters(function: Callable[..., object]) -> list[inspect.Parameter]:
    return [p for p in inspect.signature(function).parameters.values() if p.name not in ("self", "cls")]


CALLABLES = dict(public_callables())


def test_the_walk_sees_the_public_api() -> None:
    # the walk itself must not be empty or blind to a package: a few names from each layer are in it
    for name in (
        "reference.privacy.gaussian_verdict.check_gaussian",
        "reference.audit.calibration.audit_gaussian",
        "reference.cip.mechanism.CorrelatedInputPerturbation.calibrate",
        "reference.kary.numeric.OnlineCounter.__init__",
        "reference.tda.calibration.inftda_calibration",
        "reference.testing.assert_calibration_safe",
    ):
        assert name in CALLABLES
    assert len(CALLABLES) > 300


def offenders_positional(callables: dict[str, Callable[..., object]]) -> list[str]:
    found = []
    for name, function in callables.items():
        exact = [p for p in parameters(function) if p.name in EXACT_NUMBERS]
        positional = [p.name for p in exact if p.kind is not inspect.Parameter.KEYWORD_ONLY]
        if len(exact) >= 2 and positional:
            found.append(f"{name}: {', '.join(positional)}")
    return found


def test_two_or_more_exact_numbers_are_keyword_only() -> None:
    assert offenders_positional(CALLABLES) == []


def test_the_rule_catches_a_positional_pair() -> None:
    def planted(sigma: Fraction, epsilon: Fraction, *, delta: Fraction) -> None: ...

    def fine(depth: int, *, epsilon: Fraction, delta: Fraction) -> None: ...

    assert offenders_positional({"planted": planted, "fine": fine}) == ["planted: sigma, epsilon"]


def test_one_order_of_names() -> None:
    disordered = []
    for name, function in CALLABLES.items():
        named = [p.name for p in parameters(function) if p.name in ORDER]
        if named != sorted(named, key=ORDER.index):
            disordered.append(f"{name}: {', '.join(named)}")
    assert disordered == []


def test_one_name_per_idea() -> None:
    misnamed = [
        f"{name}: {p.name}" for name, function in CALLABLES.items() for p in parameters(function)
        if MISNAMED_SENSITIVITY.match(p.name) and p.name not in EXACT_NUMBERS
    ]
    assert misnamed == []


def test_number_like_names_are_in_the_registry() -> None:
    # a new spelling of an exact number (``eps``, ``sigma2``, ``delta_squared``) would escape the keyword rule
    number_like = re.compile(r"(^|_)(eps|epsilon|delta|rho|sigma|sensitiv|scale$|tolerance|contribution)")
    # names that look like numbers but are not: ``contribution`` names a participation's contribution model
    # ("counts", "signed", "vector"), a Literal string
    not_numbers = {"contribution"}
    unknown = sorted({
        p.name for function in CALLABLES.values() for p in parameters(function)
        if number_like.search(p.name) and p.name not in EXACT_NUMBERS and p.name not in not_numbers
    })
    assert unknown == []


def test_docstrings_do_not_call_sensitivity_a_square() -> None:
    # ``sensitivity`` is Δ: a docstring that describes it as Δ² (or ``sensitivity_squared`` as Δ) contradicts it
    wrong = re.compile(r"``sensitivity``[^.\n]{0,30}(Δ²|squared)|``sensitivity_squared``\s*(\(|:|=|is)\s*Δ(?!²)")
    contradicted = [name for name, function in CALLABLES.items() if wrong.search(inspect.getdoc(function) or "")]
    assert contradicted == []


def test_sensitivity_is_delta_and_sensitivity_squared_is_its_square() -> None:
    from reference.audit.calibration import audit_discrete_gaussian
    from reference.cip.calibration import calibrate_gaussian
    from reference.privacy.discrete_gaussian_profile import discrete_gaussian_delta
    from reference.privacy.gaussian import gaussian_delta, sigma_exact

    # Δ = 3 in the calibration is Δ² = 9 in the exact σ
    by_delta = calibrate_gaussian(epsilon="1/2", delta="1e-6", sensitivity=3).sigma_exact
    by_square = sigma_exact(epsilon="1/2", delta="1e-6", sensitivity_squared=9)
    assert (by_delta.lower, by_delta.upper) == (by_square.lower, by_square.upper)
    # the discrete Gaussian audit reads Δ = 2 and Δ² = 4 as the same mechanism
    by_delta_audit = audit_discrete_gaussian(sigma_squared=8, sensitivity=2, rho="1/4")
    by_square_audit = audit_discrete_gaussian(sigma_squared=8, sensitivity_squared=4, rho="1/4")
    assert by_delta_audit.holds == by_square_audit.holds and by_delta_audit.claim == by_square_audit.claim
    # at a large σ² the discrete profile with Δ = 2 is near the continuous one with Δ² = 4, not Δ² = 2
    discrete = discrete_gaussian_delta(epsilon=1, sigma_squared=400, sensitivity=2).upper
    as_delta = gaussian_delta(epsilon=1, sigma=20, sensitivity_squared=4).upper
    as_square = gaussian_delta(epsilon=1, sigma=20, sensitivity_squared=2).upper
    assert abs(discrete / as_delta - 1) < Fraction(1, 10) and discrete / as_square > 10**6


# one call per string option with a misspelt value; the message must name the parameter


def _misspelt() -> list[tuple[str, Callable[[], object]]]:
    from reference import testing
    from reference.audit.linear.audit import audit_linear_noise
    from reference.audit.linear.covariance import noise_covariance
    from reference.audit.linear.lattice import lattice_audit
    from reference.cip.calibration import calibrate_cascade
    from reference.cip.exact.errors import workload_variances
    from reference.cip.mechanism import CorrelatedInputPerturbation
    from reference.cip.sensitivity import cascade_sensitivity_squared
    from reference.core.certified import CertifiedReal
    from reference.kary.constants import leading_constant
    from reference.kary.counters import OnlineCounter, algorithm_1
    from reference.kary.counters_runs import algorithm_1_runs
    from reference.tda.calibration import inftda_epsilon, inftda_level_sensitivity_squared
    from reference.testing.strategies import arities

    bad: object = "laplce"
    one = ((Fraction(1),),)
    return [
        ("neighbours", lambda: calibrate_cascade(2, epsilon=1, delta="1e-6", neighbours=bad)),  # type: ignore[arg-type]
        ("neighbours", lambda: cascade_sensitivity_squared(2, bad)),  # type: ignore[arg-type]
        ("layout", lambda: CorrelatedInputPerturbation.calibrate(5, epsilon=1, delta="1e-6", layout=bad)),  # type: ignore[arg-type]
        ("noise", lambda: algorithm_1([1, 0], 3, 1, noise=bad)),  # type: ignore[arg-type]
        ("noise", lambda: audit_linear_noise([[1]], [[1]], bad, scale=1)),  # type: ignore[arg-type]
        ("mechanism", lambda: testing.assert_samples_match([[0.0]], bad)),  # type: ignore[arg-type]
        ("method", lambda: inftda_epsilon(2, delta="1e-6", rho=1, method=bad)),  # type: ignore[arg-type]
        ("neighbours", lambda: lattice_audit(one, one, bad)),  # type: ignore[arg-type]
        ("neighbours", lambda: inftda_level_sensitivity_squared([2, 2], 1, neighbours=bad)),  # type: ignore[arg-type]
        ("parity", lambda: arities(bad)),  # type: ignore[arg-type]
        ("noise", lambda: noise_covariance([[1]], 1, bad)),  # type: ignore[arg-type]
        ("noise", lambda: algorithm_1_runs([1, 0], 3, epsilon=1, runs=2, seed=0, noise=bad)),  # type: ignore[arg-type]
        ("noise", lambda: OnlineCounter(3, 1, 5, noise=bad)),  # type: ignore[arg-type]
        ("noise", lambda: testing.assert_linear_mechanism_private([[1]], [[1]], bad, scale=1, epsilon=1)),  # type: ignore[arg-type]
        ("family", lambda: leading_constant(bad, 3)),  # type: ignore[arg-type]
        ("rounded", lambda: CertifiedReal.exact(1).decimal(20, rounded=bad)),  # type: ignore[arg-type]
        ("workload", lambda: workload_variances(2, bad)),  # type: ignore[arg-type]
    ]


@pytest.mark.parametrize("index", range(len(_misspelt())))
def test_a_misspelt_option_is_refused_naming_the_parameter(index: int) -> None:
    parameter, call = _misspelt()[index]
    with pytest.raises(ValueError) as caught:
        call()
    message = str(caught.value)
    assert message.startswith(parameter) and "laplce" in message and "\n" not in message
