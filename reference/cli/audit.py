"""``reference audit ...``: audits of other implementations (calibration, linear noise, samplers)."""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Any

from reference.cli import conversion, sampler_function
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
from reference.cli.sampler_mechanisms import add_mechanism_options, check_mechanism_options
from reference.core.exact_text import message_value


def _cmd_audit_calibration(args: argparse.Namespace) -> dict[str, Any]:
    from reference.core.certified import UndecidedComparisonError

    try:
        return _audit_calibration(args)
    except UndecidedComparisonError as undecided:
        # the certified comparison could not be decided within the precision allowed: say so, exit 3
        reason = str(undecided).splitlines()[0]
        return {"verdict": "inconclusive", "summary": f"inconclusive: {reason}", "reason": reason}


#: The options each calibration audit reads beside the claim (--epsilon, --delta).
CALIBRATION_OPTIONS = {
    "gaussian": {"sigma", "sigma_squared", "sensitivity", "sensitivity_squared", "rho", "rdp"},
    "laplace": {"scale", "vectors"},
    "laplace-l2": {"scale", "l1", "sensitivity", "sensitivity_squared", "vectors"},
    "discrete-gaussian": {"sigma", "sigma_squared", "sensitivity", "sensitivity_squared", "rho"},
    "discrete-laplace": {"scale", "sensitivity"},
}


def _sensitivity_squared(args: argparse.Namespace, mechanism: str) -> Fraction:
    """Δ² from ``--sensitivity-squared``, or from ``--sensitivity`` (Δ, squared exactly): one spelling of each in
    every command; both, or neither, is refused naming both."""
    from reference.core.validate import parse_rational_text

    if (args.sensitivity is None) == (args.sensitivity_squared is None):
        raise CommandError(f"{mechanism} needs exactly one of --sensitivity-squared (Δ²) and --sensitivity (Δ)")
    if args.sensitivity is not None:
        return parse_rational_text(args.sensitivity, "--sensitivity") ** 2
    return parse_rational_text(args.sensitivity_squared, "--sensitivity-squared")


def _gaussian_renyi(args: argparse.Namespace) -> dict[str, Any]:
    """A ρ or an RDP curve for the Gaussian mechanism, against the exact RDP α Δ²/(2σ²)."""
    from reference.audit.linear.renyi import audit_gaussian_renyi
    from reference.privacy.claims import parse_rdp_text

    if args.epsilon is not None or args.delta is not None:
        raise CommandError("state one claim: --epsilon/--delta, --rho or --rdp")
    if (args.sigma is None) == (args.sigma_squared is None):
        raise CommandError("gaussian needs one of --sigma or --sigma-squared")
    sensitivity_squared = _sensitivity_squared(args, "gaussian")
    if args.rho is not None and args.rdp is not None:
        raise CommandError("state one claim: --rho or --rdp")
    curve = None if args.rdp is None else parse_rdp_text(args.rdp)
    decided = audit_gaussian_renyi(sigma=args.sigma, sigma_squared=args.sigma_squared,
                                   sensitivity_squared=sensitivity_squared, rho=args.rho, rdp=curve,
                                   rtol=_rtol(args))
    return {**decided.as_json(), "mechanism": "gaussian"}


def _rtol(args: argparse.Namespace) -> Any:
    from reference.cli.conversion import rtol_option

    return rtol_option(args)


