"""``reference audit ...``: audits of other implementations (calibration, linear noise, samplers)."""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Any

from reference.cli import sampler_function
from reference.cli.common import (
    CommandError,
    Subcommands,
    add_command,
    add_delta,
    add_epsilon,
    group,
    nonnegative_int,
    reading,
    refuse_foreign,
    vectors_option,
)


def _cmd_audit_calibration(args: argparse.Namespace) -> dict[str, Any]:
    from reference.core.certified import UndecidedComparisonError

    try:
        return _audit_calibration(args)
    except UndecidedComparisonError as undecided:
        # the certified comparison could not be decided within the precision allowed: say so, exit 3
        return {"verdict": "inconclusive", "exit_status": 3, "reason": str(undecided).splitlines()[0]}


#: The options each calibration audit reads beside the claim (--epsilon, --delta).
CALIBRATION_OPTIONS = {
    "gaussian": {"sigma", "sensitivity_squared"},
    "laplace": {"scale", "vectors"},
    "laplace-l2": {"scale", "l1", "sensitivity_squared", "vectors"},
    "discrete-gaussian": {"sigma_squared", "sensitivity", "sensitivity_squared", "rho"},
}


def _audit_calibration(args: argparse.Namespace) -> dict[str, Any]:
    from reference.audit import calibration as audit

    refuse_foreign(args, CALIBRATION_OPTIONS)
    mechanism = args.mechanism
    vectors = vectors_option(args.vectors)
    if mechanism != "discrete-gaussian" and args.epsilon is None:
        raise CommandError(f"{mechanism} needs --epsilon (the claimed ε)")
    delta = "0" if args.delta is None and mechanism in ("laplace", "laplace-l2") else args.delta
    if mechanism == "gaussian" and delta is None:
        raise CommandError("gaussian needs --delta (the claimed δ, in (0, 1))")
    if mechanism == "gaussian":
        if args.sigma is None or args.sensitivity_squared is None:
            raise CommandError("gaussian needs --sigma and --sensitivity-squared")
        verdict = audit.audit_gaussian(args.sigma, args.sensitivity_squared, args.epsilon, delta)
    elif mechanism == "laplace":
        if args.scale is None or vectors is None:
            raise CommandError("laplace needs --scale and --vectors")
        verdict = audit.audit_laplace(args.scale, args.epsilon, delta, vectors)
    elif mechanism == "laplace-l2":
        if args.scale is None or args.l1 is None or args.sensitivity_squared is None:
            raise CommandError("laplace-l2 needs --scale, --l1 and --sensitivity-squared (Δ2²)")
        verdict = audit.audit_laplace_l2(
            args.scale, args.l1, args.sensitivity_squared, args.epsilon, delta, vectors
        )
    else:
        if args.sigma_squared is None or (args.sensitivity is None) == (args.sensitivity_squared is None):
            raise CommandError(
                "discrete-gaussian needs --sigma-squared and one of --sensitivity (an integer) or "
                "--sensitivity-squared (a rational Δ², with --rho)"
            )
        sensitivity = None
        if args.sensitivity is not None:
            try:
                sensitivity = int(args.sensitivity)
            except ValueError:
                raise CommandError(f"--sensitivity must be a positive integer, got {args.sensitivity!r}") from None
        verdict = audit.audit_discrete_gaussian(
            args.sigma_squared, sensitivity, args.epsilon, args.delta, args.rho,
            sensitivity_squared=args.sensitivity_squared,
        )
    result = verdict.as_json()
    result["summary"] = verdict.summary()
    result["verdict"] = "holds" if verdict.holds else "fails"
    result["exit_status"] = 0 if verdict.holds else 1
    return result


