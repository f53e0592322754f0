"""``reference.testing``: assertions that put the oracle into another project's test suite in a few lines.

Each helper runs an audit of :mod:`reference.audit` and raises ``AssertionError`` with a message that says what
is wrong and by how much (the leaking functional, the certified ε against the claim, the unsafe grid points and
their δ, the failing sample property); it returns the audit's verdict object when the claim holds, so a test can
inspect it further. An inconclusive audit (bounds that do not decide the claim) fails the assertion too, saying
so: a test suite should not pass on an undecided privacy claim.

* :func:`assert_linear_mechanism_private` — ``W x + B z`` at a claimed ε (or (ε, δ)), any noise kind.
* :func:`assert_prefix_counter` — a continual counter given as a function of its noise draws.
* :func:`assert_calibration_safe` — a σ calibrator over a grid of (ε, δ), against the exact Gaussian profile.
* :func:`assert_samples_match` — noise samples against any law of :mod:`reference.audit.samples.laws`, by law
  object or by the command line's name.
* :func:`assert_gaussian_renyi` — a ρ or an accountant's RDP curve for the Gaussian mechanism, exactly.
* :func:`assert_conversion` — a ρ-zCDP or RDP → (ε, δ) conversion, certified or refuted by a Gaussian witness.
* :func:`assert_height_function` — a tree height / digit-count function against the exact integer height.

Hypothesis strategies for the parameters of each mechanism are in :mod:`reference.testing.strategies`.

**The user's code under test** (a calibrator, a noise function, a height function) is called through
:func:`reference.core.user_code.call_user`: whatever it raises (``SystemExit`` and ``KeyboardInterrupt``
included) is one ``ValueError`` naming it, never a pass. Each call may take ``call_seconds`` seconds at most (default
:data:`~reference.core.user_code.DEFAULT_SECONDS`, 60 s) and add ``call_memory_bytes`` of address space (default
:data:`~reference.core.user_code.DEFAULT_MEMORY_BYTES`, 4 GiB); ``None`` turns a limit off. A hanging or
exploding function ends the assertion with that line instead of hanging the test suite.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Protocol

import numpy as np

from reference.audit.calibration import CalibrationVerdict, audit_gaussian
from reference.audit.conversion import ConversionVerdict, audit_conversion
from reference.audit.discrete_gaussian_release import release_delta
from reference.audit.height_function import HeightArgument, HeightCheck, check_height_function
from reference.audit.linear.audit import MAX_DIMENSION, LinearNoiseVerdict, audit_linear_noise, check_noise
from reference.audit.linear.claim_report import claim_report
from reference.audit.linear.covariance import kary_prefix_workload
from reference.audit.linear.masked_draws import mask_infinite_draws
from reference.audit.linear.participation import Participation
from reference.audit.linear.probe_linear import ProbeInputs, probe_linear_map
from reference.audit.linear.renyi import RenyiClaimVerdict, audit_gaussian_renyi
from reference.audit.linear.square_noise import square_noise_verdict
from reference.core.certified import format_significant
from reference.core.excess_text import excess_text, scientific
from reference.core.input_types import MatrixLike, RdpCurve, Rho
from reference.core.options import LinearNoise, Neighbours
from reference.core.user_code import DEFAULT_MEMORY_BYTES, DEFAULT_SECONDS, UserFunction, check_limits
from reference.core.validate import (
    RationalLike,
    check_positive_int,
    fraction_text,
    positive_fraction,
    to_fraction,
)
from reference.privacy.claims import claim, decide_value, exact_value, number_text, rtol_fraction
from reference.testing.messages import points_message
from reference.testing.samples import assert_samples_match

assert_samples_match.__module__ = __name__  # documented and shown as reference.testing.assert_samples_match


def _claim_text(epsilon: object, delta: object) -> str:
    eps = fraction_text(positive_fraction(epsilon, "epsilon"))
    return f"({eps}, {fraction_text(to_fraction(delta, 'delta'))})-DP" if delta is not None else f"{eps}-DP"


def assert_linear_mechanism_private(
    noise_matrix: MatrixLike,
    workload: MatrixLike,
    noise: LinearNoise,
    *,
    epsilon: RationalLike | None = None,
    delta: RationalLike | None = None,
    rho: Rho | None = None,
    rdp: RdpCurve | None = None,
    scale: RationalLike,
    neighbours: Neighbours = "add_remove",
    contributions: int = 1,
    participation: Participation | None = None,
    draw_variances: Sequence[RationalLike] | None = None,
    infinite_variance_draws: Sequence[int] | None = None,
    rtol: RationalLike | float = 0,
    draw_scales: Sequence[object] | None = None,
) -> LinearNoiseVerdict:
    """Assert that ``W x + B z`` is private at the claim: ε-DP (``epsilon``), (ε, δ)-DP (with ``delta``),
    ρ-zCDP (``rho``) or an RDP curve (``rdp``); state exactly one. The verdict is returned when the claim holds.
    Numpy float matrices are read exactly; ``rtol`` lets the computed ε, δ(ε), ρ or RDP(α) exceed the claim by that
    relative amount (for matrices built in floating point), and a failure message shows the relative excess.

    Args:
        noise_matrix: B, outputs × draws: how the release mixes the noise draws z (exact entries).
        workload: W, outputs × inputs: the queries released (exact entries; one row per output, as B).
        noise: the law of each draw: ``"gaussian"``, ``"laplace"``, ``"discrete-gaussian"`` or
            ``"discrete-laplace"``.
        epsilon: the claimed ε (pure ε-DP, or (ε, δ)-DP with ``delta``).
        delta: the claimed δ with ``epsilon`` (default: pure DP).
        rho: a claimed ρ-zCDP instead of ``epsilon``.
        rdp: a claimed RDP curve instead of ``epsilon``: (α, RDP(α)) pairs or a function of α.
        scale: the draws' σ (Gaussian kinds) or Laplace scale b (Laplace kinds), exact.
        neighbours: ``"add_remove"`` (one input changes by 1) or ``"substitution"`` (one unit moves between two
            inputs).
        contributions: how many units one user may change (the sensitivity scales with it).
        participation: a rule on which inputs one user touches (:mod:`reference.audit.linear.participation`),
            replacing ``contributions``.
        draw_variances: one variance per draw when they differ (a node with its own budget); default all equal.
        infinite_variance_draws: column indices of B whose draws have infinite variance (a zero budget).
        rtol: the relative excess of the computed value over the claim accepted (0: none).
        draw_scales: per-draw Laplace scales b·s_j (``"laplace"``), when they differ.

    Raises:
        AssertionError: the claim fails or cannot be decided; the first line says which, with the certified ε
            (or the leaking functional) against the claim.

    Example:
        A release of prefix sums ``W (x + z)`` with i.i.d. Laplace(3) draws is (1/3)-DP:

        >>> from reference.testing import assert_linear_mechanism_private
        >>> prefix_sums = [[1, 0, 0], [1, 1, 0], [1, 1, 1]]
        >>> assert_linear_mechanism_private(prefix_sums, prefix_sums, "laplace", epsilon="1/3", scale=3).verdict
        'holds'
    """
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
        rtol=rtol,
        draw_scales=draw_scales,
    )
    return _assert_claim(verdict, epsilon=epsilon, delta=delta, rho=rho, rdp=rdp)


def _check_one_claim(epsilon: object, rho: object, rdp: object) -> None:
    if sum(claim is not None for claim in (epsilon, rho, rdp)) != 1:
        raise ValueError("state exactly one claim: epsilon (with delta), rho or rdp")


def _assert_claim(
    verdict: LinearNoiseVerdict, *, epsilon: RationalLike | None, delta: RationalLike | None, rho: Rho | None, rdp: RdpCurve | None,
    rtol: RationalLike | float = 0,
) -> LinearNoiseVerdict:
    """Raise with the excess unless the verdict certifies the claim, relaxed by ``rtol`` (default: the tolerance
    the audit was run with) on ε (pure), δ(ε), ρ or RDP(α)."""
    # the tolerance the audit was run with, unless the caller states one here (applied once, by the one rule)
    tolerance = rtol_fraction(rtol) if rtol else verdict.rtol
    if epsilon is None:
        renyi = verdict.renyi_verdict(rho=rho, rdp=rdp, rtol=tolerance)
        if renyi.verdict == "holds":
            return verdict
        prefix = "the audit cannot decide the claim" if renyi.verdict == "inconclusive" else "the claim fails"
        excess = f"; {verdict.excess_text(rho=rho)}" if rho is not None else ""
        raise AssertionError(f"{prefix}: {renyi.summary()}{excess}")
    # decided by the one rule the command line prints (claim_report), at the tolerance asked for here
    decided = claim_report(replace(verdict, rtol=tolerance), epsilon=epsilon, delta=delta).verdict
    if decided == "fails" and verdict.noise == "discrete-gaussian" and delta is not None:
        exact_delta = release_delta(verdict, positive_fraction(epsilon, "epsilon"))
        if exact_delta is not None:  # decided from the release's exact δ(ε): say so with its numbers
            check = decide_value(claim(epsilon=epsilon, delta=delta, rtol=tolerance), quantity="delta(epsilon)",
                                 claimed=to_fraction(delta, "delta"), lower=exact_delta.lower,
                                 upper=exact_delta.upper, basis="discrete Gaussian, unique integer shifts, exact")
            raise AssertionError(f"the claim fails: {check.summary()}")
    if decided == "holds":
        return verdict
    claim_text = _claim_text(epsilon, delta) + (f" with rtol = {scientific(tolerance, upward=True)}" if tolerance else "")
    if not verdict.private:
        raise AssertionError(f"claimed {claim_text}, but the release is not private at all: {verdict.explanation}")
    claimed = positive_fraction(epsilon, "epsilon")
    achieved = (
        f"epsilon = {number_text(verdict.epsilon)} "
        f"(epsilon/claimed - 1 = {scientific(verdict.epsilon / claimed - 1, upward=False)})"
        if verdict.epsilon is not None and verdict.epsilon_exact
        else f"epsilon in [{number_text(verdict.epsilon_lower)}, {number_text(verdict.epsilon)}]"
        if verdict.epsilon_lower is not None and verdict.epsilon is not None
        else f"rho = {scientific(verdict.rho, upward=True)} (sensitivity^2 = "
        f"{fraction_text(verdict.l2_sensitivity_squared)})"
        if verdict.rho is not None and verdict.l2_sensitivity_squared is not None
        else f"rho = {number_text(verdict.rho)}" if verdict.rho is not None
        else "no exact epsilon"
    )
    if verdict.noise == "gaussian" and delta is not None and to_fraction(delta, "delta") > 0:
        target = to_fraction(delta, "delta")
        profile = verdict.delta(claimed)
        achieved += ", " + excess_text("delta(epsilon)/delta", profile.lower / target, profile.upper / target)
    achieved += f"; {verdict.excess_text(epsilon=epsilon, delta=delta)}"
    if decided == "fails":
        raise AssertionError(f"claimed {claim_text}, but {achieved} ({verdict.explanation})")
    raise AssertionError(f"claimed {claim_text}: the audit cannot decide it ({achieved}; {verdict.explanation})")


def assert_prefix_counter(
    release_noise: Callable[..., Sequence[object] | np.ndarray],
    draws: int,
    horizon: int,
    noise: LinearNoise,
    *,
    epsilon: RationalLike | None = None,
    delta: RationalLike | None = None,
    rho: Rho | None = None,
    rdp: RdpCurve | None = None,
    scale: RationalLike | float,
    participation: Participation | None = None,
    draw_variances: Sequence[object] | None = None,
    infinite_variance_draws: Sequence[int] | None = None,
    inputs: ProbeInputs = "exact",
    batch: bool = False,
    call_seconds: float | None = DEFAULT_SECONDS,
    call_memory_bytes: int | None = DEFAULT_MEMORY_BYTES,
    rtol: RationalLike | float = 0,
) -> LinearNoiseVerdict:
    """Assert that a continual counter releasing ``prefix counts + release_noise(z)`` is private at the claim
    (one of ``epsilon`` [with ``delta``], ``rho``, ``rdp``), relaxed by ``rtol`` (default 0; the rule of
    :mod:`reference.privacy.claims`).

    Args:
        release_noise: your counter's noise path: the ``draws`` noise values in, the ``horizon`` outputs' noise out.
        draws: how many noise values the counter draws.
        horizon: how many outputs (time steps) it releases.
        noise: the law of each draw (``"laplace"``, ``"gaussian"``, ``"discrete-gaussian"``, ``"discrete-laplace"``).
        epsilon: the claimed ε (with ``delta``: (ε, δ)-DP).
        delta: the claimed δ with ``epsilon`` (default: pure DP).
        rho: a claimed ρ-zCDP instead of ``epsilon``.
        rdp: a claimed RDP curve instead of ``epsilon``: (α, RDP(α)) pairs or a function of α.
        scale: the draws' Laplace scale b or Gaussian σ, exact.
        participation: which stream positions one user touches (default: one bit).
        inputs: the type ``release_noise`` takes (below).
        batch: ``release_noise`` takes draws × probes and returns outputs × probes.
        draw_variances: one variance per draw when they differ (Gaussian: draw j has variance σ²·d_j; floats read
            exactly).
        infinite_variance_draws: the draws with a zero budget (infinite variance).
        call_seconds: the time limit of each call of your function, in seconds (``None``: no limit).
        call_memory_bytes: the memory each call of your function may add, in bytes (``None``: no limit).
        rtol: the relative excess of the computed ε, δ(ε), ρ or RDP(α) over the claim accepted (0: none).

    Raises:
        AssertionError: the claim fails (the message leads with the certified ε against the claim), or
            ``release_noise`` returns the wrong number of outputs.

    Example:
        The simplest counter adds the running sum of its draws: with Laplace(1) draws it is 1-DP.

        >>> from reference.testing import assert_prefix_counter
        >>> def running_sum(draws):
        ...     return [sum(draws[: step + 1]) for step in range(len(draws))]
        >>> assert_prefix_counter(running_sum, 4, 4, "laplace", epsilon=1, scale=1).verdict
        'holds'

    ``release_noise`` maps the ``draws`` noise values to the ``horizon`` outputs' noise; it is probed
    (:func:`reference.audit.linear.probe_linear.probe_linear_map`): ``inputs`` says what it takes — ``"exact"``
    (a tuple of Fractions), ``"integer"`` (a 1-D int64 array), ``"integer-float64"`` (int64 in, float64 out: an
    integer mechanism followed by a float step) or ``"float64"`` / ``"float32"`` (a 1-D float array; the map is
    reconstructed exactly and re-checked); with ``batch=True`` the function takes draws × probes and returns
    outputs × probes, and all unit draws are probed in one call. Neighbouring streams differ in one bit
    (``add_remove``), or as ``participation`` says.

    ``scale`` (σ or b) and ``draw_variances`` (Gaussian: draw j has variance σ²·d_j) may be floats, read exactly as
    the binary numbers they are (an irrational σ such as √0.35 in real code is its float; state ``rtol`` for the
    rounding). ``infinite_variance_draws``: draws with a zero budget (infinite variance); with
    ``draw_variances`` too, their entries there are ignored (any value, e.g. ``float('inf')``).
    ``call_seconds`` / ``call_memory_bytes``: the limits of each call of ``release_noise`` (module docstring).
    """
    _check_one_claim(epsilon, rho, rdp)
    for name, value in (("draws", draws), ("horizon", horizon)):
        if check_positive_int(value, name) > MAX_DIMENSION:  # refused before any probing: the audit is dense
            raise ValueError(f"{name} must be at most {MAX_DIMENSION} for the exact audit, got {value}")
    exact_scale = positive_fraction(exact_value(scale, "scale"), "scale")
    matrix = probe_linear_map(release_noise, draws=draws, inputs=inputs, batch=batch, call_seconds=call_seconds,
                              call_memory_bytes=call_memory_bytes)
    if len(matrix) != horizon:
        raise AssertionError(f"release_noise returned {len(matrix)} outputs, expected horizon = {horizon}")
    workload = kary_prefix_workload(horizon)
    if participation is None and draw_variances is None and infinite_variance_draws is None:
        # the common case — as many draws as outputs, B invertible — in one integer solve
        fast = square_noise_verdict(matrix, workload, check_noise(noise), exact_scale)
        if fast is not None:
            return _assert_claim(fast, epsilon=epsilon, delta=delta, rho=rho, rdp=rdp, rtol=rtol)
    variances = _exact_variances(draw_variances, draws, infinite_variance_draws)
    if variances is not None and infinite_variance_draws is not None:
        # mask the zero-budget draws first, then weight the finite ones (the two are one audit of Q W, Q B_f)
        workload, matrix = mask_infinite_draws(matrix, workload, list(infinite_variance_draws))
        infinite_variance_draws = None
    verdict = audit_linear_noise(matrix, workload, noise, scale=exact_scale, draw_variances=variances,
                                 participation=participation, infinite_variance_draws=infinite_variance_draws)
    return _assert_claim(verdict, epsilon=epsilon, delta=delta, rho=rho, rdp=rdp, rtol=rtol)


def _exact_variances(
    draw_variances: Sequence[object] | None, draws: int, infinite: Sequence[int] | None
) -> list[Fraction] | None:
    """Per-draw variances read exactly (floats as their binary values), without the infinite draws' entries."""
    if draw_variances is None:
        return None
    values = list(draw_variances)
    if len(values) != draws:
        raise ValueError(f"draw_variances must list one variance per draw ({draws}), got {len(values)}")
    skipped = set(infinite or ())
    return [positive_fraction(exact_value(value, f"draw_variances[{index}]"), f"draw_variances[{index}]")
            for index, value in enumerate(values) if index not in skipped]


