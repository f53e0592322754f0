"""Generators for two classes of input the parameter-kind generators cannot reach: misbehaving user code and forged
``.npy`` headers.

**User code.** Every public entry point that calls code it is given (the testing helpers, the probes, the
counters' ``noise_function``, an RDP curve as a function) is called with a function that behaves — returns the
right thing — until a drawn call, and then misbehaves in a drawn way: it *escapes* (``SystemExit(0)``,
``SystemExit(1)``, ``KeyboardInterrupt``, ``GeneratorExit``, an arbitrary exception, sleeping or spinning past
the per-call time limit, allocating past the per-call memory limit) or returns a *bad value* (NaN, ±inf, a
complex, a string, ``None``, an array of the wrong shape, a ragged list). An escape must end the call with one
``ValueError`` naming the function — a verdict (``AssertionError`` from a testing helper, or a normal return) is
the user's code speaking for the audit. A bad value must be refused as well, except where a wrong value is a
legitimate finding (a height function returning a wrong height fails the assertion).

**Forged headers.** A valid ``.npy`` header is mutated (cut short, a bracket or quote dropped or doubled, the
length field replaced by 0, by more than the file or by 2**32 - 1, an odd version, a wrong shape or dtype) and
given to each option that reads ``.npy`` files: the command must answer or refuse in one line naming the option.
"""

from __future__ import annotations

import os
import tempfile
import time
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import strategies as st

#: Misbehaviours that leave the function (the audit must refuse, never give a verdict).
ESCAPES = ("exit0", "exit1", "interrupt", "generator_exit", "error", "sleep", "spin", "allocate")
#: Misbehaviours in the returned value.
BAD_VALUES = ("nan", "inf", "complex", "string", "none", "wrong_shape", "ragged")
#: Per-call limits given to the entry points that take them: small, so a hang ends well within the isolation's.
CALL_SECONDS = 0.5
CALL_MEMORY_BYTES = 1 << 28


#: Whether the user function of this (forked, one-case) child has misbehaved yet: a call that ends before the
#: drawn misbehaviour (a vectorised noise function is called once) tested nothing and is counted apart.
MISBEHAVED: list[str] = []


def misbehave(behaviour: str, good: Any) -> Any:
    """Do ``behaviour`` (returning its bad value, or escaping); ``good`` shapes the wrong-shape value."""
    MISBEHAVED.append(behaviour)
    if behaviour == "exit0":
        raise SystemExit(0)
    if behaviour == "exit1":
        raise SystemExit(1)
    if behaviour == "interrupt":
        raise KeyboardInterrupt
    if behaviour == "generator_exit":
        raise GeneratorExit
    if behaviour == "error":
        raise LookupError("the user's own failure")
    if behaviour == "sleep":
        time.sleep(3600)
    if behaviour == "spin":
        while True:
            pass
    if behaviour == "allocate":
        return np.ones((1 << 20, 1 << 13))  # 64 GiB
    if behaviour == "nan":
        return np.full(np.shape(good), np.nan) if np.ndim(good) else float("nan")
    if behaviour == "inf":
        return np.full(np.shape(good), -np.inf) if np.ndim(good) else float("inf")
    if behaviour == "complex":
        return np.asarray(good) * 1j if np.ndim(good) else 1j
    if behaviour == "string":
        return "three"
    if behaviour == "none":
        return None
    if behaviour == "wrong_shape":
        return np.zeros((np.size(good) + 1, 2))
    if behaviour == "ragged":
        return [[1.0], [1.0, 2.0]]
    raise AssertionError(behaviour)


@dataclass(frozen=True)
class UserCodeCase:
    """An entry point, the call after which its user function misbehaves, and how."""

    entry: str
    behaviour: str
    after: int  # good calls before the misbehaviour
    size: int  # draws, horizon or arity, as the entry point needs

    def describe(self) -> str:
        return f"{self.entry}(size={self.size}) with a user function that {self.behaviour}s after {self.after} calls"


class _Counted:
    """A user function: good for ``after`` calls, then ``behaviour`` (a module-level class: it pickles)."""

    def __init__(self, behaviour: str, after: int, good: Any) -> None:
        self.behaviour, self.after, self.good, self.calls = behaviour, after, good, 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        value = self.good(*args, **kwargs)
        return value if self.calls <= self.after else misbehave(self.behaviour, value)


def _height(arity: int, offset: bool) -> Any:
    from reference.kary.digits import height_for_horizon

    return lambda horizon: height_for_horizon(arity, horizon, offset=offset)


def _calibrator(*, epsilon: Fraction, delta: Fraction, sensitivity_squared: Fraction) -> int:
    return 10**6  # safe at every grid point drawn here (ε >= 1/10, δ >= 1e-9, Δ² = 1)