def _cmd_audit_linear_noise(args: argparse.Namespace) -> dict[str, Any]:
    from reference.audit import linear_noise as audit_linear
    from reference.core.validate import fraction_text

    with reading("--noise-matrix", args.noise_matrix):
        noise_matrix = audit_linear.load_exact_matrix(args.noise_matrix, "noise_matrix")
    with reading("--workload", args.workload):
        workload = audit_linear.load_exact_matrix(args.workload, "workload")
    draw_variances = None
    if args.draw_variances is not None:
        with reading("--draw-variances", args.draw_variances):
            table = audit_linear.load_exact_matrix(args.draw_variances, "draw_variances")
        if len(table) != 1 and any(len(row) != 1 for row in table):
            raise CommandError("--draw-variances must hold one row or one column of positive rationals")
        draw_variances = [entry for row in table for entry in row]
    verdict = audit_linear.audit_linear_noise(
        noise_matrix,
        workload,
        args.noise,
        args.scale,
        draw_variances=draw_variances,
        neighbours=args.neighbours,
        contributions=args.contributions,
    )
    if args.delta is not None and args.epsilon is None:
        raise CommandError("--delta states a claim together with --epsilon")
    decided = verdict.verdict(args.epsilon, args.delta)
    witness: dict[str, Any] | None = None
    if verdict.lattice_leak is not None:
        witness = verdict.lattice_leak.as_json()
    elif verdict.first_offending_column is not None:
        witness = {"input_outside_noise_span": verdict.first_offending_column}
    result: dict[str, Any] = {
        "verdict": decided,
        "claim": "private at all" if args.epsilon is None else f"epsilon={args.epsilon}, delta={args.delta or 0}",
        "exit_status": audit_linear.EXIT_STATUS[decided],
        "witness": witness,
        "noise": args.noise,
        "scale": args.scale,
        "private": verdict.private,
        "first_offending_column": verdict.first_offending_column,
        "rank": verdict.rank,
        "kernel_dimension": verdict.kernel_dimension,
        "l1_sensitivity": verdict.l1_sensitivity,
        "l2_sensitivity_squared": verdict.l2_sensitivity_squared,
        # ε exact where it is ("p/q", or "infinity" when not private), else null with the certified bounds
        "epsilon": (verdict.epsilon if verdict.epsilon_exact else None) if verdict.private else "infinity",
        "epsilon_exact": verdict.epsilon_exact or not verdict.private,
        "epsilon_lower": (verdict.epsilon if verdict.epsilon_exact else verdict.epsilon_lower)
        if verdict.private else "infinity",
        "epsilon_upper": verdict.epsilon if verdict.private else "infinity",
        "neighbours": verdict.neighbours,
        "contributions": verdict.contributions,
        "rho": verdict.rho,
        "rho_is_bound": verdict.rho_is_bound,
        "explanation": verdict.explanation,
    }
    if args.epsilon is not None and args.noise == "gaussian" and verdict.private:
        result["delta_at_epsilon"] = verdict.delta(args.epsilon).as_json("up")
    if args.oracle is not None:
        with reading("--oracle", args.oracle):
            oracle = audit_linear.load_exact_matrix(args.oracle, "oracle_covariance")
        from reference.audit.covariance import compare_covariance

        differences = compare_covariance(noise_matrix, args.scale, args.noise, oracle)
        result["covariance_matches_oracle"] = not differences
        result["first_differences"] = [
            {"row": d.row, "column": d.column, "actual": fraction_text(d.actual), "expected": fraction_text(d.expected)}
            for d in differences
        ]
    return {key: value for key, value in result.items()}


def _cmd_audit_samplers(args: argparse.Namespace) -> dict[str, Any]:
    from reference.audit.samplers import TooFewRunsError

    try:
        return _audit_samplers(args)
    except TooFewRunsError as few:
        # the samples cannot decide at this false-alarm probability: inconclusive, exit 3
        return {"verdict": "inconclusive", "exit_status": 3, "reason": str(few),
                "alpha": args.alpha, "mechanism": args.mechanism}


