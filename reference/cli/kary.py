"""``reference kary ...``: KARY digits, exact MSE, tree vertices and matrices, and the counters on a stream."""

from __future__ import annotations

import argparse
from typing import Any

from reference.cli.common import (
    CommandError,
    Subcommands,
    add_command,
    add_epsilon,
    add_seed,
    add_subtraction,
    add_time_limit,
    group,
    nonnegative_int,
    read_stream,
    reading,
    refuse_if_costly,
    signed_int,
)

#: The default of ``--subtraction`` for the commands that evaluate a mechanism (``mse``, ``run``): Algorithm 2,
#: the paper's recommended counter; ``--no-subtraction`` selects Algorithm 1.
MECHANISM_SUBTRACTION = True


def _cmd_kary_digits(args: argparse.Namespace) -> dict[str, Any]:
    from reference.kary import digits as kary_digits

    if args.offset:
        if args.arity % 2 == 1:
            values = kary_digits.offset_digits(args.value, args.arity, args.width)
            kind = "offset (Definition 3.8, odd arity)"
        else:
            values = kary_digits.even_offset_digits(args.value, args.arity, args.width)
            kind = "offset (Definition C.1, even arity)"
    else:
        values = kary_digits.digits(args.value, args.arity, args.width)
        kind = "standard (Definition 3.2)"
    return {"arity": args.arity, "value": args.value, "width": args.width, "kind": kind, "digits": list(values)}


def _algorithm_2_name(arity: int) -> str:
    """Algorithm 2, or for even arity Appendix C's variant (Definition C.1's digits −k/2 + 1..k/2)."""
    if arity % 2:
        return "Algorithm 2 (with subtraction)"
    return "Algorithm 2 (with subtraction), Appendix C's even-arity variant (Definition C.1 digits)"


def _cmd_kary_mse(args: argparse.Namespace) -> dict[str, Any]:
    from reference.core.certified import format_directed
    from reference.kary import digits as kary_digits
    from reference.kary import mse as kary_mse

    if args.subtraction:
        mse = kary_mse.algorithm_2_mse_digit_programme(args.arity, args.horizon)
        height = kary_digits.height_for_horizon(args.arity, args.horizon, offset=True)
        algorithm = _algorithm_2_name(args.arity)
    else:

        mse = kary_mse.algorithm_1_mse_digit_programme(args.arity, args.horizon)
        height = kary_digits.height_for_horizon(args.arity, args.horizon, offset=False)
        algorithm = "Algorithm 1 (no subtraction)"
    return {
        "arity": args.arity,
        "horizon": args.horizon,
        "algorithm": algorithm,
        "height": height,
        "mse_times_epsilon_squared": mse,
        # an exact error printed as one decimal: rounded up, so the decimal is an upper bound too
        "mse_times_epsilon_squared_decimal": format_directed(mse, 17, upward=True),
        "mse_times_epsilon_squared_decimal_rounded": "up",
        "noise": "Laplace, scale height/ε; MSE averaged over t = 1..horizon",
    }


#: Most noisy prefix counts ``kary run`` prints (without ``--out``): 100,000 lines of text is already more
#: than a terminal or a JSON reader wants, and the printing, not the counting, is what takes the time.
MAX_PRINTED_COUNTS = 100_000


def _cmd_kary_run(args: argparse.Namespace) -> dict[str, Any]:
    import numpy as np

    from reference.kary.counter_input import check_stream
    from reference.kary.counters import algorithm_1, algorithm_2_batch

    with reading("--input", args.input):  # the stream's values are the file's: a bad value names --input
        stream = check_stream(read_stream(args.input))
    horizon = int(np.asarray(stream).size)
    if not args.out and horizon > MAX_PRINTED_COUNTS:  # printing is the cost here (about 20 bytes a count)
        raise CommandError(
            f"--input holds {horizon:,} values; at most {MAX_PRINTED_COUNTS:,} noisy counts are printed: "
            "give --out FILE.npy to write them"
        )
    generator = np.random.default_rng(args.seed)
    if not args.subtraction:
        outputs = algorithm_1(stream, args.arity, args.epsilon, generator)
        algorithm = "Algorithm 1 (no subtraction)"
    else:
        outputs = algorithm_2_batch(stream, args.arity, args.epsilon, generator)
        algorithm = _algorithm_2_name(args.arity)
    result: dict[str, Any] = {
        "arity": args.arity,
        "epsilon": args.epsilon,
        "seed": args.seed,
        "algorithm": algorithm,
        "horizon": horizon,
        "noise": "Laplace, scale height/ε (ε-DP for one flipped bit)",
    }
    if args.out:
        np.save(args.out, outputs)
        result["out"] = args.out
    else:
        result["noisy_prefix_counts"] = [repr(float(v)) for v in outputs]
    return result


def _cmd_kary_vertices(args: argparse.Namespace) -> dict[str, Any]:
    from reference.kary import tree as kary_tree

    if args.subtraction:
        signed = kary_tree.algorithm_3_signed_vertices(args.time, args.arity, args.height)
        vertices = [
            {
                "sign": sign,
                "level": level,
                "index": index,
                "leaves": list(kary_tree.vertex_interval((level, index), args.arity)),
            }
            for sign, level, index in signed
        ]
        algorithm = "Algorithm 3 / Algorithm 2 (with subtraction): signed vertices"
    else:
        plain = kary_tree.algorithm_1_vertices(args.time, args.arity, args.height)
        vertices = [
            {
                "sign": 1,
                "level": level,
                "index": index,
                "leaves": list(kary_tree.vertex_interval((level, index), args.arity)),
            }
            for level, index in plain
        ]
        algorithm = "Algorithm 1: vertices"
    return {"arity": args.arity, "height": args.height, "time": args.time, "algorithm": algorithm, "vertices": vertices}


