"""Calls of the public API (``reference.__all__``) for the fuzz harness, with arguments drawn by parameter kind.

A parameter's kind comes from its name (``depth``, ``arity``, ... are counts; ``epsilon``, ``delta``, ... exact
rationals) and, for ``sigma``, from its annotation (``float`` in the numeric layer). Invalid values are ones no
parameter of the kind accepts (``True`` for a count, ``0.5`` for an exact rational, ``"٣"``, ``nan``); a call
that returns normally with one of them is a silent accept. Functions whose parameters are structured objects the
harness cannot draw (trees, callables, paths, report folders) are listed in ``SKIPPED`` with the reason.
"""

from __future__ import annotations

import inspect
import sys
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
from hypothesis import strategies as st

import reference

COUNTS = {"depth", "arity", "height", "horizon", "width", "attributes", "contributions", "leaves", "size", "draws",
          "row_depth", "column_depth", "level", "first", "last", "bits", "minimum_arity", "tail_start", "seed"}
EXACT = {"epsilon", "delta", "rho", "sigma_squared", "sensitivity_squared", "scale", "l1_sensitivity",
         "l2_sensitivity", "l2_sensitivity_squared", "max_precision_diagonal", "tolerance", "alpha"}
SKIPPED = {
    "run_report": "writes a report folder (covered by the command line)",
    "build_registry": "no parameters",
    "read_csv": "takes a path (covered by the command line's file fixtures)",
    "write_csv": "writes a file",
    "probe_noise_matrix": "takes a callable",
    "inftda_exact": "takes a prefix tree and hierarchy",
    "inftda_numeric": "takes a prefix tree and hierarchy",
    "prefix_counts": "takes records and a hierarchy",
    "calibrate_general_tree": "takes a tree",
    "general_tree_leaves": "takes a tree",
    "general_tree_nodes": "takes a tree",
    "level_view": "takes an array of node values",
    "mahalanobis_sensitivity_squared": "takes a precision matrix",
    "certified_argmin": "takes a family name and arity bounds (covered by the registry)",
    "leading_constant": "takes a family name",
}
GOOD_COUNT = [0, 1, 2, 3, 5, 8]
EXTREME_COUNT: list[Any] = [40, 1000, 10**6, 10**9, 10**30,
                            # numpy integers are integers; 2**63 and 2**64 - 1 overflow C longs; 10**4000 a float
                            np.int64(5), np.uint64(3), 2**63, 2**64 - 1, 10**4000]
BAD_COUNT: list[Any] = [True, -1, 1.5, "3", "٣", None, float("nan"), float("inf"), "", 1j, [3], b"3", object(),
                        np.bool_(True), 3.0, np.float64(3.0), Fraction(7, 2), Decimal(3), np.array([3])]
GOOD_EXACT: list[Any] = [1, Fraction(1, 2), "1/2", "1e-6", 2, "0.01"]
EXTREME_EXACT: list[Any] = ["1e30", "1e-1000000000", Fraction(1, 10**5000), "1e-300", 10**30, "3e-7", "1e10",
                            "1e-10000", "1e10000", "3e-255", "1e-196", "1.0000001", Fraction(10**10000 + 1, 10**10000),
                            # past Python's 4,300-digit int(str) guard; the reader's digit and exponent limits
                            # together; the largest exact size accepted; numpy integers; a signed zero
                            "1/" + "3" * 4998, "0." + "0" * 4990 + "1e-5000", Fraction(1, 10**15000),
                            np.int64(7), np.uint64(2**64 - 1), "-0", "1e-010000"]
BAD_EXACT: list[Any] = [0.5, float("nan"), float("inf"), "inf", "", True, "٣", "1_000", "nan", None, "0/0", object(),
                        1j, [1], b"1",
                        {"1": 1}, "1e10001", "1e-10001",
                        # floats in disguise, decimals, numpy booleans, and sizes past the exact bound (a
                        # 2**-100001 delta was a hang)
                        np.float64(0.5), np.float32(0.5), np.longdouble(0.5), Decimal("0.5"), np.bool_(True),
                        np.array(0.5), Fraction(1, 2**100_001), 10**30_001, "10^30", "2**64"]
