"""Certified checks of the KARY paper's Laplace calibrations against the exact Laplace privacy profile.

Every verdict comes from an Arb enclosure lying entirely on one side of its threshold:

* a formula's ε (or scale) *holds* for a sensitivity vector when the Arb upper bound of the exact profile
  δ(ε) (:mod:`reference.privacy.laplace_profile`) at the formula's value — the lower end of its enclosure,
  since δ(ε) decreases in ε and in the scale — is <= δ;
* the exact ε and scale come from certified bisections (``upper`` sufficient, ``lower`` insufficient), so a
  ratio formula/exact is enclosed as ``[formula.lower/exact.upper, formula.upper/exact.lower]``.

Tree-like sensitivity vectors: a leaf of a k-ary tree mechanism touches one node per level, so neighbouring
streams differ by an all-ones vector of length h (the height): Δ1 = h, Δ2 = sqrt(h) (passed as Δ2² = h).
Each function takes its grid as parameters (small in the test suite, larger in the report) and returns a
frozen dataclass with ``holds`` and ``summary()``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from flint import arb

from reference.core.bisection import bisect
from reference.core.certified import CertifiedReal, format_directed, working_precision
from reference.core.certified import ball as _ball
from reference.core.validate import check_positive_int, fraction_text
from reference.core.verdict import Decided, Verdict
from reference.kary.privacy import (
    corollary_5_7_factor,
    corollary_5_7_variance_ratio,
    heterogeneous_composition_epsilon,
    l2_laplace_epsilon,
    laplace_epsilon_theorem_1_3,
)
from reference.privacy.gaussian import gaussian_delta, sigma_exact
from reference.privacy.laplace_profile import laplace_delta, laplace_epsilon
from reference.privacy.laplace_scale import laplace_scale_exact
from reference.privacy.pure_composition import optimal_composition_delta, optimal_composition_epsilon

_PRECISION = 192
DELTAS = (Fraction(1, 10**3), Fraction(1, 10**6), Fraction(1, 10**10))
SCALE_FACTORS = (Fraction(101, 100), Fraction(2), Fraction(10), Fraction(100))
RATIO_TOLERANCE = Fraction(1, 10**8)


def _text(value: Fraction) -> str:
    """A short exact form: p/q, or 1e-k for a power of ten."""
    zeros = len(str(value.denominator)) - 1
    if value.numerator == 1 and zeros > 2 and 10**zeros == value.denominator:
        return f"1e-{zeros}"
    return fraction_text(value)


def _ratio(formula: CertifiedReal, exact: CertifiedReal) -> CertifiedReal | None:
    """Enclosure of formula/exact (None when the exact value may be 0)."""
    if exact.lower <= 0:
        return None
    return CertifiedReal(formula.lower / exact.upper, formula.upper / exact.lower)


def _span(ratios: Sequence[tuple[CertifiedReal, str]]) -> str:
    """'from MIN (where) to MAX (where)' over enclosed ratios (6 digits, the least rounded down and the largest
    up, so the printed range contains every ratio)."""
    if not ratios:
        return "(no finite ratio)"
    low = min(ratios, key=lambda item: item[0].midpoint)
    high = max(ratios, key=lambda item: item[0].midpoint)
    lowest = format_directed(min(item[0].lower for item in ratios), 6, upward=False)
    highest = format_directed(max(item[0].upper for item in ratios), 6, upward=True)
    return f"from {lowest} ({low[1]}) to {highest} ({high[1]})"


# ---------------------------------------------------------------------------------------------- Theorem 1.3


@dataclass(frozen=True)
class EpsilonPoint:
    """One (height, δ, scale) point: the paper's ε, the exact ε, and the certified verdict."""

    height: int
    delta: Fraction
    scale: Fraction
    paper: CertifiedReal
    exact: CertifiedReal
    delta_at_paper: CertifiedReal  # exact δ(ε) at paper.lower
    holds: bool
    ratio: CertifiedReal | None  # paper / exact (None when the exact ε is 0)

    def label(self) -> str:
        """Where the point is."""
        return f"h={self.height}, δ={_text(self.delta)}, λ={fraction_text(self.scale)}"