class GaussianCalibrator(Protocol):
    """A σ calibrator under audit, called by keyword so that its ε, δ and Δ² cannot be taken in the wrong order."""

    def __call__(self, *, epsilon: Fraction, delta: Fraction, sensitivity_squared: Fraction) -> object: ...


def assert_calibration_safe(
    calibrator: GaussianCalibrator,
    grid: Iterable[tuple[object, object]],
    *,
    sensitivity_squared: RationalLike = 1,
    rtol: RationalLike = 0,
    call_seconds: float | None = DEFAULT_SECONDS,
    call_memory_bytes: int | None = DEFAULT_MEMORY_BYTES,
) -> list[CalibrationVerdict]:
    """Assert that ``calibrator(epsilon=ε, delta=δ, sensitivity_squared=Δ²)`` returns a σ giving (ε, δ)-DP at
    every grid point (Gaussian noise).

    The σ returned may be an ``int``, ``Fraction``, decimal string or ``float`` (a float is read exactly, as the
    binary number it is: that is the σ the calibrator's users get). Every unsafe point is listed with its
    certified excess δ(ε)/δ − 1 and σ/σ* − 1 (σ* the smallest safe σ) in scientific notation. ``rtol`` (default
    0) accepts a point whose δ(ε) exceeds δ by at most that relative amount: δ(ε) <= δ·(1 + rtol), certified.

    Args:
        calibrator: your σ calibrator, called as ``calibrator(epsilon=ε, delta=δ, sensitivity_squared=Δ²)``.
        grid: the (ε, δ) points to check, exact numbers (``"1/2"``, ``"1e-6"``, ``Fraction``).
        sensitivity_squared: Δ², the squared ℓ2 sensitivity passed to the calibrator at every point.
        rtol: the relative excess of δ accepted (0: none).
        call_seconds: the time limit of each call of your function, in seconds (``None``: no limit).
        call_memory_bytes: the memory each call of your function may add, in bytes (``None``: no limit).

    Returns:
        One verdict per grid point, in order.

    Raises:
        AssertionError: the first line counts the unsafe points; up to three follow, each with its certified
            excess.

    Example:
        The classical σ = Δ sqrt(2 ln(1.25/δ))/ε is safe for ε <= 1; the exact smallest σ is safe everywhere:

        >>> from reference import sigma_exact
        >>> from reference.testing import assert_calibration_safe
        >>> exact = lambda **named: sigma_exact(**named).sigma
        >>> verdicts = assert_calibration_safe(exact, [("1/2", "1e-6"), (2, "1e-5")])
        >>> [verdict.verdict for verdict in verdicts]
        ['holds', 'holds']
    """
    limits = check_limits(call_seconds, call_memory_bytes, seconds_name="call_seconds",
                          memory_name="call_memory_bytes")
    points = _grid_points(grid)
    d2 = positive_fraction(sensitivity_squared, "sensitivity_squared")
    tolerance = to_fraction(rtol, "rtol")
    if tolerance < 0:
        raise ValueError(f"rtol must be >= 0, got {fraction_text(tolerance)}")
    verdicts: list[CalibrationVerdict] = []
    unsafe: list[str] = []
    guarded = UserFunction(calibrator, role="calibrator", limits=limits)
    for epsilon, delta in points:
        eps = positive_fraction(epsilon, "epsilon")
        target = positive_fraction(delta, "delta")
        with guarded:  # the limits hold during the calibrator's call only, not during the audit
            sigma = guarded(epsilon=eps, delta=target, sensitivity_squared=d2)
        if isinstance(sigma, float) and not math.isfinite(sigma):
            raise ValueError(f"calibrator returned sigma = {sigma!r} at (epsilon={fraction_text(eps)}, "
                             f"delta={fraction_text(target)}): a sigma must be a positive finite number")
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
        raise AssertionError(points_message(f"unsafe at {len(unsafe)} of {len(verdicts)} grid points{allowed}", unsafe))
    return verdicts


