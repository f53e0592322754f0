"""``reference audit sampler-function``: audit a user's sampler function on Dask (:mod:`reference.audit.samples.sampler_function`)."""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction
from typing import Any

from reference.cli.common import (
    CommandError,
    Subcommands,
    add_command,
    add_seed,
    add_time_limit,
    nonnegative_int,
    rational,
    refuse_if_costly,
)
from reference.cli.sampler_mechanisms import (
    SAMPLER_MECHANISMS,
    add_mechanism_options,
    check_mechanism_options,
    tda_level_sigma_squared,
)
from reference.core.validate import parse_rational_text

#: Options of this command beside the mechanisms' table: it draws the runs, so KARY needs their length T.
FUNCTION_EXTRAS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    name: ((("horizon",) if name == "kary" else ()), ("smallest_deviation",)) for name in SAMPLER_MECHANISMS}


def _fraction(text: str, option: str) -> Fraction:
    try:  # the one bounded reader: digits and exponent checked before any big number is built
        value = parse_rational_text(text, option)
    except ValueError:
        raise CommandError(f"{option} must be a positive rational (e.g. 2, 1/2 or 0.5), got {text!r}") from None
    if value <= 0:
        raise CommandError(f"{option} must be a positive rational (e.g. 2, 1/2 or 0.5), got {text!r}")
    return value


def mechanism_from(args: argparse.Namespace) -> Any:
    """The :class:`reference.audit.samples.target.Mechanism` the options describe (``CommandError`` if incomplete).

    Args:
        args: the parsed ``audit sampler-function`` command line: ``args.mechanism`` and that mechanism's options
            (``--depth``, ``--sigma``, ``--arity``, ``--horizon``, ``--noise-matrix``, ``--alpha``, ...), as argparse
            left them (rationals as text).
    """
    from reference.audit.samples.cascade_stream import MAX_STREAM_DEPTH
    from reference.audit.samples.target import Mechanism

    check_mechanism_options(args, FUNCTION_EXTRAS)
    alpha = _fraction(args.alpha, "--alpha")
    if alpha >= 1:
        raise CommandError(f"--alpha must be in (0, 1), got {args.alpha!r}")
    if args.mechanism == "cascade":
        if args.depth > MAX_STREAM_DEPTH:
            raise CommandError(f"--depth must be at most {MAX_STREAM_DEPTH} for the cascade audit, got {args.depth}")
        sigma = _fraction(args.sigma, "--sigma")
        if args.depth == 0:  # one leaf per run, N(0, σ²): the Gaussian's whole-law audit (no sibling to stream)
            return Mechanism("design", noise_matrix=((Fraction(1),),), noise="gaussian", parameter=sigma,
                             alpha=float(alpha))
        return Mechanism("cascade", depth=args.depth, sigma=float(sigma), alpha=float(alpha))
    if args.mechanism == "kary":
        from reference.audit.samples.design_audit import MAX_DESIGN_OUTPUTS

        if not 1 <= args.horizon <= MAX_DESIGN_OUTPUTS:
            raise CommandError(f"--horizon must be in 1..{MAX_DESIGN_OUTPUTS} for the KARY audit, got {args.horizon}")
        return Mechanism("kary", arity=args.arity, algorithm=args.algorithm, horizon=args.horizon,
                         epsilon=_fraction(args.epsilon, "--epsilon"), alpha=float(alpha))
    if args.mechanism == "design":
        from reference.audit.linear.audit import load_exact_matrix
        from reference.audit.samples.design_audit import MAX_DESIGN_OUTPUTS

        matrix = load_exact_matrix(args.noise_matrix, "noise_matrix")
        if not 1 <= len(matrix) <= MAX_DESIGN_OUTPUTS:
            raise CommandError(f"--noise-matrix must have 1..{MAX_DESIGN_OUTPUTS} rows (outputs), got {len(matrix)}")
        variances = None
        if args.draw_variances is not None:
            table = load_exact_matrix(args.draw_variances, "draw_variances")
            variances = tuple(entry for row in table for entry in row)
        return Mechanism("design", noise_matrix=matrix, noise=args.noise, parameter=_fraction(args.scale, "--scale"),
                         draw_variances=variances, alpha=float(alpha))
    if args.mechanism in ("gaussian", "laplace"):  # one value of the law per draw: the design B = [[1]]
        option = "--sigma" if args.mechanism == "gaussian" else "--scale"
        value = _fraction(args.sigma if args.mechanism == "gaussian" else args.scale, option)
        return Mechanism("design", noise_matrix=((Fraction(1),),), noise=args.mechanism, parameter=value,
                         alpha=float(alpha))
    if args.mechanism == "tda-level":  # InfTDA's per-cell noise: the discrete Gaussian of its level σ²
        return Mechanism("discrete-gaussian", parameter=Fraction(tda_level_sigma_squared(args)), alpha=float(alpha))
    parameter = args.sigma_squared if args.mechanism == "discrete-gaussian" else args.scale
    option = "--sigma-squared" if args.mechanism == "discrete-gaussian" else "--scale"
    return Mechanism(args.mechanism, parameter=_fraction(parameter, option), alpha=float(alpha))