@dataclass(frozen=True)
class EpsilonComparison(Decided):
    """A paper ε formula against the exact ε of tree-like sensitivity vectors on a grid."""

    formula: str
    points: tuple[EpsilonPoint, ...]

    @property
    def failures(self) -> tuple[EpsilonPoint, ...]:
        """Points where the paper's ε is certified NOT to be an upper bound of the exact ε."""
        return tuple(point for point in self.points if not point.holds)

    @property
    def holds(self) -> bool:
        """The paper's ε is a certified upper bound of the exact ε at every point."""
        return not self.failures

    def summary(self) -> str:
        """One paragraph of evidence for the report."""
        ratios = [(p.ratio, p.label()) for p in self.points if p.ratio is not None]
        zero = sum(1 for p in self.points if p.ratio is None)
        heights = sorted({p.height for p in self.points})
        verdict = "always a certified upper bound" if self.holds else f"NOT an upper bound at {len(self.failures)}"
        first = "" if self.holds else f" (first: {self.failures[0].label()})"
        used = [
            (CertifiedReal(p.delta_at_paper.lower / p.delta, p.delta_at_paper.upper / p.delta), p.label())
            for p in self.points
        ]
        return (
            f"{self.formula} vs the exact ε of Lap(λ)^h noise for the all-ones vector of length h "
            f"(h = {heights[0]}..{heights[-1]}), {len(self.points)} points: {verdict}{first} (Arb upper bound "
            f"of the exact δ(ε) at the formula's ε is <= δ). Ratio formula/exact ε {_span(ratios)}"
            + (f"; at {zero} points the exact ε is 0 (the noise is already (0, δ)-DP)" if zero else "")
            + f". Exact δ at the formula's ε, as a fraction of δ, {_span(used)}."
        )


def _epsilon_point(height: int, delta: Fraction, scale: Fraction, paper: CertifiedReal) -> EpsilonPoint:
    vector = [1] * height
    at_paper = laplace_delta(epsilon=paper.lower, scale=scale, sensitivities=vector)
    exact = laplace_epsilon(delta=delta, scale=scale, sensitivities=vector, tolerance=RATIO_TOLERANCE)
    return EpsilonPoint(
        height, delta, scale, paper, exact, at_paper, at_paper.certainly_le(delta), _ratio(paper, exact)
    )


def theorem_1_3_vs_exact(
    max_height: int = 30,
    deltas: Sequence[Fraction] = DELTAS,
    scale_factors: Sequence[Fraction] = SCALE_FACTORS,
) -> EpsilonComparison:
    """Theorem 1.3's ε against the exact ε for all-ones vectors of length h = 1..``max_height``.

    Scales λ = factor · h for each factor in ``scale_factors`` (all > 1: the theorem needs λ > Δ1 = h); Δ2² = h.
    """
    top = check_positive_int(max_height, "max_height")
    points = []
    for height in range(1, top + 1):
        for delta in deltas:
            for factor in scale_factors:
                scale = factor * height
                paper = laplace_epsilon_theorem_1_3(
                    scale=scale, l1_sensitivity=height, l2_sensitivity=None, delta=delta, l2_sensitivity_squared=height
                )
                points.append(_epsilon_point(height, delta, scale, paper))
    return EpsilonComparison("KARY Theorem 1.3", tuple(points))


def proof_5_9_below_l1(
    heights: Sequence[int] = (4, 16, 30),
    deltas: Sequence[Fraction] = DELTAS,
    scale_factors: Sequence[Fraction] = (Fraction(1, 4), Fraction(1, 2), Fraction(1)),
) -> EpsilonComparison:
    """Beyond Theorem 1.3's range: Proof 5.9's ε' = (Δ2/λ)(Δ2/(2λ) + sqrt(2 ln(1/δ))) for λ <= Δ1 (factors <= 1).

    The theorem excludes λ <= Δ1, but its proof never uses the restriction; this checks ε' against the exact ε.
    """
    points = []
    for height in heights:
        for delta in deltas:
            for factor in scale_factors:
                scale = factor * height
                paper = l2_laplace_epsilon(scale=scale, l2_sensitivity=None, delta=delta, l2_sensitivity_squared=height)
                points.append(_epsilon_point(height, delta, scale, paper))
    return EpsilonComparison("Proof 5.9's ε' with λ <= Δ1 (outside Theorem 1.3)", tuple(points))


# ---------------------------------------------------------------------------------------------- Lemma 5.5