STRUCTURED: dict[str, list[Any]] = {
    "stream": [[1, 0, 1, 1, 0], np.array([1, 0, 1]), []],
    "values": [[3, 1, 4], [0], [-5, -5]],
    "total": [0, 1, 10, -1],
    "samples": [np.zeros((10, 4)), np.random.default_rng(0).standard_normal((300, 8))],
    "noise_matrix": [[[1, 0], [0, 1]], [[1], [1]]],
    "workload": [[[1, 0], [1, 1]], [[1]]],
    "noise": ["laplace", "gaussian", "discrete-laplace", "discrete-gaussian"],
    "neighbours": ["add_remove", "substitution"],
    "sensitivities": [["1"], ["1", "1/2"]],
    "sensitivity_vectors": [[["1"]], [["1", "1"]]],
    "sensitivity": [1, 2],
    "value": [0, 7, -3],
    "family": ["laplace"],
    "child_counts": [[2, 0, 0]],
    "noise_function": [None],
    "source": [None],
    "rng": [0, 1, None],
    "subtraction": [True, False],
    "offset": [True, False],
    "quick": [True],
    "progress": [False],
    "lower": [Fraction(0)],
    "upper": [Fraction(1)],
    "tree": [None],
    "workload_name": ["ranges"],
    "noise_vector": [[0.5, -1.0]],
}


NAN, INF = float("nan"), float("inf")
#: Bad values of each kind for the structured parameters (grids, arrays, sequences): a NaN, an infinity, a
#: complex, a string, an empty value and a wrong shape, each where a value of the parameter's form belongs.
_GRID_BAD: dict[str, Any] = {"nan": [[NAN, 0], [0, 1]], "inf": [[INF, 0], [0, 1]], "complex": [[1j, 0], [0, 1]],
                             "string": [["a", "b"], ["c", "d"]], "empty": [], "wrong shape": [[1, 0], [1]]}
_ARRAY_BAD: dict[str, Any] = {"nan": np.full((10, 4), NAN), "inf": np.full((10, 4), INF),
                              "complex": np.zeros((10, 4), dtype=complex), "string": np.full((10, 4), "a"),
                              "empty": np.zeros((0, 4)), "wrong shape": np.zeros((2, 2, 2))}
_SEQUENCE_BAD: dict[str, Any] = {"nan": [1, NAN, 0], "inf": [1, INF], "complex": [1j, 1], "string": ["a", "b"],
                                 "empty": [], "wrong shape": [[1, 0], [1, 1]]}
_VECTORS_BAD: dict[str, Any] = {"nan": [[NAN]], "inf": [["inf"]], "complex": [[1j]], "string": [["abc"]],
                                "empty": [], "wrong shape": [["1"], ["1", "2"]]}
_SCALAR_BAD: dict[str, Any] = {"nan": NAN, "inf": INF, "complex": 1j, "string": "abc", "empty": "",
                               "wrong shape": [1, 2]}
STRUCTURED_BAD: dict[str, dict[str, Any]] = {
    "noise_matrix": _GRID_BAD, "workload": _GRID_BAD, "samples": _ARRAY_BAD, "stream": _SEQUENCE_BAD,
    "values": _SEQUENCE_BAD, "noise_vector": _SEQUENCE_BAD, "child_counts": _SEQUENCE_BAD,
    "sensitivities": {**_SEQUENCE_BAD, "wrong shape": [["1"]]}, "sensitivity_vectors": _VECTORS_BAD,
    "sensitivity": _SCALAR_BAD, "total": _SCALAR_BAD, "value": _SCALAR_BAD,
}
#: The same kinds for the scalar parameters (counts, exact numbers, reals).
SCALAR_BAD = _SCALAR_BAD


@dataclass(frozen=True)
class ApiCall:
    """A generated call and why it is invalid (empty when every argument is acceptable)."""

    function: str
    args: tuple[Any, ...]
    kwargs: tuple[tuple[str, Any], ...]
    invalid: tuple[str, ...]

    def describe(self) -> str:
        parts = [_short(a) for a in self.args] + [f"{k}={_short(v)}" for k, v in self.kwargs]
        return f"{self.function}({', '.join(parts)})"


def _short(value: Any) -> str:
    if isinstance(value, Fraction) and max(value.numerator.bit_length(), value.denominator.bit_length()) > 200:
        return f"Fraction(<{value.numerator.bit_length()}-bit>, <{value.denominator.bit_length()}-bit>)"
    if isinstance(value, int) and value.bit_length() > 200:
        return f"<{value.bit_length()}-bit int>"
    return repr(value)[:60]


