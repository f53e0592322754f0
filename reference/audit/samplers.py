"""Sampler audit: test another implementation's samples against the oracle.

Two audits, each returning a :class:`SamplerAuditReport` whose false-alarm probability (the probability of
``passed == False`` when the samples really are i.i.d. draws from the oracle's distribution) is at most
``alpha``. ``alpha`` is split evenly over the property groups, and inside a group over its sub-tests, by the
union bound.

:func:`audit_cascade_samples` (Cascade Sampling leaves, Gaussian, covariance ``sigma**2 C_depth``):

1. *marginals*: per leaf, ``sum x**2 / sigma**2`` is chi-square with ``runs`` dof (exact, two-sided);
2. *node variances*: per internal node of the binary tree, the subtree sum of leaves is ``N(0, sigma**2)``
   (Theorem 3.3), so the same chi-square test applies;
3. *covariance*: the rows whitened with the exact Haar whitening of ``sigma**2 C_depth`` are tested to be
   i.i.d. ``N(0, 1)`` by the battery of :func:`reference.cip.whitening.whitened_normal_test`, its
   Kolmogorov–Smirnov part on a fixed grid (:mod:`reference.audit.whitened_moments`: every test reads sums over
   runs, so blocks of runs feed :class:`~reference.audit.whitened_moments.CascadeSampleMoments` and the verdict
   does not depend on the split);
4. *pooled scale*: the streamed audit's test (:func:`pooled_scale_check`, the statistic accumulated by the same
   :class:`reference.audit.cascade_stream.CascadeMoments`): ``root²/σ² + Σ (L − R)²/(3σ²)`` over all runs is
   chi-square with ``runs × n`` dof, so a scale error common to every node is seen with every value drawn.

``alpha / 4`` each; :func:`cascade_samples_power` states the smallest common scale error detected.

:func:`audit_kary_noise` (Algorithm 2's output noise, sums of i.i.d. Laplace(h/ε) values):

1. *marginals*: ``E X_t**2 = 2 (h/ε)**2 ‖rep(t)‖₁``;
2. *covariance*: ``E X_s X_t = 2 (h/ε)**2 |I_s ∩ I_t|`` for every pair ``s < t`` (``I_t`` the noise indices).

Both are second-moment tests by **median of means** with exact fourth moments: the runs are split into ``g``
groups of ``m``; by Chebyshev a group mean of ``Y`` (``Y = X_s X_t``) is farther than
``d = 2 sqrt(Var Y / m)`` from ``E Y`` with probability at most 1/4, so by Hoeffding the median of the ``g``
group means is farther than ``d`` with probability at most ``exp(-g/8)``; ``g = ceil(8 log(1/a))`` gives a
rigorous false-alarm bound ``a`` with no distributional approximation. ``Var Y`` is exact
(:mod:`reference.audit.sample_design`, which runs the KARY audit as one linear design among others).

Entry point for the CLI: :func:`load_samples` (reads ``.npy`` or ``.csv``) then one of the two audits;
:meth:`SamplerAuditReport.as_json` gives the JSON object.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np

from reference.audit.whitened_moments import CascadeSampleMoments
from reference.cip.whitening import two_sided_chi2
from reference.core.validate import RealLike, check_depth, positive_real
from reference.kary.digits import check_arity

#: Largest depth the cascade audit accepts (the whitened test is quadratic in 2**depth).
MAX_AUDIT_DEPTH = 8
#: Largest horizon the KARY audit accepts (the covariance test has T(T-1)/2 entries).
MAX_AUDIT_HORIZON = 512
#: How many failing sub-tests a report lists by name (the most significant first).
MAX_LISTED = 10


def _listed(found: list[tuple[float, str]]) -> tuple[str, ...]:
    """The ``MAX_LISTED`` most severe failures (largest severity first), and a count of the others."""
    ordered = [text for _, text in sorted(found, key=lambda item: -item[0])]
    if len(ordered) > MAX_LISTED:
        return (*tuple(ordered[:MAX_LISTED]), f"... and {len(ordered) - MAX_LISTED} more")
    return tuple(ordered)


@dataclass(frozen=True)
class PropertyCheck:
    """One property group of an audit. ``passed`` is False with probability at most ``false_alarm`` under
    the oracle. ``failures`` names each failing sub-test (e.g. "node variance at level 2, position 1 too
    large") with its statistic; ``statistic`` is that of the most significant sub-test."""

    name: str
    passed: bool
    false_alarm: float
    subtests: int
    statistic: float
    failures: tuple[str, ...]
    detail: str


@dataclass(frozen=True)
class SamplerAuditReport:
    """The verdict of a sampler audit: ``passed`` iff every property passed; false-alarm probability at
    most ``alpha`` (union bound over ``checks``)."""

    name: str
    passed: bool
    alpha: float
    runs: int
    dimension: int
    checks: tuple[PropertyCheck, ...]

    @property
    def failures(self) -> tuple[str, ...]:
        """Every named failure, prefixed by its property."""
        return tuple(f"{c.name}: {f}" for c in self.checks for f in c.failures)

    def as_json(self) -> dict[str, object]:
        """A JSON-ready dictionary (reals as decimal strings with 17 significant digits)."""
        return {
            "audit": self.name,
            "passed": self.passed,
            "alpha": f"{self.alpha:.17g}",
            "runs": self.runs,
            "dimension": self.dimension,
            "checks": [
                {
                    "property": c.name,
                    "passed": c.passed,
                    "false_alarm": f"{c.false_alarm:.17g}",
                    "subtests": c.subtests,
                    "statistic": f"{c.statistic:.17g}",
                    "failures": list(c.failures),
                    "detail": c.detail,
                }
                for c in self.checks
            ],
        }


# ------------------------------------------------------------------------------------------ validation


class TooFewRunsError(ValueError):
    """The samples have too few runs for the audit's tests at the requested false-alarm probability: the audit
    cannot decide (an "inconclusive" verdict, not bad input)."""


def _check_alpha(alpha: object) -> float:
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)):
        raise TypeError(f"alpha must be a real number in (0, 1), got {alpha!r}")
    value = float(alpha)
    if not 0.0 < value < 1.0:
        raise ValueError(f"alpha must be a real number in (0, 1), got {alpha!r}")
    return value