#: Most grid points assert_calibration_safe audits (each is a certified audit of a few milliseconds or more).
MAX_GRID_POINTS = 100_000


def _grid_points(grid: object) -> list[tuple[object, object]]:
    """The grid as a list of (ε, δ) pairs: ``ValueError`` naming ``grid`` for anything else."""
    if isinstance(grid, (str, bytes)) or not isinstance(grid, Iterable):
        raise ValueError(f"grid must be an iterable of (epsilon, delta) pairs, got {type(grid).__name__}")
    points: list[tuple[object, object]] = []
    for index, point in enumerate(grid):
        if index >= MAX_GRID_POINTS:
            raise ValueError(f"grid must have at most {MAX_GRID_POINTS} points")
        pair = isinstance(point, np.ndarray) and point.shape == (2,)
        if not pair and (isinstance(point, (str, bytes)) or not isinstance(point, Sequence) or len(point) != 2):
            shown = repr(point)
            raise ValueError(f"grid point {index} must be an (epsilon, delta) pair, got "
                             f"{shown if len(shown) <= 60 else shown[:57] + '...'}")
        points.append((point[0], point[1]))
    if not points:
        raise ValueError("grid must have at least one (epsilon, delta) pair")
    return points


def assert_gaussian_renyi(
    *,
    rho: Rho | None = None,
    sigma: RationalLike | float | None = None,
    sigma_squared: RationalLike | float | None = None,
    sensitivity_squared: RationalLike,
    rdp: RdpCurve | None = None,
    rtol: RationalLike | float = 0,
) -> RenyiClaimVerdict:
    """Assert that a ρ (zCDP) or an RDP curve ((α, RDP(α)) pairs or a function of α, as an accountant gives it)
    covers the Gaussian mechanism with standard deviation ``sigma`` (or variance ``sigma_squared``) at
    sensitivity² ``sensitivity_squared`` — exact RDP(α) = α Δ²/(2σ²). Floats are read exactly. ``rtol`` accepts a
    claim exceeded by at most that relative amount (a float accountant one ulp below the exact value passes with
    ``rtol=1e-12``). The message names the first order exceeded, the certified value, the relative excess and
    the tolerance.

    Args:
        rho: the claimed ρ-zCDP (state this or ``rdp``).
        sigma: the Gaussian noise's standard deviation σ > 0 (give this or ``sigma_squared``).
        sigma_squared: the Gaussian noise's variance σ² > 0 (give this or ``sigma``).
        sensitivity_squared: Δ², the squared ℓ2 sensitivity.
        rdp: the claimed RDP curve: (α, RDP(α)) pairs with α > 1, or a function of α.
        rtol: the relative excess of the mechanism's ρ or RDP(α) over the claim accepted (0: none).

    Example:
        σ = 3 at Δ² = 1 is exactly (1/18)-zCDP; an accountant's curve α/20 undercounts it:

        >>> from reference.testing import assert_gaussian_renyi
        >>> assert_gaussian_renyi(rho="1/18", sigma=3, sensitivity_squared=1).verdict
        'holds'
        >>> assert_gaussian_renyi(rdp=[(2, "1/10")], sigma=3, sensitivity_squared=1)
        Traceback (most recent call last):
        AssertionError: ...
    """
    decided = audit_gaussian_renyi(sigma=sigma, sigma_squared=sigma_squared, sensitivity_squared=sensitivity_squared,
                                   rho=rho, rdp=rdp, rtol=rtol)
    if decided.verdict != "holds":
        raise AssertionError(decided.summary())
    return decided


