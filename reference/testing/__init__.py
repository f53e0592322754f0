"""``reference.testing``: assertions that put the oracle into another project's test suite in a few lines.

Each helper runs an audit of :mod:`reference.audit` and raises ``AssertionError`` with a message that says what
is wrong and by how much (the leaking functional, the certified ε against the claim, the unsafe grid points and
their δ, the failing sample property); it returns the audit's verdict object when the claim holds, so a test can
inspect it further. An inconclusive audit (bounds that do not decide the claim) fails the assertion too, saying
so: a test suite should not pass on an undecided privacy claim.

* :func:`assert_linear_mechanism_private` — ``W x + B z`` at a claimed ε (or (ε, δ)), any noise kind.
* :func:`assert_prefix_counter` — a continual counter given as a function of its noise draws.
* :func:`assert_calibration_safe` — a σ calibrator over a grid of (ε, δ), against the exact Gaussian profile.
* :func:`assert_samples_match` — noise samples against Cascade Sampling or KARY Algorithm 2's law.
* :func:`assert_gaussian_renyi` — a ρ or an accountant's RDP curve for the Gaussian mechanism, exactly.
* :func:`assert_height_function` — a tree height / digit-count function against the exact integer height.

Hypothesis strategies for the parameters of each mechanism are in :mod:`reference.testing.strategies`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Protocol

import numpy as np

from reference.audit.calibration import CalibrationVerdict, audit_gaussian
from reference.audit.height_function import HeightCheck, check_height_function
from reference.audit.linear.audit import MAX_DIMENSION, LinearNoiseVerdict, audit_linear_noise, check_noise
from reference.audit.linear.covariance import kary_prefix_workload
from reference.audit.linear.participation import Participation
from reference.audit.linear.probe_linear import ProbeInputs, probe_linear_map
from reference.audit.linear.renyi import RenyiClaimVerdict, audit_gaussian_renyi
from reference.audit.linear.square_noise import square_noise_verdict
from reference.audit.samples.audit import MAX_AUDIT_DEPTH, audit_cascade_samples, audit_kary_noise
from reference.audit.samples.cascade_stream import audit_cascade_stream
from reference.audit.samples.design import Design
from reference.audit.samples.design_audit import audit_design_samples, kary_design
from reference.audit.samples.power import cascade_deviation_detected, cascade_runs_needed, units_line
from reference.audit.samples.report import SamplerAuditReport
from reference.core.certified import format_significant
from reference.core.excess_text import excess_text, scientific
from reference.core.options import LinearNoise, Neighbours, SampledLaw
from reference.core.validate import (
    RationalLike,
    RealLike,
    check_positive_int,
    fraction_text,
    positive_fraction,
    to_fraction,
)

#: The relative error of one node's standard deviation a cascade sampler audit must be able to see (probability
#: 99%) before a pass counts: a quarter of σ.
DEFAULT_SMALLEST_DEVIATION = 0.25


def _claim_text(epsilon: object, delta: object) -> str:
    eps = fraction_text(positive_fraction(epsilon, "epsilon"))
    return f"({eps}, {fraction_text(to_fraction(delta, 'delta'))})-DP" if delta is not None else f"{eps}-DP"


def assert_linear_mechanism_private(
    noise_matrix: object,
    workload: object,
    noise: LinearNoise,
    *,
    epsilon: RationalLike | None = None,
    delta: RationalLike | None = None,
    rho: object = None,
    rdp: object = None,
    scale: RationalLike,
    neighbours: Neighbours = "add_remove",
    contributions: int = 1,
    participation: Participation | None = None,
    draw_variances: Sequence[object] | None = None,
    infinite_variance_draws: Sequence[int] | None = None,
) -> LinearNoiseVerdict:
    """Assert that ``W x + B z`` is private at the claim: ε-DP (``epsilon``), (ε, δ)-DP (with ``delta``),
    ρ-zCDP (``rho``) or an RDP curve (``rdp``: (α, RDP(α)) pairs or a function of α); state exactly one.
    ``participation`` (:mod:`reference.audit.linear.participation`) replaces ``contributions`` with a rule on which
    inputs one user touches. The verdict is returned when the claim holds."""
    _check_one_claim(epsilon, rho, rdp)
    verdict = audit_linear_noise(
        noise_matrix,
        workload,
        noise,
        scale=scale,
        draw_variances=draw_variances,
        neighbours=neighbours,
        contributions=contributions,
        participation=participation,
        infinite_variance_draws=infinite_variance_draws,
    )
    return _assert_claim(verdict, epsilon=epsilon, delta=delta, rho=rho, rdp=rdp)


def _check_one_claim(epsilon: object, rho: object, rdp: object) -> None:
    if sum(claim is not None for claim in (epsilon, rho, rdp)) != 1:
        raise ValueError("state exactly one claim: epsilon (with delta), rho or rdp")


def _assert_claim(
    verdict: LinearNoiseVerdict, *, epsilon: RationalLike | None, delta: RationalLike | None, rho: object, rdp: object
) -> LinearNoiseVerdict:
    """Raise with the excess unless the verdict certifies the claim."""
    if epsilon is None:
        renyi = verdict.renyi_verdict(rho=rho, rdp=rdp)
        if renyi.verdict == "holds":
            return verdict
        prefix = "the audit cannot decide the claim" if renyi.verdict == "inconclusive" else "the claim fails"
        raise AssertionError(f"{prefix}: {renyi.summary()}")
    decided = verdict.verdict_on(epsilon=epsilon, delta=delta)
    if decided == "holds":
        return verdict
    claim = _claim_text(epsilon, delta)
    if not verdict.private:
        raise AssertionError(f"claimed {claim}, but the release is not private at all: {verdict.explanation}")
    claimed = positive_fraction(epsilon, "epsilon")
    achieved = (
        f"epsilon = {fraction_text(verdict.epsilon)} "
        f"(epsilon/claimed - 1 = {scientific(verdict.epsilon / claimed - 1, upward=False)})"
        if verdict.epsilon is not None and verdict.epsilon_exact
        else f"epsilon in [{fraction_text(verdict.epsilon_lower)}, {fraction_text(verdict.epsilon)}]"
        if verdict.epsilon_lower is not None and verdict.epsilon is not None
        else f"rho = {scientific(verdict.rho, upward=True)} (sensitivity^2 = "
        f"{fraction_text(verdict.l2_sensitivity_squared)})"
        if verdict.rho is not None and verdict.l2_sensitivity_squared is not None
        else f"rho = {fraction_text(verdict.rho)}" if verdict.rho is not None
        else "no exact epsilon"
    )
    if verdict.noise == "gaussian" and delta is not None and to_fraction(delta, "delta") > 0:
        target = to_fraction(delta, "delta")
        profile = verdict.delta(claimed)
        achieved += ", " + excess_text("delta(epsilon)/delta", profile.lower / target, profile.upper / target)
    if decided == "fails":
        raise AssertionError(f"claimed {claim}, but {achieved} ({verdict.explanation})")
    raise AssertionError(f"claimed {claim}: the audit cannot decide it ({achieved}; {verdict.explanation})")


def assert_prefix_counter(
    release_noise: Callable[..., Sequence[object]],
    draws: int,
    horizon: int,
    noise: LinearNoise,
    *,
    epsilon: RationalLike | None = None,
    delta: RationalLike | None = None,
    rho: object = None,
    rdp: object = None,
    scale: RationalLike,
    participation: Participation | None = None,
    inputs: ProbeInputs = "exact",
    batch: bool = False,
) -> LinearNoiseVerdict:
    """Assert that a continual counter releasing ``prefix counts + release_noise(z)`` is private at the claim
    (one of ``epsilon`` [with ``delta``], ``rho``, ``rdp``).

    ``release_noise`` maps the ``draws`` noise values to the ``horizon`` outputs' noise; it is probed
    (:func:`reference.audit.linear.probe.probe_linear_map`): ``inputs`` says what it takes — ``"exact"`` (a tuple of
    Fractions), ``"integer"`` (a 1-D int64 array) or ``"float64"`` / ``"float32"`` (a 1-D float array; the map is
    reconstructed exactly and re-checked); with ``batch=True`` the function takes draws × probes and returns
    outputs × probes, and all unit draws are probed in one call. Neighbouring streams differ in one bit (``add_remove``), or as
    ``participation`` says.
    """
    _check_one_claim(epsilon, rho, rdp)
    for name, value in (("draws", draws), ("horizon", horizon)):
        if check_positive_int(value, name) > MAX_DIMENSION:  # refused before any probing: the audit is dense
            raise ValueError(f"{name} must be at most {MAX_DIMENSION} for the exact audit, got {value}")
    matrix = probe_linear_map(release_noise, draws=draws, inputs=inputs, batch=batch)
    if len(matrix) != horizon:
        raise AssertionError(f"release_noise returned {len(matrix)} outputs, expected horizon = {horizon}")
    if participation is None:
        # the common case — as many draws as outputs, B invertible — in one integer solve
        fast = square_noise_verdict(matrix, kary_prefix_workload(horizon), check_noise(noise),
                                    positive_fraction(scale, "scale"))
        if fast is not None:
            return _assert_claim(fast, epsilon=epsilon, delta=delta, rho=rho, rdp=rdp)
    return assert_linear_mechanism_private(
        matrix, kary_prefix_workload(horizon), noise, scale=scale, epsilon=epsilon, delta=delta, rho=rho, rdp=rdp,
        participation=participation,
    )


class GaussianCalibrator(Protocol):
    """A σ calibrator under audit, called by keyword so that its ε, δ and Δ² cannot be taken in the wrong order."""

    def __call__(self, *, epsilon: Fraction, delta: Fraction, sensitivity_squared: Fraction) -> object: ...


def assert_calibration_safe(
    calibrator: GaussianCalibrator,
    grid: Iterable[tuple[object, object]],
    *,
    sensitivity_squared: RationalLike = 1,
    rtol: RationalLike = 0,
) -> list[CalibrationVerdict]:
    """Assert that ``calibrator(epsilon=ε, delta=δ, sensitivity_squared=Δ²)`` returns a σ giving (ε, δ)-DP at
    every grid point (Gaussian noise).

    The σ returned may be an ``int``, ``Fraction``, decimal string or ``float`` (a float is read exactly, as the
    binary number it is: that is the σ the calibrator's users get). Every unsafe point is listed with its
    certified excess δ(ε)/δ − 1 and σ/σ* − 1 (σ* the smallest safe σ) in scientific notation. ``rtol`` (default
    0) accepts a point whose δ(ε) exceeds δ by at most that relative amount: δ(ε) <= δ·(1 + rtol), certified.
    """
    d2 = positive_fraction(sensitivity_squared, "sensitivity_squared")
    tolerance = to_fraction(rtol, "rtol")
    if tolerance < 0:
        raise ValueError(f"rtol must be >= 0, got {fraction_text(tolerance)}")
    verdicts: list[CalibrationVerdict] = []
    unsafe: list[str] = []
    for epsilon, delta in grid:
        eps = positive_fraction(epsilon, "epsilon")
        target = positive_fraction(delta, "delta")
        sigma = calibrator(epsilon=eps, delta=target, sensitivity_squared=d2)
        exact_sigma = Fraction(sigma) if isinstance(sigma, float) else to_fraction(sigma, "calibrated sigma")
        verdict = audit_gaussian(sigma=exact_sigma, sensitivity_squared=d2, epsilon=eps, delta=target)
        verdicts.append(verdict)
        if verdict.holds:
            continue
        achieved = verdict.delta_at_epsilon
        assert achieved is not None
        if tolerance and achieved.certainly_le(target * (1 + tolerance)):
            continue
        parts = [excess_text("delta(epsilon)/delta", achieved.lower / target, achieved.upper / target)]
        if verdict.noise_ratio is not None:
            parts.append(excess_text("sigma/sigma*", verdict.noise_ratio.lower, verdict.noise_ratio.upper))
        unsafe.append(f"(epsilon={fraction_text(eps)}, delta={fraction_text(target)}, sigma={format_significant(exact_sigma, 17)}): "
                      + ", ".join(parts))
    if unsafe:
        allowed = f" (rtol = {scientific(tolerance, upward=False)} on delta)" if tolerance else " (rtol = 0)"
        raise AssertionError(f"unsafe at {len(unsafe)} of {len(verdicts)} grid points{allowed}: " + "; ".join(unsafe))
    return verdicts


def assert_samples_match(
    samples: object,
    mechanism: SampledLaw,
    *,
    depth: int | None = None,
    arity: int | None = None,
    algorithm: int = 2,
    epsilon: RationalLike | None = None,
    sigma: RealLike | None = None,
    design: Design | None = None,
    alpha: float = 1e-6,
    smallest_deviation: float | None = None,
) -> SamplerAuditReport:
    """Assert that noise samples (``runs × n``) have the law of ``mechanism``: ``"cascade"`` (``depth``,
    ``sigma``; streamed above depth 8), ``"kary"`` (Algorithm ``algorithm``'s output noise: ``arity``,
    ``epsilon``) or ``"design"`` (any :class:`~reference.audit.samples.design.Design`, e.g. from
    ``linear_design``). False alarm at most ``alpha``; the message lists the failing tests.

    Cascade samples must also be numerous enough to see a node whose standard deviation is off by
    ``smallest_deviation`` (relative; default :data:`DEFAULT_SMALLEST_DEVIATION`) with probability 99%: with
    fewer runs the audit is "inconclusive" and the assertion fails with the power it had and the runs it needs.
    The power of the KARY and design audits is not computed (``smallest_deviation`` is refused there).
    """
    if mechanism == "cascade":
        if depth is None or sigma is None:
            raise ValueError("cascade samples need depth and sigma")
        if depth <= MAX_AUDIT_DEPTH:
            report = audit_cascade_samples(samples, depth, sigma=sigma, alpha=alpha)
        else:
            report = audit_cascade_stream(samples, depth, sigma=sigma, alpha=alpha)
        wanted = DEFAULT_SMALLEST_DEVIATION if smallest_deviation is None else float(smallest_deviation)
        # the units line reads samples held in memory (a streamed file is not read twice)
        leaves = samples if isinstance(samples, np.ndarray) else None
        report = replace(
            report,
            smallest_deviation=wanted,
            detectable_deviation=cascade_deviation_detected(depth, report.runs, alpha),
            runs_needed=cascade_runs_needed(depth, wanted, alpha),
            units=None if leaves is None else units_line(leaves, float(sigma) ** 2),
        )
    elif smallest_deviation is not None:
        raise ValueError("smallest_deviation: the power is computed for cascade samples only")
    elif mechanism == "kary":
        if arity is None or epsilon is None:
            raise ValueError("kary samples need arity and epsilon")
        if algorithm == 2:
            report = audit_kary_noise(samples, arity, epsilon=epsilon, alpha=alpha)
        else:
            if not isinstance(samples, np.ndarray) or samples.ndim != 2:
                raise ValueError("samples must be a 2-D numpy array (runs × horizon)")
            horizon = samples.shape[1]
            report = audit_design_samples(samples, kary_design(arity, horizon, algorithm, epsilon), alpha)
    elif mechanism == "design":
        if design is None:
            raise ValueError("design samples need design (reference.audit.samples.design_audit.linear_design)")
        report = audit_design_samples(samples, design, alpha)
    else:
        raise ValueError(f"mechanism must be cascade, kary or design, got {mechanism!r}")
    units = f"; {report.units}" if report.units else ""
    if not report.holds:
        raise AssertionError(f"samples do not match {mechanism} (false-alarm probability {alpha}): "
                             + "; ".join(report.failures) + units)
    if report.verdict == "inconclusive":
        raise AssertionError(f"inconclusive: the samples pass, but {report.power_text()}{units}")
    return report


def assert_gaussian_renyi(
    *, rho: object = None, sigma: RationalLike | float, sensitivity_squared: RationalLike, rdp: object = None
) -> RenyiClaimVerdict:
    """Assert that a ρ (zCDP) or an RDP curve ((α, RDP(α)) pairs or a function of α, as an accountant gives it)
    covers the Gaussian mechanism with standard deviation ``sigma`` at sensitivity² ``sensitivity_squared`` —
    exact RDP(α) = α Δ²/(2σ²). A float σ is read exactly. The message names the first order exceeded and by how
    much."""
    exact_sigma = Fraction(sigma) if isinstance(sigma, float) else sigma
    decided = audit_gaussian_renyi(sigma=exact_sigma, sensitivity_squared=sensitivity_squared, rho=rho, rdp=rdp)
    if decided.verdict != "holds":
        raise AssertionError(decided.summary())
    return decided


def assert_height_function(function: Callable[[int], object], *, arity: int, offset: bool) -> HeightCheck:
    """Assert that ``function(horizon)`` returns the exact tree height (digit count) for ``arity`` and the
    digit kind (``offset=True``: KARY Algorithm 2's offset digits; False: standard digits) at every power,
    capacity and their neighbours up to 2^63 and at a random sample; the message names the first horizon that
    disagrees (:mod:`reference.audit.height_function`)."""
    checked = check_height_function(function, arity=arity, offset=offset)
    if checked.verdict != "holds":
        raise AssertionError(checked.summary())
    return checked


__all__ = [
    "assert_calibration_safe",
    "assert_gaussian_renyi",
    "assert_height_function",
    "assert_linear_mechanism_private",
    "assert_prefix_counter",
    "assert_samples_match",
]
