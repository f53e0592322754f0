"""The whole-law audit of a linear design ``X = B z`` (:class:`~reference.audit.samples.laws.LinearDesign`, and
KARY's output noise as one), by the route its ``B`` and noise allow:

* **whitened** (Gaussian noise): the runs whitened on the range of ``M = B diag(v) Bᵀ σ²`` are i.i.d. ``N(0, 1)``,
  so the four groups of :mod:`reference.audit.samples.law_checks` run on them, with a chi-square test per whitened
  coordinate and an exact t test per pair (a wrong correlation leaves them correlated); a singular ``M`` is
  whitened on its range, and every run must lie in it;
* **recovered** (``B`` of full column rank, any noise): ``z = B⁺ x`` are the i.i.d. draws (scaled per draw): the
  four groups on them, an exact sign test per pair of draws and a check that each run lies in ``B``'s column space;
* **moments** (Laplace noise, ``B`` not of full column rank: KARY Algorithms 2 and 3): median-of-means second
  moments (:mod:`reference.audit.samples.design_audit`) and the pooled scale test
  (:mod:`reference.audit.samples.pooled_scale`), plus the four groups on the draws that are still read off the
  outputs (:func:`recoverable_draws`). When no draw can be read off, nothing tests the draws' family, and a pass is
  "inconclusive", never "holds".
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from typing import Any

import numpy as np

from reference.audit.samples.law_checks import GROUPS, law_checks, law_power
from reference.audit.samples.law_report import (
    DEFAULT_CORRELATION_ERROR,
    float_matrix,
    law_report,
    too_few_runs,
)
from reference.audit.samples.laws import DiscreteGaussian, DiscreteLaplace, Gaussian, KaryNoise, Laplace, LinearDesign
from reference.audit.samples.pooled_scale import PooledScale
from reference.audit.samples.report import (
    PowerLine,
    PropertyCheck,
    SamplerAuditReport,
    TooFewRunsError,
    chi_square_group,
    listed_failures,
)
from reference.audit.samples.scale_test import POWER, ScaleTest, runs_needed
from reference.core.linalg import Matrix


def kary_linear_design(law: KaryNoise, horizon: int) -> LinearDesign:
    """KARY Algorithm ``law.algorithm``'s output noise over ``horizon`` steps as the design ``B z`` (``B`` its exact
    0/±1 noise matrix, ``z`` i.i.d. Laplace(h/ε) with ``h`` the tree's height for the horizon).

    Args:
        law: the KARY algorithm, arity and ε.
        horizon: the steps T (the outputs per run), at most the design audit's output limit.
    """
    from reference.audit.samples.design_audit import MAX_DESIGN_OUTPUTS, kary_noise_matrix
    from reference.kary.digits import height_for_horizon

    if horizon > MAX_DESIGN_OUTPUTS:  # the noise matrix is built exactly: refused before it is
        raise ValueError(f"samples must have at most {MAX_DESIGN_OUTPUTS} columns (the horizon) for a KARY "
                         f"law, got {horizon}")
    height = height_for_horizon(law.arity, horizon, offset=law.algorithm != 1)
    return LinearDesign(kary_noise_matrix(law.arity, horizon, law.algorithm),
                        Laplace(Fraction(height) / Fraction(law.epsilon)))


def audit_design(x: np.ndarray, design: LinearDesign, alpha: float, deviation: float) -> SamplerAuditReport:
    """The whole-law audit of the runs ``x`` of ``design`` by the route its ``B`` and noise allow (module
    docstring), with a units line when it fails.

    Args:
        x: the runs, float64 of shape ``(runs, outputs)``.
        design: the design ``B z`` the runs claim to follow.
        alpha: the audit's total false-alarm probability.
        deviation: the smallest relative scale error the audit must see.
    """
    report = _audit_design_law(x, design, alpha, deviation)
    return replace(report, units=_design_units(x, design)) if report.verdict == "fails" else report


def _design_units(x: np.ndarray, design: LinearDesign) -> str | None:
    """One line when the samples' second moments are those of the design at a scale in other units (σ² for σ,
    1/b for b): the measured ``Σ x²`` over its exact expectation ``runs · Σ_t Σ_j B_tj² v_j``."""
    from reference.audit.units import covariance_units_line

    if not isinstance(design.noise, (Gaussian, Laplace)):
        return None
    scale = Fraction(design.noise.sigma if isinstance(design.noise, Gaussian) else design.noise.scale)
    variances = design.exact_variances or (Fraction(1),) * design.draws
    base = scale * scale if isinstance(design.noise, Gaussian) else 2 * scale * scale
    expected = sum(entry * entry * factor * base for row in design.exact_matrix
                   for entry, factor in zip(row, variances))
    with np.errstate(over="ignore", invalid="ignore"):  # squares beyond the float range: no units line
        measured = float(np.sum(np.square(x)))
    if expected == 0 or not 0 < measured < math.inf:
        return None
    ratio = Fraction(measured) / (expected * x.shape[0])
    noise = "gaussian" if isinstance(design.noise, Gaussian) else "laplace"
    return covariance_units_line(ratio, noise, scale, whose="the samples' second moment")


def _range_whitening(second_moment: Matrix) -> tuple[np.ndarray, np.ndarray]:
    """(``W``, ``N``) for a singular ``M``: ``W = Λ_r^{-1/2} U_rᵀ`` whitens on the range (``r`` the exact rank of
    ``M``, ``U_r`` the eigenvectors of its ``r`` largest eigenvalues) and ``N`` spans its null space, where every
    run of the design lies at zero."""
    from reference.core.linalg import to_flint

    rank = int(to_flint(second_moment).rank())
    moment = np.array([[float(v) for v in row] for row in second_moment])
    values, vectors = np.linalg.eigh(moment)  # ascending: the null space first
    kept = slice(len(values) - rank, len(values))
    whitening = vectors[:, kept].T / np.sqrt(values[kept])[:, None]
    return whitening, vectors[:, : len(values) - rank]


def _design_route(design: LinearDesign) -> tuple[str, np.ndarray | None, np.ndarray | None]:
    """How a design is audited: ``("whitened", W, N)`` (Gaussian noise: ``W`` whitens on the range of ``M``, ``N``
    spans its null space or is None when ``M`` is positive definite), ``("recovered", B, None)`` (``B`` of full
    column rank) or ``("moments", None, None)`` (Laplace noise, draws not all recoverable)."""
    matrix = float_matrix(design)
    if isinstance(design.noise, Gaussian):
        from reference.audit.samples.design import whitening_of
        from reference.audit.samples.design_audit import linear_design

        moments = linear_design(design.exact_matrix, "gaussian", Fraction(design.noise.sigma), design.exact_variances)
        whitening = whitening_of(moments)
        if whitening is not None:
            return "whitened", whitening, None
        return ("whitened", *_range_whitening(moments.second_moment))
    if np.linalg.matrix_rank(matrix) == design.draws:
        return "recovered", matrix, None
    return "moments", None, None


def _audit_design_law(x: np.ndarray, design: LinearDesign, alpha: float, deviation: float) -> SamplerAuditReport:
    route, matrix, null = _design_route(design)
    if route == "whitened":
        assert matrix is not None
        return audit_whitened(x, matrix, design.name, alpha, deviation, null_space=null)
    if route == "recovered":
        assert matrix is not None
        return _audit_recovered(x, design, matrix, alpha, deviation)
    return _audit_moments(x, design, alpha, deviation)


def design_scale_power(design: LinearDesign, runs: int, alpha: float) -> float:
    """The relative scale error the audit of ``runs`` runs of ``design`` detects with probability 99%, before
    anything is drawn (the scale test of the route the audit takes; ``inf`` below 3 runs).

    Args:
        design: the linear design audited.
        runs: the runs the audit will be given.
        alpha: the audit's total false-alarm probability.
    """
    route, matrix, _ = _design_route(design)
    if runs < 3:
        return math.inf
    if route == "whitened":
        assert matrix is not None
        dim = matrix.shape[0]  # the rank of M: the whitened coordinates per run
        return ScaleTest(Gaussian(Fraction(1)), alpha / (GROUPS + (2 if dim > 1 else 0))).detected_error(runs * dim)
    if route == "recovered":
        share = alpha / (GROUPS + (1 if design.draws > 1 else 0))
        return ScaleTest(design.noise, share).detected_error(runs * design.draws)
    moments_alpha, recovered = _moments_alpha(design, alpha)
    seen = _moments_detector(design, moments_alpha)[3](runs)
    if recovered.size:
        seen = min(seen, ScaleTest(design.noise, alpha * FAMILY_SHARE / GROUPS).detected_error(runs * recovered.size))
    return seen


def _pair_t_check(white: np.ndarray, share: float) -> PropertyCheck:
    """Exact t test of zero correlation per pair of whitened coordinates (independent N(0, 1) under the claim)."""
    from scipy import stats

    runs, dim = white.shape
    gram = white.T @ white
    squares = np.diag(gram)
    first, second = np.triu_indices(dim, 1)
    with np.errstate(divide="ignore", invalid="ignore"):  # a coordinate that is all zeros: no correlation to test
        r = np.nan_to_num(gram[first, second] / np.sqrt(squares[first] * squares[second]))
    t_values = r * np.sqrt((runs - 1) / np.maximum(1.0 - r * r, 1e-300))
    p = 2.0 * stats.t.sf(np.abs(t_values), runs - 1)
    pairs = len(first)
    found = [(float(abs(r[i])), f"whitened coordinates ({first[i]}, {second[i]}) correlated: r = {r[i]:.4g} "
              f"(p = {p[i]:.3g})") for i in range(pairs) if pairs * p[i] <= share]
    worst = int(np.argmin(p))
    return PropertyCheck("correlations", not found, share, pairs, float(r[worst]), listed_failures(found),
                         f"{pairs} exact t tests (no-intercept correlation of independent N(0, 1) coordinates); "
                         f"most significant r = {r[worst]:.4g} at ({first[worst]}, {second[worst]}), "
                         f"p = {p[worst]:.3g}")


def _t_power(runs: int, pairs: int, share: float, correlation: float) -> float:
    """Fisher-z approximation of one pair's t test power against ``correlation``."""
    from scipy import stats

    if runs < 5:
        return 0.0
    critical = float(stats.t.isf(share / pairs / 2.0, runs - 1))
    r_critical = critical / math.sqrt(runs - 1 + critical * critical)
    shift = (math.atanh(correlation) - math.atanh(r_critical)) * math.sqrt(runs - 3)
    return float(stats.norm.cdf(shift))