@dataclass(frozen=True)
class ScalePoint:
    """Lemma 5.5's scale for the all-ones vector of length h at (ε, δ), against the exact smallest scale."""

    height: int
    epsilon: Fraction
    delta: Fraction
    paper: CertifiedReal
    delta_at_paper: CertifiedReal  # exact δ(ε) at paper.lower
    holds: bool
    exact: CertifiedReal  # [scale_below, scale] of laplace_scale_exact
    ratio: CertifiedReal  # paper / exact

    def label(self) -> str:
        """Where the point is."""
        return f"h={self.height}, ε={_text(self.epsilon)}, δ={_text(self.delta)}"


@dataclass(frozen=True)
class ScaleComparison(Decided):
    """Lemma 5.5's scale Δ2/a_{ε,δ} against the exact smallest scale, on a grid."""

    points: tuple[ScalePoint, ...]
    in_range: bool  # all ε < 1 (the lemma's range) or some beyond

    @property
    def failures(self) -> tuple[ScalePoint, ...]:
        """Points where the lemma's scale is certified insufficient."""
        return tuple(point for point in self.points if not point.holds)

    @property
    def holds(self) -> bool:
        """The lemma's scale is certified sufficient at every point."""
        return not self.failures

    def summary(self) -> str:
        """One paragraph of evidence for the report."""
        ratios = [(p.ratio, p.label()) for p in self.points]
        epsilons = sorted({p.epsilon for p in self.points})
        where = "inside its range ε < 1" if self.in_range else "OUTSIDE its stated range (ε >= 1)"
        verdict = "sufficient at every point" if self.holds else f"INSUFFICIENT at {len(self.failures)} points"
        return (
            f"KARY Lemma 5.5's scale Δ2/a_(ε,δ) {where}, all-ones vectors (Δ2² = h), ε ∈ "
            f"[{_text(epsilons[0])}, {_text(epsilons[-1])}], {len(self.points)} points: {verdict} (Arb upper bound "
            f"of the exact δ(ε) at the lemma's scale <= δ). Ratio lemma/exact smallest scale {_span(ratios)}."
        )


def _scale_formula(epsilon: Fraction, delta: Fraction, l2_squared: Fraction) -> CertifiedReal:
    """Δ2/a_{ε,δ} evaluated for ANY ε > 0 (no range check), in Arb."""
    with working_precision(_PRECISION):
        log_inverse = (1 / _ball(delta)).log()
        a = arb(2).sqrt() * _ball(epsilon) / (log_inverse.sqrt() + (log_inverse + _ball(epsilon)).sqrt())
        ball = _ball(l2_squared).sqrt() / a
    return CertifiedReal.from_arb(ball)


def lemma_5_5_vs_exact(
    heights: Sequence[int] = (1, 2, 4, 8, 16, 30),
    epsilons: Sequence[Fraction] = (Fraction(1, 10), Fraction(1, 2), Fraction(9, 10)),
    deltas: Sequence[Fraction] = DELTAS,
) -> ScaleComparison:
    """Lemma 5.5's scale against the exact smallest scale for all-ones vectors (any ε > 0 is evaluated; the
    result says whether all ε were inside the lemma's range ε < 1)."""
    points = []
    for height in heights:
        for epsilon in epsilons:
            for delta in deltas:
                paper = _scale_formula(epsilon, delta, Fraction(height))
                at_paper = laplace_delta(epsilon=epsilon, scale=paper.lower, sensitivities=[1] * height)
                exact = laplace_scale_exact(
                    epsilon=epsilon, delta=delta, sensitivities=[1] * height, tolerance=RATIO_TOLERANCE
                ).enclosure
                ratio = CertifiedReal(paper.lower / exact.upper, paper.upper / exact.lower)
                points.append(
                    ScalePoint(height, epsilon, delta, paper, at_paper, at_paper.certainly_le(delta), exact, ratio)
                )
    return ScaleComparison(tuple(points), all(e < 1 for e in epsilons))


# ---------------------------------------------------------------------------------------------- Lemma 5.4


