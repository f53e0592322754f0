"""A pooled scale test for any linear design ``X = B z``, by median of means of one quadratic form per run.

For designs whose draws can be neither recovered nor whitened to i.i.d. values (KARY Algorithms 2 and 3 draw more
values than they output), the per-entry second-moment tests see a scale error only through one output at a time.
Pooling every output into ``Q = Xᵀ M⁺ X`` (``M = B diag(v) Bᵀ``, ``M⁺`` its pseudo-inverse) gives one statistic
per run whose law is known through its first two moments: with ``A = Bᵀ M⁺ B`` and independent zero-mean draws of
variance ``v_j`` and fourth moment ``μ4_j``,

    E Q = Σ_j A_jj v_j   (= rank M),      Var Q = Σ_j A_jj² (μ4_j − 3 v_j²) + 2 Σ_{j,l} A_jl² v_j v_l

(expanding ``E[(zᵀ A z)²]`` over the pairings of four draws). The runs are split into ``g = ⌈8 log(1/share)⌉``
groups of ``m``; a group mean of ``Q`` is farther than ``d = 2 sqrt(Var Q / m)`` from ``E Q`` with probability at
most 1/4 (Chebyshev), so the median of the group means is with probability at most ``exp(−g/8) <= share``
(Hoeffding): a rigorous, distribution-free false-alarm bound (``M⁺`` in binary64). A scale ``1 + r`` multiplies
``E Q`` and ``d`` by ``(1 + r)²``, so the test detects it (probability at least ``1 − share``) once
``(1 + r)² (E Q − d) >= E Q + d`` (and ``(1 − r)² (E Q + d) <= E Q − d`` below).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from reference.audit.samples.report import PropertyCheck, median_groups


@dataclass(frozen=True)
class PooledScale:
    """The quadratic form ``Q = Xᵀ M⁺ X`` of a design (``matrix`` B, per-draw ``variances`` and ``fourth``
    moments, binary64) and its exact mean and variance."""

    form: np.ndarray  # M⁺ (outputs × outputs)
    mean: float
    variance: float

    @classmethod
    def of(cls, matrix: np.ndarray, variances: np.ndarray, fourth: np.ndarray) -> PooledScale:
        """The form of ``B z`` (module docstring).

        Args:
            matrix: B, the design's noise matrix, a float (outputs, draws) array.
            variances: the variance of each draw, a float array of length draws.
            fourth: the fourth moment ``E z_j⁴`` of each draw, a float array of length draws.

        Returns:
            The pooled form M⁺ with the mean and variance of Q (binary64).
        """
        moment = (matrix * variances) @ matrix.T
        form = np.linalg.pinv(moment, hermitian=True)
        quadratic = matrix.T @ form @ matrix  # A = Bᵀ M⁺ B
        diagonal = np.diag(quadratic)
        mean = float(np.sum(diagonal * variances))
        variance = float(np.sum(diagonal**2 * (fourth - 3.0 * variances**2))
                         + 2.0 * np.sum(quadratic**2 * np.outer(variances, variances)))
        return cls(form, mean, variance)

    def allowed(self, runs: int, share: float) -> float:
        """The allowed deviation ``d`` of the median of group means at ``runs`` runs (``inf`` below one run per
        group).

        Args:
            runs: the number of runs, an integer >= 0.
            share: the test's false-alarm probability, in (0, 1) (it fixes the median-of-means groups).

        Returns:
            ``2 sqrt(Var Q / m)`` with ``m`` the runs per group, or ``inf``.
        """
        per_group = runs // median_groups(share)
        return math.inf if per_group < 1 else 2.0 * math.sqrt(self.variance / per_group)

    def detected_error(self, runs: int, share: float) -> float:
        """The smallest relative scale error detected both ways (module docstring; ``inf`` when none is).

        Args:
            runs: the number of runs, an integer >= 0.
            share: the test's false-alarm probability, in (0, 1).

        Returns:
            The relative error r of the noise scale detected with probability at least ``1 − share``.
        """
        d = self.allowed(runs, share)
        if not d < self.mean:
            return math.inf
        return max(math.sqrt((self.mean + d) / (self.mean - d)) - 1.0,
                   1.0 - math.sqrt((self.mean - d) / (self.mean + d)))

    def check(self, samples: np.ndarray, share: float) -> PropertyCheck:
        """The test on ``samples`` (runs × outputs), trailing runs beyond ``g m`` unused.

        Args:
            samples: the samples, a float (runs, outputs) array, one run per row.
            share: the test's false-alarm probability, in (0, 1).

        Returns:
            The "pooled scale" check (holding, "not run", when the runs are fewer than the groups).
        """
        groups = median_groups(share)
        per_group = samples.shape[0] // groups
        if per_group < 1:
            return PropertyCheck("pooled scale", True, share, 0, 0.0, (),
                                 f"not run: {samples.shape[0]} runs are fewer than its {groups} groups")
        used = samples[: groups * per_group]
        values = np.einsum("ij,jk,ik->i", used, self.form, used)
        median = float(np.median(values.reshape(groups, per_group).mean(axis=1)))
        d = 2.0 * math.sqrt(self.variance / per_group)
        holds = abs(median - self.mean) <= d
        ratio = median / self.mean
        failures = () if holds else (f"common scale {'too large' if median > self.mean else 'too small'}: median "
                                     f"of means of X' M+ X {median:.6g} against {self.mean:.6g} (allowed deviation "
                                     f"{d:.3g}; variance ratio {ratio:.6g})",)
        return PropertyCheck("pooled scale", holds, share, 1, ratio, failures,
                             f"median of {groups} group means of X' M+ X ({per_group} runs each): {median:.6g}, "
                             f"exact mean {self.mean:.6g}, allowed deviation {d:.3g}")