def functions() -> list[str]:
    """The public functions the harness calls (classes and skipped names excluded)."""
    chosen = []
    for name in reference.__all__:
        item = getattr(reference, name)
        if inspect.isfunction(item) and name not in SKIPPED:
            chosen.append(name)
    return sorted(chosen)


@st.composite
def api_calls(draw: st.DrawFn) -> ApiCall:
    """One call of one public function."""
    name = draw(st.sampled_from(functions()))
    signature = inspect.signature(getattr(reference, name))
    args: list[Any] = []
    kwargs: list[tuple[str, Any]] = []
    invalid: list[str] = []
    for parameter in signature.parameters.values():
        optional = parameter.default is not inspect.Parameter.empty
        if optional and draw(st.booleans()):
            continue
        value, why = _argument(draw, parameter)
        if why:
            invalid.append(f"{parameter.name}={_short(value)}: {why}")
        if parameter.kind is inspect.Parameter.KEYWORD_ONLY or optional:
            kwargs.append((parameter.name, value))
        else:
            args.append(value)
    return ApiCall(name, tuple(args), tuple(kwargs), tuple(invalid))


def _argument(draw: st.DrawFn, parameter: inspect.Parameter) -> tuple[Any, str]:
    name = parameter.name
    flavour = draw(st.sampled_from(["good", "good", "extreme", "bad"]))
    annotation = str(parameter.annotation)
    if name in EXACT and ("float" in annotation or "RealLike" in annotation):  # the numeric layer: reals
        if flavour == "bad":
            return draw(st.sampled_from([float("nan"), float("inf"), "abc", "٣"])), "not a finite real"
        return draw(st.sampled_from([0.5, 1.0, "1/2"] if flavour == "good" else [1e-300, 1e300, "1e30"])), ""
    if name == "sigma" and "float" in annotation:  # numeric layer: a finite positive real
        if flavour == "bad":
            return draw(st.sampled_from([float("nan"), -1.0, 0.0, "abc", float("inf")])), "not a finite positive real"
        return draw(st.sampled_from([1.0, 2.5, 1e-300, 1e300] if flavour == "extreme" else [1.0, 2.5, 10])), ""
    if name == "sigma":
        name = "scale"
    if name in STRUCTURED:
        if flavour == "bad" and name in STRUCTURED_BAD:
            kind = draw(st.sampled_from(sorted(STRUCTURED_BAD[name])))
            return STRUCTURED_BAD[name][kind], f"a {kind} {name}"
        return draw(st.sampled_from(STRUCTURED[name])), ""
    if name in COUNTS:
        if flavour == "bad":
            pool = [v for v in BAD_COUNT if v is not None or parameter.default is not None]
            return draw(st.sampled_from(pool)), "not an int of the accepted range"
        return draw(st.sampled_from(EXTREME_COUNT if flavour == "extreme" else GOOD_COUNT)), ""
    if name in EXACT:
        if flavour == "bad":
            pool = [v for v in BAD_EXACT if v is not None or parameter.default is not None]
            return draw(st.sampled_from(pool)), "not an exact rational"
        return draw(st.sampled_from(EXTREME_EXACT if flavour == "extreme" else GOOD_EXACT)), ""
    return draw(st.sampled_from([1, "1/2", None])), ""


def run_call(call: ApiCall) -> tuple[str, int]:
    """The child's work: make the call. ValueError/TypeError are the promised refusals; UndecidedComparisonError
    is the documented answer of a certified computation that cannot decide at its working precision (counted
    apart, as "undecided": it is not a silent accept, and not a crash)."""
    from reference.core.certified import UndecidedComparisonError

    function = getattr(reference, call.function)
    try:
        function(*call.args, **dict(call.kwargs))
    except (ValueError, TypeError) as error:
        print(f"{type(error).__name__}: {error}", file=sys.stderr)  # the parent checks that it names a parameter
        return "refused", 2
    except UndecidedComparisonError:
        return "undecided", 3
    return "ok", 0


def names_a_parameter(call: ApiCall, message: str) -> bool:
    """Whether a refusal is one line naming a parameter of the function (the refusal may be about one the
    harness drew as acceptable: an extreme value out of this function's range, a combination). A name counts
    with ``_`` or a space between its words (``sensitivity_squared`` / "sensitivity squared")."""
    text = message.strip()
    if not text or "\n" in text:
        return False
    lowered = text.lower()
    names = list(inspect.signature(getattr(reference, call.function)).parameters)
    return not names or any(spelling in lowered for name in names for spelling in (name, name.replace("_", " ")))


