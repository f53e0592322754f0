"""Checks of the zCDP conversions and of InfTDA's privacy calibration (TDA paper, Theorem 1 and its proof).

Each function takes its grid or universe size as a parameter (small in the test suite, larger in the report)
and returns a frozen dataclass with ``holds`` and ``summary()``. Every comparison of irrational numbers is
certified: it is decided from Arb enclosures lying entirely on one side (never from a ball containing the
threshold); a comparison that cannot be decided counts as a failure to certify, never as a pass.

1. :func:`tight_conversion_never_worse` — CKS 2020 Corollary 13 against Bun–Steinke 2016 Proposition 1.3, in
   both directions (ε for given δ, δ for given ε), on a grid of ρ, δ and ε.
2. :func:`discrete_gaussian_below_zcdp` — the exact δ(ε) of the discrete Gaussian mechanism (CKS Theorem 7) is
   at most the δ its zCDP guarantee ρ = Δ²/(2σ²) gives through the tight conversion, on a grid.
3. :func:`inftda_level_sensitivity` — by BRUTE FORCE over every dataset of n records on small categorical
   hierarchies and every neighbour: the largest squared ℓ2 change of each level's count vector, compared with
   the Δ² the calibration uses, and the resulting per-level and total ρ at the paper's σ² = d/ρ.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations_with_replacement, product

from reference.core.certified import CertifiedReal, format_directed
from reference.core.validate import check_positive_int, fraction_text
from reference.core.verdict import Decided
from reference.privacy.zcdp import (
    compose_rho,
    delta_from_rho,
    discrete_gaussian_delta,
    epsilon_from_rho_simple,
    epsilon_from_rho_tight,
    log_delta_from_rho,
    log_delta_from_rho_simple,
    rho_discrete_gaussian,
)
from reference.tda.calibration import (
    LEVEL_SENSITIVITY_SQUARED,
    inftda_level_sensitivity_squared,
    inftda_rho_per_level,
    inftda_sigma_squared,
    inftda_total_rho,
)


def _text(value: Fraction) -> str:
    zeros = len(str(value.denominator)) - 1
    if value.numerator == 1 and zeros > 3 and 10**zeros == value.denominator:
        return f"1e-{zeros}"
    return fraction_text(value)


def _powers_of_ten(low: int, high: int, count: int) -> tuple[Fraction, ...]:
    """``count`` exact values 10**e with integer-spaced exponents from ``low`` to ``high`` (ends included)."""
    count = check_positive_int(count, "grid_size", minimum=2)
    exponents = sorted({low + round((high - low) * step / (count - 1)) for step in range(count)})
    return tuple(Fraction(10) ** e for e in exponents)


# ------------------------------------------------------------------------------------ (1) tight vs simple


@dataclass(frozen=True)
class ConversionComparison(Decided):
    """Tight (CKS Corollary 13) against simple (Bun–Steinke Proposition 1.3) conversion on a grid."""

    rhos: tuple[Fraction, ...]
    deltas: tuple[Fraction, ...]
    epsilons: tuple[Fraction, ...]
    epsilon_points: int
    delta_points: int
    epsilon_failures: tuple[tuple[Fraction, Fraction], ...]  # (ρ, δ) where tight.upper <= simple.lower fails
    delta_failures: tuple[tuple[Fraction, Fraction], ...]  # (ρ, ε) where tight.upper <= simple.lower fails
    smallest_epsilon_ratio: tuple[Fraction, Fraction, CertifiedReal]  # (ρ, δ, tight/simple): largest gain
    largest_epsilon_ratio: tuple[Fraction, Fraction, CertifiedReal]  # smallest gain

    @property
    def holds(self) -> bool:
        """The tight conversion is certified no worse at every grid point, in both directions."""
        return not self.epsilon_failures and not self.delta_failures

    def summary(self) -> str:
        """One paragraph of evidence for the report."""
        verdict = (
            "never worse"
            if self.holds
            else (
                f"NOT certified no worse at {len(self.epsilon_failures)} (ρ, δ) and {len(self.delta_failures)} (ρ, ε) points"
            )
        )
        low, high = self.smallest_epsilon_ratio, self.largest_epsilon_ratio
        return (
            f"CKS Corollary 13 vs Bun–Steinke Proposition 1.3 on ρ ∈ [{_text(min(self.rhos))}, "
            f"{_text(max(self.rhos))}], δ ∈ [{_text(min(self.deltas))}, {_text(max(self.deltas))}] "
            f"({self.epsilon_points} points) and ε ∈ [{_text(min(self.epsilons))}, {_text(max(self.epsilons))}] "
            f"({self.delta_points} points with ε > ρ): tight is {verdict} (Arb upper bound of the tight value <= "
            f"Arb lower bound of the simple one). ε_tight/ε_simple ranges from {format_directed(low[2].lower, 4, upward=False)} "
            f"(ρ={_text(low[0])}, δ={_text(low[1])}) to {format_directed(high[2].upper, 4, upward=True)} "
            f"(ρ={_text(high[0])}, δ={_text(high[1])})."
        )


def tight_conversion_never_worse(grid_size: int = 5) -> ConversionComparison:
    """Certify ε_tight <= ε_simple on a (ρ, δ) grid and δ_tight <= δ_simple on a (ρ, ε) grid (ε > ρ)."""
    size = check_positive_int(grid_size, "grid_size", minimum=2)
    rhos = _powers_of_ten(-4, 1, size)
    deltas = tuple(sorted(set(_powers_of_ten(-12, -1, size)) | {Fraction(1, 2)}))
    epsilons = _powers_of_ten(-2, 2, size)
    epsilon_failures: list[tuple[Fraction, Fraction]] = []
    ratios: list[tuple[Fraction, Fraction, CertifiedReal]] = []
    for rho in rhos:
        for delta in deltas:
            tight = epsilon_from_rho_tight(rho=rho, delta=delta)
            simple = epsilon_from_rho_simple(rho=rho, delta=delta)
            if not tight.certainly_le(simple.lower):
                epsilon_failures.append((rho, delta))
            ratios.append((rho, delta, CertifiedReal(tight.lower / simple.upper, tight.upper / simple.lower)))
    delta_failures: list[tuple[Fraction, Fraction]] = []
    delta_points = 0
    for rho in rhos:
        for epsilon in epsilons:
            if epsilon <= rho:
                continue
            delta_points += 1
            # compared as logarithms: δ here reaches exp(-1e8), below any exact enclosure of δ itself
            if not log_delta_from_rho(rho=rho, epsilon=epsilon).certainly_le(
                log_delta_from_rho_simple(rho=rho, epsilon=epsilon)
            ):
                delta_failures.append((rho, epsilon))
    return ConversionComparison(
        rhos=rhos,
        deltas=deltas,
        epsilons=epsilons,
        epsilon_points=len(ratios),
        delta_points=delta_points,
        epsilon_failures=tuple(epsilon_failures),
        delta_failures=tuple(delta_failures),
        smallest_epsilon_ratio=min(ratios, key=lambda item: item[2].midpoint),
        largest_epsilon_ratio=max(ratios, key=lambda item: item[2].midpoint),
    )


# --------------------------------------------------------------------------- (2) discrete Gaussian vs zCDP


@dataclass(frozen=True)
class DiscreteGaussianPoint:
    """One grid point: the exact δ(ε) of N_Z(0, σ²) at shift Δ and the δ of its zCDP guarantee."""

    epsilon: Fraction
    sigma_squared: Fraction
    sensitivity: int
    exact: CertifiedReal
    from_zcdp: CertifiedReal

    @property
    def holds(self) -> bool:
        """Certified exact δ(ε) <= zCDP δ (upper end of one below lower end of the other)."""
        return self.exact.certainly_le(self.from_zcdp.lower)


@dataclass(frozen=True)
class DiscreteGaussianComparison(Decided):
    """The exact δ(ε) of the discrete Gaussian against the tight conversion of its ρ = Δ²/(2σ²)."""

    points: tuple[DiscreteGaussianPoint, ...]

    @property
    def failures(self) -> tuple[DiscreteGaussianPoint, ...]:
        """Grid points where the inequality was not certified."""
        return tuple(point for point in self.points if not point.holds)

    @property
    def holds(self) -> bool:
        """Certified at every grid point."""
        return not self.failures

    def summary(self) -> str:
        """One paragraph of evidence for the report."""
        comparable = [p for p in self.points if p.exact.lower > 0]
        tightest = max(comparable, key=lambda p: p.exact.lower / p.from_zcdp.upper)
        loosest = min(comparable, key=lambda p: p.exact.upper / p.from_zcdp.lower)
        epsilons = sorted({p.epsilon for p in self.points})
        scales = sorted({p.sigma_squared for p in self.points})
        verdict = "holds everywhere" if self.holds else f"NOT certified at {len(self.failures)} points"
        return (
            f"exact δ(ε) of N_Z(0, σ²) (CKS Theorem 7, certified lattice sums) <= δ of CKS Corollary 13 at "
            f"ρ = Δ²/(2σ²): {verdict} on {len(self.points)} points (ε ∈ {{{', '.join(_text(e) for e in epsilons)}}}, "
            f"σ² ∈ {{{', '.join(_text(s) for s in scales)}}}, Δ ∈ {{1, 2}}). Ratio exact/zCDP from "
            f"{format_directed(loosest.exact.lower / loosest.from_zcdp.upper, 3, upward=False)} (ε={_text(loosest.epsilon)}, "
            f"σ²={_text(loosest.sigma_squared)}, Δ={loosest.sensitivity}) to "
            f"{format_directed(tightest.exact.upper / tightest.from_zcdp.lower, 3, upward=True)} (ε={_text(tightest.epsilon)}, "
            f"σ²={_text(tightest.sigma_squared)}, Δ={tightest.sensitivity})."
        )


_EPSILONS = (Fraction(1, 10), Fraction(1, 2), Fraction(1), Fraction(2), Fraction(5))
_SCALES = (Fraction(1, 2), Fraction(2), Fraction(10), Fraction(50), Fraction(200))


def discrete_gaussian_below_zcdp(grid_size: int = 4) -> DiscreteGaussianComparison:
    """Certify exact δ(ε) <= δ_zCDP(ε) for N_Z(0, σ²), Δ ∈ {1, 2}, on an (ε, σ²) grid of ``grid_size`` each."""
    size = check_positive_int(grid_size, "grid_size", minimum=2)
    epsilons = (*_EPSILONS[:size], Fraction(10))
    scales = _SCALES[:size]
    points = []
    for sensitivity in (1, 2):
        for scale in scales:
            rho = rho_discrete_gaussian(sigma_squared=scale, sensitivity_squared=sensitivity * sensitivity)
            for epsilon in epsilons:
                exact = discrete_gaussian_delta(epsilon=epsilon, sigma_squared=scale, sensitivity=sensitivity)
                points.append(
                    DiscreteGaussianPoint(epsilon, scale, sensitivity, exact, delta_from_rho(rho=rho, epsilon=epsilon))
                )
    return DiscreteGaussianComparison(tuple(points))


# ------------------------------------------------------------------------ (3) InfTDA level sensitivity


Record = tuple[int, ...]


def _level_counts(dataset: Sequence[Record], level: int) -> Counter[Record]:
    """The level-``level`` count vector of a dataset: prefix of length ``level`` -> number of records."""
    return Counter(record[:level] for record in dataset)


def _squared_change(before: Counter[Record], after: Counter[Record]) -> int:
    return sum((after[key] - before[key]) ** 2 for key in set(before) | set(after))


def _substitution_neighbours(dataset: tuple[Record, ...], universe: Sequence[Record]) -> Iterator[tuple[Record, ...]]:
    """Every dataset obtained by replacing one record of ``dataset`` by a different value (n unchanged)."""
    for index, record in enumerate(dataset):
        if index > 0 and dataset[index - 1] == record:
            continue  # the same multiset of neighbours as the previous equal record
        for value in universe:
            if value != record:
                yield (*dataset[:index], value, *dataset[index + 1 :])


@dataclass(frozen=True)
class HierarchySensitivity:
    """Brute-force sensitivities of one categorical hierarchy with n records."""

    categories: tuple[int, ...]
    records: int
    datasets: int
    neighbour_pairs: int
    substitution: tuple[int, ...]  # max squared ℓ2 change of the level vector, levels 0..d
    single_query: tuple[int, ...]  # max |change| of one count, levels 0..d (substitution)
    add_remove: tuple[int, ...]  # max squared ℓ2 change, levels 0..d, one record added or removed
    calibration_substitution: tuple[int, ...]  # inftda_level_sensitivity_squared, levels 0..d
    calibration_add_remove: tuple[int, ...]

    @property
    def matches(self) -> bool:
        """Brute force equals the calibration's Δ² at every level, for both relations."""
        return self.substitution == self.calibration_substitution and self.add_remove == self.calibration_add_remove


