"""What every law audit shares: the default deviations, the checked sample matrix, the report held to its scale
power line, and the inconclusive report when no test can run. The audits themselves are
:mod:`reference.audit.samples.law_audit` (scalar laws, the entry points), :mod:`reference.audit.samples.design_law`
(linear designs ``B z``) and :mod:`reference.audit.samples.cascade_law` (Cascade Sampling).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from reference.audit.samples.laws import LinearDesign
from reference.audit.samples.report import PowerLine, PropertyCheck, SamplerAuditReport
from reference.audit.samples.scale_test import POWER, ScaleTest

#: The relative scale error a sample audit must detect with probability 99% before a pass counts as "holds".
DEFAULT_SMALLEST_DEVIATION = 0.02
#: The correlation error between two draws (or whitened coordinates) whose detection probability is stated.
DEFAULT_CORRELATION_ERROR = 0.05


def check_deviation(value: object) -> float:
    """The smallest relative scale error an audit must see, checked at the public boundary.

    Args:
        value: what the caller passed as ``smallest_deviation``: a real in (0, 1) (int, float or Fraction).

    Raises:
        ValueError: naming ``smallest_deviation`` when ``value`` is not a real in (0, 1).
    """
    if isinstance(value, bool) or not isinstance(value, (int, float, Fraction)) or not 0 < float(value) < 1:
        raise ValueError(f"smallest_deviation must be a relative error in (0, 1), got {value!r}")
    return float(value)


def sample_matrix(samples: object, columns: int | None) -> np.ndarray:
    """The samples as a finite float64 array of shape ``(runs, columns)``, one run per row.

    Args:
        samples: anything the caller was given: accepted when a real (float or integer) numpy array; a 1-D array is one column of
            draws when ``columns`` is None (a scalar law).
        columns: the values per run the law fixes, or None for a scalar law (any width).

    Raises:
        TypeError: naming ``samples`` when it is not a real numpy array.
        ValueError: naming ``samples`` when its shape is not ``(runs, columns)`` or a value is NaN or infinite.
    """
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


def float_matrix(design: LinearDesign) -> np.ndarray:
    """The design's noise matrix ``B`` in float64 (its exact entries rounded once), shape ``(outputs, draws)``.

    Args:
        design: the linear design whose ``B`` is wanted.
    """
    return np.array([[float(entry) for entry in row] for row in design.noise_matrix])


def law_report(name: str, law_alpha: float, runs: int, dimension: int, checks: list[PropertyCheck],
               power: list[PowerLine], deviation: float, scale_test: ScaleTest, values: int) -> SamplerAuditReport:
    """The report, its verdict held to the scale power line (``power[0]``): "inconclusive" when every check holds
    but the runs cannot see the scale error ``deviation`` with probability 99%.

    Args:
        name: the law (and route) as the report names it.
        law_alpha: the audit's total false-alarm probability.
        runs: the runs (rows) audited.
        dimension: the values per run.
        checks: the property checks that ran, each at its share of ``law_alpha``.
        power: the power lines; the first is the scale line the verdict is held to.
        deviation: the smallest relative scale error the audit must see.
        scale_test: the scale test that ran, which gives ``detectable_deviation``: the relative scale error it
            detects with probability 99% at ``values`` (both directions).
        values: the values the scale test read.
    """
    scale = power[0]
    detectable = scale_test.detected_error(values)
    if scale.detection_probability < POWER:  # the same question, asked at the stated deviation: they must agree
        detectable = max(detectable, math.nextafter(deviation, math.inf))
    return SamplerAuditReport(
        name, all(check.holds for check in checks), law_alpha, runs, dimension, tuple(checks),
        smallest_deviation=deviation, detectable_deviation=detectable,
        runs_needed=scale.runs_needed, power=tuple(power), deviation_of="the noise scale")


def too_few_runs(name: str, alpha: float, runs: int, dimension: int, reason: str, deviation: float,
                 needed: int | None) -> SamplerAuditReport:
    """An "inconclusive" report: no test could run.

    Args:
        name: the law as the report names it.
        alpha: the audit's total false-alarm probability.
        runs: the runs given.
        dimension: the values per run.
        reason: why no test ran (e.g. "2 runs cannot be tested").
        deviation: the smallest relative scale error the audit must see.
        needed: the runs that would see ``deviation`` with probability 99%, or None when unknown.
    """
    check = PropertyCheck("runs", True, 0.0, 0, 0.0, (), reason)
    return SamplerAuditReport(name, True, alpha, runs, dimension, (check,), smallest_deviation=deviation,
                              detectable_deviation=math.inf, runs_needed=needed,
                              power=(PowerLine(f"scale off by ±{deviation:.3g} (relative)", 0.0, needed, reason),),
                              deviation_of="the noise scale")
