"""Command line: ``python -m reference COMMAND ...`` (also installed as the ``reference`` console script).

Every command takes ``--json``. Exact rationals are printed as ``"p/q"`` strings, reals as decimal strings
with at least 15 significant digits. Bad input gives one line on stderr naming the parameter and a non-zero
exit status (2), never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, NoReturn

EXIT_BAD_INPUT = 2


class CommandError(Exception):
    """A user error detected by a command; printed as one line."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are a single line (SPEC §10), not usage plus message."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")


def _jsonable(value: Any) -> Any:
    """Convert Fractions to "p/q", tuples to lists, recursively (and leave str/int/bool/None/float alone)."""
    from reference.core.validate import fraction_text

    if isinstance(value, Fraction):
        return fraction_text(value)
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


def _emit(result: dict[str, Any], as_json: bool) -> None:
    payload = _jsonable(result)
    if as_json:
        json.dump(payload, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return
    for key, value in payload.items():
        if isinstance(value, dict) and "decimal" in value:
            value = f"{value['decimal']} (certified interval: use --json)"
        elif isinstance(value, dict):
            compact = json.dumps(value, ensure_ascii=False)
            value = compact if len(compact) <= 400 else "{...} (use --json)"
        if isinstance(value, list) and value and isinstance(value[0], list) and len(value) > 8:
            value = f"[{len(value)} x {len(value[0])} matrix; use --json to print it]"
        elif isinstance(value, list) and len(value) > 16:
            value = f"[{len(value)} values; use --json or --out to get them]"
        print(f"{key}: {value}")


# --- commands ---------------------------------------------------------------------------------------------


def _cmd_report(args: argparse.Namespace) -> dict[str, Any]:
    from reference.verification.report import run_report

    summary = run_report(out_dir=args.out, quick=args.quick, progress=not args.json)
    return summary


def _cmd_calibrate_cascade(args: argparse.Namespace) -> dict[str, Any]:
    from reference.cip.calibration import calibrate_cascade

    return calibrate_cascade(args.depth, args.epsilon, args.delta, args.neighbours).as_dict()


def _cmd_calibrate_gaussian(args: argparse.Namespace) -> dict[str, Any]:
    from reference.cip.calibration import calibrate_gaussian

    return calibrate_gaussian(args.sensitivity, args.epsilon, args.delta).as_dict()


def _cmd_calibrate_inftda(args: argparse.Namespace) -> dict[str, Any]:
    from reference.tda.calibration import inftda_calibration, inftda_epsilon

    result: dict[str, Any] = inftda_calibration(args.attributes, args.rho).as_json()
    if args.delta is not None:
        result["delta"] = args.delta
        result["epsilon"] = inftda_epsilon(args.attributes, args.rho, args.delta).as_json()
    return result


def _vectors(text: str | None) -> list[list[str]] | None:
    """``--vectors "1,1,1;2,0"``: neighbouring-difference vectors separated by ';', entries by ','."""
    if text is None:
        return None
    vectors = [[entry.strip() for entry in part.split(",") if entry.strip()] for part in text.split(";")]
    if not vectors or any(not vector for vector in vectors):
        raise CommandError("--vectors must be comma-separated entries, vectors separated by ';' (e.g. '1,1,1;2')")
    return vectors


def _cmd_calibrate_laplace(args: argparse.Namespace) -> dict[str, Any]:
    from reference.core.validate import fraction_text
    from reference.privacy.laplace import laplace_scale

    return {
        "l1_sensitivity": args.l1,
        "epsilon": args.epsilon,
        "scale": fraction_text(laplace_scale(args.epsilon, args.l1)),
        "basis": "KARY Lemma A.2: Lap(Δ1/ε) is ε-DP (and the scale is the smallest that is)",
    }


def _cmd_calibrate_laplace_l2(args: argparse.Namespace) -> dict[str, Any]:
    from reference.privacy.laplace_audit import theorem_1_3_report

    if (args.l2 is None) == (args.l2_squared is None):
        raise CommandError("give exactly one of --l2 and --l2-squared")
    vectors = _vectors(args.vectors)
    if vectors is not None and len(vectors) != 1:
        raise CommandError("--vectors takes one vector here")
    report = theorem_1_3_report(
        args.scale,
        args.l1,
        args.l2,
        args.delta,
        l2_sensitivity_squared=args.l2_squared,
        sensitivities=vectors[0] if vectors else None,
    )
    return report.as_json()


def _cmd_calibrate_zcdp(args: argparse.Namespace) -> dict[str, Any]:
    from reference.privacy import zcdp

    if (args.rho is None) == (args.epsilon is None):
        raise CommandError("give exactly one of --rho (convert ρ to ε) and --epsilon (convert (ε, δ) to ρ)")
    if args.rho is not None:
        return {
            "rho": args.rho,
            "delta": args.delta,
            "epsilon_simple": zcdp.epsilon_from_rho_simple(args.rho, args.delta).as_json(),
            "epsilon_tight": zcdp.epsilon_from_rho_tight(args.rho, args.delta).as_json(),
            "basis": "simple: ρ + 2 sqrt(ρ log(1/δ)) (Bun–Steinke Prop. 1.3); tight: CKS 2020 Corollary 13; upper "
            "ends are certified sufficient",
        }
    return {
        "epsilon": args.epsilon,
        "delta": args.delta,
        "rho_simple": zcdp.rho_from_epsilon_delta(args.epsilon, args.delta).as_json(),
        "rho_tight": zcdp.rho_from_epsilon_delta_tight(args.epsilon, args.delta).as_json(),
        "basis": "largest ρ whose conversion meets (ε, δ); lower ends are certified sufficient",
    }


def _cmd_calibrate_laplace_l2_scale(args: argparse.Namespace) -> dict[str, Any]:
    from reference.privacy.laplace import l2_laplace_a, l2_laplace_scale

    if (args.l2 is None) == (args.l2_squared is None):
        raise CommandError("give exactly one of --l2 and --l2-squared")
    scale = l2_laplace_scale(args.epsilon, args.delta, args.l2, l2_sensitivity_squared=args.l2_squared)
    return {
        "epsilon": args.epsilon,
        "delta": args.delta,
        "a": l2_laplace_a(args.epsilon, args.delta).as_json(),
        "scale": scale.decimal(),
        "scale_interval": scale.as_json(),
        "scale_sufficient_rational": scale.upper,
        "basis": "KARY Lemma 5.5: Lap(Δ2/a)^d with a = sqrt(2 ln(1/δ))(sqrt(1 + ε/ln(1/δ)) − 1), ε, δ ∈ (0, 1)",
    }


def _cmd_audit_calibration(args: argparse.Namespace) -> dict[str, Any]:
    from reference.audit import calibration as audit

    mechanism = args.mechanism
    vectors = _vectors(args.vectors)
    if mechanism == "gaussian":
        if args.sigma is None or args.sensitivity_squared is None:
            raise CommandError("gaussian needs --sigma and --sensitivity-squared")
        verdict = audit.audit_gaussian(args.sigma, args.sensitivity_squared, args.epsilon, args.delta)
    elif mechanism == "laplace":
        if args.scale is None or vectors is None:
            raise CommandError("laplace needs --scale and --vectors")
        verdict = audit.audit_laplace(args.scale, args.epsilon, args.delta, vectors)
    elif mechanism == "laplace-l2":
        if args.scale is None or args.l1 is None or args.sensitivity_squared is None:
            raise CommandError("laplace-l2 needs --scale, --l1 and --sensitivity-squared (Δ2²)")
        verdict = audit.audit_laplace_l2(
            args.scale, args.l1, args.sensitivity_squared, args.epsilon, args.delta, vectors
        )
    else:
        if args.sigma_squared is None or args.sensitivity is None:
            raise CommandError("discrete-gaussian needs --sigma-squared and --sensitivity (an integer)")
        try:
            sensitivity = int(args.sensitivity)
        except ValueError:
            raise CommandError(f"--sensitivity must be a positive integer, got {args.sensitivity!r}") from None
        verdict = audit.audit_discrete_gaussian(args.sigma_squared, sensitivity, args.epsilon, args.delta, args.rho)
    result = verdict.as_json()
    result["summary"] = verdict.summary()
    return result


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


def _cmd_kary_mse(args: argparse.Namespace) -> dict[str, Any]:
    from reference.kary import digits as kary_digits
    from reference.kary import mse as kary_mse

    if args.subtraction:
        if args.arity % 2 == 0:
            raise CommandError("--subtraction needs an odd --arity (Algorithm 2, Definition 3.8)")
        mse = kary_mse.algorithm_2_mse_dp(args.arity, args.horizon)
        height = kary_digits.height_for_horizon(args.arity, args.horizon, offset=True)
        algorithm = "Algorithm 2 (with subtraction)"
    else:
        from reference.kary import tree as kary_tree

        mse = kary_tree.algorithm_1_mse_dp(args.arity, args.horizon)
        height = kary_digits.height_for_horizon(args.arity, args.horizon, offset=False)
        algorithm = "Algorithm 1 (no subtraction)"
    return {
        "arity": args.arity,
        "horizon": args.horizon,
        "algorithm": algorithm,
        "height": height,
        "mse_times_epsilon_squared": mse,
        "mse_times_epsilon_squared_decimal": f"{float(mse):.17g}",
        "noise": "Laplace, scale height/ε; MSE averaged over t = 1..horizon",
    }


def _read_stream(path: str) -> Any:
    """A 0/1 stream from a .npy file or a text file of 0/1 values separated by whitespace or commas."""
    import numpy as np

    try:
        if path.endswith(".npy"):
            return np.load(path)
        with open(path, encoding="utf-8") as handle:
            text = handle.read().replace(",", " ").split()
    except OSError as exc:
        raise CommandError(f"--input: cannot read {path!r}: {exc.strerror}") from None
    try:
        return np.array([int(token) for token in text], dtype=np.int64)
    except ValueError:
        raise CommandError(f"--input: {path!r} must hold 0/1 values separated by whitespace or commas") from None


def _cmd_kary_run(args: argparse.Namespace) -> dict[str, Any]:
    import numpy as np

    from reference.kary.counters import algorithm_1, algorithm_2_batch

    stream = _read_stream(args.input)
    generator = np.random.default_rng(args.seed)
    if args.no_subtraction:
        outputs = algorithm_1(stream, args.arity, args.epsilon, generator)
        algorithm = "Algorithm 1 (no subtraction)"
    else:
        outputs = algorithm_2_batch(stream, args.arity, args.epsilon, generator)
        algorithm = "Algorithm 2 (with subtraction)"
    result: dict[str, Any] = {
        "arity": args.arity,
        "epsilon": args.epsilon,
        "seed": args.seed,
        "algorithm": algorithm,
        "horizon": int(np.asarray(stream).size),
        "noise": "Laplace, scale height/ε (ε-DP for one flipped bit)",
    }
    if args.out:
        if not args.out.endswith(".npy"):
            raise CommandError("--out must name a .npy file")
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


def _cmd_kary_matrices(args: argparse.Namespace) -> dict[str, Any]:
    from reference.kary import tree as kary_tree

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


def _cmd_inftda_intopt(args: argparse.Namespace) -> dict[str, Any]:
    from reference.tda.intopt import chebyshev_distance, intopt_with_count

    try:
        values = [int(token) for token in args.values.split(",") if token.strip()]
    except ValueError:
        raise CommandError(f"--values must be comma-separated integers, got {args.values!r}") from None
    try:
        total = int(args.total)
    except ValueError:
        raise CommandError(f"--total must be an integer >= 0, got {args.total!r}") from None
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

    from reference.core.validate import fraction_text
    from reference.tda.calibration import inftda_sigma_squared
    from reference.tda.data import default_dataset, expand_records, prefix_counts, read_csv, write_csv
    from reference.tda.mechanism import inftda_numeric

    note = "category universes fixed by the embedded dataset's declaration"
    if args.data:
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

    rho = float(Fraction(args.rho)) if args.rho.strip() else 0.0
    released = inftda_numeric(tree, hierarchy, rho, np.random.default_rng(args.seed), progress=progress)
    leaves = released.leaves()
    result: dict[str, Any] = {
        "data": source,
        "records": int(tree.total),
        "attributes": list(hierarchy.attributes),
        "rho": args.rho,
        "sigma_squared_per_level": fraction_text(inftda_sigma_squared(hierarchy.depth, args.rho)),
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


def _cmd_audit_linear_noise(args: argparse.Namespace) -> dict[str, Any]:
    from reference.audit import linear_noise as audit_linear
    from reference.core.validate import fraction_text

    noise_matrix = audit_linear.load_exact_matrix(args.noise_matrix, "noise_matrix")
    workload = audit_linear.load_exact_matrix(args.workload, "workload")
    verdict = audit_linear.audit_linear_noise(noise_matrix, workload, args.noise, args.scale)
    result: dict[str, Any] = {
        "noise": args.noise,
        "scale": args.scale,
        "private": verdict.private,
        "first_offending_column": verdict.first_offending_column,
        "rank": verdict.rank,
        "kernel_dimension": verdict.kernel_dimension,
        "l1_sensitivity": verdict.l1_sensitivity,
        "l2_sensitivity_squared": verdict.l2_sensitivity_squared,
        "epsilon": verdict.epsilon,
        "epsilon_exact": verdict.epsilon_exact,
        "rho": verdict.rho,
        "explanation": verdict.explanation,
    }
    if args.epsilon is not None and args.noise == "gaussian" and verdict.private:
        result["delta_at_epsilon"] = verdict.delta(args.epsilon).as_json()
    if args.oracle is not None:
        oracle = audit_linear.load_exact_matrix(args.oracle, "oracle_covariance")
        differences = audit_linear.compare_covariance(noise_matrix, args.scale, args.noise, oracle)
        result["covariance_matches_oracle"] = not differences
        result["first_differences"] = [
            {"row": d.row, "column": d.column, "actual": fraction_text(d.actual), "expected": fraction_text(d.expected)}
            for d in differences
        ]
    return {key: value for key, value in result.items()}


def _cmd_audit_samplers(args: argparse.Namespace) -> dict[str, Any]:
    from reference.audit import samplers as audit_samplers

    samples = audit_samplers.load_samples(args.samples)
    alpha = float(Fraction(args.alpha))
    if args.mechanism == "cascade":
        if args.depth is None or args.sigma is None:
            raise CommandError("cascade needs --depth and --sigma")
        report = audit_samplers.audit_cascade_samples(samples, args.depth, float(Fraction(args.sigma)), alpha)
    else:
        if args.arity is None or args.epsilon is None:
            raise CommandError("kary needs --arity and --epsilon")
        report = audit_samplers.audit_kary_noise(samples, args.arity, float(Fraction(args.epsilon)), alpha)
    result: dict[str, Any] = report.to_json()
    if not report.passed:
        result["exit_status"] = 1
    return result


def _cmd_cascade_matrix(args: argparse.Namespace) -> dict[str, Any]:
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

    from reference.core.validate import positive_real
    from reference.cip.numeric.cascade import cascade_leaves, cascade_tree

    sigma = positive_real(args.sigma, "--sigma")
    sampler = cascade_tree if args.nodes else cascade_leaves
    values = sampler(args.depth, sigma, np.random.default_rng(args.seed))
    result: dict[str, Any] = {
        "depth": args.depth,
        "sigma": args.sigma,
        "seed": args.seed,
        "layout": "all 2n-1 nodes in level order" if args.nodes else "leaves",
        "count": int(values.size),
    }
    if args.out:
        if not args.out.endswith(".npy"):
            raise CommandError("--out must name a .npy file")
        np.save(args.out, values)
        result["out"] = args.out
    else:
        result["values"] = [repr(float(v)) for v in values]
    return result


# --- parser -----------------------------------------------------------------------------------------------


def _nonnegative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser (public so that the README's examples can be tested against it)."""
    parser = _Parser(prog="reference", description=__doc__.splitlines()[0] if __doc__ else None)
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def add(sub: Any, name: str, handler: Callable[[argparse.Namespace], dict[str, Any]], text: str) -> Any:
        command = sub.add_parser(name, help=text, description=text)
        command.add_argument("--json", action="store_true", help="print JSON")
        command.set_defaults(handler=handler)
        return command

    report = add(commands, "report", _cmd_report, "rerun the claims registry and write the report")
    report.add_argument("--out", default="reference-report", help="output directory (default: reference-report)")
    report.add_argument("--quick", action="store_true", help="smaller budgets (as the tests use)")

    calibrate = commands.add_parser("calibrate", help="privacy calibrations").add_subparsers(
        dest="what", required=True, parser_class=_Parser
    )
    cascade_cal = add(calibrate, "cascade", _cmd_calibrate_cascade, "σ for N(0, σ² C_depth) at (ε, δ)")
    cascade_cal.add_argument("--depth", type=_nonnegative_int, required=True)
    cascade_cal.add_argument("--epsilon", required=True, help="exact rational, e.g. 1/2 or 0.5")
    cascade_cal.add_argument("--delta", required=True, help="exact rational in (0, 1), e.g. 1e-6")
    cascade_cal.add_argument("--neighbours", default="add_remove", choices=["add_remove", "substitution"])
    gaussian_cal = add(calibrate, "gaussian", _cmd_calibrate_gaussian, "σ of the scalar Gaussian mechanism")
    gaussian_cal.add_argument("--sensitivity", required=True, help="ℓ2 sensitivity Δ > 0 (exact rational)")
    gaussian_cal.add_argument("--epsilon", required=True)
    gaussian_cal.add_argument("--delta", required=True)

    inftda_cal = add(calibrate, "inftda", _cmd_calibrate_inftda, "σ² per level of InfTDA for ρ-zCDP (exact)")
    inftda_cal.add_argument("--attributes", type=_nonnegative_int, required=True, help="number of attributes d >= 1")
    inftda_cal.add_argument("--rho", required=True, help="zCDP budget ρ > 0 (exact rational)")
    inftda_cal.add_argument("--delta", help="also convert to (ε, δ)-DP (tight zCDP conversion, certified)")

    laplace_cal = add(calibrate, "laplace", _cmd_calibrate_laplace, "Laplace scale for ε-DP (KARY Lemma A.2)")
    laplace_cal.add_argument("--l1", required=True, help="ℓ1 sensitivity Δ1 > 0")
    laplace_cal.add_argument("--epsilon", required=True)
    laplace_l2 = add(
        calibrate, "laplace-l2", _cmd_calibrate_laplace_l2, "(ε, δ) of Laplace noise via ℓ2 sensitivity (Theorem 1.3)"
    )
    laplace_l2.add_argument("--l1", required=True, help="ℓ1 sensitivity Δ1")
    laplace_l2.add_argument("--l2", help="ℓ2 sensitivity Δ2 (or --l2-squared)")
    laplace_l2.add_argument("--l2-squared", dest="l2_squared", help="Δ2², exact (Δ2 is often irrational)")
    laplace_l2.add_argument("--scale", required=True, help="Laplace scale λ > Δ1")
    laplace_l2.add_argument("--delta", required=True)
    laplace_l2.add_argument("--vectors", help="the neighbouring-difference vector for the exact profile, e.g. '1,1,1'")

    zcdp_cal = add(calibrate, "zcdp", _cmd_calibrate_zcdp, "zCDP ρ to (ε, δ) and back (certified)")
    zcdp_cal.add_argument("--rho", help="convert this ρ to ε at --delta")
    zcdp_cal.add_argument("--epsilon", help="or: the largest ρ meeting (--epsilon, --delta)")
    zcdp_cal.add_argument("--delta", required=True)
    l2_scale = add(
        calibrate, "laplace-l2-scale", _cmd_calibrate_laplace_l2_scale, "Laplace scale from ℓ2 sensitivity (Lemma 5.5)"
    )
    l2_scale.add_argument("--l2", help="ℓ2 sensitivity Δ2 (or --l2-squared)")
    l2_scale.add_argument("--l2-squared", dest="l2_squared", help="Δ2², exact")
    l2_scale.add_argument("--epsilon", required=True)
    l2_scale.add_argument("--delta", required=True)

    audit = commands.add_parser("audit", help="audits of other implementations").add_subparsers(
        dest="what", required=True, parser_class=_Parser
    )
    audit_cal = add(audit, "calibration", _cmd_audit_calibration, "certified verdict on a claimed privacy level")
    audit_cal.add_argument(
        "--mechanism", required=True, choices=["gaussian", "laplace", "laplace-l2", "discrete-gaussian"]
    )
    audit_cal.add_argument("--epsilon", help="claimed ε")
    audit_cal.add_argument("--delta", default="0", help="claimed δ (0 for pure DP)")
    audit_cal.add_argument("--rho", help="claimed ρ (discrete-gaussian zCDP claim)")
    audit_cal.add_argument("--sigma", help="Gaussian standard deviation σ")
    audit_cal.add_argument("--sigma-squared", dest="sigma_squared", help="discrete Gaussian scale σ²")
    audit_cal.add_argument("--scale", help="Laplace scale b")
    audit_cal.add_argument("--l1", help="ℓ1 sensitivity (laplace-l2)")
    audit_cal.add_argument(
        "--sensitivity-squared", dest="sensitivity_squared", help="Δ² (gaussian; Δ2² for laplace-l2)"
    )
    audit_cal.add_argument("--sensitivity", help="integer sensitivity Δ (discrete-gaussian)")
    audit_cal.add_argument("--vectors", help="neighbouring-difference vectors, e.g. '1,1,1;2,0' (laplace)")

    kary = commands.add_parser("kary", help="k-ary tree mechanisms for continual counting").add_subparsers(
        dest="what", required=True, parser_class=_Parser
    )
    kary_digits = add(kary, "digits", _cmd_kary_digits, "k-ary digits of a value (least significant first)")
    kary_digits.add_argument("--arity", type=_nonnegative_int, required=True)
    kary_digits.add_argument("--value", type=int, required=True)
    kary_digits.add_argument("--width", type=_nonnegative_int, required=True)
    kary_digits.add_argument("--offset", action="store_true", help="offset digits (Definition 3.8 / C.1)")
    kary_mse = add(kary, "mse", _cmd_kary_mse, "exact ε²·MSE over t = 1..T")
    kary_mse.add_argument("--arity", type=_nonnegative_int, required=True)
    kary_mse.add_argument("--horizon", type=_nonnegative_int, required=True)
    kary_mse.add_argument("--subtraction", action="store_true", help="Algorithm 2 (default: Algorithm 1)")

    kary_vertices = add(kary, "vertices", _cmd_kary_vertices, "the tree vertices an output adds (and signs)")
    kary_vertices.add_argument("--arity", type=_nonnegative_int, required=True)
    kary_vertices.add_argument("--height", type=_nonnegative_int, required=True)
    kary_vertices.add_argument("--time", type=_nonnegative_int, required=True, help="1-based time step t")
    kary_vertices.add_argument("--subtraction", action="store_true", help="Algorithm 3's signed vertices")
    kary_matrices = add(kary, "matrices", _cmd_kary_matrices, "strategy R and reconstruction L (L·R = A), exact")
    kary_matrices.add_argument("--arity", type=_nonnegative_int, required=True)
    kary_matrices.add_argument("--height", type=_nonnegative_int, required=True)
    kary_matrices.add_argument("--horizon", type=_nonnegative_int, help="T (default: the tree's capacity)")
    kary_matrices.add_argument("--subtraction", action="store_true")
    kary_run = add(kary, "run", _cmd_kary_run, "noisy prefix counts of a 0/1 stream (ε-DP)")
    kary_run.add_argument("--arity", type=_nonnegative_int, required=True)
    kary_run.add_argument("--epsilon", required=True)
    kary_run.add_argument("--input", required=True, help=".npy or text file of 0/1 values")
    kary_run.add_argument("--seed", type=_nonnegative_int, help="seed (default: operating-system entropy)")
    kary_run.add_argument("--out", help="write the counts to this .npy file")
    kary_run.add_argument("--no-subtraction", action="store_true", help="Algorithm 1 instead of Algorithm 2")

    inftda = commands.add_parser("inftda", help="InfTDA (top-down hierarchical counts)").add_subparsers(
        dest="what", required=True, parser_class=_Parser
    )
    intopt_cmd = add(
        inftda, "intopt", _cmd_inftda_intopt, "IntOpt: closest non-negative integers with a given sum (ℓ∞)"
    )
    intopt_cmd.add_argument("--values", required=True, help="comma-separated integers, e.g. 3,-1,5")
    intopt_cmd.add_argument("--total", required=True, help="the required sum c >= 0")

    run_cmd = add(inftda, "run", _cmd_inftda_run, "release a synthetic dataset with InfTDA (ρ-zCDP)")
    run_cmd.add_argument("--data", help="CSV with a header; attribute order = hierarchy (default: embedded dataset)")
    run_cmd.add_argument("--rho", required=True, help="zCDP budget ρ > 0")
    run_cmd.add_argument("--seed", type=_nonnegative_int, help="seed (default: operating-system entropy)")
    run_cmd.add_argument("--out", help="write the synthetic records to this CSV")

    linear_cmd = add(audit, "linear-noise", _cmd_audit_linear_noise, "can W x + B z be private; what it gives (exact)")
    linear_cmd.add_argument("--noise-matrix", dest="noise_matrix", required=True, help="B (.npy int/.csv/.json, exact)")
    linear_cmd.add_argument("--workload", required=True, help="W (outputs × inputs), same formats")
    linear_cmd.add_argument("--noise", required=True, choices=["gaussian", "laplace"])
    linear_cmd.add_argument("--scale", required=True, help="σ (gaussian) or b (laplace), exact rational")
    linear_cmd.add_argument("--epsilon", help="gaussian: also report δ(ε)")
    linear_cmd.add_argument("--oracle", help="the oracle's output covariance to compare with (same formats)")
    samplers_cmd = add(audit, "samplers", _cmd_audit_samplers, "test another implementation's noise samples")
    samplers_cmd.add_argument("--mechanism", required=True, choices=["cascade", "kary"])
    samplers_cmd.add_argument("--samples", required=True, help=".npy or header-less .csv, one run per row")
    samplers_cmd.add_argument("--depth", type=_nonnegative_int, help="cascade depth")
    samplers_cmd.add_argument("--sigma", help="cascade σ (standard deviation)")
    samplers_cmd.add_argument("--arity", type=_nonnegative_int, help="KARY arity (Algorithm 2 output noise)")
    samplers_cmd.add_argument("--epsilon", help="KARY ε")
    samplers_cmd.add_argument("--alpha", default="1e-6", help="total false-alarm probability (default 1e-6)")

    cascade = commands.add_parser("cascade", help="the CIP covariance and Cascade Sampling").add_subparsers(
        dest="what", required=True, parser_class=_Parser
    )
    matrix = add(cascade, "matrix", _cmd_cascade_matrix, "C_depth, its exact inverse and diagonal")
    matrix.add_argument("--depth", type=_nonnegative_int, required=True)
    ranges = add(cascade, "ranges", _cmd_cascade_ranges, "exact variance statistics over all ranges (σ = 1)")
    ranges.add_argument("--depth", type=_nonnegative_int, required=True)
    sample = add(cascade, "sample", _cmd_cascade_sample, "draw Cascade Sampling noise")
    sample.add_argument("--depth", type=_nonnegative_int, required=True)
    sample.add_argument("--sigma", required=True, help="standard deviation σ > 0")
    sample.add_argument("--seed", type=_nonnegative_int, required=True)
    sample.add_argument("--out", help="write the values to this .npy file")
    sample.add_argument("--nodes", action="store_true", help="all 2n-1 node values (level order), not leaves")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result = args.handler(args)
    except (ValueError, TypeError, CommandError, OverflowError) as exc:
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        print(f"reference: error: {message}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("reference: interrupted", file=sys.stderr)
        return 130
    _emit(result, args.json)
    return int(result.get("exit_status", 0)) if isinstance(result, dict) else 0


if __name__ == "__main__":
    sys.exit(main())