def _hierarchy_sensitivity(categories: tuple[int, ...], records: int) -> HierarchySensitivity:
    universe = list(product(*(range(size) for size in categories)))
    levels = range(len(categories) + 1)
    substitution = [0] * len(levels)
    single = [0] * len(levels)
    add_remove = [0] * len(levels)
    datasets = pairs = 0
    for dataset in combinations_with_replacement(universe, records):
        datasets += 1
        counts = [_level_counts(dataset, level) for level in levels]
        for neighbour in _substitution_neighbours(dataset, universe):
            pairs += 1
            for level in levels:
                other = _level_counts(neighbour, level)
                substitution[level] = max(substitution[level], _squared_change(counts[level], other))
                keys = set(counts[level]) | set(other)
                single[level] = max([single[level]] + [abs(other[key] - counts[level][key]) for key in keys])
        for value in universe:  # add one record (removing one is the same pair read backwards)
            grown = (*dataset, value)
            for level in levels:
                add_remove[level] = max(add_remove[level], _squared_change(counts[level], _level_counts(grown, level)))
    return HierarchySensitivity(
        categories=categories,
        records=records,
        datasets=datasets,
        neighbour_pairs=pairs,
        substitution=tuple(substitution),
        single_query=tuple(single),
        add_remove=tuple(add_remove),
        calibration_substitution=tuple(inftda_level_sensitivity_squared(categories, level) for level in levels),
        calibration_add_remove=tuple(
            inftda_level_sensitivity_squared(categories, level, "add_remove") for level in levels
        ),
    )