def _audit_calibration(args: argparse.Namespace) -> dict[str, Any]:
    from reference.audit import calibration as audit

    refuse_foreign(args, CALIBRATION_OPTIONS)
    mechanism = args.mechanism
    vectors = vectors_option(args.vectors)
    if mechanism == "gaussian" and (args.rho is not None or args.rdp is not None):
        return _gaussian_renyi(args)
    if args.rdp is not None:
        raise CommandError("--rdp is decided for --mechanism gaussian")
    if mechanism != "discrete-gaussian" and args.epsilon is None:
        raise CommandError(f"{mechanism} needs --epsilon (the claimed ε)")
    delta = "0" if args.delta is None and mechanism in ("laplace", "laplace-l2", "discrete-laplace") else args.delta
    if mechanism == "gaussian" and delta is None:
        raise CommandError("gaussian needs --delta (the claimed δ, in (0, 1))")
    rtol = _rtol(args)
    if mechanism == "gaussian":
        if (args.sigma is None) == (args.sigma_squared is None):
            raise CommandError("gaussian needs one of --sigma or --sigma-squared")
        verdict = audit.audit_gaussian(sigma=args.sigma, sigma_squared=args.sigma_squared,
                                       sensitivity_squared=_sensitivity_squared(args, "gaussian"),
                                       epsilon=args.epsilon, delta=delta, rtol=rtol)
    elif mechanism == "laplace":
        if args.scale is None or vectors is None:
            raise CommandError("laplace needs --scale and --vectors")
        verdict = audit.audit_laplace(scale=args.scale, epsilon=args.epsilon, delta=delta, sensitivity_vectors=vectors,
                                      rtol=rtol)
    elif mechanism == "discrete-laplace":
        if args.scale is None or args.sensitivity is None:
            raise CommandError("discrete-laplace needs --scale (t) and --sensitivity (an integer)")
        verdict = audit.audit_discrete_laplace(scale=args.scale, sensitivity=_integer_sensitivity(args.sensitivity),
                                               epsilon=args.epsilon, delta=delta, rtol=rtol)
    elif mechanism == "laplace-l2":
        if args.scale is None or args.l1 is None:
            raise CommandError("laplace-l2 needs --scale, --l1 and --sensitivity-squared (Δ2²)")
        verdict = audit.audit_laplace_l2(
            scale=args.scale,
            l1_sensitivity=args.l1,
            l2_sensitivity_squared=_sensitivity_squared(args, "laplace-l2"),
            epsilon=args.epsilon,
            delta=delta,
            sensitivity_vectors=vectors,
            rtol=rtol,
        )
    else:
        if (args.sigma is None) == (args.sigma_squared is None) or (
                (args.sensitivity is None) == (args.sensitivity_squared is None)):
            raise CommandError(
                "discrete-gaussian needs one of --sigma-squared or --sigma, and one of --sensitivity (an integer) or "
                "--sensitivity-squared (a rational Δ², with --rho)"
            )
        sensitivity = None if args.sensitivity is None else _integer_sensitivity(args.sensitivity)
        verdict = audit.audit_discrete_gaussian(
            sigma_squared=args.sigma_squared,
            sigma=args.sigma,
            rtol=rtol,
            sensitivity=sensitivity,
            epsilon=args.epsilon,
            delta=args.delta,
            rho=args.rho,
            sensitivity_squared=args.sensitivity_squared,
        )
    return verdict.as_json()


