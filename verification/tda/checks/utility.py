"""TDA Theorem 1 (utility) by exact enumeration of InfTDA's law on small instances, and the proof's per-level step.

The theorem: for every level k and β, Pr[max_(u ∈ V_k) |err(u)| <= B_k] >= 1 − β with
B_k = Σ_(ℓ<=k) sqrt(8σ² log(k·Π_(i<=ℓ)|X_i|/β)), σ² = d/ρ. Errors are integers, so the failure event is
max |err| >= m_k := ⌊B_k⌋ + 1 (the floor certified with Arb).

**Exact law** (:func:`failure_probability`). One or two levels. Level 1: the root's |X_1| children get i.i.d.
N_Z(0, σ²) noise and IntOpt with the public total n; level 2: every level-1 node released with a positive count
c gets its |X_2| children noised and projected to c, nodes released with 0 have children 0 (InfTDA Algorithm 1).
Each noise vector is enumerated over the box [−M, M]^|X| with certified pmf enclosures
(:func:`reference.samplers.pmf.discrete_gaussian_pmf`, rounded outward to multiples of 2^-64, so the sums are
integers); the mass outside the box is at most |X|·2·P[Z >= M + 1] (certified) and is added to the upper end.
Given the level-1 release v, the parents' projections are independent, so
P[no failure at level 2] = Σ_v P(v) Π_p g_p(v_p) with g_p(c) = P[all children of p within m_2 − 1 | count c],
enumerated per (p, c). The result is a certified interval for the failure probability; the theorem holds at
that point when its upper end is <= β. Every level-k node of the universe is counted (unreleased ones at their
true count), which makes the event checked the stronger one.

**The per-level step** (:func:`per_level_step`). The proof bounds each level's noise by
Pr[max ‖q̃_C(u) − q_C(u)‖∞ <= sqrt(2σ² log(k·Π_(i<=k−ℓ+1)|X_i|/β))] >= 1 − β/k, applying Corollary 1's one-sided
tail Pr[Z >= t] <= exp(−t²/(2σ²)) to |Z|. With one level (k = 1) and the root's |X_1| noise values the left side
is exactly P[|Z| <= ⌊t⌋]^|X_1| = (1 − 2 P[Z >= ⌊t⌋ + 1])^|X_1|, certified: at two cells, σ² = 1/4, β = 0.3 it is
0.6187… < 0.7, so the step fails on its own although the theorem holds there (a two-sided bound needs
log(2k·Π/β)).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product

from flint import arb

from reference.core.certified import CertifiedReal, ball, enclose
from reference.core.validate import RationalLike, positive_fraction
from reference.core.verdict import Decided
from reference.samplers.pmf import discrete_gaussian_pmf, discrete_gaussian_tail
from reference.tda.intopt import intopt

#: pmf enclosures are rounded outward to multiples of 2^-SCALE_BITS (integer arithmetic in the enumeration).
SCALE_BITS = 64
#: The box [−M, M] is widened until the mass outside it, per noise vector, is below this.
OUTSIDE_MASS = Fraction(1, 10**9)


@dataclass(frozen=True)
class NoiseTable:
    """Outward-rounded pmf enclosures of N_Z(0, σ²) on [−M, M] and the certified tail beyond."""

    sigma_squared: Fraction
    cutoff: int
    lower: dict[int, int]  # floor(P[Z = x]·2^SCALE_BITS)
    upper: dict[int, int]  # ceil(P[Z = x]·2^SCALE_BITS)
    beyond: Fraction  # an upper bound on P[|Z| > M]

    @classmethod
    def build(cls, sigma_squared: Fraction, cells: int) -> NoiseTable:
        """The table for ``cells`` noise values per vector (cached: the pmf enclosures are the slow part)."""
        return _table(sigma_squared, cells)

    @classmethod
    def _build(cls, sigma_squared: Fraction, cells: int) -> NoiseTable:
        cutoff = 1
        while True:
            beyond = 2 * discrete_gaussian_tail(cutoff + 1, sigma_squared).upper
            if cells * beyond <= OUTSIDE_MASS:
                break
            cutoff += 1
        scale = 1 << SCALE_BITS
        lower, upper = {}, {}
        for x in range(0, cutoff + 1):
            value = discrete_gaussian_pmf(x, sigma_squared)
            low, high = math.floor(value.lower * scale), math.ceil(value.upper * scale)
            lower[x] = lower[-x] = low
            upper[x] = upper[-x] = high
        return cls(sigma_squared, cutoff, lower, upper, beyond)


@cache
def _table(sigma_squared: Fraction, cells: int) -> NoiseTable:
    return NoiseTable._build(sigma_squared, cells)


def _children_law(true_children: Sequence[int], total: int, table: NoiseTable) -> tuple[dict[tuple[int, ...], tuple[int, int]], int, Fraction]:
    """{IntOpt(children + Z, total): (Σ lower, Σ upper)} over the box; the common scale exponent; outside mass."""
    cells = len(true_children)
    support = range(-table.cutoff, table.cutoff + 1)
    law: dict[tuple[int, ...], tuple[int, int]] = {}
    for noise in product(support, repeat=cells):
        low = high = 1
        for z in noise:
            low *= table.lower[z]
            high *= table.upper[z]
        key = intopt([q + z for q, z in zip(true_children, noise, strict=True)], total)
        old_low, old_high = law.get(key, (0, 0))
        law[key] = (old_low + low, old_high + high)
    return law, SCALE_BITS * cells, min(Fraction(1), cells * table.beyond)


@cache
def _law(
    true_children: tuple[int, ...], total: int, sigma_squared: Fraction
) -> tuple[dict[tuple[int, ...], tuple[int, int]], int, Fraction]:
    """:func:`_children_law` with its table, cached (the law does not depend on β or on the level asked)."""
    return _children_law(true_children, total, NoiseTable.build(sigma_squared, len(true_children)))


def _interval(low: int, high: int, bits: int, outside: Fraction) -> tuple[Fraction, Fraction]:
    return Fraction(low, 1 << bits), min(Fraction(1), Fraction(high, 1 << bits) + outside)


def failure_threshold(sizes: Sequence[int], level: int, sigma_squared: Fraction, beta: Fraction) -> int:
    """m_k = ⌊B_k⌋ + 1, the smallest integer error that exceeds Theorem 1's bound B_k (floor certified)."""
    depth_product = 1
    terms = []
    for ell in range(1, level + 1):
        depth_product *= sizes[ell - 1]
        terms.append(Fraction(level * depth_product) / beta)

    def compute() -> arb:
        total = arb(0)
        for argument in terms:
            total += (8 * ball(sigma_squared) * ball(argument).log()).sqrt()
        return total

    bound = enclose(compute, "Theorem 1's bound", start_bits=128, target_bits=100, max_bits=1 << 14)
    low, high = math.floor(bound.lower), math.floor(bound.upper)
    if low != high:
        raise ArithmeticError(f"Theorem 1's bound {float(bound.lower)} is too close to an integer to floor")
    return low + 1


