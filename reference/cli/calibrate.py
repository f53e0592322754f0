"""``reference calibrate ...``: privacy calibrations (Gaussian, cascade, Laplace, ℓ2-Laplace, zCDP, InfTDA)."""

from __future__ import annotations

import argparse
from typing import Any

from reference.cli.common import (
    CommandError,
    Subcommands,
    add_command,
    add_delta,
    add_epsilon,
    group,
    nonnegative_int,
    option_names,
    vectors_option,
)


def _cmd_calibrate_cascade(args: argparse.Namespace) -> dict[str, Any]:
    from reference.cip.calibration import calibrate_cascade

    return calibrate_cascade(args.depth, epsilon=args.epsilon, delta=args.delta, neighbours=args.neighbours).as_json()


def _cmd_calibrate_gaussian(args: argparse.Namespace) -> dict[str, Any]:
    from reference.cip.calibration import calibrate_gaussian

    if args.sensitivity_squared is not None:  # one spelling per quantity: Δ² is never read as Δ
        raise CommandError("calibrate gaussian takes Δ itself as --sensitivity; --sensitivity-squared (Δ²) is "
                           "taken by audit calibration")
    if args.sensitivity is None:
        raise CommandError("calibrate gaussian needs --sensitivity (Δ, the ℓ2 sensitivity)")
    return calibrate_gaussian(sensitivity=args.sensitivity, epsilon=args.epsilon, delta=args.delta).as_json()


def _cmd_calibrate_inftda(args: argparse.Namespace) -> dict[str, Any]:
    from reference.tda.calibration import inftda_calibration, inftda_epsilon

    result: dict[str, Any] = inftda_calibration(
        args.attributes, rho=args.rho, contributions=args.contributions
    ).as_json()
    if args.delta is not None:
        result["delta"] = args.delta
        result["epsilon"] = inftda_epsilon(args.attributes, rho=args.rho, delta=args.delta).as_json("up")
    return result


def _cmd_calibrate_laplace(args: argparse.Namespace) -> dict[str, Any]:
    from reference.core.validate import fraction_text
    from reference.kary.privacy import laplace_scale

    return {
        "l1_sensitivity": args.l1,
        "epsilon": args.epsilon,
        "scale": fraction_text(laplace_scale(epsilon=args.epsilon, l1_sensitivity=args.l1)),
        "basis": "KARY Lemma A.2: Lap(Δ1/ε) is ε-DP (and the scale is the smallest that is)",
    }


#: The library's names of the sensitivities, and the options that give them.
_SENSITIVITY_OPTIONS = {"l1_sensitivity": "--l1", "l2_sensitivity": "--l2", "l2_sensitivity_squared": "--l2-squared"}


def _cmd_calibrate_laplace_l2(args: argparse.Namespace) -> dict[str, Any]:
    from reference.kary.theorem_1_3 import theorem_1_3_report

    if (args.l2 is None) == (args.l2_squared is None):
        raise CommandError("give exactly one of --l2 and --l2-squared")
    vectors = vectors_option(args.vectors)
    if vectors is not None and len(vectors) != 1:
        raise CommandError("--vectors takes one vector here")
    with option_names(_SENSITIVITY_OPTIONS):
        report = theorem_1_3_report(
            scale=args.scale,
            l1_sensitivity=args.l1,
            l2_sensitivity=args.l2,
            delta=args.delta,
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
            # an ε the mechanism achieves: rounded up
            "epsilon_simple": zcdp.epsilon_from_rho_simple(rho=args.rho, delta=args.delta).as_json("up"),
            "epsilon_tight": zcdp.epsilon_from_rho_tight(rho=args.rho, delta=args.delta).as_json("up"),
            "basis": "simple: ρ + 2 sqrt(ρ log(1/δ)) (Bun–Steinke Prop. 1.3); tight: CKS 2020 Corollary 13; upper "
            "ends are certified sufficient",
        }
    return {
        "epsilon": args.epsilon,
        "delta": args.delta,
        # a largest admissible ρ must not be exceeded: rounded down
        "rho_simple": zcdp.rho_from_epsilon_delta(epsilon=args.epsilon, delta=args.delta).as_json("down"),
        "rho_tight": zcdp.rho_from_epsilon_delta_tight(epsilon=args.epsilon, delta=args.delta).as_json("down"),
        "basis": "largest ρ whose conversion meets (ε, δ); lower ends are certified sufficient",
    }