def _integer_sensitivity(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise CommandError(f"--sensitivity must be a positive integer, got {text!r}") from None


def _indices(text: str | None) -> list[int] | None:
    """``--infinite-variance-draws 3,5``: column indices of B."""
    if text is None:
        return None
    from reference.core.validate import parse_integer_text

    try:
        return [parse_integer_text(part, "--infinite-variance-draws") for part in text.split(",")]
    except ValueError:
        raise CommandError(f"--infinite-variance-draws must be comma-separated column indices, got {text!r}") from None


def _draw_scales(args: argparse.Namespace, limits: Any) -> list[Any] | None:
    """``--draw-scales``: one row or one column of positive rationals (laplace: the draws' scales b·s_j)."""
    if args.draw_scales is None:
        return None
    from reference.audit.linear import audit as audit_linear

    with reading("--draw-scales", args.draw_scales):
        table = audit_linear.load_exact_matrix(args.draw_scales, "draw_scales", limits)
    if len(table) != 1 and any(len(row) != 1 for row in table):
        raise CommandError("--draw-scales must hold one row or one column of positive rationals")
    return [entry for row in table for entry in row]


def _size_limits(args: argparse.Namespace) -> Any:
    """The ``--max-...`` size flags as a :class:`~reference.audit.linear.size_limits.SizeLimits` (unset: defaults)."""
    from dataclasses import replace

    from reference.audit.linear.size_limits import DEFAULT_LIMITS, FLAGS

    given = {field: getattr(args, field_dest(field)) for field in FLAGS if getattr(args, field_dest(field)) is not None}
    return replace(DEFAULT_LIMITS, **given)


def field_dest(field: str) -> str:
    """The argparse destination of a size limit's flag (``nonzeros`` -> ``max_nonzeros``).

    Args:
        field: a field of :class:`~reference.audit.linear.size_limits.SizeLimits` that has a flag (a key of ``FLAGS``,
            such as ``"nonzeros"``).
    """
    return f"max_{field}"


def _positive_limit(text: str) -> int:
    """An argparse type: a size limit, a positive integer."""
    value = nonnegative_int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {message_value(value)}")
    return value


def _cmd_audit_linear_noise(args: argparse.Namespace) -> dict[str, Any]:
    from reference.audit.linear import audit as audit_linear
    from reference.audit.linear.claim_report import claim_report, compare_with_oracle

    limits = _size_limits(args)
    pair = None
    from reference.audit.linear.dyadic_files import dyadic_pair, raw_npz, wants_dyadic

    if args.noise in ("laplace", "gaussian") and wants_dyadic(args.noise_matrix, args.workload):
        # float .npz files on the dyadic path, as in the library (dyadic_files.py)
        with reading("--noise-matrix", args.noise_matrix):
            raw_noise = raw_npz(args.noise_matrix, "noise_matrix", limits)
        with reading("--workload", args.workload):
            raw_workload = raw_npz(args.workload, "workload", limits)
        pair = dyadic_pair(raw_noise, raw_workload)
    if pair is not None:
        noise_matrix, workload = pair
    else:
        with reading("--noise-matrix", args.noise_matrix):
            noise_matrix = audit_linear.load_matrix_columns(args.noise_matrix, "noise_matrix", limits)
        with reading("--workload", args.workload):
            workload = audit_linear.load_matrix_columns(args.workload, "workload", limits)
    draw_variances = None
    if args.draw_variances is not None:
        with reading("--draw-variances", args.draw_variances):
            table = audit_linear.load_exact_matrix(args.draw_variances, "draw_variances", limits)
        if len(table) != 1 and any(len(row) != 1 for row in table):
            raise CommandError("--draw-variances must hold one row or one column of positive rationals")
        draw_variances = [entry for row in table for entry in row]
    participation = None
    if args.participation is not None:
        from reference.audit.linear.participation import parse_participation

        try:
            participation = parse_participation(args.participation, args.contribution)
        except (ValueError, TypeError) as error:
            raise CommandError(f"--participation: {error}") from None
    elif args.contribution is not None:
        raise CommandError("--contribution names what each participation of a --participation scheme contributes; "
                           "give --participation too")
    # the claim is checked before the audit runs (bad input costs nothing); the report decides it
    if sum(claim is not None for claim in (args.epsilon, args.rho, args.rdp)) > 1:
        raise CommandError("state one claim: --epsilon (with --delta), --rho or --rdp")
    if args.delta is not None and args.epsilon is None:
        raise CommandError("--delta states a claim together with --epsilon")
    curve = None
    if args.rdp is not None:
        from reference.audit.linear.renyi import parse_rdp_text

        curve = parse_rdp_text(args.rdp)
    verdict = audit_linear.audit_linear_noise(
        noise_matrix,
        workload,
        args.noise,
        scale=args.scale,
        draw_variances=draw_variances,
        neighbours=args.neighbours,
        contributions=args.contributions,
        participation=participation,
        infinite_variance_draws=_indices(args.infinite_variance_draws),
        rtol=args.rtol,
        draw_scales=_draw_scales(args, limits),
        max_seconds=args.max_seconds,
        size_limits=limits,
    )
    oracle = None
    if args.oracle is not None:
        with reading("--oracle", args.oracle):
            oracle_matrix = audit_linear.load_exact_matrix(args.oracle, "oracle_covariance", limits)
        oracle = compare_with_oracle(audit_linear.dense_input(noise_matrix, "noise_matrix", limits), oracle_matrix,
                                     noise=args.noise, scale=args.scale)
    return claim_report(verdict, epsilon=args.epsilon, delta=args.delta, rho=args.rho, rdp=curve,
                        oracle=oracle).as_json()


def _cmd_audit_samplers(args: argparse.Namespace) -> dict[str, Any]:
    from reference.audit.samples.report import TooFewRunsError

    try:
        return _audit_samplers(args)
    except TooFewRunsError as few:
        # the samples cannot decide at this false-alarm probability: inconclusive, exit 3
        return {"verdict": "inconclusive", "reason": str(few),
                "alpha": args.alpha, "mechanism": args.mechanism}


#: Options of this command beside the mechanisms' table: a cascade file can be streamed at any depth; every
#: mechanism takes the smallest deviation its power is held to.
SAMPLES_EXTRAS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "cascade": ((), ("stream", "smallest_deviation")),
    **{name: ((), ("smallest_deviation",)) for name in
       ("gaussian", "laplace", "kary", "design", "discrete-gaussian", "discrete-laplace", "tda-level")},
}