def assert_height_function(
    function: Callable[[int], object],
    *,
    arity: int,
    offset: bool = False,
    argument: HeightArgument = "horizon",
    horizons: tuple[int, int] | None = None,
    call_seconds: float | None = DEFAULT_SECONDS,
    call_memory_bytes: int | None = DEFAULT_MEMORY_BYTES,
) -> HeightCheck:
    """Assert that ``function`` returns the exact tree height for ``arity``: of a horizon (``argument="horizon"``,
    digit kind ``offset``: True for KARY Algorithm 2's offset digits, False for standard digits) or of a leaf
    count (``argument="leaves"``: the smallest h with arity^h >= leaves), at every power, capacity and their
    neighbours and at a random sample over ``horizons`` = (low, high) (default up to 2^63; every argument of a
    small range). The message names the first disagreement and labels each kind: over-count (conservative),
    under-count (unsafe) or error (:mod:`reference.audit.height_function`). A function that raises or passes
    ``call_seconds`` / ``call_memory_bytes`` is a ``ValueError`` naming it and the argument.

    Args:
        function: your height function, horizon T in, height h out.
        arity: the tree's arity k >= 2.
        offset: True for offset digits (KARY Algorithm 2), False for standard digits (Algorithm 1).
        argument: ``"horizon"`` (T) or ``"leaves"`` (n), what the function takes.
        horizons: the range (low, high) of arguments tried (default (1, 2^63)).
        call_seconds: the time limit of each call of your function, in seconds (``None``: no limit).
        call_memory_bytes: the memory each call of your function may add, in bytes (``None``: no limit).

    Example:
        A float logarithm is off at exact powers; the exact integer height passes:

        >>> import math
        >>> from reference.kary.digits import height_for_horizon
        >>> from reference.testing import assert_height_function
        >>> assert_height_function(lambda horizon: height_for_horizon(3, horizon, offset=False), arity=3,
        ...                        offset=False).verdict
        'holds'
        >>> assert_height_function(lambda horizon: math.ceil(math.log(horizon + 1, 3)), arity=3, offset=False)
        Traceback (most recent call last):
        AssertionError: ...
    """
    checked = check_height_function(function, arity=arity, offset=offset, argument=argument, horizons=horizons,
                                    call_seconds=call_seconds, call_memory_bytes=call_memory_bytes)
    if checked.verdict != "holds":
        raise AssertionError(checked.summary())
    return checked