@dataclass(frozen=True)
class CompositionPoint:
    """Lemma 5.4's ε~ for one list of ε_j and δ, against the optimal and the Laplace composition."""

    epsilons: tuple[Fraction, ...]
    delta: Fraction
    paper: CertifiedReal
    optimal_delta_at_paper: CertifiedReal  # δ_opt(ε~.lower)
    holds: bool
    optimal: CertifiedReal  # smallest ε with δ_opt(ε) <= δ
    laplace: CertifiedReal  # smallest ε for the product of 1-D Laplace mechanisms with these ε_j
    laplace_below_optimal: bool  # laplace.lower <= optimal.upper (Laplace is one of the composed mechanisms)
    ratio: CertifiedReal | None  # paper / optimal

    def label(self) -> str:
        """Where the point is."""
        values = sorted(set(self.epsilons))
        parts = ", ".join(f"{self.epsilons.count(v)}×{_text(v)}" for v in values)
        return f"[{parts}], δ={_text(self.delta)}"


@dataclass(frozen=True)
class CompositionComparison(Decided):
    """Lemma 5.4 against the optimal composition of pure DP (Murtagh–Vadhan), on a grid."""

    points: tuple[CompositionPoint, ...]

    @property
    def holds(self) -> bool:
        """Lemma 5.4's ε~ is certified sufficient for the optimal composition at every point (and the Laplace
        composition never needs more than the optimal bound, a consistency check of both exact profiles)."""
        return all(p.holds and p.laplace_below_optimal for p in self.points)

    def summary(self) -> str:
        """One paragraph of evidence for the report."""
        ratios = [(p.ratio, p.label()) for p in self.points if p.ratio is not None]
        failing = [p for p in self.points if not p.holds]
        verdict = "sufficient at every point" if not failing else f"INSUFFICIENT at {len(failing)} points"
        slack = max(self.points, key=lambda p: float(p.optimal.upper - p.laplace.upper))
        return (
            f"KARY Lemma 5.4's ε~ on {len(self.points)} lists of ε_j and δ: {verdict} (Arb upper bound of the "
            f"optimal-composition δ_opt(ε~) <= δ). Ratio ε~/optimal ε {_span(ratios)}. The composition of 1-D "
            f"Laplace mechanisms with the same ε_j needs at most the optimal ε everywhere: "
            f"{all(p.laplace_below_optimal for p in self.points)} (largest gap at {slack.label()}: Laplace "
            f"{format_directed(slack.laplace.upper, 6, upward=True)} vs optimal "
            f"{format_directed(slack.optimal.upper, 6, upward=True)})."
        )


DEFAULT_LISTS: tuple[tuple[Fraction, ...], ...] = (
    (Fraction(1, 10),) * 10,
    (Fraction(1, 10),) * 100,
    (Fraction(1, 100),) * 400,
    (Fraction(1, 2),) * 20,
    (Fraction(1),) * 5,
    (Fraction(1, 10), Fraction(1, 5), Fraction(1, 3), Fraction(1, 2)) * 5,
    (Fraction(1, 20),) * 30 + (Fraction(1, 4),) * 10,
)


def lemma_5_4_vs_optimal(
    lists: Sequence[Sequence[Fraction]] = DEFAULT_LISTS, deltas: Sequence[Fraction] = DELTAS
) -> CompositionComparison:
    """Lemma 5.4's ε~ vs the optimal composition ε and the exact Laplace composition ε on a grid."""
    points = []
    for values in lists:
        epsilons = tuple(values)
        for delta in deltas:
            paper = heterogeneous_composition_epsilon(epsilons=epsilons, delta=delta)
            at_paper = optimal_composition_delta(epsilon=paper.lower, epsilons=epsilons)
            optimal = optimal_composition_epsilon(delta=delta, epsilons=epsilons, tolerance=RATIO_TOLERANCE)
            laplace = laplace_epsilon(delta=delta, scale=1, sensitivities=list(epsilons), tolerance=RATIO_TOLERANCE)
            points.append(
                CompositionPoint(
                    epsilons,
                    delta,
                    paper,
                    at_paper,
                    at_paper.certainly_le(delta),
                    optimal,
                    laplace,
                    laplace.lower <= optimal.upper,
                    _ratio(paper, optimal),
                )
            )
    return CompositionComparison(tuple(points))


# ---------------------------------------------------------------------------------------------- Corollary 5.7


