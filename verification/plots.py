"""PNG plots for the report (matplotlib, Agg backend). Each plot is computed from the library in this run."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import MaxNLocator

from .core.claims import Budget


def _save(figure: Any, directory: Path, name: str, caption: str) -> tuple[str, str]:
    """Lay out, write ``directory/name`` as PNG, close; return (file name, caption) for the report."""
    figure.tight_layout()
    figure.savefig(directory / name, dpi=110)
    plt.close(figure)
    return name, caption


def plot_node_variance_by_level(directory: Path, budget: Budget) -> tuple[str, str]:
    """Exact node variance per level (all 1 by Theorem 3.3), a Monte Carlo estimate from Cascade Sampling, and
    what independent leaf noise of the same per-leaf variance would give (2**(depth − level))."""
    from reference.cip.exact.errors import nodal_variances
    from reference.cip.numeric.cascade import cascade_tree, level_view

    depth = budget.pick(6, 10)
    draws = budget.pick(200, 2000)
    exact = nodal_variances(depth)
    levels = np.arange(depth + 1)
    exact_per_level = [float(max(v for (lvl, _), v in exact.items() if lvl == level)) for level in levels]
    rng = np.random.default_rng(20261122)
    sums = np.zeros(depth + 1)
    counts = np.zeros(depth + 1)
    for _ in range(draws):
        tree = cascade_tree(depth, 1.0, rng)
        for level in levels:
            values = level_view(tree, depth, int(level))
            sums[level] += float(np.sum(values**2))
            counts[level] += values.size
    estimate = sums / counts
    figure, axis = plt.subplots(figsize=(7, 4.2))
    axis.semilogy(
        levels,
        [2.0 ** (depth - level) for level in levels],
        "s--",
        color="grey",
        label="independent leaf noise, σ = 1 per leaf",
    )
    axis.semilogy(levels, exact_per_level, "o-", label="correlated (exact): every node σ² = 1")
    axis.semilogy(levels, estimate, "x", markersize=9, label=f"Cascade Sampling, {draws} draws (mean square)")
    axis.set_xlabel("tree level (0 = root)")
    axis.set_ylabel("noise variance of a node (units of σ², σ = 1)")
    axis.set_title(f"Node variance by level, depth {depth}")
    axis.legend()
    return _save(figure, directory, "node_variance_by_level.png", "Node variance by tree level (CIP Theorem 3.3)")


def plot_max_range_variance(directory: Path, budget: Budget) -> tuple[str, str]:
    """Exact maximum and mean range variance against depth, with the bounds of the proof of Lemma 3.14."""
    from reference.cip.exact.ranges import all_range_statistics

    depths = list(range(1, budget.pick(10, 14) + 1))
    stats = [all_range_statistics(d) for d in depths]
    maxima = [float(s.max_variance) for s in stats]
    means = [float(s.total_variance / s.count) for s in stats]
    closed = [float(Fraction(6 * d + 4, 9) - Fraction(1, 9 * 4 ** (d - 1))) for d in depths]
    # Lemma B.5 as printed: at most 2K − 2 merged nodes, each of variance σ², with non-positive covariances
    # between them (Lemma B.4), so variance <= (2K − 2)σ². Drawn unclipped: at depth 1 it is 0, below the
    # variance 1 of a single leaf, so the bound fails there (the lemma assumes K >= 2).
    printed = [2 * d - 2 for d in depths]
    figure, axis = plt.subplots(figsize=(7.5, 4.5))
    label = "bound 2·depth − 2 as printed (Lemma B.5, stated for depth ≥ 2)"
    axis.plot(depths, printed, "v--", color="grey", label=label)
    axis.plot(depths, maxima, "o-", label="exact maximum over all ranges")
    axis.plot(depths, closed, ":", color="black", label="closed form (6·depth + 4)/9 − 4^(1−depth)/9")
    axis.plot(depths, means, "s-", label="exact mean over all ranges")
    failing = [(d, bound, top) for d, bound, top in zip(depths, printed, maxima) if bound < top]
    for d, bound, top in failing:
        axis.plot([d, d], [bound, top], color="red", linewidth=2)
        axis.annotate(
            f"bound fails at depth {d}: {bound} < {top:g}",
            (d, bound),
            xytext=(12, -4),
            textcoords="offset points",
            color="red",
            fontsize=8,
        )
    axis.set_xlabel("depth D (n = 2^D leaves)")
    axis.set_ylabel("range-sum noise variance (units of σ²)")
    axis.set_title("Range variance under N(0, σ² C_D) (Lemma 3.14, Lemma B.5)")
    axis.legend(fontsize=8)
    return _save(
        figure, directory, "max_range_variance.png", "Maximum and mean range variance against depth (CIP Lemma 3.14)"
    )


def plot_range_variance_map(directory: Path, budget: Budget) -> tuple[str, str]:
    """Exact variance of every range [first, last] at a small depth, as an image."""
    from reference.cip.exact.ranges import range_variance

    depth = budget.pick(5, 6)
    n = 1 << depth
    image = np.full((n, n), np.nan)
    for first in range(n):
        for last in range(first, n):
            image[first, last] = float(range_variance(depth, first, last))
    figure, axis = plt.subplots(figsize=(5.6, 4.8))
    shown = axis.imshow(image, origin="lower", cmap="viridis")
    axis.set_xlabel("last leaf of the range (0-based index)")
    axis.set_ylabel("first leaf of the range (0-based index)")
    axis.set_title(f"Exact noise variance of range [first, last], depth {depth}")
    figure.colorbar(shown, ax=axis, label="range-sum noise variance (units of σ²)")
    return _save(figure, directory, "range_variance_map.png", "Exact variance of every range at a small depth")


def plot_sigma_paper_vs_exact(directory: Path, budget: Budget) -> tuple[str, str]:
    """Theorem 3.9's σ against the exact smallest σ, over ε (δ fixed) and over δ (ε fixed)."""
    from reference.cip.privacy import sigma_theorem_3_9
    from reference.cip.sensitivity import cascade_sensitivity_squared
    from reference.privacy.gaussian import sigma_exact

    depth = 10
    sensitivity_squared = cascade_sensitivity_squared(depth, "add_remove")
    count = budget.pick(6, 16)
    epsilons = [Fraction(i, count) for i in range(1, count + 1)]
    delta = Fraction(1, 10**6)
    paper_e = [float(sigma_theorem_3_9(depth, epsilon=e, delta=delta).midpoint) for e in epsilons]
    exact_e = [
        float(sigma_exact(epsilon=e, delta=delta, sensitivity_squared=sensitivity_squared).sigma) for e in epsilons
    ]
    deltas = [Fraction(1, 10**p) for p in range(2, budget.pick(8, 16) + 1)]
    epsilon = Fraction(1, 2)
    paper_d = [float(sigma_theorem_3_9(depth, epsilon=epsilon, delta=d).midpoint) for d in deltas]
    exact_d = [
        float(sigma_exact(epsilon=epsilon, delta=d, sensitivity_squared=sensitivity_squared).sigma) for d in deltas
    ]
    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 4.2))
    left.plot([float(e) for e in epsilons], paper_e, "o-", label="Theorem 3.9")
    left.plot([float(e) for e in epsilons], exact_e, "s-", label="exact (privacy profile)")
    left.set_xlabel("ε (privacy loss, dimensionless)")
    left.set_ylabel("σ (noise standard deviation, in counts)")
    left.set_title(f"depth {depth}, δ = 1e-6")
    left.legend()
    right.semilogx([float(d) for d in deltas], paper_d, "o-", label="Theorem 3.9")
    right.semilogx([float(d) for d in deltas], exact_d, "s-", label="exact (privacy profile)")
    right.set_xlabel("δ (failure probability, log scale)")
    right.set_ylabel("σ (noise standard deviation, in counts)")
    right.set_title(f"depth {depth}, ε = 1/2")
    right.legend()
    figure.suptitle("Paper σ against the exact smallest σ (add/remove neighbours)")
    return _save(
        figure, directory, "sigma_paper_vs_exact.png", "Theorem 3.9's σ against the exact smallest σ over ε and δ"
    )