@dataclass(frozen=True)
class UserLevelSensitivity(Decided):
    """Brute-force level sensitivities when one user contributes up to ``contributions`` records."""

    categories: tuple[int, ...]
    records: int
    contributions: int
    substitution: tuple[int, ...]  # max squared ℓ2 change, levels 0..d: one user's records change values
    add_remove: tuple[int, ...]  # max squared ℓ2 change, levels 0..d: one user's records added
    calibration_substitution: tuple[int, ...]
    calibration_add_remove: tuple[int, ...]

    @property
    def holds(self) -> bool:
        """Brute force equals ``inftda_level_sensitivity_squared(..., contributions=m)`` at every level."""
        return self.substitution == self.calibration_substitution and self.add_remove == self.calibration_add_remove

    def summary(self) -> str:
        """One line: the brute-force level sensitivities beside the calibration's."""
        return (
            f"categories {self.categories}, {self.records} records, {self.contributions} per user: brute-force "
            f"Δ² per level {self.substitution} (substitution), {self.add_remove} (add/remove); calibration "
            f"{self.calibration_substitution}, {self.calibration_add_remove}: {self.verdict}"
        )


def user_level_sensitivity(categories: Sequence[int], records: int, contributions: int) -> UserLevelSensitivity:
    """Every dataset of ``records`` records on the universe; a neighbour replaces up to ``contributions`` of its
    records by any others (substitution, n fixed) or adds up to ``contributions`` records (add/remove)."""
    sizes = tuple(check_positive_int(size, "categories") for size in categories)
    users = check_positive_int(contributions, "contributions")
    count = check_positive_int(records, "records", minimum=users)
    universe = list(product(*(range(size) for size in sizes)))
    levels = range(len(sizes) + 1)
    substitution = [0] * len(levels)
    add_remove = [0] * len(levels)
    for dataset in combinations_with_replacement(universe, count):
        counts = [_level_counts(dataset, level) for level in levels]
        for changed in range(1, users + 1):
            for removed in set(combinations_with_replacement(sorted(set(dataset)), changed)):
                remaining = Counter(dataset)
                remaining.subtract(Counter(removed))
                if min(remaining.values()) < 0:
                    continue
                kept = tuple(remaining.elements())
                for added in combinations_with_replacement(universe, changed):
                    other = (*kept, *added)
                    for level in levels:
                        change = _squared_change(counts[level], _level_counts(other, level))
                        substitution[level] = max(substitution[level], change)
            for added in combinations_with_replacement(universe, changed):
                grown = (*dataset, *added)
                for level in levels:
                    change = _squared_change(counts[level], _level_counts(grown, level))
                    add_remove[level] = max(add_remove[level], change)
    return UserLevelSensitivity(
        categories=sizes,
        records=count,
        contributions=users,
        substitution=tuple(substitution),
        add_remove=tuple(add_remove),
        calibration_substitution=tuple(
            inftda_level_sensitivity_squared(sizes, level, contributions=users) for level in levels
        ),
        calibration_add_remove=tuple(
            inftda_level_sensitivity_squared(sizes, level, "add_remove", users) for level in levels
        ),
    )