@dataclass(frozen=True)
class FactorPoint:
    """Corollary 5.7 at one (ε, δ): its factor, the ratio of the two formulas' variances, and the ratio of the
    exact smallest variances (Laplace 2b² vs Gaussian σ²) for all-ones vectors of several lengths."""

    epsilon: Fraction
    delta: Fraction
    factor: CertifiedReal
    formula_ratio: CertifiedReal  # Var[Lemma 5.5] / Var[Lemma A.3]
    exact_ratios: tuple[tuple[int, CertifiedReal], ...]  # (h, 2 b_exact² / σ_exact²)

    @property
    def holds(self) -> bool:
        """The formula ratio is certified <= the factor."""
        return self.formula_ratio.upper <= self.factor.lower


@dataclass(frozen=True)
class FactorComparison(Decided):
    """Corollary 5.7 on a grid inside ε < 1, ε <= ln(1/δ)."""

    points: tuple[FactorPoint, ...]

    @property
    def holds(self) -> bool:
        """Var[Lemma 5.5]/Var[Lemma A.3] <= factor, certified, at every point."""
        return all(p.holds for p in self.points)

    def summary(self) -> str:
        """One paragraph of evidence for the report."""
        factors = [p.factor.midpoint for p in self.points]
        exact = [
            (r, f"h={h}, ε={_text(p.epsilon)}, δ={_text(p.delta)}") for p in self.points for h, r in p.exact_ratios
        ]
        above = sum(1 for p in self.points for _, r in p.exact_ratios if r.lower > p.factor.upper)
        return (
            f"KARY Corollary 5.7 on {len(self.points)} points (ε < 1, ε <= ln(1/δ)): Var[Lemma 5.5]/Var[Lemma A.3] "
            f"<= factor {'at every point' if self.holds else 'FAILS somewhere'} (certified); factor from "
            f"{format_directed(min(factors), 6, upward=False)} to {format_directed(max(factors), 6, upward=True)}. Ratio of the exact smallest variances "
            f"2b²/σ² (exact Laplace profile vs exact Gaussian profile, all-ones vectors) {_span(exact)}; "
            f"certified above the factor at {above} of {len(exact)}."
        )


def corollary_5_7_vs_exact(
    epsilons: Sequence[Fraction] = (Fraction(1, 10), Fraction(1, 2), Fraction(9, 10)),
    deltas: Sequence[Fraction] = DELTAS,
    heights: Sequence[int] = (1, 4, 16, 30),
) -> FactorComparison:
    """Corollary 5.7's factor vs the formula ratio and vs the exact-calibration ratio 2b²/σ² (Δ2² = h)."""
    points = []
    for epsilon in epsilons:
        for delta in deltas:
            factor = corollary_5_7_factor(epsilon=epsilon, delta=delta)
            formula = corollary_5_7_variance_ratio(epsilon=epsilon, delta=delta)
            exact = []
            for height in heights:
                laplace = laplace_scale_exact(
                    epsilon=epsilon, delta=delta, sensitivities=[1] * height, tolerance=RATIO_TOLERANCE
                )
                gauss = sigma_exact(epsilon=epsilon, delta=delta, sensitivity_squared=height, tolerance=RATIO_TOLERANCE)
                ratio = CertifiedReal(
                    2 * laplace.scale_below**2 / gauss.sigma**2, 2 * laplace.scale**2 / gauss.sigma_below**2
                )
                exact.append((height, ratio))
            points.append(FactorPoint(epsilon, delta, factor, formula, tuple(exact)))
    return FactorComparison(tuple(points))


@dataclass(frozen=True)
class GaussianRangePoint:
    """Lemma A.3's σ = Δ sqrt(2 ln(1.25/δ))/ε at one (ε, δ) with 1 <= ε <= ln(1/δ)."""

    epsilon: Fraction
    delta: Fraction
    sigma: CertifiedReal
    delta_at_sigma: CertifiedReal  # exact Gaussian δ(ε) at sigma.upper (fails) or sigma.lower (holds)
    verdict: Verdict