#: The entry points, the kinds of misbehaviour each must refuse, and whether a bad value may give a verdict.
ENTRIES: dict[str, tuple[tuple[str, ...], bool]] = {
    "assert_height_function": (ESCAPES + BAD_VALUES, True),
    "assert_calibration_safe": (ESCAPES + BAD_VALUES, False),
    "probe_linear_map": (ESCAPES + BAD_VALUES, False),
    "probe_noise_matrix": ((*ESCAPES[:5], "allocate", *BAD_VALUES), False),
    "algorithm_1": (ESCAPES[:5] + BAD_VALUES, False),
    "algorithm_2_batch": (ESCAPES[:5] + BAD_VALUES, False),
    "algorithm_3": (ESCAPES[:5] + BAD_VALUES, False),
    "OnlineCounter": (ESCAPES[:5] + BAD_VALUES, False),
    "assert_gaussian_renyi": ((*ESCAPES[:5], "allocate", *BAD_VALUES), False),
}


@st.composite
def user_code_cases(draw: st.DrawFn) -> UserCodeCase:
    entry = draw(st.sampled_from(sorted(ENTRIES)))
    behaviour = draw(st.sampled_from(ENTRIES[entry][0]))
    return UserCodeCase(entry, behaviour, draw(st.sampled_from([0, 0, 1, 3, 10])), draw(st.integers(2, 9)))


def _call(case: UserCodeCase) -> object:
    from reference.audit.linear.probe import probe_noise_matrix
    from reference.audit.linear.probe_linear import probe_linear_map
    from reference.kary import counters
    from reference.testing import assert_calibration_safe, assert_gaussian_renyi, assert_height_function

    size = case.size
    if case.entry == "assert_height_function":
        function = _Counted(case.behaviour, case.after, _height(size, False))
        return assert_height_function(function, arity=size, offset=False, call_seconds=CALL_SECONDS,
                                      call_memory_bytes=CALL_MEMORY_BYTES)
    if case.entry == "assert_calibration_safe":
        grid = [(Fraction(1, index + 1), Fraction(1, 10**6)) for index in range(size)]
        return assert_calibration_safe(_Counted(case.behaviour, case.after, _calibrator), grid,
                                       call_seconds=CALL_SECONDS, call_memory_bytes=CALL_MEMORY_BYTES)
    if case.entry == "probe_linear_map":
        function = _Counted(case.behaviour, case.after, lambda draws: np.cumsum(draws))
        return probe_linear_map(function, draws=size, inputs="float64", call_seconds=CALL_SECONDS,
                                call_memory_bytes=CALL_MEMORY_BYTES)
    if case.entry == "probe_noise_matrix":
        function = _Counted(case.behaviour, case.after, lambda draws: [sum(draws[: index + 1]) for index in range(len(draws))])
        return probe_noise_matrix(function, size)
    stream = np.ones(3 * size, dtype=np.int64)
    if case.entry == "algorithm_1":
        return counters.algorithm_1(stream, 3, 1.0, noise_function=_Counted(case.behaviour, case.after,
                                                                             lambda indices: indices * 0.5))
    if case.entry == "algorithm_2_batch":
        return counters.algorithm_2_batch(stream, 3, 1.0, noise_function=_Counted(case.behaviour, case.after,
                                                                                   lambda indices: indices * 0.5))
    if case.entry == "algorithm_3":
        return counters.algorithm_3(stream, 3, 1.0, noise_function=_Counted(case.behaviour, case.after,
                                                                             lambda level, j: 0.25 * level - j))
    if case.entry == "OnlineCounter":
        counter = counters.OnlineCounter(3, 1.0, len(stream),
                                         noise_function=_Counted(case.behaviour, case.after, lambda index: 0.5))
        return [counter.step(int(bit)) for bit in stream]
    if case.entry == "assert_gaussian_renyi":
        curve = _Counted(case.behaviour, case.after, lambda alpha: alpha / 2)  # σ = Δ = 1: RDP(α) = α/2 exactly
        return assert_gaussian_renyi(sigma=1, sensitivity_squared=1, rdp=curve)
    raise AssertionError(case.entry)


def run_user_code_case(case: UserCodeCase) -> tuple[str, int]:
    """The child's work: ``refused`` (ValueError/TypeError: the promised one line), ``verdict`` (AssertionError
    from a testing helper), ``ok`` (a normal return), ``unreached`` (the call ended before the function
    misbehaved); anything else escapes to the isolation as a traceback."""
    try:
        _call(case)
    except (ValueError, TypeError):
        return "refused", 2
    except AssertionError:
        return ("verdict" if MISBEHAVED else "unreached"), 1
    return ("ok" if MISBEHAVED else "unreached"), 0