def _cmd_sampler_function(args: argparse.Namespace) -> dict[str, Any]:
    from reference.audit.samples.sampler_function import audit_sampler_function

    mechanism = mechanism_from(args)
    if args.runs < 1:
        raise CommandError(f"--runs must be a positive integer, got {args.runs}")
    if args.scheduler is not None and not args.scheduler.strip():
        raise CommandError("--scheduler must be a dask.distributed address such as tcp://127.0.0.1:8786, got ''")
    if args.workers < 1:
        raise CommandError(f"--workers must be a positive integer, got {args.workers}")
    import importlib.util

    if importlib.util.find_spec("dask") is None:  # an optional dependency: the `cluster` extra
        raise CommandError("audit sampler-function runs the sampler on Dask, which is not installed: "
                           "python -m pip install 'exact-dp-reference[cluster]'")
    for option, value in (("--block-runs", args.block_runs), ("--chunk-runs", args.chunk_runs)):
        if value is not None and value < 1:
            raise CommandError(f"{option} must be a positive integer, got {value}")
    # cost before work: the project's own cascade costs about 31 ns a value (draw and exact statistics) on two
    # cores; a user's target is at least that slow, so this estimate is a floor
    columns = mechanism.columns() or 1
    refuse_if_costly(f"{args.runs} runs of {columns} values", args.runs * columns * 31e-9, args.max_seconds,
                     "seconds", "--max-seconds")
    deviation = None
    if args.runs_for_deviation is not None:
        deviation = float(_fraction(args.runs_for_deviation, "--runs-for-deviation"))
    smallest = None
    if args.smallest_deviation is not None:
        smallest = float(_fraction(args.smallest_deviation, "--smallest-deviation"))
        if not smallest < 1:
            raise CommandError(f"--smallest-deviation must be a relative error in (0, 1), got {args.smallest_deviation!r}")

    def say(line: str) -> None:
        # the power statement always (before anything is drawn); block progress only without --json
        if line.startswith("power") or not args.json:
            print(f"audit sampler-function: {line}", file=sys.stderr, flush=True)

    return audit_sampler_function(
        args.target, mechanism, args.runs, args.seed, workers=args.workers, scheduler=args.scheduler,
        block_runs=args.block_runs, chunk_runs=args.chunk_runs, progress=say, deviation=deviation,
        smallest_deviation=smallest,
    )


def register(audit: Subcommands) -> None:
    """Add ``sampler-function`` to the ``audit`` group.

    Args:
        audit: the subcommands of the ``audit`` group, which the command is added to.
    """
    command = add_command(audit, "sampler-function", _cmd_sampler_function,
                          "audit a sampler function f(generator, runs) -> runs × n at scale, on Dask")
    command.add_argument("--target", required=True, help="package.module:function (f(generator, runs) or f(generator))")
    add_mechanism_options(command)
    command.add_argument("--runs", required=True, type=nonnegative_int, help="number of runs to draw and test")
    add_seed(command, required=True)
    command.add_argument("--workers", type=nonnegative_int, default=1, help="parallel workers (default 1)")
    add_time_limit(command)
    command.add_argument("--scheduler", help="a dask.distributed scheduler address (default: local processes)")
    command.add_argument("--block-runs", dest="block_runs", type=nonnegative_int,
                         help="runs per block handed to a worker (a multiple of --chunk-runs)")
    command.add_argument("--chunk-runs", dest="chunk_runs", type=nonnegative_int,
                         help="runs per call of the target, each with its own seed (default: 2^22 values)")
    command.add_argument("--horizon", type=nonnegative_int, help="kary: T, the values per run")
    command.add_argument("--runs-for-deviation", dest="runs_for_deviation", type=rational,
                         help="also state the runs needed to detect this scale (or cell probability) error")
    command.add_argument("--smallest-deviation", dest="smallest_deviation",
                         help="the relative scale error the audit must see with probability 99%% before a pass counts "
                              "(default 0.02; fewer runs: inconclusive, exit 3)")
