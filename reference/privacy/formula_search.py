"""Where a closed-form Gaussian σ stops giving (ε, δ)-DP: a certified search beyond its theorem's range.

A σ formula (a function of ε, δ and Δ² returning a certified enclosure) is evaluated on a grid of (ε, δ); every
verdict comes from an Arb enclosure of the exact privacy profile δ(ε) (Balle & Wang 2018, Theorem 8) lying
entirely on one side of the target δ:

* the formula *holds* at (ε, δ) when the Arb upper bound of δ(ε) at the *lower* end of its σ enclosure is <= δ
  (δ(ε) decreases in σ, so it then holds at the exact irrational σ too);
* it *fails* when the Arb lower bound of δ(ε) at the *upper* end of the σ enclosure is > δ.

The classical formula Δ sqrt(2 log(1.25/δ))/ε (Dwork & Roth, Theorem A.1) is searched here; paper-specific
formulas (CIP Theorem 3.8) use the same search from their paper's package.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from reference.core.bisection import bisect
from reference.core.certified import CertifiedReal, format_directed, working_precision
from reference.core.certified import ball as _ball
from reference.core.validate import RationalLike, check_positive_int, fraction_text, positive_fraction
from reference.core.verdict import Judged, Verdict
from reference.privacy.gaussian import gaussian_delta

#: Working precision for the formula enclosures below (far more than the 80-bit relative accuracy needed).
PRECISION = 192

def exact_text(value: Fraction) -> str:
    """A short exact form for messages: p/q, or a power of ten as 1e-k.

    Args:
        value: the exact rational to print, a ``Fraction`` (1/10**k with k > 3 prints as ``1e-k``).
    """
    zeros = len(str(value.denominator)) - 1
    if value.numerator == 1 and zeros > 3 and 10**zeros == value.denominator:
        return f"1e-{zeros}"
    return fraction_text(value)

def log_grid(low_exponent: int, high_exponent: int, count: int) -> tuple[Fraction, ...]:
    """``count`` exact decimals 10**x, x evenly spaced in [low_exponent, high_exponent], both ends included.

    Interior points are rounded to two significant digits so that they are short exact rationals.

    Args:
        low_exponent: the base-10 exponent of the grid's smallest point, an integer (10**low_exponent is
            included exactly).
        high_exponent: the base-10 exponent of its largest point, an integer >= low_exponent (included exactly).
        count: the number of points wanted, an integer >= 2 (fewer are returned when rounded interior points
            coincide); refused as ``grid_size``, the name the command line knows it by.
    """
    count = check_positive_int(count, "grid_size", minimum=2)
    points = {Fraction(10) ** low_exponent, Fraction(10) ** high_exponent}
    for step in range(1, count - 1):
        exponent = low_exponent + (high_exponent - low_exponent) * step / (count - 1)
        # two significant digits of 10**exponent; the float only chooses a grid point, it is not a result
        points.add(Fraction(f"{10.0**exponent:.1e}"))
    return tuple(sorted(points))

@dataclass(frozen=True)
class FormulaPoint:
    """A σ formula evaluated at one (ε, δ): its σ enclosure and the certified verdict."""

    epsilon: Fraction
    delta: Fraction
    sigma: CertifiedReal
    delta_at_sigma: CertifiedReal  # δ(ε) at sigma.upper when it fails, at sigma.lower otherwise
    verdict: Verdict

@dataclass(frozen=True)
class FormulaSearch(Judged):
    """Where a closed-form σ stops giving (ε, δ)-DP, searched on a grid beyond its theorem's range.

    For each grid δ, ``thresholds[i]`` is ``(holds_at, fails_at)`` or None: the smallest grid ε at which the
    formula fails for ``deltas[i]``, refined by exact bisection against the largest smaller grid ε where it
    holds, so the formula is certified to hold at ``holds_at`` and to fail at ``fails_at`` (None if it holds
    on the whole ε grid). ``smallest_counterexample`` is the certified failure with the smallest ε found.
    ``safe_epsilon`` is the largest grid ε such that the formula holds at every grid point with a smaller or
    equal ε (all grid δ). No monotonicity in ε is assumed: ``failures`` counts every failing grid point.
    """

    formula: str
    stated_range: str
    sensitivity_squared: Fraction
    epsilons: tuple[Fraction, ...]
    deltas: tuple[Fraction, ...]
    points_checked: int
    failures: int
    undecided: int
    thresholds: tuple[tuple[Fraction, Fraction] | None, ...]
    smallest_counterexample: FormulaPoint | None
    safe_epsilon: Fraction | None

    @property
    def verdict(self) -> Verdict:
        """Does the formula hold on the whole grid: "fails" at a certified failure, "inconclusive" when some
        point is undecided and none fails, else "holds"."""
        if self.failures:
            return "fails"
        return "inconclusive" if self.undecided else "holds"

    def summary(self) -> str:
        """One paragraph of evidence for the report."""
        head = f"{self.formula} (stated for {self.stated_range}) on {self.points_checked} grid points: "
        point = self.smallest_counterexample
        if point is None:
            return head + "no certified failure found on the grid."
        by_delta = ", ".join(
            f"δ={exact_text(d)}: ε≈{float(t[1]):.4f}" for d, t in zip(self.deltas, self.thresholds) if t is not None
        )
        safe = "none" if self.safe_epsilon is None else format_directed(self.safe_epsilon, 4, upward=False)
        return (
            head + f"{self.failures} certified failures. Smallest counterexample found: ε={exact_text(point.epsilon)} "
            f"(≈{float(point.epsilon):.6f}), δ={exact_text(point.delta)}, where δ(ε) at the formula's σ is "
            f"{point.delta_at_sigma.decimal(15, rounded='down')} > δ. The formula holds at every grid point with ε <= {safe} "
            f"(all grid δ, including δ > 1/2). Failure thresholds by δ: {by_delta}."
        )

class SigmaFormula(Protocol):
    """A σ formula, called by keyword so that ε, δ and Δ² cannot be swapped."""

    def __call__(self, *, epsilon: Fraction, delta: Fraction, sensitivity_squared: Fraction) -> CertifiedReal: ...


def classical_formula(*, epsilon: Fraction, delta: Fraction, sensitivity_squared: Fraction) -> CertifiedReal:
    """The classical formula Δ sqrt(2 log(1.25/δ))/ε, evaluated for ANY ε, δ (no range check).

    Args:
        epsilon: ε > 0, an exact ``Fraction`` (any ε: the theorem's range ε < 1 is not checked).
        delta: δ in (0, 1), an exact ``Fraction``.
        sensitivity_squared: the squared ℓ₂ sensitivity Δ² > 0 (not Δ), an exact ``Fraction``.
    """
    with working_precision(PRECISION):
        ball = (2 * _ball(sensitivity_squared) * (_ball(Fraction(5, 4)) / _ball(delta)).log()).sqrt()
        ball = ball / _ball(epsilon)
    return CertifiedReal.from_arb(ball)

def evaluate_formula(
    formula: SigmaFormula,
    *,
    epsilon: Fraction,
    delta: Fraction,
    sensitivity_squared: Fraction,
) -> FormulaPoint:
    """The formula's σ enclosure at one (ε, δ) and its certified verdict there: "fails" when δ(ε) at the enclosure's
    upper end is certainly above δ, "holds" when δ(ε) at its lower end is certainly at most δ (δ(ε) decreases in
    σ), else "inconclusive".

    Args:
        formula: the σ formula, a :class:`SigmaFormula` (called by keyword with ε, δ and Δ², returning a
            certified enclosure of σ).
        epsilon: ε > 0, an exact ``Fraction``.
        delta: the target δ in (0, 1), an exact ``Fraction``.
        sensitivity_squared: the squared ℓ₂ sensitivity Δ² > 0 (not Δ), an exact ``Fraction``.
    """
    sigma = formula(epsilon=epsilon, delta=delta, sensitivity_squared=sensitivity_squared)
    at_upper = gaussian_delta(epsilon=epsilon, sigma=sigma.upper, sensitivity_squared=sensitivity_squared)
    if at_upper.certainly_gt(delta):
        return FormulaPoint(epsilon, delta, sigma, at_upper, "fails")
    at_lower = gaussian_delta(epsilon=epsilon, sigma=sigma.lower, sensitivity_squared=sensitivity_squared)
    if at_lower.certainly_le(delta):
        return FormulaPoint(epsilon, delta, sigma, at_lower, "holds")
    return FormulaPoint(epsilon, delta, sigma, at_lower, "inconclusive")

def refine_threshold(
    formula: SigmaFormula,
    *,
    delta: Fraction,
    sensitivity_squared: Fraction,
    low: Fraction,
    high: Fraction,
    refine_to: Fraction,
) -> tuple[Fraction, Fraction, FormulaPoint]:
    """Bisect ε in [low, high] (formula holds at low, fails at high) down to width ``refine_to``.

    Args:
        formula: the σ formula, a :class:`SigmaFormula`.
        delta: the target δ in (0, 1), an exact ``Fraction``.
        sensitivity_squared: the squared ℓ₂ sensitivity Δ² > 0 (not Δ), an exact ``Fraction``.
        low: an ε, exact ``Fraction``, at which the formula is certified to hold.
        high: an ε > low, exact ``Fraction``, at which it is certified to fail.
        refine_to: the width at which the bisection stops, an exact ``Fraction`` > 0.
    """
    points = {high: evaluate_formula(formula, epsilon=high, delta=delta, sensitivity_squared=sensitivity_squared)}

    def holds(epsilon: Fraction) -> bool | None:
        point = points[epsilon] = evaluate_formula(
            formula, epsilon=epsilon, delta=delta, sensitivity_squared=sensitivity_squared
        )
        return None if point.verdict == "inconclusive" else point.verdict == "holds"

    low, high = bisect(holds, low, high, done=lambda low, high: high - low <= refine_to, increasing=False)
    return low, high, points[high]

def search_formula(
    formula: SigmaFormula,
    name: str,
    stated_range: str,
    *,
    epsilons: Sequence[Fraction],
    deltas: Sequence[Fraction],
    sensitivity_squared: Fraction,
    refine_to: Fraction,
) -> FormulaSearch:
    """The formula on the grid ``epsilons`` × ``deltas``, each failure threshold refined by exact bisection in ε
    (see :class:`FormulaSearch` for what the result states).

    Args:
        formula: the σ formula, a :class:`SigmaFormula`.
        name: the formula's name in the report (e.g. ``"classical Gaussian mechanism (Dwork & Roth A.1)"``).
        stated_range: the range its theorem states it for, as text for the report (e.g.
            ``"epsilon in (0, 1)"``).
        epsilons: the ε grid, exact ``Fraction`` values > 0 (order free: thresholds use the smallest failing ε).
        deltas: the δ grid, exact ``Fraction`` values in (0, 1).
        sensitivity_squared: the squared ℓ₂ sensitivity Δ² > 0 (not Δ), an exact ``Fraction``.
        refine_to: the width, an exact ``Fraction`` > 0, to which each failure threshold in ε is bisected.
    """
    grid = {
        (e, d): evaluate_formula(formula, epsilon=e, delta=d, sensitivity_squared=sensitivity_squared)
        for e in epsilons
        for d in deltas
    }
    thresholds: list[tuple[Fraction, Fraction] | None] = []
    counterexamples: list[FormulaPoint] = []
    for delta in deltas:
        failing = [e for e in epsilons if grid[e, delta].verdict == "fails"]
        if not failing:
            thresholds.append(None)
            continue
        first = min(failing)
        holding = [e for e in epsilons if e < first and grid[e, delta].verdict == "holds"]
        if holding:
            low, high, point = refine_threshold(
                formula,
                delta=delta,
                low=max(holding),
                high=first,
                sensitivity_squared=sensitivity_squared,
                refine_to=refine_to,
            )
            thresholds.append((low, high))
            counterexamples.append(point)
        else:
            thresholds.append(None)
            counterexamples.append(grid[first, delta])
    safe = None
    for epsilon in sorted(epsilons):
        if any(grid[epsilon, d].verdict != "holds" for d in deltas):
            break
        safe = epsilon
    return FormulaSearch(
        formula=name,
        stated_range=stated_range,
        sensitivity_squared=sensitivity_squared,
        epsilons=tuple(epsilons),
        deltas=tuple(deltas),
        points_checked=len(grid),
        failures=sum(1 for point in grid.values() if point.verdict == "fails"),
        undecided=sum(1 for point in grid.values() if point.verdict == "inconclusive"),
        thresholds=tuple(thresholds),
        smallest_counterexample=min(counterexamples, key=lambda p: (p.epsilon, p.delta), default=None),
        safe_epsilon=safe,
    )

def outside_grids(grid_size: int, low: Fraction) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    """The ε grid: ``low`` to 16 in steps of 15/(4 grid_size) (plus 1/100, 1/10, 1 when ``low`` < 1); the δ
    grid: 1e-12 .. 1e-1 (log-spaced) and 1/2, 0.6, 0.75, 0.9, 0.99, 0.999.

    Args:
        grid_size: the grid's resolution, an integer >= 2: the ε step is 15/(4 grid_size) and the small-δ part
            has max(2, grid_size // 2) log-spaced points.
        low: the smallest ε of the grid, an exact ``Fraction`` at most 16 (values under 1 add 1/100, 1/10 and 1).
    """
    size = check_positive_int(grid_size, "grid_size", minimum=2)
    step = Fraction(15, 4 * size)
    above = {low + step * i for i in range(int((16 - low) / step) + 1)}
    below = set(log_grid(-2, 0, 3)) if low < 1 else set()
    epsilons = tuple(sorted(e for e in above | below if e >= low))
    small = log_grid(-12, -1, max(2, size // 2))
    large = tuple(Fraction(text) for text in ("1/2", "0.6", "0.75", "0.9", "0.99", "0.999"))
    return epsilons, tuple(sorted(set(small) | set(large)))

def classical_outside_range(grid_size: int = 8, sensitivity_squared: RationalLike = 1) -> FormulaSearch:
    """Does the classical σ = Δ sqrt(2 log(1.25/δ))/ε still give (ε, δ)-DP for ε >= 1 (any δ ∈ (0, 1))?

    Args:
        grid_size: the grid's resolution, an integer >= 2 (default 8; see :func:`outside_grids`).
        sensitivity_squared: the squared ℓ₂ sensitivity Δ² > 0 (not Δ), an exact rational: int, Fraction or a
            string such as ``"1/3"`` (default 1); a float is refused.
    """
    checked = positive_fraction(sensitivity_squared, "sensitivity_squared")
    epsilons, deltas = outside_grids(grid_size, Fraction(1))
    return search_formula(
        classical_formula,
        "classical Gaussian mechanism (Dwork & Roth A.1)",
        "epsilon in (0, 1)",
        epsilons=epsilons,
        deltas=deltas,
        sensitivity_squared=checked,
        refine_to=Fraction(1, 10**6),
    )