def _needs(args: argparse.Namespace, mechanism: str, *names: str) -> None:
    missing = [f"--{name.replace('_', '-')}" for name in names if getattr(args, name) is None]
    if missing:
        raise CommandError(f"{mechanism} needs {', '.join(missing)}")


#: The options each sampler mechanism reads; one of another mechanism is refused, not silently ignored.
SAMPLER_OPTIONS = {
    "cascade": {"depth", "sigma", "stream"},
    "kary": {"arity", "epsilon", "algorithm"},
    "design": {"noise_matrix", "noise", "scale", "draw_variances"},
    "discrete-gaussian": {"sigma_squared"},
    "discrete-laplace": {"scale"},
    "tda-level": {"attributes", "rho", "contributions"},
}
#: Defaults that mean "not given" for the options above.
_SAMPLER_DEFAULTS: dict[str, object] = {"algorithm": 2, "contributions": 1, "stream": False}


def _audit_samplers(args: argparse.Namespace) -> dict[str, Any]:
    from reference.audit import sample_design
    from reference.audit import samplers as audit_samplers
    from reference.audit.cascade_stream import audit_cascade_stream, cascade_power
    from reference.audit.linear_noise import load_exact_matrix

    refuse_foreign(args, SAMPLER_OPTIONS, _SAMPLER_DEFAULTS)
    alpha = float(Fraction(args.alpha))
    mechanism = args.mechanism
    power: list[dict[str, object]] | None = None
    if mechanism == "cascade":
        _needs(args, mechanism, "depth", "sigma")
        with reading("--samples", args.samples):
            shape = audit_samplers.sample_file_shape(args.samples)
        if args.depth <= 64:  # a deeper depth is refused by the audits themselves, with its own line
            _require_shape(shape, 1 << args.depth, f"2**depth = {1 << args.depth} leaves",
                           "draw them with `cascade sample --runs N`")
        in_memory = args.depth <= audit_samplers.MAX_AUDIT_DEPTH and not args.stream
        if in_memory:
            with reading("--samples", args.samples):
                samples = audit_samplers.load_samples(args.samples)
            report = audit_samplers.audit_cascade_samples(samples, args.depth, float(Fraction(args.sigma)), alpha)
        else:  # any depth: streamed from the .npy file in batches of runs
            with reading("--samples", args.samples):
                report = audit_cascade_stream(args.samples, args.depth, float(Fraction(args.sigma)), alpha)
        # both paths run the pooled scale test: the power is the sharper of a node test and that test
        stated = audit_samplers.cascade_samples_power if in_memory else cascade_power
        power = [{"runs": n, **stated(args.depth, n, alpha)} for n in sample_design.POWER_RUNS]
    elif mechanism in ("discrete-gaussian", "discrete-laplace", "tda-level"):
        import numpy as np

        from reference.samplers.fit import fit_to_distribution

        if mechanism == "tda-level":  # InfTDA's per-cell noise N_Z(0, σ²) with σ² = m² d/ρ at every level
            from reference.tda.calibration import inftda_sigma_squared

            _needs(args, mechanism, "attributes", "rho")
            parameter = str(inftda_sigma_squared(args.attributes, args.rho, args.contributions))
            mechanism = "discrete-gaussian"
        else:
            parameter = args.sigma_squared if mechanism == "discrete-gaussian" else args.scale
            _needs(args, mechanism, "sigma_squared" if mechanism == "discrete-gaussian" else "scale")
        with reading("--samples", args.samples):
            samples = audit_samplers.load_samples(args.samples)
        values = samples.reshape(-1)
        if not np.all(np.isfinite(values)) or not np.array_equal(values, np.rint(values)):
            raise CommandError("--samples must hold integers for a discrete sampler")
        fit = fit_to_distribution(values.astype(np.int64), mechanism.replace("-", "_"), parameter, alpha)
        return {"audit": fit.name, "passed": fit.passed, "alpha": args.alpha, "runs": fit.samples,
                  "statistic": fit.statistic, "p_value": fit.p_value, "detail": fit.detail,
                  "verdict": "holds" if fit.passed else "fails", "exit_status": 0 if fit.passed else 1,
                  "power": "not computed for the goodness-of-fit test (see the variance in detail)"}
    else:
        with reading("--samples", args.samples):
            shape = audit_samplers.sample_file_shape(args.samples)
            _require_shape(shape, None, "outputs", "one run of the mechanism per row")
            samples = audit_samplers.load_samples(args.samples)
        if mechanism == "kary" and args.algorithm == 2:
            _needs(args, mechanism, "arity", "epsilon")
            report = audit_samplers.audit_kary_noise(samples, args.arity, float(Fraction(args.epsilon)), alpha)
            design = sample_design.kary_design(args.arity, samples.shape[1], 2, args.epsilon)
        elif mechanism == "kary":
            _needs(args, mechanism, "arity", "epsilon")
            design = sample_design.kary_design(args.arity, samples.shape[1], args.algorithm, args.epsilon)
            report = sample_design.audit_design_samples(samples, design, alpha)
        else:
            _needs(args, mechanism, "noise_matrix", "noise", "scale")
            with reading("--noise-matrix", args.noise_matrix):
                matrix = load_exact_matrix(args.noise_matrix, "noise_matrix")
            variances = None
            if args.draw_variances is not None:
                with reading("--draw-variances", args.draw_variances):
                    table = load_exact_matrix(args.draw_variances, "draw_variances")
                variances = [entry for row in table for entry in row]
            design = sample_design.linear_design(matrix, args.noise, args.scale, variances)
            report = sample_design.audit_design_samples(samples, design, alpha)
        power = sample_design.power_table(design, alpha)
    result: dict[str, Any] = report.as_json()
    result["verdict"] = "holds" if report.passed else "fails"
    result["exit_status"] = 0 if report.passed else 1
    result["power"] = power
    result["power_summary"] = "; ".join(
        f"{row['runs']:,} runs: scale off by {_percent(row['scale_error'])}"
        + (f", correlation off by {row['correlation_error']:.3g}" if "correlation_error" in row else "")
        for row in power
    ) + " (each detected with probability >= 99%)"
    return result