def _check_samples(samples: object, columns: int, what: str, min_runs: int = 2) -> np.ndarray:
    if not isinstance(samples, np.ndarray):
        raise TypeError(f"samples must be a numpy array of shape (runs, {columns}), got {type(samples).__name__}")
    if samples.ndim != 2 or samples.shape[1] != columns:
        raise ValueError(f"samples must have shape (runs, {columns}) ({what}), got {samples.shape}")
    if samples.dtype == np.bool_ or not (
        np.issubdtype(samples.dtype, np.floating) or np.issubdtype(samples.dtype, np.integer)
    ):
        raise TypeError(f"samples must be a real (float or integer) array, got dtype {samples.dtype}")
    if samples.shape[0] < min_runs:
        raise TooFewRunsError(
            f"samples must have at least {min_runs} runs (rows) for this alpha, got {samples.shape[0]}"
        )
    values = samples.astype(np.float64)
    if not np.all(np.isfinite(values)):
        raise ValueError("samples must be finite (no NaN or infinity)")
    return values


def _groups(share: float) -> int:
    """Median-of-means group count with false-alarm ``exp(-g/8) <= share``."""
    return max(1, math.ceil(8.0 * math.log(1.0 / share)))


def sample_file_shape(path: object) -> tuple[int, ...]:
    """The shape of the array in a ``.npy`` file (from its header, nothing else is read) or a ``.csv`` file (a
    ``.csv`` file is 2-D, one run per line). Raises ``ValueError`` naming ``path`` for other files."""
    if isinstance(path, (str, Path)) and Path(path).suffix.lower() == ".npy" and Path(path).is_file():
        try:
            return tuple(np.load(Path(path), mmap_mode="r", allow_pickle=False).shape)
        except (OSError, ValueError) as error:
            raise ValueError(f"path {str(path)!r} is not a readable sample array: {error}") from None
    return tuple(load_samples(path).shape)


def require_runs_by_columns(shape: tuple[int, ...], columns: int | None, what: str) -> None:
    """The one rule for sample arrays of a vector mechanism: 2-D, one run per row, ``columns`` values per run
    (``None``: any). Raises ``ValueError`` with a line that says what the file holds and what is needed."""
    if len(shape) != 2:
        raise ValueError(f"samples must be a 2-D array, runs × {what} (one run per row), got shape {shape}")
    if columns is not None and shape[1] != columns:
        raise ValueError(f"samples must have {columns} columns ({what}), one run per row, got shape {shape}")


def load_samples(path: object) -> np.ndarray:
    """Read a 2-D sample array (runs × dimension) from a ``.npy`` file or a comma-separated ``.csv`` file
    (no header). A 1-D array is one run. Raises ``ValueError`` naming ``path`` for other files."""
    if not isinstance(path, (str, Path)):
        raise TypeError(f"path must be a file path, got {path!r}")
    file = Path(path)
    if not file.is_file():
        raise ValueError(f"path must be an existing .npy or .csv file, got {str(file)!r}")
    suffix = file.suffix.lower()
    try:
        if suffix == ".npy":
            array = np.load(file, allow_pickle=False)
        elif suffix == ".csv":
            array = np.loadtxt(file, delimiter=",", dtype=np.float64, ndmin=2)
        else:
            raise ValueError(f"path must end in .npy or .csv, got {str(file)!r}")
    except (OSError, ValueError) as error:
        if "must end in" in str(error):
            raise
        raise ValueError(f"path {str(file)!r} is not a readable sample array: {error}") from None
    result: np.ndarray = np.asarray(array)
    if result.ndim == 1:
        result = result.reshape(1, -1)
    return result