def audit_whitened(x: np.ndarray, whitening: np.ndarray, name: str, alpha: float, deviation: float, *,
                   null_space: np.ndarray | None = None) -> SamplerAuditReport:
    """The whole-law audit of Gaussian runs whitened to i.i.d. ``N(0, 1)``: the four groups on the pooled whitened
    values, a chi-square test per whitened coordinate and an exact t test per pair of coordinates.

    Args:
        x: the runs, float64 of shape ``(runs, outputs)``.
        whitening: ``W``, shape ``(rank, outputs)``, with ``W M Wᵀ = I`` for the runs' covariance ``M``.
        name: the law as the report names it.
        alpha: the audit's total false-alarm probability.
        deviation: the smallest relative scale error the audit must see.
        null_space: for a singular ``M``, an orthonormal basis of its null space, shape ``(outputs, outputs −
            rank)``: every run must have no component there (a deterministic check); None when ``M`` is
            positive definite.
    """
    runs, outputs = x.shape
    dim = whitening.shape[0]  # whitened coordinates per run
    standard = Gaussian(Fraction(1))
    groups = GROUPS + (2 if dim > 1 else 0)
    share = alpha / groups
    if runs < 3:
        return too_few_runs(name, alpha, runs, outputs, f"{runs} runs cannot be tested", deviation,
                            ScaleTest(standard, share).values_needed(deviation, dim))
    white = x @ whitening.T
    checks = law_checks(white.reshape(-1), standard, share, "whitened values")
    power = law_power(standard, white.size, dim, share, deviation)
    if dim > 1:
        checks.append(chi_square_group("whitened variances", [f"whitened coordinate {i}" for i in range(dim)],
                                       np.sum(white * white, axis=0), runs, share))
        checks.append(_pair_t_check(white, share))
        pairs = dim * (dim - 1) // 2
        error = DEFAULT_CORRELATION_ERROR
        power.append(PowerLine(
            f"correlation {error} between two whitened coordinates", _t_power(runs, pairs, share, error),
            runs_needed(lambda r: _t_power(r, pairs, share, error) >= POWER, 8),
            "Fisher z approximation of the exact t test"))
    if null_space is not None and null_space.shape[1]:
        residual = float(np.max(np.abs(x @ null_space)))
        in_range = residual <= 1e-6 * max(float(np.max(np.abs(x))), 1.0)
        checks.append(PropertyCheck(
            "covariance range", in_range, 0.0, 1, residual,
            () if in_range else (f"runs leave the range of the covariance M (rank {dim} of {outputs}): largest "
                                 f"component {residual:.3g} where the law has none",),
            f"M has rank {dim} of {outputs}: the runs were whitened on its range; largest component off it "
            f"{residual:.3g} (a deterministic check)"))
    what = f"whitened on the range of M (rank {dim} of {outputs})" if null_space is not None else "whitened"
    return law_report(f"{name}, {what}", alpha, runs, outputs, checks, power, deviation, ScaleTest(standard, share),
                      white.size)