def _require_shape(shape: tuple[int, ...], columns: int | None, what: str, hint: str) -> None:
    """Apply :func:`reference.audit.samplers.require_runs_by_columns` as a command-line refusal."""
    from reference.audit.samplers import require_runs_by_columns

    try:
        require_runs_by_columns(shape, columns, what)
    except ValueError as error:
        raise CommandError(f"--samples: {error}; {hint}") from None


def _percent(value: object) -> str:
    number = float(value)  # type: ignore[arg-type]
    return "any amount (too few runs)" if number == float("inf") else f"{100 * number:.3g}%"


def register(commands: Subcommands) -> None:
    """Add ``audit`` and its subcommands to the top-level commands."""
    audit = group(commands, "audit", "audits of other implementations")
    audit_cal = add_command(audit, "calibration", _cmd_audit_calibration, "certified verdict on a claimed privacy level")
    audit_cal.add_argument(
        "--mechanism", required=True, choices=["gaussian", "laplace", "laplace-l2", "discrete-gaussian"]
    )
    add_epsilon(audit_cal, text="claimed ε")
    add_delta(audit_cal, text="claimed δ (laplace: default 0, pure DP)")
    audit_cal.add_argument("--rho", help="claimed ρ (discrete-gaussian zCDP claim)")
    audit_cal.add_argument("--sigma", help="Gaussian standard deviation σ")
    audit_cal.add_argument("--sigma-squared", dest="sigma_squared", help="discrete Gaussian scale σ²")
    audit_cal.add_argument("--scale", help="Laplace scale b")
    audit_cal.add_argument("--l1", help="ℓ1 sensitivity (laplace-l2)")
    audit_cal.add_argument(
        "--sensitivity-squared",
        dest="sensitivity_squared",
        help="Δ² (gaussian; Δ2² for laplace-l2; discrete-gaussian ρ claims of a vector query)",
    )
    audit_cal.add_argument("--sensitivity", help="integer sensitivity Δ (discrete-gaussian)")
    audit_cal.add_argument("--vectors", help="neighbouring-difference vectors, e.g. '1,1,1;2,0' (laplace)")

    linear_cmd = add_command(
        audit, "linear-noise", _cmd_audit_linear_noise, "can W x + B z be private; what it gives (exact)"
    )
    linear_cmd.add_argument("--noise-matrix", dest="noise_matrix", required=True, help="B (.npy int/.csv/.json, exact)")
    linear_cmd.add_argument("--workload", required=True, help="W (outputs × inputs), same formats")
    linear_cmd.add_argument(
        "--noise", required=True, choices=["gaussian", "laplace", "discrete-gaussian", "discrete-laplace"]
    )
    linear_cmd.add_argument("--scale", required=True, help="σ (gaussian kinds) or b (laplace kinds), exact rational")
    add_epsilon(linear_cmd, text="the claimed ε (gaussian: also report δ(ε)); without it the claim is 'private at all'")
    add_delta(linear_cmd, text="the claimed δ (default 0: pure ε-DP)")
    linear_cmd.add_argument("--oracle", help="the oracle's output covariance to compare with (same formats)")
    linear_cmd.add_argument("--neighbours", default="add_remove", choices=["add_remove", "substitution"])
    linear_cmd.add_argument(
        "--contributions", type=nonnegative_int, default=1, help="records one user may change, m >= 1 (default 1)"
    )
    linear_cmd.add_argument(
        "--draw-variances",
        dest="draw_variances",
        help="gaussian: relative variances of the draws (one row or column, exact), e.g. 3/4 for a cascade's splits",
    )
    samplers_cmd = add_command(audit, "samplers", _cmd_audit_samplers, "test another implementation's noise samples")
    samplers_cmd.add_argument(
        "--mechanism", required=True,
        choices=["cascade", "kary", "design", "discrete-gaussian", "discrete-laplace", "tda-level"],
    )
    samplers_cmd.add_argument("--samples", required=True, help=".npy or header-less .csv, one run per row")
    samplers_cmd.add_argument("--depth", type=nonnegative_int, help="cascade depth (any; above 8 streamed)")
    samplers_cmd.add_argument("--stream", action="store_true", help="cascade: stream the .npy file at any depth")
    samplers_cmd.add_argument("--sigma", help="cascade σ (standard deviation)")
    samplers_cmd.add_argument("--arity", type=nonnegative_int, help="KARY arity")
    samplers_cmd.add_argument("--algorithm", type=int, choices=[1, 2, 3], default=2, help="KARY algorithm (default 2)")
    add_epsilon(samplers_cmd, text="KARY ε")
    samplers_cmd.add_argument("--noise-matrix", dest="noise_matrix", help="design: B (outputs × draws), exact")
    samplers_cmd.add_argument("--draw-variances", dest="draw_variances", help="design, gaussian: draw variance factors")
    samplers_cmd.add_argument("--noise", choices=["gaussian", "laplace"], help="design: the law of the draws")
    samplers_cmd.add_argument("--scale", help="design: σ (gaussian) or b (laplace); discrete-laplace: its scale")
    samplers_cmd.add_argument("--sigma-squared", dest="sigma_squared", help="discrete-gaussian σ²")
    samplers_cmd.add_argument("--attributes", type=nonnegative_int, help="tda-level: the hierarchy's depth d")
    samplers_cmd.add_argument("--rho", help="tda-level: the total zCDP budget rho")
    samplers_cmd.add_argument(
        "--contributions", type=nonnegative_int, default=1, help="tda-level: records per user m (default 1)"
    )
    samplers_cmd.add_argument("--alpha", default="1e-6", help="total false-alarm probability (default 1e-6)")
    sampler_function.register(audit)