def plot_leading_constants(directory: Path, budget: Budget) -> tuple[str, str]:
    """KARY: the certified leading MSE constants of Theorem 3.7, Corollary 4.9 and Corollary C.3 against arity,
    each family's proved minimiser drawn as a vertical line in its curve's colour and named in the legend, and
    the points above the drawn range marked at the top edge with their value."""
    from reference.kary.constants import FAMILIES

    from .kary.checks.constants import leading_constant_table

    table = leading_constant_table(budget.pick(30, 40))
    top = 0.45  # the interesting range; larger values (small arities) are marked at the edge
    figure, axis = plt.subplots(figsize=(8, 4.8))
    styles = {"theorem_3_7": ("o", "C0"), "corollary_4_9": ("s", "C1"), "corollary_c3": ("^", "C2")}
    off_scale = []
    for key, family in FAMILIES.items():
        marker, colour = styles[key]
        points = [(row.arity, getattr(row, key)) for row in table.rows]
        kept = [(arity, float(value.midpoint)) for arity, value in points if value is not None]
        scope = "any k, no subtraction" if family.parity == "any" else f"{family.parity} k"
        label = f"{family.statement}: {family.formula} ({scope})"
        arities, values = [a for a, _ in kept], [v for _, v in kept]
        axis.plot(arities, values, "-", marker=marker, color=colour, markersize=4, label=label)
        best = table.proved_minima[key]
        best_value = dict(kept)[best]
        axis.axvline(
            best,
            color=colour,
            linestyle=":",
            linewidth=1.2,
            label=f"  its minimum (★): k = {best}, {best_value:.4f} (proved)",
        )
        axis.plot([best], [best_value], marker="*", color=colour, markersize=13, markeredgecolor="black", zorder=5)
        for arity, value in kept:
            if value > top:  # a cut point: an upward triangle on the top edge, its value listed in the box
                shift = {"theorem_3_7": -0.25, "corollary_4_9": 0.0, "corollary_c3": 0.25}[key]  # k = 2 is shared
                axis.plot([arity + shift], [top], marker="^", color=colour, markersize=9, clip_on=False, zorder=6)
                off_scale.append(f"{family.statement}, k = {arity}: {value:.3f}")
    if off_scale:
        axis.text(
            0.12,
            0.97,
            "off scale (▲ on the top edge):\n" + "\n".join(off_scale),
            transform=axis.transAxes,
            va="top",
            fontsize=7,
            bbox={"facecolor": "white", "edgecolor": "grey"},
        )
    axis.set_ylim(0.1, top)
    axis.set_xlabel("arity k")
    axis.set_ylabel("leading constant of ε²·MSE / log2(T)³ (dimensionless)")
    axis.set_title("KARY leading MSE constants against arity (certified values)")
    axis.legend(fontsize=7, loc="upper right")
    return _save(
        figure,
        directory,
        "leading_constant_by_arity.png",
        "KARY leading MSE constant against arity (certified values; minimisers proved over all arities)",
    )