def _sign_check(draws: np.ndarray, share: float) -> PropertyCheck:
    """Exact sign test per pair of recovered draws: independent symmetric draws agree in sign with probability
    1/2 given both non-zero."""
    from scipy import stats

    signs = np.sign(draws)
    agreement = signs.T @ signs  # agree − disagree
    nonzero = np.abs(signs).T @ np.abs(signs)
    first, second = np.triu_indices(draws.shape[1], 1)
    count = nonzero[first, second]
    agree = (count + agreement[first, second]) / 2
    p = np.minimum(1.0, 2.0 * np.minimum(stats.binom.cdf(agree, count, 0.5), stats.binom.sf(agree - 1, count, 0.5)))
    pairs = len(first)
    found = [(float(-p[i]), f"draws ({first[i]}, {second[i]}) agree in sign {int(agree[i])} of {int(count[i])} times "
              f"(p = {p[i]:.3g})") for i in range(pairs) if pairs * p[i] <= share]
    worst = int(np.argmin(p))
    return PropertyCheck("correlations", not found, share, pairs, float(p[worst]), listed_failures(found),
                         f"{pairs} exact sign tests on pairs of recovered draws; most significant "
                         f"({first[worst]}, {second[worst]}), p = {p[worst]:.3g}")


def _sign_power(runs: int, pairs: int, share: float, correlation: float) -> float:
    """Exact binomial power of one pair's sign test when the draws agree in sign with probability
    ``1/2 + arcsin(ρ)/π`` (a Gaussian-copula model of correlation ρ)."""
    from scipy import stats

    agree = 0.5 + math.asin(correlation) / math.pi
    upper = float(stats.binom.isf(share / pairs / 2.0, runs, 0.5))
    return float(stats.binom.sf(upper, runs, agree))


