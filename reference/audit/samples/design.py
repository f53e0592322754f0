"""The law of a linear design ``X = B z`` and the median-of-means test of its second moments, entry by entry.

:class:`Design` holds the exact second moments ``M`` and the excess-kurtosis term ``K`` (derived in
:mod:`reference.audit.samples.design_audit`, which builds designs and audits samples against them);
:func:`entry_check` tests observed median-of-means second moments against ``M`` with the allowed deviation
``2 sqrt(Var(X_s X_t)/m)``. Both the in-memory audit and its block statistics
(:mod:`reference.audit.samples.design_moments`) build on this module.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from reference.audit.samples.report import PropertyCheck, listed_failures
from reference.core.linalg import Matrix


@dataclass(frozen=True)
class Design:
    """The law of ``X = B z``: exact second moments ``M`` and the excess-kurtosis term ``K`` (module docstring)."""

    name: str
    second_moment: Matrix  # M = B diag(v) Bᵀ, outputs × outputs
    kurtosis_term: Matrix  # K = (B∘B) diag(μ4 − 3v²) (B∘B)ᵀ
    noise: str = "laplace"  # "gaussian": X is exactly N(0, M), and the whitened chi-square test applies
    #: the law B z the moments were derived from (a :class:`reference.audit.samples.laws.LinearDesign`), which the
    #: whole-law audit tests (family, tails, correlations) beside these second moments
    law: object = None

    @property
    def outputs(self) -> int:
        """The dimension of one sample."""
        return len(self.second_moment)

    def product_variance(self, first: int, second: int) -> Fraction:
        """Var(X_s X_t), exact.

        Args:
            first: the output s, an index in ``range(outputs)``.
            second: the output t, an index in ``range(outputs)`` (``t = s``: Var(X_s²)).

        Returns:
            ``K_st + M_ss M_tt + M_st²`` as an exact ``Fraction``.
        """
        moment = self.second_moment
        return (self.kurtosis_term[first][second] + moment[first][first] * moment[second][second]
                + moment[first][second] ** 2)


def whitening_of(design: Design) -> np.ndarray | None:
    """inv(L) for the float Cholesky factor L of M (Gaussian designs with M positive definite), else None.

    Args:
        design: the design whose second moments M are to be whitened.

    Returns:
        inv(L) as a float (outputs, outputs) array, or ``None`` for non-Gaussian noise or a singular M.
    """
    if design.noise != "gaussian":
        return None
    moment = np.array([[float(v) for v in row] for row in design.second_moment])
    try:
        factor = np.linalg.cholesky(moment)
    except np.linalg.LinAlgError:
        return None  # M singular: the whitened test does not apply (the median-of-means tests still do)
    return np.asarray(np.linalg.inv(factor))


def allowed_deviation(design: Design, first: int, second: int, per_group: int) -> float:
    """The median-of-means band ``2 sqrt(Var(X_s X_t) / m)`` around ``M_st`` (Chebyshev per group mean: outside it
    with probability at most 1/4).

    Args:
        design: the claimed design.
        first: the output s, an index in ``range(outputs)``.
        second: the output t, an index in ``range(outputs)``.
        per_group: m, the runs per group, an integer >= 1.

    Returns:
        The allowed deviation of a group mean of X_s X_t, as a float.
    """
    return 2.0 * math.sqrt(float(design.product_variance(first, second)) / per_group)


def output_label(t: int) -> str:
    """How a failure names output ``t``'s variance (the default for a design's marginals).

    Args:
        t: the output's index, from 0.
    """
    return f"variance of output {t}"


def pair_label(s: int, t: int) -> str:
    """How a failure names the covariance of two outputs (the default for a design's covariance entries).

    Args:
        s: the first output's index, from 0.
        t: the second output's index, from 0.
    """
    return f"covariance of outputs ({s}, {t})"


def entry_check(name: str, design: Design, observed: np.ndarray, entries: Sequence[tuple[int, int]],
                 per_group: int, groups: int, share: float, label: Callable[[int, int], str]) -> PropertyCheck:
    """Median of means of X_s X_t against M_st for each entry, allowed deviation 2 sqrt(Var(X_s X_t)/m).

    Args:
        name: the property group's name in the report (e.g. ``"marginals"``, ``"covariance"``).
        design: the claimed design (M and the exact Var(X_s X_t)).
        observed: the medians of the group means, a float (outputs, outputs) array read at the tested entries.
        entries: the (s, t) entries to test, indices of outputs.
        per_group: m, the runs per group, an integer >= 1.
        groups: g, the number of groups (only reported; the level it gives is ``share``).
        share: the false-alarm probability spent on this group of tests, in (0, 1).
        label: names entry (s, t) in the failures.

    Returns:
        The group's check: holds when every entry is within its allowed deviation.
    """
    found: list[tuple[float, str]] = []
    worst, worst_at = 0.0, "none"
    for s, t in entries:
        exact = float(design.second_moment[s][t])
        bound = allowed_deviation(design, s, t, per_group)
        deviation = float(observed[s, t]) - exact
        ratio = abs(deviation) / bound if bound > 0 else (math.inf if deviation != 0 else 0.0)
        if ratio > worst:
            worst, worst_at = ratio, label(s, t)
        if ratio > 1.0:
            verdict = ("too large" if deviation > 0 else "too small") if s == t else "differs"
            found.append((ratio, f"{label(s, t)} {verdict} (median of means {float(observed[s, t]):.6g}, exact "
                                 f"{exact:.6g}, allowed deviation {bound:.6g})"))
    return PropertyCheck(name, not found, share, len(entries), worst, listed_failures(found),
                         f"{len(entries)} median-of-means tests ({groups} groups of {per_group}); largest "
                         f"|deviation|/allowed {worst:.3g} at {worst_at}")
