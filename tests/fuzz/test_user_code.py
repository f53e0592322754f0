"""A user's function cannot speak for the audit: whatever it raises (SystemExit and KeyboardInterrupt included, in
the main process or in a worker), however long it runs and whatever it allocates, the audit ends with one line
naming it and exit 2 — never 0 ("holds") or 1 ("fails"). Its returned values are checked at the boundary."""

from __future__ import annotations

import os
import re
import signal
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from reference.audit.linear.probe_linear import probe_linear_map
from reference.cli.main import main
from reference.core.user_code import UserCodeError, UserFunction, call_user, check_limits
from reference.kary import counters
from reference.testing import assert_calibration_safe, assert_height_function

#: Bodies a user's function may end with, and the words the one line must hold.
ESCAPES = [
    ("raise SystemExit(0)", "raised SystemExit: 0"),
    ("raise SystemExit(1)", "raised SystemExit: 1"),
    ("import sys; sys.exit()", "raised SystemExit"),
    ("raise KeyboardInterrupt", "raised KeyboardInterrupt"),
    ("raise RuntimeError('boom')", "raised RuntimeError: boom"),
]


def _module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, source: str) -> None:
    (tmp_path / f"{name}.py").write_text(source, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop(name, None)


def _sampler_source(body: str, *, at_once: bool) -> str:
    # at_once: the first call (the shape probe, in the main process) escapes; else only the audit's chunks
    # (runs > 1), which run in the worker processes when there are several
    guard = "True" if at_once else "runs > 1"
    return (f"def f(generator, runs):\n    if {guard}:\n        {body}\n"
            "    return generator.normal(0, 2, size=(runs, 64))\n")


@pytest.mark.parametrize(("body", "words"), ESCAPES)
@pytest.mark.parametrize("at_once", [True, False])
def test_a_target_escaping_is_exit_2_with_its_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str], body: str, words: str,
                                                    at_once: bool) -> None:
    name = f"escaping_{abs(hash((body, at_once)))}"
    _module(tmp_path, monkeypatch, name, _sampler_source(body, at_once=at_once))
    status = main(["audit", "sampler-function", "--target", f"{name}:f", "--mechanism", "cascade", "--depth", "6",
                   "--sigma", "2", "--runs", "200", "--seed", "1"])
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("reference:")]
    assert status == 2
    assert lines == [f"reference: error: target {name}.f {words}"]


@pytest.mark.parametrize(("body", "words"), [ESCAPES[0], ESCAPES[3], ("import os; os._exit(0)", "ended abruptly")])
def test_a_target_escaping_in_a_worker_process_is_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str], body: str,
                                                         words: str) -> None:
    name = f"worker_escaping_{abs(hash(body))}"
    _module(tmp_path, monkeypatch, name, _sampler_source(body, at_once=False))
    status = main(["audit", "sampler-function", "--target", f"{name}:f", "--mechanism", "cascade", "--depth", "6",
                   "--sigma", "2", "--runs", "200", "--seed", "1", "--workers", "2"])
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("reference:")]
    assert status == 2 and len(lines) == 1 and name in lines[0] and words in lines[0]


@pytest.mark.parametrize(("body", "words"), ESCAPES)
def test_a_height_function_escaping_is_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str], body: str, words: str) -> None:
    name = f"height_{abs(hash(body))}"
    # right on small horizons, so the escape comes after some agreeing calls
    _module(tmp_path, monkeypatch, name,
            f"def f(horizon):\n    if horizon > 100:\n        {body}\n    return (horizon).bit_length()\n")
    status = main(["audit", "height", "--function", f"{name}:f", "--arity", "2"])
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("reference:")]
    assert status == 2
    assert len(lines) == 1 and f"height function {name}.f {words}" in lines[0] and "at horizon 1" in lines[0]


