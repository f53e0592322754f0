"""The median-of-means design audit on blocks of runs: per-group exact sums instead of the samples.

:func:`reference.audit.samples.design_audit.audit_design_samples` tests every second moment of ``X = B z`` by median of
means over ``g`` groups of ``m = runs // g`` consecutive runs (trailing runs unused), and a Gaussian design also by
whitened chi-square tests. Everything those tests read is a sum over runs: per group, ``Σ X_t²`` and
``Σ X_s X_t`` (``s < t``); over all runs, ``Σ (L⁻¹ X)_i²``. :class:`DesignMoments` keeps exactly these, as exact
fixed-point sums (:class:`reference.audit.samples.sufficient.ExactSums`), fed by blocks of runs that carry their first run's
index — so the group of every run is fixed by its index, and the statistics and verdict are identical for any split
into blocks and any order of :meth:`DesignMoments.merge`. Memory: ``g`` sums per moment, whatever the run count.

The values are divided by ``sqrt(unit)`` (``unit`` the largest exact second moment) before they are rounded, so
the grid is fine relative to the quantities tested: squares are rounded to ``2**-24``; for the cross products each
value is rounded to ``2**-16`` and the products of the rounded values are summed exactly by matrix products
(:func:`reference.audit.samples.sufficient.exact_gram`: every product and partial sum an integer below ``2**53``). The whitened coordinates are formed one input column at a time
(elementwise, in a fixed order) rather than by a matrix product, whose rounding could depend on the block's shape.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from reference.audit.samples.design import Design, entry_check, output_label, pair_label, whitening_of
from reference.audit.samples.report import (
    PropertyCheck,
    SamplerAuditReport,
    TooFewRunsError,
    check_alpha,
    chi_square_group,
    median_groups,
)
from reference.audit.samples.sufficient import ExactSums, exact_gram

#: Rows folded in at once (the products themselves go through exact matrix products per group).
PRODUCT_TILE = 1 << 20
#: Fractional bits of the grid the (normalised) values are rounded to before their cross products are summed.
PRODUCT_BITS = 16


class DesignMoments:
    """Sufficient statistics of the design audit for ``runs`` runs in total (known up front: it fixes the groups).

    Args:
        design: the claimed design.
        runs: the audit's total number of runs, an integer, at least twice the median-of-means groups ``alpha``
            needs (it fixes the groups; trailing runs beyond a whole number of groups are unused).
        alpha: the total false-alarm probability, in (0, 1) (default 1e-6), split as in
            :func:`reference.audit.samples.design_audit.audit_design_samples`.

    Raises:
        TooFewRunsError: ``runs`` is too few for the groups.
        ValueError: ``alpha`` is out of range, or the noise variance exceeds the float range.
    """

    def __init__(self, design: Design, runs: int, alpha: float = 1e-6) -> None:
        self.design = design
        self.alpha = check_alpha(alpha)
        self.total_runs = runs
        outputs = design.outputs
        self.inverse_factor = whitening_of(design)
        self.share = self.alpha / 3.0 if self.inverse_factor is not None else self.alpha / 2.0
        pairs = outputs * (outputs - 1) // 2
        self.var_groups = median_groups(self.share / outputs)
        self.cov_groups = median_groups(self.share / pairs) if pairs else 1
        needed = 2 * max(self.var_groups, self.cov_groups)
        if runs < needed:
            raise TooFewRunsError(f"samples must have at least {needed} runs (rows) for this alpha, got {runs}")
        self.var_per, self.cov_per = runs // self.var_groups, runs // self.cov_groups
        try:
            self.unit = max(float(design.second_moment[t][t]) for t in range(outputs)) or 1.0
        except OverflowError:  # float samples cannot carry such noise: a refusal of the parameters, named
            raise ValueError("epsilon (or the noise scale) is too extreme for a float sample audit: the noise "
                             "variance exceeds the float range (about 1e308)") from None
        self.upper = np.triu_indices(outputs, 1)
        self.squares = [ExactSums((outputs,)) for _ in range(self.var_groups)]
        self.products = [ExactSums((pairs,), 2 * PRODUCT_BITS) for _ in range(self.cov_groups)]
        self.white = ExactSums((outputs,))
        self.runs = 0

    def _fold(self, x: np.ndarray, first_run: int) -> None:
        """Add rows of one tile (global indices ``first_run ...``) to their groups."""
        indices = np.arange(first_run, first_run + x.shape[0])
        for per, groups, sums, square in ((self.var_per, self.var_groups, self.squares, True),
                                          (self.cov_per, self.cov_groups, self.products, False)):
            group_of = indices // per
            for group in np.unique(group_of[group_of < groups]):
                rows = x[group_of == group]
                if square:
                    sums[int(group)].add(np.multiply(rows, rows), scratch=True)
                else:
                    exact_gram(sums[int(group)], rows, PRODUCT_BITS, self.upper)

    def add(self, samples: np.ndarray, first_run: int) -> None:
        """Consume the runs ``first_run .. first_run + rows − 1`` (``samples``: rows × outputs, real, finite).

        Args:
            samples: a block of runs, shape (rows, outputs), real and finite.
            first_run: the index of the block's first run among the audit's runs, from 0 (it fixes their groups).

        Raises:
            ValueError: ``samples`` has the wrong shape or is not finite, or the runs fall outside ``0 .. runs − 1``.
        """
        outputs = self.design.outputs
        if samples.ndim != 2 or samples.shape[1] != outputs:
            raise ValueError(f"samples must have shape (runs, {outputs}) (one column per output), got {samples.shape}")
        if first_run < 0 or first_run + samples.shape[0] > self.total_runs:
            raise ValueError(f"runs {first_run}..{first_run + samples.shape[0] - 1} are outside 0..{self.total_runs - 1}")
        x = np.asarray(samples, dtype=np.float64)
        if not np.all(np.isfinite(x)):
            raise ValueError("samples must be finite (no NaN or infinity)")
        scaled = x / np.sqrt(self.unit)
        tile = max(1, PRODUCT_TILE // outputs)
        for start in range(0, scaled.shape[0], tile):
            self._fold(scaled[start:start + tile], first_run + start)
        if self.inverse_factor is not None:
            white = np.zeros_like(x)
            for column in range(outputs):  # elementwise, fixed order: the same numbers for any block shape
                white += x[:, column:column + 1] * self.inverse_factor[:, column]
            self.white.add(np.multiply(white, white), scratch=True)
        self.runs += samples.shape[0]

    def merge(self, other: DesignMoments) -> None:
        """Add another accumulator's runs (same design and run count).

        Args:
            other: the accumulator of other runs (another block) of the same audit.

        Raises:
            ValueError: ``other`` has another design or total run count.
        """
        if other.design != self.design or other.total_runs != self.total_runs:
            raise ValueError("cannot merge design statistics of different designs or run counts")
        for mine, theirs in zip([*self.squares, *self.products, self.white],
                                [*other.squares, *other.products, other.white]):
            mine.merge(theirs)
        self.runs += other.runs

    def statistics(self) -> dict[str, list[float]]:
        """The group means and whitened sums the tests read (for comparing runs)."""
        return {"square_means": [float(v) for sums in self.squares for v in sums.values() * self.unit / self.var_per],
                "product_means": [float(v) for sums in self.products
                                  for v in sums.values() * self.unit / self.cov_per],
                "whitened_squares": [float(v) for v in self.white.values()]}

    def report(self, marginal: Callable[[int], str] | None = None,
               pair: Callable[[int, int], str] | None = None) -> SamplerAuditReport:
        """The verdict on the runs seen (all ``runs`` of them must have been added).

        Args:
            marginal: names output t's variance in the failures (``None``: ``output_label``).
            pair: names the covariance of outputs s and t in the failures (``None``: ``pair_label``).

        Returns:
            The report of the design audit.

        Raises:
            ValueError: not every run of the audit was added.
        """
        if self.runs != self.total_runs:
            raise ValueError(f"the audit was set up for {self.total_runs} runs but saw {self.runs}")
        design, outputs = self.design, self.design.outputs
        name_one = marginal or output_label
        name_two = pair or pair_label
        square_means = np.stack([sums.values() for sums in self.squares]) * (self.unit / self.var_per)
        observed = np.diag(np.median(square_means, axis=0))
        marginals = entry_check("marginals", design, observed, [(t, t) for t in range(outputs)], self.var_per,
                                 self.var_groups, self.share, lambda s, t: name_one(t))
        product_means = np.stack([sums.values() for sums in self.products]) * (self.unit / self.cov_per)
        matrix = np.zeros((outputs, outputs))
        matrix[self.upper] = np.median(product_means, axis=0)
        covariance = entry_check("covariance", design, matrix,
                                  [(s, t) for s in range(outputs) for t in range(s + 1, outputs)], self.cov_per,
                                  self.cov_groups, self.share, name_two)
        checks: tuple[PropertyCheck, ...] = (marginals, covariance)
        if self.inverse_factor is not None:
            checks = (*checks, chi_square_group("whitened variances", [f"whitened coordinate {i}" for i in range(outputs)],
                                           self.white.values(), self.runs, self.share))
        return SamplerAuditReport(design.name, all(c.holds for c in checks), self.alpha, self.runs, outputs, checks)