# ------------------------------------------------------------------------------------ Gaussian pieces


def _chi2_group(
    name: str, labels: list[str], squares: np.ndarray, runs: int, share: float
) -> PropertyCheck:
    """Per sub-test ``squares[i]`` (sum of squares / variance) is chi-square(runs); union bound ``share``."""
    count = len(labels)
    p_values = [two_sided_chi2(float(v), runs) for v in squares]
    found: list[tuple[float, str]] = []
    for i, p in enumerate(p_values):
        if count * p <= share:
            direction = "too large" if squares[i] > runs else "too small"
            severity = abs(float(squares[i]) - runs)
            found.append((severity, f"{labels[i]} {direction} (sum of squares / sigma^2 = {squares[i]:.6g} for "
                          f"{runs} dof, p = {p:.3g})"))
    failures = _listed(found)
    worst = int(np.argmin(p_values))
    detail = (
        f"{count} chi-square tests; most significant: {labels[worst]}, ratio sample variance / sigma^2 = "
        f"{squares[worst] / runs:.6g} (p = {p_values[worst]:.3g}); per-test level {share / count:.3g}"
    )
    return PropertyCheck(name, not failures, share, count, float(squares[worst]), failures, detail)


def _critical(runs: int, level: float) -> tuple[float, float]:
    from scipy import stats  # imported here: scipy.stats is slow to import

    return float(stats.chi2.ppf(level / 2.0, runs)), float(stats.chi2.isf(level / 2.0, runs))


def chi_square_scale_power(runs: int, tests: int, alpha: float, power: float = 0.99) -> float:
    """The smallest relative scale error r detected with probability ``power`` by one of ``tests`` two-sided
    chi-square(``runs``) variance tests at total level ``alpha`` (exact chi-square quantiles)."""
    from scipy import stats

    low, high = _critical(runs, alpha / tests)
    up = math.sqrt(high / float(stats.chi2.ppf(1.0 - power, runs))) - 1.0
    down = 1.0 - math.sqrt(low / float(stats.chi2.isf(1.0 - power, runs)))
    return max(up, down)


def pooled_scale_check(statistic: float, dof: int, level: float) -> PropertyCheck:
    """The pooled scale test of both cascade audits: ``statistic`` = root² / σ² plus every (L − R)² / (3σ²) over
    all runs is chi-square with ``dof`` = runs × n degrees of freedom under the oracle (the root and the sibling
    differences are the Haar coefficients, independent), tested two-sided at ``level``."""
    low, high = _critical(dof, level)
    passed = low <= statistic <= high
    ratio = statistic / dof
    failures = () if passed else (f"common scale {'too large' if ratio > 1 else 'too small'}: pooled variance "
                                  f"ratio {ratio:.8g} outside [{low / dof:.8g}, {high / dof:.8g}]",)
    return PropertyCheck("pooled scale", passed, level, 1, ratio, failures,
                         f"one two-sided chi-square({dof}) test of root² / σ² + Σ (L − R)² / (3σ²); variance "
                         f"ratio {ratio:.8g}, acceptance [{low / dof:.8g}, {high / dof:.8g}]")


def cascade_scale_power(runs: int, leaves: int, node_level: float, pooled_level: float) -> float:
    """The smallest relative error of σ common to every node that a cascade audit detects with probability 99%:
    the sharper of one node-variance test (chi-square(``runs``) at ``node_level``) and the pooled scale test
    (chi-square(``runs × leaves``) at ``pooled_level``); ``inf`` below 2 runs."""
    if runs < 2:
        return math.inf
    return min(chi_square_scale_power(runs, 1, node_level), chi_square_scale_power(runs * leaves, 1, pooled_level))


def cascade_samples_power(depth: int, runs: int, alpha: float) -> dict[str, float]:
    """What :func:`audit_cascade_samples` detects at ``runs`` runs with probability 99%: the common scale error
    (:func:`cascade_scale_power`; a node test's level is at least ``alpha / (4 n)``, the pooled test's
    ``alpha / 4``)."""
    leaves = 1 << depth
    return {"scale_error": cascade_scale_power(runs, leaves, alpha / (4 * leaves), alpha / 4)}


