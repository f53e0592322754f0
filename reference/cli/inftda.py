"""``reference inftda ...``: TDA's IntOpt projection and an InfTDA release of a CSV (or the embedded dataset)."""

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
    group,
    integer_list,
    reading,
)
from reference.core.validate import to_fraction


def _cmd_inftda_intopt(args: argparse.Namespace) -> dict[str, Any]:
    from reference.tda.intopt import chebyshev_distance, intopt_with_count

    values = integer_list(args.values, "--values")
    total_exact = to_fraction(args.total, "--total")
    if total_exact.denominator != 1:
        raise CommandError(f"--total must be an integer >= 0, got {args.total!r}")
    total = int(total_exact)
    trace = intopt_with_count(values, total)
    return {
        "values": values,
        "total": total,
        "projection": list(trace.output),
        "chebyshev_distance": chebyshev_distance(values, trace.output),
        "iterations_of_printed_loop": trace.iterations,
        "ties": "broken by (value, category index) ascending",
    }


def _cmd_inftda_run(args: argparse.Namespace) -> dict[str, Any]:
    import numpy as np

    from reference.core.certified import format_directed
    from reference.core.validate import fraction_text, positive_fraction
    from reference.samplers.numeric import MAX_SCALE
    from reference.tda.calibration import inftda_sigma_squared
    from reference.tda.data import default_dataset, expand_records, prefix_counts, read_csv, write_csv
    from reference.tda.mechanism import inftda_numeric

    budget = positive_fraction(args.rho, "--rho")  # checked before any data is read
    if budget > 10**300:  # the numeric release runs in floats: no float holds it (its σ would be ~0 anyway)
        raise CommandError(f"--rho must be within the float range (at most 1e300) for the numeric release, "
                           f"got {args.rho!r}")
    note = "category universes fixed by the embedded dataset's declaration"
    if args.data is not None:
        with reading("--data", args.data):
            hierarchy, records = read_csv(args.data)
        source = args.data
        note = (
            "category universes were read from the data: a category held by one record then appears or vanishes "
            "with it, so for a private release declare the universes (reference.tda.data.read_csv(categories=...))"
        )
    else:
        hierarchy, records = default_dataset()
        source = "embedded default (reference.tda.data.default_dataset, synthetic geography × demographics)"
    tree = prefix_counts(records, hierarchy)

    def progress(level: int, depth: int, released: int) -> None:
        if not args.json:
            print(f"level {level}/{depth}: {released} nodes released", file=sys.stderr, flush=True)

    rho = float(budget)
    if rho <= 0:  # a rho below the float range rounds to 0
        raise CommandError(f"--rho must be a positive number within the float range, got {args.rho!r}")
    # The float sampler caps σ at MAX_SCALE; say so in terms of the option the user typed (σ² = d/ρ per level,
    # computed in floats by the sampler, hence the relative margin of 2^-40 on the bound printed).
    if hierarchy.depth / rho > MAX_SCALE**2:
        smallest_rho = Fraction(hierarchy.depth) / Fraction(MAX_SCALE) ** 2 * (1 + Fraction(1, 2**40))
        raise CommandError(
            f"--rho must be at least {format_directed(smallest_rho, 3, upward=True)} for this {hierarchy.depth}-level "
            f"hierarchy (σ² = d/ρ per level is capped at {MAX_SCALE:g}² by the float sampler), got {args.rho!r}"
        )
    released = inftda_numeric(tree, hierarchy, rho, np.random.default_rng(args.seed), progress=progress)
    leaves = released.leaves()
    result: dict[str, Any] = {
        "data": source,
        "records": int(tree.total),
        "attributes": list(hierarchy.attributes),
        "rho": args.rho,
        "sigma_squared_per_level": fraction_text(inftda_sigma_squared(hierarchy.depth, rho=args.rho)),
        "released_leaves": len(leaves),
        "synthetic_records": int(sum(leaves.values())),
        "categories": note,
    }
    if args.out:
        result["rows_written"] = write_csv(args.out, hierarchy, expand_records(released, hierarchy))
        result["out"] = args.out
    else:
        names = [hierarchy.categories[level] for level in range(hierarchy.depth)]
        result["leaf_counts"] = {
            "/".join(names[i][c] for i, c in enumerate(prefix)): count for prefix, count in sorted(leaves.items())
        }
    return result


def register(commands: Subcommands) -> None:
    """Add ``inftda`` and its subcommands to the top-level commands.

    Args:
        commands: the top-level subcommands (what ``add_subparsers`` returned in
            :func:`reference.cli.main.build_parser`) the group is added to.
    """
    inftda = group(commands, "inftda", "InfTDA (top-down hierarchical counts)")
    intopt_cmd = add_command(
        inftda, "intopt", _cmd_inftda_intopt, "IntOpt: closest non-negative integers with a given sum (ℓ∞)"
    )
    intopt_cmd.add_argument("--values", required=True, help="comma-separated integers, e.g. 3,-1,5")
    intopt_cmd.add_argument("--total", required=True, help="the required sum c >= 0")

    run_cmd = add_command(inftda, "run", _cmd_inftda_run, "release a synthetic dataset with InfTDA (ρ-zCDP)")
    run_cmd.add_argument("--data", help="CSV with a header; attribute order = hierarchy (default: embedded dataset)")
    run_cmd.add_argument("--rho", required=True, help="zCDP budget ρ > 0")
    add_seed(run_cmd)
    run_cmd.add_argument("--out", help="write the synthetic records to this CSV")
