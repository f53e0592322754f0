"""Audit a user's sampler function at scale: blocks of runs on Dask, exact sufficient statistics, power up front.

:func:`audit_sampler_function` draws ``runs`` runs from the target (:mod:`reference.audit.samples.target`: chunks
with their own seeds, blocks of whole chunks), runs the blocks on Dask — the synchronous scheduler for one
worker, a local process pool for several (nothing to start), or a ``dask.distributed`` cluster when a scheduler
address is given — and merges the blocks' exact statistics as they come back. The blocks are submitted in waves
of twice the worker count, so at most that many blocks' statistics are held at once. Because the draws depend
only on the seed and the chunk size and the statistics are exact integer sums, the verdict and every statistic
are identical for any number of workers, any block size and any completion order (the JSON carries a SHA-256 of
the exact statistics to compare runs).

Before anything is drawn, :func:`power` gives the smallest deviation detected with probability 99% at the
requested run count: the relative error of the noise scale and a correlation error (cascade, KARY), or, for the
discrete samplers, the error in one cell's probability (a total variation at least that large, concentrated in one
cell) and the relative scale error of the whole-law audit they get from the histogram
(:func:`reference.audit.samples.law_audit.audit_histogram`: inconclusive when a 2% scale error cannot be seen).
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from reference.audit.samples.design_audit import smallest_detecting_runs
from reference.audit.samples.drawn_runs import MAX_DRAWN_VALUES
from reference.audit.samples.report import TooFewRunsError
from reference.audit.samples.target import CHUNK_VALUES, Mechanism, call_target, chunk_seed, load_target, run_block
from reference.core.exact_text import message_value
from reference.core.processes import signals_as_exit, worker_environment

#: The default chunk size leaves at least this many chunks (when there are as many runs), so blocks can spread.
MIN_CHUNKS = 64
#: Probability with which the stated deviation is detected.
POWER = 0.99


def _discrete_power(mechanism: Mechanism, draws: int) -> dict[str, float]:
    """The smallest error in one cell's probability that the exact binomial cell tests of the goodness of fit
    detect with probability 99% (exact binomial laws; the worst cell)."""
    from scipy import optimize, stats

    from reference.samplers.fit import MIN_EXPECTED, central_range, distribution_of

    kind = mechanism.kind
    dist = distribution_of(kind, mechanism.parameter)
    lo, hi = central_range(dist, draws, MIN_EXPECTED)
    cells = [dist.at_most(lo - 1), *(dist.probability(x) for x in range(lo, hi + 1)), dist.at_least(hi + 1)]
    level = mechanism.alpha / 3.0 / len(cells)  # the binomial part's share, split over its cells
    worst = 0.0
    for probability in cells:
        upper = float(stats.binom.isf(level / 2.0, draws, probability))
        lower = float(stats.binom.ppf(level / 2.0, draws, probability))
        up = optimize.brentq(lambda q, c=upper: float(stats.binom.sf(c, draws, q)) - POWER, probability, 1.0)
        shift = up - probability
        if lower > 0:
            down = optimize.brentq(lambda q, c=lower: float(stats.binom.cdf(c - 1, draws, q)) - POWER, 0.0, probability)
            shift = max(shift, probability - down)
        worst = max(worst, shift)
    return {"cell_probability_error": worst}


def power(mechanism: Mechanism, runs: int, columns: int) -> dict[str, float]:
    """The deviations detected with probability >= 99% at ``runs`` runs of ``columns`` values (module docstring).

    Args:
        mechanism: what the target claims to sample, with the false-alarm probability ``mechanism.alpha``.
        runs: the number of runs, an integer >= 1.
        columns: the values per run (``2**depth`` for a cascade, the horizon for KARY, any for the discrete
            samplers, whose power is of ``runs × columns`` draws).

    Returns:
        The smallest deviations detected with probability 99%, by name: ``scale_error`` (relative error of the
        noise scale) and, for a cascade, its correlation error, or, for the discrete samplers,
        ``cell_probability_error`` (the error in one cell's probability) beside ``scale_error``.

    Raises:
        TooFewRunsError: ``runs`` is too few for the tests' groups.
    """
    if mechanism.kind == "cascade":
        from reference.audit.samples.cascade_stream import cascade_power

        return cascade_power(mechanism.depth, runs, mechanism.alpha)
    if mechanism.kind in ("kary", "design"):  # the scale test of the whole-law audit the runs will get
        from reference.audit.samples.design_law import design_scale_power, kary_linear_design

        law = mechanism.law()
        design = kary_linear_design(law, mechanism.horizon) if mechanism.kind == "kary" else law
        return {"scale_error": design_scale_power(design, runs, mechanism.alpha)}
    from reference.audit.samples.law_checks import GROUPS
    from reference.audit.samples.scale_test import ScaleTest

    # the whole-law audit's scale test (alpha / GROUPS) beside the cell tests of the pmf fit
    return {**_discrete_power(mechanism, runs * columns),
            "scale_error": ScaleTest(discrete_law(mechanism), mechanism.alpha / GROUPS).detected_error(runs * columns)}


def discrete_law(mechanism: Mechanism) -> Any:
    """The law (:mod:`reference.audit.samples.laws`) of a discrete mechanism.

    Args:
        mechanism: a mechanism of kind ``"discrete-gaussian"`` (``parameter`` is σ²) or ``"discrete-laplace"``
            (``parameter`` is the scale t); any other kind is read as discrete Laplace.

    Returns:
        ``DiscreteGaussian(parameter)`` or ``DiscreteLaplace(parameter)``.
    """
    from reference.audit.samples.laws import DiscreteGaussian, DiscreteLaplace

    return (DiscreteGaussian(mechanism.parameter) if mechanism.kind == "discrete-gaussian"
            else DiscreteLaplace(mechanism.parameter))


def runs_needed(mechanism: Mechanism, columns: int, deviation: float) -> int:
    """The fewest runs (to within 1%) at which the audit detects ``deviation`` with probability >= 99%: a scale
    error (cascade, KARY) or a cell probability error (discrete samplers).

    Args:
        mechanism: what the target claims to sample, with the false-alarm probability ``mechanism.alpha``.
        columns: the values per run (as in :func:`power`).
        deviation: the deviation to detect, > 0: a relative scale error (cascade, KARY, design) or an error in
            one cell's probability (discrete samplers), e.g. ``0.02`` for 2%.

    Returns:
        The fewest runs, to within 1%, at which :func:`power` states ``deviation`` or less.

    Raises:
        ValueError: ``deviation`` is not positive, or no run count up to the search's limit detects it.
    """
    if not deviation > 0:
        raise ValueError(f"deviation must be positive, got {deviation!r}")
    key = "cell_probability_error" if mechanism.kind.startswith("discrete") else "scale_error"

    def detected(runs: int) -> bool:
        try:
            return power(mechanism, runs, columns)[key] <= deviation
        except (TooFewRunsError, ValueError):
            return False

    return smallest_detecting_runs(detected, 16, f"a deviation of {deviation}")


def _digest(moments: Any) -> str:
    """SHA-256 of the exact statistics (integers), in a fixed order."""
    hasher = hashlib.sha256()
    if hasattr(moments, "digest"):  # the runs themselves (designs, KARY)
        return str(moments.digest())
    if hasattr(moments, "counts"):
        hasher.update(repr(sorted(moments.counts.items())).encode())
        return hasher.hexdigest()
    parts = (moments.nodes + moments.siblings if hasattr(moments, "nodes")
             else [*moments.squares, *moments.products, moments.white])
    for sums in parts:
        total = sums.total
        hasher.update(total.tobytes() if total.dtype == np.int64 else repr(total.tolist()).encode())
    if hasattr(moments, "above"):  # the cascade's magnitude counts (its family test)
        hasher.update(moments.above.tobytes())
    return hasher.hexdigest()


def _scheduler(workers: int, address: str | None) -> tuple[dict[str, Any], Callable[[], None]]:
    """Keyword arguments for ``dask.compute`` and a function that releases what they hold."""
    if address is not None:
        import importlib

        try:  # imported by name: an optional dependency, typed or not depending on the installation
            distributed: Any = importlib.import_module("distributed")
        except ImportError:
            raise ValueError("scheduler: a cluster address needs dask.distributed (pip install distributed)") from None
        try:
            client = distributed.Client(address, timeout="10s")
        except (OSError, TimeoutError) as error:
            raise ValueError(f"scheduler: cannot connect to {address!r}: {error}") from None
        return {"scheduler": client.get}, client.close
    if workers == 1:
        return {"scheduler": "synchronous"}, lambda: None
    from reference.core.worker_pool import WorkerPool  # multiprocessing: only when there are worker processes

    pool = WorkerPool(workers)  # its workers stop with the command (interrupted, terminated or killed)
    # chunksize 1: Dask's process scheduler otherwise hands out tasks in batches of 6 (its default), so a wave of
    # 2 × workers blocks went to one worker whole and two workers ran no faster than one
    return ({"scheduler": "processes", "pool": pool, "num_workers": workers, "chunksize": 1},
            pool.release)


def _check_count(value: object, name: str, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return value


def audit_sampler_function(
    target: str, mechanism: Mechanism, runs: int, seed: int, *, workers: int = 1,
    scheduler: str | None = None, block_runs: int | None = None, chunk_runs: int | None = None,
    progress: Callable[[str], None] | None = None, deviation: float | None = None,
    smallest_deviation: float | None = None,
) -> dict[str, Any]:
    """Run the audit (module docstring) and return its JSON-ready result: the verdict ("holds", "fails" or
    "inconclusive": every test passed but a relative scale error of ``smallest_deviation``, default 2%, could not
    be seen with probability 99%), the report, the power stated up front, the plan and a digest of the
    statistics. ``deviation``: also state the runs that would detect it.

    Args:
        target: the sampler as ``"package.module:function"``: batched (``function(generator, runs)`` returning a
            ``runs × n`` array) or one run per call (``function(generator)``).
        mechanism: what the target claims to sample, and the audit's false-alarm probability ``mechanism.alpha``.
        runs: the number of runs to draw, an integer >= 1.
        seed: the root seed, an integer >= 0; the draws depend only on it and the chunk size.
        workers: worker processes, an integer >= 1 (default 1: the blocks in this process); with a cluster it
            sets the wave size (2 × workers blocks at a time) and the default block size only.
        scheduler: the address of a ``dask.distributed`` scheduler (e.g. ``"tcp://host:8786"``), or ``None`` for
            local processes.
        block_runs: the runs per block handed to a worker, a multiple of the chunk size (``None``: about four
            blocks per worker).
        chunk_runs: the runs per chunk, an integer >= 1, the unit of seeds and of memory (``None``: at most
            :data:`~reference.audit.samples.target.CHUNK_VALUES` values and at least 64 chunks when there are
            as many runs); changing it changes the draws.
        progress: a function called with one line of progress at a time (``None``: silent).
        deviation: a deviation (as in :func:`runs_needed`) whose required runs are stated as well (``None``: not).
        smallest_deviation: the relative scale error the runs must detect with probability 99% for a verdict other
            than "inconclusive" (``None``: the default, 2%).

    Returns:
        The JSON-ready result: ``target``, ``mechanism``, ``plan``, ``planned_power`` (and ``runs_for_deviation``
        when ``deviation`` is given), the report's fields with its ``verdict``, ``statistics_sha256``, ``seconds``
        and ``values_per_second`` (or, when the runs are too few, ``verdict`` "inconclusive" and the ``reason``).

    Raises:
        ValueError: a count is not an integer in range, ``block_runs`` is not a multiple of the chunk size, the
            target cannot be loaded, raised, or returned an array of the wrong shape or kind, or a worker died.
    """
    total = _check_count(runs, "runs")
    root = _check_count(seed, "seed", 0)
    count = _check_count(workers, "workers")
    say = progress or (lambda line: None)
    function = load_target(target)
    columns = mechanism.columns()
    if columns is None:  # the discrete samplers accept any width: one probing run
        columns = _probed_width(function, mechanism, root)
    # else the width is the mechanism's (2**depth, the horizon, the noise matrix's rows): every chunk's shape is
    # checked where it is drawn (run_block), the first before anything is folded, with the same one-line error
    if chunk_runs is not None:
        chunk = min(_check_count(chunk_runs, "chunk_runs"), total)
    else:  # a function of the run count and n only (never of the workers): it fixes the draws
        chunk = max(1, min(CHUNK_VALUES // columns, math.ceil(total / MIN_CHUNKS)))
    chunks = math.ceil(total / chunk)
    default_block = chunk * max(1, math.ceil(chunks / (4 * count)))
    block = _check_count(block_runs, "block_runs") if block_runs is not None else default_block
    if block % chunk:
        raise ValueError(f"block_runs must be a multiple of the chunk size {chunk} (the unit of seeds), got {message_value(block)}")
    per_block = block // chunk
    plan = {"runs": total, "values_per_run": columns, "chunk_runs": chunk, "chunks": chunks, "block_runs": block,
            "blocks": math.ceil(chunks / per_block), "workers": count, "scheduler": scheduler or "local", "seed": root}
    result: dict[str, Any] = {"target": target, "mechanism": mechanism.kind, "plan": plan}
    if mechanism.kind in ("kary", "design") and total * columns > MAX_DRAWN_VALUES:
        raise ValueError(f"runs: the whole-law audit of a design holds its draws, at most {MAX_DRAWN_VALUES:,} values "
                         f"(runs × {columns} values per run), got {total * columns:,}")
    try:
        mechanism.new_moments(total)  # too few runs for the tests' groups: inconclusive before drawing
        detectable = power(mechanism, total, columns)
    except (TooFewRunsError, ValueError) as few:
        if isinstance(few, TooFewRunsError) or "large enough" in str(few):
            if mechanism.columns() is not None:  # nothing will be drawn: the target's shape is still checked once
                _probed_width(function, mechanism, root)
            return {**result, "verdict": "inconclusive", "reason": str(few)}
        raise
    # stated before anything is drawn; the report's own "power" lines (named alternatives) follow with its verdict
    result["planned_power"] = {"probability": POWER, **detectable}
    if deviation is not None:
        result["runs_for_deviation"] = {"deviation": deviation, "runs": runs_needed(mechanism, columns, deviation)}
    say("power: detects " + ", ".join(f"{key.replace('_', ' ')} >= {value:.3g}" for key, value in detectable.items())
        + f" with probability {POWER:.0%} at {total:,} runs")
    tasks = [(start, min(start + per_block, chunks)) for start in range(0, chunks, per_block)]
    started = time.perf_counter()
    # local worker processes start with one BLAS thread each; SIGTERM unwinds so that they are stopped
    with worker_environment(), signals_as_exit():
        options, release = _scheduler(count, scheduler)
        merged = _run_waves(tasks, count, options, release, say, started,
                            (target, mechanism, total, chunk, root))
    seconds = time.perf_counter() - started
    result.update(_verdict(mechanism, merged, total, smallest_deviation))
    result["statistics_sha256"] = _digest(merged)
    result["seconds"] = round(seconds, 3)
    result["values_per_second"] = float(f"{total * columns / seconds:.4g}") if seconds > 0 else None
    return result


def _probed_width(function: Any, mechanism: Mechanism, root: int) -> int:
    """The width of one run of the target (one call, with a seed outside the audit's chunks), checked against the
    mechanism's; a wrong shape is refused in one line."""
    probe = call_target(function, chunk_seed(root, 2**63), 1)
    columns = mechanism.columns(probe.shape[-1] if probe.ndim == 2 else None)
    if probe.ndim != 2 or columns is None or probe.shape != (1, columns):
        raise ValueError(f"target must return an array of shape (runs, n) = (1, {columns or 'n'}) for one run, "
                         f"got shape {probe.shape}")
    return columns


def _run_waves(tasks: list[tuple[int, int]], workers: int, options: dict[str, Any], release: Callable[[], None],
               say: Callable[[str], None], started: float, arguments: tuple[Any, ...]) -> Any:
    """Run the blocks in waves of ``2 × workers`` and merge their statistics as each wave returns."""
    merged: Any = None
    if options.get("scheduler") == "synchronous":
        # one local worker: the blocks in order in this process, as Dask's synchronous scheduler runs them, without
        # importing Dask (whose start-up pulls in dask.distributed when it is installed: seconds)
        target, mechanism, runs, chunk_runs, seed = arguments
        try:
            for first in range(0, len(tasks), 2 * workers):
                for span in tasks[first:first + 2 * workers]:
                    moments = run_block(target, mechanism, runs, chunk_runs, seed, span)
                    if merged is None:
                        merged = moments
                    else:
                        merged.merge(moments)
                say(f"blocks {min(first + 2 * workers, len(tasks))}/{len(tasks)} done "
                    f"({time.perf_counter() - started:.1f} s)")
        finally:
            release()
        return merged
    from concurrent.futures.process import BrokenProcessPool

    from dask.base import compute
    from dask.delayed import delayed as lazy

    try:
        wave = 2 * workers
        for first in range(0, len(tasks), wave):
            delayed = [lazy(run_block, pure=True)(*arguments, span) for span in tasks[first:first + wave]]
            for moments in compute(*delayed, **options):  # type: ignore[no-untyped-call]
                if merged is None:
                    merged = moments
                else:
                    merged.merge(moments)
            say(f"blocks {min(first + wave, len(tasks))}/{len(tasks)} done ({time.perf_counter() - started:.1f} s)")
    except BrokenProcessPool:  # a worker died inside the user's target (os._exit, a signal, the OOM killer)
        raise ValueError(f"target {arguments[0]}: a worker process ended abruptly while running it (the target "
                         "exited the process or was killed); run with --workers 1 to see its own error") from None
    finally:
        release()
    return merged


def _verdict(mechanism: Mechanism, moments: Any, runs: int, smallest_deviation: float | None) -> dict[str, Any]:
    """The report of the merged statistics as JSON fields (with its verdict and summary), held to a relative scale
    error of ``smallest_deviation`` (default :data:`reference.audit.samples.law_report.DEFAULT_SMALLEST_DEVIATION`)."""
    from reference.audit.samples.law_report import DEFAULT_SMALLEST_DEVIATION

    deviation = DEFAULT_SMALLEST_DEVIATION if smallest_deviation is None else smallest_deviation
    if mechanism.kind.startswith("discrete"):
        # the whole-law audit from the histogram: scale, distribution (KS and the certified pmf), tails; its
        # verdict is inconclusive when the runs cannot see a 2% scale error
        from reference.audit.samples.law_audit import audit_histogram

        law_report = audit_histogram(dict(moments.counts), discrete_law(mechanism), runs=runs, alpha=mechanism.alpha,
                                     smallest_deviation=deviation)
        found: dict[str, Any] = law_report.as_json()
        found["draws"] = sum(moments.counts.values())
        return found
    if mechanism.kind in ("kary", "design"):
        # the whole-law audit of the runs: family, tails, correlations and scale, inconclusive below 99% power
        from reference.audit.samples.law_audit import audit_samples

        whole = audit_samples(moments.runs(), mechanism.law(), alpha=mechanism.alpha, smallest_deviation=deviation)
        return whole.as_json()
    # the cascade: the streamed tests (second moments and the magnitude counts) with their power, inconclusive
    # when the runs cannot see the scale error
    from reference.audit.samples.cascade_law import cascade_stream_power
    from reference.audit.samples.laws import Cascade

    report = cascade_stream_power(moments.report(mechanism.alpha), Cascade(mechanism.depth, mechanism.sigma),
                                  mechanism.alpha, deviation)
    result: dict[str, Any] = report.as_json()
    return result

