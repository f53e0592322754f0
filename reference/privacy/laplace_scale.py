"""The smallest Laplace scale b making ``f(D) + Lap(b)^d`` (ε, δ)-DP for given neighbouring differences,
certified to a relative tolerance: exact rational search on b with certified comparisons of the exact profile
δ(ε) of :mod:`reference.privacy.laplace_profile` (Arb ball arithmetic via python-flint) against δ.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from reference.core.bisection import bisect
from reference.core.certified import CertifiedReal, format_directed
from reference.core.validate import (
    RationalLike,
    fraction_text,
    open_unit_fraction,
    positive_fraction,
    tolerance_fraction,
)
from reference.privacy.laplace_profile import (
    DEFAULT_TOLERANCE,
    ExactProfile,
    all_satisfied,
    profile_of_vector,
    profiles_of_vectors,
    reported_delta,
)


@dataclass(frozen=True)
class ExactLaplaceScale:
    """The smallest Laplace scale b making ``f(D) + Lap(b)^d`` (ε, δ)-DP, certified to a relative tolerance.

    ``scale`` is certified sufficient (Arb upper bound of δ(ε) there is <= ``delta``: ``delta_at_scale``)
    and ``scale_below = scale * (1 - tolerance)`` certified insufficient (Arb lower bound > ``delta``:
    ``delta_at_scale_below``). δ(ε) decreases in b, so the optimum lies in ``(scale_below, scale]``.
    ``l1_sensitivity`` is the largest ‖v‖_1 over the vectors; ``l1_sensitivity / epsilon`` (Lemma A.2) is
    always sufficient.
    """

    epsilon: Fraction
    delta: Fraction
    tolerance: Fraction
    l1_sensitivity: Fraction
    scale: Fraction
    scale_below: Fraction
    delta_at_scale: CertifiedReal
    delta_at_scale_below: CertifiedReal

    @property
    def enclosure(self) -> CertifiedReal:
        """``[scale_below, scale]``, which contains the optimal scale."""
        return CertifiedReal(self.scale_below, self.scale)

    @property
    def variance(self) -> Fraction:
        """``2 scale²``, the per-coordinate noise variance at the certified-sufficient scale."""
        return 2 * self.scale**2

    def decimal(self, digits: int = 20) -> str:
        """``scale`` (the certified-sufficient value) rounded up to ``digits`` significant digits: the printed
        scale is sufficient too.

        Args:
            digits: significant digits, a positive integer (default 20).
        """
        return format_directed(self.scale, digits, upward=True)

    def as_json(self) -> dict[str, object]:
        """JSON form (exact rationals as "p/q"; ``scale`` a decimal rounded up, a sufficient scale)."""
        return {
            "scale": self.decimal(),
            "scale_rounded": "up",
            "scale_rational": fraction_text(self.scale),
            "scale_below": fraction_text(self.scale_below),
            "tolerance": fraction_text(self.tolerance),
            "epsilon": fraction_text(self.epsilon),
            "delta": fraction_text(self.delta),
            "l1_sensitivity": fraction_text(self.l1_sensitivity),
            # δ at the sufficient scale is achieved (up); at the insufficient one, evidence it exceeds δ (down)
            "delta_at_scale": self.delta_at_scale.as_json("up"),
            "delta_at_scale_below": self.delta_at_scale_below.as_json("down"),
        }


def _scale_search(profiles: Sequence[ExactProfile], eps: Fraction, target: Fraction, tol: Fraction) -> ExactLaplaceScale:
    l1 = max(profile.total for profile in profiles)
    def sufficient(scale: Fraction) -> bool:
        return all_satisfied(profiles, epsilon=eps, scale=scale, target=target)

    high = l1 / eps  # Lemma A.2: δ(ε) = 0 exactly here
    # the search ends: δ(ε) -> 1 as b -> 0 and target < 1. It gallops on the binary exponent (divide by 2, 4,
    # 16, 256, ...) and then bisects the exponent, so a tiny ε (high = l1/ε = 1e5000, the answer near 1e196)
    # costs a few dozen decisions, not the sixteen thousand halvings that made it hang
    gap = 1
    low = high / 2
    while sufficient(low):
        high, gap = low, 2 * gap
        low = high / Fraction(2) ** gap
    while gap > 1:  # low certified insufficient, high = low * 2**gap certified sufficient
        half = gap // 2
        middle = low * Fraction(2) ** half
        if sufficient(middle):
            high, gap = middle, half
        else:
            low, gap = middle, gap - half
    # invariant: low certified insufficient, high certified sufficient
    low, high = bisect(sufficient, low, high, tolerance=tol)
    below = high * (1 - tol)
    # below <= low, so it is insufficient by monotonicity; certify it directly anyway
    if all_satisfied(profiles, epsilon=eps, scale=below, target=target):
        raise ArithmeticError("scale_below was certified sufficient: delta(epsilon) is not monotone in the scale")
    # impossible: high was certified sufficient
    if not all_satisfied(profiles, epsilon=eps, scale=high, target=target):
        raise ArithmeticError("scale was certified sufficient, then insufficient: inconsistent enclosures")
    at_below = reported_delta(profiles, epsilon=eps, scale=below, target=target)
    at_scale = reported_delta(profiles, epsilon=eps, scale=high, target=target)
    return ExactLaplaceScale(eps, target, tol, l1, high, below, at_scale, at_below)


def laplace_scale_exact(
    *,
    epsilon: RationalLike,
    delta: RationalLike,
    sensitivities: Sequence[RationalLike],
    tolerance: RationalLike = DEFAULT_TOLERANCE,
) -> ExactLaplaceScale:
    """The smallest scale b such that ``Lap(b)^d`` noise is (ε, δ)-DP for the sensitivity vector v.

    Exact rational bisection on b with certified comparisons of the exact profile δ(ε) against ``delta``
    (ε > 0, δ ∈ (0, 1)), starting from Lemma A.2's ``‖v‖_1/ε`` (δ = 0 there); stops when the bracket is within
    ``tolerance`` (relative, a rational in (0, 1)). See :class:`ExactLaplaceScale` for what is certified.

    Args:
        epsilon: the target ε > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        delta: the target δ in (0, 1), exact (int, Fraction or str such as ``"1/3"``; not float).
        sensitivities: the difference vector v: a non-empty sequence of exact rationals, at least one nonzero.
        tolerance: the relative width at which the bisection stops, exact (int, Fraction or str such as ``"1/3"``; not
            float) in (0, 1) (default 10^-12).
    """
    eps = positive_fraction(epsilon, "epsilon")
    target = open_unit_fraction(delta, "delta")
    tol = tolerance_fraction(tolerance)
    return _scale_search([profile_of_vector(sensitivities)], eps, target, tol)


def laplace_scale_exact_worst_case(
    *,
    epsilon: RationalLike,
    delta: RationalLike,
    sensitivity_vectors: Sequence[Sequence[RationalLike]],
    tolerance: RationalLike = DEFAULT_TOLERANCE,
) -> ExactLaplaceScale:
    """:func:`laplace_scale_exact` for the worst of several sensitivity vectors (δ(ε) maximised over them).

    Args:
        epsilon: ε > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        delta: δ in (0, 1), exact (int, Fraction or str such as ``"1/3"``; not float).
        sensitivity_vectors: the neighbouring differences v = f(D') − f(D): a non-empty sequence of non-empty sequences
            of exact rationals.
        tolerance: the relative width at which the bisection stops, exact (int, Fraction or str such as ``"1/3"``; not
            float) in (0, 1) (default 10^-12).
    """
    eps = positive_fraction(epsilon, "epsilon")
    target = open_unit_fraction(delta, "delta")
    tol = tolerance_fraction(tolerance)
    return _scale_search(profiles_of_vectors(sensitivity_vectors), eps, target, tol)


__all__ = ["ExactLaplaceScale", "laplace_scale_exact", "laplace_scale_exact_worst_case"]