def _audit_recovered(x: np.ndarray, design: LinearDesign, matrix: np.ndarray, alpha: float,
                     deviation: float) -> SamplerAuditReport:
    runs, dim = x.shape
    noise = design.noise
    groups = GROUPS + (1 if design.draws > 1 else 0)
    share = alpha / groups
    if runs < 3:
        return too_few_runs(design.name, alpha, runs, dim, f"{runs} runs cannot be tested", deviation,
                        ScaleTest(noise, share).values_needed(deviation, design.draws))
    inverse = np.linalg.pinv(matrix)
    draws = x @ inverse.T
    factors = np.array([math.sqrt(float(v)) for v in design.draw_variances]) if design.draw_variances else None
    if factors is not None:
        draws = draws / factors
    residual = float(np.max(np.abs(x - draws * (factors if factors is not None else 1.0) @ matrix.T))) if \
        design.outputs > design.draws else 0.0
    if isinstance(noise, (DiscreteGaussian, DiscreteLaplace)):
        rounded = np.rint(draws)
        off_grid = float(np.max(np.abs(draws - rounded))) if draws.size else 0.0
        residual = max(residual, off_grid)
        draws = rounded
    scale = float(np.max(np.abs(x))) if x.size else 1.0
    in_span = residual <= 1e-6 * max(scale, 1.0)
    checks = law_checks(draws.reshape(-1), noise, share, "recovered draws")
    power = law_power(noise, draws.size, design.draws, share, deviation)
    if design.draws > 1:
        checks.append(_sign_check(draws, share))
        pairs = design.draws * (design.draws - 1) // 2
        error = DEFAULT_CORRELATION_ERROR
        power.append(PowerLine(f"correlation {error} between two draws", _sign_power(runs, pairs, share, error),
                               runs_needed(lambda r: _sign_power(r, pairs, share, error) >= POWER, 8),
                               "exact binomial power of the sign test (Gaussian-copula agreement 1/2 + asin(rho)/pi)"))
    checks.append(PropertyCheck(
        "column space", in_span, 0.0, 1, residual,
        () if in_span else (f"runs are not B z for {'integer ' if isinstance(noise, (DiscreteGaussian, DiscreteLaplace)) else ''}"
                            f"draws z: largest residual {residual:.3g}",),
        f"draws recovered by B's pseudo-inverse; largest residual {residual:.3g} (a deterministic check)"))
    return law_report(f"{design.name}, draws recovered", alpha, runs, dim, checks, power, deviation,
                   ScaleTest(noise, share), draws.size)