@dataclass(frozen=True)
class LevelSensitivityCheck(Decided):
    """Brute-force level sensitivities of InfTDA and the ρ accounting they give at σ² = d/ρ."""

    hierarchies: tuple[HierarchySensitivity, ...]
    rhos: tuple[Fraction, ...]
    accounting_ok: bool  # Δ²_bf/(2σ²) <= ρ/d per level (= when all |X_i| >= 2), composing to <= ρ (= likewise)

    @property
    def holds(self) -> bool:
        """Brute force equals the calibration everywhere, every level >= 1 has Δ² = 2, and the ρ's add up."""
        levels_ok = all(
            h.substitution[0] == 0 and all(value == LEVEL_SENSITIVITY_SQUARED for value in h.substitution[1:])
            for h in self.hierarchies
        )
        return levels_ok and self.accounting_ok and all(h.matches for h in self.hierarchies)

    def summary(self) -> str:
        """One paragraph of evidence for the report."""
        shapes = ", ".join(f"{'x'.join(map(str, h.categories))} (n={h.records})" for h in self.hierarchies)
        pairs = sum(h.neighbour_pairs for h in self.hierarchies)
        datasets = sum(h.datasets for h in self.hierarchies)
        sub = sorted({v for h in self.hierarchies for v in h.substitution[1:]})
        single = sorted({v for h in self.hierarchies for v in h.single_query[1:]})
        add = sorted({v for h in self.hierarchies for v in h.add_remove})
        return (
            f"brute force over {datasets} datasets and {pairs} substitution pairs on hierarchies {shapes}: "
            f"max squared ℓ2 change of a level's count vector = {sub} at levels >= 1 and 0 at the root "
            f"(calibration uses Δ² = {LEVEL_SENSITIVITY_SQUARED}: {'matches' if self.holds else 'MISMATCH'}); one "
            f"count alone changes by at most {single} (so 'sensitivity sqrt(2)' holds for the level's vector, not for "
            f"a single k-hierarchical query); add/remove gives {add}. With σ² = d/ρ each level is "
            f"Δ²/(2σ²) = ρ/d-zCDP and the d levels compose to ρ: "
            f"{'verified' if self.accounting_ok else 'FAILS'} for ρ ∈ {{{', '.join(_text(r) for r in self.rhos)}}}."
        )


