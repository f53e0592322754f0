"""The sampler mechanisms both sampler audits accept, ``audit samplers`` and ``audit sampler-function``: one
table of the mechanisms and the options each reads, and the options declared once for both commands.

An option of another mechanism than the chosen one is refused, not silently ignored (the user meant something
by it). Each command may add options of its own to a mechanism (:func:`check_mechanism_options`'s ``extras``):
``audit samplers`` reads the run length off the samples and can stream a cascade file (``--stream``);
``audit sampler-function`` draws the runs itself and so needs KARY's ``--horizon``.
"""

from __future__ import annotations

import argparse

from reference.cli.common import CommandError, Parser, add_epsilon, nonnegative_int, refuse_foreign

#: mechanism → (options it needs, options it may take).
SAMPLER_MECHANISMS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "gaussian": (("sigma",), ()),
    "laplace": (("scale",), ()),
    "cascade": (("depth", "sigma"), ()),
    "kary": (("arity", "epsilon"), ("algorithm",)),
    "design": (("noise_matrix", "noise", "scale"), ("draw_variances",)),
    "discrete-gaussian": (("sigma_squared",), ()),
    "discrete-laplace": (("scale",), ()),
    "tda-level": (("attributes", "rho"), ("contributions",)),
}
#: KARY's algorithms whose output noise the audits test (Algorithm 3 through its exact design).
KARY_ALGORITHMS = (1, 2, 3)
#: Defaults that mean "not given" for the options above.
UNSET: dict[str, object] = {"algorithm": 2, "contributions": 1, "stream": False}


def add_mechanism_options(command: Parser) -> None:
    """``--mechanism`` and every option of the table, with one help text each.

    Args:
        command: the parser of a sampler audit command (``audit samplers``, ``audit sampler-function``) the options are
            added to.
    """
    command.add_argument("--mechanism", required=True, choices=list(SAMPLER_MECHANISMS))
    command.add_argument("--depth", type=nonnegative_int, help="cascade: the tree depth (n = 2**depth leaves)")
    command.add_argument("--sigma", help="gaussian: σ; cascade: σ, the standard deviation of every node")
    command.add_argument("--arity", type=nonnegative_int, help="kary: the arity (odd for Algorithm 2)")
    command.add_argument("--algorithm", type=int, choices=list(KARY_ALGORITHMS), default=2,
                         help="kary: Algorithm 1, 2 or 3 (default 2)")
    add_epsilon(command, text="kary: ε")
    command.add_argument("--noise-matrix", dest="noise_matrix", help="design: B (outputs × draws; .npy int/.csv/.json)")
    command.add_argument("--noise", choices=["gaussian", "laplace"], help="design: the law of the draws z")
    command.add_argument("--draw-variances", dest="draw_variances", help="design, gaussian: relative draw variances")
    command.add_argument("--scale", help="laplace: b; design: σ (gaussian) or b (laplace); discrete-laplace: its scale t")
    command.add_argument("--sigma-squared", dest="sigma_squared", help="discrete-gaussian: σ²")
    command.add_argument("--attributes", type=nonnegative_int, help="tda-level: the hierarchy's depth d")
    command.add_argument("--rho", help="tda-level: the total zCDP budget ρ")
    command.add_argument("--contributions", type=nonnegative_int, default=1,
                         help="tda-level: records per user m (default 1)")
    command.add_argument("--alpha", default="1e-6", help="total false-alarm probability (default 1e-6)")


def check_mechanism_options(
    args: argparse.Namespace, extras: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] | None = None
) -> None:
    """Refuse a missing option of the chosen mechanism, or an option of another one (``extras``: a command's own
    (needed, optional) options per mechanism, beside the table's).

    Args:
        args: the parsed command line; ``args.mechanism`` chooses the row of ``SAMPLER_MECHANISMS`` and every option of
            the table is read as its ``dest`` attribute.
        extras: mechanism -> (needed, optional) ``dest`` names of the command's own options, checked beside the table's
            (None, the default: none).
    """
    more = extras or {}
    needed = SAMPLER_MECHANISMS[args.mechanism][0] + more.get(args.mechanism, ((), ()))[0]
    missing = [f"--{name.replace('_', '-')}" for name in needed if getattr(args, name) is None]
    if missing:
        raise CommandError(f"--mechanism {args.mechanism} needs {', '.join(missing)}")
    owners = {
        name: {*table_needed, *table_optional, *more.get(name, ((), ()))[0], *more.get(name, ((), ()))[1]}
        for name, (table_needed, table_optional) in SAMPLER_MECHANISMS.items()
    }
    refuse_foreign(args, owners, UNSET)
    if args.mechanism == "tda-level" and args.contributions < 1:
        raise CommandError(f"--contributions must be a positive integer, got {args.contributions}")


def tda_level_sigma_squared(args: argparse.Namespace) -> str:
    """InfTDA's per-cell noise N_Z(0, σ²): σ² = m² d/ρ at every level, the discrete Gaussian ``tda-level`` tests.

    Args:
        args: the parsed command line of ``--mechanism tda-level``: ``args.attributes`` (d), ``args.rho`` (ρ, exact
            text) and ``args.contributions`` (m).
    """
    from reference.tda.calibration import inftda_sigma_squared

    return str(inftda_sigma_squared(attributes=args.attributes, rho=args.rho, contributions=args.contributions))


def law_from_args(args: argparse.Namespace, horizon: int | None = None) -> object:
    """The law (:mod:`reference.audit.samples.laws`) the options describe, by the table's names
    (``CommandError`` naming the option when a value is refused).

    Args:
        args: the parsed command line: ``args.mechanism`` and its options from :func:`add_mechanism_options` (rationals
            as text, read here exactly).
        horizon: not read: the law does not depend on it (the KARY horizon is taken by the audits themselves); default
            None.
    """
    from reference.audit.samples.laws import law_from_name
    from reference.core.validate import parse_rational_text

    def number(name: str) -> object:
        value = getattr(args, name, None)
        if value is None:
            return None
        try:
            return parse_rational_text(value, f"--{name.replace('_', '-')}")
        except ValueError as error:
            raise CommandError(str(error)) from None

    matrix = None
    variances = None
    if args.mechanism == "design":
        from reference.audit.linear.audit import load_exact_matrix

        matrix = load_exact_matrix(args.noise_matrix, "noise_matrix")
        if args.draw_variances is not None:
            variances = [entry for row in load_exact_matrix(args.draw_variances, "draw_variances") for entry in row]
    chosen = {
        "gaussian": {"sigma": number("sigma")}, "laplace": {"scale": number("scale")},
        "cascade": {"depth": args.depth, "sigma": number("sigma")},
        "kary": {"arity": args.arity, "epsilon": number("epsilon"), "algorithm": args.algorithm},
        "design": {"noise_matrix": matrix, "noise": args.noise, "scale": number("scale"),
                   "draw_variances": variances},
        "discrete-gaussian": {"sigma_squared": number("sigma_squared")},
        "discrete-laplace": {"scale": number("scale")},
        "tda-level": {"attributes": args.attributes, "rho": number("rho"), "contributions": args.contributions},
    }[args.mechanism]
    try:
        return law_from_name(args.mechanism, **chosen)
    except (ValueError, TypeError) as error:
        line = str(error).splitlines()[0]
        first = line.split(" ", 1)[0]
        if first in {*chosen, "scale", "sigma"}:  # a parameter's name: say it as the option the user gave
            line = f"--{first.replace('_', '-')}{line[len(first):]}"
        raise CommandError(line) from None
