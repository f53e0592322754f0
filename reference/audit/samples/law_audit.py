"""One sample audit for every law: :func:`audit_samples` (samples in memory) and :func:`audit_sampler_function`
(a sampler function drawn from here), against a law of :mod:`reference.audit.samples.laws`.

What is tested, by law:

* a **scalar law** (Gaussian, Laplace, discrete Gaussian, discrete Laplace, a TDA level): every value of the
  samples is one i.i.d. draw; the four groups of :mod:`reference.audit.samples.law_checks` (scale by the
  Neyman–Pearson statistic, Kolmogorov–Smirnov, Cramér–von Mises or the certified pmf fit, tails);
* a **Gaussian design** (``LinearDesign`` with Gaussian noise and a positive definite covariance ``M``, and
  ``Cascade`` up to depth 8, whitened by its exact Haar basis): the runs whitened, ``w = L⁻¹ x`` (``L`` the
  Cholesky factor of ``M``), are i.i.d. ``N(0, 1)``: the four groups on the pooled whitened values, plus a
  chi-square test per whitened coordinate and an exact t test per pair of coordinates (a wrong correlation
  leaves the whitened coordinates correlated);
* a design whose draws can be **recovered** (``B`` of full column rank, any noise; KARY Algorithm 1): ``z = B⁺ x``
  are the i.i.d. draws (scaled per draw), so the four groups run on them, plus an exact sign test per pair of
  draws (independent symmetric draws agree in sign with probability 1/2) and a check that each run lies in
  ``B``'s column space;
* any other design (KARY Algorithms 2 and 3, whose draws outnumber their outputs; a singular ``M``): the
  median-of-means second-moment audit of :mod:`reference.audit.samples.design_audit` and the pooled scale test of
  :mod:`reference.audit.samples.pooled_scale` (median of means of ``Xᵀ M⁺ X``) — second moments only;
* ``Cascade`` deeper than 8 (or a ``.npy`` path, streamed): the streamed audit of
  :mod:`reference.audit.samples.cascade_stream` (node variances, sibling covariances, pooled scale) and its family
  test, exact binomial counts of Haar coefficients above fixed magnitudes
  (:mod:`reference.audit.samples.magnitude_cells`).

The groups share ``alpha`` evenly (Bonferroni), so the false-alarm probability is at most ``alpha``.

**Power, and the verdict.** Each report states, at its runs, the detection probability against a relative scale
error of ``± smallest_deviation`` (default :data:`DEFAULT_SMALLEST_DEVIATION`) and against the named alternatives
(wrong family at the same variance, heavy tails, shifted mean, a correlation error for designs), with the runs
each needs for 99% (for a whitened design or recovered draws, the family alternatives are stated for the whitened
values or the draws). When the runs cannot detect the scale error with probability 99% and every test passed, the
verdict is "inconclusive" with the runs needed — never "holds". Too few runs for a test to run at all is
"inconclusive" too (:class:`~reference.audit.samples.report.TooFewRunsError` is not raised from here).

Example — Laplace(2) draws: 2,000 cannot see a 2% scale error (inconclusive, with the runs that can), 200,000
can::

    >>> import numpy as np
    >>> from reference.audit.samples.law_audit import audit_samples
    >>> from reference.audit.samples.laws import Laplace
    >>> draws = np.random.default_rng(0).laplace(0, 2, 200_000)
    >>> audit_samples(draws[:2_000], Laplace(2)).verdict, audit_samples(draws, Laplace(2)).verdict
    ('inconclusive', 'holds')
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

import numpy as np

from reference.audit.samples.law_checks import GROUPS, histogram_checks, law_checks, law_power
from reference.audit.samples.laws import (
    Cascade,
    DiscreteGaussian,
    DiscreteLaplace,
    Gaussian,
    KaryNoise,
    Laplace,
    Law,
    LinearDesign,
    ScalarLaw,
    TdaLevel,
    check_law,
)
from reference.audit.samples.pooled_scale import PooledScale
from reference.audit.samples.report import (
    PowerLine,
    PropertyCheck,
    SamplerAuditReport,
    TooFewRunsError,
    check_alpha,
    chi_square_group,
    listed_failures,
)
from reference.audit.samples.scale_test import POWER, ScaleTest, runs_needed
from reference.core.exact_text import message_value

#: The relative scale error a sample audit must detect with probability 99% before a pass counts as "holds".
DEFAULT_SMALLEST_DEVIATION = 0.02
#: The correlation error between two draws (or whitened coordinates) whose detection probability is stated.
DEFAULT_CORRELATION_ERROR = 0.05
#: Largest depth the cascade is whitened at in memory (the streamed audit above it).
MAX_WHITENED_DEPTH = 8


def _deviation(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, Fraction)) or not 0 < float(value) < 1:
        raise ValueError(f"smallest_deviation must be a relative error in (0, 1), got {value!r}")
    return float(value)


def _matrix(samples: object, columns: int | None) -> np.ndarray:
    """A finite real 2-D array (a 1-D array is one column of draws for a scalar law, ``columns`` None)."""
    if not isinstance(samples, np.ndarray):
        raise TypeError(f"samples must be a numpy array, got {type(samples).__name__}")
    if samples.dtype == np.bool_ or not (np.issubdtype(samples.dtype, np.floating)
                                         or np.issubdtype(samples.dtype, np.integer)):
        raise TypeError(f"samples must be a real (float or integer) array, got dtype {samples.dtype}")
    array = samples.reshape(-1, 1) if samples.ndim == 1 and columns is None else samples
    if array.ndim != 2 or (columns is not None and array.shape[1] != columns):
        wanted = "(runs, n)" if columns is None else f"(runs, {columns})"
        raise ValueError(f"samples must have shape {wanted}, one run per row, got {samples.shape}")
    values = np.asarray(array, dtype=np.float64)
    if not np.all(np.isfinite(values)):
        raise ValueError("samples must be finite (no NaN or infinity)")
    return values


def _integers(values: np.ndarray, law: ScalarLaw) -> np.ndarray:
    if isinstance(law, (DiscreteGaussian, DiscreteLaplace)) and not np.array_equal(values, np.rint(values)):
        raise ValueError("samples must hold integers for a discrete law")
    return values


def _report(name: str, law_alpha: float, runs: int, dimension: int, checks: list[PropertyCheck],
            power: list[PowerLine], deviation: float, scale_test: ScaleTest, values: int) -> SamplerAuditReport:
    """The report, its verdict held to the scale power line (``power[0]``); ``detectable_deviation`` is the
    relative scale error the scale test detects with probability 99% at these ``values`` (both directions)."""
    scale = power[0]
    detectable = scale_test.detected_error(values)
    if scale.detection_probability < POWER:  # the same question, asked at the stated deviation: they must agree
        detectable = max(detectable, math.nextafter(deviation, math.inf))
    return SamplerAuditReport(
        name, all(check.holds for check in checks), law_alpha, runs, dimension, tuple(checks),
        smallest_deviation=deviation, detectable_deviation=detectable,
        runs_needed=scale.runs_needed, power=tuple(power), deviation_of="the noise scale")


def _too_few(name: str, alpha: float, runs: int, dimension: int, reason: str, deviation: float,
             needed: int | None) -> SamplerAuditReport:
    """An inconclusive report: no test could run."""
    check = PropertyCheck("runs", True, 0.0, 0, 0.0, (), reason)
    return SamplerAuditReport(name, True, alpha, runs, dimension, (check,), smallest_deviation=deviation,
                              detectable_deviation=math.inf, runs_needed=needed,
                              power=(PowerLine(f"scale off by ±{deviation:.3g} (relative)", 0.0, needed, reason),),
                              deviation_of="the noise scale")


def audit_samples(samples: object, law: Law, *, alpha: object = 1e-6,
                  smallest_deviation: object = DEFAULT_SMALLEST_DEVIATION) -> SamplerAuditReport:
    """Audit ``samples`` (``runs × n``, one run per row; a 1-D array is ``runs`` draws of a scalar law) against
    ``law`` (module docstring). False alarm at most ``alpha``; the verdict is "inconclusive" when the runs cannot
    detect a relative scale error of ``smallest_deviation`` with probability 99%."""
    chosen = check_law(law)
    level = check_alpha(alpha)
    deviation = _deviation(smallest_deviation)
    if isinstance(chosen, TdaLevel):
        report = audit_samples(samples, chosen.cell_law(), alpha=level, smallest_deviation=deviation)
        return replace(report, name=f"{chosen.name}")
    if isinstance(chosen, (Gaussian, Laplace, DiscreteGaussian, DiscreteLaplace)):
        if (isinstance(chosen, (DiscreteGaussian, DiscreteLaplace)) and isinstance(samples, np.ndarray)
                and np.issubdtype(samples.dtype, np.integer) and samples.dtype.itemsize <= 8
                and samples.dtype != np.uint64 and samples.ndim in (1, 2)):
            # integer draws of a discrete law: read as they are (one pass, no float copy, nothing to round)
            x = samples.reshape(-1, 1) if samples.ndim == 1 else samples
            values = x.reshape(-1).astype(np.int64, copy=False)
        else:
            x = _matrix(samples, None)
            values = _integers(x.reshape(-1), chosen)
        share = level / GROUPS
        if values.size < 2:
            return _too_few(chosen.name, level, x.shape[0], x.shape[1], f"{values.size} values cannot be tested",
                            deviation, ScaleTest(chosen, share).values_needed(deviation, max(1, x.shape[1])))
        checks = law_checks(values, chosen, share)
        power = law_power(chosen, values.size, x.shape[1], share, deviation)
        report = _report(f"{chosen.name} ({values.size} values)", level, x.shape[0], x.shape[1], checks, power,
                         deviation, ScaleTest(chosen, share), values.size)
        return replace(report, units=_scalar_units(values, chosen)) if report.verdict == "fails" else report
    if isinstance(chosen, Cascade):
        return _audit_cascade(samples, chosen, level, deviation)
    if isinstance(chosen, KaryNoise):
        x = _matrix(samples, None)
        horizon = x.shape[1]
        design = kary_linear_design(chosen, horizon)
        report = _audit_design(x, design, level, deviation)
        return replace(report, name=report.name.replace(design.name, f"{chosen.name}, horizon {horizon}"))
    assert isinstance(chosen, LinearDesign)
    return _audit_design(_matrix(samples, chosen.outputs), chosen, level, deviation)


def kary_linear_design(law: KaryNoise, horizon: int) -> LinearDesign:
    """KARY Algorithm ``law.algorithm``'s output noise over ``horizon`` steps as the design ``B z`` (``B`` its exact
    0/±1 noise matrix, ``z`` i.i.d. Laplace(h/ε) with ``h`` the tree's height for the horizon)."""
    from reference.audit.samples.design_audit import MAX_DESIGN_OUTPUTS, kary_noise_matrix
    from reference.kary.digits import height_for_horizon

    if horizon > MAX_DESIGN_OUTPUTS:  # the noise matrix is built exactly: refused before it is
        raise ValueError(f"samples must have at most {MAX_DESIGN_OUTPUTS} columns (the horizon) for a KARY "
                         f"law, got {message_value(horizon)}")
    height = height_for_horizon(law.arity, horizon, offset=law.algorithm != 1)
    return LinearDesign(kary_noise_matrix(law.arity, horizon, law.algorithm),
                        Laplace(Fraction(height) / Fraction(law.epsilon)))