def plot_kary_mse(directory: Path, budget: Budget) -> tuple[str, str]:
    """Exact ε²·MSE against the horizon for several arities, with subtraction (Algorithm 2, odd arities) and
    without (Algorithm 1), normalised by log2(T)³ so the leading constants show."""
    from reference.kary import mse as kary_mse

    exponents = range(1, budget.pick(7, 13) + 1)
    horizons = sorted({int(10 ** (e / 2)) for e in range(2, 2 * exponents[-1] + 1)})
    figure, axis = plt.subplots(figsize=(8, 4.8))
    for arity, marker in zip((3, 5, 9, 19), "os^D"):
        values = [float(kary_mse.algorithm_2_mse_digit_programme(arity, t)) / np.log2(t) ** 3 for t in horizons]
        label = f"Algorithm 2 (subtraction), k = {arity}"
        axis.semilogx(horizons, values, "-", marker=marker, markersize=5, label=label)
    for arity, marker in zip((2, 4, 17), "vPX"):
        values = [float(kary_mse.algorithm_1_mse_digit_programme(arity, t)) / np.log2(t) ** 3 for t in horizons]
        axis.semilogx(
            horizons, values, "--", marker=marker, markersize=5, fillstyle="none", label=f"Algorithm 1, k = {arity}"
        )
    axis.set_xlabel("horizon T (number of time steps, log scale)")
    axis.set_ylabel("ε²·MSE / log2(T)³ (exact, dimensionless)")
    axis.set_title("KARY: exact mean squared error against horizon")
    axis.legend(fontsize=8, ncol=2)
    return _save(
        figure,
        directory,
        "kary_mse_by_horizon.png",
        "KARY exact ε²·MSE / log2(T)³ against horizon, with and without subtraction",
    )