@dataclass(frozen=True)
class UtilityPoint(Decided):
    """The certified failure probability of one (instance, σ², β, level)."""

    children: tuple[tuple[int, ...], ...]  # one level: ((c_1..c_m),); two levels: one tuple per level-1 node
    sigma_squared: Fraction
    beta: Fraction
    level: int
    threshold: int  # m_k: failure means an error >= m_k
    failure: CertifiedReal

    @property
    def holds(self) -> bool:
        return self.failure.upper <= self.beta

    @property
    def refuted(self) -> bool:
        return self.failure.lower > self.beta

    def summary(self) -> str:
        rows = self.children
        shape = f"{len(rows[0])} cells" if len(rows) == 1 else f"{len(rows)}×{len(rows[0])}"
        return (
            f"counts {list(map(list, self.children))}, σ² = {self.sigma_squared}, β = {self.beta}, level {self.level} "
            f"({shape}): P[max err >= {self.threshold}] in {self.failure.bounds(6)}"
        )


def failure_probability(
    children: Sequence[Sequence[int]], sigma_squared: RationalLike, beta: RationalLike, level: int
) -> UtilityPoint:
    """Certified P[max over level-``level`` nodes |err| > B_level] for a one- or two-level instance.

    ``children``: one level — a single tuple of the root's children counts; two levels — one tuple of children
    counts per level-1 node (all of equal length |X_2|; the level-1 counts are their sums).
    """
    s2 = positive_fraction(sigma_squared, "sigma_squared")
    b = positive_fraction(beta, "beta")
    if not 0 < b < 1:
        raise ValueError(f"beta must be in (0, 1), got {b}")
    rows = tuple(tuple(int(v) for v in row) for row in children)
    two_levels = len(rows) > 1  # one row: the root's children (one level); several: one row per level-1 node
    top = tuple(sum(row) for row in rows) if two_levels else rows[0]
    sizes: tuple[int, ...] = (len(top), len(rows[0])) if two_levels else (len(top),)
    if level not in range(1, len(sizes) + 1):
        raise ValueError(f"level must be in 1..{len(sizes)}, got {level}")
    threshold = failure_threshold(sizes, level, s2, b)
    total = sum(top)
    law, bits, outside = _law(top, total, s2)
    if level == 1:
        low = high = 0
        for release, (weight_low, weight_high) in law.items():
            if max(abs(r - t) for r, t in zip(release, top, strict=True)) >= threshold:
                low, high = low + weight_low, high + weight_high
        lower, upper = _interval(low, high, bits, outside)
        return UtilityPoint(rows, s2, b, level, threshold, CertifiedReal(lower, upper))
    memo: dict[tuple[int, int], tuple[Fraction, Fraction]] = {}

    def within(parent: int, count: int) -> tuple[Fraction, Fraction]:
        """[lower, upper] of P[every child of ``parent`` within threshold − 1 | its released count]."""
        if (parent, count) not in memo:
            truth = rows[parent]
            if count == 0:
                ok = Fraction(int(max(truth) < threshold))
                memo[(parent, count)] = (ok, ok)
            else:
                sub, sub_bits, sub_outside = _law(truth, count, s2)
                good_low = sum(w[0] for r, w in sub.items() if max(abs(a - t) for a, t in zip(r, truth, strict=True)) < threshold)
                good_high = sum(w[1] for r, w in sub.items() if max(abs(a - t) for a, t in zip(r, truth, strict=True)) < threshold)
                memo[(parent, count)] = _interval(good_low, good_high, sub_bits, sub_outside)
        return memo[(parent, count)]

    ok_low, ok_high = Fraction(0), Fraction(0)
    for release, (weight_low, weight_high) in law.items():
        factor_low, factor_high = Fraction(1), Fraction(1)
        for parent, count in enumerate(release):
            g_low, g_high = within(parent, count)
            factor_low, factor_high = factor_low * g_low, factor_high * g_high
        ok_low += Fraction(weight_low, 1 << bits) * factor_low
        ok_high += Fraction(weight_high, 1 << bits) * factor_high
    ok_high = min(Fraction(1), ok_high + outside)
    return UtilityPoint(rows, s2, b, level, threshold, CertifiedReal(1 - ok_high, 1 - ok_low))