def test_a_real_sigint_during_user_code_still_interrupts() -> None:
    """The function raising KeyboardInterrupt is the user's error; a SIGINT that arrives is the user stopping the
    command: the two are told apart. (Under the terminal's disposition: a process started in the background by a
    non-interactive shell inherits SIGINT ignored, and then an ignored SIGINT is rightly ignored here too.)"""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        _interrupts_and_restores()
    finally:
        signal.signal(signal.SIGINT, previous)


def test_an_ignored_sigint_stays_ignored() -> None:
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        def signalled() -> str:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.2)
            return "finished"

        assert call_user(signalled, role="function") == "finished"
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN  # restored
    finally:
        signal.signal(signal.SIGINT, previous)


def _interrupts_and_restores() -> None:
    def signalled() -> None:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)  # the handler raises during the sleep

    with pytest.raises(KeyboardInterrupt):
        call_user(signalled, role="function")

    def raises() -> None:
        raise KeyboardInterrupt

    with pytest.raises(UserCodeError, match=r"function .*raises raised KeyboardInterrupt"):
        call_user(raises, role="function")
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # restored


def test_a_real_sigterm_during_user_code_is_not_swallowed() -> None:
    from reference.core.processes import signals_as_exit

    def signalled() -> None:
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)

    with pytest.raises(SystemExit) as stopped, signals_as_exit():
        call_user(signalled, role="function")
    assert stopped.value.code == 128 + signal.SIGTERM


def test_a_sleeping_height_function_ends_at_the_time_limit() -> None:
    started = time.monotonic()
    with pytest.raises(ValueError, match=r"did not return within the time limit of 0\.2 s per call \(call_seconds\)"):
        assert_height_function(lambda horizon: time.sleep(60), arity=2, offset=False, call_seconds=0.2)
    assert time.monotonic() - started < 30  # not the 60 s the function sleeps; a generous bound for a loaded machine


def test_a_sleeping_calibrator_ends_at_the_time_limit() -> None:
    def calibrator(*, epsilon: Fraction, delta: Fraction, sensitivity_squared: Fraction) -> int:
        while True:  # a Python loop: stopped by the alarm between bytecodes
            pass

    with pytest.raises(ValueError, match=r"calibrator .*calibrator did not return within the time limit of 0\.2 s"):
        assert_calibration_safe(calibrator, [(1, Fraction(1, 10**6))], call_seconds=0.2)


def test_an_outer_alarm_survives_the_calls() -> None:
    fired: list[int] = []
    previous = signal.signal(signal.SIGALRM, lambda number, frame: fired.append(number))
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.5)
        assert call_user(lambda: 7, role="function", limits=check_limits(10.0, None)) == 7
        remaining = signal.getitimer(signal.ITIMER_REAL)[0]
        assert 0 < remaining <= 0.5  # given back, not lost and not reset to the call's limit
        time.sleep(1.0)
        assert fired == [signal.SIGALRM]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_a_probe_target_allocating_without_bound_ends_at_the_memory_limit() -> None:
    def greedy(draws: np.ndarray) -> np.ndarray:
        _ = np.ones((1 << 16, 1 << 15))  # 16 GiB
        return draws[:1]

    with pytest.raises(ValueError, match=r"function .*greedy ran out of memory of 0\.25 GiB \(call_memory_bytes\)"):
        probe_linear_map(greedy, draws=4, inputs="float64", call_memory_bytes=1 << 28)


def test_a_probe_of_20000_draws_is_estimated_and_refused_before_the_quadratic_work() -> None:
    calls: list[int] = []

    def identity(draws: np.ndarray) -> np.ndarray:
        calls.append(1)
        return draws.copy()

    # 20,000 outputs × 20,000 draws held densely: about 9 GiB, over the default 4 GiB; refused after the one
    # call at zero that tells the number of outputs
    with pytest.raises(ValueError, match=r"draws: a map of 20000 outputs × 20000 draws needs about 8\.9\d* GiB"):
        probe_linear_map(identity, draws=20_000, inputs="float64")
    assert calls == [1]