def _moments_detector(design: LinearDesign, alpha: float) -> tuple[Any, PooledScale, float, Callable[[int], float]]:
    """The second-moment audit's pieces: the exact design of moments, the pooled scale test, the entries' share of
    ``alpha`` (two thirds; the pooled test gets one third, pooled_scale.py) and the relative scale error detected
    with probability 99% as a function of the runs."""
    from reference.audit.samples.design_audit import detectable_scale_error, linear_design

    noise = design.noise
    if not isinstance(noise, (Gaussian, Laplace)):
        raise ValueError("noise_matrix must have full column rank for discrete noise (the draws are recovered); "
                         f"got rank {np.linalg.matrix_rank(float_matrix(design))} of {design.draws} draws")
    kind = "gaussian" if isinstance(noise, Gaussian) else "laplace"
    parameter = Fraction(noise.sigma if isinstance(noise, Gaussian) else noise.scale)
    variances = design.exact_variances
    if kind == "laplace" and variances is not None and any(v != 1 for v in variances):
        raise ValueError("draw_variances is supported for Laplace noise only when the draws can be recovered "
                         "(noise_matrix of full column rank)")
    moments = linear_design(design.exact_matrix, kind, parameter, None if kind == "laplace" else variances,
                            name=design.name)
    entries_alpha, pooled_share = alpha * 2.0 / 3.0, alpha / 3.0
    matrix = float_matrix(design)
    base = float(parameter) ** 2 * (1.0 if kind == "gaussian" else 2.0)
    draw_variance = base * (np.array([float(v) for v in variances]) if variances is not None and kind == "gaussian"
                            else np.ones(design.draws))
    fourth = draw_variance**2 * (3.0 if kind == "gaussian" else 6.0)
    pooled = PooledScale.of(matrix, draw_variance, fourth)

    def detected(runs: int) -> float:
        return min(pooled.detected_error(runs, pooled_share), detectable_scale_error(moments, runs, entries_alpha))

    return moments, pooled, entries_alpha, detected


#: The share of ``alpha`` the family tests of the recoverable draws take in a second-moment design audit.
FAMILY_SHARE = 0.25


def recoverable_draws(design: LinearDesign) -> np.ndarray:
    """The draws of a design whose ``B`` is not of full column rank that are still read off the outputs: ``j`` with
    ``e_j`` in ``B``'s row space (``pinv(B) B e_j = e_j``), so ``z_j = (pinv(B) x)_j`` exactly (KARY Algorithm
    2's tree leaves every draw but a few recoverable).

    Args:
        design: the design ``B z``.
    """
    matrix = float_matrix(design)
    residual = np.abs(np.linalg.pinv(matrix) @ matrix - np.eye(design.draws)).max(axis=0)
    return np.flatnonzero(residual < 1e-9)


def _moments_alpha(design: LinearDesign, alpha: float) -> tuple[float, np.ndarray]:
    """(the second moments' share of ``alpha``, the recoverable draws): :data:`FAMILY_SHARE` of it goes to the family
    tests when any draw is recoverable."""
    recovered = recoverable_draws(design)
    return (alpha * (1 - FAMILY_SHARE) if recovered.size else alpha), recovered