def _scalar_units(values: np.ndarray, law: ScalarLaw) -> str | None:
    """One line when the samples' variance is the declared one's square or square root (a variance passed as a
    standard deviation, or the reverse), or a Laplace scale's reciprocal (a rate passed as the scale)."""
    from reference.audit.samples.law_checks import standard_deviation
    from reference.audit.units import QUESTION, covariance_units_line, number, variance_units_error

    with np.errstate(over="ignore", invalid="ignore"):  # squares beyond the float range: no units line
        measured = float(np.mean(np.square(values, dtype=np.float64)))
    if not 0 < measured < math.inf:
        return None
    whose = "the samples' second moment"
    if isinstance(law, Gaussian):
        sigma = Fraction(law.sigma)
        return covariance_units_line(Fraction(measured) / (sigma * sigma), "gaussian", sigma, whose=whose)
    if isinstance(law, Laplace):
        scale = Fraction(law.scale)
        return covariance_units_line(Fraction(measured) / (2 * scale * scale), "laplace", scale, whose=whose)
    declared = Fraction(standard_deviation(law) ** 2)
    error = variance_units_error(Fraction(measured), declared)
    if error is None:
        return None
    return f"{whose} is {number(Fraction(measured))} against the declared variance {number(declared)}: {QUESTION[error]}"


