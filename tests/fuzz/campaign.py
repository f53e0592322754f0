"""The fuzz campaign: draw command lines and API calls with hypothesis, run each isolated, count failures.

Failure kinds (each must be zero): ``traceback`` (an exception escaped), ``hang`` (over the time limit),
``memory`` (MemoryError or killed), ``silent accept`` (an invalid input computed as if valid). Also counted, not
failing: ``unnamed`` — an exit-2 message that names none of the options given, or an API refusal that is not one
line naming a parameter (an invalid one when the call has any).
"""

from __future__ import annotations

import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed

from tests.fuzz.api_cases import (
    ApiCall,
    api_calls,
    names_a_parameter,
    names_the_parameter,
    run_call,
    sweep_calls,
)
from tests.fuzz.cli_cases import CommandLine, command_lines, make_fixtures, run_command
from tests.fuzz.isolation import GIB, Isolator, Outcome

FAILURES = ("traceback", "hang", "memory", "silent accept")


@dataclass
class Tally:
    """Counts per outcome and the first examples of each failure."""

    counts: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)
    calls: int = 0
    seconds: float = 0.0

    def add(self, kind: str, what: str, detail: str) -> None:
        self.counts[kind] += 1
        if kind in FAILURES or kind == "unnamed":
            bucket = self.examples.setdefault(kind, [])
            if len(bucket) < 12:
                bucket.append(f"{what}\n      {detail.strip().splitlines()[-1][:300] if detail.strip() else ''}")

    @property
    def failures(self) -> int:
        return sum(self.counts[kind] for kind in FAILURES)

    def summary(self, title: str) -> str:
        lines = [f"{title}: {self.calls} calls in {self.seconds:.0f} s"]
        lines.append("  " + ", ".join(f"{kind} {self.counts[kind]}" for kind in FAILURES)
                     + f" | unnamed errors {self.counts['unnamed']} | ok {self.counts['ok']}, "
                     f"refused {self.counts['refused']}, undecided {self.counts['undecided']}")
        for kind, found in self.examples.items():
            lines.append(f"  {kind}:")
            lines += [f"    {example}" for example in found]
        return "\n".join(lines)


def _classify(outcome: Outcome, invalid: tuple[str, ...]) -> str:
    if outcome.kind in ("traceback", "hang", "memory"):
        return outcome.kind
    if "Traceback (most recent call last)" in outcome.stderr or outcome.exit_status == 70:
        return "memory" if "out of memory" in outcome.stderr else "traceback"
    if outcome.kind == "ok" and invalid:
        return "silent accept"
    return outcome.kind


def _named(outcome: Outcome, argv: tuple[str, ...]) -> bool:
    message = outcome.stderr.strip().lower()
    names = [a[2:].split("=")[0] for a in argv if a.startswith("--") and a != "--json"]
    spellings = {n for name in names for n in (name, name.replace("-", "_"), name.replace("-", " "))}
    return "--" in message or any(s in message for s in spellings) or not names