def test_limits_are_validated_naming_the_parameter() -> None:
    for seconds in (0, -1, float("nan"), float("inf"), "1", True):
        with pytest.raises(ValueError, match="call_seconds must be a number of seconds"):
            assert_height_function(lambda horizon: 1, arity=2, offset=False, call_seconds=seconds)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="call_memory_bytes must be an integer"):
        probe_linear_map(lambda draws: draws, draws=2, inputs="float64", call_memory_bytes=1.5)  # type: ignore[arg-type]


@pytest.mark.parametrize("grid", [5, "0.5,1e-6", [(1,)], [(1, Fraction(1, 10**6), 3)], [None]])
def test_a_calibration_grid_of_the_wrong_shape_is_one_line(grid: object) -> None:
    def calibrator(*, epsilon: Fraction, delta: Fraction, sensitivity_squared: Fraction) -> int:
        return 100

    with pytest.raises(ValueError, match=r"^grid (must be an iterable of \(epsilon, delta\) pairs|point 0 must be)"):
        assert_calibration_safe(calibrator, grid)  # type: ignore[arg-type]


def test_a_calibrator_returning_nan_is_named() -> None:
    def calibrator(*, epsilon: Fraction, delta: Fraction, sensitivity_squared: Fraction) -> float:
        return float("nan")

    with pytest.raises(ValueError, match=r"calibrator returned sigma = nan at \(epsilon=1, delta=1/1000000\)"):
        assert_calibration_safe(calibrator, [(1, Fraction(1, 10**6))])


def test_a_nan_noise_function_is_named_not_an_arithmetic_error() -> None:
    stream = np.ones(20, dtype=np.int64)
    with pytest.raises(ValueError, match=r"noise_function .*<lambda> returned nan at position 0"):
        counters.algorithm_2_batch(stream, 3, 1.0, noise_function=lambda indices: np.full(indices.shape, np.nan))
    with pytest.raises(ValueError, match=r"noise_function .*<lambda> returned nan for 1, 0"):
        counters.algorithm_3(stream, 3, 1.0, noise_function=lambda level, j: float("nan"))
    with pytest.raises(ValueError, match=r"must return an array of shape \(20,\)"):
        counters.algorithm_1(stream, 3, 1.0, noise_function=lambda indices: np.zeros(3))


def test_a_noise_function_of_the_wrong_shape_is_named() -> None:
    counter = counters.OnlineCounter(3, 1.0, 10, noise_function=lambda index: np.zeros(2))  # type: ignore[arg-type,return-value]
    with pytest.raises(ValueError, match=r"noise_function .*<lambda> must return a real number, got array"):
        counter.step(1)
    counter = counters.OnlineCounter(3, 1.0, 10, noise_function=lambda index: float("inf"))
    with pytest.raises(ValueError, match=r"returned inf for 1: a noise value must be finite"):
        counter.step(1)


def test_a_user_function_batch_restores_the_handlers() -> None:
    before = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM, signal.SIGALRM)}
    with UserFunction(lambda: 1, role="function") as guarded:
        assert guarded() == 1
    assert {number: signal.getsignal(number) for number in before} == before


def test_a_target_returning_infinity_is_named_with_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    name = "infinite_draws"
    _module(tmp_path, monkeypatch, name, "import numpy as np\ndef f(generator, runs):\n"
            "    x = generator.normal(0, 2, size=(runs, 64))\n    if runs > 1:\n        x[1, 3] = np.inf\n"
            "    return x\n")
    status = main(["audit", "sampler-function", "--target", f"{name}:f", "--mechanism", "cascade", "--depth", "6",
                   "--sigma", "2", "--runs", "200", "--seed", "1", "--chunk-runs", "50"])
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("reference:")]
    # row 1 of every chunk of 50 runs is infinite: whichever chunk is drawn first names its run
    assert status == 2 and len(lines) == 1
    assert re.fullmatch(r"reference: error: target returned inf at run (1|51|101|151), value 3: draws must be finite",
                        lines[0])