def assert_conversion(
    *,
    epsilon: RationalLike | float,
    delta: RationalLike | float,
    rho: Rho | float | None = None,
    rdp: RdpCurve | None = None,
    rtol: RationalLike | float = 0,
) -> ConversionVerdict:
    """Assert that ρ-zCDP (``rho``) or an RDP curve (``rdp``) gives (ε, δ)-DP for every mechanism with that
    guarantee (:mod:`reference.audit.conversion`): certified by the CKS conversion, refuted by the Gaussian
    witness, and an undecided claim (between the two) fails the assertion as "cannot decide". Floats (a
    converter's ε, δ) are read exactly; ``rtol`` relaxes δ to δ·(1 + rtol).

    Args:
        epsilon: the claimed ε of the converted guarantee.
        delta: the claimed δ of the converted guarantee.
        rho: the ρ-zCDP guarantee converted, ρ > 0 (a float is read as the binary number it is; state this or
            ``rdp``; None, the default: not stated).
        rdp: the RDP curve converted: (α, RDP(α)) pairs with α > 1, or a function of α called at the orders the
            audit chooses (state this or ``rho``; None, the default: not stated).
        rtol: the relative excess of δ accepted (0: none).

    Example:
        (1/20)-zCDP gives (1, 4e-4)-DP for every mechanism with that guarantee:

        >>> from reference.testing import assert_conversion
        >>> assert_conversion(epsilon=1, delta="4e-4", rho="1/20").verdict
        'holds'
    """
    decided = audit_conversion(epsilon=exact_value(epsilon, "epsilon"), delta=exact_value(delta, "delta"), rho=rho,
                               rdp=rdp, rtol=rtol)
    if decided.verdict == "inconclusive":
        raise AssertionError(f"the audit cannot decide the claim: {decided.summary()}")
    if decided.verdict != "holds":
        raise AssertionError(decided.summary())
    return decided


__all__ = [
    "assert_calibration_safe",
    "assert_conversion",
    "assert_gaussian_renyi",
    "assert_height_function",
    "assert_linear_mechanism_private",
    "assert_prefix_counter",
    "assert_samples_match",
]
