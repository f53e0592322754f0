"""``assert_samples_match``: noise samples against the exact law they should have, by the whole-law audit
(:func:`reference.audit.samples.law_audit.audit_samples`), re-exported by :mod:`reference.testing`."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from reference.audit.samples.design import Design
from reference.audit.samples.law_audit import audit_samples
from reference.audit.samples.law_report import DEFAULT_SMALLEST_DEVIATION as DEFAULT_SCALE_DEVIATION
from reference.audit.samples.laws import LAWS, Law, LinearDesign, law_from_name
from reference.audit.samples.report import SamplerAuditReport
from reference.core.options import SampledLaw
from reference.core.validate import RationalLike, RealLike
from reference.testing.messages import points_message


def assert_samples_match(
    samples: npt.NDArray[np.generic],
    mechanism: SampledLaw | Law,
    *,
    epsilon: RationalLike | None = None,
    rho: RationalLike | None = None,
    sigma: RealLike | None = None,
    sigma_squared: RationalLike | None = None,
    scale: RealLike | None = None,
    contributions: int = 1,
    depth: int | None = None,
    arity: int | None = None,
    algorithm: int = 2,
    attributes: int | None = None,
    design: Design | None = None,
    alpha: float = 1e-6,
    smallest_deviation: float | None = None,
) -> SamplerAuditReport:
    """Assert that noise samples (``runs × n``, one run per row) have the law of ``mechanism``, by the whole-law
    audit (:func:`reference.audit.samples.law_audit.audit_samples`: scale, family, tails, correlations, each with
    its power stated) and with false alarm at most ``alpha``; the message lists the failing tests.

    ``mechanism`` is a law object (:mod:`reference.audit.samples.laws`) or one of the names the command line
    takes: ``"gaussian"`` (``sigma``), ``"laplace"`` (``scale``), ``"discrete-gaussian"`` (``sigma_squared``),
    ``"discrete-laplace"`` (``scale``), ``"cascade"`` (``depth``, ``sigma``; streamed above depth 8),
    ``"kary"`` (Algorithm ``algorithm``'s output noise: ``arity``, ``epsilon``), ``"tda-level"``
    (``attributes``, ``rho``, ``contributions``) or ``"design"`` (``design``: a ``LinearDesign`` law, or a
    design from ``linear_design``).

    The samples must also be numerous enough to see a relative scale error of ``smallest_deviation`` (default 2%)
    with probability 99%: with fewer runs the audit is "inconclusive" and the assertion fails with the power it
    had and the runs it needs — never a pass.

    Args:
        samples: your sampler's draws, one run per row (a 2-D numpy array, ``runs × n``).
        mechanism: the law they should have: a law object, or a name (``"cascade"``, ``"kary"``,
            ``"design"``, ``"gaussian"``, ``"laplace"``, ``"discrete-gaussian"``, ``"discrete-laplace"``,
            ``"tda-level"``).
        depth: the cascade's depth (n = 2**depth leaves).
        arity: the KARY tree's arity.
        algorithm: KARY Algorithm 1 or 2 (with subtraction).
        epsilon: the KARY counter's ε (its Laplace scale follows).
        sigma: the cascade's or the Gaussian's σ.
        sigma_squared: the discrete Gaussian's σ² (a scale, not its variance).
        scale: the Laplace or discrete Laplace scale.
        contributions: a TDA level's contributions per record.
        attributes: a TDA level's number of attributes.
        rho: a TDA level's ρ (its σ² follows from ρ and the attributes).
        design: any linear design (``"design"``), e.g. from ``linear_design``.
        alpha: the false-alarm probability of the whole audit.
        smallest_deviation: the relative scale error that must be detectable with probability 99% (default 2%).

    Returns:
        The audit's report when the samples match.

    Raises:
        AssertionError: the samples do not match (the first line; the failing tests follow, at most three), or
            too few runs to see ``smallest_deviation``.

    Example:
        The package's own cascade sampler, 5000 runs of depth 4 at σ = 2.5 (about 4,500 are needed to see a 2%
        scale error at depth 4):

        >>> from reference.cip.numeric.cascade_runs import cascade_leaves_runs
        >>> from reference.testing import assert_samples_match
        >>> samples = cascade_leaves_runs(4, 2.5, runs=5000, seed=7)
        >>> assert_samples_match(samples, "cascade", depth=4, sigma=2.5).verdict
        'holds'
    """
    if isinstance(mechanism, LAWS):
        law: Law = mechanism
    elif mechanism == "design":
        chosen = getattr(design, "law", None) if isinstance(design, Design) else design
        if not isinstance(chosen, LinearDesign):
            raise ValueError("design must be a LinearDesign law or a Design from linear_design, got "
                             f"{type(design).__name__}")
        law = chosen
    else:
        if design is not None:
            raise ValueError(f"mechanism {mechanism!r} does not take design")
        law = law_from_name(mechanism, sigma=sigma, scale=scale, sigma_squared=sigma_squared, epsilon=epsilon,
                            depth=depth, arity=arity, algorithm=algorithm, attributes=attributes, rho=rho,
                            contributions=contributions)
    report = audit_samples(samples, law, alpha=alpha, smallest_deviation=(
        DEFAULT_SCALE_DEVIATION if smallest_deviation is None else smallest_deviation))
    units = f"; {report.units}" if report.units else ""
    if report.verdict == "fails":
        raise AssertionError(points_message(f"samples do not match {law.name} (false-alarm probability {alpha})"
                                            f"{units}", list(report.failures)))
    if report.verdict == "inconclusive":
        raise AssertionError(f"inconclusive: the samples pass, but {report.power_text()}{units}")
    return report
