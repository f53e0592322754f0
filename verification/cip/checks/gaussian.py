"""Certified checks of the CIP paper's Gaussian calibration (Theorems 3.8, 3.9) and the classical formula.

Each function takes its grid size as a parameter (small in the test suite, larger in the report) and returns
a frozen dataclass with the evidence. Every verdict comes from an Arb enclosure of the exact privacy profile
δ(ε) (Balle & Wang 2018, Theorem 8) lying entirely on one side of the target δ:

* a σ formula *holds* at (ε, δ) when the Arb upper bound of δ(ε) at the *lower* end of the formula's σ
  enclosure is <= δ (δ(ε) decreases in σ, so it then holds at the exact irrational σ too);
* it *fails* when the Arb lower bound of δ(ε) at the *upper* end of the σ enclosure is > δ.

Scale invariance: with σ = c·Δ the profile δ(ε) depends on c only, so the paper's σ ∝ sqrt(‖diag C⁻¹‖) makes
``sigma_paper / sigma_exact`` independent of the depth. :func:`paper_sigma_sufficiency` checks every depth
anyway (it is cheap) rather than assuming it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from flint import arb

from reference.cip.privacy import sigma_theorem_3_8, sigma_theorem_3_9
from reference.cip.sensitivity import cascade_sensitivity_squared
from reference.core.certified import CertifiedReal, working_precision
from reference.core.certified import ball as _ball
from reference.core.validate import RationalLike, check_depth, check_positive_int, positive_fraction
from reference.core.verdict import Decided
from reference.privacy.formula_search import (
    PRECISION,
    FormulaSearch,
    exact_text,
    log_grid,
    outside_grids,
    search_formula,
)
from reference.privacy.gaussian import (
    FINE_TOLERANCE,
    gaussian_delta,
    sigma_exact,
)

# ------------------------------------------------------------------------------------------- (1) in range


@dataclass(frozen=True)
class PaperSigmaPoint:
    """One grid point of :func:`paper_sigma_sufficiency`."""

    epsilon: Fraction
    delta: Fraction
    depth: int
    sigma_paper: CertifiedReal  # Theorem 3.9 for C_depth
    theorem_3_8_agrees: bool  # Theorem 3.8 with max diag C⁻¹ gives an overlapping enclosure
    delta_at_sigma_paper: CertifiedReal  # δ(ε) at sigma_paper.lower
    holds: bool
    ratio: CertifiedReal  # sigma_paper / sigma_exact


@dataclass(frozen=True)
class PaperSigmaSufficiency(Decided):
    """Evidence that the σ of Theorems 3.8/3.9 gives (ε, δ)-DP on a grid inside their stated range."""

    epsilons: tuple[Fraction, ...]
    deltas: tuple[Fraction, ...]
    depths: tuple[int, ...]
    points_checked: int
    all_hold: bool
    all_theorem_3_8_agree: bool
    failures: tuple[PaperSigmaPoint, ...]
    smallest_ratio: PaperSigmaPoint  # paper σ closest to the optimum
    largest_ratio: PaperSigmaPoint  # paper σ most wasteful

    @property
    def holds(self) -> bool:
        """Every grid point holds and Theorems 3.8 and 3.9 agree everywhere."""
        return self.all_hold and self.all_theorem_3_8_agree

    def summary(self) -> str:
        """One paragraph of evidence for the report."""
        low, high = self.smallest_ratio, self.largest_ratio
        verdict = "all hold" if self.all_hold else f"{len(self.failures)} FAIL"
        return (
            f"{self.points_checked} points (ε ∈ [{exact_text(min(self.epsilons))}, {exact_text(max(self.epsilons))}], "
            f"δ ∈ [{exact_text(min(self.deltas))}, {exact_text(max(self.deltas))}], depths {self.depths[0]}..{self.depths[-1]}): "
            f"{verdict} (Arb upper bound of δ(ε) at the paper's σ <= δ); Theorem 3.9 "
            f"{'agrees' if self.all_theorem_3_8_agree else 'DISAGREES'} with Theorem 3.8 at max diag C⁻¹ = "
            f"1 + depth/3; sigma_paper/sigma_exact from {low.ratio.decimal(15, rounded='down')} (ε={exact_text(low.epsilon)}, "
            f"δ={exact_text(low.delta)}) to {high.ratio.decimal(15, rounded='down')} (ε={exact_text(high.epsilon)}, δ={exact_text(high.delta)})."
        )


def paper_sigma_sufficiency(grid_size: int = 6, max_depth: int = 20) -> PaperSigmaSufficiency:
    """Certify Theorem 3.9's σ (and Theorem 3.8's with max diag C⁻¹) over ε ∈ [1e-3, 1], δ ∈ [1e-12, 1/2].

    The ε and δ grids have ``grid_size`` points each (corners ε = 1, δ = 1/2, δ = 1e-12 included); depths run
    0..``max_depth``. For each point the ratio ``sigma_paper / sigma_exact`` is enclosed.
    """
    size = check_positive_int(grid_size, "grid_size", minimum=2)
    top = check_depth(max_depth, "max_depth")
    epsilons = log_grid(-3, 0, size)
    deltas = tuple(sorted(set(log_grid(-12, 0, size)[:-1]) | {Fraction(1, 2)}))
    depths = tuple(range(top + 1))
    points: list[PaperSigmaPoint] = []
    for depth in depths:
        diagonal = cascade_sensitivity_squared(depth, "add_remove")
        for epsilon in epsilons:
            for delta in deltas:
                paper = sigma_theorem_3_9(depth, epsilon=epsilon, delta=delta)
                general = sigma_theorem_3_8(epsilon=epsilon, delta=delta, max_precision_diagonal=diagonal)
                agrees = paper.lower <= general.upper and general.lower <= paper.upper
                at_paper = gaussian_delta(epsilon=epsilon, sigma=paper.lower, sensitivity_squared=diagonal)
                exact = sigma_exact(
                    epsilon=epsilon, delta=delta, sensitivity_squared=diagonal, tolerance=FINE_TOLERANCE
                )
                ratio = CertifiedReal(paper.lower / exact.sigma, paper.upper / exact.sigma_below)
                points.append(
                    PaperSigmaPoint(epsilon, delta, depth, paper, agrees, at_paper, at_paper.certainly_le(delta), ratio)
                )
    failures = tuple(point for point in points if not point.holds)
    return PaperSigmaSufficiency(
        epsilons=epsilons,
        deltas=deltas,
        depths=depths,
        points_checked=len(points),
        all_hold=not failures,
        all_theorem_3_8_agree=all(point.theorem_3_8_agrees for point in points),
        failures=failures,
        smallest_ratio=min(points, key=lambda point: point.ratio.midpoint),
        largest_ratio=max(points, key=lambda point: point.ratio.midpoint),
    )


# ------------------------------------------------------------------------------------- (2), (3) outside








def _theorem_3_8_formula(*, epsilon: Fraction, delta: Fraction, sensitivity_squared: Fraction) -> CertifiedReal:
    """The printed Theorem 3.8 formula sqrt(2 D log(2/δ))/ε (D = Δ²), evaluated for ANY ε, δ (no range check)."""
    with working_precision(PRECISION):
        ball = (2 * _ball(sensitivity_squared) * (2 / _ball(delta)).log()).sqrt() / _ball(epsilon)
    return CertifiedReal.from_arb(ball)












def theorem_3_8_outside_range(grid_size: int = 8, sensitivity_squared: RationalLike = 1) -> FormulaSearch:
    """Does Theorem 3.8's σ = sqrt(2 D log(2/δ))/ε still give (ε, δ)-DP outside ε ∈ (0, 1], δ ∈ (0, 1/2]?

    Searches ε ∈ [1/100, 16] and δ ∈ [1e-12, 0.999] (grid refined with ``grid_size``) for certified failures.
    By scale invariance the answer does not depend on D = ``sensitivity_squared`` (default 1).
    """
    d2 = positive_fraction(sensitivity_squared, "sensitivity_squared")
    epsilons, deltas = outside_grids(grid_size, Fraction(1, 100))
    return search_formula(
        _theorem_3_8_formula,
        "CIP Theorem 3.8",
        "epsilon in (0, 1], delta in (0, 1/2]",
        epsilons=epsilons,
        deltas=deltas,
        sensitivity_squared=d2,
        refine_to=Fraction(1, 10**6),
    )




# ---------------------------------------------------------------------------------- proof of Theorem 3.8


@dataclass(frozen=True)
class ProofStepPoint:
    """The tail bounds of the printed proof of Theorem 3.8 at one (ε, δ), at w = ε²/(2 log(2/δ)).

    ``x = ε/√w - √w/2 = sqrt(2L) - ε/(2 sqrt(2L))`` with L = log(2/δ), and P[privacy loss > ε] = P[Y > x].
    """

    epsilon: Fraction
    delta: Fraction
    printed_chain_bound: CertifiedReal  # 2 exp(-L/2): what x² >= log(2/δ) and P <= 2exp(-x²/2) deliver
    two_sided_bound: CertifiedReal  # 2 exp(-x²/2) at the actual x
    one_sided_bound: CertifiedReal  # exp(-x²/2) at the actual x
    exact_tail: CertifiedReal  # P[Y > x] = erfc(x/√2)/2


@dataclass(frozen=True)
class ProofAudit(Decided):
    """Which tail bound in the printed proof of Theorem 3.8 actually yields <= δ on the grid."""

    points: tuple[ProofStepPoint, ...]
    printed_chain_ever_within_delta: bool
    two_sided_ever_within_delta: bool
    one_sided_always_within_delta: bool
    exact_tail_always_within_delta: bool

    @property
    def holds(self) -> bool:
        """The printed chain of the proof gives <= δ at every grid point (certified)."""
        return all(point.printed_chain_bound.certainly_le(point.delta) for point in self.points)

    def summary(self) -> str:
        """One paragraph of evidence for the report."""
        return (
            f"On {len(self.points)} grid points (ε ∈ (0, 1], δ ∈ (0, 1/2]) at w = ε²/(2 log(2/δ)): the printed "
            "chain (x² >= log(2/δ) with P <= 2exp(-x²/2), i.e. sqrt(2δ)) is "
            f"{'sometimes' if self.printed_chain_ever_within_delta else 'never'} <= δ; the two-sided bound "
            f"2exp(-x²/2) at the actual x is {'sometimes' if self.two_sided_ever_within_delta else 'never'} <= δ; "
            f"the one-sided bound exp(-x²/2) is {'always' if self.one_sided_always_within_delta else 'NOT always'}"
            f" <= δ; the exact tail P[Y > x] is {'always' if self.exact_tail_always_within_delta else 'NOT always'}"
            " <= δ."
        )


def theorem_3_8_proof_audit(grid_size: int = 6) -> ProofAudit:
    """Evaluate, with certified enclosures, each bound the printed proof of Theorem 3.8 could rely on."""
    size = check_positive_int(grid_size, "grid_size", minimum=2)
    epsilons = log_grid(-3, 0, size)
    deltas = tuple(sorted(set(log_grid(-12, 0, size)[:-1]) | {Fraction(1, 2)}))
    points = []
    for epsilon in epsilons:
        for delta in deltas:
            with working_precision(PRECISION):
                big_l = (2 / _ball(delta)).log()
                root = (2 * big_l).sqrt()
                x = root - _ball(epsilon) / (2 * root)
                printed = 2 * (-big_l / 2).exp()
                two_sided = 2 * (-(x * x) / 2).exp()
                one_sided = (-(x * x) / 2).exp()
                exact = (x / arb(2).sqrt()).erfc() / 2
            points.append(
                ProofStepPoint(
                    epsilon,
                    delta,
                    CertifiedReal.from_arb(printed),
                    CertifiedReal.from_arb(two_sided),
                    CertifiedReal.from_arb(one_sided),
                    CertifiedReal.from_arb(exact),
                )
            )
    return ProofAudit(
        points=tuple(points),
        printed_chain_ever_within_delta=any(p.printed_chain_bound.certainly_le(p.delta) for p in points),
        two_sided_ever_within_delta=any(p.two_sided_bound.certainly_le(p.delta) for p in points),
        one_sided_always_within_delta=all(p.one_sided_bound.certainly_le(p.delta) for p in points),
        exact_tail_always_within_delta=all(p.exact_tail.certainly_le(p.delta) for p in points),
    )


# ------------------------------------------------------------------------------------ registry entry points


def theorem_grid_check(size: int = 6, max_depth: int = 20) -> PaperSigmaSufficiency:
    """Registry entry point: :func:`paper_sigma_sufficiency` with ``grid_size=size``."""
    return paper_sigma_sufficiency(grid_size=size, max_depth=max_depth)


def outside_range_search(size: int = 8) -> FormulaSearch:
    """Registry entry point: :func:`theorem_3_8_outside_range` with ``grid_size=size``."""
    return theorem_3_8_outside_range(grid_size=size)
