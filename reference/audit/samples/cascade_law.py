"""The whole-law audit of Cascade Sampling's leaves (CIP Algorithm 1) at a depth and σ: whitened by the exact Haar
basis in memory up to :data:`MAX_WHITENED_DEPTH` (the i.i.d. ``N(0, 1)`` audit of
:mod:`reference.audit.samples.design_law`), streamed above it or for a ``.npy`` path
(:mod:`reference.audit.samples.cascade_stream`: node variances, sibling covariances, the pooled scale test, and the
magnitude counts of :mod:`reference.audit.samples.magnitude_cells` for the family). Depth 0 has one leaf, one
N(0, σ²) draw per run: it is the scalar Gaussian's whole-law audit, streamed or not.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np

from reference.audit.samples.design_law import audit_whitened
from reference.audit.samples.law_report import sample_matrix
from reference.audit.samples.laws import Cascade
from reference.audit.samples.report import PowerLine, SamplerAuditReport
from reference.audit.samples.scale_test import POWER, runs_needed

#: Largest depth the cascade is whitened at in memory (the streamed audit above it).
MAX_WHITENED_DEPTH = 8


def audit_cascade(samples: object, law: Cascade, alpha: float, deviation: float) -> SamplerAuditReport:
    """The whole-law audit of Cascade Sampling's leaves (module docstring for the route taken).

    Args:
        samples: anything the caller was given: accepted when the runs, shape ``(runs, 2**depth)``: a numpy array, or a path to a ``.npy`` file (streamed,
            memory-mapped; at depth 0 read whole, one value per run).
        law: the cascade's depth and σ.
        alpha: the audit's total false-alarm probability.
        deviation: the smallest relative scale error the audit must see.
    """
    leaves = 1 << law.depth
    if law.depth == 0 or (law.depth <= MAX_WHITENED_DEPTH and isinstance(samples, np.ndarray)):
        # depth 0 streamed too: its one leaf per run has no sibling for the streamed family test, so it gets the
        # scalar Gaussian's whole-law audit (one value per run: the file is as long as the runs)
        from reference.audit.samples.cascade_stream import open_cascade_samples
        from reference.audit.samples.whitened_moments import cascade_whitening

        x = sample_matrix(np.asarray(open_cascade_samples(samples)), leaves)
        from reference.audit.samples.power import units_line as units_of

        report = audit_whitened(x, cascade_whitening(law.depth, float(law.sigma)), law.name, alpha, deviation)
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
    wrong law (the magnitude counts), each with the runs it needs.

    Args:
        report: the streamed audit's report (:func:`~reference.audit.samples.cascade_stream.audit_cascade_stream`).
        law: the cascade's depth (at least 1: depth 0 has no sibling pairs to count) and σ.
        alpha: the audit's total false-alarm probability (the levels its sub-tests ran at follow from it).
        deviation: the smallest relative scale error the audit must see.
    """
    if law.depth == 0:  # one leaf, no Haar coefficient: the streamed tests cannot see the family
        raise ValueError("depth must be at least 1 for the streamed cascade audit (depth 0 is one Gaussian draw "
                         "per run: audit it as the Gaussian law)")
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