QUICK_HIERARCHIES: tuple[tuple[tuple[int, ...], int], ...] = (
    ((2, 2), 1),
    ((2, 2), 2),
    ((2, 3), 2),
    ((3, 2), 2),
    ((2, 2, 2), 2),
)
FULL_HIERARCHIES: tuple[tuple[tuple[int, ...], int], ...] = (
    *QUICK_HIERARCHIES,
    ((2, 2), 3),
    ((2, 3), 3),
    ((3, 3), 3),
    ((2, 2, 2), 3),
    ((3, 2, 2), 3),
    ((2, 3, 2), 2),
    ((2, 2, 2, 2), 2),
)


def inftda_level_sensitivity(
    hierarchies: Sequence[tuple[tuple[int, ...], int]] = QUICK_HIERARCHIES,
    rhos: Sequence[object] = (Fraction(1, 10), Fraction(1), Fraction(5, 2)),
) -> LevelSensitivityCheck:
    """Brute-force every level's ℓ2 sensitivity on each (categories, n) and check the ρ accounting of σ² = d/ρ."""
    results = []
    for categories, records in hierarchies:
        sizes = tuple(check_positive_int(size, "categories") for size in categories)
        results.append(_hierarchy_sensitivity(sizes, check_positive_int(records, "records")))
    budgets = tuple(Fraction(r) if isinstance(r, (int, Fraction)) else Fraction(str(r)) for r in rhos)
    accounting_ok = True
    for result in results:
        depth = len(result.categories)
        regular = min(result.categories) >= 2  # the paper's |X_i| >= 2: every level then has Δ² = 2
        for rho in budgets:
            sigma_squared = inftda_sigma_squared(depth, rho=rho)
            # Δ²/(2σ²) with the brute-forced Δ² (a level with Δ² = 0 costs nothing)
            per_level = [Fraction(d2) / (2 * sigma_squared) for d2 in result.substitution[1:]]
            allocated = inftda_rho_per_level(depth, rho=rho)
            accounting_ok &= allocated == rho / depth and all(value <= allocated for value in per_level)
            accounting_ok &= sum(per_level, Fraction(0)) <= rho == inftda_total_rho(depth, rho=rho)
            if regular:
                accounting_ok &= all(value == allocated for value in per_level)
                accounting_ok &= compose_rho(*per_level) == rho
    return LevelSensitivityCheck(tuple(results), budgets, accounting_ok)


__all__ = [
    "FULL_HIERARCHIES",
    "QUICK_HIERARCHIES",
    "ConversionComparison",
    "DiscreteGaussianComparison",
    "DiscreteGaussianPoint",
    "HierarchySensitivity",
    "LevelSensitivityCheck",
    "discrete_gaussian_below_zcdp",
    "inftda_level_sensitivity",
    "tight_conversion_never_worse",
    "user_level_sensitivity",
]