def good_value(parameter: inspect.Parameter) -> Any:
    """The first good value of a parameter's kind (the sweep's baseline), or ``inspect.Parameter.empty``."""
    name, annotation = parameter.name, str(parameter.annotation)
    if name in EXACT and ("float" in annotation or "RealLike" in annotation):
        return 0.5
    if name == "sigma" and "float" in annotation:
        return 1.0
    name = "scale" if name == "sigma" else name
    if name in STRUCTURED:
        return STRUCTURED[name][0]
    if name in COUNTS:
        return 2
    if name in EXACT:
        return Fraction(1, 2)
    return inspect.Parameter.empty


#: Baseline values where the first good value of each kind is not an accepted call (a parameter that is one of
#: two alternatives, a ratio the norms must have, an odd arity, a name that is a string here).
BASELINE: dict[str, dict[str, Any]] = {
    "audit_discrete_gaussian": {"epsilon": Fraction(1, 2), "delta": Fraction(1, 10**6), "sigma": 2, "sensitivity": 1},
    "audit_gaussian": {"sigma": 2},
    "audit_kary_noise": {"arity": 3, "samples": np.random.default_rng(0).standard_normal((300, 8))},
    "audit_laplace_l2": {"l1_sensitivity": 1, "l2_sensitivity_squared": 1},
    "expected_worst_error": {"workload": "ranges"},
    "offset_digits": {"arity": 3},
    "worst_range_error": {"noise": [0.5, -1.0, 0.25, 0.0]},
}
#: Bad-value kinds for parameters whose name means something else in these functions.
SWEEP_KINDS: dict[tuple[str, str], dict[str, Any]] = {
    ("worst_range_error", "noise"): _SEQUENCE_BAD,
    ("expected_worst_error", "workload"): _SCALAR_BAD,
}


def bad_values(parameter: inspect.Parameter, function: str = "") -> dict[str, Any]:
    """The sweep's bad values of each kind for a parameter (empty when its kind is not known)."""
    if (function, parameter.name) in SWEEP_KINDS:
        return SWEEP_KINDS[(function, parameter.name)]
    name = "scale" if parameter.name == "sigma" else parameter.name
    if name in STRUCTURED_BAD:
        return STRUCTURED_BAD[name]
    if name in COUNTS or name in EXACT:
        return SCALAR_BAD
    return {}


def sweep_calls() -> list[tuple[ApiCall, str]]:
    """Every public function's baseline call (required parameters at a good value) and, for each parameter of
    a known kind, one call per bad kind with that parameter alone bad: ``(call, bad parameter or "")``.
    Functions with a required parameter of no known kind are left out (``SKIPPED`` lists the structured ones)."""
    calls: list[tuple[ApiCall, str]] = []
    for name in functions():
        parameters = list(inspect.signature(getattr(reference, name)).parameters.values())
        baseline = {p.name: good_value(p) for p in parameters if p.default is inspect.Parameter.empty}
        baseline.update(BASELINE.get(name, {}))
        if any(value is inspect.Parameter.empty for value in baseline.values()):
            continue
        calls.append((_call(name, parameters, baseline, ()), ""))
        for parameter in parameters:
            for kind, value in bad_values(parameter, name).items():
                why = (f"{parameter.name}={_short(value)}: a {kind} value",)
                calls.append((_call(name, parameters, {**baseline, parameter.name: value}, why), parameter.name))
    return calls


def _call(name: str, parameters: list[inspect.Parameter], values: dict[str, Any], invalid: tuple[str, ...]) -> ApiCall:
    args = [values[p.name] for p in parameters
            if p.name in values and p.kind is not inspect.Parameter.KEYWORD_ONLY and p.default is inspect.Parameter.empty]
    kwargs = [(p.name, values[p.name]) for p in parameters
              if p.name in values and (p.kind is inspect.Parameter.KEYWORD_ONLY or p.default is not inspect.Parameter.empty)]
    return ApiCall(name, tuple(args), tuple(kwargs), invalid)


def names_the_parameter(parameter: str, message: str) -> bool:
    """Whether a one-line refusal names ``parameter`` (with ``_`` or a space between its words)."""
    text = message.strip()
    lowered = text.lower()
    return bool(text) and "\n" not in text and (parameter in lowered or parameter.replace("_", " ") in lowered)