def audit_histogram(histogram: Mapping[int, int], law: DiscreteGaussian | DiscreteLaplace | TdaLevel, *, runs: int,
                    alpha: object = 1e-6, smallest_deviation: object = DEFAULT_SMALLEST_DEVIATION
                    ) -> SamplerAuditReport:
    """:func:`audit_samples` of a discrete law from the histogram of the values drawn (value → count; ``runs``
    rows of them), the sufficient statistic the streamed sampler-function audit keeps: the same tests."""
    chosen = law.cell_law() if isinstance(law, TdaLevel) else law
    if not isinstance(chosen, (DiscreteGaussian, DiscreteLaplace)):
        raise TypeError("law must be a DiscreteGaussian, DiscreteLaplace or TdaLevel for a histogram")
    level = check_alpha(alpha)
    deviation = _deviation(smallest_deviation)
    values = sum(int(count) for count in histogram.values())
    per_run = max(1, values // max(runs, 1))
    share = level / GROUPS
    if values < 2:
        return _too_few(chosen.name, level, runs, per_run, f"{values} values cannot be tested", deviation,
                        ScaleTest(chosen, share).values_needed(deviation, per_run))
    checks = histogram_checks(histogram, chosen, share)
    power = law_power(chosen, values, per_run, share, deviation)
    return _report(f"{law.name} ({values} values)", level, runs, per_run, checks, power, deviation,
                   ScaleTest(chosen, share), values)


# ------------------------------------------------------------------------------------------------ designs


def _float_matrix(design: LinearDesign) -> np.ndarray:
    return np.array([[float(entry) for entry in row] for row in design.noise_matrix])


def _audit_design(x: np.ndarray, design: LinearDesign, alpha: float, deviation: float) -> SamplerAuditReport:
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


def _design_route(design: LinearDesign) -> tuple[str, np.ndarray | None]:
    """How a design is audited: ``("whitened", L⁻¹)`` (Gaussian, ``M`` positive definite), ``("recovered", B)``
    (``B`` of full column rank) or ``("moments", None)`` (second moments only)."""
    matrix = _float_matrix(design)
    if isinstance(design.noise, Gaussian):
        from reference.audit.samples.design import whitening_of
        from reference.audit.samples.design_audit import linear_design

        moments = linear_design(design.exact_matrix, "gaussian", Fraction(design.noise.sigma), design.exact_variances)
        whitening = whitening_of(moments)
        if whitening is not None:
            return "whitened", whitening
    if np.linalg.matrix_rank(matrix) == design.draws:
        return "recovered", matrix
    return "moments", None


def _audit_design_law(x: np.ndarray, design: LinearDesign, alpha: float, deviation: float) -> SamplerAuditReport:
    route, matrix = _design_route(design)
    if route == "whitened":
        assert matrix is not None
        return _audit_whitened(x, matrix, design.name, alpha, deviation)
    if route == "recovered":
        assert matrix is not None
        return _audit_recovered(x, design, matrix, alpha, deviation)
    return _audit_moments(x, design, alpha, deviation)


def design_scale_power(design: LinearDesign, runs: int, alpha: float) -> float:
    """The relative scale error the audit of ``runs`` runs of ``design`` detects with probability 99%, before
    anything is drawn (the scale test of the route :func:`audit_samples` takes; ``inf`` below 3 runs)."""
    route, _ = _design_route(design)
    if runs < 3:
        return math.inf
    if route == "whitened":
        dim = design.outputs
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


def _audit_whitened(x: np.ndarray, whitening: np.ndarray, name: str, alpha: float,
                    deviation: float) -> SamplerAuditReport:
    runs, dim = x.shape
    standard = Gaussian(Fraction(1))
    groups = GROUPS + (2 if dim > 1 else 0)
    share = alpha / groups
    if runs < 3:
        return _too_few(name, alpha, runs, dim, f"{runs} runs cannot be tested", deviation,
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
    return _report(f"{name}, whitened", alpha, runs, dim, checks, power, deviation, ScaleTest(standard, share),
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
        return _too_few(design.name, alpha, runs, dim, f"{runs} runs cannot be tested", deviation,
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
    return _report(f"{design.name}, draws recovered", alpha, runs, dim, checks, power, deviation,
                   ScaleTest(noise, share), draws.size)


def _moments_detector(design: LinearDesign, alpha: float) -> tuple[Any, PooledScale, float, Callable[[int], float]]:
    """The second-moment audit's pieces: the exact design of moments, the pooled scale test, the entries' share of
    ``alpha`` (two thirds; the pooled test gets one third, pooled_scale.py) and the relative scale error detected
    with probability 99% as a function of the runs."""
    from reference.audit.samples.design_audit import detectable_scale_error, linear_design

    noise = design.noise
    if not isinstance(noise, (Gaussian, Laplace)):
        raise ValueError("noise_matrix must have full column rank for discrete noise (the draws are recovered); "
                         f"got rank {np.linalg.matrix_rank(_float_matrix(design))} of {design.draws} draws")
    kind = "gaussian" if isinstance(noise, Gaussian) else "laplace"
    parameter = Fraction(noise.sigma if isinstance(noise, Gaussian) else noise.scale)
    variances = design.exact_variances
    if kind == "laplace" and variances is not None and any(v != 1 for v in variances):
        raise ValueError("draw_variances is supported for Laplace noise only when the draws can be recovered "
                         "(noise_matrix of full column rank)")
    moments = linear_design(design.exact_matrix, kind, parameter, None if kind == "laplace" else variances,
                            name=design.name)
    entries_alpha, pooled_share = alpha * 2.0 / 3.0, alpha / 3.0
    matrix = _float_matrix(design)
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
    2's tree leaves every draw but a few recoverable)."""
    matrix = _float_matrix(design)
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
        draws = (x @ np.linalg.pinv(_float_matrix(design)).T)[:, recovered]
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
        return _too_few(design.name, alpha, x.shape[0], x.shape[1], str(few), deviation, needed)
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
    return SamplerAuditReport(f"{design.name}, {what}",
                              all(check.holds for check in checks), alpha, runs, report.dimension, tuple(checks),
                              smallest_deviation=deviation, detectable_deviation=found, runs_needed=needed,
                              power=tuple(power), deviation_of="the noise scale")


# ------------------------------------------------------------------------------------------------ cascade


def _audit_cascade(samples: object, law: Cascade, alpha: float, deviation: float) -> SamplerAuditReport:
    leaves = 1 << law.depth
    if law.depth <= MAX_WHITENED_DEPTH and isinstance(samples, np.ndarray):
        from reference.audit.samples.whitened_moments import cascade_whitening

        x = _matrix(samples, leaves)
        from reference.audit.samples.power import units_line as units_of

        report = _audit_whitened(x, cascade_whitening(law.depth, float(law.sigma)), law.name, alpha, deviation)
        return replace(report, units=units_of(x, float(law.sigma) ** 2))
    from reference.audit.samples.cascade_stream import audit_cascade_stream
    from reference.audit.samples.power import units_line

    report = audit_cascade_stream(samples, law.depth, sigma=float(law.sigma), alpha=alpha)
    units = units_line(samples, float(law.sigma) ** 2) if isinstance(samples, np.ndarray) else None
    return replace(cascade_stream_power(report, law, alpha, deviation), units=units)


def cascade_stream_power(report: SamplerAuditReport, law: Cascade, alpha: float,
                         deviation: float) -> SamplerAuditReport:
    """The streamed cascade ``report`` with its power: against a relative scale error of ``deviation`` (the
    verdict is "inconclusive" when the runs cannot see it with probability 99%) and against coefficients of the
    wrong law (the magnitude counts), each with the runs it needs."""
    from reference.audit.samples.cascade_stream import stream_levels
    from reference.audit.samples.magnitude_cells import ALTERNATIVES, CUTS, magnitude_power
    from reference.audit.samples.report import cascade_scale_power

    leaves = 1 << law.depth
    per_test, pooled_level = stream_levels(law.depth, alpha)  # the levels the streamed sub-tests run at

    def detected(runs: int) -> float:
        return cascade_scale_power(runs, leaves, per_test, pooled_level)

    needed = runs_needed(lambda runs: detected(runs) <= deviation, 2)
    found = detected(report.runs)
    lines = [PowerLine(f"scale off by ±{deviation:.3g} (relative)", POWER if found <= deviation else 0.0, needed,
                       f"exact chi-square quantiles of the pooled scale test; detects {found:.3g} at these runs")]
    coefficients = leaves // 2  # Haar coefficients per run the magnitude counts read (the leaves' siblings)
    for alternative, tail in ALTERNATIVES.items() if coefficients else ():
        def family(runs: int, tail: Callable[[float], float] = tail) -> float:
            return magnitude_power(runs * coefficients, per_test * len(CUTS), tail)

        lines.append(PowerLine(f"Haar coefficients {alternative}", family(report.runs),
                               runs_needed(lambda runs: family(runs) >= POWER, 2),
                               "exact binomial law of the magnitude counts"))
    return replace(report, smallest_deviation=deviation, detectable_deviation=found, runs_needed=needed,
                   power=tuple(lines), deviation_of="the noise scale")


# ------------------------------------------------------------------------------------------------ functions


def law_columns(law: Law, horizon: int | None = None) -> int | None:
    """Values per run a sampler of ``law`` returns (``None``: any, for a scalar law)."""
    if isinstance(law, Cascade):
        return 1 << law.depth
    if isinstance(law, LinearDesign):
        return law.outputs
    if isinstance(law, KaryNoise):
        return horizon
    return None


def audit_sampler_function(function: Callable[..., Any], law: Law, *, runs: int, seed: int = 0,
                           horizon: int | None = None, alpha: object = 1e-6,
                           smallest_deviation: object = DEFAULT_SMALLEST_DEVIATION) -> SamplerAuditReport:
    """Draw ``runs`` runs from ``function(generator, runs)`` (a ``numpy.random.Generator`` seeded by ``seed``)
    and audit them against ``law`` (:func:`audit_samples`). ``horizon``: the values per run of a KARY law. The
    runs are held in memory; the command line's ``audit sampler-function`` streams them on Dask instead."""
    if isinstance(runs, bool) or not isinstance(runs, int) or runs < 1:
        raise ValueError(f"runs must be a positive integer, got {runs!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    if isinstance(law, KaryNoise) and (isinstance(horizon, bool) or not isinstance(horizon, int) or horizon < 1):
        raise ValueError(f"horizon must be a positive integer for a KARY law, got {horizon!r}")
    if not callable(function):
        raise TypeError("function must be callable as function(generator, runs)")
    from reference.audit.samples.target import call_target

    drawn = call_target(function, np.random.default_rng(seed), runs)  # the user's exception as one ValueError
    columns = law_columns(check_law(law), horizon)
    if drawn.ndim == 1 and columns is None:
        drawn = drawn.reshape(runs, -1)
    if drawn.ndim != 2 or drawn.shape[0] != runs or (columns is not None and drawn.shape[1] != columns):
        raise ValueError(f"function must return an array of shape ({runs}, {columns or 'n'}), got {drawn.shape}")
    return audit_samples(drawn, law, alpha=alpha, smallest_deviation=smallest_deviation)
