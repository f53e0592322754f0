"""One sample audit for every law: :func:`audit_samples` (samples in memory) and :func:`audit_sampler_function`
(a sampler function drawn from here), against a law of :mod:`reference.audit.samples.laws`.

What is tested, by law:

* a **scalar law** (Gaussian, Laplace, discrete Gaussian, discrete Laplace, a TDA level): every value of the
  samples is one i.i.d. draw; the four groups of :mod:`reference.audit.samples.law_checks` (scale by the
  Neyman–Pearson statistic, Kolmogorov–Smirnov, Cramér–von Mises or the certified pmf fit, tails);
* a **linear design** ``B z`` (a ``LinearDesign``; KARY's output noise as one): whitened (Gaussian noise),
  draws recovered (``B`` of full column rank) or second moments with the draws that can be read off
  (:mod:`reference.audit.samples.design_law`, whose docstring gives each route);
* **Cascade Sampling**: whitened by its exact Haar basis up to depth 8, streamed above it or from a ``.npy`` path
  with its family test (:mod:`reference.audit.samples.cascade_law`).

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

from reference.audit.samples.cascade_law import audit_cascade
from reference.audit.samples.design_law import audit_design, kary_linear_design
from reference.audit.samples.law_checks import GROUPS, histogram_checks, law_checks, law_power
from reference.audit.samples.law_report import (
    DEFAULT_SMALLEST_DEVIATION,
    check_deviation,
    law_report,
    sample_matrix,
    too_few_runs,
)
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
from reference.audit.samples.report import SamplerAuditReport, check_alpha
from reference.audit.samples.scale_test import ScaleTest


def _integers(values: np.ndarray, law: ScalarLaw) -> np.ndarray:
    if isinstance(law, (DiscreteGaussian, DiscreteLaplace)) and not np.array_equal(values, np.rint(values)):
        raise ValueError("samples must hold integers for a discrete law")
    return values


#: Float values converted to integers per step: a chunk and its copies stay within a core's cache.
CONVERT_CHUNK = 1 << 16


def _float_integers(values: np.ndarray) -> np.ndarray:
    """The float draws of a discrete law as int64, chunk by chunk (one pass over the samples): each finite and an
    integer (values beyond ±2^53, all integers and far in the tails, clipped there when the cast is not exact)."""
    out = np.empty(values.size, dtype=np.int64)
    for start in range(0, values.size, CONVERT_CHUNK):
        chunk = values[start:start + CONVERT_CHUNK]
        converted = out[start:start + chunk.size]
        with np.errstate(invalid="ignore"):  # NaN, ±inf and |x| >= 2^63 cast to garbage: the comparison sees it
            converted[:] = chunk
        if np.array_equal(converted, chunk):
            continue
        if not np.all(np.isfinite(chunk)):
            raise ValueError("samples must be finite (no NaN or infinity)")
        if not np.array_equal(chunk, np.rint(chunk)):
            raise ValueError("samples must hold integers for a discrete law")
        converted[:] = np.clip(chunk, -2.0**53, 2.0**53)
    return out


def audit_samples(samples: object, law: Law, *, alpha: float = 1e-6,
                  smallest_deviation: float = DEFAULT_SMALLEST_DEVIATION) -> SamplerAuditReport:
    """Audit ``samples`` against ``law`` (module docstring). False alarm at most ``alpha``; the verdict is
    "inconclusive" when the runs cannot detect a relative scale error of ``smallest_deviation`` with probability
    99%.

    Args:
        samples: anything the caller was given: accepted when a real (float or integer) numpy array of shape
            ``(runs, n)``, one run per row (``n`` fixed by the law: ``2**depth`` for a cascade, the outputs of a
            design, the horizon for KARY), a 1-D array being ``runs`` draws of a scalar law; for a
            :class:`~reference.audit.samples.laws.Cascade`, also a path to a ``.npy`` file, streamed.
        law: the law the samples claim to follow (:mod:`reference.audit.samples.laws`).
        alpha: the total false-alarm probability, a real in (0, 1) (default 1e-6); the groups of tests share it
            (Bonferroni).
        smallest_deviation: the relative scale error the audit must detect with probability 99% before a pass
            counts as "holds", a real in (0, 1) (default :data:`~reference.audit.samples.law_report.DEFAULT_SMALLEST_DEVIATION`,
            2%); below that power the verdict is "inconclusive" with the runs needed.
    """
    chosen = check_law(law)
    level = check_alpha(alpha)
    deviation = check_deviation(smallest_deviation)
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
        elif (isinstance(chosen, (DiscreteGaussian, DiscreteLaplace)) and isinstance(samples, np.ndarray)
              and samples.dtype in (np.float64, np.float32) and samples.ndim in (1, 2)):
            # float draws of a discrete law: checked and converted to integers in one chunked pass
            x = samples.reshape(-1, 1) if samples.ndim == 1 else samples
            values = _float_integers(x.reshape(-1))
        else:
            x = sample_matrix(samples, None)
            values = _integers(x.reshape(-1), chosen)
        share = level / GROUPS
        if values.size < 2:
            return too_few_runs(chosen.name, level, x.shape[0], x.shape[1], f"{values.size} values cannot be tested",
                            deviation, ScaleTest(chosen, share).values_needed(deviation, max(1, x.shape[1])))
        checks = law_checks(values, chosen, share)
        power = law_power(chosen, values.size, x.shape[1], share, deviation)
        report = law_report(f"{chosen.name} ({values.size} values)", level, x.shape[0], x.shape[1], checks, power,
                         deviation, ScaleTest(chosen, share), values.size)
        return replace(report, units=_scalar_units(values, chosen)) if report.verdict == "fails" else report
    if isinstance(chosen, Cascade):
        return audit_cascade(samples, chosen, level, deviation)
    if isinstance(chosen, KaryNoise):
        x = sample_matrix(samples, None)
        horizon = x.shape[1]
        design = kary_linear_design(chosen, horizon)
        report = audit_design(x, design, level, deviation)
        return replace(report, name=report.name.replace(design.name, f"{chosen.name}, horizon {horizon}"))
    assert isinstance(chosen, LinearDesign)
    return audit_design(sample_matrix(samples, chosen.outputs), chosen, level, deviation)


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
                    alpha: float = 1e-6, smallest_deviation: float = DEFAULT_SMALLEST_DEVIATION
                    ) -> SamplerAuditReport:
    """:func:`audit_samples` of a discrete law from the histogram of the values drawn, the sufficient statistic the
    streamed sampler-function audit keeps: the same tests, the same verdict.

    Args:
        histogram: each value drawn → how often it was drawn (non-negative integer counts).
        law: the discrete law claimed (a TDA level is its cells' discrete Gaussian).
        runs: the runs (rows) the values came in; the values per run are the total count over ``runs``.
        alpha: the total false-alarm probability, a real in (0, 1) (default 1e-6); the groups of tests share it
            (Bonferroni).
        smallest_deviation: the relative scale error the audit must detect with probability 99% before a pass
            counts as "holds", a real in (0, 1) (default :data:`~reference.audit.samples.law_report.DEFAULT_SMALLEST_DEVIATION`,
            2%); below that power the verdict is "inconclusive" with the runs needed.
    """
    chosen = law.cell_law() if isinstance(law, TdaLevel) else law
    if not isinstance(chosen, (DiscreteGaussian, DiscreteLaplace)):
        raise TypeError("law must be a DiscreteGaussian, DiscreteLaplace or TdaLevel for a histogram")
    level = check_alpha(alpha)
    deviation = check_deviation(smallest_deviation)
    values = sum(int(count) for count in histogram.values())
    per_run = max(1, values // max(runs, 1))
    share = level / GROUPS
    if values < 2:
        return too_few_runs(chosen.name, level, runs, per_run, f"{values} values cannot be tested", deviation,
                        ScaleTest(chosen, share).values_needed(deviation, per_run))
    checks = histogram_checks(histogram, chosen, share)
    power = law_power(chosen, values, per_run, share, deviation)
    return law_report(f"{law.name} ({values} values)", level, runs, per_run, checks, power, deviation,
                   ScaleTest(chosen, share), values)


# ------------------------------------------------------------------------------------------------ functions


def law_columns(law: Law, horizon: int | None = None) -> int | None:
    """Values per run a sampler of ``law`` returns (``None``: any, for a scalar law).

    Args:
        law: the law sampled.
        horizon: the steps of a KARY law (its values per run); ignored for the other laws.
    """
    if isinstance(law, Cascade):
        return 1 << law.depth
    if isinstance(law, LinearDesign):
        return law.outputs
    if isinstance(law, KaryNoise):
        return horizon
    return None


def audit_sampler_function(function: Callable[..., Any], law: Law, *, runs: int, seed: int = 0,
                           horizon: int | None = None, alpha: float = 1e-6,
                           smallest_deviation: float = DEFAULT_SMALLEST_DEVIATION) -> SamplerAuditReport:
    """Draw ``runs`` runs from ``function(generator, runs)`` and audit them against ``law`` (:func:`audit_samples`).
    The runs are held in memory; the command line's ``audit sampler-function`` streams them on Dask instead.

    Args:
        function: the sampler, called once as ``function(generator, runs)`` with a ``numpy.random.Generator``; it
            returns ``runs`` runs, shape ``(runs, n)`` (a 1-D array for a scalar law).
        law: the law the sampler claims to draw from.
        runs: the runs to draw, a positive integer.
        seed: the generator's seed, a non-negative integer (default 0): the audit is reproducible.
        horizon: the values per run of a KARY law (required for one; ignored otherwise).
        alpha: the total false-alarm probability, a real in (0, 1) (default 1e-6); the groups of tests share it
            (Bonferroni).
        smallest_deviation: the relative scale error the audit must detect with probability 99% before a pass
            counts as "holds", a real in (0, 1) (default :data:`~reference.audit.samples.law_report.DEFAULT_SMALLEST_DEVIATION`,
            2%); below that power the verdict is "inconclusive" with the runs needed.
    """
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