def _cmd_calibrate_laplace_l2_scale(args: argparse.Namespace) -> dict[str, Any]:
    from reference.kary.privacy import l2_laplace_a, l2_laplace_scale

    if (args.l2 is None) == (args.l2_squared is None):
        raise CommandError("give exactly one of --l2 and --l2-squared")
    with option_names(_SENSITIVITY_OPTIONS):
        scale = l2_laplace_scale(
            epsilon=args.epsilon, delta=args.delta, l2_sensitivity=args.l2, l2_sensitivity_squared=args.l2_squared
        )
    return {
        "epsilon": args.epsilon,
        "delta": args.delta,
        # the scale is Δ2/a: a larger a means less noise, so a is rounded down and the scale up
        "a": l2_laplace_a(epsilon=args.epsilon, delta=args.delta).as_json("down"),
        "scale": scale.decimal(rounded="up"),
        "scale_rounded": "up",
        "scale_interval": scale.as_json("up"),
        "scale_sufficient_rational": scale.upper,
        "basis": "KARY Lemma 5.5: Lap(Δ2/a)^d with a = sqrt(2 ln(1/δ))(sqrt(1 + ε/ln(1/δ)) − 1), ε, δ ∈ (0, 1)",
    }


def register(commands: Subcommands) -> None:
    """Add ``calibrate`` and its subcommands to the top-level commands.

    Args:
        commands: the top-level subcommands (what ``add_subparsers`` returned in
            :func:`reference.cli.main.build_parser`) the group is added to.
    """
    calibrate = group(commands, "calibrate", "privacy calibrations")
    cascade_cal = add_command(calibrate, "cascade", _cmd_calibrate_cascade, "σ for N(0, σ² C_depth) at (ε, δ)")
    cascade_cal.add_argument("--depth", type=nonnegative_int, required=True)
    add_epsilon(cascade_cal, required=True, text="exact rational, e.g. 1/2 or 0.5")
    add_delta(cascade_cal, required=True, text="exact rational in (0, 1), e.g. 1e-6")
    cascade_cal.add_argument("--neighbours", default="add_remove", choices=["add_remove", "substitution"])
    gaussian_cal = add_command(calibrate, "gaussian", _cmd_calibrate_gaussian, "σ of the scalar Gaussian mechanism")
    gaussian_cal.add_argument("--sensitivity", help="Δ > 0, the ℓ2 sensitivity (exact rational); required")
    gaussian_cal.add_argument("--sensitivity-squared", dest="sensitivity_squared", help=argparse.SUPPRESS)
    add_epsilon(gaussian_cal, required=True)
    add_delta(gaussian_cal, required=True)

    inftda_cal = add_command(calibrate, "inftda", _cmd_calibrate_inftda, "σ² per level of InfTDA for ρ-zCDP (exact)")
    inftda_cal.add_argument("--attributes", type=nonnegative_int, required=True, help="number of attributes d >= 1")
    inftda_cal.add_argument("--rho", required=True, help="zCDP budget ρ > 0 (exact rational)")
    inftda_cal.add_argument(
        "--contributions", type=nonnegative_int, default=1, help="records one user may contribute, m >= 1 (default 1)"
    )
    add_delta(inftda_cal, text="also convert to (ε, δ)-DP (tight zCDP conversion, certified)")

    laplace_cal = add_command(calibrate, "laplace", _cmd_calibrate_laplace, "Laplace scale for ε-DP (KARY Lemma A.2)")
    laplace_cal.add_argument("--l1", required=True, help="ℓ1 sensitivity Δ1 > 0")
    add_epsilon(laplace_cal, required=True)
    laplace_l2 = add_command(
        calibrate, "laplace-l2", _cmd_calibrate_laplace_l2, "(ε, δ) of Laplace noise via ℓ2 sensitivity (Theorem 1.3)"
    )
    laplace_l2.add_argument("--l1", required=True, help="ℓ1 sensitivity Δ1")
    laplace_l2.add_argument("--l2", help="ℓ2 sensitivity Δ2 (or --l2-squared)")
    laplace_l2.add_argument("--l2-squared", dest="l2_squared", help="Δ2², exact (Δ2 is often irrational)")
    laplace_l2.add_argument("--scale", required=True, help="Laplace scale λ > Δ1")
    add_delta(laplace_l2, required=True)
    laplace_l2.add_argument("--vectors", help="the neighbouring-difference vector for the exact profile, e.g. '1,1,1'")

    zcdp_cal = add_command(calibrate, "zcdp", _cmd_calibrate_zcdp, "zCDP ρ to (ε, δ) and back (certified)")
    zcdp_cal.add_argument("--rho", help="convert this ρ to ε at --delta")
    add_epsilon(zcdp_cal, text="or: the largest ρ meeting (--epsilon, --delta)")
    add_delta(zcdp_cal, required=True)
    l2_scale = add_command(
        calibrate, "laplace-l2-scale", _cmd_calibrate_laplace_l2_scale, "Laplace scale from ℓ2 sensitivity (Lemma 5.5)"
    )
    l2_scale.add_argument("--l2", help="ℓ2 sensitivity Δ2 (or --l2-squared)")
    l2_scale.add_argument("--l2-squared", dest="l2_squared", help="Δ2², exact")
    add_epsilon(l2_scale, required=True)
    add_delta(l2_scale, required=True)