def classify_user_code(case: UserCodeCase, kind: str) -> str:
    """The outcome's class: an escape or a bad value that ends in a verdict or a normal return is the user's
    code speaking for the audit ("silent accept"); a wrong value may fail a height assertion."""
    if kind in ("refused", "traceback", "hang", "memory", "unreached"):
        return kind
    legitimate_verdict = ENTRIES[case.entry][1] and case.behaviour in BAD_VALUES
    if kind == "verdict" and legitimate_verdict:
        return "refused"
    if case.behaviour in ESCAPES or case.behaviour in BAD_VALUES:
        return "silent accept"
    return kind


# ------------------------------------------------------------------------------------------- forged headers


#: The options that read ``.npy`` files, and a command line around each (``{path}`` the forged file).
NPY_COMMANDS: dict[str, list[str]] = {
    "--noise-matrix": ["audit", "linear-noise", "--noise-matrix", "{path}", "--workload", "{ok}", "--noise",
                       "laplace", "--scale", "1", "--epsilon", "1"],
    "--workload": ["audit", "linear-noise", "--noise-matrix", "{ok}", "--workload", "{path}", "--noise", "laplace",
                   "--scale", "1", "--epsilon", "1"],
    "--samples": ["audit", "samplers", "--samples", "{path}", "--mechanism", "cascade", "--depth", "1", "--sigma",
                  "1"],
}

_MUTATIONS = ("cut", "drop", "double", "length_zero", "length_past_file", "length_max", "version", "shape",
              "descr", "none")


@dataclass(frozen=True)
class ForgedNpy:
    option: str
    mutation: str
    position: float  # where in the header a cut, drop or double falls (fraction of its length)
    version: int
    tail: int  # bytes after the header

    def describe(self) -> str:
        return f"{self.option} with a v{self.version} .npy header mutated by {self.mutation} at {self.position:.2f}"

    def content(self) -> bytes:
        shape = (2, 2) if self.mutation != "shape" else [(-1, 2), (2**62, 2**62), ((2,), 2), ("2", 2), (2.5,)][
            int(self.position * 4.99)]
        descr = "'<i8'" if self.mutation != "descr" else ["'|O'", "'<c16'", "'S5'", "'<q9'", "[('a', '<i8')]", "5"][
            int(self.position * 5.99)]
        text = f"{{'descr': {descr}, 'fortran_order': False, 'shape': {shape!r}, }}".encode()
        where = int(self.position * len(text))
        if self.mutation == "cut":
            text = text[:where]
        elif self.mutation == "drop":
            text = text[:where] + text[where + 1:]
        elif self.mutation == "double":
            text = text[:where + 1] + text[where:]
        fixed = 10 if self.version == 1 else 12
        text = text + b" " * ((-(fixed + len(text) + 1)) % 64) + b"\n"
        length = len(text)
        if self.mutation == "length_zero":
            length = 0
        elif self.mutation == "length_past_file":
            length = len(text) + self.tail + 100
        elif self.mutation == "length_max":
            length = (1 << (16 if self.version == 1 else 32)) - 1
        field = length.to_bytes(2 if self.version == 1 else 4, "little")
        version = bytes([self.version if self.mutation != "version" else 7, 0])
        body = np.arange(4, dtype="<i8").tobytes()[: self.tail] + b"\0" * max(0, self.tail - 32)
        return b"\x93NUMPY" + version + field + text + body


@st.composite
def forged_npy_cases(draw: st.DrawFn) -> ForgedNpy:
    return ForgedNpy(draw(st.sampled_from(sorted(NPY_COMMANDS))), draw(st.sampled_from(_MUTATIONS)),
                     draw(st.floats(0, 1, exclude_max=True)), draw(st.sampled_from([1, 2, 3])),
                     draw(st.sampled_from([0, 32, 100, 20_000])))


def run_forged_npy(case: ForgedNpy) -> tuple[str, int]:
    """The child's work: write the forged file and a good one, run the command line (exit 2: ``refused``)."""
    from tests.fuzz.cli_cases import run_command

    folder = Path(tempfile.mkdtemp(prefix="reference-npy-"))
    path = folder / "forged.npy"
    path.write_bytes(case.content())
    ok = folder / "ok.npy"
    np.save(ok, np.eye(2, dtype=np.int64))
    try:
        return run_command(tuple(word.format(path=path, ok=ok) for word in NPY_COMMANDS[case.option]))
    finally:
        for item in (path, ok):
            item.unlink(missing_ok=True)
        os.rmdir(folder)