def _audit_moments(x: np.ndarray, design: LinearDesign, alpha: float, deviation: float) -> SamplerAuditReport:
    """Second moments (median of means) for designs whose draws cannot all be recovered nor whitened to i.i.d.;
    the draws that can be recovered (:func:`recoverable_draws`) get the four groups of the whole-law checks
    (family, tails, scale) at :data:`FAMILY_SHARE` of ``alpha``."""
    from reference.audit.samples.design_audit import audit_design_samples, detectable_correlation_error

    moments_alpha, recovered = _moments_alpha(design, alpha)
    moments, pooled, entries_alpha, detected = _moments_detector(design, moments_alpha)
    pooled_share = moments_alpha / 3.0
    family_share = alpha * FAMILY_SHARE / GROUPS
    noise = design.noise

    def sharpest(runs: int) -> float:  # the scale error seen: by the second moments or by the recovered draws
        seen = detected(runs)
        if recovered.size and runs >= 3:
            seen = min(seen, ScaleTest(noise, family_share).detected_error(runs * recovered.size))
        return seen

    needed = runs_needed(lambda runs: sharpest(runs) <= deviation, 16)
    family_checks: list[PropertyCheck] = []
    family_power: list[PowerLine] = []
    if recovered.size and x.shape[0] >= 3:
        draws = (x @ np.linalg.pinv(float_matrix(design)).T)[:, recovered]
        variances = design.exact_variances
        if variances is not None:  # Gaussian noise: each draw scaled by the square root of its relative variance
            draws = draws / np.sqrt(np.array([float(variances[j]) for j in recovered]))
        family_checks = law_checks(draws.reshape(-1), noise, family_share, "recovered draws")
        family_power = [replace(line, alternative=f"recovered draws: {line.alternative}") for line in
                        law_power(noise, draws.size, int(recovered.size), family_share, deviation)[1:]]
    try:
        report = audit_design_samples(x, moments, entries_alpha)
    except TooFewRunsError as few:
        if any(not check.holds for check in family_checks):  # the family already fails: that is decided
            return SamplerAuditReport(f"{design.name}, the family of {recovered.size} recovered draws ({few})",
                                      False, alpha, x.shape[0], x.shape[1], tuple(family_checks),
                                      smallest_deviation=deviation, detectable_deviation=math.inf,
                                      runs_needed=needed, power=tuple(family_power), deviation_of="the noise scale")
        return too_few_runs(design.name, alpha, x.shape[0], x.shape[1], str(few), deviation, needed)
    runs = report.runs
    found = sharpest(runs)
    correlation = detectable_correlation_error(moments, runs, entries_alpha)
    method = "rigorous (Chebyshev per group, Hoeffding over groups): second moments"
    power = [PowerLine(f"scale off by ±{deviation:.3g} (relative)", POWER if found <= deviation else 0.0, needed,
                       method + f" and the recovered draws' scale test; detects {found:.3g} at these runs"),
             PowerLine(f"correlation error {correlation:.3g} (correlation units)", POWER, None, method)]
    checks: list[PropertyCheck] = [*report.checks, pooled.check(x, pooled_share), *family_checks]
    power.extend(family_power)
    what = (f"second moments, and the family of {recovered.size} of {design.draws} draws (recovered)"
            if recovered.size else "second moments only (draws not recoverable)")
    # with no draw read off the outputs nothing tests the draws' family: a Gaussian or uniform sampler with the
    # Laplace variance would pass the second moments, so a pass cannot be "holds"
    untested = None if recovered.size else (
        f"no draw of the {design.draws} can be read off the outputs (no e_j in B's row space), so the draws' "
        "family (Laplace against another law of the same variance) is untested; audit the draws z themselves "
        "(a design with B of full column rank) to decide it")
    return SamplerAuditReport(f"{design.name}, {what}",
                              all(check.holds for check in checks), alpha, runs, report.dimension, tuple(checks),
                              smallest_deviation=deviation, detectable_deviation=found, runs_needed=needed,
                              power=tuple(power), deviation_of="the noise scale", untested=untested)