@dataclass(frozen=True)
class StepPoint(Decided):
    """The proof's per-level step at one level (k = 1): P[‖Z‖∞ <= t] against 1 − β."""

    cells: int
    sigma_squared: Fraction
    beta: Fraction
    radius: int  # ⌊t⌋, t = sqrt(2σ² log(|X_1|/β))
    inside: CertifiedReal  # P[‖Z‖∞ <= t] = P[|Z| <= ⌊t⌋]^cells

    @property
    def fails(self) -> bool:
        """The step's promise P >= 1 − β is certainly broken."""
        return self.inside.upper < 1 - self.beta

    @property
    def holds(self) -> bool:
        """The step's promise is not certainly broken."""
        return not self.fails

    def summary(self) -> str:
        return (
            f"{self.cells} cells, σ² = {self.sigma_squared}, β = {self.beta}: t = sqrt(2σ² log({self.cells}/β)) has "
            f"⌊t⌋ = {self.radius}, P[‖Z‖∞ <= t] in {self.inside.bounds(6)} "
            f"{'<' if self.fails else '>='} 1 − β = {float(1 - self.beta):g}"
        )


def per_level_step(cells: int, sigma_squared: RationalLike, beta: RationalLike, *, two_sided: bool = False) -> StepPoint:
    """The proof's per-level bound with one level (k = 1, the root's ``cells`` noise values), certified.

    ``two_sided``: the corrected radius sqrt(2σ² log(2·cells/β)) (a union bound over both tails)."""
    s2 = positive_fraction(sigma_squared, "sigma_squared")
    b = positive_fraction(beta, "beta")
    spread = Fraction(2 * cells if two_sided else cells)

    def compute() -> arb:
        return (2 * ball(s2) * ball(spread / b).log()).sqrt()

    radius_enclosure = enclose(compute, "the per-level radius", start_bits=128, target_bits=100, max_bits=1 << 14)
    radius = math.floor(radius_enclosure.lower)
    if math.floor(radius_enclosure.upper) != radius:
        raise ArithmeticError("the per-level radius is too close to an integer to floor")
    tail = discrete_gaussian_tail(radius + 1, s2)
    single = CertifiedReal(1 - 2 * tail.upper, 1 - 2 * tail.lower)
    inside = CertifiedReal(max(Fraction(0), single.lower) ** cells, single.upper**cells)
    return StepPoint(cells, s2, b, radius, inside)