def audit_cascade_samples(samples: object, depth: int, sigma: RealLike, alpha: object = 1e-6) -> SamplerAuditReport:
    """Audit ``samples`` (``runs × 2**depth``, one draw of the ``n`` leaves per row) against Cascade
    Sampling's distribution ``N(0, sigma**2 C_depth)``: leaf marginals, internal node variances (from subtree
    sums), the full covariance (whitening) and the pooled scale; ``alpha / 4`` each. ``depth <= 8``;
    ``runs >= 2``."""
    d = check_depth(depth, "depth", maximum=MAX_AUDIT_DEPTH)
    s = positive_real(sigma, "sigma")
    a = _check_alpha(alpha)
    n = 1 << d
    x = _check_samples(samples, n, f"n = 2**depth = {n} leaves per run")
    moments = CascadeSampleMoments(d, s)
    moments.add(x)
    return cascade_samples_report(moments, a)


def cascade_samples_report(moments: object, alpha: float) -> SamplerAuditReport:
    """The verdict of :func:`audit_cascade_samples` from its sufficient statistics
    (:class:`reference.audit.whitened_moments.CascadeSampleMoments`, fed by blocks of runs)."""
    if not isinstance(moments, CascadeSampleMoments):
        raise TypeError("moments must be a CascadeSampleMoments")
    d, s, runs, n = moments.depth, moments.sigma, moments.runs, 1 << moments.depth
    if runs < 2:
        raise TooFewRunsError(f"samples must have at least 2 runs (rows) for this alpha, got {runs}")
    share = alpha / 4.0
    marginals = _chi2_group(
        "marginals", [f"leaf variance at coordinate {i}" for i in range(n)], moments.leaf_squares.values(), runs, share
    )
    labels = [f"node variance at level {level}, position {position}"
              for level in range(d) for position in range(1 << level)]
    if labels:
        nodes = _chi2_group("node variances", labels, moments.node_squares.values(), runs, share)
    else:
        nodes = PropertyCheck("node variances", True, share, 0, 0.0, (), "depth 0: no internal nodes")
    battery = moments.whitened_check(share, f"whitened covariance sigma^2 C_{d}")
    cov_failures = () if battery.passed else (f"whitened samples are not i.i.d. N(0,1): {battery.detail}",)
    covariance = PropertyCheck(
        "covariance", battery.passed, share, battery.subtests, battery.statistic, cov_failures,
        f"Haar whitening of sigma^2 C_{d} (whitened coordinate = Haar basis vector); {battery.detail}",
    )
    checks = (marginals, nodes, covariance, moments.scale.pooled_check(share))
    return SamplerAuditReport(
        f"cascade samples, depth {d}, sigma {s!r}", all(c.passed for c in checks), alpha, runs, n, checks
    )


# ------------------------------------------------------------------------------------- KARY (Laplace)


def _median_of_means(products: np.ndarray, groups: int) -> np.ndarray:
    """Median over ``groups`` equal blocks of runs (trailing runs dropped) of the block means; axis 0."""
    m = products.shape[0] // groups
    blocks = products[: groups * m].reshape((groups, m, *products.shape[1:])).mean(axis=1)
    return np.asarray(np.median(blocks, axis=0))


def audit_kary_noise(samples: object, arity: int, epsilon: RealLike, alpha: object = 1e-6) -> SamplerAuditReport:
    """Audit output noise of Algorithm 2 (``samples`` ``runs × T``: noisy prefix count minus true prefix
    count, one run per row; ``T`` the horizon) against the oracle's: sums of i.i.d. Laplace(h/ε) over the
    index sets ``I_t`` (odd ``arity`` >= 3, ``h = height_for_horizon(arity, T, offset=True)``). Marginal
    variances and all covariance entries by median of means with exact fourth moments
    (:func:`reference.audit.sample_design.audit_design_samples`); ``alpha / 2`` each. Needs
    ``runs >= 2 g`` with ``g = ceil(8 log(2 T (T + 1) / alpha))``; ``T <= 512``."""
    from reference.audit.sample_design import audit_design_samples, kary_design  # it builds on this module

    arity = check_arity(arity, parity="odd", needed_by="Algorithm 2's output noise (offset digits)")
    eps = positive_real(epsilon, "epsilon")
    a = _check_alpha(alpha)
    if not isinstance(samples, np.ndarray) or samples.ndim != 2:
        raise ValueError("samples must be a 2-D numpy array of shape (runs, horizon)")
    horizon = samples.shape[1]
    if not 1 <= horizon <= MAX_AUDIT_HORIZON:
        raise ValueError(f"samples must have 1..{MAX_AUDIT_HORIZON} columns (the horizon), got {horizon}")
    design = kary_design(arity, horizon, 2, Fraction(eps))
    report = audit_design_samples(samples, design, a,
                                  marginal=lambda t: f"marginal variance at step {t + 1}",
                                  pair=lambda s, t: f"covariance entry ({s + 1}, {t + 1})")
    return SamplerAuditReport(f"KARY Algorithm 2 noise, arity {arity}, epsilon {eps!r}, horizon {horizon}",
                              report.passed, report.alpha, report.runs, report.dimension, report.checks)
