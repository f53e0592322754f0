"""``reference cascade ...``: CIP's covariance C_depth, exact range statistics, and Cascade Sampling."""

from __future__ import annotations

import argparse
from typing import Any

from reference.cli.common import (
    CommandError,
    Subcommands,
    add_command,
    add_seed,
    add_time_limit,
    group,
    nonnegative_int,
    refuse_if_costly,
)


#: Measured on two cores: the exact matrix, inverse and Lemma B.2 check take about 12 s at depth 10 and triple
#: per depth; the statistics of all ranges about 8 s at depth 15 and quadruple per depth (benchmarks/
#: bench_estimates.py compares both with measured seconds: the ranges were priced at 5 s, 1.3-1.7 times low).
def estimated_matrix_seconds(depth: int) -> float:
    """Seconds ``cascade matrix`` takes at ``depth`` on idle cores: about 12 s at depth 10, tripling per depth.

    Args:
        depth: the value of ``--depth``, an integer >= 0 (past depth 310 the estimate stops growing: any limit refuses
            it anyway).
    """
    return 12.0 * 3.0 ** min(depth - 10, 300)  # capped: beyond, any limit refuses it anyway


def estimated_ranges_seconds(depth: int) -> float:
    """Seconds ``cascade ranges`` takes at ``depth`` on idle cores: about 8 s at depth 15, quadrupling per depth.

    Args:
        depth: the value of ``--depth``, an integer >= 0 (past depth 315 the estimate stops growing).
    """
    return 8.0 * 4.0 ** min(depth - 15, 300)


def sample_value_count(depth: int, *, nodes: bool, runs: int | None) -> int:
    """The float64 values ``cascade sample`` produces, known before sampling: 2**depth leaves (2n - 1 nodes
    with ``--nodes``) per run.

    Args:
        depth: the value of ``--depth``, an integer >= 0 (2**depth leaves).
        nodes: the ``--nodes`` flag: True counts all 2**(depth+1) - 1 nodes per run, False the leaves.
        runs: the value of ``--runs`` (None: one run, a single vector).
    """
    return (((1 << (depth + 1)) - 1) if nodes else 1 << depth) * (runs or 1)


#: Values printed on the terminal or in JSON at most; more go to --out.
MAX_PRINTED_VALUES = 1 << 16


def _cmd_cascade_matrix(args: argparse.Namespace) -> dict[str, Any]:
    refuse_if_costly(f"cascade matrix at depth {args.depth}", estimated_matrix_seconds(args.depth), args.max_seconds,
                     "seconds", "--max-seconds")
    from reference.cip.exact import matrix as cip_matrix

    covariance = cip_matrix.covariance(args.depth)
    inverse = cip_matrix.inverse_by_elimination(args.depth)
    return {
        "depth": args.depth,
        "covariance": covariance,
        "inverse": inverse,
        "inverse_diagonal": [inverse[i][i] for i in range(len(inverse))],
        "inverse_matches_lemma_b2": inverse == cip_matrix.inverse_by_lemma_b2(args.depth),
        "method": "inverse by exact elimination (FLINT fmpq_mat), checked C @ inverse == I exactly",
    }


def _cmd_cascade_ranges(args: argparse.Namespace) -> dict[str, Any]:
    refuse_if_costly(f"all ranges at depth {args.depth}", estimated_ranges_seconds(args.depth), args.max_seconds,
                     "seconds", "--max-seconds")
    from reference.cip.exact import ranges as cip_ranges

    stats = cip_ranges.all_range_statistics(args.depth)
    return {
        "depth": stats.depth,
        "sigma": 1,
        "ranges": stats.count,
        "max_variance": stats.max_variance,
        "argmax": list(stats.argmax),
        "maximisers": [list(pair) for pair in stats.maximisers],
        "total_variance": stats.total_variance,
        "min_variance": stats.min_variance,
    }


