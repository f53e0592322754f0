"""Sampler audit: test another implementation's samples against the oracle.

Two audits, each returning a :class:`SamplerAuditReport` whose false-alarm probability (the probability of
``holds == False`` when the samples really are i.i.d. draws from the oracle's distribution) is at most
``alpha``. ``alpha`` is split evenly over the property groups, and inside a group over its sub-tests, by the
union bound.

:func:`audit_cascade_samples` (Cascade Sampling leaves, Gaussian, covariance ``sigma**2 C_depth``):

1. *marginals*: per leaf, ``sum x**2 / sigma**2`` is chi-square with ``runs`` dof (exact, two-sided);
2. *node variances*: per internal node of the binary tree, the subtree sum of leaves is ``N(0, sigma**2)``
   (Theorem 3.3), so the same chi-square test applies;
3. *covariance*: the rows whitened with the exact Haar whitening of ``sigma**2 C_depth`` are tested to be
   i.i.d. ``N(0, 1)`` by the battery of :func:`reference.cip.whitening.whitened_normal_test`, its
   Kolmogorov–Smirnov part on a fixed grid (:mod:`reference.audit.samples.whitened_moments`: every test reads sums over
   runs, so blocks of runs feed :class:`~reference.audit.samples.whitened_moments.CascadeSampleMoments` and the verdict
   does not depend on the split);
4. *pooled scale*: the streamed audit's test (:func:`pooled_scale_check`, the statistic accumulated by the same
   :class:`reference.audit.samples.cascade_stream.CascadeMoments`): ``root²/σ² + Σ (L − R)²/(3σ²)`` over all runs is
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
(:mod:`reference.audit.samples.design_audit`, which runs the KARY audit as one linear design among others).

Entry point for the CLI: :func:`load_samples` (reads ``.npy`` or ``.csv``) then one of the two audits;
:meth:`SamplerAuditReport.as_json` gives the JSON object.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import numpy as np

from reference.audit.samples.design_audit import audit_design_samples, detectable_scale_error, kary_design
from reference.audit.samples.report import (
    PropertyCheck,
    SamplerAuditReport,
    TooFewRunsError,
    cascade_scale_power,
    check_alpha,
    check_samples,
    chi_square_group,
)
from reference.audit.samples.whitened_moments import CascadeSampleMoments
from reference.core.exact_text import message_value
from reference.core.npy_files import load_npy
from reference.core.validate import RealLike, check_depth, positive_real
from reference.kary.digits import check_arity

#: Largest depth the cascade audit accepts (the whitened test is quadratic in 2**depth).
MAX_AUDIT_DEPTH = 8
#: Largest horizon the KARY audit accepts (the covariance test has T(T-1)/2 entries).
MAX_AUDIT_HORIZON = 512


# ------------------------------------------------------------------------------------------ validation


def load_samples(path: str | Path) -> np.ndarray:
    """Read a 2-D sample array (runs × dimension) from a ``.npy`` file or a comma-separated ``.csv`` file
    (no header). A 1-D array is one run. Raises ``ValueError`` naming ``path`` for other files.

    Args:
        path: the file, ending in ``.npy`` (at most 4 GiB) or ``.csv`` (numbers separated by commas, one run per
            line, no header).

    Returns:
        The samples, shape (runs, dimension).

    Raises:
        TypeError: ``path`` is not a ``str`` or ``Path``.
        ValueError: the file does not exist, has another suffix, or is not a readable sample array.
    """
    if not isinstance(path, (str, Path)):
        raise TypeError(f"path must be a file path, got {path!r}")
    file = Path(path)
    if not file.is_file():
        raise ValueError(f"path must be an existing .npy or .csv file, got {str(file)!r}")
    suffix = file.suffix.lower()
    try:
        if suffix == ".npy":
            # a sample array may be large (runs × dimension float64): up to 4 GiB, cascade sample's default
            array = load_npy(file, "samples", max_bytes=4 << 30)
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


def cascade_samples_power(depth: int, runs: int, alpha: float) -> dict[str, float]:
    """What :func:`audit_cascade_samples` detects at ``runs`` runs with probability 99%: the common scale error
    (:func:`cascade_scale_power`; a node test's level is at least ``alpha / (4 n)``, the pooled test's
    ``alpha / 4``).

    Args:
        depth: the tree depth, an integer >= 0 (n = 2**depth leaves).
        runs: the number of runs, an integer >= 1.
        alpha: the audit's total false-alarm probability, in (0, 1).

    Returns:
        ``{"scale_error": r}``: the relative error r of σ common to every node detected with probability 99%.
    """
    leaves = 1 << depth
    return {"scale_error": cascade_scale_power(runs, leaves, alpha / (4 * leaves), alpha / 4)}


def sample_file_shape(path: str | Path) -> tuple[int, ...]:
    """The shape of the array in a ``.npy`` file (from its header, nothing else is read) or a ``.csv`` file (a
    ``.csv`` file is 2-D, one run per line). Raises ``ValueError`` naming ``path`` for other files.

    Args:
        path: the sample file, ending in ``.npy`` or ``.csv`` (as for :func:`load_samples`; a ``.csv`` file is
            read whole).

    Returns:
        The array's shape (a 1-D ``.npy`` array gives a 1-tuple).

    Raises:
        TypeError: ``path`` is not a ``str`` or ``Path``.
        ValueError: the file does not exist, has another suffix, or is not a readable sample array.
    """
    if isinstance(path, (str, Path)) and Path(path).suffix.lower() == ".npy" and Path(path).is_file():
        try:
            return tuple(load_npy(path, "samples", mmap=True).shape)
        except (OSError, ValueError) as error:
            raise ValueError(f"path {str(path)!r} is not a readable sample array: {error}") from None
    return tuple(load_samples(path).shape)


def require_runs_by_columns(shape: tuple[int, ...], columns: int | None, what: str) -> None:
    """The one rule for sample arrays of a vector mechanism: 2-D, one run per row, ``columns`` values per run
    (``None``: any). Raises ``ValueError`` with a line that says what the file holds and what is needed.

    Args:
        shape: the shape of the sample array (e.g. from :func:`sample_file_shape`).
        columns: the values per run the mechanism produces, or ``None`` when any number is accepted.
        what: what one run's values are, for the message (e.g. ``"n = 2**depth = 8 leaves per run"``).

    Raises:
        ValueError: ``shape`` is not 2-D, or has another number of columns than ``columns``.
    """
    if len(shape) != 2:
        raise ValueError(f"samples must be a 2-D array, runs × {what} (one run per row), got shape {shape}")
    if columns is not None and shape[1] != columns:
        raise ValueError(f"samples must have {columns} columns ({what}), one run per row, got shape {shape}")



def audit_cascade_samples(samples: np.ndarray, depth: int, *, sigma: RealLike, alpha: float = 1e-6) -> SamplerAuditReport:
    """Audit ``samples`` (``runs × 2**depth``, one draw of the ``n`` leaves per row) against Cascade
    Sampling's distribution ``N(0, sigma**2 C_depth)``: leaf marginals, internal node variances (from subtree
    sums), the full covariance (whitening) and the pooled scale; ``alpha / 4`` each. ``depth <= 8``;
    ``runs >= 2``.

    Args:
        samples: the leaves, one run per row (``runs × 2**depth``, a real numpy array; at least 2 runs).
        depth: the tree depth, an integer in [0, 8] (the whitened test is quadratic in ``2**depth``).
        sigma: σ > 0, the standard deviation of every node.
        alpha: the total false-alarm probability, in (0, 1).
    """
    d = check_depth(depth, "depth", maximum=MAX_AUDIT_DEPTH)
    s = positive_real(sigma, "sigma")
    a = check_alpha(alpha)
    n = 1 << d
    x = check_samples(samples, n, f"n = 2**depth = {n} leaves per run")
    moments = CascadeSampleMoments(d, s)
    moments.add(x)
    report = cascade_samples_report(moments, a)

    def detected(runs: int) -> float:
        return cascade_samples_power(d, runs, a)["scale_error"]

    return _held_to(report, detected)


def _held_to(report: SamplerAuditReport, detected: Callable[[int], float]) -> SamplerAuditReport:
    """``report`` held to a relative scale error of :data:`reference.audit.samples.law_report.DEFAULT_SMALLEST_DEVIATION`
    (2%): "inconclusive", with the runs needed, when its tests cannot see it with probability 99% — these
    second-moment audits never pass silently (the whole-law audit, ``audit_samples``, tests the family too)."""
    from reference.audit.samples.law_report import DEFAULT_SMALLEST_DEVIATION
    from reference.audit.samples.scale_test import runs_needed

    deviation = DEFAULT_SMALLEST_DEVIATION
    return replace(report, smallest_deviation=deviation, detectable_deviation=detected(report.runs),
                   runs_needed=runs_needed(lambda runs: detected(runs) <= deviation, 16),
                   deviation_of="the noise scale")


def cascade_samples_report(moments: CascadeSampleMoments, alpha: float) -> SamplerAuditReport:
    """The verdict of :func:`audit_cascade_samples` from its sufficient statistics
    (:class:`reference.audit.samples.whitened_moments.CascadeSampleMoments`, fed by blocks of runs).

    Args:
        moments: the statistics of every run of the audit (blocks merged), at the claimed depth and σ.
        alpha: the total false-alarm probability, in (0, 1) (already checked): ``alpha / 4`` for each of the
            marginals, node variances, whitened covariance and pooled scale.

    Returns:
        The report of the four property groups.

    Raises:
        TypeError: ``moments`` is not a ``CascadeSampleMoments``.
        TooFewRunsError: fewer than 2 runs were seen.
    """
    if not isinstance(moments, CascadeSampleMoments):
        raise TypeError("moments must be a CascadeSampleMoments")
    d, s, runs, n = moments.depth, moments.sigma, moments.runs, 1 << moments.depth
    if runs < 2:
        raise TooFewRunsError(f"samples must have at least 2 runs (rows) for this alpha, got {message_value(runs)}")
    share = alpha / 4.0
    marginals = chi_square_group(
        "marginals", [f"leaf variance at coordinate {i}" for i in range(n)], moments.leaf_squares.values(), runs, share
    )
    labels = [f"node variance at level {level}, position {position}"
              for level in range(d) for position in range(1 << level)]
    if labels:
        nodes = chi_square_group("node variances", labels, moments.node_squares.values(), runs, share)
    else:
        nodes = PropertyCheck("node variances", True, share, 0, 0.0, (), "depth 0: no internal nodes")
    battery = moments.whitened_check(share, f"whitened covariance sigma^2 C_{d}")
    cov_failures = () if battery.holds else (f"whitened samples are not i.i.d. N(0,1): {battery.detail}",)
    covariance = PropertyCheck(
        "covariance", battery.holds, share, battery.subtests or 0, battery.statistic, cov_failures,
        f"Haar whitening of sigma^2 C_{d} (whitened coordinate = Haar basis vector); {battery.detail}",
    )
    checks = (marginals, nodes, covariance, moments.scale.pooled_check(share))
    return SamplerAuditReport(
        f"cascade samples, depth {d}, sigma {s!r}", all(c.holds for c in checks), alpha, runs, n, checks
    )


# ------------------------------------------------------------------------------------- KARY (Laplace)


def audit_kary_noise(samples: np.ndarray, arity: int, *, epsilon: RealLike, alpha: float = 1e-6) -> SamplerAuditReport:
    """Audit output noise of Algorithm 2 (``samples`` ``runs × T``: noisy prefix count minus true prefix
    count, one run per row; ``T`` the horizon) against the oracle's: sums of i.i.d. Laplace(h/ε) over the
    index sets ``I_t`` (odd ``arity`` >= 3, ``h = height_for_horizon(arity, T, offset=True)``). Marginal
    variances and all covariance entries by median of means with exact fourth moments
    (:func:`reference.audit.samples.design_audit.audit_design_samples`); ``alpha / 2`` each. Needs
    ``runs >= 2 g`` with ``g = ceil(8 log(2 T (T + 1) / alpha))``; ``T <= 512``.

    Args:
        samples: the output noise, one run per row (``runs × T``, a real numpy array, ``T <= 512``).
        arity: the tree's arity k, an odd integer >= 3 (Algorithm 2's offset digits).
        epsilon: ε > 0; the vertex noise is Laplace(h/ε).
        alpha: the total false-alarm probability, in (0, 1).
    """
    arity = check_arity(arity, parity="odd", needed_by="Algorithm 2's output noise (offset digits)")
    eps = positive_real(epsilon, "epsilon")
    a = check_alpha(alpha)
    if not isinstance(samples, np.ndarray) or samples.ndim != 2:
        raise ValueError("samples must be a 2-D numpy array of shape (runs, horizon)")
    horizon = samples.shape[1]
    if not 1 <= horizon <= MAX_AUDIT_HORIZON:
        raise ValueError(f"samples must have 1..{MAX_AUDIT_HORIZON} columns (the horizon), got {message_value(horizon)}")
    design = kary_design(arity, horizon, 2, Fraction(eps))
    report = audit_design_samples(samples, design, a,
                                  marginal=lambda t: f"marginal variance at step {t + 1}",
                                  pair=lambda s, t: f"covariance entry ({s + 1}, {t + 1})")
    kary = SamplerAuditReport(f"KARY Algorithm 2 noise, arity {arity}, epsilon {eps!r}, horizon {horizon}",
                              report.holds, report.alpha, report.runs, report.dimension, report.checks)
    return _held_to(kary, lambda runs: detectable_scale_error(design, runs, a))