def estimated_matrices_seconds(horizon: int) -> float:
    """Seconds ``kary matrices`` takes at ``horizon`` T on idle cores: measured about 3.4 s at T = 400, growing
    with T² (dense exact T × T products); capped at T = 10**9, which any limit refuses anyway.

    Args:
        horizon: T, the ``--horizon`` (or the tree's capacity when it is not given), an integer >= 0.
    """
    return 3.4 * (min(horizon, 10**9) / 400) ** 2


def _cmd_kary_matrices(args: argparse.Namespace) -> dict[str, Any]:
    from reference.kary import digits as kary_digits
    from reference.kary import tree as kary_tree

    height = kary_digits.check_width(args.height, "--height")
    capacity = (
        kary_digits.offset_capacity(args.arity, height) if args.subtraction else args.arity**height - 1
    )
    steps = args.horizon if args.horizon is not None else capacity
    if steps > kary_tree.MAX_MATRIX_HORIZON:  # refused before any work, naming the options that set the horizon
        source = "--horizon" if args.horizon is not None else f"--arity {args.arity} --height {height} (its capacity)"
        raise CommandError(f"dense exact matrices hold at most horizon {kary_tree.MAX_MATRIX_HORIZON}; {source} "
                           f"gives {steps}: give a smaller --horizon or --height")
    shown = str(steps) if steps < 10**12 else f"about 10**{len(str(steps)) - 1}"
    refuse_if_costly(f"dense exact matrices at horizon {shown} (--arity {args.arity}, --height {height})",
                     estimated_matrices_seconds(steps), args.max_seconds, "seconds", "--max-seconds")
    options = {"subtraction": args.subtraction, "horizon": args.horizon}
    strategy = kary_tree.strategy_matrix(args.arity, args.height, **options)
    reconstruction = kary_tree.reconstruction_matrix(args.arity, args.height, **options)
    sensitivity = kary_tree.sensitivities(args.arity, args.height, **options)
    return {
        "arity": args.arity,
        "height": args.height,
        "subtraction": args.subtraction,
        "vertices": [list(v) for v in kary_tree.used_vertices(args.arity, args.height, **options)],
        "R": [list(row) for row in strategy],
        "L": [list(row) for row in reconstruction],
        "L_times_R_is_A": kary_tree.check_factorization(args.arity, args.height, **options),
        "l1_sensitivity": sensitivity.l1,
        "l2_sensitivity_squared": sensitivity.l2_squared,
    }


def register(commands: Subcommands) -> None:
    """Add ``kary`` and its subcommands to the top-level commands.

    Args:
        commands: the top-level subcommands (what ``add_subparsers`` returned in
            :func:`reference.cli.main.build_parser`) the group is added to.
    """
    kary = group(commands, "kary", "k-ary tree mechanisms for continual counting")
    kary_digits = add_command(kary, "digits", _cmd_kary_digits, "k-ary digits of a value (least significant first)")
    kary_digits.add_argument("--arity", type=nonnegative_int, required=True)
    kary_digits.add_argument("--value", type=signed_int, required=True)
    kary_digits.add_argument("--width", type=nonnegative_int, required=True)
    kary_digits.add_argument("--offset", action="store_true", help="offset digits (Definition 3.8 / C.1)")
    kary_mse = add_command(kary, "mse", _cmd_kary_mse, "exact ε²·MSE over t = 1..T")
    kary_mse.add_argument("--arity", type=nonnegative_int, required=True)
    kary_mse.add_argument("--horizon", type=nonnegative_int, required=True)
    add_subtraction(kary_mse, default=MECHANISM_SUBTRACTION)

    kary_vertices = add_command(kary, "vertices", _cmd_kary_vertices, "the tree vertices an output adds (and signs)")
    kary_vertices.add_argument("--arity", type=nonnegative_int, required=True)
    kary_vertices.add_argument("--height", type=nonnegative_int, required=True)
    kary_vertices.add_argument("--time", type=nonnegative_int, required=True, help="1-based time step t")
    add_subtraction(kary_vertices, default=False, what="Algorithm 3's signed vertices")
    kary_matrices = add_command(
        kary, "matrices", _cmd_kary_matrices, "strategy R and reconstruction L (L·R = A), exact"
    )
    kary_matrices.add_argument("--arity", type=nonnegative_int, required=True)
    kary_matrices.add_argument("--height", type=nonnegative_int, required=True)
    kary_matrices.add_argument("--horizon", type=nonnegative_int, help="T (default: the tree's capacity)")
    add_time_limit(kary_matrices)
    add_subtraction(kary_matrices, default=False, what="the matrices of Algorithm 2 (signed vertices)")
    kary_run = add_command(kary, "run", _cmd_kary_run, "noisy prefix counts of a 0/1 stream (ε-DP)")
    kary_run.add_argument("--arity", type=nonnegative_int, required=True)
    add_epsilon(kary_run, required=True)
    kary_run.add_argument("--input", required=True, help=".npy or text file of 0/1 values")
    add_seed(kary_run)
    kary_run.add_argument("--out", help="write the counts to this .npy file")
    kary_run.set_defaults(out_suffix=".npy")
    add_subtraction(kary_run, default=MECHANISM_SUBTRACTION)