def run_cli_campaign(examples: int, *, seed: int, seconds: float, memory_gib: float, progress: bool = False) -> Tally:
    """Draw ``examples`` command lines (seeded) and run each isolated."""
    tally = Tally()
    isolator = Isolator(["reference.cli.main", "tests.fuzz.cli_cases"], seconds=seconds,
                        memory_bytes=int(memory_gib * GIB))
    folder = Path(tempfile.mkdtemp(prefix="reference-fuzz-"))
    fixtures = make_fixtures(folder)
    start = time.perf_counter()

    @hypothesis_seed(seed)
    @settings(max_examples=examples, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(command_lines(fixtures))
    def one(line: CommandLine) -> None:
        outcome = isolator.run(run_command, line.argv)
        kind = _classify(outcome, line.invalid)
        what = "reference " + " ".join(repr(a) if (not a or " " in a) else a for a in line.argv)
        if line.invalid and kind == "silent accept":
            what += f"   [invalid: {'; '.join(line.invalid)}]"
        tally.add(kind, what, outcome.stderr or outcome.stdout)
        if progress and kind in FAILURES:
            print(f"  {kind}: {what}\n      {(outcome.stderr or outcome.stdout).strip()[-300:]}", flush=True)
        if kind == "refused" and not _named(outcome, line.argv):
            tally.add("unnamed", what, outcome.stderr)
        tally.calls += 1
        if progress and tally.calls % 200 == 0:
            print(f"  cli {tally.calls}/{examples}: failures {tally.failures}", flush=True)

    one()
    tally.seconds = time.perf_counter() - start
    return tally


def run_api_campaign(examples: int, *, seed: int, seconds: float, memory_gib: float, progress: bool = False) -> Tally:
    """Draw ``examples`` public API calls (seeded) and run each isolated."""
    tally = Tally()
    isolator = Isolator(["reference", "tests.fuzz.api_cases"], seconds=seconds, memory_bytes=int(memory_gib * GIB))
    start = time.perf_counter()

    @hypothesis_seed(seed)
    @settings(max_examples=examples, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(api_calls())
    def one(call: ApiCall) -> None:
        outcome = isolator.run(run_call, call)
        kind = _classify(outcome, call.invalid)
        what = call.describe()
        if kind == "silent accept":
            what += f"   [invalid: {'; '.join(call.invalid)}]"
        tally.add(kind, what, outcome.stderr)
        if progress and kind in FAILURES:
            print(f"  {kind}: {what}\n      {outcome.stderr.strip()[-300:]}", flush=True)
        if kind == "refused" and not names_a_parameter(call, outcome.stderr):
            tally.add("unnamed", what, outcome.stderr)
        tally.calls += 1
        if progress and tally.calls % 200 == 0:
            print(f"  api {tally.calls}/{examples}: failures {tally.failures}", flush=True)

    one()
    tally.seconds = time.perf_counter() - start
    return tally


def run_message_sweep(*, seconds: float, memory_gib: float, progress: bool = False) -> Tally:
    """Every public function with one parameter at a time given a bad value of each kind (NaN, inf, complex,
    string, empty, wrong shape; :func:`tests.fuzz.api_cases.sweep_calls`), isolated: each must be refused in one
    line naming that parameter (``unnamed`` otherwise; a normal return is a silent accept). Where the baseline
    call itself is refused (``baseline refused``, counted per function), the refusal may name another one."""
    tally = Tally()
    isolator = Isolator(["reference", "tests.fuzz.api_cases"], seconds=seconds, memory_bytes=int(memory_gib * GIB))
    start = time.perf_counter()
    baseline_ok: dict[str, bool] = {}
    for call, parameter in sweep_calls():
        outcome = isolator.run(run_call, call)
        kind = _classify(outcome, call.invalid)
        what = call.describe()
        if not parameter:  # the function's baseline: good values only
            baseline_ok[call.function] = kind == "ok"
            if kind != "ok":
                tally.counts["baseline refused"] += 1
                tally.examples.setdefault("baseline refused", []).append(f"{what}\n      {outcome.stderr.strip()[-300:]}")
            if kind not in FAILURES:
                continue
        if kind == "silent accept":
            what += f"   [invalid: {'; '.join(call.invalid)}]"
        tally.add(kind, what, outcome.stderr)
        if progress and kind in FAILURES:
            print(f"  {kind}: {what}\n      {outcome.stderr.strip()[-300:]}", flush=True)
        if kind == "refused":
            message = outcome.stderr.split(": ", 1)[-1]  # run_call writes "ValueError: message"
            named = (names_the_parameter(parameter, message) if baseline_ok.get(call.function)
                     else names_a_parameter(call, outcome.stderr))
            if not named:
                tally.add("unnamed", what, outcome.stderr)
                if progress:
                    print(f"  unnamed: {what}\n      {outcome.stderr.strip()[-300:]}", flush=True)
        tally.calls += 1
    tally.seconds = time.perf_counter() - start
    return tally


def as_json(tally: Tally) -> dict[str, Any]:
    """The tally for ``--json``."""
    return {"calls": tally.calls, "seconds": round(tally.seconds, 1), "counts": dict(tally.counts),
            "examples": tally.examples}


#: Oracle outcomes that are failures: a certified value on the wrong side, or a useless enclosure.
ORACLE_FAILURES = ("unsafe", "wide", "traceback", "hang", "memory")


def _oracle_child(case: Any) -> tuple[str, int]:
    from tests.fuzz.oracles import run_oracle_case

    kind, detail = run_oracle_case(case)
    print(detail)
    return kind, 0


def run_oracle_campaign(examples: int, *, seed: int, seconds: float, memory_gib: float,
                        progress: bool = False) -> Tally:
    """Draw ``examples`` certified-routine calls (seeded) and check each against the mpmath oracle, isolated.

    The routine has its own time limit (``oracles.PACKAGE_SECONDS``, a ``hang``); the isolation's limit
    ``seconds`` bounds routine and oracle together (past it: ``oracle-timeout``, not a failure of the package).
    """
    import random

    from tests.fuzz.oracles import draw_case

    tally = Tally()
    isolator = Isolator(["reference", "mpmath", "tests.fuzz.oracles"], seconds=seconds,
                        memory_bytes=int(memory_gib * GIB))
    chooser = random.Random(seed)
    start = time.perf_counter()
    for _ in range(examples):
        case = draw_case(chooser.choice)
        outcome = isolator.run(_oracle_child, case)
        kind = {"hang": "oracle-timeout"}.get(outcome.kind, outcome.kind)
        detail = outcome.stdout or outcome.stderr
        tally.counts[kind] += 1
        if kind in ORACLE_FAILURES:
            bucket = tally.examples.setdefault(kind, [])
            if len(bucket) < 12:
                bucket.append(f"{case.describe()}\n      {detail.strip()[-300:]}")
            if progress:
                print(f"  {kind}: {case.describe()}\n      {detail.strip()[-300:]}", flush=True)
        tally.calls += 1
        if progress and tally.calls % 100 == 0:
            failed = sum(tally.counts[k] for k in ORACLE_FAILURES)
            print(f"  oracle {tally.calls}/{examples}: failures {failed}", flush=True)
    tally.seconds = time.perf_counter() - start
    return tally


def oracle_summary(tally: Tally) -> str:
    """Counts per oracle class."""
    lines = [f"certified values against the oracle: {tally.calls} calls in {tally.seconds:.0f} s",
             "  " + ", ".join(f"{kind} {tally.counts[kind]}" for kind in ORACLE_FAILURES)
             + f" | ok {tally.counts['ok']}, refused {tally.counts['refused']}, "
             f"oracle-timeout {tally.counts['oracle-timeout']}, oracle {tally.counts['oracle']}"]
    for kind, found in tally.examples.items():
        lines.append(f"  {kind}:")
        lines += [f"    {example}" for example in found]
    return "\n".join(lines)


def run_user_code_campaign(examples: int, *, seed: int, seconds: float, memory_gib: float,
                           progress: bool = False) -> Tally:
    """Draw ``examples`` calls of the entry points that take user code, with misbehaving user functions
    (:mod:`tests.fuzz.user_code_cases`), and run each isolated."""
    from tests.fuzz.user_code_cases import UserCodeCase, classify_user_code, run_user_code_case, user_code_cases

    tally = Tally()
    isolator = Isolator(["reference", "reference.testing", "tests.fuzz.user_code_cases"], seconds=seconds,
                        memory_bytes=int(memory_gib * GIB))
    start = time.perf_counter()

    @hypothesis_seed(seed)
    @settings(max_examples=examples, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(user_code_cases())
    def one(case: UserCodeCase) -> None:
        outcome = isolator.run(run_user_code_case, case)
        kind = classify_user_code(case, _classify(outcome, ()))
        tally.add(kind, case.describe(), outcome.stderr)
        tally.counts[f"class {case.behaviour}"] += 1
        if progress and kind in FAILURES:
            print(f"  {kind}: {case.describe()}\n      {outcome.stderr.strip()[-300:]}", flush=True)
        tally.calls += 1

    one()
    tally.seconds = time.perf_counter() - start
    return tally


def run_forged_npy_campaign(examples: int, *, seed: int, seconds: float, memory_gib: float,
                            progress: bool = False) -> Tally:
    """Draw ``examples`` forged ``.npy`` headers, each given to an option that reads ``.npy`` files."""
    from tests.fuzz.user_code_cases import NPY_COMMANDS, ForgedNpy, forged_npy_cases, run_forged_npy

    tally = Tally()
    isolator = Isolator(["reference.cli.main", "tests.fuzz.cli_cases", "tests.fuzz.user_code_cases"],
                        seconds=seconds, memory_bytes=int(memory_gib * GIB))
    start = time.perf_counter()

    @hypothesis_seed(seed)
    @settings(max_examples=examples, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(forged_npy_cases())
    def one(case: ForgedNpy) -> None:
        outcome = isolator.run(run_forged_npy, case)
        kind = _classify(outcome, ())
        tally.add(kind, case.describe(), outcome.stderr or outcome.stdout)
        tally.counts[f"class {case.mutation}"] += 1
        if kind == "refused" and not outcome.stderr.strip().startswith(f"reference: error: {case.option}"):
            # the message must name the option whose file it is, and be one line
            tally.add("unnamed", case.describe(), outcome.stderr)
        if kind == "refused" and len(outcome.stderr.strip().splitlines()) != 1:
            tally.add("unnamed", case.describe() + " (more than one line)", outcome.stderr)
        if progress and kind in FAILURES:
            print(f"  {kind}: {case.describe()}\n      {outcome.stderr.strip()[-300:]}", flush=True)
        tally.calls += 1
        assert case.option in NPY_COMMANDS

    one()
    tally.seconds = time.perf_counter() - start
    return tally