@dataclass(frozen=True)
class GaussianRange(Decided):
    """Is Lemma A.3's Gaussian, which Corollary 5.7 compares with, private on the corollary's range?"""

    points: tuple[GaussianRangePoint, ...]
    thresholds: tuple[tuple[Fraction, Fraction, Fraction], ...]  # (δ, holds at ε, fails at ε)

    @property
    def failures(self) -> tuple[GaussianRangePoint, ...]:
        """Certified failures."""
        return tuple(p for p in self.points if p.verdict == "fails")

    @property
    def holds(self) -> bool:
        """Lemma A.3's σ is certified private at every grid point of 1 <= ε <= ln(1/δ)."""
        return all(p.verdict == "holds" for p in self.points)

    def summary(self) -> str:
        """One paragraph of evidence for the report."""
        head = (
            f"Lemma A.3's Gaussian σ = Δ sqrt(2 ln(1.25/δ))/ε (stated for ε < 1) on {len(self.points)} grid points "
            "with 1 <= ε <= ln(1/δ), the part of Corollary 5.7's range outside the lemma's: "
        )
        if not self.failures:
            return head + "private at every point (certified)."
        first = min(self.failures, key=lambda p: (p.epsilon, -p.delta))
        edges = "; ".join(
            f"δ={_text(d)}: holds at ε={float(low):.8f}, fails at ε={float(high):.8f}"
            for d, low, high in self.thresholds
        )
        return head + (
            f"NOT private at {len(self.failures)} points, e.g. ε={_text(first.epsilon)}, δ={_text(first.delta)} where "
            f"the exact Gaussian δ(ε) at that σ is {first.delta_at_sigma.decimal(15, rounded='down')} > δ. Thresholds: {edges}."
        )


def _classical(epsilon: Fraction, delta: Fraction) -> CertifiedReal:
    with working_precision(_PRECISION):
        ball = (2 * (_ball(Fraction(5, 4)) / _ball(delta)).log()).sqrt() / _ball(epsilon)
    return CertifiedReal.from_arb(ball)


def _gaussian_point(epsilon: Fraction, delta: Fraction) -> GaussianRangePoint:
    sigma = _classical(epsilon, delta)
    at_upper = gaussian_delta(epsilon=epsilon, sigma=sigma.upper, sensitivity_squared=1)
    if at_upper.certainly_gt(delta):
        return GaussianRangePoint(epsilon, delta, sigma, at_upper, "fails")
    at_lower = gaussian_delta(epsilon=epsilon, sigma=sigma.lower, sensitivity_squared=1)
    verdict: Verdict = "holds" if at_lower.certainly_le(delta) else "inconclusive"
    return GaussianRangePoint(epsilon, delta, sigma, at_lower, verdict)


def _below_log_inverse(epsilon: Fraction, delta: Fraction) -> bool:
    with working_precision(_PRECISION):
        return bool(_ball(epsilon) < (1 / _ball(delta)).log())


def corollary_5_7_gaussian_range(
    deltas: Sequence[Fraction] = (Fraction(1, 10**3), Fraction(1, 10**4), Fraction(1, 10**6), Fraction(1, 10**10)),
    step: Fraction = Fraction(1, 2),
    refine_to: Fraction = Fraction(1, 10**6),
) -> GaussianRange:
    """Lemma A.3's σ at ε = 1, 1 + step, ... < ln(1/δ) for each δ (Δ = 1; the verdict is scale invariant),
    with the first failing ε refined by bisection against the last holding one."""
    points = []
    thresholds = []
    for delta in deltas:
        row = []
        epsilon = Fraction(1)
        while _below_log_inverse(epsilon, delta):
            row.append(_gaussian_point(epsilon, delta))
            epsilon += step
        points.extend(row)
        failing = [p for p in row if p.verdict == "fails"]
        if failing:
            high = failing[0].epsilon
            holding = [p.epsilon for p in row if p.epsilon < high and p.verdict == "holds"]
            if holding:
                def holds(epsilon: Fraction, delta: Fraction = delta) -> bool | None:
                    verdict = _gaussian_point(epsilon, delta).verdict
                    return None if verdict == "inconclusive" else verdict == "holds"

                low, high = bisect(
                    holds, max(holding), high, done=lambda low, high: high - low <= refine_to, increasing=False
                )
                thresholds.append((delta, low, high))
    return GaussianRange(tuple(points), tuple(thresholds))


__all__ = [
    "CompositionComparison",
    "EpsilonComparison",
    "FactorComparison",
    "GaussianRange",
    "ScaleComparison",
    "corollary_5_7_gaussian_range",
    "corollary_5_7_vs_exact",
    "lemma_5_4_vs_optimal",
    "lemma_5_5_vs_exact",
    "proof_5_9_below_l1",
    "theorem_1_3_vs_exact",
]