def _audit_samplers(args: argparse.Namespace) -> dict[str, Any]:
    """Every mechanism, the cascade included: the whole-law audit (:mod:`reference.audit.samples.law_audit`), its
    power against named alternatives, inconclusive (exit 3) when the runs cannot see ``--smallest-deviation``
    (a relative scale error, default 2%). A cascade file is streamed from disk with ``--stream`` or above the
    depth it is whitened at in memory."""
    from reference.audit.samples import audit as audit_samplers
    from reference.audit.samples.cascade_law import MAX_WHITENED_DEPTH
    from reference.audit.samples.law_audit import audit_samples
    from reference.audit.samples.law_report import DEFAULT_SMALLEST_DEVIATION
    from reference.cli.sampler_mechanisms import law_from_args

    check_mechanism_options(args, SAMPLES_EXTRAS)
    alpha = float(Fraction(args.alpha))
    deviation = DEFAULT_SMALLEST_DEVIATION
    if args.smallest_deviation is not None:
        from reference.core.validate import parse_rational_text

        try:
            deviation = float(parse_rational_text(args.smallest_deviation, "--smallest-deviation"))
        except (ValueError, OverflowError):
            deviation = -1.0
        if not 0 < deviation < 1:
            raise CommandError(f"--smallest-deviation must be a relative error in (0, 1), got "
                               f"{args.smallest_deviation!r}")
    with reading("--samples", args.samples):
        shape = audit_samplers.sample_file_shape(args.samples)
    samples: Any = args.samples  # a cascade file streamed from disk stays a path
    if args.mechanism == "cascade":
        if args.depth <= 64:  # a deeper depth is refused by the audit itself, with its own line
            _require_shape(shape, 1 << args.depth, f"2**depth = {1 << args.depth} leaves",
                           "draw them with `cascade sample --runs N`")
        streamed = args.stream or args.depth > MAX_WHITENED_DEPTH
    else:
        _require_shape(shape, None, "values", "one run of the mechanism per row")
        streamed = False
    law = law_from_args(args)
    with reading("--samples", args.samples):
        if not streamed:
            samples = audit_samplers.load_samples(args.samples)
        report = audit_samples(samples, law, alpha=alpha, smallest_deviation=deviation)  # type: ignore[arg-type]
    result: dict[str, Any] = report.as_json()
    result["power_summary"] = "; ".join(
        f"{line.alternative}: probability {line.detection_probability:.3g} at {report.runs:,} runs, "
        + ("more than 10^13" if line.runs_needed is None else f"{line.runs_needed:,}") + " runs for 99%"
        for line in report.power)
    return result