def plot_tda_histogram(directory: Path, budget: Budget) -> tuple[str, str]:
    """A released synthetic dataset against the true one: counts at the second level of the hierarchy (true
    counts hatched and outlined, released counts solid), and below them the released minus the true count."""
    from reference.tda.data import default_dataset, prefix_counts
    from reference.tda.mechanism import inftda_numeric

    hierarchy, records = default_dataset(size=budget.pick(2000, 10000), seed=1)
    tree = prefix_counts(records, hierarchy)
    released = inftda_numeric(tree, hierarchy, 1.0, np.random.default_rng(2))
    level = 2
    keys = sorted(set(tree.level(level)) | set(released.level(level)))
    labels = [f"{hierarchy.categories[0][a]}/{hierarchy.categories[1][b]}" for a, b in keys]
    true_counts = np.array([tree.level(level).get(key, 0) for key in keys])
    released_counts = np.array([released.level(level).get(key, 0) for key in keys])
    positions = np.arange(len(keys))
    figure, (counts, differences) = plt.subplots(
        2, 1, figsize=(10, 6.4), sharex=True, gridspec_kw={"height_ratios": [3, 1.3]}
    )
    counts.bar(positions - 0.2, true_counts, width=0.4, facecolor="white", edgecolor="black", hatch="///", label="true")
    counts.bar(positions + 0.2, released_counts, width=0.4, color="C1", label="InfTDA release (ρ = 1)")
    counts.set_ylabel("count (records)")
    counts.set_title(f"TDA: {hierarchy.attributes[0]} × {hierarchy.attributes[1]} counts, n = {int(tree.total)}")
    counts.legend()
    differences.bar(positions, released_counts - true_counts, width=0.6, color="C1")
    differences.axhline(0, color="black", linewidth=0.8)
    differences.yaxis.set_major_locator(MaxNLocator(integer=True))  # counts are integers
    differences.set_ylabel("released − true\n(records)")
    differences.set_xticks(positions)
    differences.set_xticklabels(labels, rotation=90, fontsize=7)
    differences.set_xlabel(f"cell ({hierarchy.attributes[0]}/{hierarchy.attributes[1]}, second level of the hierarchy)")
    return _save(
        figure,
        directory,
        "tda_synthetic_vs_true.png",
        "TDA: a released synthetic dataset against the true one (second level of the hierarchy)",
    )


def plot_tda_error_by_level(directory: Path, budget: Budget) -> tuple[str, str]:
    """Largest absolute error per level over repeated releases, against Theorem 1's bound (β = 0.05)."""
    from reference.tda.data import default_dataset, prefix_counts
    from reference.tda.mechanism import inftda_numeric

    from .tda.claims.topdown import utility_bound

    hierarchy, records = default_dataset(size=budget.pick(2000, 10000), seed=1)
    tree = prefix_counts(records, hierarchy)
    rng = np.random.default_rng(3)
    rho, runs = 1.0, budget.pick(20, 60)
    levels = list(range(1, hierarchy.depth + 1))
    errors = np.zeros((runs, len(levels)))
    for run in range(runs):
        released = inftda_numeric(tree, hierarchy, rho, rng)
        for column, level in enumerate(levels):
            truth, got = tree.level(level), released.level(level)
            errors[run, column] = max(abs(truth.get(k, 0) - got.get(k, 0)) for k in set(truth) | set(got))
    figure, axis = plt.subplots(figsize=(7, 4.2))
    axis.plot(
        levels,
        [utility_bound(hierarchy.sizes, level, rho, 0.05) for level in levels],
        "o--",
        label="Theorem 1's bound as printed (β = 0.05); its per-level step is refuted (see the report)",
    )
    axis.plot(levels, np.quantile(errors, 0.95, axis=0), "s-", label=f"95% quantile of max error ({runs} runs)")
    axis.plot(levels, errors.max(axis=0), "x", markersize=9, label="largest max error")
    axis.set_xlabel("level of the hierarchy (1 = first attribute)")
    axis.set_ylabel("largest count error max_y |q(D) − q(D̃)| (records)")
    axis.set_title(f"InfTDA error per level, ρ = 1, n = {int(tree.total)}")
    axis.legend(fontsize="small")
    return _save(figure, directory, "tda_error_by_level.png",
                 "TDA: error per level against Theorem 1's utility bound as printed (its per-level step is refuted)")


#: Every plot of the report, in the report's order (each writes one file and returns (file name, caption)).
PLOTS: tuple[Callable[[Path, Budget], tuple[str, str]], ...] = (
    plot_node_variance_by_level,
    plot_max_range_variance,
    plot_range_variance_map,
    plot_sigma_paper_vs_exact,
    plot_leading_constants,
    plot_kary_mse,
    plot_tda_histogram,
    plot_tda_error_by_level,
)


def make_plots(directory: Path, budget: Budget) -> list[tuple[str, str]]:
    """Write every plot; return (file name, caption) pairs."""
    return [plot(directory, budget) for plot in PLOTS]
