"""Audit of a Laplace calibration: a certified verdict for given noise.

:func:`check_laplace` — is ``f(D) + Lap(scale)^d`` (ε, δ)-DP for the neighbouring differences
``sensitivity_vectors``? Holds / fails from an Arb ball on one side of δ, the exact δ(ε), the smallest ε
achieved, and the scale against the exact smallest scale (what the calibration audit reports). KARY's
Theorem 1.3 beside the exact profile is :mod:`reference.kary.theorem_1_3`.

Conventions: Lap(b) has density exp(−|x|/b)/(2b) and variance 2b², natural log; the exact profile is
:mod:`reference.privacy.laplace_profile` (Arb ball arithmetic via python-flint).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from reference.core.certified import CertifiedReal, format_directed, format_significant
from reference.core.exact_text import exact_text
from reference.core.validate import RationalLike, fraction_text, open_unit_fraction, positive_fraction
from reference.core.verdict import Decided
from reference.privacy.laplace_profile import (
    FINE_TOLERANCE,
    laplace_delta_worst_case,
    laplace_epsilon_worst_case,
    laplace_private,
)
from reference.privacy.laplace_scale import ExactLaplaceScale, laplace_scale_exact_worst_case


@dataclass(frozen=True)
class LaplaceVerdict(Decided):
    """Certified answer to "is Lap(scale)^d noise (ε, δ)-DP for these neighbouring differences?".

    ``holds`` is decided from balls lying entirely on one side of ``delta``; ``delta_at_epsilon`` encloses the
    largest δ(ε) over the vectors; ``epsilon_at_scale`` the smallest ε achieving ``delta``; ``exact`` the
    smallest sufficient scale; ``scale_ratio`` encloses scale / optimal scale (> 1: more noise than needed).
    """

    scale: Fraction
    epsilon: Fraction
    delta: Fraction
    holds: bool
    delta_at_epsilon: CertifiedReal
    epsilon_at_scale: CertifiedReal
    exact: ExactLaplaceScale
    scale_ratio: CertifiedReal

    def summary(self) -> str:
        """One line for a terminal."""
        verdict = "holds" if self.holds else "FAILS"
        return (
            f"({exact_text(self.epsilon)}, {exact_text(self.delta)})-DP {verdict} at Laplace scale="
            f"{format_significant(self.scale, 15)}: delta(epsilon)={self.delta_at_epsilon.decimal(15, rounded='up')}, "
            f"smallest epsilon for delta={format_directed(self.epsilon_at_scale.upper, 15, upward=True)}, "
            f"scale/scale_exact={format_directed(self.scale_ratio.lower, 15, upward=False)}"
        )

    def as_json(self) -> dict[str, object]:
        """JSON form (exact rationals as "p/q", reals as decimal strings)."""
        return {
            "verdict": self.verdict,
            "summary": self.summary(),
            "scale": fraction_text(self.scale),
            "epsilon": fraction_text(self.epsilon),
            "delta": fraction_text(self.delta),
            # achieved δ and ε rounded up; scale / optimal scale, read as noise to spare, rounded down
            "delta_at_epsilon": self.delta_at_epsilon.as_json("up"),
            "epsilon_at_scale": self.epsilon_at_scale.as_json("up"),
            "scale_exact": self.exact.as_json(),
            "scale_ratio": self.scale_ratio.as_json("down"),
        }


def check_laplace(
    *,
    epsilon: RationalLike,
    delta: RationalLike,
    scale: RationalLike,
    sensitivity_vectors: Sequence[Sequence[RationalLike]],
) -> LaplaceVerdict:
    """Certified verdict whether ``f(D) + Lap(scale)^d`` is (ε, δ)-DP when the neighbouring differences
    ``f(D') - f(D)`` are the given vectors (e.g. ``[[1] * h]`` for a tree mechanism of height h).

    Args:
        epsilon: ε > 0, an exact rational: int, Fraction or a string such as ``"1/2"``; a float is refused.
        delta: the target δ in the open interval (0, 1), exact as ``epsilon`` (e.g. ``"1e-6"``).
        scale: the Laplace scale b > 0 of each coordinate's noise (density ``∝ e^{−|x|/b}``), exact as ``epsilon``.
        sensitivity_vectors: the neighbouring differences v = f(D') − f(D): a non-empty sequence of non-empty
            sequences of exact rationals (e.g. ``[[1] * h]`` for a tree mechanism of height h); the verdict is
            for the worst of them.
    """
    lam = positive_fraction(scale, "scale")
    eps = positive_fraction(epsilon, "epsilon")
    target = open_unit_fraction(delta, "delta")
    worst = laplace_delta_worst_case(epsilon=eps, scale=lam, sensitivity_vectors=sensitivity_vectors)
    holds = laplace_private(epsilon=eps, delta=target, scale=lam, sensitivity_vectors=sensitivity_vectors)
    exact = laplace_scale_exact_worst_case(
        epsilon=eps, delta=target, sensitivity_vectors=sensitivity_vectors, tolerance=FINE_TOLERANCE
    )
    return LaplaceVerdict(
        scale=lam,
        epsilon=eps,
        delta=target,
        holds=holds,
        delta_at_epsilon=worst.delta,
        epsilon_at_scale=laplace_epsilon_worst_case(delta=target, scale=lam, sensitivity_vectors=sensitivity_vectors),
        exact=exact,
        scale_ratio=CertifiedReal(lam / exact.scale, lam / exact.scale_below),
    )


__all__ = ["LaplaceVerdict", "check_laplace"]