def _cmd_cascade_sample(args: argparse.Namespace) -> dict[str, Any]:
    import numpy as np

    from reference.cip.numeric.cascade import cascade_leaves, cascade_tree
    from reference.cip.numeric.cascade_runs import cascade_leaves_runs
    from reference.core.validate import positive_real

    sigma = positive_real(args.sigma, "--sigma")
    if args.runs is not None and args.nodes:
        raise CommandError("--runs draws leaves (runs × 2**depth, what `audit samplers` reads); leave out --nodes")
    if args.runs is not None and args.runs < 1:
        raise CommandError(f"--runs must be a positive integer, got {args.runs}")
    count = sample_value_count(min(args.depth, 200), nodes=args.nodes, runs=args.runs)  # capped: estimate only
    # float64 values, plus the saved or printed copy
    refuse_if_costly(f"cascade sample at depth {args.depth}", 2 * 8 * count / 2**30, args.max_gib, "GiB",
                     "--max-gib")
    if not args.out and count > MAX_PRINTED_VALUES:
        raise CommandError(f"--depth {args.depth}{f' --runs {args.runs}' if args.runs else ''} gives {count} values, more than the {MAX_PRINTED_VALUES} printed: "
                           "write them with --out FILE.npy")
    if args.runs is not None:  # run i is cascade_leaves with the i-th spawned seed of --seed (cascade_runs)
        values = cascade_leaves_runs(args.depth, sigma, args.runs, args.seed)
    else:
        sampler = cascade_tree if args.nodes else cascade_leaves
        values = sampler(args.depth, sigma, np.random.default_rng(args.seed), max_gib=args.max_gib)
    result: dict[str, Any] = {
        "depth": args.depth,
        "sigma": args.sigma,
        "seed": args.seed,
        "layout": ("runs × leaves" if args.runs is not None else
                   "all 2n-1 nodes in level order" if args.nodes else "leaves"),
        "shape": list(values.shape),
        "count": int(values.size),
    }
    if args.out:
        np.save(args.out, values)
        result["out"] = args.out
    else:
        rows = values if values.ndim == 2 else [values]
        printed = [[repr(float(v)) for v in row] for row in rows]
        result["values"] = printed if values.ndim == 2 else printed[0]
    return result


def register(commands: Subcommands) -> None:
    """Add ``cascade`` and its subcommands to the top-level commands.

    Args:
        commands: the top-level subcommands (what ``add_subparsers`` returned in
            :func:`reference.cli.main.build_parser`) the group is added to.
    """
    cascade = group(commands, "cascade", "the CIP covariance and Cascade Sampling")
    matrix = add_command(cascade, "matrix", _cmd_cascade_matrix, "C_depth, its exact inverse and diagonal")
    matrix.add_argument("--depth", type=nonnegative_int, required=True)
    add_time_limit(matrix)
    ranges = add_command(cascade, "ranges", _cmd_cascade_ranges, "exact variance statistics over all ranges (σ = 1)")
    ranges.add_argument("--depth", type=nonnegative_int, required=True)
    add_time_limit(ranges)
    sample = add_command(cascade, "sample", _cmd_cascade_sample, "draw Cascade Sampling noise")
    sample.add_argument("--depth", type=nonnegative_int, required=True)
    sample.add_argument("--sigma", required=True, help="standard deviation σ > 0")
    add_seed(sample, required=True)
    sample.add_argument("--out", help="write the values to this .npy file")
    sample.set_defaults(out_suffix=".npy")
    sample.add_argument("--nodes", action="store_true", help="all 2n-1 node values (level order), not leaves")
    sample.add_argument("--runs", type=nonnegative_int,
                        help="independent runs: a runs × 2**depth array, one run per row (what `audit samplers` reads)")
    sample.add_argument("--max-gib", type=nonnegative_int, default=4,
                        help="refuse a sample whose values need more memory than this (default 4 GiB)")