def _require_shape(shape: tuple[int, ...], columns: int | None, what: str, hint: str) -> None:
    """Apply :func:`reference.audit.samples.audit.require_runs_by_columns` as a command-line refusal."""
    from reference.audit.samples.audit import require_runs_by_columns

    try:
        require_runs_by_columns(shape, columns, what)
    except ValueError as error:
        raise CommandError(f"--samples: {error}; {hint}") from None


def _cmd_audit_height(args: argparse.Namespace) -> dict[str, Any]:
    from reference.audit.height_function import check_height_function
    from reference.core.user_code import load_function

    function = load_function(args.function, "--function")
    horizons = None
    if args.horizons is not None:
        low, colon, high = args.horizons.partition(":")
        try:
            horizons = (int(low), int(high)) if colon else None
        except ValueError:
            horizons = None
        if horizons is None:
            raise CommandError(f"--horizons must be LOW:HIGH (integers), got {args.horizons!r}")
    checked = check_height_function(function, arity=args.arity, offset=args.offset, argument=args.argument,
                                    horizons=horizons)
    return checked.as_json()


def register(commands: Subcommands) -> None:
    """Add ``audit`` and its subcommands to the top-level commands.

    Args:
        commands: the top-level subcommands (what ``add_subparsers`` returned in
            :func:`reference.cli.main.build_parser`) the group is added to.
    """
    audit = group(commands, "audit", "audits of other implementations")
    audit_cal = add_command(audit, "calibration", _cmd_audit_calibration, "certified verdict on a claimed privacy level")
    audit_cal.add_argument(
        "--mechanism", required=True,
        choices=["gaussian", "laplace", "laplace-l2", "discrete-gaussian", "discrete-laplace"]
    )
    add_epsilon(audit_cal, text="claimed ε")
    add_delta(audit_cal, text="claimed δ (laplace: default 0, pure DP)")
    audit_cal.add_argument("--rho", help="claimed ρ (a zCDP claim: gaussian, discrete-gaussian)")
    audit_cal.add_argument("--rdp", help="gaussian: a claimed RDP curve, alpha:value pairs, e.g. '2:0.5,4:1'")
    audit_cal.add_argument("--sigma", help="Gaussian-family standard deviation σ (or give --sigma-squared)")
    audit_cal.add_argument("--sigma-squared", dest="sigma_squared",
                           help="Gaussian-family σ² (the variance; the discrete Gaussian's scale), instead of --sigma")
    audit_cal.add_argument("--rtol", help="the claim's relative tolerance, e.g. 1e-12 for a float accountant "
                           "(the achieved ε, δ(ε), ρ or RDP(α) may exceed the claim by this fraction); default 0")
    audit_cal.add_argument("--scale", help="Laplace scale b; discrete-laplace: t in P[x] ∝ exp(-|x|/t)")
    audit_cal.add_argument("--l1", help="ℓ1 sensitivity (laplace-l2)")
    audit_cal.add_argument(
        "--sensitivity-squared",
        dest="sensitivity_squared",
        help="Δ², the squared ℓ2 sensitivity (gaussian, laplace-l2; discrete-gaussian ρ claims of a vector query)",
    )
    audit_cal.add_argument(
        "--sensitivity",
        help="Δ, the ℓ2 sensitivity, instead of --sensitivity-squared (discrete-gaussian, discrete-laplace: an integer)",
    )
    audit_cal.add_argument("--vectors", help="neighbouring-difference vectors, e.g. '1,1,1;2,0' (laplace)")

    linear_cmd = add_command(
        audit, "linear-noise", _cmd_audit_linear_noise, "can W x + B z be private; what it gives (exact)"
    )
    linear_cmd.add_argument("--noise-matrix", dest="noise_matrix", required=True,
                            help="B (.npy, scipy.sparse .npz, .csv or .json; float entries read exactly)")
    linear_cmd.add_argument("--workload", required=True, help="W (outputs × inputs), same formats")
    linear_cmd.add_argument(
        "--noise", required=True, choices=["gaussian", "laplace", "discrete-gaussian", "discrete-laplace"]
    )
    linear_cmd.add_argument("--scale", required=True, help="σ (gaussian kinds) or b (laplace kinds), exact rational")
    add_epsilon(linear_cmd, text="the claimed ε (gaussian: also report δ(ε)); without it the claim is 'private at all'")
    add_delta(linear_cmd, text="the claimed δ (default 0: pure ε-DP)")
    linear_cmd.add_argument("--rho", help="a claimed ρ (zCDP) instead of --epsilon")
    linear_cmd.add_argument("--rdp", help="a claimed RDP curve instead of --epsilon: alpha:value pairs, '2:0.5,4:1'")
    linear_cmd.add_argument(
        "--participation",
        help="which inputs one user touches: any:M, once-per-block:B (restarted trees), min-separation:B,K "
        "(at most K times, at least B steps apart) or fixed-epoch:B,K (at most K times, exactly B steps apart)",
    )
    linear_cmd.add_argument(
        "--contribution", choices=["counts", "signed", "vector"],
        help="what one participation contributes: counts (a value in [0, 1]), signed (a value in [-1, 1]) or vector "
        "(l2 norm <= 1: DP-FTRL); required when the models differ on the workload",
    )
    linear_cmd.add_argument(
        "--draw-scales", dest="draw_scales",
        help="laplace: relative scales s_j of the draws (one row or column, exact): draw j has scale b*s_j",
    )
    linear_cmd.add_argument(
        "--max-seconds", dest="max_seconds", type=nonnegative_int, default=60,
        help="refuse up front a dense exact audit estimated over this many CPU seconds (default 60)",
    )
    from reference.audit.linear.size_limits import DEFAULT_LIMITS, FLAGS, LIMIT_HELP

    for field, flag in FLAGS.items():
        linear_cmd.add_argument(flag, dest=field_dest(field), type=_positive_limit,
                                help=f"{LIMIT_HELP[field]} (default {getattr(DEFAULT_LIMITS, field):,})")
    linear_cmd.add_argument(
        "--rtol", default="0",
        help="relative tolerance of the claim, in [0, 1): the computed epsilon (laplace), delta(epsilon) (gaussian), "
        "rho or RDP(alpha) may exceed the claim by it (matrices built in floats), e.g. 1e-12; default 0",
    )
    linear_cmd.add_argument(
        "--infinite-variance-draws", dest="infinite_variance_draws",
        help="column indices of B whose draws have infinite variance (nodes with a zero budget), e.g. '0,7'",
    )
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
    add_mechanism_options(samplers_cmd)
    samplers_cmd.add_argument("--samples", required=True, help=".npy or header-less .csv, one run per row")
    samplers_cmd.add_argument("--stream", action="store_true", help="cascade: stream the .npy file at any depth")
    samplers_cmd.add_argument(
        "--smallest-deviation", dest="smallest_deviation",
        help="the relative error the audit must be able to see with probability 99%% (cascade: of a node's "
        "standard deviation, default none; others: of the noise scale, default 0.02); inconclusive (exit 3) with "
        "the runs needed when it cannot",
    )
    sampler_function.register(audit)
    conversion.register(audit)
    height_cmd = add_command(audit, "height", _cmd_audit_height,
                             "a tree-height / digit-count function against the exact integer height")
    height_cmd.add_argument("--function", required=True,
                            help="package.module:function, horizon (or leaf count) -> height")
    height_cmd.add_argument("--argument", choices=["horizon", "leaves"], default="horizon",
                            help="what the function takes: the horizon T (default) or the number of leaves n "
                            "(exact height: smallest h with k^h >= n)")
    height_cmd.add_argument("--horizons", help="LOW:HIGH, the range of arguments tried (default 1:2^63; a range of "
                            "at most 100000 is tried in full)")
    height_cmd.add_argument("--arity", type=nonnegative_int, required=True, help="the tree's arity k >= 2")
    height_cmd.add_argument("--offset", action="store_true",
                            help="offset digits (KARY Algorithm 2); default standard digits (Algorithm 1)")
