"""The report's independent checks in parallel processes, assembled in the report's order.

The report's work is a list of independent tasks: every claim of the registry, every audit case, every plot. Each
task is deterministic (the statistical checks are seeded) and touches no state another task reads, so running
them in ``jobs`` worker processes changes only *when* each finishes; :func:`run_tasks` puts the results back in
the order of the single-process run, so the report's content is identical for any ``jobs`` (the measured
times of course differ from run to run, as they do between two single-process runs).

A worker rebuilds the registry itself (the checks are closures, which are not sent between processes) and runs
a task by its index; only outcomes, audit cases, plot captions and the Coq evidence travel back. Workers are
started with ``spawn`` (a fresh interpreter: nothing inherited from the parent's threads). Progress is one line
per finished task, ``[done/total]``, printed by the parent only.

Schedule: the Coq compilation (when asked for) is one task, the largest by far (about a third of the quick
report's CPU time, in ``coqc`` processes), so it is submitted first: it then runs beside the other tasks instead
of after them, where it would be a serial tail that no number of workers shortens. The other tasks are many and
short (the longest a few seconds), so the pool's first-free-worker order balances them.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from concurrent.futures import Future, as_completed
from pathlib import Path
from typing import Any, NamedTuple

from reference.core.processes import signals_as_exit
from reference.core.worker_pool import WorkerPool

from .audits import audit_case_count, audit_case_name, run_audit_case
from .coq import coq_status, machine_checked
from .coq_audit_theorems import AUDIT_THEOREMS
from .core.claims import Budget, Outcome, Registry, Result, resolve_conditions, run_claim
from .progress import elapsed_and_estimate
from .registry import build_registry

_REGISTRY: Registry | None = None  # each worker process builds the registry once


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not every platform has sched_getaffinity
        return max(1, os.cpu_count() or 1)


def _registry() -> Registry:
    global _REGISTRY
    if _REGISTRY is None:
        _REGISTRY = build_registry()
    return _REGISTRY


class Finished(NamedTuple):
    """What :func:`run_tasks` returns, in the report's order: the claims' results, the audit cases (None when
    the audits are unavailable), the plots, and the Coq evidence (None unless asked for)."""

    results: list[Result]
    audits: list[Any] | None
    plots: list[tuple[str, str]]
    coq: dict[Any, Any] | None


def available_plots() -> tuple[Callable[[Path, Budget], tuple[str, str]], ...]:
    """The report's plots, or none when matplotlib (the ``report`` extra) is not installed."""
    try:
        from .plots import PLOTS
    except ModuleNotFoundError as error:
        if (error.name or "").split(".")[0] != "matplotlib":
            raise
        return ()
    return PLOTS


def _run_task(kind: str, index: int, quick: bool, directory: str) -> Any:
    """One task, by kind and index (runs in a worker, or in the parent when ``jobs == 1``)."""
    budget = Budget(quick=quick)
    if kind == "coq":
        return machine_checked([*(theorem for claim in _registry().claims for theorem in claim.coq), *AUDIT_THEOREMS])
    if kind == "claim":
        result = run_claim(_registry().claims[index], budget)
        return result.outcome, result.seconds, result.programs
    if kind == "audit":
        return run_audit_case(index)
    return available_plots()[index](Path(directory), budget)


def _label(kind: str, index: int, registry: Registry) -> str:
    if kind == "coq":
        return "Coq theorems"
    if kind == "claim":
        claim = registry.claims[index]
        return f"{claim.paper} {claim.number}"
    if kind == "audit":
        return f"audit case: {audit_case_name(index)}"
    return f"plot: {available_plots()[index].__name__.removeprefix('plot_').replace('_', ' ')}"


def run_tasks(registry: Registry, budget: Budget, directory: Path, jobs: int, say: Callable[[str], None],
              select: Callable[[tuple[str, int]], bool] | None = None, coq: bool = False) -> Finished:
    """Every claim, audit case and plot (those ``select`` keeps; ``registry`` must be :func:`build_registry`'s,
    whose indices the workers use), and with ``coq`` the Coq check of the registered theorems, on ``jobs``
    processes (1: in this process, the Coq check last); results in report order."""
    plot_functions = available_plots()
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a positive integer, got {jobs!r}")
    cases = audit_case_count()
    tasks = [("claim", i) for i in range(len(registry.claims))]
    tasks += [("audit", i) for i in range(cases or 0)] + [("plot", i) for i in range(len(plot_functions))]
    if select is not None:
        tasks = [task for task in tasks if select(task)]
    if coq:  # largest first in the pool (module docstring); last in one process, as the report always ran it
        tasks = [("coq", 0), *tasks] if jobs > 1 else [*tasks, ("coq", 0)]
    done: dict[tuple[str, int], Any] = {}
    total = len(tasks)
    kinds = [kind for kind, _ in tasks]
    say(f"running {total} tasks on {jobs} process{'es' if jobs > 1 else ''}: {kinds.count('claim')} statements, "
        f"{kinds.count('audit')} audit cases, {kinds.count('plot')} plots"
        + (", the Coq proofs (compiled with coqc, the longest task)" if coq else ""))

    started = time.monotonic()

    def finished(task: tuple[str, int], value: Any) -> None:
        done[task] = value
        status = f"{value[0].status.value} " if task[0] == "claim" else ""
        if task[0] == "coq":  # the Coq task's status: closed, or what failed and why (reference_verification.coq)
            status = f"— {coq_status(value).removeprefix('Coq: ').removeprefix('Coq ')} "
        seconds = value[1] if task[0] == "claim" else getattr(value, "seconds", None)
        timing = f"({seconds:.1f} s) " if isinstance(seconds, float) else ""
        clock = elapsed_and_estimate(time.monotonic() - started, len(done), total)
        say(f"[{len(done):>3}/{total}] {_label(*task, registry)} {status}{timing}- {clock}")

    if jobs == 1:
        for task in tasks:
            finished(task, _run_task(*task, budget.quick, str(directory)))
    else:
        # the workers keep numpy's default BLAS threads, as the single-process run has: a float result cannot
        # then differ between the two in its last bits
        # WorkerPool: the workers stop with the report (interrupted, terminated or killed by a CI timeout);
        # a spawned worker starts with this process's sys.path, so it imports the same verification package
        with signals_as_exit(), WorkerPool(jobs) as pool:
            futures: dict[Future[Any], tuple[str, int]] = {
                pool.submit(_run_task, *task, budget.quick, str(directory)): task for task in tasks
            }
            for future in as_completed(futures):
                finished(futures[future], future.result())
    results = []
    for index, claim in enumerate(registry.claims):
        if ("claim", index) in done:
            outcome, seconds, programs = done[("claim", index)]
            assert isinstance(outcome, Outcome)
            results.append(Result(claim, outcome, seconds, programs))
    if select is None:
        # as run_registry does: a proof resting on an entry that is only verified is "proved, conditional" (a
        # selection may leave out the entries a proof rests on, so its results stay as computed)
        results = resolve_conditions(results)
    audits = None if cases is None else [done[("audit", i)] for i in range(cases) if ("audit", i) in done]
    plots = [done[("plot", i)] for i in range(len(plot_functions)) if ("plot", i) in done]
    return Finished(results, audits, plots, done.get(("coq", 0)))
