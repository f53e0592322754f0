"""``reference audit conversion``: does ρ-zCDP, or an RDP curve, give the claimed (ε, δ)?"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from reference.cli.common import CommandError, Subcommands, add_command, add_delta, add_epsilon, reading


def rtol_option(args: argparse.Namespace) -> Any:
    """``--rtol``: the claim's relative tolerance, an exact rational in [0, 1) (0 when not given).

    Args:
        args: the parsed command line; ``args.rtol`` is the text of ``--rtol`` or None when it was not given.
    """
    from reference.core.validate import parse_rational_text
    from reference.privacy.claims import rtol_fraction

    if args.rtol is None:
        return 0
    try:
        return rtol_fraction(parse_rational_text(args.rtol, "--rtol"))
    except (ValueError, TypeError):
        raise CommandError(f"--rtol must be a rational in [0, 1), e.g. 1e-12, got {args.rtol!r}") from None


def rdp_option(text: str) -> Any:
    """``--rdp``: a .csv/.json/.npy file of (alpha, RDP(alpha)) rows, or inline pairs ``2:0.5,4:1``.

    Args:
        text: the value of ``--rdp`` as typed: a path ending in .csv, .json or .npy (two columns, alpha and RDP(alpha)),
            else inline pairs ``alpha:value`` separated by commas.
    """
    from reference.privacy.claims import parse_rdp_text, rdp_points

    if Path(text).suffix.lower() in (".csv", ".json", ".npy"):
        from reference.audit.linear.audit import load_exact_matrix

        with reading("--rdp", text):
            rows = load_exact_matrix(text, "--rdp")
        if any(len(row) != 2 for row in rows):
            raise CommandError("--rdp: the file must hold two columns, alpha and RDP(alpha), one order per row")
        return rdp_points([(row[0], row[1]) for row in rows])
    try:
        return parse_rdp_text(text)
    except (ValueError, TypeError) as error:
        raise CommandError(f"--rdp: {error} (or name a .csv/.json file of alpha,value rows)") from None


def _cmd_audit_conversion(args: argparse.Namespace) -> dict[str, Any]:
    from reference.audit.conversion import audit_conversion

    if (args.rho is None) == (args.rdp is None):
        raise CommandError("state the guarantee to convert: exactly one of --rho and --rdp")
    curve = None if args.rdp is None else rdp_option(args.rdp)
    return audit_conversion(epsilon=args.epsilon, delta=args.delta, rho=args.rho, rdp=curve,
                            rtol=rtol_option(args)).as_json()


def register(audit: Subcommands) -> None:
    """Add ``audit conversion`` to the audit commands.

    Args:
        audit: the subcommands of the ``audit`` group, which the command is added to.
    """
    command = add_command(audit, "conversion", _cmd_audit_conversion,
                          "does rho-zCDP or an RDP curve give this (epsilon, delta)? certified, with a Gaussian witness")
    command.add_argument("--rho", help="the zCDP guarantee ρ (exact rational)")
    command.add_argument("--rdp", help="an RDP curve: a .csv/.json file of alpha,RDP(alpha) rows, or '2:0.5,4:1'")
    add_epsilon(command, required=True, text="the claimed ε")
    add_delta(command, required=True, text="the claimed δ")
    command.add_argument("--rtol", help="relative tolerance on δ (default 0)")
